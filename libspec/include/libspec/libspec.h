/* SPDX-License-Identifier: GPL-2.0 */
/*
 * libspec runtime and policy API: what the service's fixed code includes.
 *
 * A runtime is opened from a handler IR/bitcode file produced by spec-cc,
 * loaded (the generic variant is JIT-compiled), and then hands out stable
 * handler pointers. Behind each pointer the current variant is swapped
 * atomically by spec_runtime__specialize(); old variants are freed only when
 * no thread can still be running them.
 *
 * Conventions (libbpf style): objects are opaque; int functions return 0 or a
 * negative errno and also set errno; pointer functions return NULL and set
 * errno; *_opts structs carry their own size and are declared with
 * LIBSPEC_OPTS(); messages go to the print callback given in the opts of
 * the object they concern (per object, no global state: two users of
 * libspec in one process each keep their own), whose default prints
 * warnings to stderr; a callback that does nothing silences the object.
 *
 * Limits: a custom point's generator gives at most SPEC_CUSTOM_MAX_CASES
 * cases; sampling keeps the top SPEC_SAMPLE_TOPK values per thread and
 * point, and snapshots and generators see the top SPEC_HOT_MAX of them
 * merged over threads; spec_gen() points take 1..4 inputs of up to 128 bits
 * (libspec/gen.h).
 */
#ifndef LIBSPEC_LIBSPEC_H
#define LIBSPEC_LIBSPEC_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#ifdef __cplusplus
extern "C" {
#endif

#ifndef LIBSPEC_API
#define LIBSPEC_API __attribute__((visibility("default")))
#endif

/*
 * Declare and zero an opts struct, set its size and the given fields:
 *   LIBSPEC_OPTS(spec_runtime_opts, o, .pipeline = "default<O2>");
 * In C++ (designated initializers: C++20, or g++/clang++ in earlier modes)
 * name the fields in their declaration order; NAME then has a type derived
 * from struct TYPE, usable wherever a struct TYPE (pointer) is.
 */
#ifndef __cplusplus
/*
 * The memset zeroes the padding too (the library checks the bytes past the
 * fields it knows): a statement expression, marked __extension__ so that
 * -std=c11 -pedantic-errors accepts it. NAME is in the variadic part, so
 * a call without fields passes ISO C's "at least one argument" rule.
 */
#define LIBSPEC_OPTS(TYPE, ...) __LIBSPEC_OPTS(TYPE, __VA_ARGS__, )
#define __LIBSPEC_OPTS(TYPE, NAME, ...)                                \
	struct TYPE NAME = __extension__({                             \
		memset(&NAME, 0, sizeof(struct TYPE));                 \
		(struct TYPE){.sz = sizeof(struct TYPE), __VA_ARGS__}; \
	})
#else
}
/*
 * Everything past the last field zeroed (the library checks those bytes
 * of a newer caller's struct), the fields copied from the initializer.
 */
template <typename T> struct libspec_opts : T {
	libspec_opts(const T &init, size_t used)
	{
		memset(static_cast<T *>(this), 0, sizeof(T));
		memcpy(static_cast<T *>(this), &init, used);
	}
};
/* Fields left out are zero, as in C: g++ need not warn about them (the
 * pragma's pop needs a declaration of its own after NAME's).
 */
