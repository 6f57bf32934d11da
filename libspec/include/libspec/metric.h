/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Hardware counter metrics from ioca.ko's sample stream (through libioca):
 * a service tunes itself by what the CPU sees (IPC, LLC misses), not only
 * by its own timers. spec_counters__read() is a spec_metric_fn for
 * SPEC_METRIC_WINDOW: each call returns the metric over the samples that
 * arrived since the previous call, summed over the service's CPUs.
 *
 * Built without libnl (or without libioca), spec_counters__open() fails
 * with EOPNOTSUPP and says so. Thread-safety: one handle per thread (the
 * policy's); handles are independent.
 */
#ifndef LIBSPEC_METRIC_H
#define LIBSPEC_METRIC_H

#include "libspec/libspec.h"

#ifdef __cplusplus
extern "C" {
#endif

struct spec_counters;

enum spec_counter_metric {
	SPEC_COUNTERS_IPC = 1,		   /* instructions / cycles (higher is better) */
	SPEC_COUNTERS_LLC_MISSES_PER_INSN, /* LLC misses / instructions */
	SPEC_COUNTERS_LLC_MISSES_PER_OP,   /* LLC misses / the service's operations */
};

struct spec_counters_opts {
	size_t sz; /* sizeof(struct spec_counters_opts) */
	/* The service's CPUs; NULL/0: every CPU in the samples. */
	const uint32_t *cpus;
	size_t ncpus;
	/* Configure and start the module's sampler (as its owner: it stops
	 * when the handle closes) with the events the metric needs on @cpus;
	 * false: use what iocad (or another owner) configured.
	 */
	bool configure;
	uint32_t interval_us; /* when configuring; 0: 10000 */
	/* LLC_MISSES_PER_OP: the service's count of operations done */
	const _Atomic uint64_t *ops;
	/* Misses per instruction or operation are "lower is better": return
	 * their negation, so a maximizing policy minimizes them.
	 */
	bool negate;
	/* How long read() waits for a new sample (ms); 0: 3 intervals */
	int timeout_ms;
	/* Message callback, also of the handle's libioca objects (their
	 * messages prefixed "libioca: "); NULL = warnings to stderr, the rest
	 * dropped.
	 */
	libspec_print_fn_t print;
	void *print_ctx; /* passed to print */
	size_t : 0;
};
#define spec_counters_opts__last_field print_ctx

/**
 * @brief Subscribe to the module's samples for metric @p what.
 * @return handle, or NULL and errno: EOPNOTSUPP (libspec built without
 *         libioca), ENOENT (ioca.ko not loaded), EPERM (joining the samples
 *         group or configuring needs privileges), EINVAL (bad options, or
 *         the configured events lack one the metric needs); the print
 *         callback says which
 */
LIBSPEC_API struct spec_counters *spec_counters__open(enum spec_counter_metric what,
						      const struct spec_counters_opts *opts);

/**
 * @brief The metric over the samples since the previous call (the first
 * call starts the window and returns NaN). Waits up to the timeout for a
 * sample newer than the last one used. A spec_metric_fn: pass the handle as
 * ctx, with SPEC_METRIC_WINDOW.
 * @return the value, or NaN (no new sample in time, or no activity)
 */
LIBSPEC_API double spec_counters__read(void *counters);

/** @brief Samples used so far (received and decoded). @return count */
LIBSPEC_API uint64_t spec_counters__samples(const struct spec_counters *c);

/** @brief Close (stops the sampler if this handle configured it). NULL is fine. */
LIBSPEC_API void spec_counters__close(struct spec_counters *c);

#ifdef __cplusplus
}
#endif

#endif /* LIBSPEC_METRIC_H */
