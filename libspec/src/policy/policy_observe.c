// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <stdlib.h>

#include "policy/policy_observe.h"

int policy_observe_start(struct spec_runtime *rt, const char *const *labels, size_t n,
			 uint32_t every)
{
	struct spec_config *cfg = spec_config__new();
	size_t i;
	int ret = cfg ? 0 : -ENOMEM;

	for (i = 0; !ret && i < n; i++)
		ret = spec_config__set_sampling(cfg, labels[i], every);
	if (!ret)
		ret = spec_runtime__specialize_sync(rt, cfg, NULL);
	/* After the swap: only what this variant saw counts. */
	if (!ret)
		ret = spec_runtime__reset_counters(rt);
	spec_config__free(cfg);
	return ret;
}

static int dominant(const struct spec_point_info *pt, double share, struct policy_obs *o)
{
	size_t j;

	o->nr = 0;
	if (!pt->samples || !pt->nr_observed)
		return 0;
	o->values = calloc(pt->nr_observed, sizeof(*o->values));
	if (!o->values)
		return -ENOMEM;
	for (j = 0; j < pt->nr_observed; j++)
		if ((double)pt->observed[j].count >= share * (double)pt->samples)
			o->values[o->nr++] = pt->observed[j].value;
	return 0;
}

int policy_observe_collect(struct spec_runtime *rt, const char *const *labels, size_t n,
			   double share, struct policy_obs **out)
{
	struct spec_space *space = spec_runtime__space(rt);
	struct policy_obs *obs = calloc(n ? n : 1, sizeof(*obs));
	size_t i;
	int ret = space && obs ? 0 : -ENOMEM;

	for (i = 0; !ret && i < n; i++) {
		const struct spec_point_info *pt = spec_space__find(space, labels[i]);

		obs[i].label = labels[i];
		ret = pt ? dominant(pt, share, &obs[i]) : -ENOENT;
	}
	spec_space__free(space);
	if (ret) {
		policy_observe_free(obs, n);
		return ret;
	}
	*out = obs;
	return 0;
}

void policy_observe_free(struct policy_obs *obs, size_t n)
{
	size_t i;

	if (!obs)
		return;
	for (i = 0; i < n; i++)
		free(obs[i].values);
	free(obs);
}
