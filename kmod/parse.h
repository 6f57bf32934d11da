/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _IOCA_PARSE_H
#define _IOCA_PARSE_H

#include <linux/types.h>
#include <linux/ioca.h>

struct nlattr;
struct netlink_ext_ack;
struct ioca_ddio;
struct ioca_ddio_req;

/**
 * struct ioca_event_spec - one event as configured
 * @kind: IOCA_EVENT_KIND_*
 * @type: perf PMU type (raw kinds only)
 * @config: perf config (raw kinds only)
 * @config1: perf config1 (raw kinds only)
 */
struct ioca_event_spec {
	u32 kind;
	u32 type;
	u64 config;
	u64 config1;
};

/**
 * struct ioca_sampler_config - a validated sampler-set request
 * @interval_us: sampling interval
 * @nr_cpus: entries in @cpus
 * @cpus: sampled CPUs, ascending
 * @nr_events: entries in @events
 * @events: per-CPU events
 * @nr_uncore: entries in @uncore
 * @uncore: per-socket events
 */
struct ioca_sampler_config {
	u32 interval_us;
	unsigned int nr_cpus;
	u32 cpus[IOCA_MAX_CPUS];
	unsigned int nr_events;
	struct ioca_event_spec events[IOCA_MAX_CPU_EVENTS];
	unsigned int nr_uncore;
	struct ioca_event_spec uncore[IOCA_MAX_UNCORE_EVENTS];
};

int ioca_parse_event(const struct nlattr *nest, bool uncore,
		     struct ioca_event_spec *ev, struct netlink_ext_ack *extack);
int ioca_parse_sampler_config(const struct nlattr *head, int len,
			      struct ioca_sampler_config *cfg,
			      struct netlink_ext_ack *extack);
int ioca_ddio_parse(const struct ioca_ddio *d, const struct nlattr *head,
		    int len, struct ioca_ddio_req *reqs, unsigned int *n,
		    struct netlink_ext_ack *extack);

#endif /* _IOCA_PARSE_H */
