// SPDX-License-Identifier: GPL-2.0
/* [device ADDR] sections: syntax, every error with file:line and value, no half updates. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "config/config.h"
#include "config_fx.h"
#include "config/config_device.h"

#define BASE              \
	"[platform]\n"    \
	"llc_ways = 11\n" \
	"[tenant db]\n"   \
	"cpus = 0\n"      \
	"ways = 2\n"      \
	"[tenant web]\n"  \
	"cpus = 1\n"      \
	"ways = 2\n"      \
	"priority = PS\n"

static void test_config_device_parses_every_value(void **u)
{
	static const char text[] = BASE "[device 0000:5E:00.0]\n"
					"kind = storage\n"
					"ddio = auto\n"
					"tenant = db\n"
					"[device 3b:00.1]\n"
					"ddio = off\n"
					"socket = 1\n"
					"[device 0001:17:1f.7]\n"
					"ddio = full-off\n"
					"[device 0000:18:00.0]\n"
					"ddio = on\n"
					"kind = network\n";
	char err[256] = "";
	int rc;
	struct config *c = config_fx_parse(text, err, sizeof(err), &rc);

	(void)u;
	assert_int_equal(rc, 0);
	assert_int_equal(c->ndevices, 4);
	assert_string_equal(c->device[0].addr, "0000:5e:00.0");
	assert_int_equal(c->device[0].ddio, CONFIG_DEV_DDIO_AUTO);
	assert_int_equal(c->device[0].kind, CONFIG_DEV_STORAGE);
	assert_string_equal(c->device[0].tenant, "db");
	assert_false(c->device[0].socket_set);
	assert_int_equal(c->device[0].line, 10);
	assert_string_equal(c->device[1].addr, "0000:3b:00.1");
	assert_int_equal(c->device[1].ddio, CONFIG_DEV_DDIO_OFF);
	assert_int_equal(c->device[1].kind, CONFIG_DEV_NETWORK);
	assert_true(c->device[1].socket_set);
	assert_int_equal(c->device[1].socket, 1);
	assert_int_equal(c->device[2].ddio, CONFIG_DEV_DDIO_FULL_OFF);
	assert_int_equal(c->device[3].ddio, CONFIG_DEV_DDIO_ON);
	/* the platform's values, so the loop hands them on as they are */
	assert_int_equal(CONFIG_DEV_DDIO_OFF, PLATFORM_DEV_DDIO_OFF);
	free(c);
}

static void test_config_device_errors_name_line_and_value(void **u)
{
	static const struct {
		const char *text;
		const char *err;
	} cases[] = {
		{BASE "[device 3b:00]\nddio = on\n",
		 "t.ini:10: [device 3b:00]: bad address: expected a PCI address DDDD:BB:DD.F"},
		{BASE "[device 0000:3b:20.0]\nddio = on\n", "t.ini:10: [device 0000:3b:20.0]: bad "
							    "address: device 20 is past 1f"},
		{BASE "[device 0000:3b:00.0]\nddio = maybe\n",
		 "t.ini:11: [device 0000:3b:00.0] ddio: bad value 'maybe': expected on, off, "
		 "full-off or auto"},
		{BASE "[device 0000:3b:00.0]\nddio = on\nkind = gpu\n",
		 "t.ini:12: [device 0000:3b:00.0] kind: bad value 'gpu': expected storage or "
		 "network"},
		{BASE "[device 0000:3b:00.0]\nddio = on\nspeed = 3\n",
		 "t.ini:12: [device 0000:3b:00.0] speed: unknown key"},
		{BASE "[device 0000:3b:00.0]\nddio = on\nddio = off\n",
		 "t.ini:12: ddio: given twice in this section"},
		{BASE "[device 0000:3b:00.0]\nkind = storage\n",
		 "t.ini:10: [device 0000:3b:00.0]: ddio missing"},
		{BASE "[device 0000:3b:00.0]\nddio = auto\n",
		 "t.ini:11: [device 0000:3b:00.0] ddio: auto is A4's rule for storage DMA"},
		{BASE "[device 0000:3b:00.0]\nddio = on\ntenant = nosuch\n",
		 "t.ini:12: [device 0000:3b:00.0] tenant: no tenant nosuch in this config"},
		{BASE "[device 0000:3b:00.0]\nddio = on\n[device 3b:00.0]\nddio = off\n",
		 "t.ini:12: [device 0000:3b:00.0] given twice (first at line 10)"},
		{BASE "[device 0000:3b:00.0]\nddio = on\nsocket = 9\n",
		 "t.ini:12: [device 0000:3b:00.0] socket: bad value '9'"},
	};

	(void)u;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char err[256] = "";
		int rc;
		struct config *c = config_fx_parse(cases[i].text, err, sizeof(err), &rc);

		if (rc != -22 || strncmp(err, cases[i].err, strlen(cases[i].err)))
			fail_msg("case %zu: rc %d, '%s', expected '%s'", i, rc, err, cases[i].err);
		assert_int_equal(c->ntenants, CONFIG_FX_MARKER); /* nothing changed */
		free(c);
	}
}

