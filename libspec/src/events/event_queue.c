// SPDX-License-Identifier: GPL-2.0
/*
 * Asynchronous raises run in FIFO order; a delayed raise joins the FIFO when
 * its deadline passes (deadline order, ties by raise order). Either the
 * service drives dispatch with spec_events__poll() or the library's thread
 * does. The queue has a lock: only the synchronous raise path is lock-free.
 */
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "clock.h"
#include "events/event_dispatch.h"
#include "events/event_queue.h"
#include "log.h"

struct ev_item {
	struct spec_event *ev;
	int64_t args[SPEC_EV_MAX_ARGS];
	uint32_t from, by;
	int64_t timer; /* 0 for async raises */
	uint64_t deadline, seq;
	struct ev_item *next;
};

struct ev_queue {
	pthread_mutex_t lock;
	pthread_cond_t cond; /* work arrived, or stop */
	pthread_cond_t idle; /* a dispatch ended */
	struct ev_item *head, *tail;
	struct ev_item **heap; /* delayed raises, by (deadline, seq) */
	size_t nr_heap, cap_heap;
	int64_t next_timer;
	uint64_t seq;
	size_t running; /* items being dispatched */
	pthread_t thread;
	bool has_thread, stop;
};

static bool before(const struct ev_item *a, const struct ev_item *b)
{
	return a->deadline < b->deadline || (a->deadline == b->deadline && a->seq < b->seq);
}

static void heap_swap(struct ev_queue *q, size_t i, size_t j)
{
	struct ev_item *t = q->heap[i];

	q->heap[i] = q->heap[j];
	q->heap[j] = t;
}

static void heap_up(struct ev_queue *q, size_t i)
{
	while (i && before(q->heap[i], q->heap[(i - 1) / 2])) {
		heap_swap(q, i, (i - 1) / 2);
		i = (i - 1) / 2;
	}
}

static void heap_down(struct ev_queue *q, size_t i)
{
	for (;;) {
		size_t l = 2 * i + 1, m = i;

		if (l < q->nr_heap && before(q->heap[l], q->heap[m]))
			m = l;
		if (l + 1 < q->nr_heap && before(q->heap[l + 1], q->heap[m]))
			m = l + 1;
		if (m == i)
			return;
		heap_swap(q, i, m);
		i = m;
	}
}

static struct ev_item *heap_remove(struct ev_queue *q, size_t i)
{
	struct ev_item *it = q->heap[i];

	q->heap[i] = q->heap[--q->nr_heap];
	if (i < q->nr_heap) {
		heap_down(q, i);
		heap_up(q, i);
	}
	return it;
}

static void fifo_add(struct ev_queue *q, struct ev_item *it)
{
	it->next = NULL;
	if (q->tail)
		q->tail->next = it;
	else
		q->head = it;
	q->tail = it;
}

int64_t ev_queue_push(struct spec_event *ev, const int64_t *args, uint32_t from, uint32_t by,
		      uint64_t delay_ns)
{
	struct ev_queue *q = ev->evs->queue;
	struct ev_item *it;
	int64_t ret = 0;

	/* Beyond it, now + delay would wrap and the raise run at once. */
	if (delay_ns > SPEC_EV_MAX_DELAY_NS)
		return -ERANGE;
	it = calloc(1, sizeof(*it));
	if (!it)
		return -ENOMEM;
	it->ev = ev;
	memcpy(it->args, args, sizeof(it->args));
	it->from = from;
	it->by = by;
	pthread_mutex_lock(&q->lock);
	it->seq = ++q->seq;
	if (!delay_ns) {
		fifo_add(q, it);
	} else {
		if (q->nr_heap == q->cap_heap) {
			size_t cap = q->cap_heap ? 2 * q->cap_heap : 16;
			struct ev_item **h = realloc(q->heap, cap * sizeof(*h));

			if (!h) {
				pthread_mutex_unlock(&q->lock);
				free(it);
				return -ENOMEM;
			}
			q->heap = h;
			q->cap_heap = cap;
		}
		it->deadline = clock_mono_ns();
		/* saturate: a monotonic clock past 2^63 ns (292 years up) */
		it->deadline =
			it->deadline > UINT64_MAX - delay_ns ? UINT64_MAX : it->deadline + delay_ns;
		ret = it->timer = ++q->next_timer;
		q->heap[q->nr_heap++] = it;
		heap_up(q, q->nr_heap - 1);
	}
	pthread_cond_signal(&q->cond);
	pthread_mutex_unlock(&q->lock);
	return ret;
}

