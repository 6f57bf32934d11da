/* SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause */
/*
 * libioca: the client library of ioca.ko's generic netlink family ("ioca",
 * uapi <linux/ioca.h>).
 *
 * Conventions (libbpf's):
 * - Objects are opaque (struct ioca_client, struct ioca_subscription,
 *   struct ioca_cha_preset, struct ioca_iio_preset); each has an __open/__new and a __close/__free.
 * - int functions return 0 (or a documented count) on success and a negative
 *   errno on failure, and also set errno; pointer functions return NULL and
 *   set errno.
 * - When the kernel refused a request, its extended-ack text ("DDIO mask is
 *   not contiguous", ...) stays readable through ioca_client__last_extack()
 *   until the next request on the same handle.
 * - *_opts structs start with their size; declare them with IOCA_OPTS(),
 *   which zeroes them and sets sz. NULL opts means all defaults. Fields are
 *   only ever appended; a library older than the caller refuses an opts
 *   struct whose unknown tail is non-zero (-EINVAL).
 * - Messages go to the print callback given in the opts (per object, no
 *   global state); the default prints warnings to stderr, and a callback
 *   that does nothing silences the library.
 * - Decoded structs (struct ioca_info, struct ioca_sample) are sized by the
 *   ABI's maxima (IOCA_MAX_*). LIBIOCA_0.2 appended fields to the ends of
 *   struct ioca_sampler_info and struct ioca_socket_sample (nothing before
 *   them moved), LIBIOCA_0.5 to struct ioca_socket_sample, struct
 *   ioca_sample, struct ioca_info and struct ioca_ddio_opts: rebuild callers
 *   against this header.
 *
 * Old from new (LIBIOCA_0.5, with a module that sends the epochs):
 * - every sample carries the sampler's run epoch (ioca_sample.epoch),
 *   bumped by each sampler set and start: never take a counter delta
 *   between samples whose epochs differ (a sample of the previous run can
 *   still be queued after a restart);
 * - each socket of a sample carries the DDIO epoch of its mask
 *   (ioca_socket_sample.ddio_epoch), bumped by every write of that mask;
 *   ioca_client__ddio_set() returns the epoch each write produced
 *   (ioca_ddio_opts.epochs): a sample whose ddio_epoch is lower was
 *   collected before the write and says nothing of a change since.
 *
 * Thread safety: an object is used by one thread at a time (one handle per
 * thread, or a lock of the caller's). Distinct objects are independent: the
 * library has no global state, so threads may each open their own handles.
 *
 * Ownership (IOCA_A_DDIO_OWNER / IOCA_A_SAMPLER_OWNER): a request made with
 * .owner = true ties the DDIO masks or the sampler to the client's request
 * socket; when the handle is closed, or the process dies, the module puts
 * the masks back and stops the sampler. Keep the handle open as long as the
 * state should live.
 */
#ifndef LIBIOCA_H
#define LIBIOCA_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <linux/ioca.h>

