// SPDX-License-Identifier: GPL-2.0
/*
 * storage_* and antagonist_* keys: units, defaults, per-device overrides,
 * every refusal with file:line, key and value, the pairs, no half updates.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "config/config.h"
#include "config_fx.h"
#include "config/config_value.h"

#define TENANT          \
	"[tenant db]\n" \
	"cpus = 0\n"    \
	"ways = 2\n"

static void test_config_threshold_defaults_are_the_rules(void **u)
{
	char err[256] = "";
	int rc;
	struct config *c = config_fx_parse("[platform]\n" TENANT "[device 5e:00.0]\nddio = on\n",
					   err, sizeof(err), &rc);
	const struct decide_device_params *s = &c->thr.storage;
	const struct antagonist_params *a = &c->thr.antagonist;

	(void)u;
	assert_int_equal(rc, 0);
	assert_true(s->on_bytes == 200e6 && s->quiet_bytes == 20e6);
	assert_true(s->miss_high == 0.2 && s->miss_low == 0.05 && s->reread_high == 0.5);
	assert_int_equal(s->confirm, 3);
	assert_int_equal(s->dwell, 10);
	assert_true(a->l2_high == 0.9 && a->llc_high == 0.9);
	assert_true(a->l2_low == 0.7 && a->llc_low == 0.7);
	assert_true(a->min_l2_refs == 1e6);
	assert_int_equal(a->confirm, 3);
	/* a device without keys has [platform]'s */
	assert_memory_equal(&c->device[0].thr.storage, s, sizeof(*s));
	assert_int_equal(c->thr.keys, 0);
	free(c);
}

static void test_config_threshold_parses_units(void **u)
{
	static const char text[] = "[platform]\n"
				   "storage_off_rate = 1.5GB/s\n"
				   "storage_quiet_rate = 500KB/s\n"
				   "storage_miss_high = 0.3\n"
				   "storage_miss_low = 0.1\n"
				   "storage_reread = 2\n"
				   "storage_confirm = 5\n"
				   "storage_dwell = 0\n"
				   "antagonist_l2_high = 0.8\n"
				   "antagonist_llc_high = 0.85\n"
				   "antagonist_l2_low = 0.8\n"
				   "antagonist_llc_low = 0.6\n"
				   "antagonist_min_l2_rate = 2M\n"
				   "antagonist_confirm = 1\n" TENANT;
	char err[256] = "";
	int rc;
	struct config *c = config_fx_parse(text, err, sizeof(err), &rc);
	const struct decide_device_params *s = &c->thr.storage;
	const struct antagonist_params *a = &c->thr.antagonist;

	(void)u;
	if (rc)
		fail_msg("%s", err);
	assert_true(s->on_bytes == 1.5e9);
	assert_true(s->quiet_bytes == 5e5);
	assert_true(s->miss_high == 0.3 && s->miss_low == 0.1 && s->reread_high == 2);
	assert_int_equal(s->confirm, 5);
	assert_int_equal(s->dwell, 0);
	assert_true(a->l2_high == 0.8 && a->llc_high == 0.85);
	assert_true(a->l2_low == 0.8 && a->llc_low == 0.6);
	assert_true(a->min_l2_refs == 2e6);
	assert_int_equal(a->confirm, 1);
	assert_int_equal(c->thr.keys, (1u << CONFIG_THR_NKEYS) - 1);
	assert_int_equal(c->thr.line[0], 2);
	free(c);
}

static void test_config_threshold_rate_values(void **u)
{
	static const struct {
		const char *s;
		double v; /* < 0: refused */
	} cases[] = {
		{"200MB/s", 200e6}, {"1.5GB/s", 1.5e9}, {"20kB/s", 2e4}, {"64B/s", 64},
		{"0", 0},	    {"0B/s", 0},	{"200", -1},	 {"200M", -1},
		{"200Mb/s", -1},    {"200MB", -1},	{"-1MB/s", -1},	 {"B/s", -1},
		{"1TB/s", -1},	    {"", -1},
	};

	(void)u;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		double v = -7;
		char why[128] = "";
		int r = config_value_rate(cases[i].s, &v, why, sizeof(why));

		if (cases[i].v < 0) {
			if (!r || !why[0] || v != -7)
				fail_msg("'%s' taken as %g", cases[i].s, v);
		} else if (r || v != cases[i].v) {
			fail_msg("'%s': %d %g (%s), expected %g", cases[i].s, r, v, why,
				 cases[i].v);
		}
	}
}

