/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The runtime object, shared by the runtime's parts: runtime.c (lifetime,
 * settings), compiler.c, variant.c, tier.c, validate.c, runtime_ref.c and
 * runtime_error.c. The parts include this, not runtime.h, so runtime.c can
 * include theirs; code built on the runtime includes runtime.h.
 */
#ifndef LIBSPEC_RUNTIME_STATE_H
#define LIBSPEC_RUNTIME_STATE_H

#include <pthread.h>
#include <stdatomic.h>

#include "config.h"
#include "epoch.h"
#include "jit/jit.h"
#include "log.h"
#include "points.h"

#define RT_MSG_MAX 1024

struct handler_slot {
	void *_Atomic fn;   /* current variant's function; the stub loads it */
	void *_Atomic stub; /* stable entry point, built on first request */
	/* What spec_runtime__handler_entry() callers call: the generic
	 * variant's function while installed (never freed, so no epoch),
	 * else the stub; NULL until the stub exists.
	 */
	void *_Atomic entry;
};

struct variant {
	unsigned int id;
	char *key;  /* canonical config + "|" + pipeline: the cache key */
	char *text; /* canonical config only */
	struct jit_code *code;
	uint64_t *addrs; /* [nr_handlers] */
	bool *deps;	 /* [nr points]: compiled from that point's data */
	uint64_t last_used;
	uint64_t retired_at;
	struct variant *next;
};

struct job {
	struct spec_config *cfg;
	char *pipeline;
	char *first;	 /* cheap pipeline installed before @pipeline, or NULL */
	bool first_fast; /* ... with LLVM's -O0 codegen */
	bool fast;	 /* @pipeline with LLVM's -O0 codegen (forced) */
	bool prepare;	 /* into the cache only, not installed */
	spec_done_fn done;
	void *done_ctx;
	bool sync, finished;
	int result;
	struct job *next;
};

struct spec_runtime {
	struct jit *jit;
	struct point_table pts;
	struct epoch_domain dom;
	struct handler_slot *slots;
	size_t nr_handlers;

	/*
	 * Lock order: load_lock, jit_lock, lock, err_lock. No thread takes
	 * jit_lock while holding lock, so lock is only ever held for
	 * bookkeeping, never across a compile or a wait for one. A service's
	 * hot and control paths take neither once the runtime is loaded and a
	 * handler's stub exists: loaded, slots[].stub and slots[].entry are
	 * published with release stores and read without a lock, and bind,
	 * unbind and raise (events/) take only the event system's locks and
	 * err_lock. An event system's lock is never held while taking these.
	 */
	pthread_mutex_t load_lock; /* loading, and define_symbol() before it */
	pthread_mutex_t lock;	   /* everything below */
	pthread_mutex_t jit_lock;  /* every jit_*() call */
	pthread_cond_t cond;	   /* queue changed, job finished */
	pthread_t thread;
	bool thread_started, stop, busy;
	_Atomic bool loaded; /* load_err is set before it (release) */
	int load_err;
	struct job *qhead, *qtail;

	struct variant *cache; /* compiled variants, generic included */
	size_t nr_cached, max_variants;
	struct variant *retired; /* waiting for readers to leave */
	struct variant *generic, *current;
	unsigned int next_id;
	uint64_t tick;
	char *pipeline;
	char *first_pipeline; /* tiered compiles, or NULL */
	bool first_fast_codegen;
	struct tier *tier; /* measured tiers, or NULL */

	/* Where its messages go, and those of what is built on it unless
	 * their opts name another callback.
	 */
	struct libspec_log log;
	/* A leaf lock, held only to copy these: a handler may record an error
	 * without waiting for a compile's bookkeeping under lock, and no thread
	 * holds it when it enters a handler.
	 */
	pthread_mutex_t err_lock;
	int last_err;		   /* under err_lock */
	char last_msg[RT_MSG_MAX]; /* under err_lock */
	struct spec_runtime_stats stats;

	/* Called once, without locks, by the thread that loaded the runtime
	 * (the event system builds its handlers' stubs there, so binds never
	 * wait for the JIT lock).
	 */
	void (*load_hook)(void *ctx);
	void *load_hook_ctx;
	/* References beyond the opener's (runtime_ref.h); 0 when calloc'd. */
	_Atomic long extra_refs;
	/* The opener's spec_runtime__close() came: a second one is refused. */
	_Atomic bool opener_closed;
};

#endif /* LIBSPEC_RUNTIME_STATE_H */
