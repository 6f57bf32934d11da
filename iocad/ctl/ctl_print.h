/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Readable output of the ioca family's replies: info, one sample, and the
 * per-interval lines of monitor (deltas against the previous sample).
 */
#ifndef IOCACTL_CTL_PRINT_H
#define IOCACTL_CTL_PRINT_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <linux/ioca.h>
#include <netlink/netlink.h>

/* "instructions", ... for an IOCA_EVENT_KIND_*, "kind-N" when unknown. */
const char *ctl_print_kind(uint32_t kind, char *buf, size_t len);

/* tnl_parse_fn for INFO_GET; @arg is the FILE * to print to. */
int ctl_print_info(struct nlmsghdr *nlh, void *arg);

/* tnl_parse_fn for SAMPLE_GET; @arg is the FILE * to print to. */
int ctl_print_sample(struct nlmsghdr *nlh, void *arg);

/* What monitor carries from one multicast message to the next. */
struct ctl_monitor {
	FILE *out;
	bool have_prev;
	uint64_t prev_seq;
	uint64_t prev_time_ns;
	uint64_t lost;	   /* messages missing from the sequence so far */
	unsigned int seen; /* messages printed */
	/* Cumulative values of the previous sample, [cpu][event index]. */
	bool prev_valid[IOCA_MAX_CPUS][IOCA_MAX_CPU_EVENTS];
	uint64_t prev[IOCA_MAX_CPUS][IOCA_MAX_CPU_EVENTS];
};

/*
 * tnl_parse_fn for SAMPLE_NTF; @arg is a struct ctl_monitor. Prints one
 * line per message ("seq N time S.ssssss ... cpuC a/b"), and a gap line
 * before it when sequence numbers were skipped.
 */
int ctl_print_monitor(struct nlmsghdr *nlh, void *arg);

#endif
