// SPDX-License-Identifier: GPL-2.0
/*
 * Messages go to the print callback of the object they concern: two
 * runtimes in one process (two users of libspec) each hear only their own,
 * also from the compile thread and while both log at once; what is built on
 * a runtime hears through its callback unless its opts name another; an
 * object without a callback prints warnings to stderr; errno survives a
 * message.
 */
#include <errno.h>
#include <pthread.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "libspec/events.h"
#include "log.h"
#include "testutil.h"

#define NR_UNKNOWN 200

struct recorder {
	const char *tag, *other; /* its messages name tag; the other object's name other */
	pthread_mutex_t lock;
	pthread_t caller;	 /* the thread that drives the object */
	unsigned int own;	 /* warnings naming tag */
	unsigned int other_msgs; /* warnings naming the other object's tag */
	unsigned int unknown;	 /* "unknown label '<tag>_...'" warnings */
	unsigned int elsewhere;	 /* own warnings heard in another thread */
	char last[512];
};

static void record(enum libspec_print_level level, void *ctx, const char *fmt, va_list ap)
{
	struct recorder *r = ctx;
	char msg[512], unknown[64];

	vsnprintf(msg, sizeof(msg), fmt, ap);
	if (level != LIBSPEC_PRINT_WARN)
		return;
	snprintf(unknown, sizeof(unknown), "unknown label '%s_", r->tag);
	pthread_mutex_lock(&r->lock);
	if (strstr(msg, r->tag)) {
		r->own++;
		if (!pthread_equal(pthread_self(), r->caller))
			r->elsewhere++;
	}
	r->other_msgs += strstr(msg, r->other) != NULL;
	r->unknown += strstr(msg, unknown) != NULL;
	snprintf(r->last, sizeof(r->last), "%s", msg);
	pthread_mutex_unlock(&r->lock);
}

struct worker {
	struct recorder rec;
	struct spec_runtime *rt;
	pthread_barrier_t *start;
	int unknown_ret, compile_ret;
};

/* Warnings in the caller (unknown labels) and in the compile thread (a bad pipeline). */
static void *drive(void *arg)
{
	struct worker *w = arg;
	char label[64], pipeline[64];
	struct spec_config *cfg = spec_config__parse("eb=16");
	int i;

	snprintf(pipeline, sizeof(pipeline), "%s-no-such-pass", w->rec.tag);
	{
		LIBSPEC_OPTS(spec_specialize_opts, so, .pipeline = pipeline);

		pthread_barrier_wait(w->start);
		w->unknown_ret = 0;
		for (i = 0; i < NR_UNKNOWN; i++) {
			snprintf(label, sizeof(label), "%s_%d", w->rec.tag, i);
			if (spec_runtime__set_cleanup(w->rt, label, NULL, NULL) != -ENOENT)
				w->unknown_ret = -1;
		}
		w->compile_ret = cfg ? spec_runtime__specialize_sync(w->rt, cfg, &so) : -ENOMEM;
	}
	spec_config__free(cfg);
	return NULL;
}

static void worker_open(struct worker *w, const char *tag, const char *other,
			pthread_barrier_t *start)
{
	memset(w, 0, sizeof(*w));
	w->rec.tag = tag;
	w->rec.other = other;
	pthread_mutex_init(&w->rec.lock, NULL);
	w->start = start;
	{
		LIBSPEC_OPTS(spec_runtime_opts, o, .print = record, .print_ctx = &w->rec);

		w->rt = tu_open_loaded("points", &o);
	}
}

static void test_log_two_runtimes_each_hear_only_their_own(void **state)
{
	struct worker w[2];
	pthread_barrier_t start;
	pthread_t t[2];
	int i;

	(void)state;
	pthread_barrier_init(&start, NULL, 3);
	worker_open(&w[0], "alpha", "beta", &start);
	worker_open(&w[1], "beta", "alpha", &start);
	for (i = 0; i < 2; i++)
		assert_int_equal(pthread_create(&t[i], NULL, drive, &w[i]), 0);
	/* Known before either logs: both wait for this thread at the barrier. */
	for (i = 0; i < 2; i++)
		w[i].rec.caller = t[i];
	pthread_barrier_wait(&start);
	for (i = 0; i < 2; i++)
		assert_int_equal(pthread_join(t[i], NULL), 0);
	for (i = 0; i < 2; i++) {
		struct recorder *r = &w[i].rec;

		assert_int_equal(w[i].unknown_ret, 0);
		assert_int_equal(w[i].compile_ret, -EINVAL);
		assert_int_equal(r->unknown, NR_UNKNOWN);
		assert_int_equal(r->other_msgs, 0);
		/* The bad pipeline, named by the compile thread. */
		assert_true(r->own > NR_UNKNOWN);
		assert_true(r->elsewhere >= 1);
		spec_runtime__close(w[i].rt);
		pthread_mutex_destroy(&r->lock);
	}
	pthread_barrier_destroy(&start);
}

