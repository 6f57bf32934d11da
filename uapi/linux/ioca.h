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
/*
 * Sockets that may receive samples at once (IOCA_CMD_SAMPLES_SUBSCRIBE).
 * The last slot is kept for the process owning the sampler or a DDIO
 * mask, and no process holds more than IOCA_MAX_SUBSCRIBERS_PER_PROCESS.
 */
#define IOCA_MAX_SUBSCRIBERS		16
#define IOCA_MAX_SUBSCRIBERS_PER_PROCESS	4
/*
 * Payload bytes of one sample message: the module's part_budget lies in
 * this range. Every part carries at least one CPU or socket nest, so a
 * sample takes at most IOCA_MAX_SAMPLE_PARTS messages whatever the budget.
 */
#define IOCA_PART_BUDGET_MIN		512
#define IOCA_PART_BUDGET_MAX		16384
#define IOCA_MAX_SAMPLE_PARTS		264	/* IOCA_MAX_CPUS + IOCA_MAX_SOCKETS */

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

/* Root ports whose DDIO setting the module keeps; PCI address strings. */
#define IOCA_MAX_DDIO_DEVICES		16
#define IOCA_PCI_ADDR_LEN		16

/*
 * DDIO allocation for the writes below one PCIe root port (perfctrlsts_0
 * at 0x180, perfctrlsts_1 at 0x184). on: the defaults (Use_Allocating_Flow_Wr,
 * bit 7, set; NoSnoopOpWrEn, bit 3, and TPHDIS, perfctrlsts_1 bit 8, clear);
 * off: Use_Allocating_Flow_Wr cleared; full-off: also NoSnoopOpWrEn clear
 * and TPHDIS set.
 */
enum ioca_ddio_device_mode {
	IOCA_DDIO_DEVICE_MODE_ON = 1,
	IOCA_DDIO_DEVICE_MODE_OFF,
	IOCA_DDIO_DEVICE_MODE_FULL_OFF,

	/* private: */
	__IOCA_DDIO_DEVICE_MODE_MAX,
	IOCA_DDIO_DEVICE_MODE_MAX = (__IOCA_DDIO_DEVICE_MODE_MAX - 1)
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
	/* nest, one per root port the module changed: IOCA_A_DEVICE_* */
	IOCA_A_INFO_DEVICE,

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
	/* u32, info: bits of 0xC8B that are the DDIO field on this model */
	IOCA_A_SOCKET_DDIO_FIELD,
	/* u8, info: the field is known and the register was read */
	IOCA_A_SOCKET_DDIO_AVAILABLE,
	/* u8, info: writes allowed and the last one read back as written */
	IOCA_A_SOCKET_DDIO_WRITABLE,
	/* u8, info: writable, and a mask is known to move DDIO on this model */
	IOCA_A_SOCKET_DDIO_VERIFIED,
	/*
	 * u32, info, samples and ddio-set's reply: the socket's DDIO epoch,
	 * 1 at load and bumped by every write of its mask (set, restore, an
	 * owner's close). In a sample, the epoch whose mask DDIO_MASK is; in
	 * ddio-set's reply, the epoch the write produced: a sample with a
	 * lower epoch was collected before that write.
	 */
	IOCA_A_SOCKET_DDIO_EPOCH,

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
	/*
	 * nest, reply only, one per socket ddio-set wrote: IOCA_A_SOCKET_ID,
	 * IOCA_A_SOCKET_DDIO_MASK and IOCA_A_SOCKET_DDIO_EPOCH.
	 */
	IOCA_A_DDIO_WRITTEN,

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
	/* nest, info, one per subscribed socket: IOCA_A_SUBSCRIBER_* */
	IOCA_A_SAMPLER_SUBSCRIBER,
	/*
	 * u32, info: the sampler's run epoch, bumped by every sampler-set and
	 * every start; the samples of a run carry it (IOCA_A_SAMPLE_EPOCH).
	 */
	IOCA_A_SAMPLER_EPOCH,

	__IOCA_A_SAMPLER_MAX,
	IOCA_A_SAMPLER_MAX = (__IOCA_A_SAMPLER_MAX - 1)
};

/* One socket subscribed to the samples, in info. */
enum {
	IOCA_A_SUBSCRIBER_PORTID = 1,	/* u32: its netlink port id */
	IOCA_A_SUBSCRIBER_PID,		/* u32: the process that subscribed */
	IOCA_A_SUBSCRIBER_SAMPLES,	/* u64: samples delivered whole */
	/*
	 * u64: periodic samples it did not get whole because its receive
	 * buffer was full (it stopped reading); others are not affected.
	 */
	IOCA_A_SUBSCRIBER_DROPPED,
	IOCA_A_SUBSCRIBER_PAD,

	__IOCA_A_SUBSCRIBER_MAX,
	IOCA_A_SUBSCRIBER_MAX = (__IOCA_A_SUBSCRIBER_MAX - 1)
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
	/*
	 * u32: the sampler run epoch the sample belongs to (>= 1); a reader
	 * never takes a delta between samples of different epochs.
	 */
	IOCA_A_SAMPLE_EPOCH,

	__IOCA_A_SAMPLE_MAX,
	IOCA_A_SAMPLE_MAX = (__IOCA_A_SAMPLE_MAX - 1)
};

/* A root port's DDIO setting: ddio-device-set's request, info's device nest. */
enum {
	IOCA_A_DEVICE_ADDR = 1,		/* string: DDDD:BB:DD.F of a device */
	IOCA_A_DEVICE_MODE,		/* u32: enum ioca_ddio_device_mode */
	IOCA_A_DEVICE_OWNER,		/* flag, in the request */
	IOCA_A_DEVICE_ROOT_PORT,	/* string, info: the root port's address */
	IOCA_A_DEVICE_PERFCTRLSTS0,	/* u32, info: as read back */
	IOCA_A_DEVICE_PERFCTRLSTS1,	/* u32, info: as read back */
	IOCA_A_DEVICE_OWNER_PID,	/* u32, info: 0 when not owned */
	IOCA_A_DEVICE_EMULATED,		/* u8, info: the emulated backend's registers */

	__IOCA_A_DEVICE_MAX,
	IOCA_A_DEVICE_MAX = (__IOCA_A_DEVICE_MAX - 1)
};

enum {
	IOCA_CMD_INFO_GET = 1,
	IOCA_CMD_DDIO_SET,
	IOCA_CMD_SAMPLER_SET,
	IOCA_CMD_SAMPLER_START,
	IOCA_CMD_SAMPLER_STOP,
	IOCA_CMD_SAMPLE_GET,
	IOCA_CMD_SAMPLE_NTF,
	/*
	 * The requesting socket gets every periodic sample by unicast until
	 * it closes or unsubscribes. Needs CAP_PERFMON (or CAP_SYS_ADMIN).
	 * A socket whose receive buffer is full misses the rest of that
	 * sample (an ENOBUFS and a SEQ gap tell it); no one else does.
	 */
	IOCA_CMD_SAMPLES_SUBSCRIBE,
	IOCA_CMD_SAMPLES_UNSUBSCRIBE,
	/*
	 * DDIO on/off/full-off for the root port above a PCI device; needs
	 * CAP_SYS_RAWIO (handler).
	 */
	IOCA_CMD_DDIO_DEVICE_SET,

	__IOCA_CMD_MAX,
	IOCA_CMD_MAX = (__IOCA_CMD_MAX - 1)
};

#define IOCA_MCGRP_SAMPLES	"samples"

#endif /* _UAPI_LINUX_IOCA_H */
