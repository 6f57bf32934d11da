// SPDX-License-Identifier: GPL-2.0
/*
 * The iocad binary on the simulator (--pace, 50 ms intervals) while its
 * tenants_dir and a cgroup tenant's cpuset change under it: a file added
 * is a tenant joining within a few intervals, a broken file is refused
 * with file:line while the others keep running, a removed file's tenant
 * leaves, and a cgroup whose cpuset.cpus.effective changes is followed.
 */
#include <errno.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <cmocka.h>

#define IOCAD "build/iocad"

struct fx {
	char dir[64];
	char scn[96], ini[96], out[96], err[96], tdir[96], cg[96];
	pid_t pid;
};

static void put(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");

	assert_non_null(f);
	assert_true(fputs(text, f) >= 0);
	assert_int_equal(fclose(f), 0);
}

/* Write @name in the tenants_dir as a runtime would: a temporary, then rename. */
static void drop(const struct fx *f, const char *name, const char *text)
{
	char tmp[160], path[160];

	snprintf(tmp, sizeof(tmp), "%s/.%s.tmp", f->tdir, name);
	snprintf(path, sizeof(path), "%s/%s", f->tdir, name);
	put(tmp, text);
	assert_int_equal(rename(tmp, path), 0);
}

static void sleep_ms(long ms)
{
	struct timespec ts = {.tv_sec = ms / 1000, .tv_nsec = (ms % 1000) * 1000000L};

	while (nanosleep(&ts, &ts) && errno == EINTR)
		;
}

static char *slurp(const char *path)
{
	static char buf[1 << 20];
	FILE *f = fopen(path, "r");
	size_t n = 0;

	buf[0] = '\0';
	if (f) {
		n = fread(buf, 1, sizeof(buf) - 1, f);
		fclose(f);
	}
	buf[n] = '\0';
	return buf;
}

/* The last complete line of @path. */
static void last_line(const char *path, char *out, size_t len)
{
	char *b = slurp(path), *end = strrchr(b, '\n'), *start;

	out[0] = '\0';
	if (!end)
		return;
	*end = '\0';
	start = strrchr(b, '\n');
	snprintf(out, len, "%s", start ? start + 1 : b);
}

/* Wait up to 10 s for @path to hold @what (in its last line with @last). */
static int wait_for(const char *path, const char *what, int last, int absent)
{
	char line[4096];

	for (int i = 0; i < 1000; i++) {
		const char *hit;

		if (last) {
			last_line(path, line, sizeof(line));
			hit = strstr(line, what);
		} else {
			hit = strstr(slurp(path), what);
		}
		if (absent ? !hit && (!last || line[0]) : hit != NULL)
			return 1;
		sleep_ms(10);
	}
	return 0;
}

static int setup(void **state)
{
	struct fx *f = calloc(1, sizeof(*f));
	char text[1024], path[160];

	assert_non_null(f);
	snprintf(f->dir, sizeof(f->dir), "/tmp/iocad-dropsim-XXXXXX");
	assert_non_null(mkdtemp(f->dir));
	snprintf(f->scn, sizeof(f->scn), "%s/s.scn", f->dir);
	snprintf(f->ini, sizeof(f->ini), "%s/c.ini", f->dir);
	snprintf(f->out, sizeof(f->out), "%s/out", f->dir);
	snprintf(f->err, sizeof(f->err), "%s/err", f->dir);
	snprintf(f->tdir, sizeof(f->tdir), "%s/tenants.d", f->dir);
	snprintf(f->cg, sizeof(f->cg), "%s/cgroup", f->dir);
	assert_int_equal(mkdir(f->tdir, 0755), 0);
	assert_int_equal(mkdir(f->cg, 0755), 0);
	snprintf(path, sizeof(path), "%s/pod", f->cg);
	assert_int_equal(mkdir(path, 0755), 0);
	snprintf(path, sizeof(path), "%s/pod/cpuset.cpus.effective", f->cg);
	put(path, "3\n");
	/* b and c are known to the platform, not to the starting config */
	put(f->scn, "[platform]\nways = 11\nduration = 5000s\n[tenant a]\nws = 1M\n"
		    "[tenant b]\nws = 1M\ncpus = 1\n[tenant c]\nws = 1M\ncpus = 2-3\n");
	snprintf(text, sizeof(text),
		 "[platform]\nllc_ways = 11\ninterval_ms = 50\ntenants_dir = %s\n"
		 "cgroup_root = %s\n[tenant a]\ncpus = 0\nways = 2\n",
		 f->tdir, f->cg);
	put(f->ini, text);
	*state = f;
	return 0;
}

static int teardown(void **state)
{
	struct fx *f = *state;
	char cmd[128];

	if (f->pid > 0) {
		kill(f->pid, SIGKILL);
		waitpid(f->pid, NULL, 0);
	}
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", f->dir);
	assert_int_equal(system(cmd), 0);
	free(f);
	return 0;
}

static void start(struct fx *f)
{
	f->pid = fork();
	assert_true(f->pid >= 0);
	if (!f->pid) {
		if (!freopen(f->out, "w", stdout) || !freopen(f->err, "w", stderr))
			_exit(127);
		execl(IOCAD, IOCAD, "--sim", f->scn, "--pace", f->ini, (char *)NULL);
		_exit(127);
	}
	assert_true(wait_for(f->out, "#1 s0", 0, 0));
}

