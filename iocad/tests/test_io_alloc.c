// SPDX-License-Identifier: GPL-2.0
/*
 * resctrl's io_alloc backend (host/io_alloc.c) against a temporary tree
 * shaped like /sys/fs/resctrl whose writes answer as Linux 6.19 does:
 * probing the four states, choosing the backend, enabling, per-domain
 * masks, refusals naming the file and last_cmd_status, and restore of
 * what was found. Also [platform] io_control in the config.
 */
#include <errno.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cmocka.h>

#include "config/config.h"
#include "io_alloc.h"
#include "fake_tree.h"
#include "rdt_info.h"

struct tree {
	char root[64];
	uint32_t cbm[2];    /* cache ids 0 and 1 */
	const char *refuse; /* refuse io_alloc_cbm writes with this status */
	int writes;
};

static void show_cbm(struct tree *t)
{
	char text[64];

	snprintf(text, sizeof(text), "0=%03x;1=%03x\n", t->cbm[0], t->cbm[1]);
	fake_tree_put(t->root, "info/L3/io_alloc_cbm", text);
}

/* The kernel's side: enable initialises the masks, cbm merges domains. */
static int tree_write(void *arg, const char *path, const char *data)
{
	struct tree *t = arg;
	char buf[128], *save = NULL, *tok;

	t->writes++;
	if (fake_tree_ends(path, "/info/L3/io_alloc")) {
		fake_tree_put(t->root, "info/L3/io_alloc",
			      data[0] == '1' ? "enabled\n" : "disabled\n");
		t->cbm[0] = t->cbm[1] = 0x7ff;
		show_cbm(t);
		return 0;
	}
	assert_true(fake_tree_ends(path, "/info/L3/io_alloc_cbm"));
	if (t->refuse) {
		fake_tree_put(t->root, "info/last_cmd_status", t->refuse);
		return -EINVAL;
	}
	assert_true(fake_tree_ends(data, "\n"));
	snprintf(buf, sizeof(buf), "%s", data);
	for (tok = strtok_r(buf, ";\n", &save); tok; tok = strtok_r(NULL, ";\n", &save)) {
		unsigned int id;
		unsigned int mask;

		assert_int_equal(sscanf(tok, "%u=%x", &id, &mask), 2);
		assert_true(id < 2);
		t->cbm[id] = mask;
	}
	show_cbm(t);
	return 0;
}

static int setup(void **state)
{
	struct tree *t = calloc(1, sizeof(*t));

	assert_non_null(t);
	fake_tree_make(t->root, sizeof(t->root), "iocad-ioa");
	fake_tree_mkdir(t->root, "info");
	fake_tree_mkdir(t->root, "info/L3");
	fake_tree_put(t->root, "info/last_cmd_status", "ok\n");
	fake_tree_put(t->root, "info/L3/io_alloc", "disabled\n");
	fake_tree_put(t->root, "info/L3/io_alloc_cbm", "");
	*state = t;
	return 0;
}

/* io_alloc over the tree, keeping its record of what it found at @record (or none) */
static struct io_alloc *open_recorded(struct tree *t, const char *record)
{
	char err[512] = "";
	struct io_alloc *ia = io_alloc_open(t->root, tree_write, t, record, err, sizeof(err));

	if (!ia)
		fail_msg("io_alloc_open: %s", err);
	return ia;
}

static struct io_alloc *open_tree(struct tree *t)
{
	return open_recorded(t, NULL);
}

static void test_io_alloc_probe_reads_every_state(void **state)
{
	struct tree *t = *state;
	static const struct {
		const char *text;
		enum io_alloc_state want;
	} cases[] = {
		{"enabled\n", IO_ALLOC_ENABLED},
		{"disabled\n", IO_ALLOC_DISABLED},
		{"not supported\n", IO_ALLOC_UNSUPPORTED},
	};
	enum io_alloc_state st;
	char err[256] = "", path[128];

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		fake_tree_put(t->root, "info/L3/io_alloc", cases[i].text);
		assert_int_equal(io_alloc_probe(t->root, &st, err, sizeof(err)), 0);
		assert_int_equal(st, cases[i].want);
	}
	fake_tree_put(t->root, "info/L3/io_alloc", "maybe\n");
	assert_int_equal(io_alloc_probe(t->root, &st, err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "info/L3/io_alloc: 'maybe' is none of"));
	snprintf(path, sizeof(path), "%s/info/L3/io_alloc", t->root);
	assert_int_equal(unlink(path), 0);
	assert_int_equal(io_alloc_probe(t->root, &st, err, sizeof(err)), 0);
	assert_int_equal(st, IO_ALLOC_ABSENT);
}

