// SPDX-License-Identifier: GPL-2.0
/*
 * iocad: parse options and the config, open a platform, run the loop.
 * The only place that installs signal handlers and calls exit().
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "watch/cgroup_watch.h"
#include "config/config.h"
#include "config/config_socket.h"
#include "config/dropin.h"
#include "watch/dropin_watch.h"
#include "host_platform.h"
#include "loop/loop.h"
#include "metrics/metrics_exporter.h"
#include "loop/notify.h"
#include "loop/pace.h"

#include "sim_platform.h"

/*
 * Exit codes (iocad.8, EXIT STATUS; the unit's RestartPreventExitStatus=
 * lists the ones a restart would only repeat).
 */
#define EXIT_CONFIG 2	   /* the config is wrong, or does not fit this host */
#define EXIT_MODULE_GONE 3 /* ioca.ko went away under iocad: an operator's rmmod */
#define EXIT_TEMPFAIL 75   /* a refusal that may clear (sysexits' EX_TEMPFAIL) */

/* --retry-start: the first wait after a refusal that may clear, doubling to the last */
#define START_RETRY_FIRST_MS 1000u
#define START_RETRY_MAX_MS 60000u
/* how often a start wait looks at its signals and feeds the watchdog */
#define START_SLICE_MS 100u

static volatile sig_atomic_t stop_flag;
static volatile sig_atomic_t reload_flag;

static void on_stop(int sig)
{
	(void)sig;
	stop_flag = 1;
}

static void on_hup(int sig)
{
	(void)sig;
	reload_flag = 1;
}

struct args {
	const char *sim;
	char reload_path[512]; /* a scenario's reload event names the config to read */
	const char *trace;
	const char *config;
	enum iocad_mode mode;
	bool dry_run;
	bool quiet;
	uint64_t seed;
	uint64_t intervals;
	bool check_config; /* --check-config: validate CONFIG, touch nothing */
	bool pace;	   /* --pace: the simulator keeps wall-clock time */
	bool retry_start;  /* --retry-start: a start refusal that may clear is waited out */
	char refused[512]; /* why the last start was refused, for the wait's status */
	/* tenants_dir: the drop-ins last composed, their inotify watch */
	struct dropin dropin;
	/* a reload's: composed into a copy, taken only if the loop takes the config */
	struct dropin *next;
	const struct config *reloading; /* the config reload_cb produced */
	struct notify notify;
	struct metrics_exporter *mx; /* NULL: no [metrics] */
	struct dropin_watch *watch;
	struct cgroup_watch *cgw; /* cgroup tenants' CPUs, re-read every interval */
	struct platform *pf;	  /* opened: drop-ins are placed on its sockets */
	struct platform platform; /* the one a start opened (run_once) */
	struct pace paced;	  /* --pace's wrapper of it */
};

static void usage(FILE *f)
{
	fputs("usage: iocad [--sim SCENARIO] [--mode ioca|core-only|static] [--dry-run]\n"
	      "             [--trace FILE] [--seed N] [--intervals N] [--quiet] [--pace]\n"
	      "             [--retry-start] CONFIG\n"
	      "       iocad --check-config [--retry-start] CONFIG\n"
	      "       iocad --version\n"
	      "\n"
	      "I/O-aware LLC management (the IOCA FSM) for every socket with tenants.\n"
	      "Without --sim it runs on this host: ioca.ko and /sys/fs/resctrl.\n"
	      "  --check-config  validate CONFIG (syntax, CPUs online, each tenant on one socket)\n"
	      "                  and exit, touching nothing\n"
	      "  --sim SCENARIO  run on the simulated platform driven by SCENARIO\n"
	      "  --mode M        ioca (default), core-only (no I/O Demand, no shuffling),\n"
	      "                  static (allocate once, never change)\n"
	      "  --dry-run       decide and log, never apply\n"
	      "  --trace FILE    write one CSV row per interval\n"
	      "                  (columns: iocad/loop/loop_types.h)\n"
	      "  --seed N        simulator seed (default: the scenario's)\n"
	      "  --intervals N   stop after N intervals (default: until the end)\n"
	      "  --quiet         no per-interval log lines\n"
	      "  --pace          with --sim: one interval per interval_ms of wall-clock time\n"
	      "  --retry-start   a start refused for a reason that may clear (ioca.ko not\n"
	      "                  loaded, resctrl not mounted, a tenant CPU offline) is tried\n"
	      "                  again after 1, 2, 4 .. 60 s instead of exiting 75; with\n"
	      "                  --check-config such a refusal is said and exits 0\n"
	      "  --version       print iocad's version (the ioca release) and exit\n"
	      "CONFIG is the tenant config (iocad/CONFIG.md). SIGHUP re-reads it;\n"
	      "SIGTERM/SIGINT restore the platform's original state and exit.\n",
	      f);
}