#ifdef __cplusplus
extern "C" {
#endif

#ifndef LIBIOCA_API
#define LIBIOCA_API __attribute__((visibility("default")))
#endif

/*
 * Declare and zero an opts struct, set its size and the given fields:
 *   IOCA_OPTS(ioca_ddio_opts, o, .owner = true);
 */
#define IOCA_OPTS(TYPE, NAME, ...)                                     \
	struct TYPE NAME = ({                                          \
		memset(&NAME, 0, sizeof(struct TYPE));                 \
		(struct TYPE){.sz = sizeof(struct TYPE), __VA_ARGS__}; \
	})

struct ioca_client;
struct ioca_subscription;
struct ioca_cha_preset;
struct ioca_iio_preset;
struct ioca_irdt;

/* ---- messages ----------------------------------------------------------- */

enum ioca_print_level {
	IOCA_PRINT_WARN,
	IOCA_PRINT_INFO,
	IOCA_PRINT_DEBUG,
};

/*
 * A message of the library, without a trailing newline, with errno as it
 * was (the library restores it after the call). @ctx is the print_ctx of
 * the opts the object was opened with. libspec's libspec_print_fn_t has
 * the same shape.
 */
typedef void (*ioca_print_fn_t)(enum ioca_print_level level, void *ctx, const char *fmt,
				va_list ap);

/* ---- client: the request socket ----------------------------------------- */

struct ioca_client_opts {
	size_t sz; /* sizeof(struct ioca_client_opts) */
	/* Message callback; NULL = warnings to stderr, the rest dropped. */
	ioca_print_fn_t print;
	void *print_ctx; /* passed to print */
	size_t : 0;
};
#define ioca_client_opts__last_field print_ctx

/**
 * @brief Open a request socket and resolve the "ioca" family.
 * @param opts NULL or options
 * @return the handle, or NULL with errno set: ENOENT when the family is not
 *         registered (ioca.ko is not loaded), ENOMEM, EINVAL (bad opts), or
 *         the errno of the socket calls
 */
LIBIOCA_API struct ioca_client *ioca_client__open(const struct ioca_client_opts *opts);

/**
 * @brief Close the handle (NULL is a no-op). State the handle owns
 *        (requests made with .owner) is put back by the module.
 * @param c the handle
 */
LIBIOCA_API void ioca_client__close(struct ioca_client *c);

/**
 * @brief The kernel's extended-ack message of the last request on @c.
 * @param c the handle
 * @return "" when the last request succeeded or the kernel gave no text;
 *         valid until the next request on @c
 */
LIBIOCA_API const char *ioca_client__last_extack(const struct ioca_client *c);

/**
 * @brief Offset in the request of the attribute the last extack points at.
 * @param c the handle
 * @return the offset in bytes from the netlink header, or -1 when absent
 */
LIBIOCA_API int ioca_client__last_extack_offset(const struct ioca_client *c);

/**
 * @brief The file descriptor of the request socket (for diagnostics, and
 *        to tell a closed socket from a live one; do not read from it).
 * @param c the handle
 * @return the descriptor
 */
LIBIOCA_API int ioca_client__fd(const struct ioca_client *c);

/* ---- info ---------------------------------------------------------------- */

struct ioca_socket_info {
	uint32_t id;
	uint32_t llc_ways;
	uint32_t ddio_mask;  /* current IIO_LLC_WAYS mask */
	uint32_t ddio_ways;  /* popcount of ddio_mask */
	uint32_t boot_mask;  /* mask found when the module loaded */
	uint32_t valid_mask; /* ways a DDIO mask may use */
	uint32_t cpu_count;
	uint32_t owner_pid; /* pid owning this socket's mask, 0 none */
};

/* One configured event, as the module reports it. */
struct ioca_event_info {
	uint32_t index;
	uint32_t kind;		 /* enum ioca_event_kind asked for */
	uint32_t effective_kind; /* what counts (a fallback), 0 = kind */
	uint32_t type;		 /* perf type for raw/uncore events, else 0 */
	uint64_t config, config1;
};

/* A socket subscribed to the samples (LIBIOCA_0.2). */
struct ioca_subscriber_info {
	uint32_t portid;  /* its netlink port id (ioca_subscription__portid()) */
	uint32_t pid;	  /* the process that subscribed it */
	uint64_t samples; /* periodic samples delivered to it whole */
	uint64_t dropped; /* samples it missed: its receive buffer was full */
};

struct ioca_sampler_info {
	uint32_t state; /* enum ioca_sampler_state */
	uint32_t interval_us;
	uint64_t seq; /* last sample's sequence number */
	uint64_t last_collect_ns, mean_collect_ns;
	uint64_t intervals, no_listener, send_errors;
	uint32_t owner_pid; /* 0 when not owned */
	uint32_t parts;	    /* messages per sample, 0 when not reported */
	uint32_t ncpus;
	uint32_t cpus[IOCA_MAX_CPUS];
	uint32_t nevents;
	struct ioca_event_info events[IOCA_MAX_CPU_EVENTS];
	uint32_t nuncore;
	struct ioca_event_info uncore[IOCA_MAX_UNCORE_EVENTS];
	/* LIBIOCA_0.2: every subscribed socket (0 from an older module). */
	uint32_t nsubscribers;
	struct ioca_subscriber_info subscribers[IOCA_MAX_SUBSCRIBERS];
};

/*
 * LIBIOCA_0.3: what the module says of one socket's DDIO way control
 * (struct ioca_info's ddio[i] belongs to sockets[i]).
 */
struct ioca_ddio_control {
	bool reported;	/* the module sent these (false from an older ioca.ko) */
	bool available; /* the DDIO field is known and the register was read */
	bool writable;	/* writes allowed; the last one read back as written */
	bool verified;	/* writable, and a written mask is known to move DDIO */
	uint32_t field; /* the bits of IIO_LLC_WAYS that are the DDIO field */
};

/**
 * @brief Why a socket's DDIO ways cannot be controlled, for a log line.
 * @param dc the socket's entry of struct ioca_info's ddio[]
 * @return NULL when they can (or an older module does not say), else a
 *         constant sentence
 */
LIBIOCA_API const char *ioca_ddio_control__why_not(const struct ioca_ddio_control *dc);

/* LIBIOCA_0.3: a PCIe root port whose DDIO setting the module changed. */
struct ioca_device_info {
	char addr[IOCA_PCI_ADDR_LEN];	   /* the device first named for it */
	char root_port[IOCA_PCI_ADDR_LEN]; /* the root port's address */
	uint32_t mode;			   /* enum ioca_ddio_device_mode, as read back */
	uint32_t perfctrlsts0, perfctrlsts1;
	uint32_t owner_pid; /* 0 when not owned */
	bool emulated;	    /* the emulated backend's registers */
};

struct ioca_info {
	uint32_t backend; /* enum ioca_backend */
	char backend_name[32];
	uint32_t cpu_family, cpu_model;
	char cpu_model_name[64];
	bool ddio_verified;	/* the way mask was seen to change the LLC */
	bool locked_down;	/* kernel lockdown refuses MSR writes */
	bool hw_counters;	/* hardware perf events available */
	uint32_t min_ways;	/* least DDIO ways a mask may have */
	uint32_t fallback_kind; /* event kind replacing absent hw events */
	uint32_t nsockets;
	struct ioca_socket_info sockets[IOCA_MAX_SOCKETS];
	bool has_sampler; /* the sampler nest was present */
	struct ioca_sampler_info sampler;
	/* LIBIOCA_0.3: DDIO control of sockets[i]; appended, nothing moved */
	struct ioca_ddio_control ddio[IOCA_MAX_SOCKETS];
	/* LIBIOCA_0.3: root ports whose DDIO setting the module changed */
	uint32_t ndevices;
	struct ioca_device_info devices[IOCA_MAX_DDIO_DEVICES];
	/* LIBIOCA_0.5: the sampler's run epoch (IOCA_A_SAMPLER_EPOCH): what the
	 * samples of the current run carry in ioca_sample.epoch; 0 from an
	 * older module.
	 */
	uint32_t sampler_epoch;
	/* LIBIOCA_0.5: DDIO epoch of sockets[i]'s mask (1 at load, bumped by
	 * every write); 0 from an older module.
	 */
	uint32_t ddio_epoch[IOCA_MAX_SOCKETS];
};

/**
 * @brief IOCA_CMD_INFO_GET: module, sockets and sampler state.
 * @param c the handle
 * @param info filled (zeroed first)
 * @return 0, or -errno (-EBADMSG: the reply did not decode)
 */
LIBIOCA_API int ioca_client__info(struct ioca_client *c, struct ioca_info *info);

/* ---- DDIO ----------------------------------------------------------------- */

/* One socket's new DDIO ways: exactly one of mask and ways non-zero. */
struct ioca_ddio_req {
	uint32_t socket;
	uint32_t mask; /* contiguous way mask, or 0 */
	uint32_t ways; /* the top @ways ways, or 0 */
};

struct ioca_ddio_opts {
	size_t sz;
	/* IOCA_A_DDIO_OWNER: the masks return to their previous value when
	 * the client's socket closes.
	 */
	bool owner;
	/* LIBIOCA_0.5, ioca_client__ddio_set() only, out: NULL, or room for
	 * n entries, set to the DDIO epoch each reqs[i]'s write produced
	 * (IOCA_A_SOCKET_DDIO_EPOCH of the reply); a sample whose socket has
	 * a lower ioca_socket_sample.ddio_epoch was collected before it. 0
	 * from a module that does not send them; untouched on failure.
	 */
	uint32_t *epochs;
	size_t : 0;
};
#define ioca_ddio_opts__last_field epochs

/**
 * @brief IOCA_CMD_DDIO_SET for @n sockets in one request: the module
 *        applies all of them or none.
 * @param c the handle
 * @param reqs the sockets, each at most once
 * @param n 1 .. IOCA_MAX_SOCKETS
 * @param opts NULL or options (epochs: the writes' DDIO epochs, out)
 * @return 0 or -errno (the kernel's reason in ioca_client__last_extack();
 *         -EPERM: see libioca_cmd_caps(IOCA_CMD_DDIO_SET))
 */
LIBIOCA_API int ioca_client__ddio_set(struct ioca_client *c, const struct ioca_ddio_req *reqs,
				      size_t n, const struct ioca_ddio_opts *opts);

/**
 * @brief IOCA_CMD_DDIO_DEVICE_SET (LIBIOCA_0.3): DDIO on, off or full-off
 *        for the PCIe root port above a PCI device.
 * @param c the handle
 * @param addr the device, DDDD:BB:DD.F (shorter than IOCA_PCI_ADDR_LEN)
 * @param mode enum ioca_ddio_device_mode
 * @param opts NULL or options (owner: the port's setting is put back when
 *        the client's socket closes)
 * @return 0 or -errno (-EOPNOTSUPP: a root port the module does not know;
 *         the kernel's reason in ioca_client__last_extack())
 */
LIBIOCA_API int ioca_client__ddio_device_set(struct ioca_client *c, const char *addr, uint32_t mode,
					     const struct ioca_ddio_opts *opts);

/**
 * @brief Put every socket's boot DDIO mask back (IOCA_A_DDIO_RESTORE).
 * @param c the handle
 * @return 0 or -errno
 */
LIBIOCA_API int ioca_client__ddio_restore(struct ioca_client *c);

/* ---- sampler ---------------------------------------------------------------- */

/* An event to count (per CPU, or per socket for uncore events). */
struct ioca_event {
	uint32_t kind; /* enum ioca_event_kind */
	uint32_t type; /* perf type (raw and uncore PMUs) */
	bool has_type; /* send type even when 0 (PERF_TYPE_HARDWARE) */
	uint64_t config, config1;
};

struct ioca_sampler_config {
	uint32_t interval_us; /* 0 = the module's default */
	const uint32_t *cpus; /* CPUs to sample */
	size_t ncpus;	      /* 0 .. IOCA_MAX_CPUS; 0 = all online CPUs */
	const struct ioca_event *events;
	size_t nevents; /* 0 .. IOCA_MAX_CPU_EVENTS */
	const struct ioca_event *uncore;
	size_t nuncore; /* 0 .. IOCA_MAX_UNCORE_EVENTS */
};

struct ioca_sampler_opts {
	size_t sz;
	/* IOCA_A_SAMPLER_OWNER: other sockets' sampler requests are refused
	 * (EBUSY); the sampler stops when the client's socket closes.
	 */
	bool owner;
	size_t : 0;
};
#define ioca_sampler_opts__last_field owner

/**
 * @brief IOCA_CMD_SAMPLER_SET: configure (and stop) the sampler.
 * @param c the handle
 * @param cfg what to sample
 * @param opts NULL or options
 * @return 0 or -errno (-E2BIG: more CPUs or events than the ABI allows)
 */
LIBIOCA_API int ioca_client__sampler_set(struct ioca_client *c,
					 const struct ioca_sampler_config *cfg,
					 const struct ioca_sampler_opts *opts);

/** @brief IOCA_CMD_SAMPLER_START. @param c the handle @return 0 or -errno */
LIBIOCA_API int ioca_client__sampler_start(struct ioca_client *c);

/** @brief IOCA_CMD_SAMPLER_STOP. @param c the handle @return 0 or -errno */
LIBIOCA_API int ioca_client__sampler_stop(struct ioca_client *c);

/* ---- samples ------------------------------------------------------------------- */

/* One counter, cumulative since the sampler was configured. */
struct ioca_counter {
	uint32_t index; /* the event's position in the configured list */
	uint64_t value;
	uint64_t enabled_ns, running_ns; /* running < enabled: multiplexed */
};

struct ioca_cpu_sample {
	uint32_t id;
	uint32_t socket;
	bool online;
	/* IOCA_A_CPU_GENERATION, 0 when absent: a reader never takes a delta
	 * between two samples whose generations differ (the counters were
	 * re-created when the CPU came back online).
	 */
	uint32_t generation;
	uint32_t ncounters;
	struct ioca_counter counters[IOCA_MAX_CPU_EVENTS];
};

struct ioca_socket_sample {
	uint32_t id;
	uint32_t ncounters;
	struct ioca_counter counters[IOCA_MAX_UNCORE_EVENTS];
	/* LIBIOCA_0.2: the socket's DDIO way mask when the sample was
	 * collected; 0 when the sample did not carry one (a module older than
	 * IOCA_CMD_SAMPLES_SUBSCRIBE, or a package whose register was never
	 * read because none of its CPUs has been online). Every sample of
	 * such a module has one socket entry per socket, with or without
	 * uncore counters (ncounters 0).
	 */
	uint32_t ddio_mask;
	/* LIBIOCA_0.5: the DDIO epoch ddio_mask belongs to (IOCA_A_SOCKET_
	 * DDIO_EPOCH): lower than the epoch ioca_client__ddio_set() returned
	 * for this socket means collected before that write. 0 with
	 * ddio_mask 0, or from an older module.
	 */
	uint32_t ddio_epoch;
};

/*
 * One whole sample (all its parts). About 100 KiB: allocate it, do not put
 * it on a small stack.
 */
struct ioca_sample {
	uint64_t seq;
	uint64_t time_ns; /* CLOCK_MONOTONIC at collection */
	uint64_t realtime_ns;
	uint64_t collect_ns; /* the module's cost of collecting it */
	uint32_t interval_us;
	bool on_demand; /* answer to ioca_client__sample(), not periodic */
	uint32_t parts; /* messages it arrived in (1 when unsplit) */
	/* Subscriptions only: periodic samples lost since the previous sample
	 * this subscription returned (sequence gap, overrun or a missing
	 * part). 0 for the first sample and for on-demand ones.
	 */
	uint64_t lost;
	uint32_t ncpus;
	struct ioca_cpu_sample cpus[IOCA_MAX_CPUS];
	uint32_t nsockets;
	struct ioca_socket_sample sockets[IOCA_MAX_SOCKETS];
	/* LIBIOCA_0.5: the sampler run it belongs to (IOCA_A_SAMPLE_EPOCH,
	 * >= 1), bumped by every sampler set and start: a reader never takes
	 * a delta between samples whose epochs differ. 0 from an older module.
	 */
	uint32_t epoch;
};

/**
 * @brief IOCA_CMD_SAMPLE_GET: collect a sample now (the sampler must be
 *        running). Reassembles a reply sent in parts.
 * @param c the handle
 * @param s filled (zeroed first)
 * @return 0 or -errno (-ENODATA: the sampler is not running; -EBADMSG:
 *         malformed or incomplete reply)
 */
LIBIOCA_API int ioca_client__sample(struct ioca_client *c, struct ioca_sample *s);

/* ---- subscription to the "samples" multicast group ------------------------------- */

struct ioca_subscription_opts {
	size_t sz;
	ioca_print_fn_t print; /* as in ioca_client_opts */
	void *print_ctx;
	/* Socket receive buffer in bytes; 0 = 4 MiB (a few dozen samples of
	 * 256 CPUs), set past net.core.rmem_max with SO_RCVBUFFORCE; a slow
	 * reader loses whole samples, reported as such.
	 */
	size_t rcvbuf;
	size_t : 0;
};
#define ioca_subscription_opts__last_field rcvbuf

/* Totals since the subscription was opened. */
struct ioca_subscription_stats {
	uint64_t samples;    /* whole samples returned */
	uint64_t lost;	     /* sum of ioca_sample.lost */
	uint64_t incomplete; /* samples dropped for a missing part */
	uint64_t overruns;   /* ENOBUFS: the socket buffer overflowed */
	uint64_t malformed;  /* messages that did not decode, dropped */
};

/**
 * @brief Open a socket of its own subscribed to the periodic samples
 *        (IOCA_CMD_SAMPLES_SUBSCRIBE: the module unicasts each sample to
 *        it; a subscriber that stops reading loses only its own samples,
 *        reported as lost when it reads again). With a module older than
 *        that op, the socket joins IOCA_MCGRP_SAMPLES instead.
 * @param opts NULL or options
 * @return the subscription, or NULL with errno set (ENOENT: ioca.ko not
 *         loaded; EPERM: subscribing needs CAP_PERFMON or CAP_SYS_ADMIN
 *         (an older module's group: CAP_NET_ADMIN and CAP_SYS_ADMIN);
 *         ENOSPC: no slot for this process: IOCA_MAX_SUBSCRIBERS sockets
 *         subscribed, or all but the one kept for the process owning the
 *         sampler or a DDIO mask (subscribe after taking ownership to get
 *         it), or IOCA_MAX_SUBSCRIBERS_PER_PROCESS held by this process;
 *         the kernel's sentence goes to the print callback)
 */
LIBIOCA_API struct ioca_subscription *
ioca_subscription__open(const struct ioca_subscription_opts *opts);

/** @brief Close it (NULL is a no-op). @param sub the subscription */
LIBIOCA_API void ioca_subscription__close(struct ioca_subscription *sub);

/**
 * @brief A descriptor to poll() for POLLIN (non-blocking socket).
 * @param sub the subscription
 * @return the descriptor
 */
LIBIOCA_API int ioca_subscription__fd(const struct ioca_subscription *sub);

/**
 * @brief Receive until one whole sample is assembled or nothing is left.
 * @param sub the subscription
 * @param s filled when 1 is returned
 * @param timeout_ms how long to wait for the first message: 0 = do not
 *        wait (after poll()), -1 = forever
 * @return 1 a sample in @s (s->lost says how many were lost before it),
 *         0 none yet (timeout, or only some parts arrived), -errno:
 *         -ENODEV when ioca.ko was unloaded (the family unregistered; this
 *         subscription and every client handle are dead: open new ones
 *         after the module is back)
 */
LIBIOCA_API int ioca_subscription__recv(struct ioca_subscription *sub, struct ioca_sample *s,
					int timeout_ms);

/**
 * @brief The netlink port id of the subscription's socket, as info's
 *        struct ioca_subscriber_info names it (LIBIOCA_0.2).
 * @param sub the subscription
 * @return the port id
 */
LIBIOCA_API uint32_t ioca_subscription__portid(const struct ioca_subscription *sub);

/**
 * @brief Totals since the subscription was opened.
 * @param sub the subscription
 * @param st filled
 */
LIBIOCA_API void ioca_subscription__stats(const struct ioca_subscription *sub,
					  struct ioca_subscription_stats *st);

/* ---- CHA presets: the socket's DDIO hit/miss counters ----------------------------- */

/* Which inbound traffic the hit/miss counters cover. */
enum ioca_cha_flow {
	IOCA_CHA_FLOW_WRITES = 1 << 0, /* ItoM: device writes (NIC RX) */
	IOCA_CHA_FLOW_READS = 1 << 1,  /* PCIRdCur: device reads (NIC TX) */
};

struct ioca_cha_opts {
	size_t sz;
	/* Directory holding the uncore_cha_N PMUs; NULL =
	 * "/sys/bus/event_source/devices" (tests point it at a fake tree).
	 */
	const char *sysfs_root;
	unsigned int flows; /* enum ioca_cha_flow bits; 0 = writes */
	ioca_print_fn_t print;
	void *print_ctx;
	size_t : 0;
};
#define ioca_cha_opts__last_field print_ctx

/**
 * @brief The uncore events counting the socket's DDIO hits and misses on
 *        this machine: TOR_INSERTS on every uncore_cha_N PMU (Skylake-SP /
 *        Cascade Lake or Ice Lake-SP and later values, chosen by @info's
 *        CPU model; from Ice Lake on, writes are ItoM and ItoMCacheNear,
 *        the latter left out with a warning when the events would exceed
 *        IOCA_MAX_UNCORE_EVENTS), each field placed where the PMU's
 *        format/ attributes say; or the module's emulated kinds when
 *        @info's backend is IOCA_BACKEND_EMULATED.
 * @param info from ioca_client__info()
 * @param opts NULL or options
 * @return the preset, or NULL with errno: ENODEV (no uncore_cha PMU, as in
 *         any VM: DDIO counters are not available), EOPNOTSUPP (a CPU model
 *         without a known encoding), E2BIG (more events than
 *         IOCA_MAX_UNCORE_EVENTS), ENOENT (the PMU's format has no such
 *         field), EINVAL (a format file that does not parse), ERANGE (a
 *         value wider than its field); the reason, naming the PMU and the
 *         field, also goes to the print callback
 */
LIBIOCA_API struct ioca_cha_preset *ioca_cha_preset__new(const struct ioca_info *info,
							 const struct ioca_cha_opts *opts);

/** @brief Free it (NULL is a no-op). @param p the preset */
LIBIOCA_API void ioca_cha_preset__free(struct ioca_cha_preset *p);

/**
 * @brief The uncore events to configure, to be placed consecutively in
 *        ioca_sampler_config.uncore.
 * @param p the preset
 * @param n set to their number
 * @return the events, owned by @p
 */
LIBIOCA_API const struct ioca_event *ioca_cha_preset__events(const struct ioca_cha_preset *p,
							     size_t *n);

/**
 * @brief How many CHA PMUs were found (0 for the emulated preset).
 * @param p the preset
 * @return the count
 */
LIBIOCA_API size_t ioca_cha_preset__nr_chas(const struct ioca_cha_preset *p);

/**
 * @brief Sum a socket's hit and miss counters over the CHAs (cumulative).
 * @param p the preset
 * @param s one socket of a sample
 * @param first index of the preset's first event in the configured uncore
 *        list
 * @param hit set to the summed hits
 * @param miss set to the summed misses
 * @return 0, or -ENODATA when a counter of the preset is missing from @s
 */
LIBIOCA_API int ioca_cha_preset__sum(const struct ioca_cha_preset *p,
				     const struct ioca_socket_sample *s, size_t first,
				     uint64_t *hit, uint64_t *miss);

/* ---- IIO presets: a PCI device's inbound write bytes (LIBIOCA_0.4) ------------------ */

struct ioca_iio_opts {
	size_t sz;
	/* Directory holding the uncore PMUs; NULL =
	 * "/sys/bus/event_source/devices" (tests point it at a fake tree).
	 */
	const char *sysfs_root;
	/* Directory holding the PCI devices; NULL = "/sys/bus/pci/devices". */
	const char *pci_root;
	ioca_print_fn_t print;
	void *print_ctx;
	size_t : 0;
};
#define ioca_iio_opts__last_field print_ctx

/**
 * @brief The uncore events counting what PCI device @addr writes into
 *        memory, on the IIO stack above it: the stack is the uncore_iio_N
 *        whose dieX attribute holds the device's root bus, the port the
 *        root port's place among its generation's root ports (Skylake-SP /
 *        Cascade Lake 8086:2030-2033 from device 0, Ice Lake-SP
 *        8086:347a-347d from device 2, Sapphire / Emerald Rapids
 *        8086:352a-352d at devices 1, 3, 5, 7); the events are
 *        uncore_iio_free_running_N's bw_in_portK, else uncore_iio_N's
 *        DATA_REQ_OF_CPU.MEM_WRITE (event 0x83, umask 0x01, ch_mask,
 *        fc_mask 0x7), each field placed where the PMU's format/
 *        attributes say. Per root port: the device's own count only when
 *        it is alone below its root port.
 * @param addr the device, DDDD:BB:DD.F
 * @param opts NULL or options
 * @return the preset, or NULL with errno: ENODEV (no such device, no
 *         uncore_iio PMU, no dieX mapping attribute, a root bus on no
 *         known stack, a root port of no known generation, or neither
 *         counter PMU), ENOENT / EINVAL / ERANGE (the PMU's format lacks a
 *         field, does not parse, or is too narrow for the value), EINVAL
 *         (no address, bad opts); the reason, one a person can act on,
 *         also goes to the print callback
 */
LIBIOCA_API struct ioca_iio_preset *ioca_iio_preset__new(const char *addr,
							 const struct ioca_iio_opts *opts);

/** @brief Free it (NULL is a no-op). @param p the preset */
LIBIOCA_API void ioca_iio_preset__free(struct ioca_iio_preset *p);

/**
 * @brief The uncore events to configure, placed consecutively in
 *        ioca_sampler_config.uncore (every socket counts them; the
 *        device's socket is ioca_iio_preset__socket()).
 * @param p the preset
 * @param n set to their number (1 to 4)
 * @return the events, owned by @p
 */
LIBIOCA_API const struct ioca_event *ioca_iio_preset__events(const struct ioca_iio_preset *p,
							     size_t *n);

/**
 * @brief The socket whose samples carry the device's counts (the die of
 *        its stack's dieX attribute; one die per socket on Skylake-SP).
 * @param p the preset
 * @return the socket id
 */
LIBIOCA_API uint32_t ioca_iio_preset__socket(const struct ioca_iio_preset *p);

/**
 * @brief Which counter it is, for people: "uncore_iio_free_running_2/bw_in_port0",
 *        "uncore_iio_2 DATA_REQ_OF_CPU.MEM_WRITE ch_mask 0x03".
 * @param p the preset
 * @return the text, owned by @p
 */
LIBIOCA_API const char *ioca_iio_preset__source(const struct ioca_iio_preset *p);

/**
 * @brief The device's inbound write bytes in a socket's sample
 *        (cumulative, as the counters are).
 * @param p the preset
 * @param s the sample's socket ioca_iio_preset__socket()
 * @param first index of the preset's first event in the configured uncore
 *        list
 * @param bytes set to the counts times the bytes per count (the events'
 *        .scale and .unit in sysfs; 4 for DATA_REQ_OF_CPU)
 * @return 0, or -ENODATA when a counter of the preset is missing from @s
 */
LIBIOCA_API int ioca_iio_preset__bytes(const struct ioca_iio_preset *p,
				       const struct ioca_socket_sample *s, size_t first,
				       uint64_t *bytes);

/* ---- helpers ------------------------------------------------------------------------ */

/* Library-wide helpers are libioca_*, as libbpf's are libbpf_* (LIBIOCA_0.3). */

/**
 * @brief Whether @mask is one contiguous run of set bits (the only shape a
 *        DDIO mask may have).
 * @param mask the mask
 * @return true or false (false for 0)
 */
LIBIOCA_API bool libioca_mask_contiguous(uint32_t mask);

/**
 * @brief The mask of the @ways most significant ways of an LLC with
 *        @llc_ways ways (where the module puts "ways N").
 * @param llc_ways 1 .. 32
 * @param ways 1 .. llc_ways
 * @return the mask, 0 when the arguments are out of range
 */
LIBIOCA_API uint32_t libioca_top_ways(uint32_t llc_ways, uint32_t ways);

/**
 * @brief Name of an enum ioca_event_kind ("instructions", "ddio-miss-emulated").
 * @param kind the kind
 * @return the name, or NULL for an unknown kind
 */
LIBIOCA_API const char *libioca_event_kind_name(uint32_t kind);

/**
 * @brief The capabilities the module asks of a request (LIBIOCA_0.5), for
 *        the hint after an EPERM: every check the op table and the
 *        handler make, for the sender and the socket's opener, in the
 *        initial user namespace.
 * @param cmd an IOCA_CMD_* request
 * @return a constant phrase ("CAP_NET_ADMIN and CAP_PERFMON (or
 *         CAP_SYS_ADMIN)"), "" for a request needing none, NULL for an
 *         unknown command
 */
LIBIOCA_API const char *libioca_cmd_caps(uint32_t cmd);

/*
 * Intel I/O RDT as the firmware describes it: the ACPI IRDT table
 * (/sys/firmware/acpi/tables/IRDT). Its Resource Management Units (one
 * per PCI segment they serve) list device scopes (a PCI endpoint or a
 * bridge and what is below it, and the channels its traffic takes) and
 * resource control structures (a PCIe or CXL link's channels, whether
 * they can be tagged with a CLOS or an RMID, and where the tags are set).
 * libioca decodes the table; it does not allocate through it.
 */

/* IRDT protocol flags (ioca_irdt__io_flags(), __cache_flags()). */
enum ioca_irdt_flag {
	IOCA_IRDT_MON = 1 << 0,	   /* monitoring somewhere on the platform */
	IOCA_IRDT_CTL = 1 << 1,	   /* control (CLOS tagging) somewhere */
	IOCA_IRDT_BW_CTL = 1 << 2, /* bandwidth control somewhere */
};

/* A channel a device's traffic takes: channel @channel of link @rcs. */
struct ioca_irdt_chan_ref {
	uint8_t rcs;	 /* the link's RCS enumeration ID in the same RMUD */
	uint8_t channel; /* index among that link's channels */
	bool shared;	 /* shared with another device scope */
};

#define IOCA_IRDT_MAX_DEV_CHANNELS 32

/* A device scope (DSS). */
struct ioca_irdt_device {
	uint32_t rmud;	      /* index of its RMUD in the table */
	uint16_t segment;     /* PCI segment (the RMUD's) */
	uint8_t bus, dev, fn; /* the device or bridge */
	bool bridge;	      /* a PCI sub-hierarchy, not an endpoint */
	uint32_t nchannels;   /* valid entries of channels[] */
	struct ioca_irdt_chan_ref channels[IOCA_IRDT_MAX_DEV_CHANNELS];
};

/* A resource control structure (RCS): one link and its channels. */
struct ioca_irdt_link {
	uint32_t rmud;	      /* index of its RMUD in the table */
	uint16_t segment;     /* PCI segment (the RMUD's) */
	uint8_t rcs;	      /* enumeration ID, unique in its RMUD */
	uint16_t interface;   /* 0: PCIe, 1: CXL.cache, else reserved */
	uint8_t nchannels;    /* channels of the link */
	bool rmid_tagging;    /* RTS: channels take an RMID */
	bool clos_tagging;    /* CTS: channels take a CLOS */
	bool regs_16bit;      /* REGW: tag registers are 2 bytes wide, else 4 */
	uint16_t rmid_offset; /* byte offset of the RMID block in the MMIO block */
	uint16_t clos_offset; /* byte offset of the CLOS block */
	uint64_t mmio;	      /* physical address of the link's MMIO block */
};

struct ioca_irdt_opts {
	size_t sz;
	/* The table's file; NULL = "/sys/firmware/acpi/tables/IRDT". */
	const char *path;
	ioca_print_fn_t print;
	void *print_ctx;
	size_t : 0;
};
#define ioca_irdt_opts__last_field print_ctx

/**
 * @brief Decode an IRDT table held in memory. Every length in it is checked
 *        against the structure holding it; nothing is read past @len.
 * @param buf the table, from its ACPI header on
 * @param len bytes at @buf
 * @param opts NULL or options (path is ignored)
 * @return the decoded table, or NULL with errno: EINVAL (not an IRDT
 *         table, a checksum that does not add up, a length that does not
 *         fit where it is; the message names the structure, its offset and
 *         the value), ENOMEM
 */
LIBIOCA_API struct ioca_irdt *ioca_irdt__decode(const void *buf, size_t len,
						const struct ioca_irdt_opts *opts);

/**
 * @brief Read and decode the host's IRDT table.
 * @param opts NULL or options
 * @return the decoded table, or NULL with errno: ENOENT (no such table:
 *         the firmware describes no I/O RDT), EACCES (reading ACPI tables
 *         takes root), the errors of ioca_irdt__decode()
 */
LIBIOCA_API struct ioca_irdt *ioca_irdt__open(const struct ioca_irdt_opts *opts);

/** @brief Free it (NULL is a no-op). @param t the table */
LIBIOCA_API void ioca_irdt__free(struct ioca_irdt *t);

/** @brief IO protocol flags. @param t the table @return enum ioca_irdt_flag bits */
LIBIOCA_API uint32_t ioca_irdt__io_flags(const struct ioca_irdt *t);

/** @brief Cache protocol flags. @param t the table @return enum ioca_irdt_flag bits */
LIBIOCA_API uint32_t ioca_irdt__cache_flags(const struct ioca_irdt *t);

/**
 * @brief The device scopes, in table order.
 * @param t the table
 * @param n set to their number
 * @return the devices, owned by @t
 */
LIBIOCA_API const struct ioca_irdt_device *ioca_irdt__devices(const struct ioca_irdt *t, size_t *n);

/**
 * @brief The links (RCS), in table order.
 * @param t the table
 * @param n set to their number
 * @return the links, owned by @t
 */
LIBIOCA_API const struct ioca_irdt_link *ioca_irdt__links(const struct ioca_irdt *t, size_t *n);

/*
 * The same three under their LIBIOCA_0.1 names, kept for the binaries that
 * were built against them.
 */

/** @brief libioca_mask_contiguous(). @param mask the mask @return as it */
LIBIOCA_API __attribute__((deprecated("use libioca_mask_contiguous"))) bool
ioca_mask_contiguous(uint32_t mask);

/** @brief libioca_top_ways(). @param llc_ways LLC ways @param ways ways @return as it */
LIBIOCA_API __attribute__((deprecated("use libioca_top_ways"))) uint32_t
ioca_top_ways(uint32_t llc_ways, uint32_t ways);

/** @brief libioca_event_kind_name(). @param kind the kind @return as it */
LIBIOCA_API __attribute__((deprecated("use libioca_event_kind_name"))) const char *
ioca_event_kind_name(uint32_t kind);

#ifdef __cplusplus
}
#endif

#endif /* LIBIOCA_H */
