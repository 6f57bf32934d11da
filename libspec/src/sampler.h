/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Value sampling for instrumented points: each thread keeps, per point, the
 * top-K values it saw (space-saving counts) in its own record, so recording
 * is a countdown decrement and, every Nth call, a scan of K slots that no
 * other thread writes. Readers merge over threads.
 */
#ifndef LIBSPEC_SAMPLER_H
#define LIBSPEC_SAMPLER_H

#include <stddef.h>
#include <stdint.h>

#include "epoch.h"
#include "points.h"

/* Called from JIT code at an instrumented point. */
void spec_rt_sample(struct spec_point *p, int64_t x, uint32_t every);
/* The same for a spec_gen() point: a wide input (hi:lo) and its answer. */
void spec_rt_sample_io(struct spec_point *p, int64_t lo, int64_t hi, int64_t out, uint32_t every);

/*
 * Merge the threads' tables of point @idx: at most @max values by count
 * descending into @out; *samples gets the number of samples recorded.
 * Returns the number of values written.
 */
size_t sampler_merge(struct epoch_domain *d, size_t idx, struct spec_observed *out, size_t max,
		     uint64_t *samples);

/* Forget every observation (threads clear their tables lazily). */
void sampler_reset(struct epoch_domain *d);
/* Forget the observations of point @idx only (the others keep theirs). */
void sampler_reset_point(struct epoch_domain *d, size_t idx);

#endif /* LIBSPEC_SAMPLER_H */
