// SPDX-License-Identifier: GPL-2.0
/*
 * MMulBlockBench server (the Iridescent paper, Fig. 2b): the fixed code.
 *
 * A worker thread serves matrix-multiply requests in a loop through the
 * stable handler pointer from libspec and checks every answer; a policy
 * thread runs the exhaustive search over the block size B (crossed with
 * "N generic" and "N = first size") and installs the best by throughput.
 * Half-way the workload changes size: the throughput of the chosen variant
 * moves past the threshold and the policy searches again.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <getopt.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <libspec/libspec.h>
#include <libspec/metric.h>
#include <libspec/policy.h>

#include "handlers.h"
#include "server_policy.h"
#include "workload.h"

#ifndef MATMUL_IR
#define MATMUL_IR "build/handlers.ll"
#endif

typedef void (*matmul_fn)(const uint64_t *, const uint64_t *, uint64_t *, int, int);

struct server {
	matmul_fn mm;
	int b_default; /* B the fixed code passes: the generic version's choice */
	struct workload load[2];
	_Atomic int cur; /* which workload the requests come from */
	_Atomic uint64_t served, wrong;
	atomic_bool stop;
};

struct args {
	double seconds, switch_at, threshold;
	int n1, n2, native_b;
	bool verbose;
	unsigned dwell_ms;
	const char *ir;
	const char *metric; /* "requests" (default) or "ipc" */
};

/* What the policy's scores are in (the program's one setting for report). */
static const char *unit = "req/s";

static void *worker(void *arg)
{
	struct server *s = arg;
	size_t cells = 0;
	uint64_t *O = NULL;

	while (!atomic_load(&s->stop)) {
		const struct workload *w = &s->load[atomic_load(&s->cur)];
		size_t need = (size_t)w->n * (size_t)w->n;

		if (need > cells) {
			free(O);
			O = malloc(need * sizeof(*O));
			if (!O) {
				atomic_fetch_add(&s->wrong, 1);
				break;
			}
			cells = need;
		}
		memset(O, 0, need * sizeof(*O));
		s->mm(w->L, w->R, O, w->n, s->b_default);
		if (workload_checksum(O, w->n) != w->checksum)
			atomic_fetch_add(&s->wrong, 1);
		atomic_fetch_add(&s->served, 1);
	}
	free(O);
	return NULL;
}

/* Counter metric: the policy turns its increase into requests/s. */
static double served_count(void *ctx)
{
	struct server *s = ctx;

	return (double)atomic_load(&s->served);
}

/* @ctx: whether to print every watch window too */
static void report(void *ctx, enum spec_policy_event ev, const struct spec_policy_result *r)
{
	switch (ev) {
	case SPEC_POLICY_EXPLORE:
		printf("policy: exploring (observing N first)\n");
		break;
	case SPEC_POLICY_MEASURED:
		if (r->err)
			printf("  %-16s failed: %s\n", r->text[0] ? r->text : "(generic)",
			       strerror(-r->err));
		else
			printf("  %-16s %10.2f %s\n", r->text[0] ? r->text : "(generic)", r->score,
			       unit);
		break;
	case SPEC_POLICY_CHOSEN:
		printf("policy: chose %s (%.2f %s)\n", r->text, r->score, unit);
		break;
	case SPEC_POLICY_SHIFT:
		printf("policy: metric of %s moved to %.2f %s: searching again\n", r->text,
		       r->score, unit);
		break;
	case SPEC_POLICY_PERIOD:
		printf("policy: re-exploration period ended\n");
		break;
	case SPEC_POLICY_NONE_OK:
		printf("policy: every candidate failed\n");
		break;
	case SPEC_POLICY_WATCH:
		if (*(const bool *)ctx)
			printf("policy: watching %s: %.2f %s\n", r->text, r->score, unit);
		break;
	}
}

/* libspec's warnings and notes (the runtime's, its policy's, the counters'). */
static void print_libspec(enum libspec_print_level level, void *ctx, const char *fmt, va_list ap)
{
	(void)ctx;
	if (level == LIBSPEC_PRINT_DEBUG)
		return;
	fputs("libspec: ", stderr);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
}

static void sleep_until(double t0, double t)
{
	struct timespec now;
	double left;

	clock_gettime(CLOCK_MONOTONIC, &now);
	left = t - (now.tv_sec + now.tv_nsec / 1e9 - t0);
	if (left > 0) {
		struct timespec d = {(time_t)left, (long)((left - (time_t)left) * 1e9)};

		nanosleep(&d, NULL);
	}
}

static double mono(void)
{
	struct timespec now;

	clock_gettime(CLOCK_MONOTONIC, &now);
	return now.tv_sec + now.tv_nsec / 1e9;
}

/* Serve until the deadline, printing throughput and the installed variant. */
static void drive(struct server *s, struct spec_runtime *rt, const struct args *a)
{
	double t0 = mono(), t;
	uint64_t last = 0, now_served;
	char cur[128] = "native";

	for (t = 1; t <= a->seconds; t += 1) {
		if (t - 1 < a->switch_at && t >= a->switch_at) {
			sleep_until(t0, a->switch_at);
			atomic_store(&s->cur, 1);
			printf("workload: N changes from %d to %d\n", a->n1, a->n2);
		}
		sleep_until(t0, t);
		now_served = atomic_load(&s->served);
		if (rt && spec_runtime__current(rt, cur, sizeof(cur)) >= 0 && !cur[0])
			snprintf(cur, sizeof(cur), "(generic)");
		printf("t=%2.0fs N=%-4d %6.1f req/s  installed: %s\n", t,
		       s->load[atomic_load(&s->cur)].n, (double)(now_served - last), cur);
		last = now_served;
	}
}