// clang-format off
#define LIBSPEC_OPTS(TYPE, NAME, ...)                                                      \
	_Pragma("GCC diagnostic push")                                                     \
	_Pragma("GCC diagnostic ignored \"-Wmissing-field-initializers\"")                 \
	libspec_opts<struct TYPE> NAME(TYPE{.sz = sizeof(struct TYPE), __VA_ARGS__},       \
				       offsetof(struct TYPE, TYPE##__last_field) +         \
				       sizeof(((struct TYPE *)0)->TYPE##__last_field));    \
	_Pragma("GCC diagnostic pop")                                                      \
	static_assert(sizeof(NAME) == sizeof(struct TYPE), "libspec_opts adds no bytes")
// clang-format on
extern "C" {
#endif

struct spec_runtime;
struct spec_config;
struct spec_space;
struct spec_variant;

/* ---- messages ----------------------------------------------------------- */

enum libspec_print_level {
	LIBSPEC_PRINT_WARN,
	LIBSPEC_PRINT_INFO,
	LIBSPEC_PRINT_DEBUG,
};

/*
 * A message of the library, without a trailing newline, with errno as it
 * was (the library restores it after the call). @ctx is the print_ctx of
 * the opts the object was opened with. The callback runs in whichever
 * thread logs: a caller's, or one of the object's own (the runtime's
 * compile thread, the event system's dispatcher and optimizer, a policy's
 * thread); for a runtime used from several threads it must be thread-safe.
 */
typedef void (*libspec_print_fn_t)(enum libspec_print_level level, void *ctx, const char *fmt,
				   va_list ap);

#define SPEC_CUSTOM_MAX_CASES 4096
#define SPEC_SAMPLE_TOPK 8
#define SPEC_HOT_MAX 32

/* ---- points and the specialization space -------------------------------- */

enum spec_point_kind {
	SPEC_POINT_ENUM = 1, /* spec_enum(): one of a listed set */
	SPEC_POINT_RANGE,    /* spec_range(): lo <= x <= hi */
	SPEC_POINT_GENERIC,  /* spec_generic(): any value the policy picks */
	SPEC_POINT_ASSUME,   /* spec_assume(): a condition, enabled or not */
	SPEC_POINT_CUSTOM,   /* spec_custom(): fast-path cases from a generator */
	SPEC_POINT_GEN,	     /* spec_gen(): code emitted by a generator (gen.h) */
	SPEC_POINT_PTR,	     /* spec_ptr(): a pointer, specialized by identity */
};

/*
 * One observed value of a point and how many samples saw it. The record
 * grows by appending fields: index arrays of it through
 * spec_point_info__observed() and spec_gen__hot_at(), which step by the
 * library's size, never with [] compiled against an older header.
 */
struct spec_observed {
	int64_t value;
	uint64_t count;
	int64_t value_hi; /* spec_gen(): bits 64..127 of a wide first input */
	int64_t out;	  /* spec_gen(): what the point answered for it */
};

/*
 * One point of the space, keyed by label. A label may annotate several sites
 * (same kind and values); a configuration entry applies to all of them.
 * Owned by the spec_space snapshot; fields are only ever appended.
 */
struct spec_point_info {
	const char *label;
	enum spec_point_kind kind;
	const char *function; /* function holding the first site */
	const char *file;     /* source file and line of the first site */
	int line;
	size_t nr_sites;
	const int64_t *values; /* SPEC_POINT_ENUM: allowed values */
	size_t nr_values;
	int64_t lo, hi; /* SPEC_POINT_RANGE: inclusive bounds */
	/* Instrumentation, merged over threads at snapshot time, by count
	 * descending (at most the top-K of each thread).
	 */
	const struct spec_observed *observed;
	size_t nr_observed;
	uint64_t samples;	 /* samples recorded since the last reset */
	uint64_t guard_failures; /* failed guards since the last reset */
};

/**
 * @brief Snapshot the space: every point with its observed values and
 * guard-failure count at the moment of the call.
 * @param rt runtime
 * @return snapshot to free with spec_space__free() (before closing @p rt: its
 *         strings and value arrays belong to the runtime), or NULL and errno
 */
LIBSPEC_API struct spec_space *spec_runtime__space(struct spec_runtime *rt);

/** @brief Number of points (labels) in @p space. @return count */
LIBSPEC_API size_t spec_space__size(const struct spec_space *space);

/**
 * @brief The @p i-th point, in order of first appearance in the IR.
 * @return point, or NULL and errno = ERANGE
 */
LIBSPEC_API const struct spec_point_info *spec_space__point(const struct spec_space *space,
							    size_t i);

/** @brief Point by label. @return point, or NULL and errno = ENOENT */
LIBSPEC_API const struct spec_point_info *spec_space__find(const struct spec_space *space,
							   const char *label);

/**
 * @brief Observed value @p i of @p p (by count descending).
 * @return entry, or NULL and errno = ERANGE
 */
LIBSPEC_API const struct spec_observed *spec_point_info__observed(const struct spec_point_info *p,
								  size_t i);

/** @brief Free a snapshot (NULL is fine). */
LIBSPEC_API void spec_space__free(struct spec_space *space);

/* ---- configurations ---------------------------------------------------- */

/*
 * A configuration maps labels to settings. A label not mentioned is
 * disabled (generic behaviour, no guard, no sampling). Configurations are
 * plain values: they are validated against a runtime only when used, and
 * they log nothing (a setter's -EINVAL means a bad label or argument; only
 * parsing names what it refused, through its print callback).
 */

/** @brief New empty configuration (= the generic variant). @return cfg or NULL and errno */
LIBSPEC_API struct spec_config *spec_config__new(void);

/** @brief Free a configuration (NULL is fine). */
LIBSPEC_API void spec_config__free(struct spec_config *cfg);

/** @brief Deep copy. @return copy, or NULL and errno */
LIBSPEC_API struct spec_config *spec_config__dup(const struct spec_config *cfg);

/**
 * @brief Copy every entry of @p src into @p dst, replacing entries of the
 * same label (cartesian products of spaces are built this way).
 * @return 0, or -ENOMEM
 */
LIBSPEC_API int spec_config__merge(struct spec_config *dst, const struct spec_config *src);

/**
 * @brief Specialize a value point (enum, range, generic) to @p value.
 * @return 0, or -EINVAL (bad label), -ENOMEM
 */
LIBSPEC_API int spec_config__set_value(struct spec_config *cfg, const char *label, int64_t value);

/**
 * @brief Enable an assume or custom point, or a range point without a value
 * (then lo <= x <= hi is assumed, guarded like a value).
 * @return 0 or -errno
 */
LIBSPEC_API int spec_config__enable(struct spec_config *cfg, const char *label);

/**
 * @brief Enable spec_gen() point @p label for the data at @p data: its
 * generator compiles that data, and calls with other data take the generic
 * path (an identity check). Stored as the value (uintptr_t)data.
 * @return 0 or -errno
 */
LIBSPEC_API int spec_config__set_data(struct spec_config *cfg, const char *label, const void *data);

/**
 * @brief Parameter of an enabled spec_gen() point's generator (e.g. the
 * fast path's size), read with spec_gen__param(); part of the canonical
 * text ("label=V/P") and so of the cache key, and a dimension a policy can
 * search like any value. 0 (the default) is not written.
 * @return 0 or -errno
 */
LIBSPEC_API int spec_config__set_param(struct spec_config *cfg, const char *label, int64_t param);

/** @brief Disable a point (drops its value; keeps its sampling rate). @return 0 or -errno */
LIBSPEC_API int spec_config__disable(struct spec_config *cfg, const char *label);

/**
 * @brief Guard on (default) or off for an enabled point. Without a guard,
 * a wrong value or a false assumption gives wrong results: only for values
 * the service knows to hold.
 * @return 0 or -errno
 */
LIBSPEC_API int spec_config__set_guard(struct spec_config *cfg, const char *label, bool on);

/**
 * @brief Sample the point's value once every @p every_n calls (per thread);
 * 0 turns sampling off, 1 records every call.
 * @return 0 or -errno
 */
LIBSPEC_API int spec_config__set_sampling(struct spec_config *cfg, const char *label,
					  uint32_t every_n);

/**
 * @brief Value of @p label in @p cfg.
 * @param value out: the value, when the point is set to one
 * @return 1 if set to a value, 0 if not (absent, disabled or enabled without
 *         value), -EINVAL on bad arguments
 */
LIBSPEC_API int spec_config__get_value(const struct spec_config *cfg, const char *label,
				       int64_t *value);

/**
 * @brief Canonical text of @p cfg: entries sorted by label, e.g.
 * "B=16,N=256!noguard,a~64,c+": =V a value, + enabled (assume, custom),
 * /P a spec_gen generator's parameter,
 * !noguard guard off, ~N sampling every N; disabled entries without
 * sampling are left out. Equal configurations give equal text; the variant
 * cache is keyed by it.
 * @return length of the full text (like snprintf), or -errno
 */
LIBSPEC_API int spec_config__format(const struct spec_config *cfg, char *buf, size_t size);

/**
 * @brief Parse the text spec_config__format() writes (whitespace allowed
 * around entries) into a new configuration; a bad entry is named in a
 * warning to stderr (spec_config__parse_opts() takes a print callback).
 * @return cfg, or NULL and errno = EINVAL
 */
LIBSPEC_API struct spec_config *spec_config__parse(const char *text);

struct spec_config_parse_opts {
	size_t sz; /* sizeof(struct spec_config_parse_opts) */
	/* Message callback; NULL = warnings to stderr, the rest dropped. */
	libspec_print_fn_t print;
	void *print_ctx; /* passed to print */
	size_t : 0;
};
#define spec_config_parse_opts__last_field print_ctx

/**
 * @brief spec_config__parse() with options: a bad entry is named through
 * @p opts' print callback.
 * @param text configuration text
 * @param opts options, or NULL
 * @return cfg, or NULL and errno = EINVAL (bad text or opts), ENOMEM
 */
LIBSPEC_API struct spec_config *spec_config__parse_opts(const char *text,
							const struct spec_config_parse_opts *opts);

/* ---- runtime ------------------------------------------------------------ */

struct spec_runtime_opts {
	size_t sz; /* sizeof(struct spec_runtime_opts) */
	/* LLVM new-PM pipeline for every variant; NULL: "default<O3>" */
	const char *pipeline;
	/* compiled variants kept for reuse (the current and the generic one
	 * are never evicted); 0: 16
	 */
	size_t max_variants;
	/* write /tmp/perf-<pid>.map entries for JIT code (also when the
	 * environment has LIBSPEC_PERF_MAP=1)
	 */
	bool perf_map;
	/* if not NULL, the reason an open fails is also copied here */
	char *errbuf;
	size_t errbuf_sz;
	/* tiered compiles: if not NULL (e.g. "default<O1>"), a variant not yet
	 * cached is first compiled with this cheaper pipeline and installed,
	 * then compiled with @pipeline, which replaces it and is what the
	 * cache serves from then on; a specialization whose opts name a
	 * pipeline is compiled with that one only
	 */
	const char *first_pipeline;
	/* the first tier's machine code by LLVM's fast -O0 code generator
	 * (FastISel, fast register allocation): sooner, slower code
	 */
	bool first_fast_codegen;
	/* measured tiers: a tiered job (first_pipeline; "default<O1>" if
	 * that is NULL) times the calls of the handlers it changes - every
	 * call, or one in 8 of a handler known to take under 4096 cycles;
	 * through the handler's stub and only while it decides -
	 * under the code it replaces, under its first tier and under its
	 * final tier. The final tier replaces the first unless it runs
	 * slower (then the first is reinstalled and becomes the
	 * configuration's code). Per handler the runtime then stops
	 * compiling a tier that does not pay: the final one once it was
	 * not 5 % faster twice in a row, the first one once it ran 5 %
	 * slower than the code it replaced; every 8th job of a handler
	 * compiles both again. A job waits up to 250 ms for 16 timed calls
	 * per handler (spec_runtime__wait() includes that wait; a
	 * synchronous specialization returns before it).
	 */
	bool measure_tiers;
	/* persistent code cache: if not NULL, compiled variants (generic
	 * included) are stored in this directory (created if missing) and a
	 * later runtime - this process or another, also after a restart -
	 * that builds the same variant loads it from there instead of
	 * optimizing and generating code again. A file serves only a variant
	 * whose key matches in full: the handler IR, the variant's
	 * specialized IR (configuration values, generator output, hence the
	 * data a generator read), pipeline, target, CPU and features, LLVM
	 * and libspec versions; corrupt or truncated files are removed.
	 * Processes may share a directory.
	 */
	const char *code_cache_dir;
	/* bytes of cache files the directory keeps (the least recently used
	 * are removed beyond it); 0: 64 MiB
	 */
	uint64_t code_cache_max_bytes;
	/* Message callback of the runtime and of what is built on it (event
	 * system, policies) unless their opts name another; NULL = warnings
	 * to stderr, the rest dropped.
	 */
	libspec_print_fn_t print;
	void *print_ctx; /* passed to print */
	size_t : 0;
};
#define spec_runtime_opts__last_field print_ctx

/**
 * @brief Open a runtime from a handler IR (.ll) or bitcode (.bc) file made by
 * spec-cc: parses it and collects the specialization points. Nothing is
 * compiled yet: define static symbols, then spec_runtime__load().
 * @param path IR file
 * @param opts options, or NULL
 * @return runtime, or NULL and errno (ENOENT missing file, EINVAL bad IR or a
 *         malformed point, with the reason logged and copied to errbuf)
 */
LIBSPEC_API struct spec_runtime *spec_runtime__open(const char *path,
						    const struct spec_runtime_opts *opts);

/**
 * @brief Make @p name resolve to @p addr in handler code (for static
 * functions and variables of the fixed code; exported process symbols
 * resolve without this). Only before spec_runtime__load().
 * @return 0, -EEXIST (already defined), -EBUSY (already loaded), -EINVAL
 */
LIBSPEC_API int spec_runtime__define_symbol(struct spec_runtime *rt, const char *name,
					    const void *addr);

/**
 * @brief JIT-compile the generic variant and the stable entry points and
 * start the compile thread. Called implicitly by the first
 * spec_runtime__handler().
 * @return 0, or -ENOENT (unresolved symbol, named in the message), -EINVAL
 *         (bad pipeline, verifier error), -ENOMEM
 */
LIBSPEC_API int spec_runtime__load(struct spec_runtime *rt);

/**
 * @brief Stable entry point of handler @p name (any function defined in the
 * IR), valid until spec_runtime__close(). Cast it to the handler's type.
 * @return function pointer, or NULL and errno = ENOENT (unknown handler) or
 *         the load error
 */
LIBSPEC_API void *spec_runtime__handler(struct spec_runtime *rt, const char *name);

/**
 * @brief The fastest way to call handler @p name: a word holding what to
 * call, read with spec_entry_load() before each call (never cached). While
 * the generic variant is installed it holds the generic function itself
 * (never freed, so no epoch is needed: a native call through a pointer);
 * otherwise the stable entry point of spec_runtime__handler(). A call
 * racing with a swap runs the variant it read, as through the stub.
 * Valid until spec_runtime__close(); thread-safe.
 * @return the word's address, or NULL and errno as spec_runtime__handler()
 */
LIBSPEC_API void *const *spec_runtime__handler_entry(struct spec_runtime *rt, const char *name);

/** @brief Read a word of spec_runtime__handler_entry() (acquire). */
static inline void *spec_entry_load(void *const *entry)
{
	return __atomic_load_n(entry, __ATOMIC_ACQUIRE);
}

/** @brief Replace the pipeline for later compiles (NULL: default). @return 0 or -errno */
LIBSPEC_API int spec_runtime__set_pipeline(struct spec_runtime *rt, const char *pipeline);

/* Called on a failed guard of @label before the generic version runs. */
typedef void (*spec_cleanup_fn)(void *ctx, const char *label, int64_t observed);

/**
 * @brief Install the cleanup callback of @p label (NULL removes it); applies
 * to variants compiled afterwards and to cached ones.
 * @return 0, or -ENOENT (unknown label)
 */
LIBSPEC_API int spec_runtime__set_cleanup(struct spec_runtime *rt, const char *label,
					  spec_cleanup_fn fn, void *ctx);

/* One inline answer of a custom point: fn(in) == out. */
struct spec_case {
	int64_t in;
	int64_t out;
};

/*
 * Generator of a custom point, called in the compile thread: fill at most
 * @max (SPEC_CUSTOM_MAX_CASES) cases from the hot inputs observed by sampling (may be empty).
 * Returns the number of cases written, or a negative errno that fails the
 * compile.
 */
typedef int (*spec_custom_gen_fn)(void *ctx, const char *label, const struct spec_observed *hot,
				  size_t nr_hot, struct spec_case *cases, size_t max);

/**
 * @brief Register the generator of custom point @p label.
 * @return 0, -ENOENT (unknown label), -EINVAL (not a custom point)
 */
LIBSPEC_API int spec_runtime__add_custom(struct spec_runtime *rt, const char *label,
					 spec_custom_gen_fn gen, void *ctx);

/* Called in the compile thread when a queued specialization ends (in the
 * caller, before specialize() returns, when the variant was cached).
 */
typedef void (*spec_done_fn)(void *ctx, int err);

struct spec_specialize_opts {
	size_t sz; /* sizeof(struct spec_specialize_opts) */
	/* pipeline for this variant only, forced (no tiered compile); NULL:
	 * the runtime's
	 */
	const char *pipeline;
	/* completion callback (async form only), or NULL */
	spec_done_fn done;
	void *done_ctx;
	/* machine code by LLVM's fast -O0 code generator; like naming a
	 * pipeline, this forces the level: no tiered compile
	 */
	bool fast_codegen;
	size_t : 0;
};
#define spec_specialize_opts__last_field fast_codegen

/**
 * @brief Validate @p cfg now, then compile (or take from the cache) and
 * install its variant in the background; returns at once. An empty
 * configuration installs the generic variant.
 * @return 0 when queued; -ENOENT (unknown label), -EINVAL (value not in the
 *         enum, kind mismatch), -ERANGE (value outside a range), with the
 *         point's label, value and file:line in the message
 */
LIBSPEC_API int spec_runtime__specialize(struct spec_runtime *rt, const struct spec_config *cfg,
					 const struct spec_specialize_opts *opts);

/**
 * @brief Like spec_runtime__specialize() but waits until the variant is
 * installed or the compile failed (the current variant then stays).
 * @return 0, a validation error, or the compile error (-EINVAL bad pipeline
 *         or verifier error, -ENOENT unresolved symbol, -ENOMEM)
 */
LIBSPEC_API int spec_runtime__specialize_sync(struct spec_runtime *rt,
					      const struct spec_config *cfg,
					      const struct spec_specialize_opts *opts);

struct spec_invalidate_opts {
	size_t sz; /* sizeof(struct spec_invalidate_opts) */
	/* the installed variant stays (its code is still right, only no
	 * longer best: the hot set moved); default: replaced first
	 */
	bool keep_current;
	size_t : 0;
};
#define spec_invalidate_opts__last_field keep_current

/**
 * @brief The data behind spec_gen()/spec_custom() point @p label is about
 * to change: variants compiled from it are never taken from the cache
 * again; unless opts->keep_current, an installed variant that compiled it is
 * replaced by the generic one, and the call returns once no thread can
 * still run it and no generator is reading; the sampled values are then
 * forgotten (their answers came from the old data). Protocol: invalidate,
 * change the data, specialize again. Not from inside a handler.
 * @return 0, -ENOENT (unknown label), -EINVAL
 */
LIBSPEC_API int spec_runtime__invalidate(struct spec_runtime *rt, const char *label,
					 const struct spec_invalidate_opts *opts);

/**
 * @brief Compile the variant of @p cfg into the cache in the background
 * without installing it, so that a later specialize() of it is a swap, not
 * a compile (e.g. the candidates a search will try next). Validated now as
 * by specialize(); compiled with the pipeline specialize() would look up
 * first (@p opts's, else the runtime's; no tiers, nothing measured). A
 * prepared variant is evicted like any other when the cache is full.
 * @return 0 when queued or already cached; -errno as specialize()
 */
LIBSPEC_API int spec_runtime__prepare(struct spec_runtime *rt, const struct spec_config *cfg,
				      const struct spec_specialize_opts *opts);

/** @brief Wait until every queued specialization has ended. @return 0 or -errno */
LIBSPEC_API int spec_runtime__wait(struct spec_runtime *rt);

/**
 * @brief The last compile or validation error of @p rt.
 * @param buf message out (may be NULL), always NUL-terminated when size > 0
 * @return that error (-errno), or 0 if none happened
 */
LIBSPEC_API int spec_runtime__last_error(struct spec_runtime *rt, char *buf, size_t size);

/**
 * @brief Canonical text (spec_config__format()) of the installed
 * configuration.
 * @return length of the full text, or -errno
 */
LIBSPEC_API int spec_runtime__current(struct spec_runtime *rt, char *buf, size_t size);

/**
 * @brief Failed guards of @p label since the last reset, over all variants.
 * @return 0, or -ENOENT (unknown label)
 */
LIBSPEC_API int spec_runtime__guard_failures(struct spec_runtime *rt, const char *label,
					     uint64_t *count);

/** @brief Zero guard-failure counts and observed values. @return 0 or -errno */
LIBSPEC_API int spec_runtime__reset_counters(struct spec_runtime *rt);

struct spec_runtime_stats {
	uint64_t compiles;	   /* variants built (generic included; also disk_hits) */
	uint64_t compile_failures; /* compiles that failed */
	uint64_t cache_hits;	   /* specializations served from the cache */
	uint64_t swaps;		   /* variant installations */
	uint64_t evictions;	   /* variants evicted from the cache */
	uint64_t freed;		   /* variants whose code was released */
	uint64_t live_variants;	   /* variants whose code is still mapped */
	uint64_t last_compile_ns;  /* wall time of the last compile */
	uint64_t total_compile_ns; /* wall time of all compiles */
	/* The last compile by phase: cloning and replacing the points (with
	 * generators) and verifying; the LLVM pass pipeline; code generation
	 * and linking in the JIT.
	 */
	uint64_t last_specialize_ns;
	uint64_t last_optimize_ns;
	uint64_t last_codegen_ns;
	/* Tiered compiles (spec_runtime_opts.first_pipeline): cheap variants
	 * installed first, final variants that replaced one, and for the last
	 * tiered job the time from its start to each installation.
	 */
	uint64_t tier_first;
	uint64_t tier_final;
	uint64_t last_first_install_ns;
	uint64_t last_final_install_ns;
	/* Measured tiers (spec_runtime_opts.measure_tiers): jobs decided by
	 * timing, those where the first tier ran faster and was kept, and
	 * jobs compiled without their first or without their final tier
	 * because it had not paid for the handlers they change.
	 */
	uint64_t tier_measured;
	uint64_t tier_first_kept;
	uint64_t tier_first_skipped;
	uint64_t tier_final_skipped;
	/* The last measured job: median cycles of a timed call, summed over
	 * the handlers it changes, under the code it replaced, its first
	 * tier and its final tier (0: not measured).
	 */
	uint64_t last_old_cycles;
	uint64_t last_first_cycles;
	uint64_t last_final_cycles;
	/* Variants compiled by spec_runtime__prepare() (not installed then). */
	uint64_t prepared;
	/* The code cache (spec_runtime_opts.code_cache_dir): variants loaded
	 * from it (no optimization, no code generation), compiled and stored,
	 * compiled but not stored (a full disk: logged), compiled without it
	 * (code whose process addresses cannot be rebound, or the twin of a
	 * live variant that differs from it only in those addresses), and
	 * files found unusable (corrupt, truncated, another key) and compiled
	 * again.
	 */
	uint64_t disk_hits;
	uint64_t disk_stores;
	uint64_t disk_store_failures;
	uint64_t disk_bypassed;
	uint64_t disk_rejected;
	/* Wall time of the last variant loaded from the code cache, from the
	 * specialized module to callable code (rebinding, key digest, reading,
	 * checking, linking; cloning and specializing come on top and are
	 * last_specialize_ns).
	 */
	uint64_t last_disk_load_ns;
};

/**
 * @brief Copy the runtime's counters.
 * @param stats out
 * @param sz sizeof(*stats) as the caller knows it (fields are appended)
 * @return 0 or -EINVAL
 */
LIBSPEC_API int spec_runtime__stats(struct spec_runtime *rt, struct spec_runtime_stats *stats,
				    size_t sz);

/* What measured tiers (spec_runtime_opts.measure_tiers) learned of one
 * handler.
 */
struct spec_tiers {
	uint32_t jobs;	       /* tiered jobs that changed it */
	uint32_t final_ties;   /* in a row, its final tier was not 5 % faster */
	uint32_t first_losses; /* in a row, its first tier ran 5 % slower than before */
	bool skip_first;       /* its next job compiles no first tier (but rechecks) */
	bool skip_final;       /* ... no final tier */
	uint64_t last_cycles;  /* median cycles of a timed call, last filled window */
};

/**
 * @brief Copy what measured tiers learned of handler @p name.
 * @param sz sizeof(*out) as the caller knows it (fields are appended)
 * @return 0; -ENOENT (unknown handler), -EOPNOTSUPP (runtime opened without
 *         measure_tiers), -EINVAL
 */
LIBSPEC_API int spec_runtime__tiers(struct spec_runtime *rt, const char *name,
				    struct spec_tiers *out, size_t sz);

/**
 * @brief Close @p rt (NULL is fine). Objects built on a runtime (its event
 * system, policies) hold a reference to it, so they and the runtime may be
 * closed in any order: the compile thread stops and everything is freed
 * when the last of them is closed; until then they keep working. After
 * this call the caller must not use @p rt itself, and once everything is
 * closed no thread may be inside or later call one of its handlers.
 */
LIBSPEC_API void spec_runtime__close(struct spec_runtime *rt);

/* ---- policies --------------------------------------------------------- */

/*
 * Live system metric a policy maximizes (e.g. requests/s over the last
 * dwell period); called from the policy's thread.
 */
typedef double (*spec_metric_fn)(void *ctx);

#ifdef __cplusplus
}
#endif

#endif /* LIBSPEC_LIBSPEC_H */
