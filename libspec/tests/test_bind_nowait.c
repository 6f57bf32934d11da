// SPDX-License-Identifier: GPL-2.0
/*
 * Binds, unbinds, raises and handler lookups never wait for the compiler:
 * with a compile and a merge in flight and the JIT lock and the runtime's
 * bookkeeping lock held (as a compile and variant_reclaim() hold them),
 * every such call from the main thread completes without one contended
 * lock wait. Waits are counted, not timed: this program's
 * pthread_mutex_lock() (which the library linked into it calls) tries the
 * lock first and counts a failure on a watched thread before waiting.
 */
#include <dlfcn.h>
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>

#include <cmocka.h>

#include "event_fixture.h"
#include "events/event_registry.h"
#include "libspec/events.h"
#include "runtime.h"
#include "testutil.h"

/* glibc's (or a sanitizer's) entry, under the name this file takes over. */
static int (*real_lock)(pthread_mutex_t *m);
static _Thread_local bool watched;
static _Atomic uint64_t waits;
static void *_Atomic waited_on; /* the last lock a watched thread waited for */
/* Waits for these (the runtime's compile-side locks) are counted apart. */
static void *_Atomic runtime_locks[2];
static _Atomic uint64_t runtime_waits;

static void count_wait(void *what)
{
	atomic_fetch_add(&waits, 1);
	atomic_store(&waited_on, what);
	if (what == atomic_load(&runtime_locks[0]) || what == atomic_load(&runtime_locks[1]))
		atomic_fetch_add(&runtime_waits, 1);
}

int pthread_mutex_lock(pthread_mutex_t *m)
{
	int ret;

	if (watched) {
		ret = pthread_mutex_trylock(m);
		if (ret != EBUSY)
			return ret;
		count_wait(m);
	}
	if (!real_lock) {
		/* Only before find_real_lock() ran (dlsym() may lock). */
		while ((ret = pthread_mutex_trylock(m)) == EBUSY)
			sched_yield();
		return ret;
	}
	return real_lock(m);
}

static long (*real_syscall)(long nr, ...);
static _Atomic uint64_t membarriers;

/*
 * membarrier(2) waits for every CPU that runs a thread of the process: a
 * compile on the other CPU can make that milliseconds. Counted too.
 */
long syscall(long nr, ...)
{
	long a[6];
	va_list ap;
	int i;

	va_start(ap, nr);
	for (i = 0; i < 6; i++)
		a[i] = va_arg(ap, long);
	va_end(ap);
	if (watched && nr == SYS_membarrier)
		atomic_fetch_add(&membarriers, 1);
	return real_syscall(nr, a[0], a[1], a[2], a[3], a[4], a[5]);
}

__attribute__((constructor)) static void find_real_lock(void)
{
	real_lock = (int (*)(pthread_mutex_t *))dlsym(RTLD_NEXT, "pthread_mutex_lock");
	real_syscall = (long (*)(long, ...))dlsym(RTLD_NEXT, "syscall");
}

/* A condition wait on a watched thread is a wait too. */
int pthread_cond_wait(pthread_cond_t *c, pthread_mutex_t *m)
{
	static int (*real)(pthread_cond_t *, pthread_mutex_t *);

	if (!real)
		real = (int (*)(pthread_cond_t *, pthread_mutex_t *))dlvsym(
			RTLD_NEXT, "pthread_cond_wait", "GLIBC_2.3.2");
	if (watched)
		count_wait(c);
	return real(c, m);
}

/* Calls of the loop below, each of a bind, unbind, lookup and raise. */
#define ROUNDS 200
/*
 * The locks are held at most this long, so a call that waited would end
 * then (the old tree's binds did) and the test report it.
 */
#define HOLD_MS 3000
/*
 * Slowest call allowed: each is a few allocations, atomic loads and
 * stores and one handler call (microseconds); 50 ms leaves room for ASan
 * on a shared, loaded machine and is still far below HOLD_MS.
 */
#define BOUND_NS 50000000ull
/* How long the merge and compile threads get to reach the held locks. */
#define SETTLE_MS 300

/* tests/handlers/events.c calls it to rebind from a handler: not here. */
void ev_test_hook(int64_t what);
void ev_test_hook(int64_t what)
{
	(void)what;
}

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

static void sleep_ms(long ms)
{
	nanosleep(&(struct timespec){.tv_sec = ms / 1000, .tv_nsec = ms % 1000 * 1000000}, NULL);
}

struct holder {
	struct spec_runtime *rt;
	_Atomic int stage; /* 1: jit_lock held, 2: lock too, 3: released */
	_Atomic bool more, release;
};

