/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The matmul server's use of libspec: open the runtime, run the exhaustive
 * policy in its own thread (the paper's spec_policy(), Fig. 2b), and print
 * what the runtime did.
 */
#ifndef MATMUL_SERVER_POLICY_H
#define MATMUL_SERVER_POLICY_H

#include <pthread.h>
#include <stdbool.h>

#include <libspec/libspec.h>
#include <libspec/policy.h>

struct server_policy {
	struct spec_policy_exhaustive *pol;
	pthread_t th;
	bool running;
};

/*
 * Open and load the handler IR, libspec's messages to @print (the policy's
 * too); prints the reason and returns NULL on error.
 */
struct spec_runtime *server_policy_open_runtime(const char *ir, libspec_print_fn_t print);

/*
 * Search B in {2..64} x {N generic, N = the dominant observed size}, each
 * candidate measured for @dwell_ms by @metric (a request counter, or a
 * windowed metric such as IPC; @mode says which), searching again when it
 * moves by more than @threshold.
 * Returns 0 or -errno (printed).
 */
int server_policy_start(struct server_policy *sp, struct spec_runtime *rt, unsigned dwell_ms,
			double threshold, spec_metric_fn metric, void *ctx,
			enum spec_metric_mode mode, spec_policy_report_fn report, void *report_ctx);
void server_policy_stop(struct server_policy *sp);
/* Compile counts and times, guard failures, the final choice. */
void server_policy_summary(struct server_policy *sp, struct spec_runtime *rt);
void server_policy_fini(struct server_policy *sp);

#endif /* MATMUL_SERVER_POLICY_H */
