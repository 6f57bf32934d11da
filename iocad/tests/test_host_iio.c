// SPDX-License-Identifier: GPL-2.0
/*
 * The host's choice of a `ddio = auto` device's write counter over fake
 * sysfs trees: the IIO stack's counter where libioca finds one (its events
 * after the CHA preset's, its bytes from its socket's sample, cumulative
 * across sampler reconfigurations), else the block layer, else none, each
 * with its one line.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "fake_tree.h"
#include "host_iio.h"

struct fx {
	char root[64];
	char ev[80], pci[80];
	struct host_iio hi;
};

static void quiet(enum ioca_print_level l, void *c, const char *f, va_list ap)
{
	(void)l, (void)c, (void)f, (void)ap;
}

/* Skylake-SP die 0: stack 1 on root bus 0000:17 (types 51, free-running 61). */
static int setup(void **state)
{
	struct fx *f = calloc(1, sizeof(*f));
	char link[128];

	assert_non_null(f);
	fake_tree_make(f->root, sizeof(f->root), "iocad-iio");
	snprintf(f->ev, sizeof(f->ev), "%s/ev", f->root);
	snprintf(f->pci, sizeof(f->pci), "%s/pci", f->root);
	fake_tree_put_deep(f->root, "ev/uncore_iio_1/type", "51\n");
	fake_tree_put_deep(f->root, "ev/uncore_iio_1/die0", "0000:17\n");
	fake_tree_put_deep(f->root, "ev/uncore_iio_free_running_1/type", "61\n");
	fake_tree_put_deep(f->root, "ev/uncore_iio_free_running_1/events/bw_in_port1",
			   "event=0xff,umask=0x21\n");
	/* the kernel's format of Skylake-SP's free-running IIO PMU, its root port B */
	fake_tree_put_deep(f->root, "ev/uncore_iio_free_running_1/format/event", "config:0-7\n");
	fake_tree_put_deep(f->root, "ev/uncore_iio_free_running_1/format/umask", "config:8-15\n");
	fake_tree_put_deep(f->root, "devices/pci0000:17/0000:17:01.0/vendor", "0x8086\n");
	fake_tree_put_deep(f->root, "devices/pci0000:17/0000:17:01.0/device", "0x2031\n");
	fake_tree_put_deep(f->root, "devices/pci0000:17/0000:17:01.0/current_link_width", "4\n");
	fake_tree_put_deep(f->root, "devices/pci0000:17/0000:17:01.0/0000:18:00.0/vendor",
			   "0x8086\n");
	fake_tree_put_deep(f->root, "devices/pci0000:c0/0000:c0:00.0/0000:c1:00.0/vendor",
			   "0x8086\n");
	fake_tree_mkdir(f->root, "pci");
	snprintf(link, sizeof(link), "%s/0000:18:00.0", f->pci);
	assert_int_equal(symlink("../devices/pci0000:17/0000:17:01.0/0000:18:00.0", link), 0);
	snprintf(link, sizeof(link), "%s/0000:c1:00.0", f->pci);
	assert_int_equal(symlink("../devices/pci0000:c0/0000:c0:00.0/0000:c1:00.0", link), 0);
	f->hi.ev_root = f->ev;
	f->hi.pci_root = f->pci;
	f->hi.print = quiet;
	*state = f;
	return 0;
}

static int teardown(void **state)
{
	struct fx *f = *state;

	host_iio_free(&f->hi);
	fake_tree_remove(f->root);
	free(f);
	return 0;
}

static void test_host_iio_counter_follows_the_cha_events(void **state)
{
	struct fx *f = *state;
	struct ioca_event cha[2] = {{.kind = IOCA_EVENT_KIND_RAW, .type = 40, .config = 0x1435},
				    {.kind = IOCA_EVENT_KIND_RAW, .type = 40, .config = 0x2435}};
	struct ioca_event out[IOCA_MAX_UNCORE_EVENTS];
	struct host_iio_dev *d;
	char say[512];

	d = host_iio_add(&f->hi, "0000:18:00.0", true, say, sizeof(say));
	assert_non_null(d);
	assert_int_equal(d->source, HOST_IIO_COUNTER);
	assert_non_null(strstr(say, "uncore_iio_free_running_1/bw_in_port1 (socket 0)"));
	assert_ptr_equal(host_iio_find(&f->hi, "0000:18:00.0"), d);
	assert_int_equal(host_iio_events(&f->hi, cha, 2, out, IOCA_MAX_UNCORE_EVENTS), 3);
	assert_true(d->placed);
	assert_int_equal(d->first, 2);
	assert_int_equal(out[1].config, 0x2435);
	assert_int_equal(out[2].type, 61);
	assert_int_equal(out[2].config, 0x21ff);
	/* no room after the CHA events: left out */
	assert_int_equal(host_iio_events(&f->hi, cha, 2, out, 2), 2);
	assert_false(d->placed);
}

static void test_host_iio_bytes_cumulative_across_epochs(void **state)
{
	struct fx *f = *state;
	struct ioca_event out[4];
	struct ioca_sample *s = calloc(1, sizeof(*s));
	struct host_iio_dev *d;
	char say[512];

	assert_non_null(s);
	d = host_iio_add(&f->hi, "0000:18:00.0", false, say, sizeof(say));
	assert_int_equal(host_iio_events(&f->hi, NULL, 0, out, 4), 1);
	assert_int_equal(host_iio_bytes(d), 0);
	s->nsockets = 2;
	s->sockets[0] = (struct ioca_socket_sample){.id = 1, .ncounters = 1};
	s->sockets[0].counters[0] = (struct ioca_counter){.index = 0, .value = 999};
	s->sockets[1] = (struct ioca_socket_sample){.id = 0, .ncounters = 1};
	s->sockets[1].counters[0] = (struct ioca_counter){.index = 0, .value = 100};
	host_iio_fold(&f->hi, s);
	/* socket 0's count (socket 1 counts its own stack 1), 4 bytes each (no .scale) */
	assert_int_equal(host_iio_bytes(d), 400);
	host_iio_new_epoch(&f->hi);
	s->sockets[1].counters[0].value = 10;
	host_iio_fold(&f->hi, s);
	assert_int_equal(host_iio_bytes(d), 440);
	free(s);
}

static void test_host_iio_falls_back_to_block_or_none(void **state)
{
	struct fx *f = *state;
	struct ioca_event out[4];
	struct host_iio_dev *d;
	char say[512];

	d = host_iio_add(&f->hi, "0000:c1:00.0", true, say, sizeof(say));
	assert_int_equal(d->source, HOST_IIO_BLOCK);
	assert_non_null(strstr(say, "NVMe block layer"));
	assert_non_null(strstr(say, "root bus 0000:c0 is on no IIO stack"));
	d = host_iio_add(&f->hi, "0000:99:00.0", false, say, sizeof(say));
	assert_int_equal(d->source, HOST_IIO_NONE);
	assert_non_null(strstr(say, "DDIO stays on"));
	assert_int_equal(host_iio_events(&f->hi, NULL, 0, out, 4), 0);
	/* a refused sampler: the counter device falls back too */
	d = host_iio_add(&f->hi, "0000:18:00.0", true, say, sizeof(say));
	host_iio_drop_counters(&f->hi);
	assert_int_equal(d->source, HOST_IIO_BLOCK);
	assert_int_equal(host_iio_events(&f->hi, NULL, 0, out, 4), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_host_iio_counter_follows_the_cha_events, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_host_iio_bytes_cumulative_across_epochs, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_host_iio_falls_back_to_block_or_none, setup,
						teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
