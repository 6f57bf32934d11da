// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
#include "attrs.h"

#include <errno.h>
#include <stdio.h>

/* Why @a breaks @p, or NULL when it does not. */
static const char *check(const struct nlattr *a, const struct nla_policy *p)
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

int ioca_attrs_parse(struct nlattr **tb, int max, struct nlattr *head, int len,
		     const struct nla_policy *pol, const struct ioca_log *log, const char *what)
{
	struct nlattr *a;
	const char *why;
	int rem, t;

	memset(tb, 0, (size_t)(max + 1) * sizeof(*tb));
	ioca_for_each_attr(a, head, len, rem)
	{
		t = ioca_nla_type(a);
		if (t > max)
			continue;
		why = check(a, &pol[t]);
		if (why) {
			pr_warn(log, "%s: attribute %d (%d bytes): %s outside the policy (%u..%u)",
				what, t, ioca_nla_len(a), why, pol[t].minlen, pol[t].maxlen);
			return -EBADMSG;
		}
		tb[t] = a;
	}
	/* The last attribute may end unpadded, which leaves rem below 0. */
	if (rem > 0) {
		pr_warn(log, "%s: %d bytes at the end are not a whole attribute (truncated)", what,
			rem);
		return -EBADMSG;
	}
	return 0;
}

int ioca_nest_parse(struct nlattr **tb, int max, struct nlattr *nest, const struct nla_policy *pol,
		    const struct ioca_log *log, const char *what)
{
	return ioca_attrs_parse(tb, max, ioca_nla_data(nest), ioca_nla_len(nest), pol, log, what);
}

void ioca_attr_string(char *dst, size_t size, const struct nlattr *a)
{
	snprintf(dst, size, "%s", (const char *)ioca_nla_data(a));
}
