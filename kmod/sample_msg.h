/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _IOCA_SAMPLE_MSG_H
#define _IOCA_SAMPLE_MSG_H

#include <linux/types.h>
#include <linux/ioca.h>

struct sk_buff;
struct nlattr;

/**
 * struct ioca_count - one counter reading
 * @value: cumulative count
 * @enabled: time enabled, ns
 * @running: time counting (less than @enabled when multiplexed), ns
 */
struct ioca_count {
	u64 value;
	u64 enabled;
	u64 running;
};

/**
 * struct ioca_sample_cpu - readings of one CPU
 * @cpu: CPU id
 * @socket: its package
 * @online: counters exist and were read; else only id and socket are sent
 * @generation: bumped each time the CPU's counters are created
 * @c: one reading per per-CPU event
 */
struct ioca_sample_cpu {
	u32 cpu;
	u32 socket;
	bool online;
	u32 generation;
	struct ioca_count c[IOCA_MAX_CPU_EVENTS];
};

/**
 * struct ioca_sample_socket - uncore readings of one socket
 * @id: socket id
 * @present: counters exist (a CPU of the socket was online at start)
 * @ddio_mask: its DDIO mask at collection; 0: none to report
 * @ddio_epoch: the DDIO epoch @ddio_mask belongs to (sent with it)
 * @c: one reading per uncore event
 */
struct ioca_sample_socket {
	u32 id;
	bool present;
	u32 ddio_mask;
	u32 ddio_epoch;
	struct ioca_count *c;
};

/**
 * struct ioca_sample - everything one sample message carries
 * @seq: sequence number
 * @epoch: the sampler run it belongs to
 * @time_ns: CLOCK_MONOTONIC at collection start
 * @realtime_ns: CLOCK_REALTIME at collection start
 * @interval_us: configured interval
 * @on_demand: answer to sample-get rather than a periodic sample
 * @nr_events: per-CPU events (readings per CPU)
 * @nr_cpus: entries in @cpus
 * @cpus: per-CPU readings
 * @nr_uncore: uncore events (readings per socket)
 * @nr_sockets: entries in @sockets
 * @sockets: per-socket readings
 * @part: index of this message among @parts
 * @parts: messages of the sample; PART and PARTS are sent only when > 1
 */
struct ioca_sample {
	u64 seq;
	u32 epoch;
	u64 time_ns;
	u64 realtime_ns;
	u32 interval_us;
	bool on_demand;
	unsigned int nr_events;
	unsigned int nr_cpus;
	const struct ioca_sample_cpu *cpus;
	unsigned int nr_uncore;
	unsigned int nr_sockets;
	const struct ioca_sample_socket *sockets;
	u32 part;
	u32 parts;
};

/* Payload budget of one message: with headers, well under 32 KiB. */
#define IOCA_PART_BUDGET	IOCA_PART_BUDGET_MAX

/**
 * struct ioca_sample_part - the CPUs and sockets one message carries
 * @cpu_first: first entry of the sample's CPU list
 * @nr_cpus: CPU entries
 * @sock_first: first entry of the sample's socket list
 * @nr_sockets: socket entries
 * @size: payload bytes the message needs at most (what genlmsg_new() is
 *	asked for, so the hot path sizes a message once, in the plan)
 */
struct ioca_sample_part {
	u32 cpu_first;
	u32 nr_cpus;
	u32 sock_first;
	u32 nr_sockets;
	u32 size;
};

size_t ioca_sample_msg_size(const struct ioca_sample *s);
unsigned int ioca_sample_plan(const struct ioca_sample *s, size_t budget,
			      struct ioca_sample_part *parts,
			      unsigned int max_parts);
void ioca_sample_select(const struct ioca_sample *s,
			const struct ioca_sample_part *p, u32 part, u32 parts,
			struct ioca_sample *out);
int ioca_sample_fill(struct sk_buff *skb, const struct ioca_sample *s,
		     struct nlattr **collect);

#endif /* _IOCA_SAMPLE_MSG_H */