static int parse_u64(const char *s, uint64_t *out)
{
	char *end;
	unsigned long long v;

	if (!*s || *s == '-')
		return -EINVAL;
	errno = 0;
	v = strtoull(s, &end, 10);
	if (*end || errno)
		return -EINVAL;
	*out = v;
	return 0;
}

static int parse_args(int argc, char **argv, struct args *a)
{
	static const struct option opts[] = {
		{"sim", required_argument, NULL, 's'},
		{"mode", required_argument, NULL, 'm'},
		{"dry-run", no_argument, NULL, 'n'},
		{"trace", required_argument, NULL, 't'},
		{"seed", required_argument, NULL, 'S'},
		{"intervals", required_argument, NULL, 'i'},
		{"quiet", no_argument, NULL, 'q'},
		{"check-config", no_argument, NULL, 'c'},
		{"help", no_argument, NULL, 'h'},
		{"pace", no_argument, NULL, 'p'},
		{"retry-start", no_argument, NULL, 'r'},
		{NULL, 0, NULL, 0},
	};
	int c;

	if (argc == 2 && !strcmp(argv[1], "--version")) {
		printf("iocad %s\n", IOCA_VERSION);
		return 1;
	}
	while ((c = getopt_long(argc, argv, "", opts, NULL)) != -1) {
		switch (c) {
		case 's':
			a->sim = optarg;
			break;
		case 'm':
			if (decide_mode_parse(optarg, &a->mode)) {
				fprintf(stderr,
					"iocad: --mode: unknown mode '%s' "
					"(ioca, core-only, static)\n",
					optarg);
				return 2;
			}
			break;
		case 'n':
			a->dry_run = true;
			break;
		case 't':
			a->trace = optarg;
			break;
		case 'S':
		case 'i':
			if (parse_u64(optarg, c == 'S' ? &a->seed : &a->intervals)) {
				fprintf(stderr, "iocad: --%s: '%s' is not a number\n",
					c == 'S' ? "seed" : "intervals", optarg);
				return 2;
			}
			break;
		case 'q':
			a->quiet = true;
			break;
		case 'c':
			a->check_config = true;
			break;
		case 'p':
			a->pace = true;
			break;
		case 'r':
			a->retry_start = true;
			break;
		case 'h':
			usage(stdout);
			return 1;
		default:
			usage(stderr);
			return 2;
		}
	}
	if (optind != argc - 1) {
		fprintf(stderr, "iocad: expected exactly one CONFIG file\n");
		usage(stderr);
		return 2;
	}
	if (a->pace && !a->sim) {
		fprintf(stderr, "iocad: --pace needs --sim (a host keeps its own time)\n");
		return 2;
	}
	a->config = argv[optind];
	return 0;
}

static void log_cb(void *arg, enum loop_log_level lvl, const char *msg)
{
	struct args *a = arg;

	if (lvl == LOOP_LOG_INTERVAL) {
		if (!a->quiet)
			printf("%s\n", msg);
		return;
	}
	if (lvl == LOOP_LOG_ERROR)
		snprintf(a->refused, sizeof(a->refused), "%s", msg);
	fprintf(stderr, "iocad: %s%s\n", lvl == LOOP_LOG_ERROR ? "error: " : "", msg);
}

static void say_cb(void *arg, const char *msg)
{
	(void)arg;
	fprintf(stderr, "iocad: %s\n", msg);
}

