// SPDX-License-Identifier: GPL-2.0
/*
 * Merged builds. The build itself runs without the event system's lock
 * (raises and rebindings go on meanwhile); what it was built from is a copy
 * of the bindings taken under the lock, tagged with their versions, so a
 * rebinding during the build only makes that event's guard fail.
 */
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "clock.h"
#include "events/event_merge.h"
#include "jit/jit_event.h"
#include "log.h"

/* Copy the current bindings of @set into @req (inside the epoch, or lock held). */
static int snapshot(struct spec_event *const *set, size_t n, struct jit_ev_event *out)
{
	size_t i, k;

	for (i = 0; i < n; i++) {
		struct ev_bindings *b =
			atomic_load_explicit(&set[i]->bindings, memory_order_acquire);
		struct jit_ev_binding *jb = calloc(b->n + 1, sizeof(*jb));

		if (!jb)
			return -ENOMEM;
		for (k = 0; k < b->n; k++) {
			jb[k].handler = b->b[k].handler;
			memcpy(jb[k].args, b->b[k].args, sizeof(jb[k].args));
		}
		out[i] = (struct jit_ev_event){
			.name = set[i]->name,
			.idx = set[i]->idx,
			.version = b->version,
			.version_word = (const void *)&set[i]->version,
			.event = set[i],
			.b = jb,
			.n = b->n,
		};
	}
	return 0;
}

/*
 * snapshot() without the bindings' writers' lock: inside the runtime's
 * epoch a snapshot a rebinding replaces meanwhile is not freed, as for a
 * raise, so a merge never makes a bind wait.
 */
static int copy_bindings(struct spec_events *evs, struct spec_event *const *set, size_t n,
			 struct jit_ev_event *out)
{
	_Atomic uint64_t *inside;
	int ret;

	if (!epoch_rec(&evs->rt->dom)) {
		pthread_mutex_lock(&evs->lock);
		ret = snapshot(set, n, out);
		pthread_mutex_unlock(&evs->lock);
		return ret;
	}
	inside = spec_rt_enter(&evs->rt->dom);
	ret = snapshot(set, n, out);
	atomic_store_explicit(inside, 0, memory_order_release);
	return ret;
}

static struct ev_code *code_new(size_t n)
{
	struct ev_code *c = calloc(1, sizeof(*c));

	if (!c)
		return NULL;
	c->entries = calloc(n + 1, sizeof(*c->entries));
	c->events = calloc(n + 1, sizeof(*c->events));
	c->subsumed_into = calloc(n + 1, sizeof(*c->subsumed_into));
	if (!c->entries || !c->events || !c->subsumed_into) {
		free(c->entries);
		free(c->events);
		free(c->subsumed_into);
		free(c);
		return NULL;
	}
	c->n = n;
	return c;
}

/* Swap @c in for the installed build (code_lock held); true if an event was
 * rebound while @c was being built.
 */
static bool install(struct spec_events *evs, struct ev_code *c)
{
	struct ev_code *old = evs->code;
	bool stale = false;
	size_t i;

	if (old) {
		for (i = 0; i < old->n; i++)
			atomic_store_explicit(&old->events[i]->merged, NULL, memory_order_release);
	}
	for (i = 0; c && i < c->n; i++) {
		atomic_store_explicit(&c->events[i]->merged, &c->entries[i], memory_order_release);
		if (c->entries[i].version != atomic_load(&c->events[i]->version))
			stale = true;
	}
	evs->code = c;
	if (old)
		ev_retire_code(evs, old);
	return stale;
}

static int build(struct spec_events *evs, struct jit_ev_req *req, struct ev_code *c,
		 struct jit_ev_out *out, char *msg, size_t msgsz)
{
	struct spec_runtime *rt = evs->rt;
	char *pipeline;
	size_t i;
	int ret;

