// SPDX-License-Identifier: GPL-2.0
/*
 * Runtime lifecycle and errors: clear messages for bad input, a failed
 * compile that keeps the running variant, the variant cache, async
 * specialization, symbols of the fixed code.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "points_fixed.h"
#include "testutil.h"

/* Not exported to dynamic symbols (static): must be defined explicitly. */
static long hidden_twice(long v)
{
	return 2 * v;
}

static void test_runtime_open_missing_file_names_it(void **state)
{
	char errbuf[256] = "";
	LIBSPEC_OPTS(spec_runtime_opts, opts, .errbuf = errbuf, .errbuf_sz = sizeof(errbuf),
		     .print = tu_print);

	(void)state;
	tu_capture();
	errno = 0;
	assert_null(spec_runtime__open("/nonexistent/handlers.ll", &opts));
	assert_int_equal(errno, ENOENT);
	assert_non_null(strstr(errbuf, "/nonexistent/handlers.ll"));
	assert_non_null(strstr(tu_last_msg(), "No such file"));
}

static void test_runtime_open_rejects_garbage_ir(void **state)
{
	char path[] = "/tmp/libspec-test-XXXXXX";
	int fd = mkstemp(path);
	char errbuf[512] = "";
	LIBSPEC_OPTS(spec_runtime_opts, opts, .errbuf = errbuf, .errbuf_sz = sizeof(errbuf),
		     .print = tu_print);

	(void)state;
	assert_true(fd >= 0);
	assert_int_equal(write(fd, "this is not IR\n", 15), 15);
	close(fd);
	tu_capture();
	errno = 0;
	assert_null(spec_runtime__open(path, &opts));
	assert_int_equal(errno, EINVAL);
	assert_non_null(strstr(errbuf, "not LLVM IR or bitcode"));
	assert_non_null(strstr(errbuf, path));
	unlink(path);
}

static void test_runtime_open_checks_opts(void **state)
{
	struct {
		struct spec_runtime_opts o;
		long future;
	} big = {.o = {.sz = sizeof(big), .print = tu_print}, .future = 1};
	struct spec_runtime_opts small = {.sz = 2};

	(void)state;
	tu_capture();
	assert_null(spec_runtime__open(tu_ir("points"), &big.o));
	assert_int_equal(errno, EINVAL);
	/* Refused, the opts' callback still hears why. */
	assert_non_null(strstr(tu_last_msg(), "unknown non-zero field"));
	assert_null(spec_runtime__open(tu_ir("points"), &small));
	assert_int_equal(errno, EINVAL);
}

static void test_runtime_unknown_handler_is_named(void **state)
{
	struct spec_runtime *rt = tu_open("points");
	char msg[256];

	(void)state;
	errno = 0;
	assert_null(spec_runtime__handler(rt, "no_such_handler"));
	assert_int_equal(errno, ENOENT);
	assert_int_equal(spec_runtime__last_error(rt, msg, sizeof(msg)), -ENOENT);
	assert_non_null(strstr(msg, "unknown handler 'no_such_handler'"));
	spec_runtime__close(rt);
}

static void test_runtime_bad_configs_are_rejected_with_reason(void **state)
{
	static const struct {
		const char *cfg;
		int err;
		const char *msg;
	} cases[] = {
		{"zz=1", -ENOENT, "unknown label 'zz'"},
		{"eb=3", -EINVAL, "value 3 for 'eb' (spec_enum at "},
		{"eb=3", -EINVAL, "is not one of {2, 4, 8, 16}"},
		{"rb=101", -ERANGE, "outside [-50, 100]"},
		{"rb=-51", -ERANGE, "'rb' (spec_range at "},
		{"small=1", -EINVAL, "spec_assume point"},
		{"eb+", -EINVAL, "needs a value"},
		{"small~4", -EINVAL, "no value to sample"},
	};
	struct spec_runtime *rt = tu_open("points");
	char msg[512];
	size_t i;

	(void)state;
	assert_int_equal(tu_specialize(rt, "eb=4"), 0);
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		assert_int_equal(tu_specialize(rt, cases[i].cfg), cases[i].err);
		assert_int_equal(errno, -cases[i].err);
		assert_int_equal(spec_runtime__last_error(rt, msg, sizeof(msg)), cases[i].err);
		if (!strstr(msg, cases[i].msg))
			fail_msg("%s: message \"%s\" lacks \"%s\"", cases[i].cfg, msg,
				 cases[i].msg);
		/* Nothing was half-applied. */
		spec_runtime__current(rt, msg, sizeof(msg));
		assert_string_equal(msg, "eb=4");
	}
	spec_runtime__close(rt);
}

