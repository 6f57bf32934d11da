// SPDX-License-Identifier: GPL-2.0
/*
 * An event system's life: creation (the runtime's symbols for handler
 * raises, handler types, the queue, the optimizer), its end, and the
 * public merge call that may ask the policy for a set. The registry,
 * merging and the policy below it do not call up here: the policy hears
 * of rebindings through the registry's hook.
 */
#include <stdlib.h>
#include <string.h>

#include "events/event_dispatch.h"
#include "events/event_merge.h"
#include "events/event_policy.h"
#include "events/event_queue.h"
#include "events/event_registry.h"
#include "jit/jit.h"
#include "jit/jit_event.h"
#include "log.h"
#include "runtime_ref.h"

static int define_helpers(struct spec_runtime *rt)
{
	static const struct {
		const char *name;
		void *addr;
	} helpers[] = {
		{"__spec_ev_raise", (void *)__spec_ev_raise},
		{"__spec_ev_raise_async", (void *)__spec_ev_raise_async},
		{"__spec_ev_raise_delayed", (void *)__spec_ev_raise_delayed},
		{"__spec_ev_raise_ev", (void *)ev_raise_from},
		{"__spec_ev_raise_ev4", (void *)ev_raise_from4},
	};
	size_t i;

	for (i = 0; i < sizeof(helpers) / sizeof(helpers[0]); i++) {
		int ret = spec_runtime__define_symbol(rt, helpers[i].name, helpers[i].addr);

		if (ret)
			return ret;
	}
	return 0;
}

static int events_init(struct spec_events *evs, struct spec_runtime *rt,
		       const struct spec_events_opts *opts)
{
	size_t nedges;

	pthread_mutex_init(&evs->lock, NULL);
	evs->rt = rt;
	evs->user = OPTS_GET(opts, user, NULL);
	evs->max_events = OPTS_GET(opts, max_events, 0) ?: 64;
	evs->sample_every = OPTS_GET(opts, sample_every, 0) ?: 64;
	evs->hot_share = OPTS_GET(opts, hot_share, 0) ?: 0.05;
	evs->period_ms = OPTS_GET(opts, period_ms, 0) ?: 50;
	evs->metric = OPTS_GET(opts, metric, NULL);
	evs->metric_ctx = OPTS_GET(opts, metric_ctx, NULL);
	if (evs->max_events > 1024 || evs->hot_share < 0 || evs->hot_share > 1) {
		pr_warn(&evs->log,
			"events: max_events %u (at most 1024) or hot_share %g (0..1) out of "
			"range",
			evs->max_events, evs->hot_share);
		return -EINVAL;
	}
	for (evs->name_slots = 4; evs->name_slots < 2 * evs->max_events; evs->name_slots *= 2)
		;
	nedges = (size_t)(evs->max_events + 1) * evs->max_events * 2;
	evs->events = calloc(evs->max_events, sizeof(*evs->events));
	evs->names = calloc(evs->name_slots, sizeof(*evs->names));
	evs->edges = calloc(nedges, sizeof(*evs->edges));
	evs->nr_handlers = (uint32_t)jit_nr_handlers(rt->jit);
	evs->handler_ok = calloc(evs->nr_handlers + 1, sizeof(*evs->handler_ok));
	evs->hedges =
		calloc((size_t)evs->nr_handlers * evs->max_events * 2 + 1, sizeof(*evs->hedges));
	if (!evs->events || !evs->names || !evs->edges || !evs->handler_ok || !evs->hedges)
		return -ENOMEM;
	evs->next_binding = 1;
	return 0;
}

/*
 * Which functions have the handler type, found once now (no compile can
 * hold the JIT lock before the runtime loads): a bind must not wait for it.
 */
static void check_handlers(struct spec_events *evs)
{
	char msg[RT_MSG_MAX];
	uint32_t i;

	pthread_mutex_lock(&evs->rt->jit_lock);
	for (i = 0; i < evs->nr_handlers; i++)
		evs->handler_ok[i] =
			jit_event_check_handler(evs->rt->jit, i, msg, sizeof(msg)) ?: 1;
	pthread_mutex_unlock(&evs->rt->jit_lock);
}

