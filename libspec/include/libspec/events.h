/* SPDX-License-Identifier: GPL-2.0 */
/*
 * libspec events: named events, handlers in the runtime's IR bound to them,
 * synchronous, asynchronous and delayed raises, a sampled event graph, and
 * JIT-merged handlers (Profile-Directed Optimization of Event-Based
 * Programs, done online).
 *
 * Two sides. The service (fixed code) creates an event system on a runtime
 * before loading it, declares events by name, binds handlers and raises
 * events through handles. Handler code (compiled by spec-cc into the
 * runtime's IR) has the type spec_ev_handler_fn and raises further events by
 * name with spec_raise()/spec_raise_async()/spec_raise_delayed().
 *
 * Conventions as libspec.h: opaque objects, 0 or -errno (errno set), NULL
 * and errno, *_opts with sz declared by LIBSPEC_OPTS().
 *
 * Threads: every function may be called from any thread, concurrently,
 * except spec_events__free() (no other call may run or follow). Raises take
 * no lock and allocate nothing (synchronous ones); asynchronous and delayed
 * raises take the queue's lock and allocate one entry. Bind and unbind
 * never wait for a compile: handler types are checked when the system is
 * created, every handler's stub is built when the runtime loads, and
 * merged code is freed by builds and the optimizer, not by rebindings.
 */
#ifndef LIBSPEC_EVENTS_H
#define LIBSPEC_EVENTS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "libspec.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Arguments per raise and per binding: int64 values, missing ones are 0. */
#define SPEC_EV_MAX_ARGS 4

/*
 * What a handler receives as its first argument: sized, fields only ever
 * appended (@sz says how many the library filled). Handlers read @user,
 * @event and @depth, write nothing, and pass the context on to spec_raise();
 * @evs and @handler are the library's. Merged code reuses a raiser's
 * context for the events it inlines (saving and restoring these fields),
 * so a handler must not keep the pointer past its return.
 */
struct spec_ev_ctx {
	struct spec_events *evs;
	void *user;	  /* spec_events_opts.user */
	uint32_t event;	  /* index of the event being dispatched */
	uint32_t depth;	  /* synchronous nesting depth */
	uint32_t handler; /* the running handler (for the graph) */
	uint32_t sz;	  /* sizeof(struct spec_ev_ctx) of the library */
};

/*
 * A handler: @bind holds the binding's arguments, @args the raise's
 * (SPEC_EV_MAX_ARGS each). It runs to completion; it may raise events.
 */
typedef void (*spec_ev_handler_fn)(struct spec_ev_ctx *ctx, const int64_t *bind,
				   const int64_t *args);

/* ---- handler side (code compiled into the runtime's IR) ----------------- */

/* What the macros below call; resolved by the runtime (and exported). */
LIBSPEC_API void __spec_ev_raise(struct spec_ev_ctx *ctx, const char *event, const int64_t *args);
LIBSPEC_API void __spec_ev_raise_async(struct spec_ev_ctx *ctx, const char *event,
				       const int64_t *args);
LIBSPEC_API void __spec_ev_raise_delayed(struct spec_ev_ctx *ctx, const char *event,
					 uint64_t delay_ns, const int64_t *args);

/*
 * Compile-time checks of a raise's arguments (C; C++ has templates below):
 * at most SPEC_EV_MAX_ARGS, each of an integer type. A floating value
 * would be truncated and a struct or pointer is no event argument, so both
 * are refused with a message saying what to do instead. The arguments are
 * only looked at (sizeof, _Generic), never evaluated twice.
 *
 * ISO C11 (-std=c11 -pedantic-errors): no ", ##__VA_ARGS__" and no empty
 * "..." (spec_raise(ctx, "A") passes its event as the variadic part), no
 * empty initializer (the arguments are followed by a 0).
 */
#ifndef __cplusplus
#define __SPEC_EV_PICK(_1, _2, _3, _4, _5, _6, _7, _8, _9, _10, _11, _12, _13, _14, _15, _16, _17, \
		       n, ...)                                                                     \
	n
/* Number of arguments after the first (0..16); at least the first is given. */
#define __SPEC_EV_COUNT(...) \
	__SPEC_EV_PICK(__VA_ARGS__, 16, 15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0, 0)
