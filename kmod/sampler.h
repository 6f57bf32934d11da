/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _IOCA_SAMPLER_H
#define _IOCA_SAMPLER_H

#include <linux/completion.h>
#include <linux/hrtimer.h>
#include <linux/list.h>
#include <linux/mutex.h>
#include <linux/workqueue.h>
#include "parse.h"
#include "sample_msg.h"

struct perf_event;
struct sk_buff;
struct genl_info;

/**
 * struct ioca_sampler_slot - one sampled CPU
 * @s: owner
 * @index: position in the sample's CPU list
 * @ev: per-CPU events; NULL while the CPU is offline
 * @work: reads @ev on the slot's CPU
 */
struct ioca_sampler_slot {
	struct ioca_sampler *s;
	unsigned int index;
	struct perf_event *ev[IOCA_MAX_CPU_EVENTS];
	struct work_struct work;
};

/**
 * struct ioca_sampler - in-kernel counter sampling
 * @ctl_lock: serialises control ops (set, start, stop, shutdown)
 * @lock: protects everything below against the collector and CPU hotplug;
 *	taken after cpus_read_lock()
 * @shutdown: module is going away; start is refused
 * @state: IOCA_SAMPLER_STATE_*
 * @cfg: configuration, NULL when unconfigured
 * @eff_kind: kind counted per per-CPU event (after any fallback)
 * @hw_counters: the PMU has the generic hardware events
 * @slots: one per configured CPU while running
 * @cpus: readings, one per configured CPU
 * @sockets: uncore readings, one per socket, while running
 * @nr_sockets: entries in @sockets
 * @uncore: uncore events, [socket * nr_uncore + event]
 * @counts: storage for the uncore readings
 * @timer: paces the intervals
 * @collect_work: one interval's collection, on @wq
 * @wq: collector workqueue
 * @pending: per-CPU reads outstanding, plus one held by the collector
 * @done: completed when @pending drops to zero
 * @seq: last multicast sequence number
 * @intervals: intervals since start
 * @no_listener: intervals skipped for lack of listeners
 * @send_errors: messages that could not be built or sent
 * @last_collect_ns: collect time of the last sample
 * @sum_collect_ns: total collect time, for the mean
 * @nr_collect: samples built
 * @node: cpuhp instance
 * @cpuhp_state: dynamic hotplug state
 */
struct ioca_sampler {
	struct mutex ctl_lock; /* see @ctl_lock */
	struct mutex lock; /* see @lock */
	bool shutdown;
	enum ioca_sampler_state state;
	struct ioca_sampler_config *cfg;
	u32 eff_kind[IOCA_MAX_CPU_EVENTS];
	bool hw_counters;
	struct ioca_sampler_slot *slots;
	struct ioca_sample_cpu *cpus;
	struct ioca_sample_socket *sockets;
	unsigned int nr_sockets;
	struct perf_event **uncore;
	struct ioca_count *counts;
	struct hrtimer timer;
	struct work_struct collect_work;
	struct workqueue_struct *wq;
	atomic_t pending;
	struct completion done;
	u64 seq;
	u64 intervals;
	u64 no_listener;
	u64 send_errors;
	u64 last_collect_ns;
	u64 sum_collect_ns;
	u64 nr_collect;
	struct hlist_node node;
	int cpuhp_state;
};

int ioca_sampler_init(struct ioca_sampler *s);
void ioca_sampler_shutdown(struct ioca_sampler *s);
void ioca_sampler_exit(struct ioca_sampler *s);
int ioca_sampler_configure(struct ioca_sampler *s,
			   struct ioca_sampler_config *cfg,
			   struct netlink_ext_ack *extack);
int ioca_sampler_start(struct ioca_sampler *s,
		       struct netlink_ext_ack *extack);
int ioca_sampler_stop(struct ioca_sampler *s, struct netlink_ext_ack *extack);

#endif /* _IOCA_SAMPLER_H */
