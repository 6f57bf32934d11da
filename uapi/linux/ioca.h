/* SPDX-License-Identifier: GPL-2.0 WITH Linux-syscall-note */
/* Kept in step by hand with: uapi/ioca.yaml */
/* Append only: values below are ABI. */

#ifndef _UAPI_LINUX_IOCA_H
#define _UAPI_LINUX_IOCA_H

#define IOCA_FAMILY_NAME	"ioca"
#define IOCA_FAMILY_VERSION	1

/* Limits enforced by the policies and the handlers. */
#define IOCA_DDIO_MIN_WAYS_DEFAULT	2
#define IOCA_LLC_MAX_WAYS		32
#define IOCA_MAX_SOCKETS		8
#define IOCA_MAX_CPUS			256
#define IOCA_MAX_CPU_EVENTS		8
#define IOCA_MAX_UNCORE_EVENTS		128
#define IOCA_SAMPLER_INTERVAL_MIN_US	1000
#define IOCA_SAMPLER_INTERVAL_MAX_US	60000000
#define IOCA_SAMPLER_INTERVAL_DEFAULT_US	1000000

enum ioca_backend {
	IOCA_BACKEND_MSR = 1,
	IOCA_BACKEND_EMULATED,
};

enum ioca_sampler_state {
	IOCA_SAMPLER_STATE_UNCONFIGURED,
	IOCA_SAMPLER_STATE_CONFIGURED,
	IOCA_SAMPLER_STATE_RUNNING,
};

enum ioca_event_kind {
	IOCA_EVENT_KIND_INSTRUCTIONS = 1,
	IOCA_EVENT_KIND_CYCLES,
	IOCA_EVENT_KIND_LLC_REFERENCES,
	IOCA_EVENT_KIND_LLC_MISSES,
	IOCA_EVENT_KIND_RAW,
	IOCA_EVENT_KIND_CPU_CLOCK,
	IOCA_EVENT_KIND_TASK_CLOCK,
	/*
	 * emulate=1 only: the socket's DDIO hits / misses, cumulative, driven
	 * by per-socket rates a test writes to debugfs (ioca/socketN/). Valid
	 * as uncore events only; refused by the msr backend.
	 */
	IOCA_EVENT_KIND_DDIO_HIT_EMULATED,
	IOCA_EVENT_KIND_DDIO_MISS_EMULATED,

	/* private: */
	__IOCA_EVENT_KIND_MAX,
	IOCA_EVENT_KIND_MAX = (__IOCA_EVENT_KIND_MAX - 1)
};

enum {
	IOCA_A_INFO_BACKEND = 1,
	IOCA_A_INFO_BACKEND_NAME,
	IOCA_A_INFO_CPU_FAMILY,
	IOCA_A_INFO_CPU_MODEL,
	IOCA_A_INFO_CPU_MODEL_NAME,
	IOCA_A_INFO_DDIO_VERIFIED,
	IOCA_A_INFO_LOCKED_DOWN,
	IOCA_A_INFO_MIN_WAYS,
	IOCA_A_INFO_SOCKET,
	IOCA_A_INFO_SAMPLER,
	IOCA_A_INFO_HW_COUNTERS,
	IOCA_A_INFO_FALLBACK_KIND,

	__IOCA_A_INFO_MAX,
	IOCA_A_INFO_MAX = (__IOCA_A_INFO_MAX - 1)
};

enum {
	IOCA_A_SOCKET_ID = 1,
	IOCA_A_SOCKET_LLC_WAYS,
	IOCA_A_SOCKET_DDIO_MASK,
	IOCA_A_SOCKET_DDIO_WAYS,
	IOCA_A_SOCKET_DDIO_BOOT_MASK,
	IOCA_A_SOCKET_DDIO_VALID_MASK,
	IOCA_A_SOCKET_CPU_COUNT,
	IOCA_A_SOCKET_COUNTER,
	IOCA_A_SOCKET_OWNER_PID,	/* u32, info: pid owning this mask, 0 none */

	__IOCA_A_SOCKET_MAX,
	IOCA_A_SOCKET_MAX = (__IOCA_A_SOCKET_MAX - 1)
};

enum {
	IOCA_A_DDIO_SOCKET = 1,
	IOCA_A_DDIO_RESTORE,
	/*
	 * flag: the requesting socket owns the sockets it changes; when it
	 * closes, each goes back to the mask it had before the owner's first
	 * change. Another socket's later set of an owned socket is allowed
	 * (and ends that socket's ownership: the new mask is theirs).
	 */
	IOCA_A_DDIO_OWNER,

	__IOCA_A_DDIO_MAX,
	IOCA_A_DDIO_MAX = (__IOCA_A_DDIO_MAX - 1)
};

