// SPDX-License-Identifier: GPL-2.0
/*
 * iocactl's command table drives dispatch and usage: each row is reached
 * by its words with the rest of argv, and help lists every row. The
 * handlers are stubs here that record what they were given.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define main iocactl_main
#include "../ctl/iocactl.c"
#undef main

#include <setjmp.h>
#include <cmocka.h>

static struct {
	const char *handler;
	int argc;
	char first[32];
} called;

#define STUB(name)                                                                       \
	int name(struct ctl_ctx *x, int argc, char **argv)                               \
	{                                                                                \
		(void)x;                                                                 \
		called.handler = #name;                                                  \
		called.argc = argc;                                                      \
		snprintf(called.first, sizeof(called.first), "%s", argc ? argv[0] : ""); \
		return 0;                                                                \
	}
STUB(ctl_cmd_info)
STUB(ctl_cmd_ddio_set)
STUB(ctl_cmd_ddio_restore)
STUB(ctl_cmd_ddio_device)
STUB(ctl_cmd_sampler_set)
STUB(ctl_cmd_sampler_start)
STUB(ctl_cmd_sampler_stop)
STUB(ctl_cmd_sample)
STUB(ctl_cmd_monitor)

static int run(const char *line)
{
	char buf[256], *argv[16];
	int argc = 0;
	char *tok, *save = NULL;

	snprintf(buf, sizeof(buf), "iocactl %s", line);
	for (tok = strtok_r(buf, " ", &save); tok && argc < 15; tok = strtok_r(NULL, " ", &save))
		argv[argc++] = tok;
	argv[argc] = NULL;
	memset(&called, 0, sizeof(called));
	return iocactl_main(argc, argv);
}

static void test_ctl_table_dispatches_by_words(void **state)
{
	(void)state;
	assert_int_equal(run("ddio set 0 ways 3"), 0);
	assert_string_equal(called.handler, "ctl_cmd_ddio_set");
	assert_int_equal(called.argc, 3);
	assert_string_equal(called.first, "0");
	assert_int_equal(run("ddio restore"), 0);
	assert_string_equal(called.handler, "ctl_cmd_ddio_restore");
	assert_int_equal(run("ddio device 0000:01:00.0 off"), 0);
	assert_string_equal(called.handler, "ctl_cmd_ddio_device");
	assert_int_equal(run("sampler stop"), 0);
	assert_string_equal(called.handler, "ctl_cmd_sampler_stop");
	assert_int_equal(run("info --json"), 0);
	assert_string_equal(called.handler, "ctl_cmd_info");
	assert_string_equal(called.first, "--json");
	assert_int_equal(run("monitor --count 2"), 0);
	assert_string_equal(called.handler, "ctl_cmd_monitor");
	assert_int_equal(called.argc, 2);
}

static void test_ctl_table_unknown_words_are_usage_errors(void **state)
{
	(void)state;
	assert_int_equal(run("ddio"), IOCACTL_EXIT_USAGE);
	assert_null(called.handler);
	assert_int_equal(run("ddio sets 0 ways 3"), IOCACTL_EXIT_USAGE);
	assert_null(called.handler);
	assert_int_equal(run("bogus"), IOCACTL_EXIT_USAGE);
	assert_int_equal(run(""), IOCACTL_EXIT_USAGE);
}

static void test_ctl_table_help_lists_every_row(void **state)
{
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);
	const struct ctl_cmd *c;

	(void)state;
	ctl_print_usage(f, NULL);
	fclose(f);
	for (c = ctl_cmds; c->name; c++) {
		char line[256];

		snprintf(line, sizeof(line), "iocactl %s", c->name);
		assert_non_null(strstr(text, line));
		assert_non_null(strstr(text, c->help));
		assert_non_null(c->handler);
	}
	free(text);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_ctl_table_dispatches_by_words),
		cmocka_unit_test(test_ctl_table_unknown_words_are_usage_errors),
		cmocka_unit_test(test_ctl_table_help_lists_every_row),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