static void test_io_alloc_choose_follows_io_control(void **u)
{
	static const struct {
		enum io_control want;
		enum io_alloc_state st;
		int r;
		const char *err;
	} cases[] = {
		{IO_CONTROL_AUTO, IO_ALLOC_ABSENT, 0, NULL},
		{IO_CONTROL_AUTO, IO_ALLOC_UNSUPPORTED, 0, NULL},
		{IO_CONTROL_AUTO, IO_ALLOC_DISABLED, 1, NULL},
		{IO_CONTROL_AUTO, IO_ALLOC_ENABLED, 1, NULL},
		{IO_CONTROL_DDIO, IO_ALLOC_ENABLED, 0, NULL},
		{IO_CONTROL_IO_ALLOC, IO_ALLOC_DISABLED, 1, NULL},
		{IO_CONTROL_IO_ALLOC, IO_ALLOC_ABSENT, -ENODEV,
		 "/r/info/L3/io_alloc does not exist"},
		{IO_CONTROL_IO_ALLOC, IO_ALLOC_UNSUPPORTED, -ENODEV, "reads 'not supported'"},
	};
	char err[256];

	(void)u;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		err[0] = '\0';
		assert_int_equal(
			io_alloc_choose(cases[i].want, cases[i].st, "/r", err, sizeof(err)),
			cases[i].r);
		if (cases[i].err) {
			assert_non_null(strstr(err, cases[i].err));
			assert_non_null(strstr(err, "set io_control = ddio or auto"));
		}
	}
}

static void test_io_alloc_open_enables_and_restore_disables(void **state)
{
	struct tree *t = *state;
	struct io_alloc *ia = open_tree(t);
	char err[256] = "";
	uint32_t m;

	fake_tree_assert(t->root, "info/L3/io_alloc", "enabled\n");
	assert_false(io_alloc_found_enabled(ia));
	assert_true(io_alloc_changed(ia));
	assert_int_equal(io_alloc_mask(ia, 1, &m), 0);
	assert_int_equal(m, 0x7ff);
	assert_int_equal(io_alloc_mask(ia, 7, &m), -ENOENT);

	assert_int_equal(io_alloc_set(ia, 1, 0x700, err, sizeof(err)), 0);
	assert_int_equal(io_alloc_mask(ia, 1, &m), 0);
	assert_int_equal(m, 0x700);
	assert_int_equal(io_alloc_mask(ia, 0, &m), 0);
	assert_int_equal(m, 0x7ff); /* only the named domain */

	assert_int_equal(io_alloc_restore(ia, err, sizeof(err)), 0);
	fake_tree_assert(t->root, "info/L3/io_alloc", "disabled\n");
	assert_false(io_alloc_changed(ia));
	io_alloc_close(ia);
}

static void test_io_alloc_found_enabled_gets_its_masks_back(void **state)
{
	struct tree *t = *state;
	struct io_alloc *ia;
	char err[256] = "";

	fake_tree_put(t->root, "info/L3/io_alloc", "enabled\n");
	t->cbm[0] = 0x003;
	t->cbm[1] = 0x0f0;
	show_cbm(t);
	ia = open_tree(t);
	assert_int_equal(t->writes, 0); /* found on: nothing written by open */
	assert_true(io_alloc_found_enabled(ia));
	assert_false(io_alloc_changed(ia));
	assert_int_equal(io_alloc_set(ia, 0, 0x700, err, sizeof(err)), 0);
	assert_int_equal(io_alloc_set(ia, 1, 0x600, err, sizeof(err)), 0);
	assert_true(io_alloc_changed(ia));
	assert_int_equal(io_alloc_restore(ia, err, sizeof(err)), 0);
	fake_tree_assert(t->root, "info/L3/io_alloc_cbm", "0=003;1=0f0\n");
	fake_tree_assert(t->root, "info/L3/io_alloc", "enabled\n");
	io_alloc_close(ia);
}

static void test_io_alloc_refusal_names_file_value_and_status(void **state)
{
	struct tree *t = *state;
	struct io_alloc *ia = open_tree(t);
	char err[512] = "";
	uint32_t m;

	t->refuse = "The mask 505 has non-consecutive 1-bits\n";
	assert_int_equal(io_alloc_set(ia, 0, 0x505, err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "/info/L3/io_alloc_cbm: writing '0=505': Invalid argument: "
				    "The mask 505 has non-consecutive 1-bits"));
	t->refuse = NULL;
	assert_int_equal(io_alloc_mask(ia, 0, &m), 0);
	assert_int_equal(m, 0x7ff);
	io_alloc_close(ia);
}

static void test_io_alloc_open_refuses_unsupported_writing_nothing(void **state)
{
	struct tree *t = *state;
	char err[512] = "";

	fake_tree_put(t->root, "info/L3/io_alloc", "not supported\n");
	errno = 0;
	assert_null(io_alloc_open(t->root, tree_write, t, NULL, err, sizeof(err)));
	assert_int_equal(errno, ENODEV);
	assert_non_null(strstr(err, "reads 'not supported'"));
	assert_int_equal(t->writes, 0);
}

