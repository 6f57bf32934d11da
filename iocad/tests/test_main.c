// SPDX-License-Identifier: GPL-2.0
/*
 * The iocad binary itself (build/iocad, run from iocad/ like `make check`
 * does): exit statuses and what signals do to its output.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/types.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <cmocka.h>

#define IOCAD "build/iocad"

struct fx {
	char dir[64];
	char scn[96], ini[96];
};

static void write_file(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");

	assert_non_null(f);
	assert_int_equal(fputs(text, f) < 0, 0);
	assert_int_equal(fclose(f), 0);
}

static int setup(void **state)
{
	struct fx *f = calloc(1, sizeof(*f));

	assert_non_null(f);
	snprintf(f->dir, sizeof(f->dir), "/tmp/iocad-main-XXXXXX");
	assert_non_null(mkdtemp(f->dir));
	snprintf(f->scn, sizeof(f->scn), "%s/s.scn", f->dir);
	snprintf(f->ini, sizeof(f->ini), "%s/c.ini", f->dir);
	write_file(f->scn, "[platform]\nways = 11\nduration = 5000s\n[tenant a]\nws = 1M\n");
	*state = f;
	return 0;
}

static int teardown(void **state)
{
	struct fx *f = *state;

	unlink(f->scn);
	unlink(f->ini);
	rmdir(f->dir);
	free(f);
	return 0;
}

static void sleep_ms(long ms)
{
	struct timespec ts = {.tv_sec = ms / 1000, .tv_nsec = (ms % 1000) * 1000000L};

	while (nanosleep(&ts, &ts) && errno == EINTR)
		;
}

/* Run iocad with @argv; its stdout on *@out_fd (a pipe) if not NULL. */
static pid_t spawn(char *const argv[], int *out_fd)
{
	int p[2];
	pid_t pid;

	assert_int_equal(pipe(p), 0);
	pid = fork();
	assert_true(pid >= 0);
	if (!pid) {
		dup2(p[1], 1);
		close(p[0]);
		close(p[1]);
		if (!freopen("/dev/null", "w", stderr))
			_exit(127);
		execv(IOCAD, argv);
		_exit(127);
	}
	close(p[1]);
	if (out_fd)
		*out_fd = p[0];
	else
		close(p[0]);
	return pid;
}

static int exit_status(pid_t pid)
{
	int st;

	assert_int_equal(waitpid(pid, &st, 0), pid);
	assert_true(WIFEXITED(st));
	return WEXITSTATUS(st);
}

/* A config error found only against the platform exits 2, like any config error. */
static void test_detect_config_error_exits_2(void **state)
{
	struct fx *f = *state;
	char *argv[] = {IOCAD, "--sim", f->scn, f->ini, NULL};

	write_file(f->ini, "[platform]\nllc_ways = detect\n[tenant a]\ncpus = 0\nways = 12\n");
	assert_int_equal(exit_status(spawn(argv, NULL)), 2);
	write_file(f->ini, "[platform]\nllc_ways = detect\n[tenant a]\ncpus = 0\nways = 2\n");
	assert_int_equal(exit_status(spawn(argv, NULL)), 0);
}

/*
 * SIGHUPs while iocad is blocked writing its interval lines to a full
 * pipe: every line still arrives, once and in order.
 */
static void test_sighup_during_output_loses_no_line(void **state)
{
	struct fx *f = *state;
	char *argv[] = {IOCAD, "--sim", f->scn, "--intervals", "3000", f->ini, NULL};
	static char buf[1 << 20];
	size_t n = 0;
	unsigned int want = 0, hups = 0;
	int fd;
	pid_t pid;

	write_file(f->ini, "[platform]\nllc_ways = 11\n[tenant a]\ncpus = 0\nways = 2\n");
	pid = spawn(argv, &fd);
	for (;;) {
		ssize_t r;

		sleep_ms(2); /* let it block on the full pipe */
		/* its first line means its handlers are installed */
		if (n && kill(pid, SIGHUP) == 0)
			hups++;
		r = read(fd, buf + n, 2048 < sizeof(buf) - 1 - n ? 2048 : sizeof(buf) - 1 - n);
		if (r <= 0)
			break;
		n += (size_t)r;
	}
	close(fd);
	assert_int_equal(exit_status(pid), 0);
	buf[n] = '\0';
	assert_true(hups > 20);
	for (char *line = strtok(buf, "\n"); line; line = strtok(NULL, "\n")) {
		unsigned int idx;

		assert_int_equal(sscanf(line, "#%u ", &idx), 1);
		assert_int_equal(idx, want);
		want++;
	}
	assert_int_equal(want, 3000);
}

/*
 * Under systemd (Type=notify): READY=1 and the watchdog's first ping once
 * the loop turns, a STATUS= line, STOPPING=1 on the way out, to the
 * abstract socket $NOTIFY_SOCKET names.
 */
