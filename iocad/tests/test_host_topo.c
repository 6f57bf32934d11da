// SPDX-License-Identifier: GPL-2.0
/*
 * CPU topology from a fake sysfs tree, and the config check built on it:
 * a tenant CPU that is absent, offline or on another socket is refused
 * with file:line; the socket's L3 id is the one resctrl names.
 */
#include <errno.h>
#include <fcntl.h>
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
#include "config/config_socket.h"
#include "host_platform.h"
#include "host_topo.h"

static char root[64];

static void put(const char *rel, const char *text)
{
	char path[256], cmd[320];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", root, rel);
	snprintf(cmd, sizeof(cmd), "mkdir -p \"$(dirname '%s')\"", path);
	assert_int_equal(system(cmd), 0);
	f = fopen(path, "w");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

/* Two sockets of two CPUs each; cpu3 offline (no topology/, like Linux). */
static int setup(void **state)
{
	char rel[128], v[16];

	(void)state;
	snprintf(root, sizeof(root), "/tmp/iocad-topo.XXXXXX");
	assert_non_null(mkdtemp(root));
	put("online", "0-2\n");
	for (int c = 0; c < 4; c++) {
		snprintf(rel, sizeof(rel), "cpu%d/cache/index0/level", c);
		put(rel, "1\n");
		if (c == 3) {
			continue;
		}
		snprintf(rel, sizeof(rel), "cpu%d/topology/physical_package_id", c);
		snprintf(v, sizeof(v), "%d\n", c / 2);
		put(rel, v);
		snprintf(rel, sizeof(rel), "cpu%d/cache/index3/level", c);
		put(rel, "3\n");
		snprintf(rel, sizeof(rel), "cpu%d/cache/index3/id", c);
		snprintf(v, sizeof(v), "%d\n", c < 2 ? 0 : 8);
		put(rel, v);
		snprintf(rel, sizeof(rel), "cpu%d/cache/index1/level", c);
		put(rel, "1\n");
		snprintf(rel, sizeof(rel), "cpu%d/cache/index2/level", c);
		put(rel, "2\n");
	}
	return 0;
}

static int teardown(void **state)
{
	char cmd[128];

	(void)state;
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", root);
	assert_int_equal(system(cmd), 0);
	return 0;
}

static void test_host_topo_reads_sockets_online_and_l3(void **state)
{
	struct host_topo *t = malloc(sizeof(*t));
	char err[256] = "";

	(void)state;
	assert_non_null(t);
	assert_int_equal(host_topo_read(root, t, err, sizeof(err)), 0);
	assert_int_equal(t->ncpus, 4);
	assert_true(t->online[0] && t->online[2]);
	assert_false(t->online[3]);
	assert_int_equal(t->socket[1], 0);
	assert_int_equal(t->socket[2], 1);
	assert_int_equal(t->socket[3], -1);
	assert_int_equal(host_topo_l3_id(t, 0), 0);
	assert_int_equal(host_topo_l3_id(t, 1), 8);
	assert_int_equal(host_topo_l3_id(t, 2), -1);
	free(t);
}

/*
 * The per-interval look keeps "online" open: a rewrite is seen through the
 * same descriptor, and one that cannot be read falls back to a fresh open.
 */
static void test_host_topo_online_fd_sees_changes(void **state)
{
	struct platform_cpuset on;
	char err[256] = "";
	int fd = -1, kept, dir;

	(void)state;
	assert_int_equal(host_topo_online_fd(&fd, root, &on, err, sizeof(err)), 0);
	assert_true(fd >= 0);
	assert_int_equal(platform_cpuset_count(&on), 3);
	assert_false(platform_cpuset_has(&on, 3));
	kept = fd;
	put("online", "0-3\n");
	assert_int_equal(host_topo_online_fd(&fd, root, &on, err, sizeof(err)), 0);
	assert_int_equal(fd, kept);
	assert_true(platform_cpuset_has(&on, 3));
	close(fd);
	/* a descriptor pread cannot read (a directory): the whole read, then a reopen */
	dir = open(root, O_RDONLY | O_DIRECTORY);
	assert_true(dir >= 0);
	fd = dir;
	put("online", "1\n");
	assert_int_equal(host_topo_online_fd(&fd, root, &on, err, sizeof(err)), 0);
	assert_int_equal(fd, -1);
	assert_int_equal(platform_cpuset_count(&on), 1);
	assert_true(platform_cpuset_has(&on, 1));
	put("online", "x\n");
	assert_int_equal(host_topo_online_fd(&fd, root, &on, err, sizeof(err)), -EINVAL);
	assert_true(fd >= 0);
	close(fd);
	put("online", "0-2\n");
}

static void check(const char *cfgtext, int want, const char *msg)
{
	struct platform_info *pi = calloc(1, sizeof(*pi));
	struct config *c = malloc(sizeof(*c));
	char err[256] = "";

	assert_non_null(pi);
	assert_non_null(c);
	/* what --check-config does: the topology as the platform says it, then placement */
	assert_int_equal(host_platform_probe(root, pi, err, sizeof(err)), 0);
	assert_int_equal(config_parse_string(cfgtext, "h.ini", c, err, sizeof(err)), 0);
	assert_int_equal(config_place(c, pi, err, sizeof(err)), want);
	if (msg)
		assert_string_equal(err, msg);
	free(pi);
	free(c);
}

static void test_host_topo_check_accepts_cpus_of_the_socket(void **state)
{
	(void)state;
	check("[platform]\nsocket = 1\n[tenant a]\ncpus = 2\nways = 1\n", 0, NULL);
	check("[tenant a]\ncpus = 0-1\nways = 1\n", 0, NULL);
	/* without socket =, each tenant is on the socket of its CPUs */
	check("[tenant a]\ncpus = 0-1\nways = 1\n[tenant b]\ncpus = 2\nways = 1\n", 0, NULL);
}

/* A tenant spanning sockets is an error naming it and the CPUs. */
static void test_host_topo_tenant_spanning_sockets(void **state)
{
	(void)state;
	check("[tenant a]\ncpus = 0\nways = 1\n[tenant b]\n\ncpus = 1-2\nways = 1\n", -EINVAL,
	      "h.ini:6: [tenant b] cpus: CPU 1 is on socket 0 but CPU 2 on socket 1: a tenant's "
	      "CPUs must be on one socket");
	check("[tenant a]\ncpus = 0\nways = 1\ngroup = g\n[tenant b]\ncpus = 2\nways = 1\n"
	      "group = g\n",
	      -EINVAL,
	      "h.ini:8: [tenant b] group: a is on socket 0, b on socket 1: a group is one class "
	      "of service on one socket");
}

static void test_host_topo_check_refuses_other_socket(void **state)
{
	(void)state;
	check("[platform]\nsocket = 0\n[tenant a]\ncpus = 0\nways = 1\n[tenant b]\n\ncpus = 1-2\n"
	      "ways = 1\n",
	      -EINVAL,
	      "h.ini:8: [tenant b] cpus: CPU 2 is on socket 1, not on socket 0 (socket = 0)");
}

/* An offline CPU may come online (-EAGAIN: a start exits 75 and is retried); an absent one will
 * not. */
static void test_host_topo_check_refuses_offline_and_absent(void **state)
{
	(void)state;
	check("[platform]\nsocket = 1\n[tenant a]\ncpus = 2-3\nways = 1\n", -EAGAIN,
	      "h.ini:4: [tenant a] cpus: CPU 3 is offline (socket = 1)");
	check("[tenant a]\ncpus = 0,9\nways = 1\n", -EINVAL,
	      "h.ini:2: [tenant a] cpus: CPU 9 does not exist on this host");
}

/* The example installed as /etc/ioca/iocad.ini (two sockets) parses as shipped. */
static void test_host_example_config_parses(void **state)
{
	struct config *c = malloc(sizeof(*c));
	char err[256] = "";

	(void)state;
	assert_non_null(c);
	if (config_parse_file("dist/iocad.ini", c, err, sizeof(err)))
		fail_msg("%s", err);
	assert_int_equal(c->ntenants, 6);
	assert_false(c->socket_set);
	assert_int_equal(c->sock[1].model, CONFIG_MODEL_SLICING);
	assert_int_equal(c->sock[1].ddio_ways_max, 4);
	assert_false(c->ddio_counters_optional);
	free(c);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_host_topo_reads_sockets_online_and_l3),
		cmocka_unit_test(test_host_topo_online_fd_sees_changes),
		cmocka_unit_test(test_host_topo_check_accepts_cpus_of_the_socket),
		cmocka_unit_test(test_host_topo_check_refuses_other_socket),
		cmocka_unit_test(test_host_topo_tenant_spanning_sockets),
		cmocka_unit_test(test_host_topo_check_refuses_offline_and_absent),
		cmocka_unit_test(test_host_example_config_parses),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