int spec_events__cancel(struct spec_events *evs, int64_t timer)
{
	struct ev_queue *q;
	struct ev_item *it = NULL;
	size_t i;

	if (!evs || timer <= 0)
		return libspec_err(-EINVAL);
	q = evs->queue;
	pthread_mutex_lock(&q->lock);
	for (i = 0; i < q->nr_heap; i++) {
		if (q->heap[i]->timer == timer) {
			it = heap_remove(q, i);
			break;
		}
	}
	pthread_mutex_unlock(&q->lock);
	free(it);
	return it ? 0 : libspec_err(-ENOENT);
}

/* Move due timers to the FIFO (lock held). */
static void move_due(struct ev_queue *q, uint64_t now)
{
	while (q->nr_heap && q->heap[0]->deadline <= now)
		fifo_add(q, heap_remove(q, 0));
}

/* Take the next ready item (lock held), marking it running. */
static struct ev_item *take(struct ev_queue *q)
{
	struct ev_item *it;

	move_due(q, clock_mono_ns());
	it = q->head;
	if (it) {
		q->head = it->next;
		if (!q->head)
			q->tail = NULL;
		q->running++;
	}
	return it;
}

static void run(struct ev_queue *q, struct ev_item *it)
{
	struct spec_ev_ctx parent = {.evs = it->ev->evs, .event = it->from, .handler = it->by};

	ev_dispatch(it->ev, it->args, it->from == SPEC_EV_ROOT ? NULL : &parent, SPEC_EV_ASYNC);
	free(it);
	pthread_mutex_lock(&q->lock);
	q->running--;
	pthread_cond_broadcast(&q->idle);
	pthread_mutex_unlock(&q->lock);
}

int spec_events__poll(struct spec_events *evs, size_t max)
{
	struct ev_queue *q;
	struct ev_item *it;
	int n = 0;

	if (!evs)
		return libspec_err(-EINVAL);
	q = evs->queue;
	while (!max || (size_t)n < max) {
		pthread_mutex_lock(&q->lock);
		it = take(q);
		pthread_mutex_unlock(&q->lock);
		if (!it)
			break;
		run(q, it);
		n++;
	}
	return n;
}

static void deadline_ts(struct timespec *ts, uint64_t ns)
{
	ts->tv_sec = (time_t)(ns / 1000000000ull);
	ts->tv_nsec = (long)(ns % 1000000000ull);
}

static void *dispatcher(void *arg)
{
	struct ev_queue *q = arg;
	struct ev_item *it;
	struct timespec ts;

	pthread_mutex_lock(&q->lock);
	while (!q->stop) {
		it = take(q);
		if (it) {
			pthread_mutex_unlock(&q->lock);
			run(q, it);
			pthread_mutex_lock(&q->lock);
			continue;
		}
		if (q->nr_heap) {
			deadline_ts(&ts, q->heap[0]->deadline);
			pthread_cond_timedwait(&q->cond, &q->lock, &ts);
		} else {
			pthread_cond_wait(&q->cond, &q->lock);
		}
	}
	pthread_mutex_unlock(&q->lock);
	return NULL;
}

/* Queued work or a timer due by @end (lock held): one due later is not
 * waited for.
 */
static bool due_by(const struct ev_queue *q, uint64_t end)
{
	return q->head || (q->nr_heap && q->heap[0]->deadline <= end);
}

int spec_events__drain(struct spec_events *evs, uint64_t timeout_ns)
{
	uint64_t end = clock_mono_ns();
	struct ev_queue *q;
	struct timespec ts;
	int ret = 0;

	if (!evs)
		return libspec_err(-EINVAL);
	/* saturate: UINT64_MAX ("no timeout") must not wrap into the past */
	end = end > UINT64_MAX - timeout_ns ? UINT64_MAX : end + timeout_ns;
	q = evs->queue;
	if (!q->has_thread) {
		while (clock_mono_ns() < end) {
			if (spec_events__poll(evs, 0) > 0)
				continue;
			pthread_mutex_lock(&q->lock);
			ret = due_by(q, end);
			pthread_mutex_unlock(&q->lock);
			if (!ret)
				return 0;
			nanosleep(&(struct timespec){.tv_nsec = 100000}, NULL);
		}
		return libspec_err(-ETIMEDOUT);
	}
	/* a handler the thread runs would wait for itself (UINT64_MAX: forever) */
	if (pthread_equal(pthread_self(), q->thread))
		return libspec_err(-EDEADLK);
	deadline_ts(&ts, end);
	pthread_mutex_lock(&q->lock);
	while (due_by(q, end) || q->running) {
		if (pthread_cond_timedwait(&q->idle, &q->lock, &ts)) {
			ret = -ETIMEDOUT;
			break;
		}
	}
	pthread_mutex_unlock(&q->lock);
	return libspec_err(ret);
}