static void test_config_device_tenant_may_be_a_dropin(void **u)
{
	static const char text[] = "[platform]\n"
				   "tenants_dir = /nonexistent/tenants.d\n"
				   "[tenant web]\ncpus = 1\nways = 2\n"
				   "[device 0000:3b:00.0]\nddio = auto\nkind = storage\n"
				   "tenant = later\n";
	char err[256] = "";
	int rc;
	struct config *c = config_fx_parse(text, err, sizeof(err), &rc);

	(void)u;
	assert_int_equal(rc, 0);
	assert_string_equal(c->device[0].tenant, "later");
	free(c);
}

static void test_config_device_not_in_a_dropin(void **u)
{
	static const char file[] = "[tenant x]\ncpus = 5\nways = 1\n[device 0000:3b:00.0]\n"
				   "ddio = off\n";
	char path[] = "/tmp/iocad-devXXXXXX", err[512] = "";
	struct config *base = malloc(sizeof(*base)), *out = malloc(sizeof(*out));
	int fd = mkstemp(path);
	FILE *f;

	(void)u;
	assert_non_null(base);
	assert_non_null(out);
	assert_true(fd >= 0);
	f = fdopen(fd, "w");
	assert_non_null(f);
	fputs(file, f);
	fclose(f);
	assert_int_equal(config_parse_string(BASE, "t.ini", base, err, sizeof(err)), 0);
	assert_int_equal(config_parse_tenants_file(path, base, out, err, sizeof(err)), -22);
	assert_non_null(strstr(err, ":4: [device 0000:3b:00.0]: a tenant file (tenants_dir) "
				    "holds only [tenant NAME] sections"));
	unlink(path);
	free(base);
	free(out);
}

static void test_config_device_addr_forms(void **u)
{
	char out[PLATFORM_PCI_ADDR_LEN], why[128];

	(void)u;
	assert_int_equal(config_device_addr("AB:1F.7", out, sizeof(out), why, sizeof(why)), 0);
	assert_string_equal(out, "0000:ab:1f.7");
	assert_int_equal(config_device_addr("0000:ab:1f.8", out, sizeof(out), why, sizeof(why)),
			 -22);
	assert_int_equal(config_device_addr("0000:ab:1f.0x", out, sizeof(out), why, sizeof(why)),
			 -22);
	assert_int_equal(config_device_addr("000g:ab:1f.0", out, sizeof(out), why, sizeof(why)),
			 -22);
	assert_int_equal(config_device_addr("", out, sizeof(out), why, sizeof(why)), -22);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_config_device_parses_every_value),
		cmocka_unit_test(test_config_device_errors_name_line_and_value),
		cmocka_unit_test(test_config_device_tenant_may_be_a_dropin),
		cmocka_unit_test(test_config_device_not_in_a_dropin),
		cmocka_unit_test(test_config_device_addr_forms),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