/* Why a start is refused: said, and kept for what a --retry-start wait says it waits for. */
static void refuse(struct args *a, const char *why)
{
	fprintf(stderr, "iocad: %s\n", why);
	snprintf(a->refused, sizeof(a->refused), "%s", why);
}

/*
 * The main file's tenants_dir drop-ins into @cfg (dropin.h); with the
 * platform open, each file is placed on its sockets. Then the watches
 * follow the directories @cfg names now.
 */
static int compose_into(struct args *a, struct dropin *d, struct config *cfg, char *err, size_t len,
			unsigned int *bad)
{
	struct platform_info *info = NULL;
	int r = 0;

	if (a->watch)
		dropin_watch_drain(a->watch);
	if (cfg->ntenants_dirs) {
		if (a->pf && a->pf->ops) {
			info = malloc(sizeof(*info));
			if (info && a->pf->ops->info(a->pf->ctx, info)) {
				free(info);
				info = NULL;
			}
		}
		r = dropin_compose(d, cfg, info, cfg, bad, err, len);
		free(info);
	}
	return r;
}

static int compose(struct args *a, struct config *cfg, char *err, size_t len, unsigned int *bad)
{
	int r = compose_into(a, &a->dropin, cfg, err, len, bad);

	if (!r && a->cgw)
		cgroup_watch_set(a->cgw, cfg);
	return r;
}

/*
 * With the platform open, the drop-ins again, each placed on its sockets:
 * a file naming a CPU the host lacks is refused alone at start too.
 */
static int place_dropins(struct args *a, struct platform *pf, struct config *cfg)
{
	char err[512] = "";
	int r;

	if (!cfg->ntenants_dirs)
		return 0;
	a->pf = pf;
	r = config_parse_file(a->config, cfg, err, sizeof(err));
	if (!r)
		r = compose(a, cfg, err, sizeof(err), NULL);
	if (r)
		refuse(a, err);
	return r;
}

/* Watch the directories @cfg names (opening the watch the first time). */
static void watch(struct args *a, const struct config *cfg)
{
	char werr[256];

	if (cfg->ntenants_dirs && !a->watch) {
		a->watch = dropin_watch_open(werr, sizeof(werr));
		if (!a->watch)
			fprintf(stderr, "iocad: %s; drop-in changes need a SIGHUP\n", werr);
	}
	if (a->watch)
		dropin_watch_set(a->watch, cfg, say_cb, a);
	if (a->cgw)
		a->cgw->dropins = a->watch; /* drained every interval */
}

static int reload_cb(void *arg, struct config *out, char *err, size_t len)
{
	struct args *a = arg;
	int r;

	/*
	 * Only parsed here: the loop checks it against the platform and
	 * applies it. The drop-ins compose into a copy of their record and
	 * the watches stay: both follow the new config only once the loop
	 * took it (reloaded_cb), so a refusal at any step leaves them as they
	 * were.
	 */
	a->reloading = NULL;
	r = config_parse_file(a->reload_path[0] ? a->reload_path : a->config, out, err, len);
	if (!r && !a->next) {
		a->next = calloc(1, sizeof(*a->next));
		if (!a->next) {
			snprintf(err, len, "reload: out of memory");
			r = -ENOMEM;
		}
	}
	if (!r && dropin_copy(a->next, &a->dropin)) {
		snprintf(err, len, "reload: out of memory");
		r = -ENOMEM;
	}
	if (!r)
		r = compose_into(a, a->next, out, err, len, NULL);
	if (!r)
		a->reloading = out;
	return r;
}

static void reloaded_cb(void *arg, bool taken)
{
	struct args *a = arg;

	if (!a->next)
		return;
	if (taken && a->reloading) {
		struct dropin *old = malloc(sizeof(*old));

		/* the composed record becomes the one in force; the old one goes */
		if (old) {
			*old = a->dropin;
			a->dropin = *a->next;
			*a->next = *old;
			free(old);
		}
		if (a->cgw)
			cgroup_watch_set(a->cgw, a->reloading);
		watch(a, a->reloading);
	}
	dropin_clear(a->next);
	a->reloading = NULL;
}

