// SPDX-License-Identifier: GPL-2.0
/*
 * Compiled variants: the cache (keyed by canonical configuration and
 * pipeline, least recently used evicted first, never the generic or the
 * current one), installation into the handler slots, and reclamation once
 * no thread can be running an evicted variant.
 */
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "clock.h"
#include "log.h"
#include "tier.h"
#include "variant.h"

struct variant *variant_find(struct spec_runtime *rt, const char *key)
{
	struct variant *v;

	for (v = rt->cache; v; v = v->next) {
		if (!strcmp(v->key, key))
			return v;
	}
	return NULL;
}

void variant_entry_update(struct spec_runtime *rt, size_t i)
{
	void *fn = atomic_load_explicit(&rt->slots[i].fn, memory_order_relaxed);
	void *stub = atomic_load_explicit(&rt->slots[i].stub, memory_order_relaxed);
	bool generic = rt->generic && fn == (void *)(uintptr_t)rt->generic->addrs[i];

	if (stub)
		atomic_store_explicit(&rt->slots[i].entry, generic ? fn : stub,
				      memory_order_release);
}

void variant_install(struct spec_runtime *rt, struct variant *v)
{
	size_t i;

	v->last_used = ++rt->tick;
	for (i = 0; i < rt->nr_handlers; i++) {
		void *fn = tier_route(rt, i, (void *)(uintptr_t)v->addrs[i]);

		atomic_store_explicit(&rt->slots[i].fn, fn, memory_order_release);
		variant_entry_update(rt, i);
	}
	rt->current = v;
	rt->stats.swaps++;
}

void variant_add(struct spec_runtime *rt, struct variant *v)
{
	v->last_used = ++rt->tick;
	v->next = rt->cache;
	rt->cache = v;
	rt->nr_cached++;
	rt->stats.live_variants++;
}

void variant_evict(struct spec_runtime *rt)
{
	while (rt->nr_cached > rt->max_variants) {
		struct variant **pp, **lru = NULL;

		for (pp = &rt->cache; *pp; pp = &(*pp)->next) {
			if (*pp == rt->current || *pp == rt->generic)
				continue;
			if (!lru || (*pp)->last_used < (*lru)->last_used)
				lru = pp;
		}
		if (!lru)
			return;
		variant_retire(rt, *lru);
		rt->stats.evictions++;
	}
}

void variant_retire(struct spec_runtime *rt, struct variant *v)
{
	struct variant **pp;

	for (pp = &rt->cache; *pp && *pp != v; pp = &(*pp)->next)
		;
	if (!*pp)
		return;
	*pp = v->next;
	rt->nr_cached--;
	/* Threads may still be inside v: free after they leave. */
	v->retired_at = epoch_retire(&rt->dom);
	v->next = rt->retired;
	rt->retired = v;
}

void variant_free(struct spec_runtime *rt, struct variant *v)
{
	if (!v)
		return;
	if (v->code)
		jit_free_code(rt->jit, v->code);
	free(v->addrs);
	free(v->deps);
	free(v->key);
	free(v->text);
	free(v);
}

void variant_reclaim(struct spec_runtime *rt)
{
	struct variant **pp, *dead = NULL, *v;
	uint64_t oldest;

	pthread_mutex_lock(&rt->lock);
	if (!rt->retired) {
		pthread_mutex_unlock(&rt->lock);
		return;
	}
	oldest = epoch_oldest(&rt->dom);
	for (pp = &rt->retired; *pp;) {
		v = *pp;
		if (v->retired_at < oldest) {
			*pp = v->next;
			v->next = dead;
			dead = v;
			rt->stats.freed++;
			rt->stats.live_variants--;
		} else {
			pp = &v->next;
		}
	}
	/* Freeing code needs the JIT: not while holding the bookkeeping lock,
	 * or everything that needs it would wait for a whole compile.
	 */
	pthread_mutex_unlock(&rt->lock);
	if (!dead)
		return;
	pthread_mutex_lock(&rt->jit_lock);
	while (dead) {
		v = dead;
		dead = v->next;
		variant_free(rt, v);
	}
	pthread_mutex_unlock(&rt->jit_lock);
}

static void variant_count_cache(struct spec_runtime_stats *st, const struct jit_phases *ph)
{
	st->disk_rejected += ph->cache_rejected;
	switch (ph->cache) {
	case JIT_CACHE_HIT:
		st->disk_hits++;
		st->last_disk_load_ns = ph->codegen_ns;
		break;
	case JIT_CACHE_STORED:
		st->disk_stores++;
		break;
	case JIT_CACHE_UNSTORED:
		st->disk_store_failures++;
		break;
	case JIT_CACHE_BYPASS:
		st->disk_bypassed++;
		break;
	case JIT_CACHE_OFF:
		break;
	}
}

int variant_build(struct spec_runtime *rt, const struct jit_setting *settings, const char *pipeline,
		  bool fast_codegen, bool lock_stats, struct variant **out, char *err, size_t errsz)
{
	struct variant *v = calloc(1, sizeof(*v));
	struct jit_variant_req req = {
		.pipeline = pipeline, .settings = settings, .fast_codegen = fast_codegen};
	struct jit_phases ph = {0};
	uint64_t t0, dt;
	int ret;

	if (!v)
		return -ENOMEM;
	v->addrs = calloc(rt->nr_handlers ? rt->nr_handlers : 1, sizeof(*v->addrs));
	if (!v->addrs) {
		free(v);
		return -ENOMEM;
	}
	pthread_mutex_lock(&rt->jit_lock);
	v->id = req.id = settings ? ++rt->next_id : 0;
	t0 = clock_mono_ns();
	ret = jit_build_variant(rt->jit, &req, &v->code, v->addrs, &ph, err, errsz);
	dt = clock_mono_ns() - t0;
	pthread_mutex_unlock(&rt->jit_lock);

	if (lock_stats)
		pthread_mutex_lock(&rt->lock);
	rt->stats.compiles++;
	rt->stats.last_compile_ns = dt;
	rt->stats.total_compile_ns += dt;
	rt->stats.last_specialize_ns = ph.specialize_ns;
	rt->stats.last_optimize_ns = ph.optimize_ns;
	rt->stats.last_codegen_ns = ph.codegen_ns;
	if (ret)
		rt->stats.compile_failures++;
	else
		variant_count_cache(&rt->stats, &ph);
	if (lock_stats)
		pthread_mutex_unlock(&rt->lock);
	if (ret) {
		free(v->addrs);
		free(v);
		return ret;
	}
	*out = v;
	return 0;
}