static void usage(const char *prog)
{
	fprintf(stderr,
		"usage: %s [-d SECONDS] [-s SWITCH_AT] [-a N1] [-b N2] [-w DWELL_MS]\n"
		"          [-t THRESHOLD] [-i HANDLER_IR] [-n B] [-v] [--metric requests|ipc]\n"
		"  -n B  no JIT: the natively compiled handler with block size B\n"
		"  --metric ipc  choose B by instructions per cycle from ioca.ko's counters\n"
		"                (the module loaded; configures its sampler)\n"
		"  -v    also print every watch window of the chosen variant\n",
		prog);
}

static int parse_args(int argc, char **argv, struct args *a)
{
	static const struct option longs[] = {{"metric", required_argument, NULL, 'm'}, {0}};
	int c;

	*a = (struct args){.seconds = 20,
			   .switch_at = -1,
			   .threshold = 0.5,
			   .n1 = 256,
			   .n2 = 64,
			   .dwell_ms = 250,
			   .ir = MATMUL_IR,
			   .metric = "requests"};
	while ((c = getopt_long(argc, argv, "d:s:a:b:w:t:i:n:m:vh", longs, NULL)) != -1) {
		switch (c) {
		case 'm':
			a->metric = optarg;
			break;
		case 'd':
			a->seconds = atof(optarg);
			break;
		case 's':
			a->switch_at = atof(optarg);
			break;
		case 'a':
			a->n1 = atoi(optarg);
			break;
		case 'b':
			a->n2 = atoi(optarg);
			break;
		case 'w':
			a->dwell_ms = (unsigned)atoi(optarg);
			break;
		case 't':
			a->threshold = atof(optarg);
			break;
		case 'i':
			a->ir = optarg;
			break;
		case 'n':
			a->native_b = atoi(optarg);
			break;
		case 'v':
			a->verbose = true;
			break;
		default:
			usage(argv[0]);
			return -EINVAL;
		}
	}
	if (a->switch_at < 0)
		a->switch_at = a->seconds / 2;
	if (a->seconds <= 0 || a->n1 < 1 || a->n2 < 1 || a->n1 > 2048 || a->n2 > 2048 ||
	    !a->dwell_ms || a->native_b < 0 ||
	    (strcmp(a->metric, "requests") && strcmp(a->metric, "ipc"))) {
		fprintf(stderr,
			"%s: bad argument (sizes 1..2048, positive duration/dwell, "
			"--metric requests or ipc)\n",
			argv[0]);
		return -EINVAL;
	}
	return 0;
}

int main(int argc, char **argv)
{
	struct server s = {.b_default = 16};
	struct spec_runtime *rt = NULL;
	struct server_policy pr = {0};
	struct spec_counters *ipc = NULL;
	pthread_t th;
	struct args a;
	int ret = 1;

	setvbuf(stdout, NULL, _IOLBF, 0);
	if (parse_args(argc, argv, &a))
		return 2;
	if (workload_init(&s.load[0], a.n1, 1) || workload_init(&s.load[1], a.n2, 2)) {
		fprintf(stderr, "matmul: out of memory for the workloads\n");
		goto out;
	}
	if (a.native_b) {
		s.mm = matmul;
		s.b_default = a.native_b;
		printf("native handler, B=%d (no JIT)\n", a.native_b);
	} else {
		rt = server_policy_open_runtime(a.ir, print_libspec);
		if (!rt)
			goto out;
		s.mm = (matmul_fn)spec_runtime__handler(rt, "matmul");
		if (!s.mm) {
			fprintf(stderr, "matmul: no handler 'matmul' in %s: %s\n", a.ir,
				strerror(errno));
			goto out;
		}
	}
	if (rt && !strcmp(a.metric, "ipc")) {
		LIBSPEC_OPTS(spec_counters_opts, co, .configure = true, .interval_us = 10000,
			     .print = print_libspec);

		/* The hardware's view: instructions per cycle over each window. */
		ipc = spec_counters__open(SPEC_COUNTERS_IPC, &co);
		if (!ipc) {
			fprintf(stderr, "matmul: --metric ipc: %s\n", strerror(errno));
			goto out;
		}
		unit = "IPC";
	}
	if (pthread_create(&th, NULL, worker, &s)) {
		fprintf(stderr, "matmul: cannot start the worker\n");
		goto out;
	}
	if (rt && (ipc ? server_policy_start(&pr, rt, a.dwell_ms, a.threshold, spec_counters__read,
					     ipc, SPEC_METRIC_WINDOW, report, &a.verbose)
		       : server_policy_start(&pr, rt, a.dwell_ms, a.threshold, served_count, &s,
					     SPEC_METRIC_COUNTER, report, &a.verbose)))
		atomic_store(&s.stop, true);
	else
		drive(&s, rt, &a);
	server_policy_stop(&pr);
	atomic_store(&s.stop, true);
	pthread_join(th, NULL);
	printf("served %llu requests, %llu wrong answers\n",
	       (unsigned long long)atomic_load(&s.served),
	       (unsigned long long)atomic_load(&s.wrong));
	if (rt)
		server_policy_summary(&pr, rt);
	if (ipc)
		printf("ipc metric: %llu samples from ioca.ko\n",
		       (unsigned long long)spec_counters__samples(ipc));
	ret = atomic_load(&s.wrong) || !atomic_load(&s.served) ? 1 : 0;
out:
	server_policy_fini(&pr);
	spec_counters__close(ipc);
	spec_runtime__close(rt);
	workload_fini(&s.load[0]);
	workload_fini(&s.load[1]);
	return ret;
}
