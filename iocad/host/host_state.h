/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The host platform's state (struct host), shared by its parts: the ops
 * (host_ops.c, host_apply.c), the devices (host_device.c), io_alloc
 * (host_io_alloc.c) and the opening (host_platform.c). Internal to host/;
 * it includes none of those parts, so each can include it.
 */
#ifndef IOCAD_HOST_STATE_H
#define IOCAD_HOST_STATE_H

#include <signal.h>
#include <stdint.h>

#include <libioca.h>

#include "host_cat.h"
#include "host_counters.h"
#include "host_iio.h"
#include "host_opts.h"
#include "platform.h"
#include "rdt.h"

/* Root ports whose DDIO iocad set (host_device.c). */
struct host_devices {
	unsigned int n;
	struct {
		char addr[PLATFORM_PCI_ADDR_LEN];
		uint32_t found; /* enum ioca_ddio_device_mode before iocad's first change */
		bool changed;	/* iocad set it: restore puts @found back */
	} d[PLATFORM_MAX_DEVICES];
};

/* Most intervals between two looks at a resctrl that is not there. */
#define HOST_CAT_BACKOFF_MAX 64

/* One socket the module knows. */
struct host_sock {
	bool present;
	uint32_t llc_ways;
	uint32_t start_mask; /* DDIO mask found at open, put back by restore */
	uint32_t ddio_cur;   /* last mask read back or set */
	bool ddio_changed;   /* iocad set DDIO: restore puts start_mask back */
	uint32_t ddio_epoch; /* DDIO epoch of iocad's last write (0: none known) */
	struct rdt *rdt;     /* its cache domain's groups; NULL: no online CPU */
	unsigned int l3_id;  /* its L3 cache id (resctrl's domain) */
};

struct host {
	char cpu_root[256];
	char pci_root[256]; /* /sys/bus/pci/devices (host_device.c) */
	volatile sig_atomic_t *stop;
	volatile sig_atomic_t *reload;
	host_print_fn print;
	void *print_arg;
	int lock_fd;
	int online_fd;	      /* cpu_root's online, kept open for the per-interval look */
	bool sampler_running; /* started by this iocad */
	bool lib_quiet;	      /* libioca's own "not loaded" is said better by us */
	bool have_plan;	      /* @plan was applied */
	bool hotplug_said;    /* a failed hotplug fix-up said, until one works */
	/*
	 * The plan in force's sampler is not running (neither the new nor
	 * the running config's would start, or someone stopped it): polls
	 * retry it at @retry_at_ms (CLOCK_MONOTONIC), @retry_ms apart,
	 * doubling to a minute; the allocation in force stays.
	 */
	bool sampler_down;
	unsigned int sampler_tries;
	uint64_t retry_ms, retry_at_ms;
	unsigned int waited_ms;		    /* without a sample, since the last one */
	char waiting[PLATFORM_WHY_LEN * 2]; /* what polls wait for; "" : a sample */
	struct platform_cpuset online;	    /* the online CPUs the groups were written for */
	struct ioca_client *client;	    /* requests; owns sampler and DDIO */
	struct ioca_subscription *sub;	    /* samples */
	struct ioca_cha_preset *preset;	    /* NULL: no DDIO counters */
	struct io_alloc *ioa;		    /* DDIO masks by resctrl's io_alloc; NULL: ioca.ko */
	char no_ddio_why[PLATFORM_WHY_LEN];
	char last_err[768];		  /* why the last call failed, for the loop's log */
	struct ioca_info *info;		  /* last info (read every interval) */
	struct platform_info pi;	  /* what info() says */
	struct platform_cpuset pi_online; /* the online CPUs @pi's CPU sockets were read for */
	struct host_sock sock[PLATFORM_MAX_SOCKETS];
	struct host_counters hc;
	struct ioca_sample *sample; /* receive buffer */
	struct platform_plan plan;  /* the one in force */
	struct rdt_group groups[RDT_MAX_GROUPS];
	/* resctrl gone (unmounted) or its groups failed to come back: said, backoff */
	bool cat_said;
	char cat_why[256];		    /* what CAT waits for while @cat_said */
	unsigned int cat_backoff, cat_skip; /* intervals between tries, left to skip */
	struct host_devices dev;	    /* root ports iocad set (host_device.c) */
	/* the raw L2 events, while worth trying (a refusal ends the tries) */
	bool l2_try;
	struct ioca_event l2_ev[HOST_NR_L2_EVENTS];
	struct host_iio iio; /* auto devices' write counters (host_iio.c) */
};

void host_say(struct host *h, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/*
 * host_apply.c: configure the sampler of the plan in force again (an IIO counter was
 * added); if it refuses the IIO events, without them. 0 or -errno.
 */
int host_apply_resample(struct host *h);

/*
 * host_platform.c: subscribe to the samples (nothing if subscribed). 0, or
 * -errno with @h->last_err saying why (EPERM: naming the capabilities;
 * ENOSPC: no slot for iocad until it owns the sampler).
 */
int host_subscribe(struct host *h);

/*
 * host_apply.c: start the sampler of the plan in force (after it went
 * down). 0, or -errno with @h->last_err saying why.
 */
int host_apply_sampler(struct host *h);

#endif /* IOCAD_HOST_STATE_H */
