/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The simulated platform: a scenario (scenario.h) run through the model
 * (sim_model.h) behind the platform interface, so iocad's loop cannot tell
 * it from a real host. Each poll() advances simulated time by one interval,
 * applies the scenario's events as their time comes, integrates the
 * model's rates piecewise between them and returns cumulative counters
 * with optional multiplicative noise; PLATFORM_END once the scenario's
 * duration is used up. apply() takes effect from the next interval on.
 */
#ifndef IOCAD_SIM_PLATFORM_H
#define IOCAD_SIM_PLATFORM_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "platform.h"
#include "sim_bind.h"
#include "sim_model.h"
#include "sim_socket.h"

struct sim_platform_opts {
	size_t sz;	       /* sizeof(struct sim_platform_opts) */
	uint64_t seed;	       /* 0: the scenario's seed */
	double noise;	       /* <0: the scenario's; else relative sd of counter noise */
	uint64_t interval_ns;  /* one poll advances simulated time by this */
	unsigned int llc_ways; /* 0: the scenario's */
	const struct sim_tenant_cfg *tenants;
	unsigned int ntenants;
	/*
	 * Set to 1 when a scenario "reload" event fires (like a SIGHUP handler
	 * would); the config to read is then sim_platform_reload_path().
	 * NULL: reload events only record their path.
	 */
	volatile sig_atomic_t *reload;
	/* Called with the config path when a "reload" event fires (may be NULL). */
	void (*reload_cb)(void *arg, const char *path);
	void *reload_arg;
};

/* 0 or -errno; on error errbuf says what and where (scenario file:line). */
int sim_platform_open(const char *scenario_path, const struct sim_platform_opts *opts,
		      struct platform *out, char *errbuf, size_t errlen);

/*
 * For tests and tools: the model's rates in the last segment integrated
 * (per scenario tenant, in scenario order), or NULL if @pf is not a
 * simulator or has not been polled yet.
 */
const struct sim_rates *sim_platform_rates(const struct platform *pf);

/*
 * The config file named by the last scenario reload event that fired
 * (relative paths resolved against the scenario's directory), or NULL.
 */
const char *sim_platform_reload_path(const struct platform *pf);

/*
 * What the model solves right now, for tools that evaluate other layouts
 * on the same workloads (iocad/eval's oracle): the parameters, every
 * scenario tenant (CPUs bound, current masks and workloads, in scenario
 * order), the sockets they sit on and each socket's DDIO mask. Pointers
 * into @pf, valid until its next poll(), apply() or destroy().
 */
struct sim_platform_view {
	const struct sim_params *params;
	const struct sim_tenant *t;
	const char *const *names; /* each tenant's name, scenario order */
	unsigned int ntenants;
	const struct sim_sockets *sock;
	const uint32_t *ddio; /* per socket */
};

/* 0, or -EINVAL if @pf is not a simulator. */
int sim_platform_view(const struct platform *pf, struct sim_platform_view *out);

/* Current DDIO mask and a tenant's CAT mask (0 if unknown), as the sim applies them. */
uint32_t sim_platform_ddio_mask(const struct platform *pf);
uint32_t sim_platform_tenant_mask(const struct platform *pf, const char *name);

#endif /* IOCAD_SIM_PLATFORM_H */
