// SPDX-License-Identifier: GPL-2.0
/* Runtime lifetime: open, symbols, load, handlers, settings, close. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "code_cache.h"
#include "log.h"
#include "compiler.h"
#include "jit/jit_event.h"
#include "runtime.h"
#include "variant.h"
#include "sampler.h"
#include "runtime_ref.h"
#include "tier.h"

#define DEFAULT_PIPELINE "default<O3>"
#define DEFAULT_FIRST_PIPELINE "default<O1>"
#define DEFAULT_MAX_VARIANTS 16

void rt_record_error(struct spec_runtime *rt, int err, const char *msg)
{
	size_t len = strnlen(msg, sizeof(rt->last_msg) - 1);

	pthread_mutex_lock(&rt->err_lock);
	rt->last_err = err;
	memcpy(rt->last_msg, msg, len);
	rt->last_msg[len] = '\0';
	pthread_mutex_unlock(&rt->err_lock);
}

int rt_set_error(struct spec_runtime *rt, int err, const char *msg)
{
	rt_record_error(rt, err, msg);
	pr_warn(&rt->log, "%s", msg);
	return err;
}

void rt_clear_error(struct spec_runtime *rt)
{
	pthread_mutex_lock(&rt->err_lock);
	rt->last_err = 0;
	rt->last_msg[0] = '\0';
	pthread_mutex_unlock(&rt->err_lock);
}

static void open_error(const struct libspec_log *log, const struct spec_runtime_opts *opts,
		       const char *msg)
{
	char *buf = OPTS_GET(opts, errbuf, NULL);
	size_t sz = OPTS_GET(opts, errbuf_sz, 0);

	pr_warn(log, "%s", msg);
	if (buf && sz)
		snprintf(buf, sz, "%s", msg);
}

static int runtime_open_cache(struct spec_runtime *rt, const struct spec_runtime_opts *opts,
			      char *msg, size_t msgsz)
{
	struct code_cache *cc;
	int ret;

	ret = code_cache_open(&cc, opts->code_cache_dir, OPTS_GET(opts, code_cache_max_bytes, 0),
			      &rt->log, msg, msgsz);
	return ret ? ret : jit_set_cache(rt->jit, cc, msg, msgsz);
}

struct spec_runtime *spec_runtime__open(const char *path, const struct spec_runtime_opts *opts)
{
	const char *env = getenv("LIBSPEC_PERF_MAP");
	char msg[RT_MSG_MAX] = "";
	struct libspec_log log = LIBSPEC_LOG_OPTS(opts);
	struct spec_runtime *rt;
	const char *pipeline;
	size_t i;
	int ret;

	if (!path || !OPTS_VALID(&log, opts, spec_runtime_opts))
		return libspec_err_ptr(-EINVAL);
	rt = calloc(1, sizeof(*rt));
	if (!rt)
		return libspec_err_ptr(-ENOMEM);
	rt->log = log;
	pthread_mutex_init(&rt->lock, NULL);
	pthread_mutex_init(&rt->err_lock, NULL);
	pthread_mutex_init(&rt->jit_lock, NULL);
	pthread_cond_init(&rt->cond, NULL);
	pipeline = OPTS_GET(opts, pipeline, NULL);
	rt->pipeline = strdup(pipeline ? pipeline : DEFAULT_PIPELINE);
	pipeline = OPTS_GET(opts, first_pipeline, NULL);
	if (!pipeline && OPTS_GET(opts, measure_tiers, false))
		pipeline = DEFAULT_FIRST_PIPELINE;
	rt->first_pipeline = pipeline ? strdup(pipeline) : NULL;
	rt->first_fast_codegen = OPTS_GET(opts, first_fast_codegen, false);
	rt->max_variants = OPTS_GET(opts, max_variants, 0);
	if (!rt->max_variants)
		rt->max_variants = DEFAULT_MAX_VARIANTS;
	ret = epoch_domain_init(&rt->dom, 0);
	if (ret || !rt->pipeline || (pipeline && !rt->first_pipeline)) {
		free(rt->pipeline);
		free(rt->first_pipeline);
		free(rt);
		return libspec_err_ptr(ret ? ret : -ENOMEM);
	}
	ret = jit_open(&rt->jit, path, &rt->pts, &rt->dom, &rt->log,
		       OPTS_GET(opts, perf_map, false) || (env && !strcmp(env, "1")), msg,
		       sizeof(msg));
	if (!ret && OPTS_GET(opts, code_cache_dir, NULL))
		ret = runtime_open_cache(rt, opts, msg, sizeof(msg));
	if (!ret) {
		rt->nr_handlers = jit_nr_handlers(rt->jit);
		rt->slots = calloc(rt->nr_handlers ? rt->nr_handlers : 1, sizeof(*rt->slots));
		if (!rt->slots || (OPTS_GET(opts, measure_tiers, false) && tier_open(rt))) {
			ret = -ENOMEM;
			snprintf(msg, sizeof(msg), "out of memory");
		}
	}
	if (ret) {
		open_error(&rt->log, opts, msg);
		spec_runtime__close(rt);
		return libspec_err_ptr(ret);
	}
	/* Known only now; no thread has a record yet. */
	rt->dom.nr_points = rt->pts.n;
	for (i = 0; i < rt->pts.n; i++)
		rt->pts.p[i]->dom = &rt->dom;
	if (!rt->nr_handlers)
		pr_warn(&rt->log, "%s: defines no function, so there is no handler to call", path);
	else if (!rt->pts.n && !jit_event_any_handler(rt->jit))
		/* Event handlers need no points: merging is their specialization. */
		pr_warn(&rt->log,
			"%s: no specialization points: compile the handlers with spec-cc from "
			"sources that use <libspec/annotate.h>; they run generic only",
			path);
	pr_debug(&rt->log, "%s: %zu handlers, %zu points", path, rt->nr_handlers, rt->pts.n);
	return rt;
}

