// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/*
 * IIO presets against fake sysfs trees (event_source/devices and
 * bus/pci/devices in one temp dir): Skylake-SP's layout with the
 * free-running PMU, with only the programmable one, without the dieX
 * mapping attributes, and a device whose root bus is on no known stack.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include <cmocka.h>
#include "iio.h"
#include "msgs.h"

struct fx {
	char root[64];
	char ev[128], pci[128];
	struct t_log tl;
};

static void put(const struct fx *f, const char *rel, const char *text)
{
	char path[512], cmd[600];
	FILE *fp;

	snprintf(path, sizeof(path), "%s/%s", f->root, rel);
	snprintf(cmd, sizeof(cmd), "mkdir -p \"$(dirname '%s')\"", path);
	assert_int_equal(system(cmd), 0);
	fp = fopen(path, "w");
	assert_non_null(fp);
	fputs(text, fp);
	fclose(fp);
}

/* Device @addr below root port @rp (on root bus @bus) at link width @width. */
static void device(const struct fx *f, const char *bus, const char *rp, const char *addr,
		   const char *width)
{
	char rel[256], dir[384], link[384];

	snprintf(rel, sizeof(rel), "devices/pci%s/%s/current_link_width", bus, rp);
	put(f, rel, width);
	snprintf(rel, sizeof(rel), "devices/pci%s/%s/%s/vendor", bus, rp, addr);
	put(f, rel, "0x8086\n");
	snprintf(dir, sizeof(dir), "../devices/pci%s/%s/%s", bus, rp, addr);
	snprintf(link, sizeof(link), "%s/%s", f->pci, addr);
	mkdir(f->pci, 0755);
	assert_int_equal(symlink(dir, link), 0);
}

/* Skylake-SP: stacks 0-2 on die 0 and 1, their root buses; IIO types 50 + N. */
static void skx(const struct fx *f, bool free_running, bool mapping)
{
	static const char *const bus[2][3] = {{"0000:00", "0000:17", "0000:3a"},
					      {"0000:80", "0000:85", "0000:ae"}};
	char rel[128], text[32];

	for (int n = 0; n < 3; n++) {
		snprintf(rel, sizeof(rel), "event_source/uncore_iio_%d/type", n);
		snprintf(text, sizeof(text), "%d\n", 50 + n);
		put(f, rel, text);
		for (int die = 0; die < 2 && mapping; die++) {
			snprintf(rel, sizeof(rel), "event_source/uncore_iio_%d/die%d", n, die);
			snprintf(text, sizeof(text), "%s\n", bus[die][n]);
			put(f, rel, text);
		}
		if (!free_running)
			continue;
		snprintf(rel, sizeof(rel), "event_source/uncore_iio_free_running_%d/type", n);
		snprintf(text, sizeof(text), "%d\n", 60 + n);
		put(f, rel, text);
		for (int k = 0; k < 4; k++) {
			snprintf(rel, sizeof(rel),
				 "event_source/uncore_iio_free_running_%d/events/bw_in_port%d", n,
				 k);
			snprintf(text, sizeof(text), "event=0xff,umask=0x%x\n", 0x20 + k);
			put(f, rel, text);
			strcat(rel, ".scale");
			put(f, rel, "3.814697266e-6\n");
			rel[strlen(rel) - strlen(".scale")] = '\0';
			strcat(rel, ".unit");
			put(f, rel, "MiB\n");
		}
	}
	put(f, "event_source/uncore_cha_0/type", "40\n");
}

static int setup(void **state)
{
	struct fx *f = calloc(1, sizeof(*f));

	snprintf(f->root, sizeof(f->root), "/tmp/libioca-iio-XXXXXX");
	if (!mkdtemp(f->root)) {
		free(f);
		return -1;
	}
	snprintf(f->ev, sizeof(f->ev), "%s/event_source", f->root);
	snprintf(f->pci, sizeof(f->pci), "%s/pci", f->root);
	*state = f;
	return 0;
}

static int teardown(void **state)
{
	struct fx *f = *state;
	char cmd[128];
	int rc;

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", f->root);
	rc = system(cmd);
	free(f);
	return rc;
}

static struct ioca_iio_preset *preset(struct fx *f, const char *addr)
{
	IOCA_OPTS(ioca_iio_opts, o, .sysfs_root = f->ev, .pci_root = f->pci, .print = t_print,
		  .print_ctx = &f->tl);

	return ioca_iio_preset__new(addr, &o);
}

static void test_iio_skx_free_running_port_of_root_port(void **state)
{
	struct fx *f = *state;
	struct ioca_iio_preset *p;
	const struct ioca_event *ev;
	size_t n;

	skx(f, true, true);
	/* an NVMe SSD, x4, below root port 85:02.0 of stack 1 on die 1 */
	device(f, "0000:85", "0000:85:02.0", "0000:86:00.0", "4\n");
	p = preset(f, "0000:86:00.0");
	assert_non_null(p);
	assert_int_equal(ioca_iio_preset__socket(p), 1);
	ev = ioca_iio_preset__events(p, &n);
	assert_int_equal(n, 1);
	assert_int_equal(ev[0].kind, IOCA_EVENT_KIND_RAW);
	assert_true(ev[0].has_type);
	assert_int_equal(ev[0].type, 61);
	assert_int_equal(ev[0].config, 0x22ff);
	assert_string_equal(ioca_iio_preset__source(p), "uncore_iio_free_running_1/bw_in_port2");
	ioca_iio_preset__free(p);
}