/* The runtime's load hook: every handler's stub, built before any bind. */
static void build_stubs(void *arg)
{
	struct spec_events *evs = arg;
	uint32_t i;

	for (i = 0; i < evs->nr_handlers; i++) {
		if (atomic_load(&evs->handler_ok[i]) == 1 &&
		    !spec_runtime__handler(evs->rt, jit_handler_name(evs->rt->jit, i)))
			pr_warn(&evs->log, "events: no stub for handler '%s': %s",
				jit_handler_name(evs->rt->jit, i), strerror(errno));
	}
}

struct spec_events *spec_events__new(struct spec_runtime *rt, const struct spec_events_opts *opts)
{
	struct spec_events *evs;
	struct libspec_log log;
	int ret;

	if (!rt)
		return libspec_err_ptr(-EINVAL);
	log = libspec_log_or(LIBSPEC_LOG_OPTS(opts), &rt->log);
	if (!OPTS_VALID(&log, opts, spec_events_opts))
		return libspec_err_ptr(-EINVAL);
	if (rt->load_hook) {
		pr_warn(&log, "events: the runtime has an event system already (one per runtime)");
		return libspec_err_ptr(-EBUSY);
	}
	evs = calloc(1, sizeof(*evs));
	if (!evs)
		return libspec_err_ptr(-ENOMEM);
	rt_get(rt);
	evs->rt = rt;
	evs->log = log;
	ret = events_init(evs, rt, opts);
	if (!ret)
		ret = define_helpers(rt);
	if (!ret) {
		check_handlers(evs);
		rt->load_hook_ctx = evs;
		rt->load_hook = build_stubs;
	}
	if (!ret)
		ret = ev_queue_start(evs, OPTS_GET(opts, dispatch_thread, false));
	if (!ret && OPTS_GET(opts, optimize, false))
		ret = ev_policy_start(evs);
	if (ret) {
		if (ret == -EBUSY)
			pr_warn(&log,
				"events: create the event system before spec_runtime__load()");
		spec_events__free(evs);
		return libspec_err_ptr(ret);
	}
	return evs;
}

void spec_events__free(struct spec_events *evs)
{
	struct spec_runtime *rt;
	uint32_t i;

	if (!evs)
		return;
	if (evs->rt->load_hook_ctx == evs) {
		evs->rt->load_hook = NULL;
		evs->rt->load_hook_ctx = NULL;
	}
	ev_policy_stop(evs);
	ev_queue_stop(evs);
	if (evs->code) {
		for (i = 0; i < evs->code->n; i++)
			atomic_store(&evs->code->events[i]->merged, NULL);
		ev_retire_code(evs, evs->code);
		evs->code = NULL;
	}
	/* No raise may run any more: everything retired can go. */
	while (evs->retired_code) {
		struct ev_code *c = evs->retired_code;

		evs->retired_code = c->next;
		ev_free_code(evs, c);
	}
	while (evs->retired) {
		struct ev_bindings *b = evs->retired;

		evs->retired = b->next;
		free(b);
	}
	for (i = 0; evs->events && i < atomic_load(&evs->nr_events); i++) {
		free(atomic_load(&evs->events[i]->bindings));
		free(evs->events[i]->name);
		free(evs->events[i]);
	}
	pthread_mutex_destroy(&evs->lock);
	free(evs->events);
	free(evs->names);
	free(evs->edges);
	free(evs->handler_ok);
	free(evs->hedges);
	free(evs->last_ir);
	rt = evs->rt;
	free(evs);
	/* The last reference tears the runtime down if its owner closed it. */
	spec_runtime__close(rt);
}

int spec_events__merge(struct spec_events *evs, const struct spec_merge_opts *opts)
{
	struct spec_event *const *set = OPTS_GET(opts, events, NULL);
	size_t n = OPTS_GET(opts, nr_events, 0);
	struct spec_event **mine = NULL;
	int ret;

	if (!evs || !OPTS_VALID(&evs->log, opts, spec_merge_opts) || (n && !set))
		return libspec_err(-EINVAL);
	if (!set) {
		mine = ev_policy_choose(evs, &n);
		if (!mine)
			return libspec_err(-ENOMEM);
		set = mine;
	}
	for (size_t i = 0; i < n; i++) {
		if (!set[i] || set[i]->evs != evs) {
			free(mine);
			return libspec_err(-EINVAL);
		}
	}
	ret = ev_build(evs, set, n, !OPTS_GET(opts, no_subsume, false), NULL);
	free(mine);
	return libspec_err(ret);
}
