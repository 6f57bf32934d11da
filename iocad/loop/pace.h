/* SPDX-License-Identifier: GPL-2.0 */
/*
 * iocad --pace: a platform whose wait() returns at once (the simulator)
 * made to keep wall-clock time, one interval per interval_ms, so that
 * something outside (a Prometheus server scraping the metrics) sees the
 * run as it would see a host.
 */
#ifndef IOCAD_PACE_H
#define IOCAD_PACE_H

#include <stdint.h>

#include "platform.h"

struct pace {
	struct platform inner;	 /* the wrapped platform */
	struct platform_ops ops; /* inner's, wait replaced */
	uint64_t deadline_ns;	 /* CLOCK_MONOTONIC end of the current interval; 0: none yet */
};

/*
 * Wrap @pf in place: its wait() then also sleeps until the interval's
 * wall-clock end. @p must outlive @pf's use; destroy() goes to the inner one.
 */
void pace_wrap(struct pace *p, struct platform *pf);

#endif /* IOCAD_PACE_H */