/* The first argument; the ones after it (called with a trailing empty one). */
#define __SPEC_EV_FIRST(first, ...) first
#define __SPEC_EV_REST(first, ...) __VA_ARGS__
/*
 * gcc gives a bit-field a type of its own ("unsigned int:3") that no
 * association names: the default asks the type's class, which is integer
 * for those (and for any wider integer, refused by name first: it would
 * be truncated; __extension__ keeps -pedantic quiet about its name).
 */
#ifdef __SIZEOF_INT128__
#define __SPEC_EV_NOT_INT128 __int128 : 0, unsigned __int128 : 0,
#else
#define __SPEC_EV_NOT_INT128
#endif
#define __SPEC_EV_INT_CLASS(x)                             \
	(__builtin_classify_type(x) == 1 /* integer */ ||  \
	 __builtin_classify_type(x) == 3 /* enumeral */ || \
	 __builtin_classify_type(x) == 4 /* boolean */)
#define __SPEC_EV_IS_INT(x)                                                                        \
	__extension__ _Generic((x), _Bool : 1, char : 1, signed char : 1, unsigned char : 1,       \
			       short : 1, unsigned short : 1, int : 1, unsigned int : 1, long : 1, \
			       unsigned long : 1, long long : 1, unsigned long long : 1,           \
			       __SPEC_EV_NOT_INT128 default                                        \
			       : __SPEC_EV_INT_CLASS(x))
#define __SPEC_EV_INT_MSG(what, i)                                                          \
	what ": argument " #i " is not an integer: event arguments are int64_t; convert a " \
	     "floating value explicitly ((int64_t)x, or its bits with memcpy) and pass a "  \
	     "struct's fields or an index to it, not the struct or a pointer"
#define __SPEC_EV_CHECK_TYPES(what, _z, a1, a2, a3, a4, ...)              \
	_Static_assert(__SPEC_EV_IS_INT(a1), __SPEC_EV_INT_MSG(what, 1)); \
	_Static_assert(__SPEC_EV_IS_INT(a2), __SPEC_EV_INT_MSG(what, 2)); \
	_Static_assert(__SPEC_EV_IS_INT(a3), __SPEC_EV_INT_MSG(what, 3)); \
	_Static_assert(__SPEC_EV_IS_INT(a4), __SPEC_EV_INT_MSG(what, 4))
/* A void expression that fails to compile on a wrong argument list: the
 * arguments after the first (an event or a delay, not checked here).
 */
#define __SPEC_EV_CHECK(what, ...)                                                               \
	((void)sizeof(struct {                                                                   \
		_Static_assert(__SPEC_EV_COUNT(__VA_ARGS__) <= SPEC_EV_MAX_ARGS,                 \
			       what ": more than SPEC_EV_MAX_ARGS (4) arguments: pass at most "  \
				    "four (put the rest in a table the handler reads, or raise " \
				    "twice)");                                                   \
		__SPEC_EV_CHECK_TYPES(what, __VA_ARGS__, 0, 0, 0, 0, 0);                         \
		char __spec_ev_check;                                                            \
	}))
/*
 * Every argument after the first, then a 0 (no empty initializer when there
 * is none): an argument past the array's end is diagnosed ("excess
 * elements"), also beyond the 16 that __SPEC_EV_COUNT counts, where its
 * pick is an argument, not a count.
 */
#define __SPEC_EV_ARGS(...) ((const int64_t[SPEC_EV_MAX_ARGS + 1]){__SPEC_EV_REST(__VA_ARGS__, ) 0})

/* Raise @event (a string literal) with up to SPEC_EV_MAX_ARGS arguments:
 *   spec_raise(ctx, event, ...)
 */
#define spec_raise(ctx, ...)                         \
	(__SPEC_EV_CHECK("spec_raise", __VA_ARGS__), \
	 __spec_ev_raise((ctx), (__SPEC_EV_FIRST(__VA_ARGS__, 0)), __SPEC_EV_ARGS(__VA_ARGS__)))
/* spec_raise_async(ctx, event, ...) */
#define spec_raise_async(ctx, ...)                                       \
	(__SPEC_EV_CHECK("spec_raise_async", __VA_ARGS__),               \
	 __spec_ev_raise_async((ctx), (__SPEC_EV_FIRST(__VA_ARGS__, 0)), \
			       __SPEC_EV_ARGS(__VA_ARGS__)))
