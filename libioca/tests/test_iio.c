// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/*
 * IIO presets against fake sysfs trees (tests/fixtures: event_source
 * devices with the kernel's format attributes, /sys/devices and
 * /sys/bus/pci/devices of Skylake-SP, Ice Lake-SP and Sapphire Rapids
 * hosts): the port of a root port by its generation, the free-running and
 * the programmable counter encoded by each PMU's format, and the refusals
 * (no mapping attribute, no IIO PMU, a bus on no stack, a root port of no
 * known generation, a format without the field).
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
#include "sysfs_tree.h"

struct fx {
	char root[64];
	char ev[128], pci[128];
	struct t_log tl;
};

/* DATA_REQ_OF_CPU.MEM_WRITE with @ports in ch_mask at bit 36, fc_mask 0x7 at @fc. */
#define MEM_WRITE(ports, fc) (0x0183ull | (uint64_t)(ports) << 36 | 0x7ull << (fc))

static int setup(void **state)
{
	struct fx *f = calloc(1, sizeof(*f));

	snprintf(f->root, sizeof(f->root), "/tmp/libioca-iio-XXXXXX");
	if (!mkdtemp(f->root)) {
		free(f);
		return -1;
	}
	snprintf(f->ev, sizeof(f->ev), "%s/ev", f->root);
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

static void expect_events(struct ioca_iio_preset *p, uint32_t type, const uint64_t *config,
			  size_t n)
{
	const struct ioca_event *ev;
	size_t m;

	assert_non_null(p);
	ev = ioca_iio_preset__events(p, &m);
	assert_int_equal(m, n);
	for (size_t i = 0; i < n; i++) {
		assert_int_equal(ev[i].kind, IOCA_EVENT_KIND_RAW);
		assert_true(ev[i].has_type);
		assert_int_equal(ev[i].type, type);
		assert_int_equal(ev[i].config, config[i]);
		assert_int_equal(ev[i].config1, 0);
	}
}

static void test_iio_skx_free_running_port_of_root_port(void **state)
{
	struct fx *f = *state;
	struct ioca_iio_preset *p;

	t_tree_load(f->root, "skx");
	/* an NVMe SSD, x4, below root port 85:02.0 (8086:2032) of stack 1 on die 1 */
	p = preset(f, "0000:86:00.0");
	expect_events(p, 61, (const uint64_t[]){0x22ff}, 1);
	assert_int_equal(ioca_iio_preset__socket(p), 1);
	assert_string_equal(ioca_iio_preset__source(p), "uncore_iio_free_running_1/bw_in_port2");
	ioca_iio_preset__free(p);
}

static void test_iio_skx_wide_link_takes_its_ports(void **state)
{
	struct fx *f = *state;
	struct ioca_iio_preset *p;

	t_tree_load(f->root, "skx");
	p = preset(f, "0000:18:00.0"); /* x16 below 17:00.0, Root Port A */
	expect_events(p, 61, (const uint64_t[]){0x20ff, 0x21ff, 0x22ff, 0x23ff}, 4);
	assert_int_equal(ioca_iio_preset__socket(p), 0);
	ioca_iio_preset__free(p);
}

static void test_iio_bytes_scale_free_running_counts(void **state)
{
	struct fx *f = *state;
	struct ioca_socket_sample s = {.id = 1, .ncounters = 3};
	struct ioca_iio_preset *p;
	uint64_t bytes = 0;

	t_tree_load(f->root, "skx");
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

static void test_iio_skx_only_programmable_pmu(void **state)
{
	struct fx *f = *state;
	struct ioca_socket_sample s = {.id = 0, .ncounters = 1};
	struct ioca_iio_preset *p;
	uint64_t bytes;

	t_tree_load(f->root, "skx");
	t_tree_rm(f->ev, "uncore_iio_free_running_2");
	p = preset(f, "0000:3b:00.0"); /* x8 below 3a:01.0: ports 1-2 */
	expect_events(p, 52, (const uint64_t[]){MEM_WRITE(0x06, 44)}, 1);
	assert_string_equal(ioca_iio_preset__source(p),
			    "uncore_iio_2 DATA_REQ_OF_CPU.MEM_WRITE ch_mask 0x06");
	s.counters[0] = (struct ioca_counter){.index = 5, .value = 250};
	assert_int_equal(ioca_iio_preset__bytes(p, &s, 5, &bytes), 0);
	assert_int_equal(bytes, 1000);
	ioca_iio_preset__free(p);
}

static void test_iio_icx_port_counts_from_device_2(void **state)
{
	struct fx *f = *state;
	struct ioca_socket_sample s = {.id = 0, .ncounters = 4};
	struct ioca_iio_preset *p;
	uint64_t bytes;

	t_tree_load(f->root, "icx");
	/* 14:04.0 is 8086:347c, the stack's third root port: port 2 */
	p = preset(f, "0000:15:00.0");
	expect_events(p, 51, (const uint64_t[]){MEM_WRITE(0x04, 48)}, 1);
	assert_string_equal(ioca_iio_preset__source(p),
			    "uncore_iio_1 DATA_REQ_OF_CPU.MEM_WRITE ch_mask 0x04");
	ioca_iio_preset__free(p);
	/* 17:02.0 is 8086:347a, x16: ports 0-3, free-running, 32-byte units */
	p = preset(f, "0000:18:00.0");
	expect_events(p, 60, (const uint64_t[]){0x20ff, 0x21ff, 0x22ff, 0x23ff}, 4);
	for (uint32_t i = 0; i < 4; i++)
		s.counters[i] = (struct ioca_counter){.index = i, .value = 10};
	assert_int_equal(ioca_iio_preset__bytes(p, &s, 0, &bytes), 0);
	assert_int_equal(bytes, 4 * 10 * 32);
	ioca_iio_preset__free(p);
}

static void test_iio_spr_root_ports_on_odd_devices(void **state)
{
	struct fx *f = *state;
	struct ioca_iio_preset *p;

	t_tree_load(f->root, "spr");
	/* 15:05.0 is 8086:352c, the stack's third root port: port 2 */
	p = preset(f, "0000:15:00.0");
	expect_events(p, 52, (const uint64_t[]){MEM_WRITE(0x04, 48)}, 1);
	ioca_iio_preset__free(p);
	/* 97:03.0 is 8086:352b, x8: ports 1-2 of stack 1 on die 1 */
	p = preset(f, "0000:98:00.0");
	expect_events(p, 61, (const uint64_t[]){0x21ff, 0x22ff}, 2);
	assert_int_equal(ioca_iio_preset__socket(p), 1);
	assert_string_equal(ioca_iio_preset__source(p), "uncore_iio_free_running_1/bw_in_port1-2");
	ioca_iio_preset__free(p);
}

static void test_iio_spr_even_device_is_no_root_port(void **state)
{
	struct fx *f = *state;
	char link[256];

	t_tree_load(f->root, "spr");
	t_tree_put(f->root, "devices/pci0000:15/0000:15:02.0/vendor", "0x8086\n");
	t_tree_put(f->root, "devices/pci0000:15/0000:15:02.0/device", "0x352a\n");
	t_tree_put(f->root, "devices/pci0000:15/0000:15:02.0/0000:1a:00.0/vendor", "0x8086\n");
	snprintf(link, sizeof(link), "%s/0000:1a:00.0", f->pci);
	assert_int_equal(symlink("../devices/pci0000:15/0000:15:02.0/0000:1a:00.0", link), 0);
	assert_null(preset(f, "0000:1a:00.0"));
	assert_int_equal(errno, ENODEV);
	assert_non_null(strstr(f->tl.last, "is device 2 on its bus"));
}

static void test_iio_root_port_of_unknown_generation(void **state)
{
	struct fx *f = *state;

	t_tree_load(f->root, "icx");
	t_tree_put(f->root, "devices/pci0000:14/0000:14:04.0/device", "0x09a2\n");
	assert_null(preset(f, "0000:15:00.0"));
	assert_int_equal(errno, ENODEV);
	assert_non_null(strstr(f->tl.last, "is 8086:09a2, not a root port whose IIO port"));
}

static void test_iio_format_without_the_field_names_pmu_and_field(void **state)
{
	struct fx *f = *state;

	t_tree_load(f->root, "icx");
	t_tree_rm(f->ev, "uncore_iio_1/format/ch_mask");
	assert_null(preset(f, "0000:15:00.0"));
	assert_int_equal(errno, ENOENT);
	assert_non_null(strstr(f->tl.last, "uncore_iio_1"));
	assert_non_null(strstr(f->tl.last, "\"ch_mask\""));
}

static void test_iio_no_mapping_attribute_is_enodev(void **state)
{
	struct fx *f = *state;
	char cmd[256];

	t_tree_load(f->root, "skx");
	snprintf(cmd, sizeof(cmd), "rm -f %s/uncore_iio_*/die*", f->ev);
	assert_int_equal(system(cmd), 0);
	assert_null(preset(f, "0000:18:00.0"));
	assert_int_equal(errno, ENODEV);
	assert_non_null(strstr(f->tl.last, "no dieX mapping attribute"));
}

static void test_iio_no_iio_pmu_is_enodev(void **state)
{
	struct fx *f = *state;

	t_tree_load(f->root, "skx");
	t_tree_rm(f->root, "ev");
	t_tree_put(f->ev, "uncore_cha_0/type", "40\n");
	assert_null(preset(f, "0000:18:00.0"));
	assert_int_equal(errno, ENODEV);
	assert_non_null(strstr(f->tl.last, "no uncore_iio_N PMU"));
}

static void test_iio_device_on_no_known_stack(void **state)
{
	struct fx *f = *state;
	char link[256];

	t_tree_load(f->root, "skx");
	t_tree_put(f->root, "devices/pci0000:c0/0000:c0:00.0/0000:c1:00.0/vendor", "0x8086\n");
	snprintf(link, sizeof(link), "%s/0000:c1:00.0", f->pci);
	assert_int_equal(symlink("../devices/pci0000:c0/0000:c0:00.0/0000:c1:00.0", link), 0);
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

	t_tree_load(f->root, "skx");
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
#define T(name) cmocka_unit_test_setup_teardown(name, setup, teardown)
	const struct CMUnitTest tests[] = {
		T(test_iio_skx_free_running_port_of_root_port),
		T(test_iio_skx_wide_link_takes_its_ports),
		T(test_iio_bytes_scale_free_running_counts),
		T(test_iio_skx_only_programmable_pmu),
		T(test_iio_icx_port_counts_from_device_2),
		T(test_iio_spr_root_ports_on_odd_devices),
		T(test_iio_spr_even_device_is_no_root_port),
		T(test_iio_root_port_of_unknown_generation),
		T(test_iio_format_without_the_field_names_pmu_and_field),
		T(test_iio_no_mapping_attribute_is_enodev),
		T(test_iio_no_iio_pmu_is_enodev),
		T(test_iio_device_on_no_known_stack),
		T(test_iio_unknown_device_and_bad_opts),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
