/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The paper's simplest policy as a library routine: try every configuration
 * of the space (times a list of extra partial configurations), measure each
 * for a dwell time with the service's own metric, install the best, and
 * search again periodically or when the metric of the chosen configuration
 * moves by more than a threshold.
 *
 * This header is public API (<libspec/policy.h>). The policy is a state machine driven
 * by spec_policy_exhaustive__step(), which never sleeps and reads time only through the clock in
 * the opts, so tests can run it with a fake metric and a fake clock; spec_policy_exhaustive__run()
 * is the loop a policy thread calls in a real service.
 */
#ifndef LIBSPEC_POLICY_H
#define LIBSPEC_POLICY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "libspec/libspec.h"

#ifdef __cplusplus
extern "C" {
#endif

struct spec_policy_exhaustive;

/* How the policy reads the metric callback. */
enum spec_metric_mode {
	/* The callback returns the metric over the period since its previous
	 * call (e.g. requests/s): the policy calls it once when a window opens
	 * (the value is dropped) and once when it closes.
	 */
	SPEC_METRIC_WINDOW = 0,
	/* The callback returns a cumulative count (e.g. requests served so
	 * far): the score of a window is its increase per second.
	 */
	SPEC_METRIC_COUNTER = 1,
};

/* Monotonic time in nanoseconds. */
typedef uint64_t (*spec_clock_fn)(void *ctx);

enum spec_policy_event {
	SPEC_POLICY_EXPLORE = 1, /* a search starts (each one, after its cause); res NULL */
	SPEC_POLICY_MEASURED,	 /* one candidate measured, or failed (res->err) */
	SPEC_POLICY_CHOSEN,	 /* the best candidate is installed */
	SPEC_POLICY_WATCH,	 /* a window of the chosen one, not (yet) a shift */
	SPEC_POLICY_SHIFT,	 /* ... beyond the threshold: a search starts */
	SPEC_POLICY_PERIOD,	 /* the re-exploration period ended: a search starts */
	SPEC_POLICY_NONE_OK,	 /* every candidate failed; what was installed is back */
};

/* One candidate as the report callback sees it; valid during the call. */
struct spec_policy_result {
	const struct spec_config *cfg; /* the candidate */
	const char *text;	       /* its spec_config__format() text */
	size_t index;		       /* its position in the search order */
	double score;		       /* metric (median of .windows); NaN if err */
	int err;		       /* 0, or why it could not be measured (-errno) */
};

/*
 * Called from the thread that runs step() for every event. It may call
 * spec_policy_exhaustive__best() and __nr_candidates(), nothing else of
 * the policy.
 */
typedef void (*spec_policy_report_fn)(void *ctx, enum spec_policy_event ev,
				      const struct spec_policy_result *res);

struct spec_policy_exhaustive_opts {
	size_t sz; /* sizeof(struct spec_policy_exhaustive_opts) */
	/* the system metric, required; bigger is better unless .minimize */
	spec_metric_fn metric;
	void *metric_ctx;
	enum spec_metric_mode metric_mode;
	bool minimize;
	/* measurement window per candidate and per watch window; 0: 100 ms */
	uint64_t dwell_ns;
	/* windows measured per candidate; its score is their median (one
	 * disturbed window does not decide); 0: 1, at most 15
	 */
	uint32_t windows;
	/* time after each switch that is not measured (caches, queues); 0: none */
	uint64_t warmup_ns;
	/* search again this long after a choice; 0: no periodic search */
	uint64_t period_ns;
	/* search again when a watch window's score differs from the chosen
	 * candidate's score by more than this fraction of it; 0: never
	 */
	double threshold;
	/* consecutive watch windows beyond the threshold that start a new
	 * search (one noisy window is not a workload change); 0: 1
	 */
	uint32_t confirm_windows;
	/* only these labels span the search (NULL: every enum and range
	 * point, small enough, plus every assume point as off/on); a generic
	 * point cannot be listed (its values come from .extra), a custom
	 * point listed here is tried off and on
	 */
	const char *const *labels;
	size_t nr_labels;
	/* free choices (any value is correct, e.g. a block size): their guard
	 * is turned off in every candidate that sets them, so the value the
	 * caller passes is only the generic version's default
	 */
	const char *const *noguard_labels;
	size_t nr_noguard_labels;
	/* value points whose candidates come from sampling (the paper's
	 * instrumentation phase): each search first runs the generic variant
	 * sampling them once every .observe_every calls (0: 16) for
	 * .observe_ns (0: .dwell_ns), then tries each "not set" and set to
	 * every value seen in at least .observe_share of the samples (0: 0.7,
	 * the paper's example); not also in .labels
	 */
	const char *const *observe_labels;
	size_t nr_observe_labels;
	uint64_t observe_ns;
	uint32_t observe_every;
	double observe_share;
	/* range points with at most this many values are enumerated; 0: 64 */
	uint64_t max_range_values;
	/* partial configurations merged into every point of the space (the
	 * cartesian product, extra entries win); an empty one stands for
	 * "nothing more"; NULL: the space alone. Copied by __new().
	 */
	const struct spec_config *const *extra;
	size_t nr_extra;
	/* also measure the generic variant (empty configuration) first */
	bool include_generic;
	/* refuse spaces with more candidates than this (-E2BIG); 0: 1024 */
	size_t max_candidates;
	/* time source; NULL: CLOCK_MONOTONIC */
	spec_clock_fn clock;
	void *clock_ctx;
	/* progress callback, or NULL */
	spec_policy_report_fn report;
	void *report_ctx;
	/* compile the next candidate (spec_runtime__prepare()) while the
	 * current one is measured, so that every switch after a search's first
	 * is a swap from the cache, not a wait for a compile. The compile
	 * thread then runs during measurement windows: on a machine without a
	 * core to spare it competes with the service being measured.
	 */
	bool prepare_ahead;
	/* Message callback; NULL: the runtime's (spec_runtime_opts.print) */
	libspec_print_fn_t print;
	void *print_ctx; /* passed to print */
	size_t : 0;
};
#define spec_policy_exhaustive_opts__last_field print_ctx

/**
 * @brief Build the candidate list of @p rt's space and @p opts; nothing is
 * specialized before the first step.
 * @param rt runtime (must outlive the policy)
 * @param opts options; .metric is required
 * @return policy, or NULL and errno: EINVAL (bad opts: missing metric,
 *         negative or NaN threshold, more than 15 windows, a generic point in .labels, bad sz),
 *         ENOENT (a label of .labels, .noguard_labels, .observe_labels
 *         or .extra not in the space), E2BIG
 *         (more candidates than .max_candidates, or a listed range wider
 *         than .max_range_values), ENOMEM; the message names the opt
 */
LIBSPEC_API struct spec_policy_exhaustive *
spec_policy_exhaustive__new(struct spec_runtime *rt,
			    const struct spec_policy_exhaustive_opts *opts);

/**
 * @brief Number of candidates of the current search (with observed points,
 * it changes with what each search observed). @return count (0 for NULL)
 */
LIBSPEC_API size_t spec_policy_exhaustive__nr_candidates(const struct spec_policy_exhaustive *p);

/**
 * @brief Do whatever is due at the clock's current time: open or close a
 * measurement window, install the next candidate (waiting for its compile),
 * choose and install the best, or start a new search. Never sleeps.
 * @param next_ns out (may be NULL): clock time at which to call again;
 *        UINT64_MAX when nothing will ever be due
 * @return 0; or, once, the error of the first candidate when every
 *         candidate of a search failed
 */
LIBSPEC_API int spec_policy_exhaustive__step(struct spec_policy_exhaustive *p, uint64_t *next_ns);

/**
 * @brief Call step() until spec_policy_exhaustive__stop(), sleeping (real
 * time) until each next step is due. For a policy thread.
 * @return 0 once stopped; a search in which every candidate failed is
 *         reported through the callback and the log, not here
 */
LIBSPEC_API int spec_policy_exhaustive__run(struct spec_policy_exhaustive *p);

/** @brief Make run() return soon (from another thread). */
LIBSPEC_API void spec_policy_exhaustive__stop(struct spec_policy_exhaustive *p);

/**
 * @brief Start a new search at the next step (e.g. the service knows its
 * workload changed).
 */
LIBSPEC_API void spec_policy_exhaustive__explore(struct spec_policy_exhaustive *p);

/**
 * @brief The candidate chosen by the last completed search.
 * @param cfg out (may be NULL): a copy to free with spec_config__free()
 * @param score out (may be NULL): its score when it was measured
 * @return 0, -ENOENT (no search completed or all failed), -EINVAL, -ENOMEM
 */
LIBSPEC_API int spec_policy_exhaustive__best(struct spec_policy_exhaustive *p,
					     struct spec_config **cfg, double *score);

/** @brief Free the policy (NULL is fine); the installed variant stays. */
LIBSPEC_API void spec_policy_exhaustive__free(struct spec_policy_exhaustive *p);

/*
 * A fast path built from samples (a spec_gen() or spec_custom() point whose
 * generator reads spec_gen__hot(), sampled with label~N) is right only while
 * the hot set stays: the fast-path policy watches what share of the sampled
 * inputs the compiled hot set covers and, when it falls, re-instruments
 * (forgets the old samples, the installed variant goes on sampling), then
 * rebuilds the installed configuration from the fresh samples. The rebuild
 * invalidates the point's data version first (keeping the installed
 * variant), so the variant cache cannot hand back the stale fast path.
 */
struct spec_policy_fastpath;

struct spec_policy_fastpath_opts {
	size_t sz; /* sizeof(struct spec_policy_fastpath_opts) */
	/* re-instrument when the compiled hot set covers less than this share
	 * of the sampled inputs; 0: 0.5
	 */
	double min_coverage;
	/* samples needed to judge, and to rebuild from; 0: 64 */
	uint64_t min_samples;
	/* hot values the fast path holds (the generator's size); 0: 8 */
	uint32_t hot;
	/* Message callback; NULL: the runtime's (spec_runtime_opts.print) */
	libspec_print_fn_t print;
	void *print_ctx; /* passed to print */
	size_t : 0;
};
#define spec_policy_fastpath_opts__last_field print_ctx

/**
 * @brief Watch the fast path of point @p label, whose installed variant was
 * just built from the samples observed now (those are taken as its hot
 * set).
 * @return policy, or NULL and errno (ENOENT: unknown label, EINVAL)
 */
LIBSPEC_API struct spec_policy_fastpath *
spec_policy_fastpath__new(struct spec_runtime *rt, const char *label,
			  const struct spec_policy_fastpath_opts *opts);

/**
 * @brief One check, from the service's loop or a timer (never sleeps).
 * Re-instrumenting forgets the samples and guard failures of @p label's
 * point only; every other point keeps its counters.
 * @return 1 when it rebuilt the fast path, 0 when nothing was due, or
 *         -errno (the rebuild's error; the installed variant stays)
 */
LIBSPEC_API int spec_policy_fastpath__step(struct spec_policy_fastpath *fp);

/** @brief Coverage seen by the last step that judged it (NaN before). */
LIBSPEC_API double spec_policy_fastpath__coverage(const struct spec_policy_fastpath *fp);

LIBSPEC_API void spec_policy_fastpath__free(struct spec_policy_fastpath *fp);

#ifdef __cplusplus
}
#endif

#endif /* LIBSPEC_POLICY_H */