static int stop(struct fx *f)
{
	int st;

	assert_int_equal(kill(f->pid, SIGTERM), 0);
	assert_int_equal(waitpid(f->pid, &st, 0), f->pid);
	f->pid = 0;
	return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

static void test_dropin_sim_files_added_broken_removed_while_running(void **state)
{
	struct fx *f = *state;
	char path[160];

	start(f);
	assert_true(wait_for(f->out, " a=0x", 1, 0));
	assert_true(wait_for(f->out, " b=0x", 1, 1));
	/* a new file: b joins */
	drop(f, "b.ini", "[tenant b]\ncpus = 1\nways = 3\n");
	assert_true(wait_for(f->out, " b=0x", 1, 0));
	/* a broken one: refused with file:line, a and b keep running */
	drop(f, "c.ini", "[tenant c]\ncpus = 2-3\n\nwayz = 1\n");
	assert_true(wait_for(f->err, "/c.ini:4: [tenant c] wayz: unknown key; file refused", 0, 0));
	sleep_ms(200);
	assert_true(wait_for(f->out, " a=0x", 1, 0));
	assert_true(wait_for(f->out, " b=0x", 1, 0));
	assert_true(wait_for(f->out, " c=0x", 1, 1));
	/* a broken edit of a running one changes nothing */
	drop(f, "b.ini", "[tenant b]\ncpus = 1\nways = 300\n");
	assert_true(wait_for(f->err, "/b.ini:3: [tenant b] ways: bad value '300'", 0, 0));
	assert_true(wait_for(f->err, "keeping its previous version", 0, 0));
	assert_true(wait_for(f->out, " b=0x", 1, 0));
	/* removed: b leaves */
	snprintf(path, sizeof(path), "%s/b.ini", f->tdir);
	assert_int_equal(unlink(path), 0);
	assert_true(wait_for(f->out, " b=0x", 1, 1));
	assert_true(wait_for(f->out, " a=0x", 1, 0));
	assert_int_equal(stop(f), 0);
	/* nothing of the run was lost: every interval's line is there, in order */
	{
		unsigned int want = 0, idx;
		char *b = slurp(f->out);

		for (char *l = strtok(b, "\n"); l; l = strtok(NULL, "\n")) {
			assert_int_equal(sscanf(l, "#%u ", &idx), 1);
			assert_int_equal(idx, want);
			want++;
		}
		assert_true(want >= 4); /* the start and each change's interval */
	}
}

static void test_dropin_sim_cgroup_tenant_followed(void **state)
{
	struct fx *f = *state;
	char path[160];

	drop(f, "c.ini", "[tenant c]\ncgroup = pod\nways = 2\n");
	start(f);
	assert_true(wait_for(f->out, " c=0x", 1, 0));
	snprintf(path, sizeof(path), "%s/pod/cpuset.cpus.effective", f->cg);
	put(path, "2-3\n");
	assert_true(wait_for(f->err,
			     "tenant c: cgroup pod: cpuset.cpus.effective changed (2 CPUs); "
			     "reloading",
			     0, 0));
	assert_true(wait_for(f->err, "reload: socket 0: 2 tenants, LLC Alloc done", 0, 0));
	/* a CPU that another tenant has: the cgroup tenant's file is refused, a stays */
	put(path, "0\n");
	assert_true(wait_for(f->err, "/c.ini:2: [tenant c] cpus: CPU 0 is also in tenant a", 0, 0));
	assert_true(wait_for(f->out, " a=0x", 1, 0));
	assert_int_equal(stop(f), 0);
}

/*
 * A reload refused after its drop-ins were read (placing its tenants on
 * the platform: a CPU the host lacks) keeps watching the running config's
 * tenants_dir, not the refused one's: a file added there later is still a
 * tenant joining.
 */
static void test_dropin_sim_refused_reload_keeps_the_watches(void **state)
{
	struct fx *f = *state;
	char good[1024], text[1024], tdir2[160];

	snprintf(tdir2, sizeof(tdir2), "%s/other.d", f->dir);
	assert_int_equal(mkdir(tdir2, 0755), 0);
	snprintf(good, sizeof(good), "%s", slurp(f->ini));
	start(f);
	assert_true(wait_for(f->out, " a=0x", 1, 0));
	/* another directory, and a CPU the platform lacks: refused when placed */
	snprintf(text, sizeof(text),
		 "[platform]\nllc_ways = 11\ninterval_ms = 50\ntenants_dir = %s\n"
		 "[tenant a]\ncpus = 40\nways = 2\n",
		 tdir2);
	put(f->ini, text);
	assert_int_equal(kill(f->pid, SIGHUP), 0);
	assert_true(wait_for(f->err, "reload rejected, keeping the running config", 0, 0));
	/* the running config's file back, then a tenant file in its directory */
	put(f->ini, good);
	drop(f, "b.ini", "[tenant b]\ncpus = 1\nways = 3\n");
	assert_true(wait_for(f->out, " b=0x", 1, 0));
	assert_int_equal(stop(f), 0);
}

int main(void)
{
#define T(x) cmocka_unit_test_setup_teardown(x, setup, teardown)
	const struct CMUnitTest tests[] = {
		T(test_dropin_sim_files_added_broken_removed_while_running),
		T(test_dropin_sim_cgroup_tenant_followed),
		T(test_dropin_sim_refused_reload_keeps_the_watches),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
