// SPDX-License-Identifier: GPL-2.0
#include <stdlib.h>
#include <string.h>

#include "sampler.h"

#define RELAXED memory_order_relaxed

static void point_clear(struct thread_rec *rec, size_t idx)
{
	size_t i;

	atomic_store_explicit(&rec->samples[idx], 0, RELAXED);
	for (i = idx * SAMPLER_TOPK; i < (idx + 1) * SAMPLER_TOPK; i++) {
		atomic_store_explicit(&rec->topk[i].count, 0, RELAXED);
		atomic_store_explicit(&rec->topk[i].value, 0, RELAXED);
		atomic_store_explicit(&rec->extra[i].value_hi, 0, RELAXED);
		atomic_store_explicit(&rec->extra[i].out, 0, RELAXED);
	}
}

static void rec_clear(struct thread_rec *rec, size_t nr_points)
{
	size_t i;

	for (i = 0; i < nr_points; i++)
		atomic_store_explicit(&rec->samples[i], 0, RELAXED);
	for (i = 0; i < nr_points * SAMPLER_TOPK; i++) {
		atomic_store_explicit(&rec->topk[i].count, 0, RELAXED);
		atomic_store_explicit(&rec->topk[i].value, 0, RELAXED);
		atomic_store_explicit(&rec->extra[i].value_hi, 0, RELAXED);
		atomic_store_explicit(&rec->extra[i].out, 0, RELAXED);
	}
}

/* Space-saving: a new value takes the least-counted slot, inheriting its
 * count, so a value frequent overall cannot be pushed out for long. @ex is
 * NULL for plain points (their values fit 64 bits, no answer is kept);
 * inlined, so their path has no test of it left.
 */
static inline __attribute__((always_inline)) void
record(struct topk_slot *slots, struct topk_extra *ex, int64_t x, int64_t hi, int64_t out)
{
	struct topk_slot *min = &slots[0];
	uint64_t minc = UINT64_MAX;
	int i;

	for (i = 0; i < SAMPLER_TOPK; i++) {
		uint64_t c = atomic_load_explicit(&slots[i].count, RELAXED);
		int64_t v = atomic_load_explicit(&slots[i].value, RELAXED);

		/* Marked unlikely so the scan of a miss (every slot) runs
		 * straight through without a taken branch per slot: that
		 * layout cost ~5 cycles a call with many distinct values.
		 */
		if (__builtin_expect(v == x && c != 0, 0) &&
		    (!ex || atomic_load_explicit(&ex[i].value_hi, RELAXED) == hi)) {
			/* The latest answer: the data may have changed since. */
			if (ex)
				atomic_store_explicit(&ex[i].out, out, RELAXED);
			atomic_store_explicit(&slots[i].count, c + 1, RELAXED);
			return;
		}
		if (c < minc) {
			minc = c;
			min = &slots[i];
		}
	}
	atomic_store_explicit(&min->value, x, RELAXED);
	if (ex) {
		atomic_store_explicit(&ex[min - slots].value_hi, hi, RELAXED);
		atomic_store_explicit(&ex[min - slots].out, out, RELAXED);
	}
	atomic_store_explicit(&min->count, minc + 1, RELAXED);
}

/* The countdown and generation check both entry points share: the
 * thread's record when this call records, else NULL.
 */
static inline struct thread_rec *due(struct spec_point *p, uint32_t every)
{
	struct epoch_domain *d = p->dom;
	struct thread_rec *rec = epoch_rec(d);
	uint32_t c;
	uint64_t gen;

	if (__builtin_expect(!rec, 0))
		return NULL;
	c = rec->countdown[p->idx];
	if (c > 1) {
		rec->countdown[p->idx] = c - 1;
		return NULL;
	}
	rec->countdown[p->idx] = every;
	gen = atomic_load_explicit(&d->gen, RELAXED);
	if (atomic_load_explicit(&rec->gen, RELAXED) != gen) {
		rec_clear(rec, d->nr_points);
		atomic_store_explicit(&rec->gen, gen, RELAXED);
	}
	gen = atomic_load_explicit(&atomic_load_explicit(&d->point_gen, RELAXED)[p->idx], RELAXED);
	if (atomic_load_explicit(&rec->point_gen[p->idx], RELAXED) != gen) {
		point_clear(rec, p->idx);
		atomic_store_explicit(&rec->point_gen[p->idx], gen, RELAXED);
	}
	atomic_store_explicit(&rec->samples[p->idx],
			      atomic_load_explicit(&rec->samples[p->idx], RELAXED) + 1, RELAXED);
	return rec;
}