int spec_runtime__define_symbol(struct spec_runtime *rt, const char *name, const void *addr)
{
	char msg[RT_MSG_MAX];
	int ret;

	if (!rt || !name || !*name || !addr)
		return libspec_err(-EINVAL);
	pthread_mutex_lock(&rt->lock);
	if (rt->loaded) {
		pthread_mutex_unlock(&rt->lock);
		pr_warn(&rt->log, "define_symbol(%s): runtime already loaded", name);
		return libspec_err(-EBUSY);
	}
	pthread_mutex_lock(&rt->jit_lock);
	ret = jit_define_symbol(rt->jit, name, (uint64_t)(uintptr_t)addr, msg, sizeof(msg));
	pthread_mutex_unlock(&rt->jit_lock);
	if (ret)
		rt_set_error(rt, ret, msg);
	pthread_mutex_unlock(&rt->lock);
	return libspec_err(ret);
}

int spec_runtime__load(struct spec_runtime *rt)
{
	char msg[RT_MSG_MAX] = "";
	struct variant *v = NULL;
	int ret;

	if (!rt)
		return libspec_err(-EINVAL);
	pthread_mutex_lock(&rt->lock);
	if (rt->loaded) {
		ret = rt->load_err;
		pthread_mutex_unlock(&rt->lock);
		return libspec_err(ret);
	}
	/* Holding lock across the compile keeps concurrent first calls out. */
	ret = variant_build(rt, NULL, rt->pipeline, false, false, &v, msg, sizeof(msg));
	if (!ret) {
		/* Same key as an empty configuration with this pipeline. */
		v->key = malloc(strlen(rt->pipeline) + 2);
		if (v->key)
			sprintf(v->key, "|%s", rt->pipeline);
		v->text = strdup("");
		ret = v->key && v->text ? 0 : -ENOMEM;
		if (!ret) {
			rt->generic = v;
			variant_add(rt, v);
			variant_install(rt, v);
			ret = compiler_start(rt);
		} else {
			variant_free(rt, v);
		}
		if (ret)
			snprintf(msg, sizeof(msg), "starting the compile thread: %s",
				 strerror(-ret));
	}
	if (ret) {
		char full[RT_MSG_MAX + 64];

		snprintf(full, sizeof(full), "loading the generic variant: %s", msg);
		rt_set_error(rt, ret, full);
	}
	rt->loaded = true;
	rt->load_err = ret;
	pthread_mutex_unlock(&rt->lock);
	if (!ret && rt->load_hook)
		rt->load_hook(rt->load_hook_ctx);
	return libspec_err(ret);
}