static void test_runtime_compile_error_keeps_current_variant(void **state)
{
	struct spec_runtime *rt = tu_open("points");
	long (*f)(long, long) = spec_runtime__handler(rt, "pt_enum");
	struct spec_config *cfg = spec_config__parse("eb=8!noguard");
	LIBSPEC_OPTS(spec_specialize_opts, bad, .pipeline = "default<O2>,no-such-pass");
	struct spec_runtime_stats st;
	char msg[512];

	(void)state;
	assert_non_null(f);
	assert_int_equal(tu_specialize(rt, "eb=4!noguard"), 0);
	assert_int_equal(f(3, 8), points_enum_ref(3, 4));
	assert_int_equal(spec_runtime__specialize_sync(rt, cfg, &bad), -EINVAL);
	assert_int_equal(spec_runtime__last_error(rt, msg, sizeof(msg)), -EINVAL);
	assert_non_null(strstr(msg, "no-such-pass"));
	assert_non_null(strstr(msg, "current variant kept"));
	/* Still the eb=4 variant: the constant 4 is used for b=8. */
	assert_int_equal(f(3, 8), points_enum_ref(3, 4));
	spec_runtime__current(rt, msg, sizeof(msg));
	assert_string_equal(msg, "eb=4!noguard");
	/* A broken runtime-wide pipeline fails the same way. */
	assert_int_equal(spec_runtime__set_pipeline(rt, "bogus<O9>"), 0);
	assert_int_equal(spec_runtime__specialize_sync(rt, cfg, NULL), -EINVAL);
	assert_int_equal(f(3, 8), points_enum_ref(3, 4));
	assert_int_equal(spec_runtime__set_pipeline(rt, NULL), 0);
	assert_int_equal(spec_runtime__specialize_sync(rt, cfg, NULL), 0);
	assert_int_equal(f(3, 2), points_enum_ref(3, 8));
	assert_int_equal(spec_runtime__stats(rt, &st, sizeof(st)), 0);
	assert_int_equal(st.compile_failures, 2);
	spec_config__free(cfg);
	spec_runtime__close(rt);
}

static void test_runtime_cache_serves_repeated_configs(void **state)
{
	struct spec_runtime *rt = tu_open("points");
	void *h = spec_runtime__handler(rt, "pt_enum");
	struct spec_runtime_stats st;

	(void)state;
	assert_non_null(h);
	assert_int_equal(tu_specialize(rt, "eb=4"), 0);
	assert_int_equal(tu_specialize(rt, "eb=8,gn=3"), 0);
	assert_int_equal(tu_specialize(rt, "gn=3,eb=8"), 0); /* same, other order */
	assert_int_equal(tu_specialize(rt, "eb=4"), 0);
	assert_int_equal(tu_specialize(rt, ""), 0); /* the generic variant */
	assert_int_equal(spec_runtime__stats(rt, &st, sizeof(st)), 0);
	assert_int_equal(st.compiles, 3); /* generic, eb=4, eb=8,gn=3 */
	assert_int_equal(st.cache_hits, 3);
	assert_int_equal(st.swaps, 6);
	assert_true(st.last_compile_ns > 0);
	assert_ptr_equal(spec_runtime__handler(rt, "pt_enum"), h);
	spec_runtime__close(rt);
}

/*
 * The direct entry holds the generic function while the generic variant is
 * installed (for a handler a configuration leaves untouched too), the stub
 * otherwise, and follows every swap.
 */
