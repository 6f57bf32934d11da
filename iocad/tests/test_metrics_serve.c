// SPDX-License-Identifier: GPL-2.0
/*
 * The endpoint under clients that misbehave and checks that gate it:
 * stalled and flooding connections do not hold up a scrape, /healthz turns
 * 503 when the loop stops completing intervals, and basic auth refuses
 * what the web config does not name.
 */
#include <crypt.h>
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <cmocka.h>

#include "metrics/metrics.h"
#include "metrics/metrics_http.h"
#include "metrics_fx.h"

static const char cfg_text[] = "[platform]\nllc_ways = 11\n[tenant a]\ncpus = 0\nways = 2\n";

static int setup(void **state)
{
	*state = metrics_fx_new(cfg_text);
	return 0;
}

static int teardown(void **state)
{
	metrics_fx_free(*state);
	return 0;
}

static struct metrics_http *serve(struct metrics_fx *x, struct metrics_web *web)
{
	char err[256] = "";
	struct metrics_http *h = metrics_http_start(&x->m, "127.0.0.1:0", web, err, sizeof(err));

	if (!h)
		fail_msg("%s", err);
	return h;
}

static unsigned int port_of(const struct metrics_http *h)
{
	return (unsigned int)atoi(strrchr(metrics_http_addr(h), ':') + 1);
}

static double seconds(void)
{
	return (double)metrics_now_ns() / 1e9;
}

/* The status code of an HTTP response, 0 for none. */
static int status(const char *resp)
{
	int code = 0;

	sscanf(resp, "HTTP/1.%*d %d", &code);
	return code;
}

/*
 * With the @n clients of @fd holding connections, a scrape from @src (NULL:
 * any) answers 200 within a second; then the clients and @h go.
 */
static void scrape_past(struct metrics_http *h, int *fd, unsigned int n, const char *src,
			const char *what)
{
	double t0 = seconds(), took;
	char *resp = metrics_fx_http_raw(src, port_of(h),
					 "GET /metrics HTTP/1.0\r\nHost: localhost\r\n\r\n");

	took = seconds() - t0;
	print_message("scrape %s: %.3f s\n", what, took);
	assert_int_equal(status(resp), 200);
	assert_true(took < 1.0);
	free(resp);
	while (n--)
		close(fd[n]);
	metrics_http_stop(h);
}

/* Seen with a 16-connection cap and a 10 s timeout: 16 idle sockets held scrapes for 10 s. */
static void test_metrics_serve_scrapes_promptly_past_32_stalled_clients(void **state)
{
	struct metrics_fx *x = *state;
	struct metrics_http *h = serve(x, NULL);
	int fd[32];

	for (unsigned int i = 0; i < 32; i++) {
		fd[i] = metrics_fx_connect(NULL, port_of(h));
		/* half of them start a request and never finish it */
		if (i % 2)
			assert_int_equal(write(fd[i], "GET /metr", 9), 9);
	}
	scrape_past(h, fd, 32, NULL, "past 32 stalled clients");
}

/* One address opening more connections than there are slots gets 64; another still scrapes. */
static void test_metrics_serve_one_flooding_address_leaves_room_for_others(void **state)
{
	struct metrics_fx *x = *state;
	struct metrics_http *h = serve(x, NULL);
	int fd[300];

	for (unsigned int i = 0; i < 300; i++)
		fd[i] = metrics_fx_connect("127.0.0.1", port_of(h));
	scrape_past(h, fd, 300, "127.0.0.2", "beside 300 connections of another address");
}

/* The loop's latest interval or turn, 11 s back. */
static void last_progress_11s_ago(struct metrics *m)
{
	pthread_mutex_lock(&m->lock);
	m->progress_ns = metrics_now_ns() - 11000000000ull;
	pthread_mutex_unlock(&m->lock);
}

