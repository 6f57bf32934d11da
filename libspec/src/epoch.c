// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <linux/membarrier.h>
#include <stdlib.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "epoch.h"

static _Atomic uint64_t next_domain_id = 1;

/* Fast path: the record of the domain this thread used last. Initial-exec:
 * no __tls_get_addr call on every handler entry (libspec is not meant to be
 * dlopen()ed late).
 */
static __thread __attribute__((tls_model("initial-exec"))) struct {
	uint64_t id;
	struct thread_rec *rec;
} tls_last;

bool epoch_tls_layout(struct epoch_tls *t)
{
#if defined(__x86_64__) && defined(__linux__)
	uintptr_t tp;

	if (getenv("LIBSPEC_NO_INLINE_TLS"))
		return false;
	/* x86-64 TLS ABI: the word at %fs:0 is the thread pointer itself. */
	__asm__("mov %%fs:0, %0" : "=r"(tp));
	t->off_id = (intptr_t)((uintptr_t)&tls_last.id - tp);
	t->off_rec = (intptr_t)((uintptr_t)&tls_last.rec - tp);
	t->off_local = offsetof(struct thread_rec, local);
	t->off_nested = offsetof(struct thread_rec, nested);
	t->off_countdown = offsetof(struct thread_rec, countdown);
	return true;
#else
	(void)t;
	return false;
#endif
}

static void rec_release(void *p)
{
	struct thread_rec *rec = p;

	atomic_store_explicit(&rec->local, 0, memory_order_release);
	atomic_store_explicit(&rec->in_use, 0, memory_order_release);
}

int epoch_domain_init(struct epoch_domain *d, size_t nr_points)
{
	int err;

	d->id = atomic_fetch_add(&next_domain_id, 1);
	atomic_init(&d->global, 1);
	atomic_init(&d->head, NULL);
	atomic_init(&d->gen, 1);
	d->nr_points = nr_points;
	atomic_init(&d->point_gen, NULL);
	err = pthread_key_create(&d->key, rec_release);
	if (err)
		return -err;
	d->membarrier = !syscall(SYS_membarrier, MEMBARRIER_CMD_REGISTER_PRIVATE_EXPEDITED, 0, 0);
	return 0;
}

static void rec_free(struct thread_rec *rec)
{
	free(rec->countdown);
	free(rec->samples);
	free(rec->topk);
	free(rec->extra);
	free(rec->point_gen);
	free(rec);
}

void epoch_domain_fini(struct epoch_domain *d)
{
	struct thread_rec *rec = atomic_load(&d->head), *next;

	pthread_key_delete(d->key);
	for (; rec; rec = next) {
		next = rec->next;
		rec_free(rec);
	}
	atomic_store(&d->head, NULL);
	free(atomic_load(&d->point_gen));
	atomic_store(&d->point_gen, NULL);
}

/* The domain's per-point generations, made by the first record's thread. */
static bool point_gens(struct epoch_domain *d, size_t n)
{
	_Atomic uint64_t *g = atomic_load(&d->point_gen), *none = NULL;

	if (g)
		return true;
	g = calloc(n, sizeof(*g));
	if (!g)
		return false;
	if (!atomic_compare_exchange_strong(&d->point_gen, &none, g))
		free(g);
	return true;
}

static struct thread_rec *rec_alloc(struct epoch_domain *d)
{
	struct thread_rec *rec = calloc(1, sizeof(*rec));
	size_t n = d->nr_points ? d->nr_points : 1;

	if (!rec)
		return NULL;
	rec->countdown = calloc(n, sizeof(*rec->countdown));
	rec->samples = calloc(n, sizeof(*rec->samples));
	rec->topk = calloc(n * SAMPLER_TOPK, sizeof(*rec->topk));
	rec->extra = calloc(n * SAMPLER_TOPK, sizeof(*rec->extra));
	rec->point_gen = calloc(n, sizeof(*rec->point_gen));
	if (!rec->countdown || !rec->samples || !rec->topk || !rec->extra || !rec->point_gen ||
	    !point_gens(d, n)) {
		rec_free(rec);
		return NULL;
	}
	atomic_init(&rec->in_use, 1);
	rec->next = atomic_load(&d->head);
	while (!atomic_compare_exchange_weak(&d->head, &rec->next, rec))
		;
	return rec;
}

/* Slow path: reuse the record of an exited thread or add one. */
static struct thread_rec *rec_acquire(struct epoch_domain *d)
{
	struct thread_rec *rec = pthread_getspecific(d->key);

	if (!rec) {
		for (rec = atomic_load(&d->head); rec; rec = rec->next) {
			int free_rec = 0;

			if (atomic_compare_exchange_strong(&rec->in_use, &free_rec, 1))
				break;
		}
		if (!rec)
			rec = rec_alloc(d);
		if (!rec)
			return NULL;
		pthread_setspecific(d->key, rec);
	}
	tls_last.id = d->id;
	tls_last.rec = rec;
	return rec;
}

struct thread_rec *epoch_rec(struct epoch_domain *d)
{
	if (__builtin_expect(tls_last.id == d->id, 1))
		return tls_last.rec;
	return rec_acquire(d);
}

_Atomic uint64_t *spec_rt_enter(struct epoch_domain *d)
{
	struct thread_rec *rec = epoch_rec(d);

	/* Without a record this call cannot publish its epoch, and running
	 * unpublished could free the code under it: no safe way on.
	 */
	if (__builtin_expect(!rec, 0))
		abort();
	if (atomic_load_explicit(&rec->local, memory_order_relaxed))
		return &rec->nested;
	atomic_store_explicit(&rec->local, atomic_load_explicit(&d->global, memory_order_acquire),
			      memory_order_relaxed);
	if (d->membarrier)
		atomic_signal_fence(memory_order_seq_cst);
	else
		atomic_thread_fence(memory_order_seq_cst);
	return &rec->local;
}

uint64_t epoch_retire(struct epoch_domain *d)
{
	return atomic_fetch_add(&d->global, 1);
}

uint64_t epoch_oldest(struct epoch_domain *d)
{
	uint64_t oldest = UINT64_MAX;
	struct thread_rec *rec;

	/* Order the unlinking stores before reading the readers' epochs on
	 * every CPU (pairs with the compiler barrier in spec_rt_enter()).
	 */
	if (d->membarrier)
		syscall(SYS_membarrier, MEMBARRIER_CMD_PRIVATE_EXPEDITED, 0, 0);
	else
		atomic_thread_fence(memory_order_seq_cst);
	for (rec = atomic_load(&d->head); rec; rec = rec->next) {
		uint64_t e = atomic_load_explicit(&rec->local, memory_order_acquire);

		if (e && e < oldest)
			oldest = e;
	}
	return oldest;
}
