/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The host platform's state and its struct platform_ops (host_ops.c);
 * host_platform.c opens and closes it. Internal to the two.
 */
#ifndef IOCAD_HOST_OPS_H
#define IOCAD_HOST_OPS_H

#include <signal.h>
#include <stdint.h>

#include <libioca.h>

#include "config.h"
#include "host_cat.h"
#include "host_counters.h"
#include "host_platform.h"
#include "platform.h"
#include "rdt.h"

struct host {
	struct config cfg; /* the tenants in force (socket never changes) */
	char cpu_root[256];
	volatile sig_atomic_t *stop;
	host_print_fn print;
	void *print_arg;
	int lock_fd;
	bool sampler_running;		/* started by this iocad */
	bool ddio_changed;		/* iocad set DDIO: restore puts start_mask back */
	bool lib_quiet;			/* libioca's own "not loaded" is said better by us */
	struct ioca_client *client;	/* requests; owns sampler and DDIO */
	struct ioca_subscription *sub;	/* samples */
	struct ioca_cha_preset *preset; /* NULL: no DDIO counters */
	char no_ddio_why[160];
	char last_err[768];		     /* why the last apply failed, for the loop's log */
	struct ioca_info *info;		     /* last info (read every interval) */
	const struct ioca_socket_info *sock; /* in info, at open */
	uint32_t sock_id;
	uint32_t llc_ways;
	uint32_t start_mask; /* DDIO mask found at open, put back by restore */
	uint32_t ddio_cur;   /* last mask read back or set */
	unsigned int ncpus;  /* CPU ids below this exist (sysfs) */
	struct rdt *rdt;
	struct host_cat_table tab;
	struct host_counters hc;
	struct ioca_sample *sample;		 /* receive buffer */
	unsigned int skipped;			 /* samples without DDIO counters, not folded */
	struct rdt_group groups[RDT_MAX_GROUPS]; /* apply's scratch */
	struct rdt_group prev[RDT_MAX_GROUPS];	 /* what to go back to */
};

extern const struct platform_ops host_platform_ops;

void host_say(struct host *h, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Configure the sampler (owned) for the table's CPUs and start it. */
int host_sampler_start(struct host *h, char *err, size_t errlen);

void host_destroy(void *ctx);

#endif /* IOCAD_HOST_OPS_H */
