/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The daemon loop, the only place that does I/O:
 *   Get Tenant Info → LLC Alloc → (Poll → check → FSM → Re-alloc →
 *   shuffle → apply → wait)*
 * It runs on any struct platform (simulator or real host), logs one line
 * per interval through a callback, optionally writes a CSV trace, and can
 * collect per-interval records in memory (what the scenario tests read).
 *
 * Every socket with tenants is managed on its own (its own LLC, DDIO
 * mask, FSM state, history and plan) from one sample stream; the plan
 * handed to the platform covers them all. One record, log line and trace
 * row per socket per interval.
 *
 * Trace CSV (one header line, then one row per socket per interval):
 *   interval,socket,t_s,state,reason,ddio_ways,ddio_mask,ddio_hits,ddio_misses,
 *   ddio_outside, then per tenant of the starting config, in config order:
 *   <tenant>_ways,<tenant>_mask,<tenant>_ipc,<tenant>_llc_refs,<tenant>_llc_misses
 * interval counts from 0; socket is the socket's id; t_s is platform time
 * in seconds; state and reason
 * are fsm_state_name()/decide_reason_name(); masks are 0x-hex; hits, misses,
 * refs are counts within the interval; ipc = instructions/cycles;
 * ddio_outside is the mask iocad believed (0x-hex) when the platform's
 * turned out to have been changed by someone else this interval, else empty. A tenant
 * on another socket, or removed by a reload, leaves its cells empty; one
 * added later is not traced. ddio_hits and ddio_misses are empty in an
 * interval without DDIO counts (no DDIO decision was made).
 * Then the platform's own columns, if it has any (platform_ops.trace_columns;
 * the simulator's are listed in SIMULATOR.md).
 */
#ifndef IOCAD_LOOP_H
#define IOCAD_LOOP_H

#include <stddef.h>

#include "loop/loop_trace.h"
#include "loop/loop_types.h"
#include "platform.h"

/*
 * Run the loop on @pf (opened, not destroyed here). Records, if @out is
 * not NULL, the first @max records (one per socket per interval, sockets
 * ascending within an interval) into @out and their number into @nout. The platform is restored
 * before return in every case except dry-run (which never changed it). Returns 0 when the run ended
 * (max_intervals, PLATFORM_END, stop), or -errno (-EINVAL bad opts or config that does not fit the
 * platform, or the platform's error); failures are also logged.
 */
int loop_run(const struct loop_opts *opts, struct platform *pf, struct loop_record *out, size_t max,
	     size_t *nout);

#endif /* IOCAD_LOOP_H */
