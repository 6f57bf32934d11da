/* SPDX-License-Identifier: GPL-2.0 */
/* Metrics tests: render a registry to text and read samples back from it. */
#ifndef IOCAD_TESTS_METRICS_FX_H
#define IOCAD_TESTS_METRICS_FX_H

#include <stdbool.h>

#include "metrics.h"

/* The exposition text of @m's snapshot (malloc'd; the test frees it). */
char *metrics_fx_render(struct metrics *m);

/*
 * The value of the sample whose name and labels are exactly @series (e.g.
 * "ioca_ddio_hits_total{socket=\"0\"}") in @text; fails the test if absent.
 */
double metrics_fx_value(const char *text, const char *series);

/* Whether a sample line starts with @series followed by a space. */
bool metrics_fx_has(const char *text, const char *series);

#endif /* IOCAD_TESTS_METRICS_FX_H */
