// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/*
 * The IRDT decoder on tables built from the layout (irdt_build.c): a valid
 * table with two units, every truncation of it, lengths that lie at each
 * level, a bad checksum, structures of unknown types, and reading the
 * table from a file.
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
#include "irdt_build.h"
#include "libioca.h"
#include "msgs.h"

static const uint8_t two_valid[8] = {0x80, 0xc1, 0x02};

/* Segment 0: an endpoint, a bridge, a PCIe link; segment 1: a CXL link. */
static void host(struct tb *t)
{
	tb_begin(t, IOCA_IRDT_MON | IOCA_IRDT_CTL, IOCA_IRDT_CTL);
	tb_rmud(t, 0);
	tb_dss(t, 1, 0x17 << 8 | 0 << 3 | 0, 3, two_valid);
	tb_dss(t, 2, 0x16 << 8 | 1 << 3 | 0, 3, (const uint8_t[8]){0x80});
	tb_rcs(t, 3, 0, 2, 0x6, 0x100, 0x200, 0x2000f0000000ull);
	tb_end_rmud(t);
	tb_rmud(t, 1);
	tb_rcs(t, 0, 1, 1, 0x4 | 0x8, 0x10, 0x20, 0x3000a0000000ull);
	tb_end_rmud(t);
	tb_end(t);
}

static struct ioca_irdt *decode(const struct tb *t, size_t len, struct t_log *tl)
{
	IOCA_OPTS(ioca_irdt_opts, o, .print = t_print, .print_ctx = tl);
	/* a buffer of exactly @len bytes, so ASan sees any read past it */
	uint8_t *b = malloc(len ? len : 1);
	struct ioca_irdt *r;
	int e;

	memcpy(b, t->b, len);
	r = ioca_irdt__decode(b, len, &o);
	e = errno;
	free(b);
	errno = e;
	return r;
}

static void test_irdt_decodes_devices_channels_and_links(void **state)
{
	struct t_log tl = {0};
	const struct ioca_irdt_device *d;
	const struct ioca_irdt_link *l;
	struct ioca_irdt *r;
	struct tb t;
	size_t n;

	(void)state;
	host(&t);
	r = decode(&t, t.n, &tl);
	assert_non_null(r);
	assert_int_equal(ioca_irdt__io_flags(r), IOCA_IRDT_MON | IOCA_IRDT_CTL);
	assert_int_equal(ioca_irdt__cache_flags(r), IOCA_IRDT_CTL);
	d = ioca_irdt__devices(r, &n);
	assert_int_equal(n, 2);
	assert_int_equal(d[0].segment, 0);
	assert_int_equal(d[0].bus, 0x17);
	assert_int_equal(d[0].dev, 0);
	assert_false(d[0].bridge);
	assert_int_equal(d[0].nchannels, 2);
	assert_int_equal(d[0].channels[0].rcs, 3);
	assert_int_equal(d[0].channels[0].channel, 0);
	assert_false(d[0].channels[0].shared);
	assert_int_equal(d[0].channels[1].channel, 1);
	assert_true(d[0].channels[1].shared);
	assert_true(d[1].bridge);
	assert_int_equal(d[1].bus, 0x16);
	assert_int_equal(d[1].dev, 1);
	l = ioca_irdt__links(r, &n);
	assert_int_equal(n, 2);
	assert_int_equal(l[0].rcs, 3);
	assert_int_equal(l[0].interface, 0);
	assert_int_equal(l[0].nchannels, 2);
	assert_true(l[0].rmid_tagging);
	assert_true(l[0].clos_tagging);
	assert_false(l[0].regs_16bit);
	assert_int_equal(l[0].rmid_offset, 0x100);
	assert_int_equal(l[0].clos_offset, 0x200);
	assert_int_equal(l[0].mmio, 0x2000f0000000ull);
	assert_int_equal(l[1].rmud, 1);
	assert_int_equal(l[1].segment, 1);
	assert_int_equal(l[1].interface, 1);
	assert_false(l[1].rmid_tagging);
	assert_true(l[1].regs_16bit);
	assert_int_equal(tl.count, 0);
	ioca_irdt__free(r);
}

static void test_irdt_every_truncation_is_refused(void **state)
{
	struct t_log tl = {0};
	struct tb t;

	(void)state;
	host(&t);
	for (size_t len = 0; len < t.n; len++) {
		assert_null(decode(&t, len, &tl));
		assert_int_equal(errno, EINVAL);
	}
}

/* @t with the u16 / u32 at @at set to @v, checksum fixed. */
static void lie(struct tb *t, size_t at, uint32_t v, int width)
{
	host(t);
	for (int i = 0; i < width; i++)
		t->b[at + i] = (uint8_t)(v >> 8 * i);
	tb_resum(t);
}