void spec_rt_sample(struct spec_point *p, int64_t x, uint32_t every)
{
	struct thread_rec *rec = due(p, every);

	if (rec)
		record(&rec->topk[p->idx * SAMPLER_TOPK], NULL, x, 0, 0);
}

void spec_rt_sample_io(struct spec_point *p, int64_t x, int64_t hi, int64_t out, uint32_t every)
{
	struct thread_rec *rec = due(p, every);

	if (rec)
		record(&rec->topk[p->idx * SAMPLER_TOPK], &rec->extra[p->idx * SAMPLER_TOPK], x, hi,
		       out);
}
static int by_count_desc(const void *a, const void *b)
{
	const struct spec_observed *x = a, *y = b;

	if (x->count != y->count)
		return x->count < y->count ? 1 : -1;
	if (x->value_hi != y->value_hi)
		return x->value_hi < y->value_hi ? -1 : 1;
	return x->value < y->value ? -1 : x->value > y->value;
}

static size_t add_value(struct spec_observed *all, size_t n, const struct topk_slot *s,
			const struct topk_extra *ex, uint64_t c)
{
	int64_t v = atomic_load_explicit(&s->value, RELAXED);
	int64_t hi = atomic_load_explicit(&ex->value_hi, RELAXED);
	size_t i;

	for (i = 0; i < n; i++) {
		if (all[i].value == v && all[i].value_hi == hi) {
			all[i].count += c;
			return n;
		}
	}
	all[n].value = v;
	all[n].value_hi = hi;
	all[n].out = atomic_load_explicit(&ex->out, RELAXED);
	all[n].count = c;
	return n + 1;
}

size_t sampler_merge(struct epoch_domain *d, size_t idx, struct spec_observed *out, size_t max,
		     uint64_t *samples)
{
	uint64_t gen = atomic_load(&d->gen), pgen = 0, total = 0;
	struct thread_rec *rec = atomic_load(&d->head);
	struct spec_observed *all = NULL;
	size_t n = 0, cap = 0, i;

	/* Made before the first record was published. */
	if (rec)
		pgen = atomic_load(&atomic_load(&d->point_gen)[idx]);
	for (; rec; rec = rec->next) {
		const struct topk_slot *s = &rec->topk[idx * SAMPLER_TOPK];
		const struct topk_extra *ex = &rec->extra[idx * SAMPLER_TOPK];

		/* A stale table belongs to an earlier generation: not counted. */
		if (atomic_load_explicit(&rec->gen, RELAXED) != gen ||
		    atomic_load_explicit(&rec->point_gen[idx], RELAXED) != pgen)
			continue;
		if (n + SAMPLER_TOPK > cap) {
			struct spec_observed *na;

			cap = cap ? 2 * cap : 4 * SAMPLER_TOPK;
			na = realloc(all, cap * sizeof(*na));
			if (!na)
				break;
			all = na;
		}
		total += atomic_load_explicit(&rec->samples[idx], RELAXED);
		for (i = 0; i < SAMPLER_TOPK; i++) {
			uint64_t c = atomic_load_explicit(&s[i].count, RELAXED);

			if (c)
				n = add_value(all, n, &s[i], &ex[i], c);
		}
	}
	if (n)
		qsort(all, n, sizeof(*all), by_count_desc);
	if (n > max)
		n = max;
	if (n)
		memcpy(out, all, n * sizeof(*out));
	free(all);
	if (samples)
		*samples = total;
	return n;
}

void sampler_reset(struct epoch_domain *d)
{
	atomic_fetch_add(&d->gen, 1);
}

void sampler_reset_point(struct epoch_domain *d, size_t idx)
{
	_Atomic uint64_t *g = atomic_load(&d->point_gen);

	/* No record yet: no thread has sampled anything to forget. */
	if (g)
		atomic_fetch_add(&g[idx], 1);
}
