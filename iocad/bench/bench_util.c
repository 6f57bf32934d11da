// SPDX-License-Identifier: GPL-2.0
#include <stdio.h>

#include "bench_util.h"

uint64_t bench_rnd(uint64_t *state, uint64_t n)
{
	*state ^= *state << 13;
	*state ^= *state >> 7;
	*state ^= *state << 17;
	return *state % n;
}

double bench_now_us(clockid_t clock)
{
	struct timespec ts;

	clock_gettime(clock, &ts);
	return (double)ts.tv_sec * 1e6 + (double)ts.tv_nsec / 1e3;
}

void bench_config(struct config *c, unsigned int nt, unsigned int ncpus, unsigned int llc_ways)
{
	config_defaults(c);
	snprintf(c->path, sizeof(c->path), "bench");
	c->llc_ways = llc_ways;
	c->ddio_ways = 2;
	c->threshold_miss_low = 1e5;
	c->ntenants = nt;
	for (unsigned int i = 0; i < nt; i++) {
		struct config_tenant *t = &c->tenant[i];
		unsigned int per = ncpus / nt;

		snprintf(t->name, sizeof(t->name), "t%u", i);
		for (unsigned int k = 0; k < per; k++)
			t->cpus[k] = i * per + k;
		t->ncpus = per;
		t->ways = 1;
		t->prio = i % 4 == 0 ? CONFIG_PRIO_PS : CONFIG_PRIO_BE;
		t->networking = i % 2 == 0;
	}
}
