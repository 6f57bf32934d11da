/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The host platform's state and its struct platform_ops (host_ops.c,
 * host_apply.c); host_platform.c opens and closes it. Internal to them.
 */
#ifndef IOCAD_HOST_OPS_H
#define IOCAD_HOST_OPS_H

#include <signal.h>
#include <stdint.h>

#include <libioca.h>

#include "host_cat.h"
#include "host_counters.h"
#include "host_device.h"
#include "host_iio.h"
#include "host_platform.h"
#include "host_watch.h"
#include "platform.h"
#include "rdt.h"

/* Most intervals between two looks at a resctrl that is not there. */
#define HOST_CAT_BACKOFF_MAX 64

/* One socket the module knows. */
struct host_sock {
	bool present;
	uint32_t llc_ways;
	uint32_t start_mask; /* DDIO mask found at open, put back by restore */
	uint32_t ddio_cur;   /* last mask read back or set */
	bool ddio_changed;   /* iocad set DDIO: restore puts start_mask back */
	struct rdt *rdt;     /* its cache domain's groups; NULL: no online CPU */
	unsigned int l3_id;  /* its L3 cache id (resctrl's domain) */
};

struct host {
	char cpu_root[256];
	char pci_root[256]; /* /sys/bus/pci/devices (host_device.c) */
	volatile sig_atomic_t *stop;
	host_print_fn print;
	void *print_arg;
	int lock_fd;
	bool sampler_running;		/* started by this iocad */
	bool lib_quiet;			/* libioca's own "not loaded" is said better by us */
	bool have_plan;			/* @plan was applied */
	bool late_said;			/* "no sample for N ms" said, until one comes */
	bool hotplug_said;		/* a failed hotplug fix-up said, until one works */
	struct platform_cpuset online;	/* the online CPUs the groups were written for */
	struct ioca_client *client;	/* requests; owns sampler and DDIO */
	struct ioca_subscription *sub;	/* samples */
	struct ioca_cha_preset *preset; /* NULL: no DDIO counters */
	struct io_alloc *ioa;		/* DDIO masks by resctrl's io_alloc; NULL: ioca.ko */
	char no_ddio_why[PLATFORM_WHY_LEN];
	char last_err[768];	 /* why the last call failed, for the loop's log */
	struct ioca_info *info;	 /* last info (read every interval) */
	struct platform_info pi; /* what info() says */
	struct host_sock sock[PLATFORM_MAX_SOCKETS];
	struct host_counters hc;
	struct ioca_sample *sample; /* receive buffer */
	struct platform_plan plan;  /* the one in force */
	struct rdt_group groups[RDT_MAX_GROUPS];
	/* resctrl gone (unmounted) or its groups failed to come back: said, backoff */
	bool cat_said;
	unsigned int cat_backoff, cat_skip; /* intervals between tries, left to skip */
	struct host_devices dev;	    /* root ports iocad set (host_device.c) */
	/* the raw L2 events, while worth trying (a refusal ends the tries) */
	bool l2_try;
	struct ioca_event l2_ev[HOST_NR_L2_EVENTS];
	struct host_iio iio; /* auto devices' write counters (host_iio.c) */
};

extern const struct platform_ops host_platform_ops;

void host_say(struct host *h, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* The module's word on one socket's DDIO way control, into the platform's info. */
void host_ddio_control(struct platform_socket_info *ps, const struct ioca_ddio_control *dc);

/* The plan's socket @id, or NULL if the plan has none of iocad's state there. */
const struct platform_socket_plan *host_plan_socket(const struct platform_plan *p, unsigned int id);

int host_check(void *ctx, const struct platform_plan *p);
int host_apply(void *ctx, const struct platform_plan *p);
int host_restore(void *ctx);

/*
 * host_apply.c's CAT steps, for host_watch.c: stage @p's CAT on every
 * socket (0, or -errno with last_err set and every socket put back);
 * remove what the staged plan dropped; after a failure, read resctrl and
 * the DDIO masks back and return @r.
 */
int host_apply_cat(struct host *h, const struct platform_plan *p);
void host_commit_cat(struct host *h);
int host_reread(struct host *h, int r);

/*
 * Configure the sampler of the plan in force again (an IIO counter was
 * added); if it refuses the IIO events, without them. 0 or -errno.
 */
int host_apply_resample(struct host *h);

void host_destroy(void *ctx);

#endif /* IOCAD_HOST_OPS_H */