static void test_sd_notify_ready_status_stopping(void **state)
{
	struct fx *f = *state;
	char *argv[] = {IOCAD, "--sim", f->scn, "--intervals", "5", "--quiet", f->ini, NULL};
	struct sockaddr_un a = {.sun_family = AF_UNIX};
	char name[64], all[4096] = "", buf[1024];
	int fd;

	write_file(f->ini, "[platform]\nllc_ways = 11\n[tenant a]\ncpus = 0\nways = 2\n");
	snprintf(name, sizeof(name), "@iocad-test-main-%d", (int)getpid());
	fd = socket(AF_UNIX, SOCK_DGRAM | SOCK_NONBLOCK, 0);
	assert_true(fd >= 0);
	memcpy(a.sun_path + 1, name + 1, strlen(name) - 1);
	assert_int_equal(bind(fd, (struct sockaddr *)&a,
			      (socklen_t)(offsetof(struct sockaddr_un, sun_path) + strlen(name))),
			 0);
	setenv("NOTIFY_SOCKET", name, 1);
	setenv("WATCHDOG_USEC", "30000000", 1);
	assert_int_equal(exit_status(spawn(argv, NULL)), 0);
	unsetenv("NOTIFY_SOCKET");
	unsetenv("WATCHDOG_USEC");
	for (;;) {
		ssize_t n = recv(fd, buf, sizeof(buf) - 1, 0);

		if (n <= 0)
			break;
		buf[n] = '\0';
		strncat(all, buf, sizeof(all) - strlen(all) - 1);
	}
	close(fd);
	assert_non_null(strstr(all, "READY=1\nWATCHDOG=1\nSTATUS=running"));
	assert_non_null(strstr(all, "STOPPING=1\n"));
	assert_true(strstr(all, "READY=1") < strstr(all, "STOPPING=1"));
}

/* Run iocad with @argv, its stderr on *@err_fd (a non-blocking pipe), stdout to /dev/null. */
static pid_t spawn_err(char *const argv[], int *err_fd)
{
	int p[2];
	pid_t pid;

	assert_int_equal(pipe(p), 0);
	pid = fork();
	assert_true(pid >= 0);
	if (!pid) {
		dup2(p[1], 2);
		close(p[0]);
		close(p[1]);
		if (!freopen("/dev/null", "w", stdout))
			_exit(127);
		execv(IOCAD, argv);
		_exit(127);
	}
	close(p[1]);
	assert_int_equal(fcntl(p[0], F_SETFL, O_NONBLOCK), 0);
	*err_fd = p[0];
	return pid;
}

/* Append what @fd has now to @buf (of @len). */
static void drain(int fd, char *buf, size_t len)
{
	size_t n = strlen(buf);
	ssize_t r;

	while (n < len - 1 && (r = read(fd, buf + n, len - 1 - n)) > 0)
		n += (size_t)r;
	buf[n] = '\0';
}

static unsigned int count(const char *hay, const char *needle)
{
	unsigned int n = 0;

	for (const char *p = strstr(hay, needle); p; p = strstr(p + 1, needle))
		n++;
	return n;
}

/* An abstract datagram socket for $NOTIFY_SOCKET (set), bound: its fd. */
static int notify_listen(void)
{
	struct sockaddr_un a = {.sun_family = AF_UNIX};
	char name[64];
	int fd;

	snprintf(name, sizeof(name), "@iocad-test-retry-%d", (int)getpid());
	fd = socket(AF_UNIX, SOCK_DGRAM | SOCK_NONBLOCK, 0);
	assert_true(fd >= 0);
	memcpy(a.sun_path + 1, name + 1, strlen(name) - 1);
	assert_int_equal(bind(fd, (struct sockaddr *)&a,
			      (socklen_t)(offsetof(struct sockaddr_un, sun_path) + strlen(name))),
			 0);
	setenv("NOTIFY_SOCKET", name, 1);
	return fd;
}

static void notify_read(int fd, char *all, size_t len)
{
	char buf[1024];

	for (;;) {
		ssize_t n = recv(fd, buf, sizeof(buf) - 1, 0);

		if (n <= 0)
			break;
		buf[n] = '\0';
		strncat(all, buf, len - strlen(all) - 1);
	}
}

/*
 * The host platform without ioca.ko (this test machine): a refusal that
 * may clear. Without --retry-start: exit 75. Returns false (the test
 * skipped) where the module is loaded.
 */
static bool module_absent(struct fx *f)
{
	char *argv[] = {IOCAD, f->ini, NULL};
	char err[4096] = "";
	int fd, rc;
	pid_t pid;

	write_file(f->ini, "[platform]\nllc_ways = 11\n[tenant a]\ncpus = 0\nways = 2\n");
	pid = spawn_err(argv, &fd);
	rc = exit_status(pid);
	drain(fd, err, sizeof(err));
	close(fd);
	if (!strstr(err, "ioca.ko is not loaded"))
		return false;
	assert_int_equal(rc, 75);
	return true;
}

/*
 * --retry-start: a start refused for a reason that may clear is tried
 * again after 1, 2 .. s, said in the log and to systemd (READY=1, STATUS=
 * what it waits for, the watchdog fed while waiting); SIGHUP re-reads the
 * config and tries at once (the backoff starts over); SIGTERM ends the
 * wait with 0.
 */
