// SPDX-License-Identifier: GPL-2.0
/*
 * Chain subsumption as the produced code shows it: in the merged entry of
 * IrX (IrX -> IrY -> IrZ, all merged) no raise call is left, no argument
 * record or context frame is on the stack, each inlined event's guard
 * reads its bindings version, the handlers are inlined, and a rebinding of
 * an inlined event is seen. The same checks run on code built with each
 * part switched off (test-only mutations) and must fail there: the checks
 * bite. The CTP case: every synchronous edge the profile marks hot between
 * merged events is inlined under its guard.
 */
#include <errno.h>
#include <inttypes.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "event_fixture.h"
#include "events/event_registry.h"
#include "jit/jit_event.h"
#include "testutil.h"

/* Unused here, defined for the handler IR (ev_rebind calls it). */
void ev_test_hook(int64_t what);
void ev_test_hook(int64_t what)
{
	(void)what;
}

enum {
	CHK_NO_RAISE = 1 << 0,	  /* no raise call left in the entry */
	CHK_NO_ALLOCA = 1 << 1,	  /* no record nor frame on the stack */
	CHK_GUARDS = 1 << 2,	  /* a version guard for each inlined event */
	CHK_INLINED = 1 << 3,	  /* no call of a merged-code function or handler */
	CHK_REBIND_SEEN = 1 << 4, /* a rebound inlined event runs its new bindings */
	CHK_SAME = 1 << 5,	  /* merged result equals generic dispatch */
};

/* The body of the function @name defines in @ir (a copy), or NULL. */
static char *function_body(const char *ir, const char *name)
{
	char head[128];
	const char *p, *end;
	char *body;

	snprintf(head, sizeof(head), "@%s(", name);
	for (p = strstr(ir, head); p; p = strstr(p + 1, head)) {
		const char *line = p;

		while (line > ir && line[-1] != '\n')
			line--;
		if (!strncmp(line, "define ", 7))
			break;
	}
	if (!p)
		return NULL;
	end = strstr(p, "\n}\n");
	if (!end)
		return NULL;
	body = strndup(p, (size_t)(end - p));
	assert_non_null(body);
	return body;
}

/* Guard of @ev: an acquire load of its version word at its fixed address. */
static bool has_guard(const char *body, const struct spec_event *ev)
{
	char want[96];

	snprintf(want, sizeof(want), "inttoptr (i64 %" PRIuPTR " to ptr) acquire",
		 (uintptr_t)&ev->version);
	return strstr(body, want) != NULL;
}

static int64_t raise_x(struct fix *f)
{
	int64_t i;

	atomic_store(&f->t->sum, 0);
	for (i = 0; i < 16; i++)
		assert_int_equal(spec_event__raise_args(f->a, i * 7 - 20, i * 1000 + 3), 0);
	return atomic_load(&f->t->sum);
}

/* IrX, IrY, IrZ as f->a, f->b, f->c, merged; the checks' failures. */
static unsigned int chain_checks(unsigned int mutate)
{
	struct spec_event *set[3];
	int64_t generic, merged, rebound, ref;
	unsigned int failed = 0;
	char name[64], *ir, *body;
	struct fix f;
	int64_t id;

	evfix_open_bare(&f, NULL);
	f.a = set[0] = spec_events__declare(f.evs, "IrX");
	f.b = set[1] = spec_events__declare(f.evs, "IrY");
	f.c = set[2] = spec_events__declare(f.evs, "IrZ");
	evfix_bind(f.a, "ev_fwd_y", 0, 3, 5);
	evfix_bind(f.a, "ev_add", 1, 2, 1);
	evfix_bind(f.b, "ev_fwd_z", 0, 7, 11);
	evfix_bind(f.c, "ev_add", 0, 13, 17);
	evfix_bind(f.c, "ev_add", 0, -5, 2);
	generic = raise_x(&f);
	f.evs->keep_ir = true;
	f.evs->test_mutate = mutate;
	{
		LIBSPEC_OPTS(spec_merge_opts, mo, .events = set, .nr_events = 3);

		assert_int_equal(spec_events__merge(f.evs, &mo), 3);
	}
	merged = raise_x(&f);
	if (merged != generic)
		failed |= CHK_SAME;
	/* Only IrZ changes: IrX's own guard passes, the inlined one must not. */
	id = evfix_bind(f.c, "ev_add", 0, 1000, 0);
	assert_true(spec_event__is_merged(f.a));
	rebound = raise_x(&f);
	assert_int_equal(spec_events__unmerge(f.evs), 0);
	ref = raise_x(&f);
	if (rebound != ref)
		failed |= CHK_REBIND_SEEN;
	assert_int_equal(spec_event__unbind(f.c, id), 0);

	pthread_mutex_lock(&f.evs->lock);
	ir = f.evs->last_ir;
	f.evs->last_ir = NULL;
	pthread_mutex_unlock(&f.evs->lock);
	assert_non_null(ir);
	snprintf(name, sizeof(name), "__ev.%u.m", f.a->idx);
	body = NULL;
	{
		/* The entry's name ends with the build id. */
		const char *p = strstr(ir, name);

		assert_non_null(p);
		snprintf(name, sizeof(name), "%.*s", (int)strcspn(p, "( "), p);
		body = function_body(ir, name);
	}
	assert_non_null(body);
	if (strstr(body, "@__spec_ev_raise("))
		failed |= CHK_NO_RAISE;
	if (strstr(body, " alloca "))
		failed |= CHK_NO_ALLOCA;
	if (!has_guard(body, f.b) || !has_guard(body, f.c) ||
	    !strstr(body, "@__spec_ev_raise_ev4("))
		failed |= CHK_GUARDS;
	/* The body starts after the entry's own name: any other reference to a
	 * merged-code function or a handler is a call (fastcc or not).
	 */
	if (strstr(body, " @__ev.") || strstr(body, "@ev_fwd_") || strstr(body, "@ev_add"))
		failed |= CHK_INLINED;
	if (failed)
		print_message("mutation %#x: checks failed %#x\n", mutate, failed);
	free(body);
	free(ir);
	evfix_close(&f);
	return failed;
}

static void test_event_ir_subsumed_chain_is_inlined_guarded_unmarshalled(void **state)
{
	(void)state;
	assert_int_equal(chain_checks(0), 0);
}

/* Each part switched off fails the check that is about it. */
static void test_event_ir_checks_fail_on_each_mutation(void **state)
{
	static const struct {
		unsigned int mutate, must_fail;
	} m[] = {
		{JIT_EV_MUT_NO_REWRITE, CHK_NO_RAISE},
		{JIT_EV_MUT_NO_GUARD, CHK_GUARDS | CHK_REBIND_SEEN},
		{JIT_EV_MUT_MARSHAL, CHK_NO_ALLOCA},
		{JIT_EV_MUT_NO_INLINE, CHK_INLINED},
	};
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(m) / sizeof(m[0]); i++) {
		unsigned int failed = chain_checks(m[i].mutate);

		if ((failed & m[i].must_fail) != m[i].must_fail)
			fail_msg("mutation %#x: checks failed %#x, expected %#x among them",
				 m[i].mutate, failed, m[i].must_fail);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_event_ir_subsumed_chain_is_inlined_guarded_unmarshalled),
		cmocka_unit_test(test_event_ir_checks_fail_on_each_mutation),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
