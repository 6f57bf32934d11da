// SPDX-License-Identifier: GPL-2.0
/*
 * A bind and unbind of Seg2Net on the CTP stack, timed pair by pair (a
 * quarter millisecond apart): with nothing else running, then while
 * another thread merges every event in a loop (the JIT busy all the
 * time). Ratios, not verdicts: on a shared machine the p99 is mostly
 * preemption.
 */
#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include <libspec/events.h>

#include "bench_bindlat.h"
#include "bench_util.h"
#include "ctp_stack.h"

#define PAIRS 4000
/* Between pairs, so that they spread over several merges (150-300 ms each). */
#define GAP_NS 250000

struct merger {
	struct ctp_stack *s;
	_Atomic bool stop;
	long merges;
};

static void *merge_loop(void *arg)
{
	struct merger *m = arg;
	LIBSPEC_OPTS(spec_merge_opts, o, .events = m->s->ev, .nr_events = CTP_NR_EVENTS);

	while (!atomic_load(&m->stop)) {
		if (spec_events__merge(m->s->evs, &o) < 0)
			break;
		m->merges++;
	}
	return NULL;
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/* p50 and p99 in us of PAIRS bind+unbind pairs. */
static int pairs(struct ctp_stack *s, double *p50, double *p99)
{
	uint64_t *lat = calloc(PAIRS, sizeof(*lat)), t0;
	int64_t id;
	int i;

	if (!lat)
		return -ENOMEM;
	for (i = 0; i < PAIRS; i++) {
		t0 = bench_ns();
		id = spec_event__bind(s->ev[CTP_SEG2NET], "ctp_stats", NULL);
		if (id < 0 || spec_event__unbind(s->ev[CTP_SEG2NET], id)) {
			free(lat);
			return id < 0 ? (int)id : -EINVAL;
		}
		lat[i] = bench_ns() - t0;
		nanosleep(&(struct timespec){.tv_nsec = GAP_NS}, NULL);
	}
	qsort(lat, PAIRS, sizeof(*lat), cmp_u64);
	*p50 = (double)lat[PAIRS / 2] / 1e3;
	*p99 = (double)lat[PAIRS * 99 / 100] / 1e3;
	free(lat);
	return 0;
}

int bench_bindlat(const char *ir)
{
	struct ctp_opts o = {.ir = ir, .frag = 96, .fec = true};
	double i50, i99, m50, m99;
	struct ctp_stack s;
	struct merger m = {.s = &s};
	pthread_t t;
	int ret;

	ret = ctp_open(&s, &o);
	if (ret)
		return ret;
	ret = pairs(&s, &i50, &i99);
	if (!ret && pthread_create(&t, NULL, merge_loop, &m))
		ret = -EAGAIN;
	if (!ret) {
		ret = pairs(&s, &m50, &m99);
		atomic_store(&m.stop, true);
		pthread_join(t, NULL);
	}
	if (!ret) {
		printf("\nbind+unbind of Seg2Net, %d pairs (us):  idle p50 %.1f p99 %.1f   "
		       "merges in flight (%ld) p50 %.1f p99 %.1f   (x%.2f, x%.2f)\n",
		       PAIRS, i50, i99, m.merges, m50, m99, m50 / i50, m99 / i99);
	}
	ctp_close(&s);
	return ret;
}