static void sim_reload(void *arg, const char *path)
{
	struct args *a = arg;

	snprintf(a->reload_path, sizeof(a->reload_path), "%s", path);
}

static int open_platform(struct args *a, const struct config *cfg, struct platform *pf)
{
	char err[512] = "";
	int r = -ENOSYS;

	if (!a->sim) {
		struct host_platform_opts o = {
			.sz = sizeof(o),
			.stop = &stop_flag,
			.io_control = cfg->io_control,
			.reload = &reload_flag,
		};

		r = host_platform_open(&o, pf, err, sizeof(err));
		if (r)
			refuse(a, err);
		return r;
	}
	{
		struct sim_tenant_cfg t[PLATFORM_MAX_TENANTS];
		struct sim_platform_opts o = {
			.sz = sizeof(o),
			.seed = a->seed,
			.noise = -1,
			.interval_ns = cfg->interval_ns,
			.llc_ways = cfg->llc_ways,
			.tenants = t,
			.ntenants = cfg->ntenants,
			.reload = &reload_flag,
			.reload_cb = sim_reload,
			.reload_arg = a,
		};

		for (unsigned int i = 0; i < cfg->ntenants; i++)
			t[i] = (struct sim_tenant_cfg){
				.name = cfg->tenant[i].name,
				.cpus = cfg->tenant[i].cpus,
				.ncpus = cfg->tenant[i].ncpus,
				.networking = cfg->tenant[i].networking,
				.vswitch = cfg->tenant[i].vswitch,
			};
		r = sim_platform_open(a->sim, &o, pf, err, sizeof(err));
		if (r)
			refuse(a, err);
	}
	return r;
}

/*
 * Without DDIO hit/miss counters the FSM cannot see I/O: --mode ioca is
 * refused unless the config opts into the degraded mode.
 */
static int check_ddio_counters(const struct args *a, struct platform *pf, const struct config *cfg)
{
	struct platform_info info;
	unsigned int ids[PLATFORM_MAX_SOCKETS], n;
	int r = 0;

	if (pf->ops->info(pf->ctx, &info))
		return 0;
	n = config_sockets(cfg, ids);
	for (unsigned int k = 0; k < n; k++) {
		const struct platform_socket_info *si = &info.socket[ids[k]];

		if (si->ddio_counters)
			continue;
		fprintf(stderr, "iocad: socket %u has no DDIO hit/miss counters: %s\n", ids[k],
			si->ddio_counters_why);
		if (a->mode != IOCAD_MODE_IOCA || cfg->ddio_counters_optional) {
			fprintf(stderr,
				"iocad: degraded mode on socket %u: DDIO keeps its starting ways "
				"and the FSM stays in Low Keep; only the core-side allocator and "
				"shuffling act\n",
				ids[k]);
			continue;
		}
		fprintf(stderr,
			"iocad: --mode ioca needs them; set 'ddio_counters = optional' in "
			"[platform] of %s to run degraded (CONFIG.md), or use --mode core-only\n",
			cfg->path);
		r = -ENODEV;
	}
	return r;
}

/* --check-config: the file alone, then its CPUs against this host's sysfs. */
static int check_config_only(const struct args *a, struct config *cfg)
{
	struct platform_info *info;
	unsigned int ids[PLATFORM_MAX_SOCKETS], n;
	char err[512] = "";
	int r = 0;

	if (!a->sim) {
		info = malloc(sizeof(*info));
		if (!info)
			return -ENOMEM;
		r = host_platform_probe(NULL, info, err, sizeof(err));
		if (!r)
			r = config_place(cfg, info, err, sizeof(err));
		free(info);
	}
	if (r) {
		fprintf(stderr, "iocad: %s\n", err);
		return r;
	}
	n = config_sockets(cfg, ids);
	printf("%s: ok: %u tenant(s)", cfg->path, cfg->ntenants);
	for (unsigned int k = 0; k < n && !a->sim; k++)
		printf("%s socket %u", k ? "," : " on", ids[k]);
	printf("\n");
	return 0;
}

