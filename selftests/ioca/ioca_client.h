/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Typed requests and reply parsers for the ioca family on top of nl.h, so
 * tests read as "set the mask, expect EINVAL and this message" instead of
 * attribute plumbing. Replies are decoded by libioca's decoders, so the
 * tests and the product read the ABI one way; requests are put as given
 * (tests send ill-formed ones on purpose); nl.h stays the transport, so a
 * test owns its socket and sees every errno and extack. Limits of these structs
 * are the test's, not the ABI's: the guest has at most a few CPUs and one
 * socket.
 */
#ifndef IOCA_SELFTEST_IOCA_CLIENT_H
#define IOCA_SELFTEST_IOCA_CLIENT_H

#include <stdbool.h>
#include <stdint.h>
#include <linux/ioca.h>
#include "nl.h"

#define T_MAX_CPUS 64
#define T_MAX_SOCKETS IOCA_MAX_SOCKETS
#define T_MAX_EVENTS IOCA_MAX_CPU_EVENTS
#define T_MAX_UNCORE 16

struct ioca_socket_info {
	uint32_t id, llc_ways, mask, ways, boot_mask, valid_mask, cpu_count;
	/* DDIO control: field mask and flags; reported: the module sent them */
	uint32_t field;
	bool reported, available, writable, verified;
};

struct ioca_sampler_info {
	bool present;
	uint32_t state, interval_us;
	uint64_t seq, last_collect_ns, mean_collect_ns, intervals, no_listener, send_errors;
	int nevents;
	uint32_t kind[T_MAX_EVENTS], effective_kind[T_MAX_EVENTS];
	int ncpus; /* CPU attributes in the sampler nest (configured list) */
};

struct ioca_info {
	uint32_t backend, family, model, min_ways, fallback_kind;
	char backend_name[32], model_name[64];
	bool has_backend, has_model, has_min_ways, hw_counters, locked_down;
	int nsockets;
	struct ioca_socket_info sock[T_MAX_SOCKETS];
	struct ioca_sampler_info sampler;
};

struct ioca_counter {
	uint32_t index;
	uint64_t value, enabled_ns, running_ns;
};

struct ioca_cpu_sample {
	uint32_t id, socket;
	bool online;
	int ncounters;
	struct ioca_counter c[T_MAX_EVENTS];
};

struct ioca_sample {
	uint64_t seq, time_ns, realtime_ns, collect_ns;
	uint32_t interval_us;
	bool on_demand, has_seq;
	int ncpus;
	struct ioca_cpu_sample cpu[T_MAX_CPUS];
	int nsockets;
	uint32_t socket_id[T_MAX_SOCKETS];
	int socket_ncounters[T_MAX_SOCKETS];
};

struct ioca_event_cfg {
	uint32_t kind;
	uint32_t type; /* raw and uncore only; 0 = leave out unless has_type */
	bool has_type; /* send type even when it is 0 (PERF_TYPE_HARDWARE) */
	uint64_t config, config1;
};

struct ioca_sampler_cfg {
	uint32_t interval_us; /* 0 = leave the attribute out */
	int ncpus;
	uint32_t cpus[T_MAX_CPUS];
	int nevents;
	struct ioca_event_cfg ev[T_MAX_EVENTS + 2]; /* room to exceed the limit */
	int nuncore;
	struct ioca_event_cfg unc[T_MAX_UNCORE];
};

int ioca_info_get(struct tnl *t, struct ioca_info *info, struct tnl_reply *r);
/* Socket entry with exactly the attributes asked for (-1 = leave out). */
int ioca_ddio_set(struct tnl *t, int64_t sock, int64_t mask, int64_t ways, struct tnl_reply *r);
int ioca_ddio_restore(struct tnl *t, struct tnl_reply *r);
int ioca_sampler_set(struct tnl *t, const struct ioca_sampler_cfg *cfg, struct tnl_reply *r);
/*
 * The attributes of a sampler-set request, for callers whose limits differ
 * from struct ioca_sampler_cfg's (iocactl takes the ABI's maxima).
 * 0, or -EMSGSIZE when @msg is too small.
 */
int ioca_put_sampler(struct nl_msg *msg, uint32_t interval_us, const uint32_t *cpus, int ncpus,
		     const struct ioca_event_cfg *ev, int nevents, const struct ioca_event_cfg *unc,
		     int nuncore);
/* IOCA_CMD_SAMPLER_START / _STOP and any other attribute-less command. */
int ioca_simple_cmd(struct tnl *t, uint8_t cmd, struct tnl_reply *r);
int ioca_sample_get(struct tnl *t, struct ioca_sample *s, struct tnl_reply *r);

/* tnl_parse_fn for IOCA_CMD_SAMPLE_NTF / sample-get replies (arg: sample). */
int ioca_parse_sample(struct nlmsghdr *nlh, void *arg);

/* libioca's: contiguous run of set bits (the only shape a DDIO mask may have). */
bool ioca_mask_contiguous(uint32_t mask);
/* libioca's: the @ways most significant ways of an LLC with @llc_ways ways. */
uint32_t ioca_top_ways(uint32_t llc_ways, uint32_t ways);

#endif