enum {
	IOCA_A_EVENT_KIND = 1,
	IOCA_A_EVENT_TYPE,
	IOCA_A_EVENT_CONFIG,
	IOCA_A_EVENT_CONFIG1,
	IOCA_A_EVENT_INDEX,
	IOCA_A_EVENT_EFFECTIVE_KIND,
	IOCA_A_EVENT_PAD,

	__IOCA_A_EVENT_MAX,
	IOCA_A_EVENT_MAX = (__IOCA_A_EVENT_MAX - 1)
};

enum {
	IOCA_A_SAMPLER_STATE = 1,
	IOCA_A_SAMPLER_INTERVAL_US,
	IOCA_A_SAMPLER_CPU,
	IOCA_A_SAMPLER_EVENT,
	IOCA_A_SAMPLER_UNCORE_EVENT,
	IOCA_A_SAMPLER_SEQ,
	IOCA_A_SAMPLER_LAST_COLLECT_NS,
	IOCA_A_SAMPLER_MEAN_COLLECT_NS,
	IOCA_A_SAMPLER_INTERVALS,
	IOCA_A_SAMPLER_NO_LISTENER,
	IOCA_A_SAMPLER_SEND_ERRORS,
	IOCA_A_SAMPLER_PAD,
	/*
	 * flag, in sampler-set: the requesting socket owns the sampler; other
	 * sockets' set/start/stop are refused (EBUSY) and the sampler is
	 * stopped and unconfigured when the owner closes.
	 */
	IOCA_A_SAMPLER_OWNER,
	IOCA_A_SAMPLER_OWNER_PID,	/* u32, info: 0 when not owned */
	IOCA_A_SAMPLER_PARTS,		/* u32, info: parts per sample */

	__IOCA_A_SAMPLER_MAX,
	IOCA_A_SAMPLER_MAX = (__IOCA_A_SAMPLER_MAX - 1)
};

enum {
	IOCA_A_CPU_ID = 1,
	IOCA_A_CPU_SOCKET,
	IOCA_A_CPU_ONLINE,
	IOCA_A_CPU_COUNTER,
	/*
	 * u32: bumped each time the CPU's counters are re-created (it went
	 * offline and came back); a reader never takes a delta across a
	 * generation change.
	 */
	IOCA_A_CPU_GENERATION,

	__IOCA_A_CPU_MAX,
	IOCA_A_CPU_MAX = (__IOCA_A_CPU_MAX - 1)
};

enum {
	IOCA_A_COUNTER_INDEX = 1,
	IOCA_A_COUNTER_VALUE,
	IOCA_A_COUNTER_ENABLED_NS,
	IOCA_A_COUNTER_RUNNING_NS,
	IOCA_A_COUNTER_PAD,

	__IOCA_A_COUNTER_MAX,
	IOCA_A_COUNTER_MAX = (__IOCA_A_COUNTER_MAX - 1)
};

enum {
	IOCA_A_SAMPLE_SEQ = 1,
	IOCA_A_SAMPLE_TIME_NS,
	IOCA_A_SAMPLE_REALTIME_NS,
	IOCA_A_SAMPLE_COLLECT_NS,
	IOCA_A_SAMPLE_INTERVAL_US,
	IOCA_A_SAMPLE_ON_DEMAND,
	IOCA_A_SAMPLE_CPU,
	IOCA_A_SAMPLE_SOCKET,
	IOCA_A_SAMPLE_PAD,
	/*
	 * A sample is sent in IOCA_A_SAMPLE_PARTS messages (u32, >= 1), each
	 * with IOCA_A_SAMPLE_PART (u32, 0 .. parts - 1), the same SEQ and
	 * timestamps, and a disjoint subset of the CPU and SOCKET nests; each
	 * message stays well under 32 KiB. A message without these two
	 * attributes is a whole sample (parts = 1).
	 */
	IOCA_A_SAMPLE_PART,
	IOCA_A_SAMPLE_PARTS,

	__IOCA_A_SAMPLE_MAX,
	IOCA_A_SAMPLE_MAX = (__IOCA_A_SAMPLE_MAX - 1)
};

enum {
	IOCA_CMD_INFO_GET = 1,
	IOCA_CMD_DDIO_SET,
	IOCA_CMD_SAMPLER_SET,
	IOCA_CMD_SAMPLER_START,
	IOCA_CMD_SAMPLER_STOP,
	IOCA_CMD_SAMPLE_GET,
	IOCA_CMD_SAMPLE_NTF,

	__IOCA_CMD_MAX,
	IOCA_CMD_MAX = (__IOCA_CMD_MAX - 1)
};

#define IOCA_MCGRP_SAMPLES	"samples"

#endif /* _UAPI_LINUX_IOCA_H */
