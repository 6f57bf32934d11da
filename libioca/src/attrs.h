/* SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause */
/*
 * Attribute parsing shared by the reply decoders: each nest is checked
 * against an attribute policy (libnl's struct nla_policy tables, the same
 * rules as libnl's nla_parse(): a type beyond the policy is skipped, a
 * typed one must have between minlen and maxlen bytes, a string its NUL)
 * plus what nla_parse() lets through: bytes left after the last whole
 * attribute (a truncated message) and a flag carrying data. A failure names
 * the nest and the attribute.
 *
 * The walk is inline rather than libnl's nla_parse() because a 256-CPU
 * sample has some 6000 attributes and libnl's out-of-line nla_ok /
 * nla_next / validate_nla calls made decoding one about three times
 * dearer (callgrind); tests/test_attrs.c checks this parser
 * against nla_parse() on valid and mutated messages.
 */
#ifndef LIBIOCA_ATTRS_H
#define LIBIOCA_ATTRS_H

#include <stdbool.h>
#include <stdint.h>
#include <string.h>
#include <netlink/attr.h>
#include "log.h"

/* Policy entries with explicit bounds. */
#define IOCA_POL_U8                                      \
	{                                                \
		.type = NLA_U8, .minlen = 1, .maxlen = 1 \
	}
#define IOCA_POL_U32                                      \
	{                                                 \
		.type = NLA_U32, .minlen = 4, .maxlen = 4 \
	}
#define IOCA_POL_U64                                      \
	{                                                 \
		.type = NLA_U64, .minlen = 8, .maxlen = 8 \
	}
#define IOCA_POL_FLAG                                      \
	{                                                  \
		.type = NLA_FLAG, .minlen = 0, .maxlen = 0 \
	}
#define IOCA_POL_NESTED            \
	{                          \
		.type = NLA_NESTED \
	}
#define IOCA_POL_STRING(max)                                     \
	{                                                        \
		.type = NLA_STRING, .minlen = 1, .maxlen = (max) \
	}

static inline int ioca_nla_type(const struct nlattr *a)
{
	return a->nla_type & NLA_TYPE_MASK;
}

static inline int ioca_nla_len(const struct nlattr *a)
{
	return (int)a->nla_len - NLA_HDRLEN;
}

static inline void *ioca_nla_data(const struct nlattr *a)
{
	return (char *)a + NLA_HDRLEN;
}

static inline bool ioca_nla_ok(const struct nlattr *a, int rem)
{
	return rem >= (int)NLA_HDRLEN && a->nla_len >= NLA_HDRLEN && (int)a->nla_len <= rem;
}

static inline struct nlattr *ioca_nla_next(const struct nlattr *a, int *rem)
{
	int step = NLA_ALIGN(a->nla_len);

	*rem -= step;
	return (struct nlattr *)((char *)a + step);
}

#define ioca_for_each_attr(pos, head, len, rem) \
	for (pos = (head), rem = (len); ioca_nla_ok(pos, rem); pos = ioca_nla_next(pos, &(rem)))

#define ioca_for_each_nested(pos, nest, rem) \
	ioca_for_each_attr(pos, (struct nlattr *)ioca_nla_data(nest), ioca_nla_len(nest), rem)

/* Values of attributes the policy checked (unaligned-safe). */
static inline uint8_t ioca_u8(const struct nlattr *a)
{
	return *(const uint8_t *)ioca_nla_data(a);
}

static inline uint32_t ioca_u32(const struct nlattr *a)
{
	uint32_t v;

	memcpy(&v, ioca_nla_data(a), sizeof(v));
	return v;
}

static inline uint64_t ioca_u64(const struct nlattr *a)
{
	uint64_t v;

	memcpy(&v, ioca_nla_data(a), sizeof(v));
	return v;
}

/* Why @a breaks @p, or NULL when it does not. */
static inline const char *ioca_attr_why(const struct nlattr *a, const struct nla_policy *p)
{
	int l = ioca_nla_len(a);

	if (p->type == NLA_UNSPEC)
		return NULL;
	if (l < p->minlen || (p->maxlen && l > p->maxlen))
		return "length";
	if (p->type == NLA_STRING && ((const char *)ioca_nla_data(a))[l - 1])
		return "a string without its NUL";
	/* libnl's policy has no check that a flag is empty. */
	if (p->type == NLA_FLAG && l)
		return "a flag carrying data";
	return NULL;
}

/* -EBADMSG, with a warning naming @what, @a and how it breaks @p. */
int ioca_attr_reject(const struct nlattr *a, const struct nla_policy *p, const char *why,
		     const struct ioca_log *log, const char *what);

/* -EBADMSG, with a warning that @rem bytes end @what unparsed. */
int ioca_attrs_truncated(int rem, const struct ioca_log *log, const char *what);

/*
 * Checks @a against @p: 0 or ioca_attr_reject(). Inline so that a decoder
 * switching on the type, with @p a constant entry of a static policy,
 * compiles to the one length compare that entry needs.
 */
static inline int ioca_attr_check(const struct nlattr *a, const struct nla_policy *p,
				  const struct ioca_log *log, const char *what)
{
	const char *why = ioca_attr_why(a, p);

	return why ? ioca_attr_reject(a, p, why, log, what) : 0;
}

/*
 * After a walk: the last attribute may end unpadded, which leaves @rem
 * below 0; above 0 the nest ends in part of an attribute.
 */
static inline int ioca_attrs_end(int rem, const struct ioca_log *log, const char *what)
{
	return rem > 0 ? ioca_attrs_truncated(rem, log, what) : 0;
}

/*
 * Checks the @len bytes at @head against @pol (@max its last type) and
 * fills @tb[0..max]; the last of repeated attributes wins, callers walk
 * repeated ones themselves. -EBADMSG with a warning naming @what on failure.
 */
int ioca_attrs_parse(struct nlattr **tb, int max, struct nlattr *head, int len,
		     const struct nla_policy *pol, const struct ioca_log *log, const char *what);

/* ioca_attrs_parse() over the payload of @nest. */
int ioca_nest_parse(struct nlattr **tb, int max, struct nlattr *nest, const struct nla_policy *pol,
		    const struct ioca_log *log, const char *what);

/* Copies the NUL-terminated string @a to @dst (truncating). */
void ioca_attr_string(char *dst, size_t size, const struct nlattr *a);

#endif