/* spec_raise_delayed(ctx, event, delay_ns, ...) */
#define spec_raise_delayed(ctx, event, ...)                                         \
	(__SPEC_EV_CHECK("spec_raise_delayed", __VA_ARGS__),                        \
	 __spec_ev_raise_delayed((ctx), (event), (__SPEC_EV_FIRST(__VA_ARGS__, 0)), \
				 __SPEC_EV_ARGS(__VA_ARGS__)))
#endif /* !__cplusplus */

/* ---- service side ------------------------------------------------------- */

struct spec_events;
struct spec_event;
struct spec_ev_graph;

struct spec_events_opts {
	size_t sz; /* sizeof(struct spec_events_opts) */
	/* handed to every handler as ctx->user */
	void *user;
	/* most events the system can hold; 0: 64 (at most 1024) */
	uint32_t max_events;
	/* record one raise in every N into the graph (per thread); 0: 64,
	 * 1: every raise, UINT32_MAX: (almost) never
	 */
	uint32_t sample_every;
	/* start a thread that dispatches asynchronous and delayed raises;
	 * otherwise the service calls spec_events__poll() from its loop
	 */
	bool dispatch_thread;
	/* start the optimizer thread: the policy below merges hot events in
	 * the background and rebuilds after rebindings
	 */
	bool optimize;
	/* policy: an event is hot when it has at least this share (0..1] of
	 * the sampled raises; 0: 0.05
	 */
	double hot_share;
	/* policy period in ms; 0: 50 */
	uint32_t period_ms;
	/* optional live metric (higher is better): a merge set that lowered
	 * it by more than 5% is dropped for one period, then retried
	 */
	spec_metric_fn metric;
	void *metric_ctx;
	/* Message callback; NULL: the runtime's (spec_runtime_opts.print) */
	libspec_print_fn_t print;
	void *print_ctx; /* passed to print */
	size_t : 0;
};
#define spec_events_opts__last_field print_ctx

/**
 * @brief Create the event system of @p rt. Must precede spec_runtime__load()
 * (the handler-side raise functions are defined as symbols of the IR).
 * @return events, or NULL and errno (EBUSY: runtime loaded, EINVAL)
 */
LIBSPEC_API struct spec_events *spec_events__new(struct spec_runtime *rt,
						 const struct spec_events_opts *opts);

/**
 * @brief Stop the threads and free everything (NULL is fine). The event
 * system holds a reference to its runtime: either may be closed first
 * (spec_runtime__close()); events, bindings and graphs of @p evs must not
 * be used after this call.
 */
LIBSPEC_API void spec_events__free(struct spec_events *evs);

/**
 * @brief Declare the event called @p name: create it, or return it when it
 * exists already. The service declares every event it binds or raises
 * (handlers' raises by name find only declared events).
 * @return event (valid until spec_events__free()), or NULL and errno
 *         (ENOSPC: max_events reached, EINVAL: empty or unprintable name)
 */
LIBSPEC_API struct spec_event *spec_events__declare(struct spec_events *evs, const char *name);

/**
 * @brief The declared event called @p name; never creates one, so a
 * misspelled name fails here, named in a warning, and not later as a raise
 * that runs nothing.
 * @return event, or NULL and errno (ENOENT: not declared, EINVAL)
 */
LIBSPEC_API struct spec_event *spec_events__event(struct spec_events *evs, const char *name);

/** @brief As spec_events__event() without the warning (to probe a name).
 * @return event, or NULL and errno = ENOENT
 */
LIBSPEC_API struct spec_event *spec_events__find(struct spec_events *evs, const char *name);

/** @brief Name of @p ev. @return name */
LIBSPEC_API const char *spec_event__name(const struct spec_event *ev);

struct spec_bind_opts {
	size_t sz; /* sizeof(struct spec_bind_opts) */
	/* handlers run by ascending order, equal orders by binding time */
	int order;
	/* bind-time arguments (constants in merged code) */
	int64_t args[SPEC_EV_MAX_ARGS];
	size_t : 0;
};
#define spec_bind_opts__last_field args

/**
 * @brief Bind handler @p handler (a function of the IR with the type
 * spec_ev_handler_fn) to @p ev. Raises that start later see it.
 * @return binding id (> 0), or -ENOENT (no such handler), -EINVAL (wrong
 *         type, named in the message), -ENOMEM
 */
