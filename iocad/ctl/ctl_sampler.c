// SPDX-License-Identifier: GPL-2.0
#include "ctl_sampler.h"

#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <libioca.h>

#include "config/config_value.h"
#include "ctl_args.h"
#include "ctl_print.h"
#include "ctl_report.h"
#include "iocactl.h"

/* Everything sampler set collects before it sends. */
struct sampler_args {
	uint32_t interval_us;
	unsigned int ncpus;
	unsigned int cpus[IOCA_MAX_CPUS];
	uint32_t cpus32[IOCA_MAX_CPUS];
	size_t nevents;
	struct ioca_event ev[IOCA_MAX_CPU_EVENTS];
	size_t nuncore;
	struct ioca_event unc[IOCA_MAX_UNCORE_EVENTS];
	bool ddio;
};

/* Fills @a from "--opt value" pairs (and --ddio); 0 or an exit status. */
static int parse(struct ctl_ctx *x, int argc, char **argv, struct sampler_args *a)
{
	char why[160];
	int i;

	for (i = 0; i < argc; i++) {
		const char *opt = argv[i], *val = i + 1 < argc ? argv[i + 1] : NULL;

		if (!strcmp(opt, "--ddio")) {
			a->ddio = true;
			continue;
		}
		if (!val)
			return ctl_usage(x, NULL, "sampler set: %s needs a value", opt);
		i++;
		if (!strcmp(opt, "--interval")) {
			if (ctl_args_interval(val, &a->interval_us, why, sizeof(why)))
				return ctl_usage(x, why, "sampler set: bad --interval '%s'", val);
		} else if (!strcmp(opt, "--cpus")) {
			if (config_value_cpus(val, a->cpus, &a->ncpus, why, sizeof(why)))
				return ctl_usage(x, why, "sampler set: bad --cpus '%s'", val);
		} else if (!strcmp(opt, "--event")) {
			if (a->nevents == IOCA_MAX_CPU_EVENTS)
				return ctl_usage(x, NULL,
						 "sampler set: too many --event (at most %d)",
						 IOCA_MAX_CPU_EVENTS);
			if (ctl_args_event(val, &a->ev[a->nevents++], why, sizeof(why)))
				return ctl_usage(x, why, "sampler set: bad --event '%s'", val);
		} else if (!strcmp(opt, "--uncore")) {
			if (a->nuncore == IOCA_MAX_UNCORE_EVENTS)
				return ctl_usage(x, NULL,
						 "sampler set: too many --uncore (at most %d)",
						 IOCA_MAX_UNCORE_EVENTS);
			if (ctl_args_uncore(val, &a->unc[a->nuncore++], why, sizeof(why)))
				return ctl_usage(x, why, "sampler set: bad --uncore '%s'", val);
		} else {
			return ctl_usage(x, NULL, "sampler set: unknown option '%s'", opt);
		}
	}
	return 0;
}

/* Appends the CHA preset of this machine to the uncore events. */
static int add_ddio(struct ioca_client *c, struct sampler_args *a)
{
	IOCA_OPTS(ioca_cha_opts, o, .print = ctl_lib_print);
	struct ioca_info *info = calloc(1, sizeof(*info));
	struct ioca_cha_preset *p = NULL;
	const struct ioca_event *ev;
	size_t n;
	int err;

	if (!info)
		return -ENOMEM;
	err = ioca_client__info(c, info);
	if (!err) {
		p = ioca_cha_preset__new(info, &o);
		err = p ? 0 : -errno;
	}
	free(info);
	if (err)
		return err;
	ev = ioca_cha_preset__events(p, &n);
	if (a->nuncore + n > IOCA_MAX_UNCORE_EVENTS) {
		err = -E2BIG;
	} else {
		memcpy(&a->unc[a->nuncore], ev, n * sizeof(*ev));
		printf("ddio counters: uncore events %zu..%zu (%zu CHAs)\n", a->nuncore,
		       a->nuncore + n - 1, ioca_cha_preset__nr_chas(p));
		a->nuncore += n;
	}
	ioca_cha_preset__free(p);
	return err;
}

