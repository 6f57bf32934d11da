// SPDX-License-Identifier: GPL-2.0
/*
 * systemd's notify protocol as iocad speaks it: READY=1 at the first
 * turn, WATCHDOG=1 when due (and only for this process), STATUS= when
 * what the loop waits for changes, to an abstract or a path socket.
 */
#include <errno.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>
#include <cmocka.h>

#include "loop/notify.h"

/* A datagram socket bound at @name ('@': abstract), as systemd's. */
static int listener(const char *name)
{
	struct sockaddr_un a = {.sun_family = AF_UNIX};
	size_t l = strlen(name);
	int fd = socket(AF_UNIX, SOCK_DGRAM | SOCK_NONBLOCK, 0);

	assert_true(fd >= 0);
	memcpy(a.sun_path, name, l);
	if (name[0] == '@')
		a.sun_path[0] = '\0';
	else
		l++;
	assert_int_equal(bind(fd, (struct sockaddr *)&a,
			      (socklen_t)(offsetof(struct sockaddr_un, sun_path) + l)),
			 0);
	return fd;
}

/* The next datagram, "" if none is queued. */
static const char *next_msg(int fd, char *buf, size_t len)
{
	ssize_t n = recv(fd, buf, len - 1, 0);

	buf[n > 0 ? n : 0] = '\0';
	return buf;
}

static void test_notify_ready_watchdog_status_abstract(void **state)
{
	struct loop_status st = {.waiting = ""};
	struct notify n;
	char name[64], err[256], buf[512];
	int fd;

	(void)state;
	snprintf(name, sizeof(name), "@iocad-test-notify-%d", (int)getpid());
	fd = listener(name);
	assert_int_equal(notify_open(&n, name, "4000000", NULL, err, sizeof(err)), 0);
	notify_status(&n, &st);
	assert_string_equal(next_msg(fd, buf, sizeof(buf)),
			    "READY=1\nWATCHDOG=1\nSTATUS=running: samples come, allocation in "
			    "force\n");
	/* the next turn at once: nothing due, nothing changed */
	notify_status(&n, &st);
	assert_string_equal(next_msg(fd, buf, sizeof(buf)), "");
	/* CAT waiting while samples come: running, and what CAT waits for */
	st.cat_waits = PLATFORM_CAT_WAIT_RESCTRL;
	st.cat_waiting = "resctrl is not mounted at /sys/fs/resctrl";
	notify_status(&n, &st);
	assert_string_equal(next_msg(fd, buf, sizeof(buf)),
			    "STATUS=running, CAT waiting (DDIO and sampling go on): resctrl is not "
			    "mounted at /sys/fs/resctrl\n");
	/* no sample either: that wait is the one said */
	st.waiting = "the sampler to start";
	notify_status(&n, &st);
	assert_string_equal(next_msg(fd, buf, sizeof(buf)),
			    "STATUS=waiting for the sampler to start\n");
	/* a quarter of the watchdog's time later, the turn feeds it */
	n.pinged_ns -= 1000000000ull;
	notify_status(&n, &st);
	assert_string_equal(next_msg(fd, buf, sizeof(buf)), "WATCHDOG=1\n");
	assert_int_equal(notify_send(&n, "STOPPING=1\n"), 0);
	assert_string_equal(next_msg(fd, buf, sizeof(buf)), "STOPPING=1\n");
	notify_close(&n);
	close(fd);
}

static void test_notify_path_socket_and_foreign_watchdog(void **state)
{
	struct loop_status st = {.waiting = ""};
	struct notify n;
	char path[64], err[256], buf[512];
	int fd;

	(void)state;
	snprintf(path, sizeof(path), "/tmp/iocad-test-notify-%d", (int)getpid());
	unlink(path);
	fd = listener(path);
	/* the watchdog is another process's: never fed from here */
	assert_int_equal(notify_open(&n, path, "4000000", "1", err, sizeof(err)), 0);
	notify_status(&n, &st);
	assert_string_equal(next_msg(fd, buf, sizeof(buf)),
			    "READY=1\nSTATUS=running: samples come, allocation in force\n");
	notify_close(&n);
	close(fd);
	unlink(path);
}

static void test_notify_without_socket_or_with_a_bad_one(void **state)
{
	struct loop_status st = {.waiting = ""};
	struct notify n;
	char err[256] = "";

	(void)state;
	assert_int_equal(notify_open(&n, NULL, NULL, NULL, err, sizeof(err)), 0);
	notify_status(&n, &st); /* a no-op */
	assert_int_equal(notify_send(&n, "READY=1\n"), 0);
	assert_int_equal(notify_open(&n, "relative/path", NULL, NULL, err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "NOTIFY_SOCKET 'relative/path'"));
	assert_int_equal(n.fd, -1);
}

/*
 * A listener that never reads (systemd busy, or a socket another user
 * bound at the path): once its queue is full a send must fail at once,
 * not block the control loop; and what was not sent (READY=1 here) is
 * sent at a later turn, once the queue drains.
 */
static void test_notify_never_blocks_on_a_full_listener(void **state)
{
	struct loop_status st = {.waiting = ""};
	struct notify n;
	char name[64], err[256], buf[512];
	int fd, r = 0;

	(void)state;
	snprintf(name, sizeof(name), "@iocad-test-notify-full-%d", (int)getpid());
	fd = listener(name);
	assert_int_equal(notify_open(&n, name, "4000000", NULL, err, sizeof(err)), 0);
	/* a send that blocks fails the test by SIGALRM instead of hanging it */
	alarm(10);
	for (unsigned int i = 0; i < 4096 && !r; i++)
		r = notify_send(&n, "STATUS=filling\n");
	assert_int_equal(r, -EAGAIN);
	notify_status(&n, &st);
	alarm(0);
	assert_false(n.ready);
	while (next_msg(fd, buf, sizeof(buf))[0])
		;
	notify_status(&n, &st);
	assert_string_equal(next_msg(fd, buf, sizeof(buf)),
			    "READY=1\nWATCHDOG=1\nSTATUS=running: samples come, allocation in "
			    "force\n");
	assert_true(n.ready);
	notify_close(&n);
	close(fd);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_notify_ready_watchdog_status_abstract),
		cmocka_unit_test(test_notify_path_socket_and_foreign_watchdog),
		cmocka_unit_test(test_notify_without_socket_or_with_a_bad_one),
		cmocka_unit_test(test_notify_never_blocks_on_a_full_listener),
	};

	return cmocka_run_group_tests_name("notify", tests, NULL, NULL);
}
