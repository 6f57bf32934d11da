// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
#include "attrs.h"

#include <errno.h>
#include <stdio.h>

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
		why = ioca_attr_why(a, &pol[t]);
		if (why)
			return ioca_attr_reject(a, &pol[t], why, log, what);
		tb[t] = a;
	}
	return ioca_attrs_end(rem, log, what);
}

int ioca_attr_reject(const struct nlattr *a, const struct nla_policy *p, const char *why,
		     const struct ioca_log *log, const char *what)
{
	pr_warn(log, "%s: attribute %d (%d bytes): %s outside the policy (%u..%u)", what,
		ioca_nla_type(a), ioca_nla_len(a), why, p->minlen, p->maxlen);
	return -EBADMSG;
}

int ioca_attrs_truncated(int rem, const struct ioca_log *log, const char *what)
{
	pr_warn(log, "%s: %d bytes at the end are not a whole attribute (truncated)", what, rem);
	return -EBADMSG;
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