LIBSPEC_API int64_t spec_event__bind(struct spec_event *ev, const char *handler,
				     const struct spec_bind_opts *opts);

/** @brief Remove binding @p id of @p ev. @return 0, or -ENOENT */
LIBSPEC_API int spec_event__unbind(struct spec_event *ev, int64_t id);

/** @brief Number of handlers bound to @p ev now. @return count */
LIBSPEC_API size_t spec_event__nr_bindings(const struct spec_event *ev);

/**
 * @brief Raise @p ev synchronously: every bound handler has run when this
 * returns. @p args may be NULL; missing arguments are 0.
 * @return 0, or -EINVAL (@p nr_args too large)
 */
LIBSPEC_API int spec_event__raise(struct spec_event *ev, const int64_t *args, size_t nr_args);

/**
 * @brief Raise @p ev synchronously with its four arguments in registers:
 * no record is built on the way into merged code (only generic dispatch
 * builds the one its handlers read). spec_event__raise_args() pads the
 * arguments given with zeros.
 * @return 0, or -EINVAL (@p ev NULL)
 */
LIBSPEC_API int spec_event__raise4(struct spec_event *ev, int64_t a0, int64_t a1, int64_t a2,
				   int64_t a3);

#ifndef __cplusplus
/* The typed path: a wrong argument is a compile error, not a conversion. */
#define spec_event__raise4(ev, a0, a1, a2, a3)                      \
	(__SPEC_EV_CHECK("spec_event__raise4", ev, a0, a1, a2, a3), \
	 (spec_event__raise4)((ev), (a0), (a1), (a2), (a3)))

/* Raise @ev with one to four integer arguments (the rest 0); more, or one
 * that is no integer, fails to compile with a message saying what to do.
 */
#define __SPEC_EV_ARG4(a0, a1, a2, a3, ...) (a0), (a1), (a2), (a3)
#define spec_event__raise_args(ev, ...)                              \
	(__SPEC_EV_CHECK("spec_event__raise_args", ev, __VA_ARGS__), \
	 (spec_event__raise4)((ev), __SPEC_EV_ARG4(__VA_ARGS__, 0, 0, 0, 0)))
#endif /* !__cplusplus */

/** @brief Queue @p ev for the dispatcher. @return 0, -EINVAL, -ENOMEM */
LIBSPEC_API int spec_event__raise_async(struct spec_event *ev, const int64_t *args, size_t nr_args);

/* The longest delay of a delayed raise (292 years): a longer one, e.g. a
 * negative int64_t converted, is refused rather than wrapped into "now".
 */
#define SPEC_EV_MAX_DELAY_NS ((uint64_t)INT64_MAX)

/**
 * @brief Queue @p ev for the dispatcher after @p delay_ns.
 * @return timer id (> 0) for spec_events__cancel(), or -EINVAL, -ENOMEM,
 *         -ERANGE (@p delay_ns > SPEC_EV_MAX_DELAY_NS; a handler's
 *         spec_raise_delayed() drops such a raise with a warning)
 */
LIBSPEC_API int64_t spec_event__raise_delayed(struct spec_event *ev, uint64_t delay_ns,
					      const int64_t *args, size_t nr_args);

/**
 * @brief Cancel a delayed raise that has not been dispatched yet.
 * @return 0, or -ENOENT (unknown, already dispatched or cancelled)
 */
LIBSPEC_API int spec_events__cancel(struct spec_events *evs, int64_t timer);

/**
 * @brief Dispatch queued raises and due delayed raises, at most @p max
 * (0: all that are ready now), in the calling thread.
 * @return number dispatched, or -errno
 */
LIBSPEC_API int spec_events__poll(struct spec_events *evs, size_t max);

/** @brief Wait until no raise is queued nor being dispatched and no timer is
 * due within @p timeout_ns (with dispatch_thread; UINT64_MAX: no timeout).
 * @return 0, -ETIMEDOUT, -EDEADLK (called by a handler the dispatch thread
 *         runs, which it would wait for)
 */
LIBSPEC_API int spec_events__drain(struct spec_events *evs, uint64_t timeout_ns);

/* ---- event graph --------------------------------------------------------- */

enum spec_ev_edge_kind {
	SPEC_EV_SYNC = 0,
	SPEC_EV_ASYNC = 1, /* asynchronous and delayed */
};