static void test_runtime_handler_entry_follows_the_installed_variant(void **state)
{
	struct spec_runtime *rt = tu_open("points");
	void *const *e = spec_runtime__handler_entry(rt, "pt_enum");
	void *const *other = spec_runtime__handler_entry(rt, "pt_range");
	void *stub = spec_runtime__handler(rt, "pt_enum");
	long (*f)(long, long);
	void *generic, *other_generic;

	(void)state;
	assert_non_null(e);
	assert_non_null(other);
	generic = spec_entry_load(e);
	other_generic = spec_entry_load(other);
	assert_non_null(generic);
	assert_ptr_not_equal(generic, stub);
	assert_ptr_not_equal(other_generic, spec_runtime__handler(rt, "pt_range"));
	f = (long (*)(long, long))generic;
	assert_int_equal(f(3, 8), points_enum_ref(3, 8));

	assert_int_equal(tu_specialize(rt, "eb=4!noguard"), 0);
	assert_ptr_equal(spec_entry_load(e), stub);
	f = (long (*)(long, long))spec_entry_load(e);
	assert_int_equal(f(3, 8), points_enum_ref(3, 4));
	/* pt_range has no eb point: still its generic code, no stub. */
	assert_ptr_equal(spec_entry_load(other), other_generic);

	assert_int_equal(tu_specialize(rt, ""), 0);
	assert_ptr_equal(spec_entry_load(e), generic);
	errno = 0;
	assert_null(spec_runtime__handler_entry(rt, "no_such_handler"));
	assert_int_equal(errno, ENOENT);
	spec_runtime__close(rt);
}

static void test_runtime_cache_is_bounded_and_frees_evicted(void **state)
{
	LIBSPEC_OPTS(spec_runtime_opts, opts, .max_variants = 3, .print = tu_print);
	struct spec_runtime *rt;
	long (*f)(long, long);
	struct spec_runtime_stats st;
	char cfg[32];
	int i;

	(void)state;
	tu_capture();
	rt = spec_runtime__open(tu_ir("points"), &opts);
	assert_non_null(rt);
	f = spec_runtime__handler(rt, "pt_enum");
	for (i = 0; i < 8; i++) {
		snprintf(cfg, sizeof(cfg), "gn=%d", i);
		assert_int_equal(tu_specialize(rt, cfg), 0);
		assert_int_equal(f(i, 4), points_enum_ref(i, 4));
	}
	spec_runtime__wait(rt);
	spec_runtime__stats(rt, &st, sizeof(st));
	assert_int_equal(st.compiles, 9);
	assert_int_equal(st.evictions, 9 - 3);
	/* No thread is inside a handler: every evicted variant is freed. */
	assert_int_equal(st.freed, st.evictions);
	assert_int_equal(st.live_variants, 3);
	spec_runtime__close(rt);
}

struct done_log {
	int calls, err;
};

static void on_done(void *ctx, int err)
{
	struct done_log *d = ctx;

	d->calls++;
	d->err = err;
}

static void test_runtime_async_specialize_reports_completion(void **state)
{
	struct spec_runtime *rt = tu_open("points");
	long (*f)(long, long) = spec_runtime__handler(rt, "pt_enum");
	struct spec_config *cfg = spec_config__parse("eb=16!noguard");
	struct done_log d = {0};
	LIBSPEC_OPTS(spec_specialize_opts, opts, .done = on_done, .done_ctx = &d);
	char text[64];

	(void)state;
	assert_int_equal(spec_runtime__specialize(rt, cfg, &opts), 0);
	assert_int_equal(spec_runtime__wait(rt), 0);
	assert_int_equal(d.calls, 1);
	assert_int_equal(d.err, 0);
	spec_runtime__current(rt, text, sizeof(text));
	assert_string_equal(text, "eb=16!noguard");
	assert_int_equal(f(1, 2), points_enum_ref(1, 16));
	/* Validation errors come back at once, not through the callback. */
	spec_config__set_value(cfg, "eb", 5);
	assert_int_equal(spec_runtime__specialize(rt, cfg, &opts), -EINVAL);
	spec_runtime__wait(rt);
	assert_int_equal(d.calls, 1);
	spec_config__free(cfg);
	spec_runtime__close(rt);
}

static void test_runtime_unresolved_symbol_is_named(void **state)
{
	struct spec_runtime *rt = tu_open("hidden");
	char msg[512];

	(void)state;
	errno = 0;
	assert_int_equal(spec_runtime__load(rt), -ENOENT);
	assert_int_equal(spec_runtime__last_error(rt, msg, sizeof(msg)), -ENOENT);
	assert_non_null(strstr(msg, "unresolved symbol 'hidden_twice'"));
	assert_null(spec_runtime__handler(rt, "hd_call"));
	assert_int_equal(errno, ENOENT);
	spec_runtime__close(rt);
}

