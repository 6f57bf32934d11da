// SPDX-License-Identifier: GPL-2.0
/*
 * What iocactl info prints about Intel I/O RDT: a host without an IRDT
 * table, one whose table cannot be read, and one with devices and links
 * (a table built as libioca's decoder tests build theirs), in the readable
 * lines and in info --json; every form says ioca does not allocate
 * through it.
 */
#include "../ctl/ctl_irdt.c"
#include "../../libioca/tests/irdt_build.c"

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <setjmp.h>
#include <cmocka.h>

static char *text;
static size_t text_len;

static FILE *open_out(void)
{
	FILE *f;

	free(text);
	text = NULL;
	f = open_memstream(&text, &text_len);
	assert_non_null(f);
	return f;
}

static void host_table(struct ctl_irdt *r)
{
	static const uint8_t vc[8] = {0x80, 0xc1};
	struct tb t;

	tb_begin(&t, 3, 2);
	tb_rmud(&t, 0);
	tb_dss(&t, 1, 0x17 << 8, 3, vc);
	tb_rcs(&t, 3, 0, 2, 0x6, 0x100, 0x200, 0x2000f0000000ull);
	tb_end_rmud(&t);
	tb_end(&t);
	r->t = ioca_irdt__decode(t.b, t.n, NULL);
	assert_non_null(r->t);
	r->err = 0;
}

static void test_ctl_irdt_none_and_unreadable(void **state)
{
	struct ctl_irdt r = {.err = -ENOENT};
	FILE *f = open_out();

	(void)state;
	ctl_irdt_print(f, &r);
	r.err = -EACCES;
	ctl_irdt_print(f, &r);
	fclose(f);
	assert_string_equal(text, "io-rdt: none (no ACPI IRDT table: the firmware describes no "
				  "Intel I/O RDT)\n"
				  "io-rdt: unknown (/sys/firmware/acpi/tables/IRDT is readable by "
				  "root only)\n");
	f = open_out();
	r.err = -ENOENT;
	ctl_irdt_json(f, &r);
	fclose(f);
	assert_non_null(strstr(text, "\"io_rdt\":{\"present\":false,\"errno\":2"));
}

static void test_ctl_irdt_devices_links_and_not_allocated(void **state)
{
	struct ctl_irdt r;
	FILE *f;

	(void)state;
	host_table(&r);
	f = open_out();
	ctl_irdt_print(f, &r);
	fclose(f);
	assert_string_equal(
		text,
		"io-rdt: io mon,ctl cache ctl, 1 devices, 1 links; ioca does not allocate through "
		"it: DDIO's ways are set through IIO_LLC_WAYS or resctrl's io_alloc\n"
		"io-rdt-device: 0000:17:00.0 endpoint channels 3/0 3/1(shared)\n"
		"io-rdt-link: segment 0000 rcs 3 pcie channels 2 clos-tagging yes rmid-tagging yes "
		"mmio 0x2000f0000000 clos-block +0x200\n");
	f = open_out();
	ctl_irdt_json(f, &r);
	fclose(f);
	assert_non_null(strstr(text, "\"present\":true,\"allocated_by_ioca\":false"));
	assert_non_null(strstr(text, "{\"device\":\"0000:17:00.0\",\"bridge\":false,\"channels\":"
				     "[{\"rcs\":3,\"channel\":0,\"shared\":false},"));
	assert_non_null(
		strstr(text, "\"interface\":\"pcie\",\"channels\":2,\"clos_tagging\":true"));
	ctl_irdt_free(&r);
	free(text);
	text = NULL;
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_ctl_irdt_none_and_unreadable),
		cmocka_unit_test(test_ctl_irdt_devices_links_and_not_allocated),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