static void test_irdt_lying_lengths_are_refused_with_where(void **state)
{
	/* offsets in host(): RMUD 0 at 48, its DSS at 61 and 85, RCS at 109; RMUD 1 at 149 */
	static const struct {
		size_t at;
		uint32_t v;
		int width;
		const char *says;
	} cases[] = {
		{4, 4000, 4, "header length 4000 does not fit"},
		{4, 40, 4, "header length 40"},
		{52, 5000, 4, "unit at byte 48: length 5000 does not fit"},
		{52, 4, 4, "unit at byte 48: length 4"},
		{52, 12, 4, "RMUD at byte 48: length 12 is shorter than 13"},
		{63, 700, 2, "structure at byte 61: length 700 does not fit"},
		{63, 2, 2, "structure at byte 61: length 2"},
		{63, 9, 2, "DSS at byte 61: length 9 is not 8 + 16 * n"},
		{111, 20, 2, "RCS at byte 109: length 20 is shorter than 40"},
		{153, 7, 4, "unit at byte 149: length 7"},
	};
	struct t_log tl = {0};
	struct tb t;

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		lie(&t, cases[i].at, cases[i].v, cases[i].width);
		assert_null(decode(&t, t.n, &tl));
		assert_int_equal(errno, EINVAL);
		if (!strstr(tl.last, cases[i].says))
			fail_msg("case %zu: \"%s\" does not say \"%s\"", i, tl.last, cases[i].says);
	}
}

static void test_irdt_lengths_that_fit_but_break_a_structure(void **state)
{
	struct t_log tl = {0};
	struct tb t;

	(void)state;
	/* a DSS 9 bytes long: room in its RMUD, but not 8 + 16 n */
	tb_begin(&t, 0, 0);
	tb_rmud(&t, 0);
	tb_other(&t, 0, 0, 9);
	tb_end_rmud(&t);
	tb_end(&t);
	assert_null(decode(&t, t.n, &tl));
	assert_non_null(strstr(tl.last, "DSS at byte 61: length 9 is not 8 + 16 * n"));
	/* an RCS of 20 bytes */
	tb_begin(&t, 0, 0);
	tb_rmud(&t, 0);
	tb_other(&t, 0, 1, 20);
	tb_end_rmud(&t);
	tb_end(&t);
	assert_null(decode(&t, t.n, &tl));
	assert_non_null(strstr(tl.last, "RCS at byte 61: length 20 is shorter than 40"));
	/* a DSS whose device type is 0 */
	tb_begin(&t, 0, 0);
	tb_rmud(&t, 0);
	tb_dss(&t, 0, 0x100, 0, two_valid);
	tb_end_rmud(&t);
	tb_end(&t);
	assert_null(decode(&t, t.n, &tl));
	assert_non_null(strstr(tl.last, "device type 0"));
}

static void test_irdt_bad_signature_and_checksum(void **state)
{
	struct t_log tl = {0};
	struct tb t;

	(void)state;
	host(&t);
	t.b[40] ^= 1;
	assert_null(decode(&t, t.n, &tl));
	assert_int_equal(errno, EINVAL);
	assert_non_null(strstr(tl.last, "checksum"));
	host(&t);
	memcpy(t.b, "DMAR", 4);
	assert_null(decode(&t, t.n, &tl));
	assert_non_null(strstr(tl.last, "not an IRDT table"));
	assert_null(ioca_irdt__decode(NULL, 0, NULL));
	assert_int_equal(errno, EINVAL);
}

static void test_irdt_unknown_types_are_skipped(void **state)
{
	struct t_log tl = {0};
	struct ioca_irdt *r;
	struct tb t;
	size_t n;

	(void)state;
	tb_begin(&t, 0, 0);
	tb_other(&t, 1, 1, 24); /* a unit of another kind (an IODD, say) */
	tb_rmud(&t, 2);
	tb_other(&t, 0, 7, 12);
	tb_rcs(&t, 5, 0, 4, 0x4, 0, 0x40, 0x1000);
	tb_end_rmud(&t);
	tb_end(&t);
	r = decode(&t, t.n, &tl);
	assert_non_null(r);
	ioca_irdt__devices(r, &n);
	assert_int_equal(n, 0);
	assert_int_equal(ioca_irdt__links(r, &n)[0].rcs, 5);
	assert_int_equal(ioca_irdt__links(r, &n)[0].rmud, 0);
	assert_int_equal(ioca_irdt__links(r, &n)[0].segment, 2);
	ioca_irdt__free(r);
}

static void test_irdt_open_reads_the_file_or_says_enoent(void **state)
{
	char path[] = "/tmp/libioca-irdt-XXXXXX";
	struct t_log tl = {0};
	struct ioca_irdt *r;
	struct tb t;
	size_t n;
	int fd;

	(void)state;
	fd = mkstemp(path);
	assert_true(fd >= 0);
	host(&t);
	assert_int_equal(write(fd, t.b, t.n), (ssize_t)t.n);
	close(fd);
	{
		IOCA_OPTS(ioca_irdt_opts, o, .path = path, .print = t_print, .print_ctx = &tl);

		r = ioca_irdt__open(&o);
		assert_non_null(r);
		ioca_irdt__devices(r, &n);
		assert_int_equal(n, 2);
		ioca_irdt__free(r);
		unlink(path);
		assert_null(ioca_irdt__open(&o));
		assert_int_equal(errno, ENOENT);
		assert_int_equal(tl.count, 0);
	}
	ioca_irdt__free(NULL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_irdt_decodes_devices_channels_and_links),
		cmocka_unit_test(test_irdt_every_truncation_is_refused),
		cmocka_unit_test(test_irdt_lying_lengths_are_refused_with_where),
		cmocka_unit_test(test_irdt_lengths_that_fit_but_break_a_structure),
		cmocka_unit_test(test_irdt_bad_signature_and_checksum),
		cmocka_unit_test(test_irdt_unknown_types_are_skipped),
		cmocka_unit_test(test_irdt_open_reads_the_file_or_says_enoent),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
