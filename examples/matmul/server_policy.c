// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "server_policy.h"

struct spec_runtime *server_policy_open_runtime(const char *ir, libspec_print_fn_t print)
{
	char err[256] = "";
	LIBSPEC_OPTS(spec_runtime_opts, o, .errbuf = err, .errbuf_sz = sizeof(err), .print = print);
	struct spec_runtime *rt = spec_runtime__open(ir, &o);
	int ret;

	if (!rt) {
		fprintf(stderr, "matmul: cannot open %s: %s\n", ir, err[0] ? err : strerror(errno));
		return NULL;
	}
	ret = spec_runtime__load(rt);
	if (ret) {
		spec_runtime__last_error(rt, err, sizeof(err));
		fprintf(stderr, "matmul: cannot load %s: %s\n", ir, err[0] ? err : strerror(-ret));
		spec_runtime__close(rt);
		return NULL;
	}
	return rt;
}

static void *policy_thread(void *arg)
{
	struct server_policy *sp = arg;

	spec_policy_exhaustive__run(sp->pol);
	return NULL;
}

int server_policy_start(struct server_policy *sp, struct spec_runtime *rt, unsigned dwell_ms,
			double threshold, spec_metric_fn metric, void *ctx,
			enum spec_metric_mode mode, spec_policy_report_fn report, void *report_ctx)
{
	static const char *const search[] = {"B"}, *const observe[] = {"N"};
	LIBSPEC_OPTS(spec_policy_exhaustive_opts, o, .metric = metric, .metric_ctx = ctx,
		     .metric_mode = mode, .dwell_ns = dwell_ms * 1000000ull,
		     .warmup_ns = dwell_ms * 1000000ull / 5, .threshold = threshold,
		     /* two windows in a row: one noisy window is not a new workload */
		     .confirm_windows = 2, .labels = search, .nr_labels = 1,
		     /* any block size gives the same product: no guard on B */
		     .noguard_labels = search, .nr_noguard_labels = 1,
		     /* N = the size of >= 70% of the requests, when there is one:
		      * sampling every call costs nothing next to a multiply
		      */
		     .observe_labels = observe, .nr_observe_labels = 1, .observe_every = 1,
		     .report = report, .report_ctx = report_ctx);
	int ret;

	sp->pol = spec_policy_exhaustive__new(rt, &o);
	if (!sp->pol) {
		ret = -errno;
		fprintf(stderr, "matmul: policy: %s\n", strerror(-ret));
		return ret;
	}
	printf("policy: B in {2..64} x N in {generic, observed}; %u ms per candidate "
	       "(+%u ms warm-up), threshold %.0f%%\n",
	       dwell_ms, dwell_ms / 5, threshold * 100);
	ret = -pthread_create(&sp->th, NULL, policy_thread, sp);
	if (ret) {
		fprintf(stderr, "matmul: cannot start the policy thread\n");
		return ret;
	}
	sp->running = true;
	return 0;
}

void server_policy_stop(struct server_policy *sp)
{
	if (!sp->running)
		return;
	spec_policy_exhaustive__stop(sp->pol);
	pthread_join(sp->th, NULL);
	sp->running = false;
}

void server_policy_summary(struct server_policy *sp, struct spec_runtime *rt)
{
	struct spec_runtime_stats st;
	struct spec_config *best = NULL;
	uint64_t fails = 0;
	double score;
	char text[128];

	if (!spec_runtime__stats(rt, &st, sizeof(st)))
		printf("runtime: %llu compiles (%.1f ms mean), %llu cache hits, %llu swaps, "
		       "%llu variants freed\n",
		       (unsigned long long)st.compiles,
		       st.compiles ? st.total_compile_ns / 1e6 / (double)st.compiles : 0.0,
		       (unsigned long long)st.cache_hits, (unsigned long long)st.swaps,
		       (unsigned long long)st.freed);
	if (!spec_runtime__guard_failures(rt, "N", &fails))
		printf("runtime: %llu failed guards on N since the last observation phase "
		       "(each ran the generic version)\n",
		       (unsigned long long)fails);
	if (sp->pol && !spec_policy_exhaustive__best(sp->pol, &best, &score) &&
	    spec_config__format(best, text, sizeof(text)) >= 0)
		printf("chosen: %s (%.1f req/s when measured)\n", text, score);
	spec_config__free(best);
}

void server_policy_fini(struct server_policy *sp)
{
	server_policy_stop(sp);
	spec_policy_exhaustive__free(sp->pol);
	sp->pol = NULL;
}