/* The raiser of a raise made by the service (not from a handler). */
#define SPEC_EV_ROOT UINT32_MAX

struct spec_ev_node {
	const char *name;
	uint64_t count; /* sampled raises */
};

struct spec_ev_edge {
	uint32_t from; /* node index, or SPEC_EV_ROOT */
	uint32_t to;
	enum spec_ev_edge_kind kind;
	uint64_t count; /* sampled raises of @to by a handler of @from */
};

/**
 * @brief Snapshot the sampled event graph (nodes are all events, in
 * creation order; edges with a count > 0).
 * @return graph to free with spec_ev_graph__free(), or NULL and errno
 */
LIBSPEC_API struct spec_ev_graph *spec_events__graph(struct spec_events *evs);

/** @brief Forget every sample. @return 0 */
LIBSPEC_API int spec_events__reset_graph(struct spec_events *evs);

LIBSPEC_API size_t spec_ev_graph__nr_nodes(const struct spec_ev_graph *g);
LIBSPEC_API size_t spec_ev_graph__nr_edges(const struct spec_ev_graph *g);
/** @brief Node @p i. @return node, or NULL and errno = ERANGE */
LIBSPEC_API const struct spec_ev_node *spec_ev_graph__node(const struct spec_ev_graph *g, size_t i);
/** @brief Edge @p i (by count descending). @return edge, or NULL and errno */
LIBSPEC_API const struct spec_ev_edge *spec_ev_graph__edge(const struct spec_ev_graph *g, size_t i);

/* Raises of an event by one handler (whatever event it was bound to). */
struct spec_ev_handler_edge {
	const char *handler; /* function name in the IR */
	uint32_t to;
	enum spec_ev_edge_kind kind;
	uint64_t count;
};

LIBSPEC_API size_t spec_ev_graph__nr_handler_edges(const struct spec_ev_graph *g);
/** @brief Handler edge @p i (by count descending). @return edge, or NULL and errno */
LIBSPEC_API const struct spec_ev_handler_edge *
spec_ev_graph__handler_edge(const struct spec_ev_graph *g, size_t i);

/**
 * @brief Reduce as the paper's Fig. 6: drop edges below @p threshold times
 * the heaviest edge, then nodes left without edges (and below the
 * threshold of the heaviest node); handler edges likewise against the
 * heaviest handler edge. 0 keeps everything.
 * @return 0, -EINVAL (threshold outside [0, 1])
 */
LIBSPEC_API int spec_ev_graph__reduce(struct spec_ev_graph *g, double threshold);

/**
 * @brief Write the graph as Graphviz DOT (edge labels are counts, async
 * edges dashed) or JSON ({"nodes":[...],"edges":[...],"handlers":[...]},
 * the last the handler edges).
 * @return length of the full text (like snprintf), or -errno
 */
LIBSPEC_API int spec_ev_graph__dot(const struct spec_ev_graph *g, char *buf, size_t size);
LIBSPEC_API int spec_ev_graph__json(const struct spec_ev_graph *g, char *buf, size_t size);

LIBSPEC_API void spec_ev_graph__free(struct spec_ev_graph *g);

/* ---- merged handlers ----------------------------------------------------- */

struct spec_merge_opts {
	size_t sz; /* sizeof(struct spec_merge_opts) */
	/* events to merge; NULL: the policy's hot events from the graph
	 * (every event with bindings when nothing was sampled yet)
	 */
	struct spec_event *const *events;
	size_t nr_events;
	/* inline synchronous raises of merged events into their raisers */
	bool no_subsume;
	size_t : 0;
};
#define spec_merge_opts__last_field no_subsume

/**
 * @brief Build merged code for a set of events now (in the caller) and
 * install it. Raises of those events then run it while their bindings stay
 * as they were at build time; any rebinding sends them back to the generic
 * path until a rebuild (the optimizer does that in the background).
 * @return number of events merged, or -errno (the compile error in the
 *         message and spec_runtime__last_error())
 */
LIBSPEC_API int spec_events__merge(struct spec_events *evs, const struct spec_merge_opts *opts);

/** @brief Drop every merged event (back to generic dispatch). @return 0 */
LIBSPEC_API int spec_events__unmerge(struct spec_events *evs);

/** @brief True when the next raise of @p ev runs merged code. */
LIBSPEC_API bool spec_event__is_merged(const struct spec_event *ev);

