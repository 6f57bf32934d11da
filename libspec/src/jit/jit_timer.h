/* SPDX-License-Identifier: GPL-2.0 */
/* Call timers, with which the runtime compares compile tiers. */
#ifndef LIBSPEC_JIT_TIMER_H
#define LIBSPEC_JIT_TIMER_H

#include <stdatomic.h>
#include <stdint.h>

#include "jit/jit.h"

/*
 * A handler's call timer, for measuring a compile tier: while the slot holds
 * the timer's function, calls go to @target and those where calls & @mask
 * is 0 are timed in cycles; the first JIT_TIMER_RING durations of a window
 * are kept (reset @samples to start one). Written by any calling thread,
 * relaxed: a lost count only shortens a window.
 */
#define JIT_TIMER_RING 64
struct jit_timer {
	_Atomic uint64_t mask;
	_Atomic uint64_t calls;
	void *_Atomic target;
	_Atomic uint64_t samples;
	_Atomic uint64_t ring[JIT_TIMER_RING];
};

/* The function of handler @h's timer @t (same type as the handler). */
int jit_build_timer(struct jit *j, size_t h, struct jit_timer *t, uint64_t *addr, char *err,
		    size_t errsz);

#endif /* LIBSPEC_JIT_TIMER_H */
