/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The simulator's sockets: each an LLC of its own (the scenario's
 * parameters, its own DDIO mask and the tenants whose CPUs are on it),
 * solved independently. A scenario without `sockets` has one, and then
 * the model runs exactly as it always did.
 */
#ifndef IOCAD_SIM_SOCKET_H
#define IOCAD_SIM_SOCKET_H

#include "scenario.h"
#include "sim_bind.h"
#include "sim_model.h"

struct sim_sockets {
	unsigned int n;
	unsigned int of[PLATFORM_MAX_TENANTS];	      /* each scenario tenant's socket */
	struct sim_rates rates[PLATFORM_MAX_SOCKETS]; /* the last solve, per socket */
	struct sim_tenant sub[PLATFORM_MAX_TENANTS];  /* scratch: one socket's tenants */
	unsigned int map[PLATFORM_MAX_TENANTS];
};

/* The socket of CPU @cpu in scenario @s. */
unsigned int sim_socket_of_cpu(const struct scenario *s, unsigned int cpu);

/* Place @s's tenants (bound by @b) on their sockets: that of their first CPU. */
void sim_sockets_bind(struct sim_sockets *ss, const struct scenario *s, const struct sim_bind *b);

/*
 * Solve every socket: its tenants of @t (@n, scenario order) under its
 * DDIO mask @ddio[socket]. @out gets every tenant's rates and the sockets'
 * sums; ss->rates each socket's own. 0 or -EINVAL.
 */
int sim_sockets_solve(struct sim_sockets *ss, const struct sim_params *p,
		      const struct sim_tenant *t, unsigned int n, const uint32_t *ddio,
		      struct sim_model_ws *ws, struct sim_rates *out);

#endif /* IOCAD_SIM_SOCKET_H */
