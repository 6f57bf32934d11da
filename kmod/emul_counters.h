/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _IOCA_EMUL_COUNTERS_H
#define _IOCA_EMUL_COUNTERS_H

#include <linux/spinlock.h>
#include <linux/types.h>
#include <linux/ioca.h>

struct dentry;

/**
 * struct ioca_emul_rate - one emulated counter driven by a rate
 * @rate: events per second from @since on
 * @base: cumulative count at @since
 * @since: CLOCK_MONOTONIC ns when @rate was set
 */
struct ioca_emul_rate {
	u64 rate;
	u64 base;
	u64 since;
};

/**
 * struct ioca_emul_socket - emulated DDIO counters of one socket
 * @hit: DDIO hits
 * @miss: DDIO misses
 */
struct ioca_emul_socket {
	struct ioca_emul_rate hit;
	struct ioca_emul_rate miss;
};

/**
 * struct ioca_emul_counters - emulate=1: per-socket DDIO hit/miss counters
 * @lock: protects the rates against readers
 * @nr_sockets: entries in @sock
 * @dir: debugfs directory ioca/, NULL without debugfs
 * @sock: per-socket counters
 */
struct ioca_emul_counters {
	spinlock_t lock; /* see @lock */
	unsigned int nr_sockets;
	struct dentry *dir;
	struct ioca_emul_socket sock[IOCA_MAX_SOCKETS];
};

void ioca_emul_init(struct ioca_emul_counters *e, unsigned int nr_sockets);
void ioca_emul_debugfs_init(struct ioca_emul_counters *e);
void ioca_emul_exit(struct ioca_emul_counters *e);
int ioca_emul_set_rate(struct ioca_emul_counters *e, unsigned int socket,
		       u32 kind, u64 rate, u64 now_ns);
u64 ioca_emul_read(struct ioca_emul_counters *e, unsigned int socket,
		   u32 kind, u64 now_ns);
bool ioca_emul_kind(u32 kind);

#endif /* _IOCA_EMUL_COUNTERS_H */