int ctl_cmd_sampler_set(struct ctl_ctx *x, int argc, char **argv)
{
	struct ioca_sampler_config cfg = {0};
	struct ioca_client *c = NULL;
	struct sampler_args *a;
	unsigned int i;
	bool quiet;
	int ret, err = 0;

	a = calloc(1, sizeof(*a));
	if (!a)
		return ctl_fail("sampler set", -ENOMEM, NULL);
	ret = parse(x, argc, argv, a);
	if (!ret) {
		c = ctl_open("sampler set", &quiet);
		if (!c)
			ret = IOCACTL_EXIT_FAIL;
	}
	if (!ret && a->ddio)
		err = add_ddio(c, a);
	if (!ret && !err) {
		for (i = 0; i < a->ncpus; i++)
			a->cpus32[i] = a->cpus[i];
		cfg = (struct ioca_sampler_config){.interval_us = a->interval_us,
						   .cpus = a->cpus32,
						   .ncpus = a->ncpus,
						   .events = a->ev,
						   .nevents = a->nevents,
						   .uncore = a->unc,
						   .nuncore = a->nuncore};
		err = ioca_client__sampler_set(c, &cfg, NULL);
	}
	if (err)
		ret = ctl_fail("sampler set", err, c);
	ioca_client__close(c);
	free(a);
	return ret;
}

/* The sampler's state and event names, which monitor prints first. */
static int monitor_info(struct ioca_client *c, uint32_t *interval_us, char *names, size_t len)
{
	struct ioca_info *info = calloc(1, sizeof(*info));
	size_t used = 0;
	uint32_t i;
	int err;

	if (!info)
		return -ENOMEM;
	err = ioca_client__info(c, info);
	if (!err && info->sampler.state != IOCA_SAMPLER_STATE_RUNNING) {
		fprintf(stderr, "iocactl: monitor: the sampler is not running (iocactl sampler "
				"start)\n");
		err = -EAGAIN;
	}
	names[0] = '\0';
	for (i = 0; !err && i < info->sampler.nevents; i++) {
		char buf[24];

		used += (size_t)snprintf(
			names + used, used < len ? len - used : 0, " %s",
			ctl_print_kind(info->sampler.events[i].kind, buf, sizeof(buf)));
	}
	*interval_us = info->sampler.interval_us ? info->sampler.interval_us
						 : IOCA_SAMPLER_INTERVAL_DEFAULT_US;
	free(info);
	return err;
}

static int monitor_loop(struct ioca_subscription *sub, struct ctl_monitor *m, uint64_t count,
			int timeout_ms)
{
	struct ioca_sample *s = malloc(sizeof(*s));
	int ret = 0;

	if (!s)
		return ctl_fail("monitor", -ENOMEM, NULL);
	while (!count || m->seen < count) {
		int got = ioca_subscription__recv(sub, s, timeout_ms);

		if (got < 0) {
			ret = ctl_fail("monitor", got, NULL);
			break;
		}
		if (got == 0) {
			fprintf(stderr, "iocactl: monitor: no sample within %d ms\n", timeout_ms);
			ret = IOCACTL_EXIT_FAIL;
			break;
		}
		ctl_print_monitor(m, s);
	}
	free(s);
	return ret;
}

int ctl_cmd_monitor(struct ctl_ctx *x, int argc, char **argv)
{
	struct ioca_subscription *sub;
	struct ctl_monitor *m;
	struct ioca_client *c;
	uint64_t count = 0;
	uint32_t interval_us;
	char why[128], names[256];
	bool quiet;
	int err, ret;

	if (argc == 2 && !strcmp(argv[0], "--count")) {
		if (config_value_u64(argv[1], UINT32_MAX, &count, why, sizeof(why)) || !count)
			return ctl_usage(x, count ? why : "need 1 or more",
					 "monitor: bad --count '%s'", argv[1]);
	} else if (argc) {
		return ctl_usage(x, NULL, "monitor: unexpected '%s' (only --count N)", argv[0]);
	}
	c = ctl_open("monitor: info", &quiet);
	if (!c)
		return IOCACTL_EXIT_FAIL;
	err = monitor_info(c, &interval_us, names, sizeof(names));
	ioca_client__close(c);
	if (err)
		return err == -EAGAIN ? IOCACTL_EXIT_FAIL : ctl_fail("monitor: info", err, NULL);
	{
		/* Its failure is reported below, with the errno the tests expect. */
		IOCA_OPTS(ioca_subscription_opts, so, .print = ctl_lib_print, .print_ctx = &quiet);

		quiet = true;
		sub = ioca_subscription__open(&so);
		quiet = false;
	}
	if (!sub)
		return ctl_fail("monitor: join samples", -errno, NULL);
	m = calloc(1, sizeof(*m));
	if (!m) {
		ioca_subscription__close(sub);
		return ctl_fail("monitor", -ENOMEM, NULL);
	}
	m->out = stdout;
	printf("# per-CPU deltas of:%s\n", names);
	/* Three intervals late means the sampler stopped or the module went. */
	ret = monitor_loop(sub, m, count, (int)(interval_us / 1000 * 3 + 2000));
	if (m->lost)
		fprintf(stderr, "iocactl: monitor: %" PRIu64 " sample(s) lost\n", m->lost);
	free(m);
	ioca_subscription__close(sub);
	return ret;
}
