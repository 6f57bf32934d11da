// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <stdlib.h>

#include "fwd_gen.h"

int fwd_gen(void *ctx, struct spec_gen *g)
{
	int64_t k = spec_gen__param(g);
	const struct spec_observed *hot;
	struct spec_gen_exact *c;
	size_t n, i;
	int ret;

	(void)ctx;
	if (!spec_gen__data(g) || k < 0)
		return -EINVAL;
	hot = spec_gen__hot(g, &n);
	if ((size_t)k < n)
		n = (size_t)k;
	if (!n)
		return 0; /* nothing sampled yet: the generic lookup alone */
	c = calloc(n, sizeof(*c));
	if (!c)
		return -ENOMEM;
	for (i = 0; i < n; i++) {
		c[i].key = (struct spec_u128){hot[i].value, hot[i].value_hi};
		c[i].out = hot[i].out;
	}
	ret = spec_gen__exact(g, 0, c, n);
	free(c);
	return ret;
}

struct spec_config *fwd_config(unsigned int rx, unsigned int tx, struct fwd_tables *t,
			       unsigned int k, uint32_t every)
{
	struct spec_config *c = spec_config__new();
	int err = 0;

	if (!c)
		return NULL;
	if (rx)
		err = spec_config__set_value(c, "rx_burst", rx);
	if (!err && rx)
		err = spec_config__set_guard(c, "rx_burst", false);
	if (!err && tx)
		err = spec_config__set_value(c, "tx_burst", tx);
	if (!err && tx)
		err = spec_config__set_guard(c, "tx_burst", false);
	if (!err && k)
		err = spec_config__set_data(c, FWD_FLOW_LABEL, t);
	if (!err && k)
		err = spec_config__set_param(c, FWD_FLOW_LABEL, k);
	if (!err && every)
		err = spec_config__set_sampling(c, FWD_FLOW_LABEL, every);
	if (err) {
		spec_config__free(c);
		errno = -err;
		return NULL;
	}
	return c;
}
