/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Text output of the loop: the per-interval log line and the CSV trace
 * (columns documented in loop.h). loop_trace_header() and
 * loop_format_line() are declared in loop.h, their users' header.
 */
#ifndef IOCAD_LOOP_TRACE_H
#define IOCAD_LOOP_TRACE_H

#include <stdio.h>

#include "loop/loop_types.h"

/*
 * One CSV row; columns follow @traced's tenants, matched by name, then
 * @extra (the platform's own columns, "" or NULL for none).
 */
int loop_trace_row(FILE *f, const struct config *traced, const struct loop_record *r,
		   const char *extra);

/* The platform's own columns into @buf ("" if it has none or they do not fit). */
const char *loop_trace_platform(struct platform *pf, bool header, char *buf, size_t len);

/* Write the trace header for @cfg's tenants, then @extra (may be NULL). */
int loop_trace_header(FILE *f, const struct config *cfg, const char *extra);

/* Format the one log line of @r into @buf. */
void loop_format_line(const struct loop_record *r, char *buf, size_t len);

#endif /* IOCAD_LOOP_TRACE_H */
