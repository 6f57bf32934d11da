// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
#include "attrs.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

/* The first attribute outside @pol's bounds, to name it in the warning. */
static void name_bad_attr(struct nlattr *head, int len, int max, const struct nla_policy *pol,
			  const struct ioca_log *log, const char *what)
{
	struct nlattr *a;
	int rem;

	nla_for_each_attr(a, head, len, rem)
	{
		int t = nla_type(a);
		int l = nla_len(a);

		if (t > max || pol[t].type == NLA_UNSPEC)
			continue;
		if (l < pol[t].minlen || (pol[t].maxlen && l > pol[t].maxlen) ||
		    (pol[t].type == NLA_FLAG && l)) {
			pr_warn(log, "%s: attribute %d has %d bytes, expected %u..%u", what, t, l,
				pol[t].minlen, pol[t].maxlen);
			return;
		}
		if (pol[t].type == NLA_STRING && ((const char *)nla_data(a))[l - 1]) {
			pr_warn(log, "%s: attribute %d is not a NUL-terminated string", what, t);
			return;
		}
	}
	pr_warn(log, "%s: attributes do not match the policy", what);
}

int ioca_attrs_parse(struct nlattr **tb, int max, struct nlattr *head, int len,
		     const struct nla_policy *pol, const struct ioca_log *log, const char *what)
{
	struct nlattr *a;
	int rem, err;

	nla_for_each_attr(a, head, len, rem)
	{
		/* Flags must be empty: libnl's policy has no check for it. */
		if (nla_type(a) <= max && pol[nla_type(a)].type == NLA_FLAG && nla_len(a)) {
			pr_warn(log, "%s: flag attribute %d carries %d bytes", what, nla_type(a),
				nla_len(a));
			return -EBADMSG;
		}
	}
	if (rem) {
		pr_warn(log, "%s: %d bytes at the end are not a whole attribute (truncated)", what,
			rem);
		return -EBADMSG;
	}
	err = nla_parse(tb, max, head, len, pol);
	if (err) {
		name_bad_attr(head, len, max, pol, log, what);
		return -EBADMSG;
	}
	return 0;
}

int ioca_nest_parse(struct nlattr **tb, int max, struct nlattr *nest, const struct nla_policy *pol,
		    const struct ioca_log *log, const char *what)
{
	return ioca_attrs_parse(tb, max, nla_data(nest), nla_len(nest), pol, log, what);
}

void ioca_attr_string(char *dst, size_t size, const struct nlattr *a)
{
	snprintf(dst, size, "%s", (const char *)nla_data(a));
}
