// SPDX-License-Identifier: GPL-2.0
/*
 * The metrics' two outputs: the HTTP endpoint (libmicrohttpd on its own
 * thread) answers GET /metrics with the exposition format while the loop's
 * side keeps recording; the textfile is replaced whole, and a write that
 * fails leaves the previous file in place.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <pthread.h>
#include <setjmp.h>
#include <stdatomic.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cmocka.h>

#include "metrics/metrics.h"
#include "metrics_fx.h"
#include "metrics/metrics_http.h"
#include "metrics/metrics_textfile.h"

static const char cfg_text[] = "[platform]\nllc_ways = 11\n[tenant a]\ncpus = 0\nways = 2\n";

static int setup(void **state)
{
	struct metrics_fx *x = metrics_fx_new(cfg_text);

	x->r.ntenants = 1;
	strcpy(x->r.tenant[0].name, "a");
	*state = x;
	return 0;
}

static int teardown(void **state)
{
	metrics_fx_free(*state);
	return 0;
}

static void record(struct metrics_fx *x, uint64_t idx, uint64_t hits)
{
	x->r.index = idx;
	x->r.t_ns = (idx + 1) * 1000000000ull;
	x->r.ddio_hits = hits;
	metrics_record(&x->m, 0, &x->r);
}

static char *http(unsigned int port, const char *method, const char *path)
{
	return metrics_fx_http(port, method, path);
}

static unsigned int port_of(const struct metrics_http *h)
{
	const char *colon = strrchr(metrics_http_addr(h), ':');

	assert_non_null(colon);
	return (unsigned int)atoi(colon + 1);
}

static void test_metrics_http_serves_the_latest_snapshot(void **state)
{
	struct metrics_fx *x = *state;
	struct metrics_http *h;
	char err[256] = "", *resp, *body;

	h = metrics_http_start(&x->m, "127.0.0.1:0", NULL, err, sizeof(err));
	assert_non_null(h);
	assert_int_equal(strncmp(metrics_http_addr(h), "127.0.0.1:", 10), 0);
	assert_true(port_of(h) > 0);
	record(x, 0, 40);
	record(x, 1, 2);
	resp = http(port_of(h), "GET", "/metrics");
	assert_non_null(strstr(resp, " 200 "));
	assert_non_null(strstr(resp, "Content-Type: text/plain; version=0.0.4; charset=utf-8"));
	body = strstr(resp, "\r\n\r\n");
	assert_non_null(body);
	assert_int_equal(metrics_fx_value(body + 4, "ioca_ddio_hits_total{socket=\"0\"}"), 42);
	free(resp);
	record(x, 2, 8);
	resp = http(port_of(h), "GET", "/metrics");
	assert_int_equal(metrics_fx_value(strstr(resp, "\r\n\r\n") + 4,
					  "ioca_ddio_hits_total{socket=\"0\"}"),
			 50);
	free(resp);
	metrics_http_stop(h);
}

static void test_metrics_http_other_paths_and_methods_are_refused(void **state)
{
	struct metrics_fx *x = *state;
	struct metrics_http *h;
	char err[256] = "", *resp;

	h = metrics_http_start(&x->m, "0", NULL, err, sizeof(err)); /* a bare port: loopback */
	assert_non_null(h);
	assert_int_equal(strncmp(metrics_http_addr(h), "127.0.0.1:", 10), 0);
	resp = http(port_of(h), "GET", "/");
	assert_non_null(strstr(resp, " 404 "));
	free(resp);
	resp = http(port_of(h), "DELETE", "/metrics");
	assert_non_null(strstr(resp, " 405 "));
	free(resp);
	metrics_http_stop(h);
}

static void test_metrics_http_refuses_a_taken_port_and_a_bad_address(void **state)
{
	struct metrics_fx *x = *state;
	struct metrics_http *h, *h2;
	char err[256] = "", addr[64];

	h = metrics_http_start(&x->m, "127.0.0.1:0", NULL, err, sizeof(err));
	assert_non_null(h);
	snprintf(addr, sizeof(addr), "%s", metrics_http_addr(h));
	h2 = metrics_http_start(&x->m, addr, NULL, err, sizeof(err));
	assert_null(h2);
	assert_non_null(strstr(err, "cannot listen on"));
	assert_non_null(strstr(err, addr));
	metrics_http_stop(h);
	h = metrics_http_start(&x->m, "nowhere:1", NULL, err, sizeof(err));
	assert_null(h);
	assert_int_equal(errno, EINVAL);
	assert_non_null(strstr(err, "metrics: listen 'nowhere:1'"));
}

struct scraper {
	unsigned int port;
	unsigned int bad; /* scrapes whose counters disagreed */
	unsigned int n;
	atomic_bool done;
};