int ev_queue_start(struct spec_events *evs, bool thread)
{
	struct ev_queue *q = calloc(1, sizeof(*q));
	pthread_condattr_t ca;

	if (!q)
		return -ENOMEM;
	pthread_mutex_init(&q->lock, NULL);
	/* Deadlines are CLOCK_MONOTONIC, so the waits must be too. */
	pthread_condattr_init(&ca);
	pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
	pthread_cond_init(&q->cond, &ca);
	pthread_cond_init(&q->idle, &ca);
	pthread_condattr_destroy(&ca);
	evs->queue = q;
	if (thread) {
		if (pthread_create(&q->thread, NULL, dispatcher, q))
			return -EAGAIN;
		q->has_thread = true;
	}
	return 0;
}

void ev_queue_stop(struct spec_events *evs)
{
	struct ev_queue *q = evs->queue;
	struct ev_item *it;

	if (!q)
		return;
	if (q->has_thread) {
		pthread_mutex_lock(&q->lock);
		q->stop = true;
		pthread_cond_broadcast(&q->cond);
		pthread_mutex_unlock(&q->lock);
		pthread_join(q->thread, NULL);
	}
	while ((it = q->head)) {
		q->head = it->next;
		free(it);
	}
	while (q->nr_heap)
		free(q->heap[--q->nr_heap]);
	free(q->heap);
	pthread_cond_destroy(&q->cond);
	pthread_cond_destroy(&q->idle);
	pthread_mutex_destroy(&q->lock);
	free(q);
	evs->queue = NULL;
}

/* Queued raises: by the service (arguments copied) and by handlers. */
int spec_event__raise_async(struct spec_event *ev, const int64_t *args, size_t nr_args)
{
	int64_t a[SPEC_EV_MAX_ARGS];

	if (!ev || ev_args_of(a, args, nr_args))
		return libspec_err(-EINVAL);
	return libspec_err((int)ev_queue_push(ev, a, SPEC_EV_ROOT, UINT32_MAX, 0));
}

int64_t spec_event__raise_delayed(struct spec_event *ev, uint64_t delay_ns, const int64_t *args,
				  size_t nr_args)
{
	int64_t a[SPEC_EV_MAX_ARGS], ret;

	if (!ev || ev_args_of(a, args, nr_args))
		return libspec_err(-EINVAL);
	ret = ev_queue_push(ev, a, SPEC_EV_ROOT, UINT32_MAX, delay_ns ? delay_ns : 1);
	if (ret < 0)
		errno = (int)-ret;
	return ret;
}

void __spec_ev_raise_async(struct spec_ev_ctx *ctx, const char *event, const int64_t *args)
{
	struct spec_event *ev = ev_by_name(ctx, event);

	if (ev && ev_queue_push(ev, args, ctx->event, ctx->handler, 0) < 0)
		pr_warn(&ev->evs->log, "async raise of '%s' dropped: out of memory", event);
}

void __spec_ev_raise_delayed(struct spec_ev_ctx *ctx, const char *event, uint64_t delay_ns,
			     const int64_t *args)
{
	struct spec_event *ev = ev_by_name(ctx, event);
	int64_t r =
		ev ? ev_queue_push(ev, args, ctx->event, ctx->handler, delay_ns ? delay_ns : 1) : 0;

	if (r == -ERANGE)
		pr_warn(&ev->evs->log,
			"delayed raise of '%s' dropped: delay %llu ns is beyond "
			"SPEC_EV_MAX_DELAY_NS (INT64_MAX, 292 years; a negative int64_t?)",
			event, (unsigned long long)delay_ns);
	else if (r < 0)
		pr_warn(&ev->evs->log, "delayed raise of '%s' dropped: out of memory", event);
}