static void test_config_threshold_device_overrides(void **u)
{
	static const char text[] = "[device 0000:5e:00.0]\n"
				   "kind = storage\n"
				   "ddio = auto\n"
				   "storage_off_rate = 1GB/s\n"
				   "storage_dwell = 30\n"
				   "[device 0000:5f:00.0]\n"
				   "kind = storage\n"
				   "ddio = auto\n"
				   "[platform]\n"
				   "storage_off_rate = 400MB/s\n"
				   "storage_miss_high = 0.4\n" TENANT;
	char err[256] = "";
	int rc;
	struct config *c = config_fx_parse(text, err, sizeof(err), &rc);

	(void)u;
	if (rc)
		fail_msg("%s", err);
	/* its own keys, the rest [platform]'s (wherever [platform] is in the file) */
	assert_true(c->device[0].thr.storage.on_bytes == 1e9);
	assert_int_equal(c->device[0].thr.storage.dwell, 30);
	assert_true(c->device[0].thr.storage.miss_high == 0.4);
	assert_true(c->device[0].thr.storage.quiet_bytes == 20e6);
	assert_true(c->device[1].thr.storage.on_bytes == 400e6);
	assert_int_equal(c->device[1].thr.storage.dwell, 10);
	assert_true(c->thr.storage.on_bytes == 400e6);
	assert_int_equal(c->thr.storage.dwell, 10);
	free(c);
}

