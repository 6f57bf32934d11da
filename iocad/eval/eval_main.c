// SPDX-License-Identifier: GPL-2.0
/*
 * eval: iocad's decisions judged on generated cases (EVAL.md). Every case
 * runs in static, ioca and core-only on the simulator, and the oracle
 * searches each phase's best layout; the report compares them.
 *
 *   eval [--seed S] [--count N] [--jobs J] [--out DIR] [--check]
 *   eval --seed S --case I      one case in full (its config, scenario, figures)
 *
 * Deterministic for a seed whatever --jobs is: cases are generated from
 * (seed, index) alone and reported in index order.
 */
#define _DEFAULT_SOURCE /* MAP_ANONYMOUS, mkdtemp */
#include <errno.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "eval/eval_case.h"
#include "eval/eval_report.h"

struct args {
	uint64_t seed;
	unsigned int count, jobs, first;
	long one;	  /* --case, or -1 */
	double allow_pct; /* --check passes with at most this share of cases broken */
	const char *out;
	bool check;
	bool property_only; /* static and ioca only, the property without the report */
	/* --story: a story's own config and scenario, its phases' bounds in seconds */
	const char *story_ini, *story_scn, *phases;
};

static int usage(void)
{
	fputs("usage: iocad-eval [--seed S] [--count N] [--first I] [--jobs J] [--out DIR]\n"
	      "                  [--check [--allow-pct P]] [--property-only]\n"
	      "       iocad-eval [--seed S] --case I\n"
	      "       iocad-eval --story CONFIG --scenario SCENARIO --phases T0,T1,...\n",
	      stderr);
	return 2;
}

static int parse(int argc, char **argv, struct args *a)
{
	static const struct option lo[] = {
		{"seed", 1, 0, 's'},  {"count", 1, 0, 'n'},	{"jobs", 1, 0, 'j'},
		{"out", 1, 0, 'o'},   {"check", 0, 0, 'c'},	{"case", 1, 0, 'i'},
		{"first", 1, 0, 'f'}, {"allow-pct", 1, 0, 'a'}, {"property-only", 0, 0, 'p'},
		{"story", 1, 0, 'S'}, {"scenario", 1, 0, 'N'},	{"phases", 1, 0, 'P'},
		{0, 0, 0, 0}};
	int o;

	*a = (struct args){.seed = 1, .count = 1000, .jobs = 2, .one = -1};
	while ((o = getopt_long(argc, argv, "", lo, NULL)) != -1) {
		unsigned long long v;
		char *end;

		if (o == 'c' || o == 'p') {
			*(o == 'c' ? &a->check : &a->property_only) = true;
			continue;
		}
		if (o == 'o' || o == 'S' || o == 'N' || o == 'P') {
			*(o == 'o'   ? &a->out
			  : o == 'S' ? &a->story_ini
			  : o == 'N' ? &a->story_scn
				     : &a->phases) = optarg;
			continue;
		}
		if (o == 'a') {
			a->allow_pct = strtod(optarg, &end);
			if (*end || end == optarg || !(a->allow_pct >= 0 && a->allow_pct <= 100)) {
				fprintf(stderr,
					"eval: --allow-pct %s: expected a percentage in [0, 100]\n",
					optarg);
				return -EINVAL;
			}
			continue;
		}
		if (o == '?')
			return -EINVAL;
		errno = 0;
		v = strtoull(optarg, &end, 0);
		if (errno || *end || end == optarg ||
		    (o != 's' && (v > 1000000 || (o == 'j' && (v < 1 || v > 64))))) {
			fprintf(stderr, "eval: --%s %s: expected a number%s\n",
				o == 's'   ? "seed"
				: o == 'n' ? "count"
				: o == 'j' ? "jobs"
					   : "case",
				optarg, o == 'j' ? " in [1, 64]" : " up to 1000000");
			return -EINVAL;
		}
		if (o == 's')
			a->seed = v;
		else if (o == 'n')
			a->count = (unsigned int)v;
		else if (o == 'j')
			a->jobs = (unsigned int)v;
		else if (o == 'f')
			a->first = (unsigned int)v;
		else
			a->one = (long)v;
	}
	return optind == argc ? 0 : -EINVAL;
}

static int one_case(const struct args *a, const char *dir)
{
	static struct eval_result r;
	static struct eval_case c;

	eval_case_run(a->seed, (unsigned int)a->one, dir, false, &r);
	eval_gen(a->seed, (unsigned int)a->one, &c);
	eval_report_case(&r, &c, stdout);
	/* a config refused with its reason is the case's outcome, not the tool's failure */
	return r.err && !(r.refused && r.msg[0]) ? 1 : 0;
}

/* A file's text into @buf of @len, or an error naming it. */
static int slurp(const char *path, char *buf, size_t len)
{
	int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	size_t n = 0;
	ssize_t k = 1;
	struct stat st;

	if (fd < 0) {
		fprintf(stderr, "eval: %s: %s\n", path, strerror(errno));
		return -1;
	}
	/* a FIFO or a device named by mistake: refused, not waited on */
	if (fstat(fd, &st) || !S_ISREG(st.st_mode)) {
		fprintf(stderr, "eval: %s: not a regular file\n", path);
		close(fd);
		return -1;
	}
	while (n + 1 < len && (k = read(fd, buf + n, len - 1 - n)) > 0)
		n += (size_t)k;
	close(fd);
	buf[n] = 0;
	if (k < 0 || n + 1 >= len) {
		fprintf(stderr, "eval: %s: %s\n", path,
			k < 0 ? strerror(errno) : "too long for a case");
		return -1;
	}
	return 0;
}

/*
 * A story (make demo) placed between static and the oracle: its config and
 * scenario run as a case whose phases are given, every mode's IPC per tenant.
 */