/* Config errors that need the platform (CPU placement, llc_ways = detect) exit 2 like the others.
 */
static int resolve_config(struct args *a, struct platform *pf, struct config *cfg)
{
	struct platform_info *info = malloc(sizeof(*info));
	unsigned int ids[PLATFORM_MAX_SOCKETS], n;
	struct config *one = malloc(sizeof(*one));
	char err[512] = "";
	int r = -ENOMEM;

	if (info && one) {
		r = pf->ops->info(pf->ctx, info);
		if (!r)
			r = config_place(cfg, info, err, sizeof(err));
		n = r ? 0 : config_sockets(cfg, ids);
		for (unsigned int k = 0; k < n && !r; k++)
			r = config_for_socket(cfg, info, ids[k], one, err, sizeof(err));
	}
	if (r)
		refuse(a, err[0] ? err : strerror(-r));
	free(info);
	free(one);
	return r;
}

/*
 * A start refusal that may clear by itself: ioca.ko or resctrl not there
 * yet (boot), an rdt_class not yet created (-ENOENT), a tenant's CPU
 * offline (-EAGAIN). Full subscriber slots do not refuse a start (iocad
 * takes the owner's kept slot); another iocad, or CPUs in a group iocad
 * did not create, wait for an operator (exit 2).
 */
static bool transient(int r)
{
	return r == -EAGAIN || r == -ENOENT;
}

/*
 * Open the platform and fit @cfg to it: 0, or -errno with the platform
 * closed. The config's own errors were found before: what fails here is
 * the host, or the config against it.
 */
static int start_platform(struct args *a, struct config *cfg, struct platform *pf)
{
	int r;

	memset(pf, 0, sizeof(*pf));
	r = open_platform(a, cfg, pf);
	if (!r)
		r = place_dropins(a, pf, cfg);
	if (!r)
		r = resolve_config(a, pf, cfg);
	if (!r && check_ddio_counters(a, pf, cfg))
		r = -EINVAL; /* a choice of the config, not of the moment */
	if (r && pf->ops) {
		pf->ops->destroy(pf->ctx);
		pf->ops = NULL;
	}
	return r;
}

/* A start refusal @r that may clear: said, and EXIT_TEMPFAIL for systemd's Restart=. */
static int tempfail(int r)
{
	fprintf(stderr,
		"iocad: exit %d: the start was refused for a reason that may clear (%s); a "
		"restart (systemd's Restart=) tries again, or --retry-start waits for it\n",
		EXIT_TEMPFAIL, strerror(-r));
	return EXIT_TEMPFAIL;
}

static void status_cb(void *arg, const struct loop_status *st)
{
	struct args *a = arg;

	notify_status(&a->notify, st);
	if (a->mx)
		metrics_exporter_status(a->mx, st);
}

/*
 * The trace as the operator named it, but never through a symlink planted
 * at that name (iocad runs as root; --trace may point into a shared /tmp).
 */
static FILE *open_trace(const char *path)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW | O_CLOEXEC, 0644);
	FILE *f;

	if (fd < 0)
		return NULL;
	f = fdopen(fd, "w");
	if (!f)
		close(fd);
	return f;
}

/*
 * One start of iocad on @cfg: the platform, the watches, [metrics], the
 * loop, then everything closed again. The loop's status, 0 or -errno;
 * *@started once the loop applied a first plan; *@fatal when what failed
 * is iocad's own setup (--trace, [metrics]), never worth a retry.
 */