void *spec_runtime__handler(struct spec_runtime *rt, const char *name)
{
	char msg[RT_MSG_MAX];
	uint64_t addr = 0;
	int idx, ret;

	if (!rt || !name)
		return libspec_err_ptr(-EINVAL);
	ret = spec_runtime__load(rt);
	if (ret)
		return libspec_err_ptr(ret);
	idx = jit_handler_index(rt->jit, name);
	if (idx < 0) {
		snprintf(msg, sizeof(msg),
			 "unknown handler '%s': no external function of that "
			 "name is defined in the IR",
			 name);
		pthread_mutex_lock(&rt->lock);
		rt_set_error(rt, -ENOENT, msg);
		pthread_mutex_unlock(&rt->lock);
		return libspec_err_ptr(-ENOENT);
	}
	pthread_mutex_lock(&rt->lock);
	if (!rt->slots[idx].stub) {
		pthread_mutex_lock(&rt->jit_lock);
		ret = jit_build_stub(rt->jit, (size_t)idx, (void *const *)&rt->slots[idx].fn,
				     &rt->dom, &addr, msg, sizeof(msg));
		/* Without its timer a handler is only not measured. */
		if (!ret && tier_build_timer(rt, (size_t)idx, msg, sizeof(msg)))
			pr_warn(&rt->log, "handler '%s' is not measured: %s", name, msg);
		pthread_mutex_unlock(&rt->jit_lock);
		if (ret) {
			rt_set_error(rt, ret, msg);
			pthread_mutex_unlock(&rt->lock);
			return libspec_err_ptr(ret);
		}
		rt->slots[idx].stub = (void *)(uintptr_t)addr;
		variant_entry_update(rt, (size_t)idx);
	}
	pthread_mutex_unlock(&rt->lock);
	return rt->slots[idx].stub;
}

void *const *spec_runtime__handler_entry(struct spec_runtime *rt, const char *name)
{
	void *stub = spec_runtime__handler(rt, name);

	if (!stub)
		return NULL;
	/* Known, loaded and with its stub: the index exists. */
	return (void *const *)&rt->slots[jit_handler_index(rt->jit, name)].entry;
}

int spec_runtime__set_pipeline(struct spec_runtime *rt, const char *pipeline)
{
	char *p;

	if (!rt)
		return libspec_err(-EINVAL);
	p = strdup(pipeline ? pipeline : DEFAULT_PIPELINE);
	if (!p)
		return libspec_err(-ENOMEM);
	pthread_mutex_lock(&rt->lock);
	free(rt->pipeline);
	rt->pipeline = p;
	pthread_mutex_unlock(&rt->lock);
	return 0;
}

static struct spec_point *find_point(struct spec_runtime *rt, const char *label)
{
	struct spec_point *p = rt && label ? points_find(&rt->pts, label) : NULL;

	if (!p && rt && label)
		pr_warn(&rt->log, "unknown label '%s'", label);
	return p;
}

int spec_runtime__set_cleanup(struct spec_runtime *rt, const char *label, spec_cleanup_fn fn,
			      void *ctx)
{
	struct spec_point *p = find_point(rt, label);
	struct spec_cleanup *c;

	if (!p)
		return libspec_err(rt && label ? -ENOENT : -EINVAL);
	c = calloc(1, sizeof(*c));
	if (!c)
		return libspec_err(-ENOMEM);
	c->fn = fn;
	c->ctx = ctx;
	pthread_mutex_lock(&rt->lock);
	/* A failing guard may be reading the old one: keep it until close. */
	c->older = atomic_load(&p->cleanup);
	atomic_store_explicit(&p->cleanup, c, memory_order_release);
	pthread_mutex_unlock(&rt->lock);
	return 0;
}

int spec_runtime__add_custom(struct spec_runtime *rt, const char *label, spec_custom_gen_fn gen,
			     void *ctx)
{
	struct spec_point *p = find_point(rt, label);

	if (!p)
		return libspec_err(rt && label ? -ENOENT : -EINVAL);
	if (p->kind != SPEC_POINT_CUSTOM) {
		pr_warn(&rt->log, "'%s' is a %s point, not spec_custom", label,
			points_kind_name(p->kind));
		return libspec_err(-EINVAL);
	}
	pthread_mutex_lock(&rt->lock);
	p->gen = gen;
	p->gen_ctx = ctx;
	pthread_mutex_unlock(&rt->lock);
	return 0;
}

/* gen.h's spec_gen_fn; that header brings LLVM's, which only jit*.c see. */
LIBSPEC_API int spec_runtime__add_gen(struct spec_runtime *rt, const char *label,
				      int (*gen)(void *ctx, struct spec_gen *g), void *ctx);

int spec_runtime__add_gen(struct spec_runtime *rt, const char *label,
			  int (*gen)(void *ctx, struct spec_gen *g), void *ctx)
{
	struct spec_point *p = find_point(rt, label);

	if (!p)
		return libspec_err(rt && label ? -ENOENT : -EINVAL);
	if (p->kind != SPEC_POINT_GEN) {
		pr_warn(&rt->log, "'%s' is a %s point, not spec_gen", label,
			points_kind_name(p->kind));
		return libspec_err(-EINVAL);
	}
	pthread_mutex_lock(&rt->lock);
	p->emit = gen;
	p->emit_ctx = ctx;
	pthread_mutex_unlock(&rt->lock);
	return 0;
}

