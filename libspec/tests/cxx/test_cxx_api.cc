// SPDX-License-Identifier: GPL-2.0
/*
 * The public headers from C++ (g++): LIBSPEC_OPTS, declaring and finding
 * events, the template raise path, merged code. A plain TAP program (no
 * cmocka), counted by scripts/testgroup.sh.
 */
#include <cerrno>
#include <cstdio>
#include <cstring>

#include <libspec/events.h>
#include <libspec/libspec.h>

// What tests/handlers/events.c's ev_add writes through ctx->user: the
// same layout as its struct ev_trace (whose C atomics C++ cannot name).
struct trace {
	uint64_t n;
	int64_t rec[8192][4];
	int64_t sum;
};

static trace t;
static int nr, failed;

static void ok(bool cond, const char *what)
{
	++nr;
	if (!cond)
		failed = 1;
	std::printf("%sok %d - %s\n", cond ? "" : "not ", nr, what);
}

static int64_t sum()
{
	return __atomic_load_n(&t.sum, __ATOMIC_RELAXED);
}

static void quiet(enum libspec_print_level, void *, const char *, va_list)
{
}

// The handler IR calls this hook (the C tests rebind from it).
extern "C" __attribute__((visibility("default"))) void ev_test_hook(int64_t)
{
}

enum class weight : short { light = 2, heavy = 9 };

int main()
{
	LIBSPEC_OPTS(spec_runtime_opts, ro, .print = quiet);
	LIBSPEC_OPTS(spec_events_opts, eo, .user = &t, .max_events = 8);
	LIBSPEC_OPTS(spec_bind_opts, bo, .order = 0, .args = {3, 4});
	struct spec_runtime *rt = spec_runtime__open(HANDLER_DIR "/events.ll", &ro);
	struct spec_events *evs;
	struct spec_event *a;
	int64_t before;

	ok(rt != nullptr, "runtime opened with LIBSPEC_OPTS from C++");
	if (!rt)
		return 1;
	ok(ro.sz == sizeof(struct spec_runtime_opts), "opts size set");
	evs = spec_events__new(rt, &eo);
	ok(evs != nullptr, "event system with C++ opts");
	if (!evs)
		return 1;
	a = spec_events__declare(evs, "A");
	ok(a != nullptr && spec_events__event(evs, "A") == a, "declared event is found");
	errno = 0;
	ok(spec_events__event(evs, "Typo") == nullptr && errno == ENOENT,
	   "an undeclared name is not created");
	ok(spec_event__bind(a, "ev_add", &bo) > 0, "bound with C++ bind opts");
	// ev_add: sum += bind[0] * args[0] + bind[1] = 3 * a0 + 4
	before = sum();
	ok(spec_event__raise_args(a, 5) == 0 && sum() - before == 19, "raise_args(int)");
	before = sum();
	ok(spec_event__raise4(a, (short)2, 0u, 0L, 0LL) == 0 && sum() - before == 10,
	   "raise4 with mixed integer types");
	before = sum();
	ok(spec_event__raise_args(a, weight::heavy, 1) == 0 && sum() - before == 31,
	   "raise_args with an enum");
	{
		LIBSPEC_OPTS(spec_merge_opts, mo, .events = &a, .nr_events = 1);

		ok(spec_events__merge(evs, &mo) == 1, "merged with C++ merge opts");
	}
	before = sum();
	ok(spec_event__raise_args(a, 1) == 0 && sum() - before == 7 && spec_event__is_merged(a),
	   "merged code runs");
	// Either order is fine: the runtime first here.
	spec_runtime__close(rt);
	before = sum();
	ok(spec_event__raise_args(a, 2) == 0 && sum() - before == 10,
	   "events work after the runtime was closed");
	spec_events__free(evs);
	std::printf("1..%d\n", nr);
	return failed;
}