static int run_once(struct args *a, struct config *cfg, bool *started, bool *fatal)
{
	/* in @a, not on this stack: the watches and the wrappers keep pointers to it */
	struct platform *pf = &a->platform;
	struct metrics_exporter *mx = NULL;
	char err[512] = "";
	FILE *trace = NULL;
	int r;

	r = start_platform(a, cfg, pf);
	if (r)
		return r;
	if (a->trace) {
		trace = open_trace(a->trace);
		if (!trace) {
			fprintf(stderr, "iocad: --trace %s: %s\n", a->trace, strerror(errno));
			*fatal = true;
			r = -errno;
			goto out;
		}
	}
	if (a->pace && a->sim)
		pace_wrap(&a->paced, pf);
	a->cgw = malloc(sizeof(*a->cgw));
	if (a->cgw) {
		cgroup_watch_wrap(a->cgw, pf, &reload_flag, say_cb, a);
		cgroup_watch_set(a->cgw, cfg);
	}
	a->pf = pf;
	watch(a, cfg);
	struct metrics_exporter_opts mo = {
		.sz = sizeof(mo), .cfg = cfg, .pf = pf, .log = log_cb, .log_arg = a};

	mx = metrics_exporter_start(&mo, err, sizeof(err));
	if (!mx && errno) {
		fprintf(stderr, "iocad: %s\n", err);
		*fatal = true;
		r = -EINVAL;
		goto out;
	}
	a->mx = mx;
	struct loop_opts lo = {
		.sz = sizeof(lo),
		.cfg = cfg,
		.mode = a->mode,
		.dry_run = a->dry_run,
		.max_intervals = a->intervals,
		.trace = trace,
		.log = log_cb,
		.log_arg = a,
		.stop = &stop_flag,
		.reload = &reload_flag,
		.reload_fn = reload_cb,
		.reload_arg = a,
		.quiet = a->quiet,
		.record_fn = mx ? metrics_exporter_record : NULL,
		.record_arg = mx,
		.started = started,
		.status_fn = status_cb,
		.status_arg = a,
		.reloaded_fn = reloaded_cb,
	};
	r = loop_run(&lo, pf, NULL, 0, NULL);
out:
	metrics_exporter_stop(mx);
	a->mx = NULL;
	pf->ops->destroy(pf->ctx);
	a->pf = NULL;
	dropin_watch_close(a->watch);
	a->watch = NULL;
	free(a->cgw);
	a->cgw = NULL;
	if (a->next)
		dropin_clear(a->next);
	if (trace && fclose(trace)) {
		fprintf(stderr, "iocad: --trace %s: %s\n", a->trace, strerror(errno));
		r = r ? r : -EIO;
	}
	return r;
}

/*
 * --retry-start: the start was refused with @r, a reason that may clear.
 * Wait 1, 2, 4 .. 60 s (*@delay_ms, doubled here), saying what for in the
 * log and to systemd (READY=1 so its start timeout does not end the wait,
 * STATUS=, WATCHDOG=1 while waiting). 0: try again (at once after a
 * SIGHUP, which re-reads the config); 1: a stop; -errno: the re-read
 * config is wrong (said).
 */
static int start_wait(struct args *a, struct config *cfg, int r, unsigned int *delay_ms,
		      uint64_t *since_ns)
{
	char what[NOTIFY_STATUS_LEN - 16];
	struct loop_status st = {.waiting = what};
	struct timespec slice = {.tv_nsec = START_SLICE_MS * 1000000l};
	char err[512] = "";

	*delay_ms = *delay_ms ? *delay_ms * 2 : START_RETRY_FIRST_MS;
	if (*delay_ms > START_RETRY_MAX_MS)
		*delay_ms = START_RETRY_MAX_MS;
	if (!*since_ns) {
		struct timespec now;

		clock_gettime(CLOCK_MONOTONIC, &now);
		*since_ns = (uint64_t)now.tv_sec * 1000000000ull + (uint64_t)now.tv_nsec;
	}
	st.waiting_since_ns = *since_ns;
	fprintf(stderr,
		"iocad: the start was refused for a reason that may clear (%s): trying again "
		"in %u s (--retry-start: 1, 2, 4 .. %u s apart; SIGTERM stops, SIGHUP re-reads "
		"the config)\n",
		strerror(-r), *delay_ms / 1000, START_RETRY_MAX_MS / 1000);
	snprintf(what, sizeof(what), "the start to be possible (next try in %u s): %.*s",
		 *delay_ms / 1000, (int)(sizeof(what) - 48), a->refused);
	for (unsigned int waited = 0; waited < *delay_ms; waited += START_SLICE_MS) {
		notify_status(&a->notify, &st);
		if (stop_flag) {
			fprintf(stderr, "iocad: stop requested while waiting to start; nothing "
					"was changed\n");
			return 1;
		}
		if (reload_flag) {
			reload_flag = 0;
			fprintf(stderr,
				"iocad: SIGHUP while waiting to start: re-reading %s and "
				"trying again now\n",
				a->config);
			*delay_ms = 0;
			if (config_parse_file(a->config, cfg, err, sizeof(err)) ||
			    compose(a, cfg, err, sizeof(err), NULL)) {
				fprintf(stderr, "iocad: %s\n", err);
				return -EINVAL;
			}
			return 0;
		}
		nanosleep(&slice, NULL);
	}
	return 0;
}