static void test_io_alloc_record_written_first_and_removed_by_restore(void **state)
{
	struct tree *t = *state;
	char record[128], text[64], err[512] = "";
	struct io_alloc *ia;

	snprintf(record, sizeof(record), "%s/io_alloc.found", t->root);
	ia = open_recorded(t, record);
	assert_false(io_alloc_from_record(ia));
	assert_int_equal(rdt_info_read_file(record, text, sizeof(text)), 0);
	assert_string_equal(text, "disabled\n\n");
	assert_int_equal(io_alloc_restore(ia, err, sizeof(err)), 0);
	assert_int_equal(rdt_info_read_file(record, text, sizeof(text)), -ENOENT);
	io_alloc_close(ia);
}

/* An iocad killed after enabling io_alloc: the next one puts back the first's find. */
static void test_io_alloc_record_of_a_dead_iocad_is_what_was_found(void **state)
{
	struct tree *t = *state;
	char record[128], err[512] = "";
	struct io_alloc *ia;

	snprintf(record, sizeof(record), "%s/io_alloc.found", t->root);
	ia = open_recorded(t, record);
	assert_int_equal(io_alloc_set(ia, 0, 0x700, err, sizeof(err)), 0);
	io_alloc_close(ia); /* no restore: killed */
	fake_tree_assert(t->root, "info/L3/io_alloc", "enabled\n");

	ia = open_recorded(t, record);
	assert_true(io_alloc_from_record(ia));
	assert_false(io_alloc_found_enabled(ia));
	assert_true(io_alloc_changed(ia));
	assert_int_equal(io_alloc_restore(ia, err, sizeof(err)), 0);
	fake_tree_assert(t->root, "info/L3/io_alloc", "disabled\n");
	io_alloc_close(ia);

	fake_tree_put(t->root, "io_alloc.found", "maybe\n");
	assert_null(io_alloc_open(t->root, tree_write, t, record, err, sizeof(err)));
	assert_non_null(strstr(err, "io_alloc.found: not what iocad writes: remove it"));
}

static void test_io_alloc_config_io_control(void **u)
{
	static const struct {
		const char *val;
		int want;
	} cases[] = {
		{"auto", CONFIG_IO_CONTROL_AUTO},
		{"ddio", CONFIG_IO_CONTROL_DDIO},
		{"io_alloc", CONFIG_IO_CONTROL_IO_ALLOC},
	};
	struct config *c = malloc(sizeof(*c));
	char text[128], err[512] = "";

	(void)u;
	assert_non_null(c);
	assert_int_equal(config_parse_string("[platform]\n[tenant a]\ncpus = 0\nways = 2\n",
					     "d.ini", c, err, sizeof(err)),
			 0);
	assert_int_equal(c->io_control, CONFIG_IO_CONTROL_AUTO);
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		snprintf(text, sizeof(text),
			 "[platform]\nio_control = %s\n[tenant a]\ncpus = 0\nways = 2\n",
			 cases[i].val);
		assert_int_equal(config_parse_string(text, "c.ini", c, err, sizeof(err)), 0);
		assert_int_equal(c->io_control, cases[i].want);
		/* the enums agree: the config's value is the host's */
		assert_int_equal(c->io_control, (int)(enum io_control)cases[i].want);
	}
	assert_int_equal(config_parse_string(
				 "[platform]\nio_control = msr\n[tenant a]\ncpus = 0\nways = 2\n",
				 "b.ini", c, err, sizeof(err)),
			 -EINVAL);
	assert_non_null(strstr(err, "b.ini:2: [platform] io_control: bad value 'msr': expected "
				    "auto, ddio or io_alloc"));
	free(c);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_io_alloc_probe_reads_every_state, setup,
						fake_tree_teardown),
		cmocka_unit_test(test_io_alloc_choose_follows_io_control),
		cmocka_unit_test_setup_teardown(test_io_alloc_open_enables_and_restore_disables,
						setup, fake_tree_teardown),
		cmocka_unit_test_setup_teardown(test_io_alloc_found_enabled_gets_its_masks_back,
						setup, fake_tree_teardown),
		cmocka_unit_test_setup_teardown(test_io_alloc_refusal_names_file_value_and_status,
						setup, fake_tree_teardown),
		cmocka_unit_test_setup_teardown(
			test_io_alloc_open_refuses_unsupported_writing_nothing, setup,
			fake_tree_teardown),
		cmocka_unit_test_setup_teardown(
			test_io_alloc_record_written_first_and_removed_by_restore, setup,
			fake_tree_teardown),
		cmocka_unit_test_setup_teardown(
			test_io_alloc_record_of_a_dead_iocad_is_what_was_found, setup,
			fake_tree_teardown),
		cmocka_unit_test(test_io_alloc_config_io_control),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