static void test_metrics_serve_healthz_fails_when_the_loop_is_stuck(void **state)
{
	struct metrics_fx *x = *state;
	struct metrics_http *h = serve(x, NULL);
	char *resp;

	metrics_set_stall(&x->m, 10000000000ull);
	resp = metrics_fx_http(port_of(h), "GET", "/healthz");
	assert_int_equal(status(resp), 200);
	free(resp);
	/* the loop's latest interval 11 s ago: stuck */
	last_progress_11s_ago(&x->m);
	resp = metrics_fx_http(port_of(h), "GET", "/healthz");
	assert_int_equal(status(resp), 503);
	assert_non_null(strstr(resp, "stuck: no interval or loop turn for 11."));
	free(resp);
	/* a loop that waits for the sampler still turns: not stuck */
	last_progress_11s_ago(&x->m);
	metrics_status(&x->m, &(struct loop_status){.turns = 1, .waiting = "the sampler"});
	resp = metrics_fx_http(port_of(h), "GET", "/healthz");
	assert_int_equal(status(resp), 200);
	free(resp);
	last_progress_11s_ago(&x->m);
	/* an interval completes: healthy again */
	x->r.index = 0;
	x->r.t_ns = 1;
	metrics_record(&x->m, 0, &x->r);
	resp = metrics_fx_http(port_of(h), "GET", "/healthz");
	assert_int_equal(status(resp), 200);
	free(resp);
	metrics_http_stop(h);
}

static void test_metrics_serve_healthy_is_within_the_stall_time(void **state)
{
	struct metrics_fx *x = *state;
	uint64_t t = x->m.progress_ns, idle;

	assert_true(metrics_healthy(&x->m, t + 1000000000000ull, NULL)); /* 0: never stuck */
	metrics_set_stall(&x->m, 5000);
	assert_true(metrics_healthy(&x->m, t + 5000, &idle));
	assert_int_equal(idle, 5000);
	assert_false(metrics_healthy(&x->m, t + 5001, &idle));
}

static char *with_auth(unsigned int port, const char *path, const char *b64)
{
	char req[256];

	snprintf(req, sizeof(req), "GET %s HTTP/1.0\r\nHost: x\r\n%s%s%s\r\n", path,
		 b64 ? "Authorization: Basic " : "", b64 ? b64 : "", b64 ? "\r\n" : "");
	return metrics_fx_http_raw(NULL, port, req);
}

static void test_metrics_serve_basic_auth_refuses_unknown_users(void **state)
{
	struct metrics_fx *x = *state;
	struct metrics_web web = {.nusers = 1};
	struct crypt_data cd = {0};
	struct metrics_http *h;
	char *resp;

	/* cost 4: the test's time, not the hash's strength, is what matters here */
	snprintf(web.user[0].name, sizeof(web.user[0].name), "prom");
	snprintf(web.user[0].hash, sizeof(web.user[0].hash), "%s",
		 crypt_r("s3cret",
			 crypt_gensalt_rn("$2b$", 4, NULL, 0, cd.setting, sizeof(cd.setting)),
			 &cd));
	assert_int_equal(strncmp(web.user[0].hash, "$2b$04$", 7), 0);
	h = serve(x, &web);
	resp = with_auth(port_of(h), "/metrics", NULL);
	assert_int_equal(status(resp), 401);
	assert_non_null(strstr(resp, "WWW-Authenticate: Basic realm=\"iocad\""));
	free(resp);
	resp = with_auth(port_of(h), "/metrics", "cHJvbTp3cm9uZw=="); /* prom:wrong */
	assert_int_equal(status(resp), 401);
	free(resp);
	resp = with_auth(port_of(h), "/metrics", "b3RoZXI6czNjcmV0"); /* other:s3cret */
	assert_int_equal(status(resp), 401);
	free(resp);
	resp = with_auth(port_of(h), "/metrics", "cHJvbTpzM2NyZXQ="); /* prom:s3cret */
	assert_int_equal(status(resp), 200);
	assert_non_null(strstr(resp, "ioca_intervals_total{socket=\"0\"} 0"));
	free(resp);
	/* probes carry no credentials */
	resp = with_auth(port_of(h), "/healthz", NULL);
	assert_int_equal(status(resp), 200);
	free(resp);
	metrics_http_stop(h);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(
			test_metrics_serve_scrapes_promptly_past_32_stalled_clients, setup,
			teardown),
		cmocka_unit_test_setup_teardown(
			test_metrics_serve_one_flooding_address_leaves_room_for_others, setup,
			teardown),
		cmocka_unit_test_setup_teardown(
			test_metrics_serve_healthz_fails_when_the_loop_is_stuck, setup, teardown),
		cmocka_unit_test_setup_teardown(test_metrics_serve_healthy_is_within_the_stall_time,
						setup, teardown),
		cmocka_unit_test_setup_teardown(test_metrics_serve_basic_auth_refuses_unknown_users,
						setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