static void test_config_threshold_refusals(void **u)
{
	static const struct {
		const char *text, *err;
	} cases[] = {
		{"[platform]\nstorage_off_rate = 200\n",
		 "t.ini:2: [platform] storage_off_rate: bad value '200': a bare number has no "
		 "unit: "
		 "write bytes per second with it, like 200MB/s"},
		{"[platform]\nstorage_quiet_rate = 20Mb/s\n",
		 "t.ini:2: [platform] storage_quiet_rate: bad value '20Mb/s': expected bytes per "
		 "second like 20MB/s, 500KB/s or 1.5GB/s"},
		{"[platform]\nstorage_off_rate = 5000GB/s\n",
		 "t.ini:2: [platform] storage_off_rate: bad value '5000GB/s': 5e+12B/s is outside "
		 "1000B/s..1e+12B/s"},
		{"[platform]\nstorage_off_rate = 0\n",
		 "t.ini:2: [platform] storage_off_rate: bad value '0': 0B/s is outside "
		 "1000B/s..1e+12B/s"},
		{"[platform]\nstorage_miss_high = 1.5\n",
		 "t.ini:2: [platform] storage_miss_high: bad value '1.5': out of range 0..1"},
		{"[platform]\nstorage_miss_low = low\n",
		 "t.ini:2: [platform] storage_miss_low: bad value 'low': expected a number 0..1"},
		{"[platform]\nstorage_reread = 101\n",
		 "t.ini:2: [platform] storage_reread: bad value '101': out of range 0..100"},
		{"[platform]\nstorage_confirm = 0\n",
		 "t.ini:2: [platform] storage_confirm: bad value '0': out of range 1..1000"},
		{"[platform]\nstorage_dwell = 10s\n",
		 "t.ini:2: [platform] storage_dwell: bad value '10s': expected a whole number "
		 "0..100000"},
		{"[platform]\nantagonist_l2_high = -0.1\n",
		 "t.ini:2: [platform] antagonist_l2_high: bad value '-0.1': out of range 0..1"},
		{"[platform]\nantagonist_llc_low = 2\n",
		 "t.ini:2: [platform] antagonist_llc_low: bad value '2': out of range 0..1"},
		{"[platform]\nantagonist_min_l2_rate = lots\n",
		 "t.ini:2: [platform] antagonist_min_l2_rate: bad value 'lots': expected a count "
		 "like 300, 32K or 2M"},
		{"[platform]\nantagonist_min_l2_rate = 2000G\n",
		 "t.ini:2: [platform] antagonist_min_l2_rate: bad value '2000G': 2e+12/s is "
		 "outside "
		 "0/s..1e+12/s"},
		{"[platform]\nantagonist_confirm = 1001\n",
		 "t.ini:2: [platform] antagonist_confirm: bad value '1001': out of range 1..1000"},
		{"[platform]\nstorage_dwell = 5\nmodel = slicing\nstorage_dwell = 6\n",
		 "t.ini:4: [platform] storage_dwell: given twice in this section (first at line "
		 "2)"},
		{"[platform]\nstorage_threshold = 5\n",
		 "t.ini:2: [platform] storage_threshold: unknown key"},
		/* the pairs, at the later key of the two */
		{"[platform]\nstorage_quiet_rate = 300MB/s\n",
		 "t.ini:2: [platform] storage_off_rate 200MB/s must be above storage_quiet_rate "
		 "300MB/s"},
		{"[platform]\nstorage_quiet_rate = 100MB/s\nstorage_off_rate = 100MB/s\n",
		 "t.ini:3: [platform] storage_off_rate 100MB/s must be above storage_quiet_rate "
		 "100MB/s"},
		{"[platform]\nstorage_miss_high = 0.05\n",
		 "t.ini:2: [platform] storage_miss_high 0.05 must be above storage_miss_low 0.05"},
		{"[platform]\nantagonist_l2_low = 0.95\n",
		 "t.ini:2: [platform] antagonist_l2_high 0.9 must be at least antagonist_l2_low "
		 "0.95"},
		{"[platform]\nantagonist_llc_high = 0.5\n",
		 "t.ini:2: [platform] antagonist_llc_high 0.5 must be at least antagonist_llc_low "
		 "0.7"},
		/* devices: storage keys only, checked with [platform]'s */
		{"[platform]\n[device 5e:00.0]\nddio = auto\nkind = storage\n"
		 "antagonist_confirm = 2\n",
		 "t.ini:5: [device 0000:5e:00.0] antagonist_confirm: unknown key (ddio, kind, "
		 "tenant, socket, storage_*)"},
		{"[platform]\n[device 5e:00.0]\nddio = auto\nkind = storage\n"
		 "storage_miss_low = 2\n",
		 "t.ini:5: [device 0000:5e:00.0] storage_miss_low: bad value '2': out of range "
		 "0..1"},
		{"[platform]\nstorage_off_rate = 1GB/s\n[device 5e:00.0]\nddio = auto\n"
		 "kind = storage\nstorage_quiet_rate = 1GB/s\n",
		 "t.ini:6: [device 0000:5e:00.0] storage_off_rate 1000MB/s must be above "
		 "storage_quiet_rate 1000MB/s (with [platform]'s)"},
		{"[platform]\n[device 5e:00.0]\nddio = auto\nkind = storage\n"
		 "storage_confirm = 2\nstorage_confirm = 2\n",
		 "t.ini:6: [device 0000:5e:00.0] storage_confirm: given twice in this section "
		 "(first at line 5)"},
	};

	(void)u;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char text[512], err[256] = "";
		int rc;
		struct config *c;

		snprintf(text, sizeof(text), "%s%s", cases[i].text, TENANT);
		c = config_fx_parse(text, err, sizeof(err), &rc);
		assert_int_equal(rc, -EINVAL);
		if (strcmp(err, cases[i].err))
			fail_msg("case %zu: '%s', expected '%s'", i, err, cases[i].err);
		/* nothing taken */
		assert_int_equal(c->ntenants, CONFIG_FX_MARKER);
		assert_true(c->thr.storage.on_bytes == 200e6);
		free(c);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_config_threshold_defaults_are_the_rules),
		cmocka_unit_test(test_config_threshold_parses_units),
		cmocka_unit_test(test_config_threshold_rate_values),
		cmocka_unit_test(test_config_threshold_device_overrides),
		cmocka_unit_test(test_config_threshold_refusals),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