static void test_retry_start_waits_and_stops(void **state)
{
	struct fx *f = *state;
	char *argv[] = {IOCAD, "--retry-start", "--quiet", f->ini, NULL};
	char err[16384] = "", all[16384] = "";
	int efd, nfd;
	pid_t pid;

	if (!module_absent(f)) {
		skip();
		return;
	}
	nfd = notify_listen();
	setenv("WATCHDOG_USEC", "400000", 1);
	pid = spawn_err(argv, &efd);
	unsetenv("NOTIFY_SOCKET");
	unsetenv("WATCHDOG_USEC");
	sleep_ms(1600);
	drain(efd, err, sizeof(err));
	notify_read(nfd, all, sizeof(all));
	/* tried at 0 and after 1 s; the next in 2 s */
	assert_int_equal(count(err, "ioca.ko is not loaded"), 2);
	assert_non_null(strstr(err, "trying again in 1 s"));
	assert_non_null(strstr(err, "trying again in 2 s"));
	assert_non_null(strstr(all, "READY=1\n"));
	assert_non_null(strstr(all,
			       "STATUS=waiting for the start to be possible (next try in 1 s): "
			       "ioca.ko is not loaded"));
	assert_non_null(
		strstr(all, "STATUS=waiting for the start to be possible (next try in 2 s)"));
	/* a 0.4 s watchdog is fed every 0.1 s or so while iocad waits */
	assert_true(count(all, "WATCHDOG=1") >= 5);
	assert_int_equal(waitpid(pid, NULL, WNOHANG), 0);

	/* SIGHUP: the config again, a try now, the backoff from 1 s */
	assert_int_equal(kill(pid, SIGHUP), 0);
	sleep_ms(400);
	drain(efd, err, sizeof(err));
	assert_non_null(strstr(err, "SIGHUP while waiting to start: re-reading"));
	assert_int_equal(count(err, "ioca.ko is not loaded"), 3);
	assert_int_equal(count(err, "trying again in 1 s"), 2);

	assert_int_equal(kill(pid, SIGTERM), 0);
	assert_int_equal(exit_status(pid), 0);
	drain(efd, err, sizeof(err));
	assert_non_null(strstr(err, "stop requested while waiting to start"));
	notify_read(nfd, all, sizeof(all));
	assert_non_null(strstr(all, "STOPPING=1"));
	close(efd);
	close(nfd);
}

/* A SIGHUP during a start wait that reads a broken config: exit 2 at once, no more tries. */
static void test_retry_start_config_error_exits_2(void **state)
{
	struct fx *f = *state;
	char *argv[] = {IOCAD, "--retry-start", "--quiet", f->ini, NULL};
	char err[16384] = "";
	int efd;
	pid_t pid;

	if (!module_absent(f)) {
		skip();
		return;
	}
	pid = spawn_err(argv, &efd);
	sleep_ms(300);
	write_file(f->ini, "[platform]\nllc_ways = 11\n[tenant a]\ncpus = 0\nways = 99\n");
	assert_int_equal(kill(pid, SIGHUP), 0);
	assert_int_equal(exit_status(pid), 2);
	drain(efd, err, sizeof(err));
	close(efd);
	assert_non_null(strstr(err, "c.ini:"));
	assert_int_equal(count(err, "ioca.ko is not loaded"), 1);
}

/* --trace at a name someone planted a symlink on: refused, the link's target untouched. */
static void test_trace_never_through_a_symlink(void **state)
{
	struct fx *f = *state;
	char trace[128], victim[128], buf[64] = "";
	char *argv[] = {IOCAD,	   "--sim",   f->scn, "--intervals", "3",
			"--quiet", "--trace", trace,  f->ini,	     NULL};
	FILE *v;

	snprintf(trace, sizeof(trace), "%s/t.csv", f->dir);
	snprintf(victim, sizeof(victim), "%s/victim", f->dir);
	write_file(f->ini, "[platform]\nllc_ways = 11\n[tenant a]\ncpus = 0\nways = 2\n");
	write_file(victim, "keep\n");
	assert_int_equal(symlink(victim, trace), 0);
	assert_int_not_equal(exit_status(spawn(argv, NULL)), 0);
	v = fopen(victim, "r");
	assert_non_null(v);
	assert_non_null(fgets(buf, sizeof(buf), v));
	fclose(v);
	assert_string_equal(buf, "keep\n");
	/* a plain file at that name is written */
	unlink(trace);
	assert_int_equal(exit_status(spawn(argv, NULL)), 0);
	assert_int_equal(access(trace, R_OK), 0);
	unlink(trace);
	unlink(victim);
}

int main(void)
{
#define T(x) cmocka_unit_test_setup_teardown(x, setup, teardown)
	const struct CMUnitTest tests[] = {
		T(test_detect_config_error_exits_2),
		T(test_sighup_during_output_loses_no_line),
		T(test_sd_notify_ready_status_stopping),
		T(test_retry_start_waits_and_stops),
		T(test_retry_start_config_error_exits_2),
		T(test_trace_never_through_a_symlink),
	};

	signal(SIGPIPE, SIG_IGN);
	return cmocka_run_group_tests_name("main", tests, NULL, NULL);
}