struct spec_events_stats {
	uint64_t guard_fails;	 /* raises that found merged code stale */
	uint64_t builds;	 /* merged-code builds */
	uint64_t build_failures; /* builds that failed */
	uint64_t stale_builds;	 /* builds dropped: bindings changed meanwhile */
	uint64_t last_build_ns;	 /* wall time of the last build */
	uint64_t merged_events;	 /* events merged by the last build */
	uint64_t subsumed;	 /* raise sites inlined by the last build */
	uint64_t subsumed_calls; /* sites in a raise cycle: guarded direct calls */
	uint64_t unknown_raises; /* raises by handlers of names no event has */
};

/**
 * @brief Copy the counters.
 * @param sz sizeof(*stats) as the caller knows it
 * @return 0 or -EINVAL
 */
LIBSPEC_API int spec_events__stats(struct spec_events *evs, struct spec_events_stats *stats,
				   size_t sz);

#ifdef __cplusplus
}

/*
 * C++: the same checks as templates (no compound literals, no statement
 * expressions). An integer or enum argument is converted to int64_t; any
 * other type, or a fifth argument, fails in static_assert with the C
 * message's advice.
 */
#include <type_traits>

/* Every type an integer or an enum (C++11: no fold expressions). */
template <typename... A> struct __spec_ev_ints : std::true_type {
};
template <typename T, typename... A>
struct __spec_ev_ints<T, A...>
    : std::integral_constant<bool, (std::is_integral<T>::value || std::is_enum<T>::value) &&
					   __spec_ev_ints<A...>::value> {
};

#define __SPEC_EV_CXX_CHECK(what)                                                                  \
	static_assert(sizeof...(A) <= SPEC_EV_MAX_ARGS,                                            \
		      what ": more than SPEC_EV_MAX_ARGS (4) arguments: pass at most four "        \
			   "(put the rest in a table the handler reads, or raise twice)");         \
	static_assert(__spec_ev_ints<A...>::value,                                                 \
		      what ": an argument is not an integer: event arguments are int64_t; "        \
			   "convert a floating value explicitly ((int64_t)x, or its bits with "    \
			   "memcpy) and pass a struct's fields or an index to it, not the struct " \
			   "or a pointer")

template <typename... A>
static inline void spec_raise(struct spec_ev_ctx *ctx, const char *event, A... a)
{
	__SPEC_EV_CXX_CHECK("spec_raise");
	const int64_t args[SPEC_EV_MAX_ARGS] = {static_cast<int64_t>(a)...};
	__spec_ev_raise(ctx, event, args);
}

template <typename... A>
static inline void spec_raise_async(struct spec_ev_ctx *ctx, const char *event, A... a)
{
	__SPEC_EV_CXX_CHECK("spec_raise_async");
	const int64_t args[SPEC_EV_MAX_ARGS] = {static_cast<int64_t>(a)...};
	__spec_ev_raise_async(ctx, event, args);
}

template <typename... A>
static inline void spec_raise_delayed(struct spec_ev_ctx *ctx, const char *event, uint64_t delay_ns,
				      A... a)
{
	__SPEC_EV_CXX_CHECK("spec_raise_delayed");
	const int64_t args[SPEC_EV_MAX_ARGS] = {static_cast<int64_t>(a)...};
	__spec_ev_raise_delayed(ctx, event, delay_ns, args);
}

/* Chosen over the C function for any argument that is not exactly int64_t. */
template <typename... A> static inline int spec_event__raise4(struct spec_event *ev, A... a)
{
	__SPEC_EV_CXX_CHECK("spec_event__raise4");
	static_assert(sizeof...(A) == SPEC_EV_MAX_ARGS, "spec_event__raise4: takes four arguments");
	return ::spec_event__raise4(ev, static_cast<int64_t>(a)...);
}

template <typename... A> static inline int spec_event__raise_args(struct spec_event *ev, A... a)
{
	__SPEC_EV_CXX_CHECK("spec_event__raise_args");
	static_assert(sizeof...(A) >= 1, "spec_event__raise_args: at least one argument");
	const int64_t args[SPEC_EV_MAX_ARGS] = {static_cast<int64_t>(a)...};
	return ::spec_event__raise4(ev, args[0], args[1], args[2], args[3]);
}
#endif /* __cplusplus */

#endif /* LIBSPEC_EVENTS_H */
