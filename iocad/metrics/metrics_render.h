/* SPDX-License-Identifier: GPL-2.0 */
/* A metrics snapshot as Prometheus' text exposition format 0.0.4. */
#ifndef IOCAD_METRICS_RENDER_H
#define IOCAD_METRICS_RENDER_H

#include <stdio.h>

#include "metrics/metrics.h"

#define METRICS_CONTENT_TYPE "text/plain; version=0.0.4; charset=utf-8"

/*
 * Every family with its HELP and TYPE lines (also when it has no sample
 * yet, so the names are there from the first scrape), then its samples,
 * sockets in slot order. Returns 0, or -EIO if writing to @f failed.
 */
int metrics_render(const struct metrics_snapshot *s, FILE *f);

#endif /* IOCAD_METRICS_RENDER_H */