static int story(const struct args *a, const char *dir)
{
	static struct eval_result r;
	static struct eval_case c;
	const char *p = a->phases;

	memset(&c, 0, sizeof(c));
	snprintf(c.desc, sizeof(c.desc), "story %s", a->story_ini);
	if (slurp(a->story_ini, c.ini, sizeof(c.ini)) || slurp(a->story_scn, c.scn, sizeof(c.scn)))
		return 1;
	for (unsigned int k = 0; p && *p && k <= EVAL_MAX_PHASES; k++) {
		char *end;

		c.start[k] = strtod(p, &end);
		if (end == p || (*end && *end != ',') || (k && !(c.start[k] > c.start[k - 1]))) {
			fprintf(stderr, "eval: --phases %s: expected rising seconds T0,T1,...\n",
				a->phases);
			return 2;
		}
		c.nphases = k;
		p = *end ? end + 1 : end;
	}
	if (!c.nphases || *p || !a->story_scn) {
		fprintf(stderr, "eval: --story needs --scenario and --phases of 2 to %d bounds\n",
			EVAL_MAX_PHASES + 1);
		return 2;
	}
	eval_case_run_given(&c, dir, false, &r);
	eval_report_story(&r, &c, stdout);
	return r.err ? 1 : 0;
}

/* Worker @k of @a->jobs: every case whose index is k modulo jobs. */
static void work(const struct args *a, unsigned int k, const char *dir, struct eval_result *r)
{
	for (unsigned int c = k; c < a->count; c += a->jobs)
		eval_case_run(a->seed, a->first + c, dir, a->property_only, &r[c]);
}

static int run_all(const struct args *a, const char *dir, struct eval_result *r)
{
	unsigned int started = 0;
	int rc = 0;

	for (unsigned int k = 0; k < a->jobs; k++) {
		pid_t p = fork();

		if (p < 0) {
			perror("eval: fork");
			rc = -1;
			break;
		}
		if (p == 0) {
			work(a, k, dir, r);
			_exit(0);
		}
		started++;
	}
	while (started--) {
		int st;

		if (wait(&st) < 0 || !WIFEXITED(st) || WEXITSTATUS(st))
			rc = -1;
	}
	return rc;
}

static FILE *open_out(const struct args *a, const char *name)
{
	char path[4096];
	FILE *f;
	int fd;

	if (!a->out)
		return NULL;
	snprintf(path, sizeof(path), "%s/%s", a->out, name);
	/* the report's directory may be shared: never write through a link */
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW | O_CLOEXEC, 0644);
	f = fd < 0 ? NULL : fdopen(fd, "w");
	if (!f && fd >= 0)
		close(fd);
	if (!f)
		fprintf(stderr, "eval: %s: %s\n", path, strerror(errno));
	return f;
}

int main(int argc, char **argv)
{
	char dir[] = "/tmp/iocad-eval.XXXXXX";
	struct eval_result *r;
	struct args a;
	struct timespec t0, t1;
	size_t sz;
	int rc = 0;

	if (parse(argc, argv, &a))
		return usage();
	if (!mkdtemp(dir)) {
		perror("eval: mkdtemp");
		return 1;
	}
	if (a.one >= 0 || a.story_ini) {
		rc = a.story_ini ? story(&a, dir) : one_case(&a, dir);
		goto out_rmdir;
	}
	sz = (a.count ? a.count : 1) * sizeof(*r);
	r = mmap(NULL, sz, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (r == MAP_FAILED) {
		perror("eval: mmap");
		rc = 1;
		goto out_rmdir;
	}
	clock_gettime(CLOCK_MONOTONIC, &t0);
	if (run_all(&a, dir, r)) {
		fputs("eval: a worker failed\n", stderr);
		rc = 1;
	} else {
		FILE *rep = open_out(&a, "report.txt"), *csv = open_out(&a, "ps_ipc.csv");
		unsigned int broken, refused, judged;

		clock_gettime(CLOCK_MONOTONIC, &t1);
		/* without the other modes and the oracle only the property has figures */
		if (!a.property_only)
			eval_report(r, a.count, a.seed, stdout, csv);
		if (rep && !a.property_only)
			eval_report(r, a.count, a.seed, rep, NULL);
		broken = eval_property(r, a.count, a.seed,
				       a.check ? stdout
				       : rep   ? rep
					       : stderr,
				       &refused);
		double secs =
			(double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) / 1e9;
		/* a refused config ran nowhere: the share is of the cases that ran */
		judged = a.count - refused;
		bool over = (double)broken > a.allow_pct / 100.0 * judged;

		printf("refused configs: %u, each with its reason (\"refused: case N: ...\" "
		       "with the violations)\n",
		       refused);
		if (a.check && a.allow_pct > 0)
			/* a gate: one verdict, the cases it counted in words */
			printf("eval-property: %u passed, %u failed (%u of %u cases run put a PS "
			       "tenant below %.2f of static, or could not run; at most %.1f %% "
			       "allowed; %.1f s)\n",
			       !over, over, broken, judged, EVAL_PS_FLOOR, a.allow_pct, secs);
		else
			printf("eval-property: %u passed, %u failed (no PS tenant below %.2f of "
			       "static in any phase's second half; %u refused; %u jobs, %.1f s)\n",
			       judged - broken, broken, EVAL_PS_FLOOR, refused, a.jobs, secs);
		if (a.check && over)
			rc = 1;
		if (rep)
			fclose(rep);
		if (csv)
			fclose(csv);
	}
	munmap(r, sz);
out_rmdir:
	if (rmdir(dir))
		fprintf(stderr, "eval: %s: %s\n", dir, strerror(errno));
	return rc;
}