/* Holds the JIT, then the bookkeeping lock, as a compile and reclaim do. */
static void *hold(void *arg)
{
	struct holder *h = arg;
	uint64_t end;

	pthread_mutex_lock(&h->rt->jit_lock);
	atomic_store(&h->stage, 1);
	while (!atomic_load(&h->more))
		sleep_ms(1);
	pthread_mutex_lock(&h->rt->lock);
	atomic_store(&h->stage, 2);
	for (end = now_ns() + HOLD_MS * 1000000ull; !atomic_load(&h->release) && now_ns() < end;)
		sleep_ms(1);
	atomic_store(&h->stage, 3);
	pthread_mutex_unlock(&h->rt->lock);
	pthread_mutex_unlock(&h->rt->jit_lock);
	return NULL;
}

static _Atomic bool merge_done, compile_done;

static void *merge_abc(void *arg)
{
	struct fix *f = arg;
	struct spec_event *set[] = {f->a, f->b, f->c};
	LIBSPEC_OPTS(spec_merge_opts, o, .events = set, .nr_events = 3);
	int ret = spec_events__merge(f->evs, &o);

	atomic_store(&merge_done, true);
	return (void *)(intptr_t)ret;
}

static void compiled(void *ctx, int result)
{
	(void)ctx;
	assert_int_equal(result, 0);
	atomic_store(&compile_done, true);
}

/* The slowest of ROUNDS binds, unbinds, lookups and raises (watched). */
static uint64_t service_calls(struct fix *f)
{
	LIBSPEC_OPTS(spec_bind_opts, o, .args = {40});
	uint64_t t0, dt, worst = 0;
	int64_t id;
	int i;

	watched = true;
	for (i = 0; i < ROUNDS; i++) {
		t0 = now_ns();
		id = spec_event__bind(f->d, "ev_rec", &o);
		assert_true(id > 0);
		assert_int_equal(spec_event__raise4(f->d, i, 0, 0, 0), 0);
		assert_int_equal(spec_event__unbind(f->d, id), 0);
		assert_non_null(spec_runtime__handler(f->rt, "ev_rec"));
		assert_non_null(spec_runtime__handler_entry(f->rt, "ev_to_b"));
		dt = now_ns() - t0;
		worst = dt > worst ? dt : worst;
	}
	watched = false;
	return worst;
}

static const char *lock_name(struct fix *f, void *m)
{
	if (m == &f->rt->lock)
		return "the runtime's lock";
	if (m == &f->rt->jit_lock)
		return "the JIT lock";
	if (m == &f->evs->lock)
		return "the bindings' lock";
	if (m == &f->evs->code_lock)
		return "the merged code's lock";
	return "another lock";
}

static void test_bind_never_waits_for_a_compile_or_its_bookkeeping(void **state)
{
	struct spec_config *cfg = spec_config__new();
	LIBSPEC_OPTS(spec_specialize_opts, so, .pipeline = "default<O2>", .done = compiled);
	struct holder h = {0};
	pthread_t th, tm;
	uint64_t worst;
	void *merged;
	struct fix f;
	int stage;

	(void)state;
	assert_non_null(cfg);
	evfix_open(&f, NULL);
	assert_int_equal(merge_abc(&f), (void *)3);
	atomic_store(&merge_done, false);
	h.rt = f.rt;
	assert_int_equal(pthread_create(&th, NULL, hold, &h), 0);
	while (atomic_load(&h.stage) != 1)
		sleep_ms(1);
	/* A compile the compile thread takes up and that waits in the JIT. */
	assert_int_equal(spec_runtime__specialize(f.rt, cfg, &so), 0);
	sleep_ms(SETTLE_MS);
	/* Then the bookkeeping lock too. */
	atomic_store(&h.more, true);
	while (atomic_load(&h.stage) != 2)
		sleep_ms(1);
	/* And a merge that waits for them, past its copy of the bindings. */
	assert_int_equal(pthread_create(&tm, NULL, merge_abc, &f), 0);
	sleep_ms(SETTLE_MS);
	atomic_store(&waits, 0);
	atomic_store(&membarriers, 0);
	worst = service_calls(&f);
	stage = atomic_load(&h.stage);
	/* Both still in flight when the last call returned. */
	assert_false(atomic_load(&merge_done));
	assert_false(atomic_load(&compile_done));
	atomic_store(&h.release, true);
	pthread_join(th, NULL);
	pthread_join(tm, &merged);
	assert_int_equal(spec_runtime__wait(f.rt), 0);
	assert_true(atomic_load(&compile_done));
	if (atomic_load(&waits))
		fail_msg("%lu lock waits on the caller's thread (last on %s)",
			 (unsigned long)atomic_load(&waits),
			 lock_name(&f, atomic_load(&waited_on)));
	/* Freeing replaced bindings is paid once per batch of rebindings. */
	if (atomic_load(&membarriers) > 2 * ROUNDS / EV_RECLAIM_BATCH + 1)
		fail_msg("%lu membarrier(2) calls in %d rebindings",
			 (unsigned long)atomic_load(&membarriers), 2 * ROUNDS);
	/* Otherwise the calls ran after the locks were free: proves nothing. */
	assert_int_equal(stage, 2);
	if (worst > BOUND_NS)
		fail_msg("slowest call %lu ns (bound %llu)", (unsigned long)worst, BOUND_NS);
	assert_int_equal(merged, (void *)3);
	print_message("slowest of %d bind/raise/unbind/lookup rounds: %lu us, %lu membarriers\n",
		      ROUNDS, (unsigned long)(worst / 1000),
		      (unsigned long)atomic_load(&membarriers));
	spec_config__free(cfg);
	evfix_close(&f);
}