static void test_iio_skx_wide_link_takes_its_ports(void **state)
{
	struct fx *f = *state;
	struct ioca_iio_preset *p;
	const struct ioca_event *ev;
	size_t n;

	skx(f, true, true);
	device(f, "0000:17", "0000:17:00.0", "0000:18:00.0", "16\n");
	p = preset(f, "0000:18:00.0");
	assert_non_null(p);
	assert_int_equal(ioca_iio_preset__socket(p), 0);
	ev = ioca_iio_preset__events(p, &n);
	assert_int_equal(n, 4);
	for (size_t i = 0; i < n; i++) {
		assert_int_equal(ev[i].type, 61);
		assert_int_equal(ev[i].config, 0xff | (0x20 + i) << 8);
	}
	ioca_iio_preset__free(p);
}

static void test_iio_bytes_scale_free_running_counts(void **state)
{
	struct fx *f = *state;
	struct ioca_socket_sample s = {.id = 1, .ncounters = 3};
	struct ioca_iio_preset *p;
	uint64_t bytes = 0;

	skx(f, true, true);
	device(f, "0000:85", "0000:85:02.0", "0000:86:00.0", "4\n");
	p = preset(f, "0000:86:00.0");
	assert_non_null(p);
	/* the CHA events first (0, 1), then the IIO event at 2 */
	s.counters[0] = (struct ioca_counter){.index = 0, .value = 7};
	s.counters[1] = (struct ioca_counter){.index = 1, .value = 9};
	s.counters[2] = (struct ioca_counter){.index = 2, .value = 1000};
	assert_int_equal(ioca_iio_preset__bytes(p, &s, 2, &bytes), 0);
	assert_int_equal(bytes, 4000); /* .scale 3.814697266e-6 MiB = 4 bytes */
	assert_int_equal(ioca_iio_preset__bytes(p, &s, 3, &bytes), -ENODATA);
	ioca_iio_preset__free(p);
}

static void test_iio_only_programmable_pmu(void **state)
{
	struct fx *f = *state;
	struct ioca_socket_sample s = {.id = 0, .ncounters = 1};
	struct ioca_iio_preset *p;
	const struct ioca_event *ev;
	uint64_t bytes;
	size_t n;

	skx(f, false, true);
	device(f, "0000:3a", "0000:3a:01.0", "0000:3b:00.0", "8\n");
	p = preset(f, "0000:3b:00.0");
	assert_non_null(p);
	ev = ioca_iio_preset__events(p, &n);
	assert_int_equal(n, 1);
	assert_int_equal(ev[0].type, 52);
	/* event 0x83 umask 0x01, ports 1-2 in ch_mask (bit 36), fc_mask 0x7 (bit 44) */
	assert_int_equal(ev[0].config, 0x0183ull | 0x06ull << 36 | 0x7ull << 44);
	assert_string_equal(ioca_iio_preset__source(p),
			    "uncore_iio_2 DATA_REQ_OF_CPU.MEM_WRITE ch_mask 0x06");
	s.counters[0] = (struct ioca_counter){.index = 5, .value = 250};
	assert_int_equal(ioca_iio_preset__bytes(p, &s, 5, &bytes), 0);
	assert_int_equal(bytes, 1000);
	ioca_iio_preset__free(p);
}

static void test_iio_no_mapping_attribute_is_enodev(void **state)
{
	struct fx *f = *state;

	skx(f, true, false);
	device(f, "0000:17", "0000:17:00.0", "0000:18:00.0", "4\n");
	assert_null(preset(f, "0000:18:00.0"));
	assert_int_equal(errno, ENODEV);
	assert_non_null(strstr(f->tl.last, "no dieX mapping attribute"));
}

static void test_iio_no_iio_pmu_is_enodev(void **state)
{
	struct fx *f = *state;

	put(f, "event_source/uncore_cha_0/type", "40\n");
	device(f, "0000:17", "0000:17:00.0", "0000:18:00.0", "4\n");
	assert_null(preset(f, "0000:18:00.0"));
	assert_int_equal(errno, ENODEV);
	assert_non_null(strstr(f->tl.last, "no uncore_iio_N PMU"));
}

static void test_iio_device_on_no_known_stack(void **state)
{
	struct fx *f = *state;

	skx(f, true, true);
	device(f, "0000:c0", "0000:c0:00.0", "0000:c1:00.0", "4\n");
	assert_null(preset(f, "0000:c1:00.0"));
	assert_int_equal(errno, ENODEV);
	assert_non_null(strstr(f->tl.last, "root bus 0000:c0 is on no IIO stack"));
}

static void test_iio_unknown_device_and_bad_opts(void **state)
{
	struct fx *f = *state;
	struct {
		struct ioca_iio_opts o;
		long extra;
	} big = {.o = {.sz = sizeof(big)}, .extra = 1};

	skx(f, true, true);
	assert_null(preset(f, "0000:99:00.0"));
	assert_int_equal(errno, ENODEV);
	assert_null(ioca_iio_preset__new("0000:99:00.0", &big.o));
	assert_int_equal(errno, EINVAL);
	assert_null(preset(f, ""));
	assert_int_equal(errno, EINVAL);
	ioca_iio_preset__free(NULL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_iio_skx_free_running_port_of_root_port, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_iio_skx_wide_link_takes_its_ports, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_iio_bytes_scale_free_running_counts, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_iio_only_programmable_pmu, setup, teardown),
		cmocka_unit_test_setup_teardown(test_iio_no_mapping_attribute_is_enodev, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_iio_no_iio_pmu_is_enodev, setup, teardown),
		cmocka_unit_test_setup_teardown(test_iio_device_on_no_known_stack, setup, teardown),
		cmocka_unit_test_setup_teardown(test_iio_unknown_device_and_bad_opts, setup,
						teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
