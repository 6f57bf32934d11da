/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The metrics as a node_exporter textfile: written whole to a temporary
 * name in the same directory and renamed over PATH, so the collector never
 * reads half a file.
 */
#ifndef IOCAD_METRICS_TEXTFILE_H
#define IOCAD_METRICS_TEXTFILE_H

#include <stddef.h>

#include "metrics/metrics.h"

/* Whatever the umask: readable by node_exporter's own user. */
#define METRICS_TEXTFILE_MODE 0644

/*
 * Write @s to @path ("PATH.tmp.PID" first, then rename). Returns 0, or
 * -errno with the file and the reason in @err; @path is then unchanged.
 * The file is METRICS_TEXTFILE_MODE whatever the umask.
 */
int metrics_textfile_write(const struct metrics_snapshot *s, const char *path, char *err,
			   size_t len);

#endif /* IOCAD_METRICS_TEXTFILE_H */
