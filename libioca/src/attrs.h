/* SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause */
/*
 * Attribute parsing shared by the reply decoders. libnl's nla_parse() checks
 * each attribute against the policy's minlen/maxlen but ignores bytes left
 * over after the last whole attribute and does not say which attribute
 * failed; these wrappers add both, so a truncated reply is refused with a
 * message naming the nest and the attribute.
 */
#ifndef LIBIOCA_ATTRS_H
#define LIBIOCA_ATTRS_H

#include <netlink/attr.h>
#include "log.h"

/* Policy entries with explicit bounds (libnl checks both). */
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

/*
 * Validates the @len bytes at @head against @pol (@max its last type) and
 * fills @tb; the last of repeated attributes wins, callers walk repeated
 * ones themselves. -EBADMSG with a warning naming @what on failure.
 */
int ioca_attrs_parse(struct nlattr **tb, int max, struct nlattr *head, int len,
		     const struct nla_policy *pol, const struct ioca_log *log, const char *what);

/* ioca_attrs_parse() over the payload of @nest. */
int ioca_nest_parse(struct nlattr **tb, int max, struct nlattr *nest, const struct nla_policy *pol,
		    const struct ioca_log *log, const char *what);

/* Copies the NUL-terminated string @a to @dst (truncating). */
void ioca_attr_string(char *dst, size_t size, const struct nlattr *a);

#endif
