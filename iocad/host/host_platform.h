/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The real host behind struct platform_ops: counters and DDIO through
 * ioca.ko (libioca), CAT through resctrl (rdt.c). Opening it checks the
 * tenants' CPUs against the socket, takes the socket's lock (one iocad per
 * socket), cleans up groups a dead instance left, configures and starts
 * the module's sampler as its owner and subscribes to its samples. What it
 * changes is put back by restore(); what it owns in the module (the
 * sampler, DDIO masks) is put back by the module if iocad dies.
 *
 * Not thread-safe: the loop's thread only.
 */
#ifndef IOCAD_HOST_PLATFORM_H
#define IOCAD_HOST_PLATFORM_H

#include <signal.h>
#include <stddef.h>

#include "config.h"
#include "platform.h"

typedef void (*host_print_fn)(void *arg, const char *msg);

struct host_platform_opts {
	size_t sz;		  /* sizeof(struct host_platform_opts) */
	const struct config *cfg; /* tenants and socket; copied */
	const char *resctrl_root; /* NULL: /sys/fs/resctrl */
	const char *cpu_root;	  /* NULL: /sys/devices/system/cpu */
	const char *lock_dir;	  /* NULL: /run/iocad */
	/* Set by SIGTERM/SIGINT: wait() returns at once. May be NULL. */
	volatile sig_atomic_t *stop;
	host_print_fn print; /* notices (cleanup, DDIO counters); NULL: stderr */
	void *print_arg;
	size_t : 0;
};
#define host_platform_opts__last_field print_arg

/*
 * Open the host platform for @opts->cfg into @pf. 0, or -errno with @err
 * saying what is missing and how to fix it (-ENOENT: ioca.ko not loaded
 * or resctrl not mounted; -EBUSY: another iocad or sampler owner;
 * -ENOSPC: too few CLOSIDs; -EINVAL: a tenant CPU is offline or on
 * another socket).
 */
int host_platform_open(const struct host_platform_opts *opts, struct platform *pf, char *err,
		       size_t errlen);

/*
 * SIGHUP: take @cfg's tenants (CPUs checked against the socket; the
 * sampler is reconfigured for their CPUs). Call before the loop plans for
 * them. 0, or -errno with @err set and nothing changed.
 */
int host_platform_set_tenants(struct platform *pf, const struct config *cfg, char *err,
			      size_t errlen);

/* Why DDIO counters are absent ("" when present). */
const char *host_platform_ddio_counters_reason(const struct platform *pf);

#endif /* IOCAD_HOST_PLATFORM_H */