static void test_runtime_define_symbol_resolves_statics(void **state)
{
	struct spec_runtime *rt = tu_open("hidden");
	long (*f)(long);

	(void)state;
	assert_int_equal(spec_runtime__define_symbol(rt, "hidden_twice", (void *)hidden_twice), 0);
	assert_int_equal(spec_runtime__define_symbol(rt, "hidden_twice", (void *)hidden_twice),
			 -EEXIST);
	f = spec_runtime__handler(rt, "hd_call");
	assert_non_null(f);
	assert_int_equal(f(20), 41);
	assert_int_equal(tu_specialize(rt, "ha=20"), 0);
	assert_int_equal(f(20), 41);
	assert_int_equal(f(21), 43);
	assert_int_equal(spec_runtime__define_symbol(rt, "other", (void *)hidden_twice), -EBUSY);
	spec_runtime__close(rt);
}

static void test_runtime_perf_map_lists_jit_code_with_sizes(void **state)
{
	LIBSPEC_OPTS(spec_runtime_opts, opts, .perf_map = true);
	unsigned long long addr, size, enum_size = 0;
	struct spec_runtime *rt;
	char path[64], name[128];
	int stub = 0, variant = 0;
	FILE *f;

	(void)state;
	snprintf(path, sizeof(path), "/tmp/perf-%d.map", (int)getpid());
	unlink(path);
	rt = spec_runtime__open(tu_ir("points"), &opts);
	assert_non_null(rt);
	assert_non_null(spec_runtime__handler(rt, "pt_enum"));
	assert_int_equal(tu_specialize(rt, "eb=8"), 0);
	f = fopen(path, "r");
	assert_non_null(f);
	while (fscanf(f, "%llx %llx %127s", &addr, &size, name) == 3) {
		assert_true(addr != 0);
		if (!strcmp(name, "pt_enum.v0"))
			enum_size = size;
		stub |= !strcmp(name, "pt_enum.stub");
		variant |= !strcmp(name, "pt_enum.v1");
	}
	fclose(f);
	unlink(path);
	/* Sizes come from the object files, not a placeholder. */
	assert_true(enum_size > 16 && enum_size < 4096);
	assert_true(stub);
	assert_true(variant);
	spec_runtime__close(rt);
}

static void test_runtime_null_arguments_are_einval(void **state)
{
	(void)state;
	assert_null(spec_runtime__open(NULL, NULL));
	assert_int_equal(errno, EINVAL);
	assert_null(spec_runtime__handler(NULL, "x"));
	assert_int_equal(errno, EINVAL);
	assert_int_equal(spec_runtime__specialize(NULL, NULL, NULL), -EINVAL);
	assert_int_equal(spec_runtime__load(NULL), -EINVAL);
	spec_runtime__close(NULL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_runtime_open_missing_file_names_it),
		cmocka_unit_test(test_runtime_open_rejects_garbage_ir),
		cmocka_unit_test(test_runtime_open_checks_opts),
		cmocka_unit_test(test_runtime_unknown_handler_is_named),
		cmocka_unit_test(test_runtime_bad_configs_are_rejected_with_reason),
		cmocka_unit_test(test_runtime_compile_error_keeps_current_variant),
		cmocka_unit_test(test_runtime_cache_serves_repeated_configs),
		cmocka_unit_test(test_runtime_handler_entry_follows_the_installed_variant),
		cmocka_unit_test(test_runtime_cache_is_bounded_and_frees_evicted),
		cmocka_unit_test(test_runtime_async_specialize_reports_completion),
		cmocka_unit_test(test_runtime_unresolved_symbol_is_named),
		cmocka_unit_test(test_runtime_define_symbol_resolves_statics),
		cmocka_unit_test(test_runtime_perf_map_lists_jit_code_with_sizes),
		cmocka_unit_test(test_runtime_null_arguments_are_einval),
	};

	return cmocka_run_group_tests_name("runtime", tests, NULL, NULL);
}
