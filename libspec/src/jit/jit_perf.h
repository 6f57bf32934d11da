/* SPDX-License-Identifier: GPL-2.0 */
/* perf(1) map of JIT code: /tmp/perf-<pid>.map, sizes read from the objects. */
#ifndef LIBSPEC_JIT_PERF_H
#define LIBSPEC_JIT_PERF_H

#include "jit/jit_int.h"

/* Start writing the map and hook the object layer to learn symbol sizes. */
void jit_perf_open(struct jit *j);
void jit_perf_close(struct jit *j);
/* Append @name at @addr (no-op when the map is off). */
void jit_perf_note(struct jit *j, const char *name, uint64_t addr);

#endif /* LIBSPEC_JIT_PERF_H */
