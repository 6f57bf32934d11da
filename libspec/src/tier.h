/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Measured compile tiers (spec_runtime_opts.measure_tiers): the calls of
 * the handlers a tiered job changes are timed under the code it replaces,
 * under its first tier and under its final tier; the faster tier is kept,
 * and each handler remembers which tiers paid, so later jobs compile only
 * the ones that do.
 */
#ifndef LIBSPEC_TIER_H
#define LIBSPEC_TIER_H

#include "runtime_state.h"

/* What a tiered job compiles, from the changed handlers' history. */
struct tier_plan {
	bool *changed; /* [nr_handlers] */
	bool measure;  /* some changed handler can be timed */
	bool skip_first, skip_final;
};

/* One window's median call cycles per handler, and how many were kept. */
struct tier_window {
	uint64_t *median; /* [nr_handlers] */
	uint32_t *n;	  /* [nr_handlers] */
};

/* The state of @rt's measurements, or NULL when off. */
int tier_open(struct spec_runtime *rt);
void tier_close(struct spec_runtime *rt);

/* Handler @i's timer function, built with its stub (jit_lock held; takes lock). */
int tier_build_timer(struct spec_runtime *rt, size_t i, char *err, size_t errsz);
/* What slot @i must hold for variant function @fn: @fn, or the timer
 * calling @fn while handler @i is measured (lock held).
 */
void *tier_route(struct spec_runtime *rt, size_t i, void *fn);

/* Plan the job of @cfg (takes the locks). @p->changed is allocated. */
int tier_plan(struct spec_runtime *rt, const struct spec_config *cfg, struct tier_plan *p);
void tier_plan_free(struct tier_plan *p);

/* Start timing the changed handlers, under the current variant (lock held). */
void tier_arm(struct spec_runtime *rt, const struct tier_plan *p);
/* Close the running window into @w (NULL: nothing measured, no-op) and
 * open the next, giving it up to 10 ms more first if the compile that ran
 * meanwhile was too short to fill it (lock held).
 */
void tier_next_window(struct spec_runtime *rt, struct tier_window *w);
/* Stop timing: slots hold the current variant's code again (lock held). */
void tier_disarm(struct spec_runtime *rt);

int tier_window_alloc(struct spec_runtime *rt, struct tier_window *w);
void tier_window_free(struct tier_window *w);

/*
 * After a job installed @final over @first (either may be NULL when the
 * plan skipped it), with @old measured under the code they replaced: wait
 * for the final tier's window (lock held; returns early on a new job, on
 * close, or when another variant was installed meanwhile), then update the
 * histories and reinstall @first if it was faster.
 */
void tier_decide(struct spec_runtime *rt, const struct tier_plan *p, struct tier_window *old,
		 struct tier_window *first_w, struct variant *first, struct variant *final);

#endif /* LIBSPEC_TIER_H */