/* Every scrape sees whole intervals: hits are always 10 x intervals. */
static void *scrape_loop(void *arg)
{
	struct scraper *s = arg;

	for (s->n = 0; s->n < 30; s->n++) {
		char *resp = http(s->port, "GET", "/metrics");
		const char *b = strstr(resp, "\r\n\r\n") + 4;

		if (metrics_fx_value(b, "ioca_ddio_hits_total{socket=\"0\"}") !=
		    10 * metrics_fx_value(b, "ioca_intervals_total{socket=\"0\"}"))
			s->bad++;
		free(resp);
	}
	atomic_store(&s->done, true);
	return NULL;
}

static void test_metrics_http_scrape_during_records_is_consistent(void **state)
{
	struct metrics_fx *x = *state;
	struct scraper s = {0};
	struct metrics_http *h;
	char err[256] = "";
	pthread_t t;

	h = metrics_http_start(&x->m, "127.0.0.1:0", NULL, err, sizeof(err));
	assert_non_null(h);
	s.port = port_of(h);
	assert_int_equal(pthread_create(&t, NULL, scrape_loop, &s), 0);
	/* the loop's side keeps recording for as long as scrapes come */
	for (uint64_t i = 0; !atomic_load(&s.done); i++)
		record(x, i, 10);
	pthread_join(t, NULL);
	assert_int_equal(s.n, 30);
	assert_int_equal(s.bad, 0);
	metrics_http_stop(h);
}

static void test_metrics_textfile_is_replaced_whole(void **state)
{
	struct metrics_fx *x = *state;
	struct metrics_snapshot *snap = malloc(sizeof(*snap));
	char dir[] = "/tmp/ioca-textfile-XXXXXX", path[128], err[256] = "", text[1 << 16];
	FILE *f;
	size_t n;

	assert_non_null(snap);
	assert_non_null(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/ioca.prom", dir);
	record(x, 0, 5);
	metrics_copy(&x->m, snap);
	assert_int_equal(metrics_textfile_write(snap, path, err, sizeof(err)), 0);
	f = fopen(path, "r");
	assert_non_null(f);
	n = fread(text, 1, sizeof(text) - 1, f);
	text[n] = '\0';
	fclose(f);
	assert_int_equal(metrics_fx_value(text, "ioca_ddio_hits_total{socket=\"0\"}"), 5);
	/* no temporary left beside it */
	snprintf(text, sizeof(text), "%s.tmp.%ld", path, (long)getpid());
	assert_int_equal(access(text, F_OK), -1);
	/* a directory that refuses the temporary: an error, the old file stays */
	assert_int_equal(chmod(dir, 0500), 0);
	record(x, 1, 5);
	metrics_copy(&x->m, snap);
	if (geteuid() != 0) {
		assert_int_equal(metrics_textfile_write(snap, path, err, sizeof(err)), -EACCES);
		assert_non_null(strstr(err, "metrics: textfile "));
	}
	chmod(dir, 0700);
	snprintf(text, sizeof(text), "%s/missing/ioca.prom", dir);
	assert_int_equal(metrics_textfile_write(snap, text, err, sizeof(err)), -ENOENT);
	assert_non_null(strstr(err, "missing/ioca.prom.tmp."));
	unlink(path);
	rmdir(dir);
	free(snap);
}

/* iocad's unit sets UMask=0077; node_exporter reads the file as user prometheus. */
static void test_metrics_textfile_is_world_readable_whatever_the_umask(void **state)
{
	struct metrics_fx *x = *state;
	char dir[] = "/tmp/ioca-umask-XXXXXX", path[64], err[256] = "";
	mode_t old = umask(0077);
	struct stat st;

	assert_non_null(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/ioca.prom", dir);
	/* single-threaded here: the registry's own snapshot needs no copy */
	for (int round = 0; round < 2; round++) {
		record(x, (uint64_t)round, 5);
		assert_int_equal(metrics_textfile_write(&x->m.snap, path, err, sizeof(err)), 0);
		assert_int_equal(stat(path, &st), 0);
		assert_int_equal(st.st_mode & 07777, 0644);
		chmod(path, 0600); /* an older, private file is replaced the same */
	}
	umask(old);
	unlink(path);
	rmdir(dir);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(
			test_metrics_textfile_is_world_readable_whatever_the_umask, setup,
			teardown),
		cmocka_unit_test_setup_teardown(test_metrics_http_serves_the_latest_snapshot, setup,
						teardown),
		cmocka_unit_test_setup_teardown(
			test_metrics_http_other_paths_and_methods_are_refused, setup, teardown),
		cmocka_unit_test_setup_teardown(
			test_metrics_http_refuses_a_taken_port_and_a_bad_address, setup, teardown),
		cmocka_unit_test_setup_teardown(
			test_metrics_http_scrape_during_records_is_consistent, setup, teardown),
		cmocka_unit_test_setup_teardown(test_metrics_textfile_is_replaced_whole, setup,
						teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
