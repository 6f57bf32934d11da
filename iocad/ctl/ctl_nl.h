/* SPDX-License-Identifier: GPL-2.0 */
/*
 * iocactl's requests to the ioca family. The transport (one socket with
 * NETLINK_EXT_ACK on, family resolved once, extack parsed from the error)
 * is the selftests' tnl client, and DDIO requests are ioca_client.c's
 * ioca_ddio_set()/ioca_ddio_restore(), shared rather than written twice.
 */
#ifndef IOCACTL_CTL_NL_H
#define IOCACTL_CTL_NL_H

#include <stdbool.h>
#include <stdint.h>
#include <linux/ioca.h>
#include "nl.h"
#include "ioca_client.h"

struct ctl_sampler_cfg {
	uint32_t interval_us; /* 0 = leave out (kernel default) */
	unsigned int ncpus;
	unsigned int cpus[IOCA_MAX_CPUS];
	unsigned int nevents;
	struct ioca_event_cfg ev[IOCA_MAX_CPU_EVENTS];
	unsigned int nuncore;
	struct ioca_event_cfg unc[IOCA_MAX_UNCORE_EVENTS];
};

/*
 * Opens @t and resolves the family. -ENOENT means the family is absent
 * (the module is not loaded).
 */
int ctl_nl_open(struct tnl *t);

int ctl_nl_sampler_set(struct tnl *t, const struct ctl_sampler_cfg *cfg, struct tnl_reply *r);

/* A request without attributes; each reply message goes to @parse(@arg). */
int ctl_nl_simple(struct tnl *t, uint8_t cmd, tnl_parse_fn parse, void *arg, struct tnl_reply *r);

/*
 * Prints "iocactl: OP: strerror[: extack]" to stderr for a failed request
 * (@r may be NULL when the failure was before the kernel answered).
 */
void ctl_nl_report(const char *op, int err, const struct tnl_reply *r);

#endif
