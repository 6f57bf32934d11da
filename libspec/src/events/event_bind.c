// SPDX-License-Identifier: GPL-2.0
/*
 * Binding and unbinding. A rebinding copies the event's snapshot under the
 * system's lock, publishes the copy, bumps the bindings version (what the
 * guards of merged code compare) and retires the old snapshot to the
 * runtime's epoch; raises in flight keep the snapshot they loaded.
 */
#include <stdlib.h>
#include <string.h>

#include "events/event_bind.h"
#include "jit/jit.h"
#include "log.h"

size_t spec_event__nr_bindings(const struct spec_event *ev)
{
	struct ev_bindings *b;

	if (!ev)
		return 0;
	b = atomic_load_explicit(&((struct spec_event *)ev)->bindings, memory_order_acquire);
	return b->n;
}

/* Publish @nb as @ev's bindings (lock held) and retire the old snapshot. */
static void publish(struct spec_events *evs, struct spec_event *ev, struct ev_bindings *nb)
{
	struct ev_bindings *old = atomic_load_explicit(&ev->bindings, memory_order_relaxed);

	nb->version = old->version + 1;
	atomic_store_explicit(&ev->bindings, nb, memory_order_release);
	atomic_store_explicit(&ev->version, nb->version, memory_order_release);
	old->retired_at = epoch_retire(&evs->rt->dom);
	old->next = evs->retired;
	evs->retired = old;
	evs->nr_retired++;
	if (evs->on_rebind)
		evs->on_rebind(evs, ev);
}

/*
 * The handler's stub and index. Its type was checked when the event system
 * was created and its stub built when the runtime loaded: no JIT lock here.
 */
static int handler_stub(struct spec_events *evs, const char *handler, uint32_t *idx, void **fn)
{
	int ret;

	ret = jit_handler_index(evs->rt->jit, handler);
	if (ret < 0) {
		pr_warn(&evs->log,
			"bind '%s': no such handler (no external function of that name in the "
			"IR)",
			handler);
		return -ENOENT;
	}
	*idx = (uint32_t)ret;
	ret = atomic_load(&evs->handler_ok[*idx]);
	if (ret < 0) {
		pr_warn(&evs->log,
			"bind '%s': not void (struct spec_ev_ctx *, const int64_t *, const int64_t "
			"*)",
			handler);
		return ret;
	}
	*fn = spec_runtime__handler(evs->rt, handler);
	return *fn ? 0 : -errno;
}

int64_t spec_event__bind(struct spec_event *ev, const char *handler,
			 const struct spec_bind_opts *opts)
{
	struct ev_binding nbind = {0};
	struct ev_bindings *old, *nb;
	struct spec_events *evs;
	size_t i, at;
	void *fn;
	int ret;

	if (!ev || !handler || !OPTS_VALID(&ev->evs->log, opts, spec_bind_opts))
		return libspec_err(-EINVAL);
	evs = ev->evs;
	ret = handler_stub(evs, handler, &nbind.handler, &fn);
	if (ret)
		return libspec_err(ret);
	nbind.fn = (spec_ev_handler_fn)fn;
	nbind.order = OPTS_GET(opts, order, 0);
	if (OPTS_HAS(opts, args))
		memcpy(nbind.args, opts->args, sizeof(nbind.args));
	pthread_mutex_lock(&evs->lock);
	old = atomic_load_explicit(&ev->bindings, memory_order_relaxed);
	nb = malloc(sizeof(*nb) + (old->n + 1) * sizeof(nb->b[0]));
	if (!nb) {
		pthread_mutex_unlock(&evs->lock);
		return libspec_err(-ENOMEM);
	}
	nbind.id = evs->next_binding++;
	nbind.seq = ++evs->bind_seq;
	/* Sorted by order, then binding time: the new one goes after equals. */
	for (at = 0; at < old->n && old->b[at].order <= nbind.order; at++)
		;
	nb->n = old->n + 1;
	for (i = 0; i < at; i++)
		nb->b[i] = old->b[i];
	nb->b[at] = nbind;
	for (i = at; i < old->n; i++)
		nb->b[i + 1] = old->b[i];
	publish(evs, ev, nb);
	pthread_mutex_unlock(&evs->lock);
	ev_reclaim_bindings(evs);
	return nbind.id;
}

int spec_event__unbind(struct spec_event *ev, int64_t id)
{
	struct ev_bindings *old, *nb;
	struct spec_events *evs;
	size_t i, j;

	if (!ev)
		return libspec_err(-EINVAL);
	evs = ev->evs;
	pthread_mutex_lock(&evs->lock);
	old = atomic_load_explicit(&ev->bindings, memory_order_relaxed);
	for (i = 0; i < old->n && old->b[i].id != id; i++)
		;
	if (i == old->n) {
		pthread_mutex_unlock(&evs->lock);
		return libspec_err(-ENOENT);
	}
	nb = malloc(sizeof(*nb) + old->n * sizeof(nb->b[0]));
	if (!nb) {
		pthread_mutex_unlock(&evs->lock);
		return libspec_err(-ENOMEM);
	}
	nb->n = old->n - 1;
	for (i = 0, j = 0; i < old->n; i++) {
		if (old->b[i].id != id)
			nb->b[j++] = old->b[i];
	}
	publish(evs, ev, nb);
	pthread_mutex_unlock(&evs->lock);
	ev_reclaim_bindings(evs);
	return 0;
}
