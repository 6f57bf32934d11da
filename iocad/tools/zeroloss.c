// SPDX-License-Identifier: GPL-2.0
/*
 * zeroloss SCENARIO TENANT RING...: the IOCA paper's Fig. 3 on the
 * simulator. For each RX ring size (descriptors per queue), TENANT's
 * RFC2544 zero-loss throughput with its offered rate at most the
 * scenario's (the line rate): sim_loss.h, SIMULATOR.md "Zero-loss
 * throughput". Every tenant of the scenario with cpus runs its workload
 * on every LLC way (no CAT), DDIO on the scenario's mask; no events.
 * Prints one line per ring size; used by scripts/demo.sh.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "config/config_value.h"
#include "scenario.h"
#include "sim_loss.h"

static int usage(void)
{
	fputs("usage: zeroloss SCENARIO TENANT RING...\n", stderr);
	return 2;
}

int main(int argc, char **argv)
{
	static struct sim_model_ws ws;
	struct sim_tenant t[PLATFORM_MAX_TENANTS];
	struct scenario *s;
	char err[512];
	unsigned int k, all;
	int i, rc = 0;

	if (argc < 4)
		return usage();
	s = scenario_load(argv[1], err, sizeof(err));
	if (!s) {
		fprintf(stderr, "zeroloss: %s\n", err);
		return 2;
	}
	i = scenario_tenant_index(s, argv[2]);
	if (i < 0 || !(s->tenant[i].w.rate > 0) || !s->tenant[i].ncpus) {
		fprintf(stderr, "zeroloss: %s: no tenant '%s' with cpus and a rate\n", argv[1],
			argv[2]);
		scenario_free(s);
		return 2;
	}
	all = s->params.ways >= 32 ? UINT32_MAX : (1u << s->params.ways) - 1;
	for (k = 0; k < s->ntenants; k++)
		t[k] = (struct sim_tenant){
			.ncpus = s->tenant[k].ncpus, .mask = all, .w = s->tenant[k].w};
	printf("ring  zero_loss_mpps  of_offered  capacity_mpps  cycles_per_pkt  "
	       "ddio_misses_per_pkt\n");
	for (int a = 3; a < argc && !rc; a++) {
		struct sim_loss_result o;
		unsigned int ring;
		char why[120];

		if (config_value_uint(argv[a], 1, 65536, &ring, why, sizeof(why))) {
			fprintf(stderr, "zeroloss: ring '%s': %s\n", argv[a], why);
			rc = 2;
			break;
		}
		t[i].w.ring = ring;
		if (sim_loss_zero(&s->params, t, s->ntenants, (unsigned int)i, s->ddio_mask, &ws,
				  &o)) {
			fprintf(stderr, "zeroloss: the model failed at ring %u\n", ring);
			rc = 1;
			break;
		}
		printf("%u  %.4f  %.4f  %.4f  %.1f  %.3f\n", ring, o.rate / 1e6,
		       o.rate / t[i].w.rate, o.mu / 1e6, o.cpp, o.miss_pp);
	}
	scenario_free(s);
	return rc;
}
