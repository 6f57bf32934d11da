/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The sampler's state, shared by its parts (sampler.c, collect.c,
 * sampler_events.c, sampler_uncore.c); each includes this, so none
 * includes sampler.h, the sampler's interface to the rest of the module.
 */
#ifndef _IOCA_SAMPLER_STATE_H
#define _IOCA_SAMPLER_STATE_H

#include <linux/cpumask.h>
#include <linux/hrtimer.h>
#include <linux/list.h>
#include <linux/mutex.h>
#include <linux/workqueue.h>
#include "parse.h"
#include "sample_msg.h"
#include "subscribers.h"

struct perf_event;
struct sk_buff;
struct genl_info;
struct ioca_emul_counters;
struct ioca_ddio;

/**
 * struct ioca_sampler_slot - one sampled CPU
 * @s: owner
 * @index: position in the sample's CPU list
 * @ev: per-CPU events (pinned); NULL while the CPU is offline
 * @created_ns: CLOCK_MONOTONIC when @ev were created and began counting
 */
struct ioca_sampler_slot {
	struct ioca_sampler *s;
	unsigned int index;
	struct perf_event *ev[IOCA_MAX_CPU_EVENTS];
	u64 created_ns;
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
 * @uncore_base: per uncore event, the counts of its earlier instances,
 *	closed when their socket's last CPU went offline; for an emulated
 *	event, its count at the run's start
 * @timer: paces the intervals
 * @collect_work: one interval's collection, on @wq
 * @wq: collector workqueue
 * @read_mask: CPUs whose counters the current interval reads
 * @read_ns: CLOCK_MONOTONIC at the start of the current collection
 * @parts: message plan of a sample, while running
 * @max_parts: entries in @parts
 * @last_parts: messages the last sample took
 * @part_budget: payload bytes per message (IOCA_PART_BUDGET unless a test
 *	asks for less)
 * @emul: emulated DDIO counters (emulate=1), NULL on real hardware
 * @ddio: DDIO state whose masks every sample carries; NULL: none
 * @subs: sockets the periodic samples are unicast to
 * @mcast_overruns: multicast sends some listener of the (legacy) group
 *	could not take
 * @start_ns: CLOCK_MONOTONIC at start, the emulated counters' enabled time
 * @generation: per CPU id, bumped each time its counters are created
 * @owner_portid: netlink socket owning the sampler, 0 when none
 * @owner_pid: that socket's process
 * @busy_msg: extack text naming the owner
 * @seq: last multicast sequence number
 * @epoch: run epoch, bumped by every configure and start (under @lock)
 * @fail_starts: emulate=1 test knob: this many next starts fail as if the
 *	PMU's counters were taken (debugfs ioca/sampler_fail_starts)
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
	struct ioca_count *uncore_base;
	struct hrtimer timer;
	struct work_struct collect_work;
	struct workqueue_struct *wq;
	cpumask_var_t read_mask;
	u64 read_ns;
	struct ioca_sample_part *parts;
	unsigned int max_parts;
	u32 last_parts;
	u32 part_budget;
	struct ioca_emul_counters *emul;
	const struct ioca_ddio *ddio;
	struct ioca_subscribers subs;
	u64 mcast_overruns;
	u64 start_ns;
	u32 *generation;
	u32 owner_portid;
	u32 owner_pid;
	char busy_msg[48];
	u64 seq;
	u32 epoch;
	atomic_t fail_starts;
	u64 intervals;
	u64 no_listener;
	u64 send_errors;
	u64 last_collect_ns;
	u64 sum_collect_ns;
	u64 nr_collect;
	struct hlist_node node;
	int cpuhp_state;
};

/* sampler.c: the slot of @cpu, or -1. */
int ioca_slot_index(const struct ioca_sampler *s, unsigned int cpu);

#endif /* _IOCA_SAMPLER_STATE_H */