static void test_log_objects_on_a_runtime_use_its_callback_unless_they_name_one(void **state)
{
	struct recorder rt_rec = {.tag = "inherit", .other = "own-cb"};
	struct recorder ev_rec = {.tag = "own-cb", .other = "inherit"};
	struct spec_runtime *rt[2];
	struct spec_events *evs[2];
	int i;

	(void)state;
	pthread_mutex_init(&rt_rec.lock, NULL);
	pthread_mutex_init(&ev_rec.lock, NULL);
	rt_rec.caller = ev_rec.caller = pthread_self();
	for (i = 0; i < 2; i++) {
		LIBSPEC_OPTS(spec_runtime_opts, o, .print = record, .print_ctx = &rt_rec);

		rt[i] = spec_runtime__open(tu_ir("events"), &o);
		assert_non_null(rt[i]);
	}
	{
		LIBSPEC_OPTS(spec_events_opts, eo, .print = record, .print_ctx = &ev_rec);

		evs[0] = spec_events__new(rt[0], NULL);
		evs[1] = spec_events__new(rt[1], &eo);
	}
	assert_non_null(evs[0]);
	assert_non_null(evs[1]);
	/* Names with a tab are refused and named. */
	assert_null(spec_events__declare(evs[0], "inherit\tA"));
	assert_null(spec_events__declare(evs[1], "own-cb\tB"));
	assert_int_equal(rt_rec.own, 1);
	assert_int_equal(rt_rec.other_msgs, 0);
	assert_int_equal(ev_rec.own, 1);
	assert_int_equal(ev_rec.other_msgs, 0);
	for (i = 0; i < 2; i++) {
		spec_events__free(evs[i]);
		spec_runtime__close(rt[i]);
	}
	pthread_mutex_destroy(&rt_rec.lock);
	pthread_mutex_destroy(&ev_rec.lock);
}

static void quiet(enum libspec_print_level level, void *ctx, const char *fmt, va_list ap)
{
	(void)level;
	(void)ctx;
	(void)fmt;
	(void)ap;
}

/* What the process wrote to stderr while @fn ran. */
static void stderr_of(void (*fn)(void), char *buf, size_t size)
{
	char path[] = "/tmp/libspec-test-log-XXXXXX";
	int fd = mkstemp(path), saved;
	ssize_t n;

	assert_true(fd >= 0);
	fflush(stderr);
	saved = dup(2);
	assert_true(saved >= 0);
	assert_int_equal(dup2(fd, 2), 2);
	fn();
	fflush(stderr);
	assert_int_equal(dup2(saved, 2), 2);
	close(saved);
	n = pread(fd, buf, size - 1, 0);
	buf[n > 0 ? n : 0] = '\0';
	close(fd);
	unlink(path);
}

static void log_without_callbacks(void)
{
	LIBSPEC_OPTS(spec_config_parse_opts, silent, .print = quiet);
	struct spec_runtime *rt;

	assert_null(spec_config__parse("B=16,N"));
	assert_null(spec_config__parse_opts("B=16,M", &silent));
	/* Opening logs a debug line ("N handlers, M points"): dropped. */
	rt = spec_runtime__open(tu_ir("points"), NULL);
	assert_non_null(rt);
	assert_int_equal(spec_runtime__set_cleanup(rt, "no_such_point", NULL, NULL), -ENOENT);
	spec_runtime__close(rt);
}

static void test_log_null_callback_prints_warnings_to_stderr(void **state)
{
	char buf[4096];

	(void)state;
	stderr_of(log_without_callbacks, buf, sizeof(buf));
	assert_non_null(strstr(buf, "libspec: config: bad entry 'N' at offset 5"));
	assert_non_null(strstr(buf, "bare label 'N'"));
	assert_non_null(strstr(buf, "libspec: unknown label 'no_such_point'\n"));
	/* A callback that does nothing silences its object; debug is dropped. */
	assert_null(strstr(buf, "'M'"));
	assert_null(strstr(buf, "handlers,"));
}

static void clobber(enum libspec_print_level level, void *ctx, const char *fmt, va_list ap)
{
	int *seen = ctx;

	(void)level;
	(void)fmt;
	(void)ap;
	*seen = errno;
	errno = EDOM;
}

static void test_log_message_keeps_errno(void **state)
{
	int seen = 0;
	struct libspec_log log = {.fn = clobber, .ctx = &seen};
	LIBSPEC_OPTS(spec_runtime_opts, o, .print = clobber, .print_ctx = &seen);
	struct spec_runtime *rt;

	(void)state;
	errno = ENOENT;
	pr_warn(&log, "a warning with errno %d", ENOENT);
	assert_int_equal(seen, ENOENT);
	assert_int_equal(errno, ENOENT);
	errno = ERANGE;
	pr_debug(NULL, "the default, dropping a debug line");
	assert_int_equal(errno, ERANGE);
	/* Through the API: the failing call's errno, not the callback's. */
	rt = spec_runtime__open(tu_ir("points"), &o);
	assert_non_null(rt);
	seen = -1;
	assert_null(spec_runtime__handler(rt, "no_such_handler"));
	assert_int_equal(errno, ENOENT);
	assert_int_not_equal(seen, -1);
	spec_runtime__close(rt);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_log_two_runtimes_each_hear_only_their_own),
		cmocka_unit_test(
			test_log_objects_on_a_runtime_use_its_callback_unless_they_name_one),
		cmocka_unit_test(test_log_null_callback_prints_warnings_to_stderr),
		cmocka_unit_test(test_log_message_keeps_errno),
	};

	return cmocka_run_group_tests_name("log", tests, NULL, NULL);
}
