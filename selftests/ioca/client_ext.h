/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Requests and parsers for the parts of the ABI that ioca_client.h does not
 * cover: the owner flags, owner pids in info, sample parts, per-CPU
 * generations and per-socket counter values.
 */
#ifndef IOCA_SELFTEST_CLIENT_EXT_H
#define IOCA_SELFTEST_CLIENT_EXT_H

#include <stdbool.h>
#include <stdint.h>
#include "ioca_client.h"

/* sampler-set from @cfg, plus IOCA_A_SAMPLER_OWNER when @own. */
int iocx_sampler_set(struct tnl *t, const struct ioca_sampler_cfg *cfg, bool own,
		     struct tnl_reply *r);

/* ddio-set of one socket to @mask, plus IOCA_A_DDIO_OWNER when @own. */
int iocx_ddio_set(struct tnl *t, uint32_t sock, uint32_t mask, bool own, struct tnl_reply *r);

struct iocx_owners {
	uint32_t sampler_pid;
	int nsockets;
	uint32_t socket_pid[T_MAX_SOCKETS];
	uint32_t parts; /* IOCA_A_SAMPLER_PARTS */
	bool has_sampler_pid, has_parts;
};

int iocx_owners_get(struct tnl *t, struct iocx_owners *o, struct tnl_reply *r);

/* One sample message, with what ioca_sample leaves out. */
struct iocx_sample {
	uint64_t seq, time_ns;
	uint32_t part, parts; /* parts 0: attributes absent (whole sample) */
	bool has_part;
	int ncpus;
	uint32_t cpu_id[T_MAX_CPUS], cpu_generation[T_MAX_CPUS];
	bool cpu_has_generation[T_MAX_CPUS];
	int nsockets;
	uint32_t socket_id[T_MAX_SOCKETS];
	int socket_ncounters[T_MAX_SOCKETS];
	uint64_t socket_value[T_MAX_SOCKETS][T_MAX_UNCORE];
};

/* tnl_parse_fn for sample messages (arg: struct iocx_sample). */
int iocx_parse_sample(struct nlmsghdr *nlh, void *arg);

/* sample-get; the reply must be one whole message. */
int iocx_sample_get(struct tnl *t, struct iocx_sample *s, struct tnl_reply *r);

#endif
