// SPDX-License-Identifier: GPL-2.0
#include "sim_socket.h"

#include <string.h>

unsigned int sim_socket_of_cpu(const struct scenario *s, unsigned int cpu)
{
	unsigned int id = s->cpus_per_socket ? cpu / s->cpus_per_socket : 0;

	return id < s->nsockets ? id : s->nsockets - 1;
}

void sim_sockets_bind(struct sim_sockets *ss, const struct scenario *s, const struct sim_bind *b)
{
	ss->n = s->nsockets ? s->nsockets : 1;
	for (unsigned int i = 0; i < s->ntenants; i++)
		ss->of[i] = b->tenant_ncpus[i] ? sim_socket_of_cpu(s, b->cpu[i][0]) : 0;
}

int sim_sockets_solve(struct sim_sockets *ss, const struct sim_params *p,
		      const struct sim_tenant *t, unsigned int n, const uint32_t *ddio,
		      struct sim_model_ws *ws, struct sim_rates *out)
{
	int err;

	if (ss->n == 1) {
		err = sim_model_solve(p, t, n, ddio[0], ws, out);
		if (!err)
			ss->rates[0] = *out;
		return err;
	}
	memset(out, 0, sizeof(*out));
	out->ntenants = n;
	for (unsigned int s = 0; s < ss->n; s++) {
		struct sim_rates *r = &ss->rates[s];
		unsigned int k = 0;

		for (unsigned int i = 0; i < n; i++)
			if (ss->of[i] == s) {
				ss->sub[k] = t[i];
				ss->map[k++] = i;
			}
		err = sim_model_solve(p, ss->sub, k, ddio[s], ws, r);
		if (err)
			return err;
		for (unsigned int j = 0; j < k; j++)
			out->tenant[ss->map[j]] = r->tenant[j];
		out->ddio_hits += r->ddio_hits;
		out->ddio_misses += r->ddio_misses;
		out->ddio_occ += r->ddio_occ;
		out->mem_bytes += r->mem_bytes;
		if (r->iterations > out->iterations)
			out->iterations = r->iterations;
	}
	return 0;
}
