/* SPDX-License-Identifier: GPL-2.0 */
/* The runtime object shared by runtime.c, variant.c, compiler.c, space.c. */
#ifndef LIBSPEC_RUNTIME_H
#define LIBSPEC_RUNTIME_H

#include <pthread.h>
#include <stdatomic.h>

#include "config.h"
#include "epoch.h"
#include "jit/jit.h"
#include "log.h"
#include "points.h"

#define RT_MSG_MAX 1024

struct handler_slot {
	void *_Atomic fn; /* current variant's function; the stub loads it */
	void *stub;	  /* stable entry point, built on first request */
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

	/* Lock order: lock before jit_lock. */
	pthread_mutex_t lock;	  /* everything below */
	pthread_mutex_t jit_lock; /* every jit_*() call */
	pthread_cond_t cond;	  /* queue changed, job finished */
	pthread_t thread;
	bool thread_started, stop, busy, loaded;
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
};

/* Record an error of @rt and log it; returns @err. Takes err_lock only. */
int rt_set_error(struct spec_runtime *rt, int err, const char *msg);
/* Record it only (the caller logs it where it belongs). */
void rt_record_error(struct spec_runtime *rt, int err, const char *msg);
/* A later success: last_error() reports none. Takes err_lock only. */
void rt_clear_error(struct spec_runtime *rt);

#endif /* LIBSPEC_RUNTIME_H */