	out->addrs = calloc(req->n + 1, sizeof(*out->addrs));
	out->subsumed_into = c->subsumed_into;
	if (!out->addrs)
		return -ENOMEM;
	/* Not holding rt->lock while waiting for the JIT: a bind needs it. */
	pthread_mutex_lock(&rt->lock);
	req->id = ++rt->next_id;
	pipeline = strdup(rt->pipeline);
	pthread_mutex_unlock(&rt->lock);
	if (!pipeline) {
		free(out->addrs);
		return -ENOMEM;
	}
	req->pipeline = pipeline;
	pthread_mutex_lock(&rt->jit_lock);
	ret = jit_event_build(rt->jit, req, &c->code, out, msg, msgsz);
	pthread_mutex_unlock(&rt->jit_lock);
	free(pipeline);
	for (i = 0; !ret && i < req->n; i++) {
		c->entries[i].fn = (ev_merged_fn)(uintptr_t)out->addrs[i];
		c->entries[i].version = req->events[i].version;
		if (c->subsumed_into[i] != UINT32_MAX)
			c->subsumed_into[i] = req->events[c->subsumed_into[i]].idx;
		else
			c->subsumed_into[i] = SPEC_EV_ROOT;
	}
	free(out->addrs);
	return ret;
}

int ev_build(struct spec_events *evs, struct spec_event *const *set, size_t n, bool subsume,
	     bool *stale)
{
	struct jit_ev_event *jev = calloc(n + 1, sizeof(*jev));
	struct jit_ev_req req = {.events = jev,
				 .n = n,
				 .subsume = subsume,
				 .keep_ir = evs->keep_ir,
				 .mutate = evs->test_mutate};
	struct ev_code *c = code_new(n);
	uint64_t t0 = clock_mono_ns();
	struct jit_ev_out out = {0};
	char msg[RT_MSG_MAX] = "";
	size_t i;
	int ret;

	ret = !jev || !c ? -ENOMEM : spec_runtime__load(evs->rt);
	if (!ret) {
		memcpy(c->events, set, n * sizeof(*set));
		ret = copy_bindings(evs, set, n, jev);
	}
	if (!ret)
		ret = build(evs, &req, c, &out, msg, sizeof(msg));
	pthread_mutex_lock(&evs->code_lock);
	evs->stats.builds++;
	if (ret) {
		evs->stats.build_failures++;
		pthread_mutex_unlock(&evs->code_lock);
		if (msg[0]) {
			pthread_mutex_lock(&evs->rt->lock);
			rt_set_error(evs->rt, ret, msg);
			pthread_mutex_unlock(&evs->rt->lock);
		}
		if (c)
			ev_free_code(evs, c);
	} else {
		bool st = install(evs, c);

		evs->stats.last_build_ns = clock_mono_ns() - t0;
		evs->stats.merged_events = n;
		evs->stats.subsumed = out.inlined;
		evs->stats.subsumed_calls = out.called;
		if (out.ir) {
			free(evs->last_ir);
			evs->last_ir = out.ir;
			out.ir = NULL;
		}
		evs->stats.stale_builds += st;
		if (stale)
			*stale = st;
		pthread_mutex_unlock(&evs->code_lock);
		/* A build that worked leaves no earlier failure in last_error. */
		pthread_mutex_lock(&evs->rt->lock);
		rt_clear_error(evs->rt);
		pthread_mutex_unlock(&evs->rt->lock);
		ret = (int)n;
	}
	free(out.ir);
	for (i = 0; jev && i < n; i++)
		free((void *)jev[i].b);
	free(jev);
	ev_reclaim(evs);
	return ret;
}

size_t ev_merged_set(struct spec_events *evs, uint32_t *idx, uint32_t *into, size_t max)
{
	size_t i, n = evs->code ? evs->code->n : 0;

	for (i = 0; i < n && i < max; i++) {
		idx[i] = evs->code->events[i]->idx;
		into[i] = evs->code->subsumed_into[i];
	}
	return n < max ? n : max;
}

int spec_events__unmerge(struct spec_events *evs)
{
	if (!evs)
		return libspec_err(-EINVAL);
	pthread_mutex_lock(&evs->code_lock);
	install(evs, NULL);
	pthread_mutex_unlock(&evs->code_lock);
	ev_reclaim(evs);
	return 0;
}

bool spec_event__is_merged(const struct spec_event *ev)
{
	struct spec_event *e = (struct spec_event *)ev;
	struct ev_merged *m;

	if (!e)
		return false;
	m = atomic_load_explicit(&e->merged, memory_order_acquire);
	return m && m->version == atomic_load_explicit(&e->version, memory_order_acquire);
}