/* Until told to stop: merges of A, B, C with and without subsumption. */
static void *merge_loop(void *arg)
{
	struct fix *f = arg;
	struct spec_event *set[] = {f->a, f->b, f->c};
	long n = 0;

	while (!atomic_load(&merge_done)) {
		LIBSPEC_OPTS(spec_merge_opts, o, .events = set, .nr_events = 3,
			     .no_subsume = n & 1);

		assert_int_equal(spec_events__merge(f->evs, &o), 3);
		n++;
	}
	return (void *)n;
}

/* Until told to stop: compiles at every level, evicting and reclaiming. */
static void *compile_loop(void *arg)
{
	static const char *const levels[] = {"default<O1>", "default<O2>", "default<O3>",
					     "default<Os>", "default<Oz>"};
	struct spec_config *cfg = spec_config__new();
	struct fix *f = arg;
	long n = 0;

	assert_non_null(cfg);
	while (!atomic_load(&compile_done)) {
		LIBSPEC_OPTS(spec_specialize_opts, o, .pipeline = levels[n % 5],
			     .fast_codegen = n / 5 % 2);

		assert_int_equal(spec_runtime__specialize_sync(f->rt, cfg, &o), 0);
		n++;
	}
	spec_config__free(cfg);
	return (void *)n;
}

/*
 * The same calls while merges and compiles (with evictions, so the compile
 * thread reclaims) run for real: none waits for a lock at all (a merge
 * copies the bindings inside the epoch, not under the bindings' lock).
 */
static void test_bind_never_waits_while_merges_and_compiles_run(void **state)
{
	void *merges, *compiles;
	uint64_t worst = 0, end, dt;
	pthread_t tm, tc;
	struct fix f;
	int rounds = 0;

	(void)state;
	evfix_open(&f, NULL);
	f.rt->max_variants = 3; /* set before the compile thread has work */
	atomic_store(&runtime_locks[0], (void *)&f.rt->lock);
	atomic_store(&runtime_locks[1], (void *)&f.rt->jit_lock);
	atomic_store(&merge_done, false);
	atomic_store(&compile_done, false);
	atomic_store(&waits, 0);
	atomic_store(&runtime_waits, 0);
	assert_int_equal(pthread_create(&tm, NULL, merge_loop, &f), 0);
	assert_int_equal(pthread_create(&tc, NULL, compile_loop, &f), 0);
	for (end = now_ns() + 2000000000ull; now_ns() < end; rounds++) {
		dt = service_calls(&f);
		worst = dt > worst ? dt : worst;
	}
	atomic_store(&merge_done, true);
	atomic_store(&compile_done, true);
	pthread_join(tm, &merges);
	pthread_join(tc, &compiles);
	/* Slowest round: preemption by the two busy threads on few CPUs. */
	print_message("%d x %d rounds beside %ld merges and %ld compiles: %lu lock waits (%lu "
		      "for the runtime's), slowest round %lu us\n",
		      rounds, ROUNDS, (long)merges, (long)compiles,
		      (unsigned long)atomic_load(&waits),
		      (unsigned long)atomic_load(&runtime_waits), (unsigned long)(worst / 1000));
	assert_true((long)merges > 0 && (long)compiles > 0);
	if (atomic_load(&waits))
		fail_msg("%lu lock waits on the caller's thread (last on %s)",
			 (unsigned long)atomic_load(&waits),
			 lock_name(&f, atomic_load(&waited_on)));
	atomic_store(&runtime_locks[0], NULL);
	atomic_store(&runtime_locks[1], NULL);
	evfix_close(&f);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_bind_never_waits_for_a_compile_or_its_bookkeeping),
		cmocka_unit_test(test_bind_never_waits_while_merges_and_compiles_run),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
