// SPDX-License-Identifier: GPL-2.0
/*
 * After a rebinding of a merged event its raises take the generic path
 * (the guard on its bindings version fails) until the optimizer thread has
 * rebuilt the merged code: what such a raise costs, against generic
 * dispatch of the same bindings, and how long until merged code is back,
 * against the build's own compile time.
 */
#define _GNU_SOURCE /* RUSAGE_THREAD */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>

#include "bench_events.h"
#include "bench_rebind.h"
#include "bench_util.h"

#define ROUNDS 5

/* Involuntary context switches of this thread so far: a slow bind that
 * was preempted waited for the machine, not for libspec.
 */
static long preemptions(void)
{
	struct rusage ru;

	return getrusage(RUSAGE_THREAD, &ru) ? 0 : ru.ru_nivcsw;
}

/* Raise Seg2Net until it runs merged code again; ns waited, 0 on timeout. */
static uint64_t until_merged(struct ctp_stack *s, uint64_t since)
{
	int64_t seq = 5;

	while (!spec_event__is_merged(s->ev[CTP_SEG2NET])) {
		if (bench_ns() - since > 20000000000ull)
			return 0;
		spec_event__raise(s->ev[CTP_SEG2NET], &seq, 1);
	}
	return bench_ns() - since;
}

int bench_rebind(const char *ir)
{
	struct ctp_opts o = {
		.ir = ir, .frag = 96, .fec = true, .optimize = true, .sample_every = 64};
	struct ctp_opts g = o;
	double merged_ns = 1e18, stale_ns = 1e18, generic_ns = 1e18, back_ms[ROUNDS],
	       build_ms[ROUNDS], bind_us[ROUNDS], unbind_us[ROUNDS];
	struct spec_events_stats st;
	struct ctp_stack s, gs;
	int64_t seq = 5;
	int r, ret, bind_pre = 0, unbind_pre = 0;
	long pre;

	g.optimize = false;
	ret = ctp_open(&s, &o);
	if (!ret)
		ret = ctp_open(&gs, &g);
	if (ret)
		return ret;
	if (!until_merged(&s, bench_ns())) {
		fprintf(stderr, "events-bench: the optimizer never merged Seg2Net\n");
		return -ETIMEDOUT;
	}
	for (r = 0; r < ROUNDS; r++) {
		/* The clock starts before the bind: its own time counts. */
		long p0 = preemptions();
		uint64_t t0 = bench_ns(), t1;
		int64_t id = spec_event__bind(s.ev[CTP_SEG2NET], "ctp_stats", NULL);
		int64_t gid;
		double x;

		bind_us[r] = (double)(bench_ns() - t0) / 1e3;
		bind_pre += preemptions() != p0;
		gid = spec_event__bind(gs.ev[CTP_SEG2NET], "ctp_stats", NULL);

		/* Right after the bind (the guard fails, generic path), while the
		 * rebuild compiles: best of 5 batches of 200.
		 */
		x = bench_raise_ns(&s, CTP_SEG2NET, &seq, 1, 200, 5);
		stale_ns = x < stale_ns ? x : stale_ns;
		x = bench_raise_ns(&gs, CTP_SEG2NET, &seq, 1, 200, 5);
		generic_ns = x < generic_ns ? x : generic_ns;
		back_ms[r] = (double)until_merged(&s, t0) / 1e6;
		spec_events__stats(s.evs, &st, sizeof(st));
		build_ms[r] = (double)st.last_build_ns / 1e6;
		x = bench_raise_ns(&s, CTP_SEG2NET, &seq, 1, 2000, 5);
		merged_ns = x < merged_ns ? x : merged_ns;
		pre = preemptions();
		t1 = bench_ns();
		spec_event__unbind(s.ev[CTP_SEG2NET], id);
		unbind_us[r] = (double)(bench_ns() - t1) / 1e3;
		unbind_pre += preemptions() != pre;
		spec_event__unbind(gs.ev[CTP_SEG2NET], gid);
		until_merged(&s, bench_ns());
	}
	spec_events__stats(s.evs, &st, sizeof(st));
	printf("\nrebinding Seg2Net (bind ctp_stats) while merged, %d rounds (ns: best over "
	       "them):\n",
	       ROUNDS);
	printf("raise right after the bind (guard fails)  %7.1f ns   generic, same bindings "
	       "%7.1f ns (x%.2f)   merged again %7.1f ns\n",
	       stale_ns, generic_ns, stale_ns / generic_ns, merged_ns);
	printf("bind (us, a rebuild may be compiling):  ");
	for (r = 0; r < ROUNDS; r++)
		printf(" %.1f", bind_us[r]);
	printf("\nunbind (us):                           ");
	for (r = 0; r < ROUNDS; r++)
		printf(" %.1f", unbind_us[r]);
	printf("\n(preempted during %d of the binds, %d of the unbinds)", bind_pre, unbind_pre);
	printf("\ntime from bind until merged code is back (ms):");
	for (r = 0; r < ROUNDS; r++)
		printf(" %.1f", back_ms[r]);
	printf("\nthat round's background compile (ms):  ");
	for (r = 0; r < ROUNDS; r++)
		printf(" %.1f", build_ms[r]);
	printf("\n(builds %llu, of which stale %llu: bindings changed during the compile)\n",
	       (unsigned long long)st.builds, (unsigned long long)st.stale_builds);
	ctp_close(&s);
	ctp_close(&gs);
	return 0;
}
