// SPDX-License-Identifier: GPL-2.0
/*
 * A binary linked against LIBSPEC_EVENTS_0.2 calls the creating
 * spec_events__event; one linked now gets the finding one. Both in one
 * program through libspec.so, by symbol version. Prints TAP.
 */
#include <errno.h>
#include <stdio.h>

#include <libspec/events.h>

/* What an old binary's reference to spec_events__event binds to. */
struct spec_event *old_event(struct spec_events *evs, const char *name);
__asm__(".symver old_event, spec_events__event@LIBSPEC_EVENTS_0.2");

/* The test IR's handlers call this hook. */
void ev_test_hook(int64_t what);
void ev_test_hook(int64_t what)
{
	(void)what;
}

static void quiet(enum libspec_print_level level, void *ctx, const char *fmt, va_list ap)
{
	(void)level;
	(void)ctx;
	(void)fmt;
	(void)ap;
}

int main(void)
{
	LIBSPEC_OPTS(spec_runtime_opts, ro, .print = quiet);
	struct spec_runtime *rt = spec_runtime__open(HANDLER_DIR "/events.ll", &ro);
	struct spec_events *evs = rt ? spec_events__new(rt, NULL) : NULL;
	struct spec_event *made;
	int fail = 0;

	if (!evs) {
		printf("not ok 1 - runtime and event system\n1..1\n");
		return 1;
	}
	made = old_event(evs, "Fresh");
	fail |= !made;
	printf("%sok 1 - the old spec_events__event creates \"Fresh\"\n", made ? "" : "not ");
	fail |= spec_events__event(evs, "Fresh") != made;
	printf("%sok 2 - the new one finds it\n", fail ? "not " : "");
	errno = 0;
	if (spec_events__event(evs, "Other") || errno != ENOENT) {
		fail = 1;
		printf("not ok 3 - the new one creates nothing\n");
	} else {
		printf("ok 3 - the new one creates nothing\n");
	}
	printf("1..3\n");
	spec_events__free(evs);
	spec_runtime__close(rt);
	return fail;
}