int main(int argc, char **argv)
{
	struct args a = {.mode = IOCAD_MODE_IOCA};
	struct sigaction sa = {0};
	unsigned int delay_ms = 0;
	uint64_t since_ns = 0;
	bool started = false;
	char err[512] = "";
	struct config *cfg;
	int r;

	/* interval lines (stdout) and messages (stderr) interleave in order */
	setvbuf(stdout, NULL, _IOLBF, 0);
	/*
	 * First thing: a SIGHUP or SIGTERM during startup (opening the host
	 * platform takes a while) must not kill iocad with the default action
	 * and leave half-made state. A signal must not cut a log line's write
	 * short either (EINTR), hence SA_RESTART.
	 */
	sa.sa_flags = SA_RESTART;
	sa.sa_handler = on_stop;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGINT, &sa, NULL);
	sa.sa_handler = on_hup;
	sigaction(SIGHUP, &sa, NULL);
	r = parse_args(argc, argv, &a);
	if (r)
		return r == 1 ? 0 : r;
	cfg = malloc(sizeof(*cfg));
	if (!cfg) {
		fprintf(stderr, "iocad: out of memory\n");
		return 1;
	}
	unsigned int bad = 0;

	a.dropin.log = say_cb;
	if (config_parse_file(a.config, cfg, err, sizeof(err)) ||
	    compose(&a, cfg, err, sizeof(err), &bad)) {
		fprintf(stderr, "iocad: %s\n", err);
		free(cfg);
		return 2;
	}
	if (a.check_config) {
		r = check_config_only(&a, cfg);
		dropin_clear(&a.dropin);
		free(cfg);
		if (r == -EAGAIN && a.retry_start) {
			fprintf(stderr,
				"iocad: %s: not refused: iocad --retry-start waits for it to "
				"clear\n",
				a.config);
			r = 0;
		}
		return r == -EAGAIN ? EXIT_TEMPFAIL : r || bad ? EXIT_CONFIG : 0;
	}
	if (notify_open(&a.notify, getenv("NOTIFY_SOCKET"), getenv("WATCHDOG_USEC"),
			getenv("WATCHDOG_PID"), err, sizeof(err)))
		fprintf(stderr, "iocad: %s\n", err);
	for (;;) {
		bool fatal = false;

		a.refused[0] = '\0';
		r = run_once(&a, cfg, &started, &fatal);
		if (fatal) {
			r = -EINVAL;
			break;
		}
		if (started || !transient(r) || !a.retry_start)
			break;
		r = start_wait(&a, cfg, r, &delay_ms, &since_ns);
		if (r)
			break;
	}
	(void)notify_send(&a.notify, "STOPPING=1\nSTATUS=stopped, the platform restored\n");
	dropin_clear(&a.dropin);
	free(a.next);
	notify_close(&a.notify);
	free(cfg);
	/* a stop while waiting to start */
	if (r == 1 || !r)
		return 0;
	/* ioca.ko went away: an operator's rmmod; restored, iocad stays down */
	if (r == -ENODEV && started) {
		fprintf(stderr,
			"iocad: exit %d: ioca.ko was unloaded; iocad's resctrl groups were "
			"removed and iocad stays down until it is started again\n",
			EXIT_MODULE_GONE);
		return EXIT_MODULE_GONE;
	}
	/* a start the platform refused is a config that does not fit it, or a moment */
	if (!started)
		return transient(r) ? tempfail(r) : EXIT_CONFIG;
	return 1;
}