/* Wait until no thread can be inside a variant unlinked before the call. */
static void wait_readers(struct spec_runtime *rt)
{
	uint64_t e = epoch_retire(&rt->dom);
	struct timespec ts = {0, 50000};

	while (epoch_oldest(&rt->dom) <= e)
		nanosleep(&ts, NULL);
}

int spec_runtime__invalidate(struct spec_runtime *rt, const char *label,
			     const struct spec_invalidate_opts *opts)
{
	struct spec_point *p = find_point(rt, label);
	bool replaced = false;

	if (!p || !OPTS_VALID(&rt->log, opts, spec_invalidate_opts))
		return libspec_err(rt && label && p ? -EINVAL : p ? -EINVAL : -ENOENT);
	pthread_mutex_lock(&rt->lock);
	p->version++;
	/* A generator may be reading the data right now: let it finish (its
	 * variant is then dropped, its key being stale).
	 */
	while (rt->busy)
		pthread_cond_wait(&rt->cond, &rt->lock);
	if (!OPTS_GET(opts, keep_current, false) && rt->current && rt->current->deps &&
	    rt->current->deps[p->idx] && rt->generic) {
		variant_install(rt, rt->generic);
		replaced = true;
	}
	pthread_mutex_unlock(&rt->lock);
	if (replaced) {
		wait_readers(rt);
		/* Sampled answers came from the old data too. */
		sampler_reset(&rt->dom);
	}
	pr_debug(&rt->log, "invalidated the data of '%s'%s", label,
		 replaced ? ", generic variant installed" : "");
	return 0;
}

int spec_runtime__last_error(struct spec_runtime *rt, char *buf, size_t size)
{
	int err;

	if (!rt)
		return libspec_err(-EINVAL);
	pthread_mutex_lock(&rt->err_lock);
	err = rt->last_err;
	if (buf && size)
		snprintf(buf, size, "%s", rt->last_msg);
	pthread_mutex_unlock(&rt->err_lock);
	return err;
}

int spec_runtime__current(struct spec_runtime *rt, char *buf, size_t size)
{
	int len;

	if (!rt || (!buf && size))
		return libspec_err(-EINVAL);
	pthread_mutex_lock(&rt->lock);
	len = snprintf(buf, size, "%s", rt->current ? rt->current->text : "");
	pthread_mutex_unlock(&rt->lock);
	return len;
}

int spec_runtime__guard_failures(struct spec_runtime *rt, const char *label, uint64_t *count)
{
	struct spec_point *p = find_point(rt, label);

	if (!p || !count)
		return libspec_err(p ? -EINVAL : rt && label ? -ENOENT : -EINVAL);
	*count = atomic_load(&p->failures);
	return 0;
}

int spec_runtime__reset_counters(struct spec_runtime *rt)
{
	size_t i;

	if (!rt)
		return libspec_err(-EINVAL);
	for (i = 0; i < rt->pts.n; i++)
		atomic_store(&rt->pts.p[i]->failures, 0);
	sampler_reset(&rt->dom);
	return 0;
}

int spec_runtime__stats(struct spec_runtime *rt, struct spec_runtime_stats *stats, size_t sz)
{
	if (!rt || !stats || !sz)
		return libspec_err(-EINVAL);
	memset(stats, 0, sz);
	pthread_mutex_lock(&rt->lock);
	memcpy(stats, &rt->stats, sz < sizeof(rt->stats) ? sz : sizeof(rt->stats));
	pthread_mutex_unlock(&rt->lock);
	return 0;
}

void spec_runtime__close(struct spec_runtime *rt)
{
	struct variant *v, *next;

	if (!rt || !rt_put_last(rt))
		return;
	compiler_stop(rt);
	/* No thread is inside a handler any more (the caller's promise). */
	for (v = rt->cache; v; v = next) {
		next = v->next;
		variant_free(rt, v);
	}
	for (v = rt->retired; v; v = next) {
		next = v->next;
		variant_free(rt, v);
	}
	jit_close(rt->jit);
	points_free(&rt->pts);
	epoch_domain_fini(&rt->dom);
	pthread_cond_destroy(&rt->cond);
	pthread_mutex_destroy(&rt->jit_lock);
	pthread_mutex_destroy(&rt->lock);
	pthread_mutex_destroy(&rt->err_lock);
	tier_close(rt);
	free(rt->slots);
	free(rt->pipeline);
	free(rt->first_pipeline);
	free(rt);
}
