/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What iocad's main() starts for [metrics]: the registry, its HTTP endpoint
 * and/or its textfile, fed by the loop's record_fn.
 */
#ifndef IOCAD_METRICS_EXPORTER_H
#define IOCAD_METRICS_EXPORTER_H

#include <stddef.h>

#include "config/config.h"
#include "loop/loop.h"
#include "platform.h"

struct metrics_exporter;

struct metrics_exporter_opts {
	size_t sz; /* sizeof(struct metrics_exporter_opts) */
	/* resolved config: [metrics], socket, llc_ways, interval_ms */
	const struct config *cfg;
	struct platform *pf; /* its trace columns become ioca_sim_*; may be NULL */
	loop_log_fn log;     /* where "serving ..." and textfile errors go; may be NULL */
	void *log_arg;
	size_t : 0;
};
#define metrics_exporter_opts__last_field log_arg

/*
 * Start what cfg's [metrics] asks for. Returns the exporter; NULL with
 * errno 0 when [metrics] asks for nothing; NULL with errno set and the
 * reason in @err when the endpoint cannot listen or the textfile cannot
 * be written (nothing is left running then).
 */
struct metrics_exporter *metrics_exporter_start(const struct metrics_exporter_opts *o, char *err,
						size_t len);

/* A loop_opts.record_fn: @arg is the exporter. */
void metrics_exporter_record(void *arg, const struct loop_record *r);

/* Stop serving and free; the textfile keeps the last interval. NULL is fine. */
void metrics_exporter_stop(struct metrics_exporter *e);

#endif /* IOCAD_METRICS_EXPORTER_H */
