// SPDX-License-Identifier: GPL-2.0
/*
 * Argument handling and one function per command. Everything a callback
 * needs travels through its arg; nothing here is global but the tables.
 */
#include "iocactl.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../config_value.h"
#include "ctl_args.h"
#include "ctl_json.h"
#include "ctl_nl.h"
#include "ctl_print.h"

#include <netlink/attr.h>
#include <netlink/genl/genl.h>

static const char usage_text[] =
	"usage: iocactl info [--json]\n"
	"       iocactl ddio set SOCKET mask MASK | ways N\n"
	"       iocactl ddio restore\n"
	"       iocactl sampler set [--interval DUR] [--cpus LIST] [--event EV]...\n"
	"                           [--uncore TYPE:CONFIG[:CONFIG1]]...\n"
	"       iocactl sampler start | stop\n"
	"       iocactl sample\n"
	"       iocactl monitor [--count N]\n"
	"DUR: 10ms, 500us, 2s; LIST: 0-3,8; EV: instructions, cycles, llc-references,\n"
	"llc-misses, cpu-clock, task-clock or raw:TYPE:CONFIG[:CONFIG1]\n";

static int usage(const char *fmt, const char *arg, const char *why)
{
	fprintf(stderr, "iocactl: ");
	fprintf(stderr, fmt, arg);
	if (why)
		fprintf(stderr, ": %s", why);
	fprintf(stderr, "\n%s", usage_text);
	return IOCACTL_EXIT_USAGE;
}

/* Opens the request socket; says what to do when the module is absent. */
static int open_req(struct tnl *t, const char *op)
{
	int err = ctl_nl_open(t);

	if (err == -ENOENT)
		fprintf(stderr, "iocactl: ioca.ko is not loaded (insmod kmod/ioca.ko, or emulate=1 "
				"in a VM)\n");
	else if (err)
		ctl_nl_report(op, err, NULL);
	return err;
}

/* Runs @cmd without attributes, reporting a failure as @op. */
static int run_simple(const char *op, uint8_t cmd, tnl_parse_fn parse, void *arg)
{
	struct tnl t;
	struct tnl_reply r = {0};
	int err;

	if (open_req(&t, op))
		return IOCACTL_EXIT_FAIL;
	err = ctl_nl_simple(&t, cmd, parse, arg, &r);
	if (!err && r.parse_err)
		err = r.parse_err;
	tnl_close(&t);
	if (err) {
		ctl_nl_report(op, err, &r);
		return IOCACTL_EXIT_FAIL;
	}
	return 0;
}

static int cmd_ddio(int argc, char **argv)
{
	struct tnl t;
	struct tnl_reply r = {0};
	char why[128];
	uint64_t sock, val;
	bool ways;
	int err;

	if (argc == 1 && !strcmp(argv[0], "restore")) {
		if (open_req(&t, "ddio restore"))
			return IOCACTL_EXIT_FAIL;
		err = ioca_ddio_restore(&t, &r);
		tnl_close(&t);
		if (err)
			ctl_nl_report("ddio restore", err, &r);
		return err ? IOCACTL_EXIT_FAIL : 0;
	}
	if (argc < 1 || strcmp(argv[0], "set"))
		return usage("ddio: expected 'set' or 'restore', got '%s'", argc ? argv[0] : "",
			     NULL);
	if (argc != 4)
		return usage("ddio set: expected SOCKET mask MASK or SOCKET ways N%s", "", NULL);
	if (ctl_args_u64(argv[1], UINT32_MAX, &sock, why, sizeof(why)))
		return usage("ddio set: bad SOCKET '%s'", argv[1], why);
	if (strcmp(argv[2], "mask") && strcmp(argv[2], "ways"))
		return usage("ddio set: expected 'mask' or 'ways', got '%s'", argv[2], NULL);
	ways = !strcmp(argv[2], "ways");
	if (ctl_args_u64(argv[3], UINT32_MAX, &val, why, sizeof(why)))
		return usage(ways ? "ddio set: bad way count '%s'" : "ddio set: bad mask '%s'",
			     argv[3], why);
	if (open_req(&t, "ddio set"))
		return IOCACTL_EXIT_FAIL;
	err = ioca_ddio_set(&t, (int64_t)sock, ways ? -1 : (int64_t)val, ways ? (int64_t)val : -1,
			    &r);
	tnl_close(&t);
	if (err)
		ctl_nl_report("ddio set", err, &r);
	return err ? IOCACTL_EXIT_FAIL : 0;
}

/* Fills @cfg from "--opt value" pairs; returns 0 or an exit status. */
static int sampler_args(int argc, char **argv, struct ctl_sampler_cfg *cfg)
{
	char why[160];
	int i;

	for (i = 0; i < argc; i += 2) {
		const char *opt = argv[i], *val = i + 1 < argc ? argv[i + 1] : NULL;

		if (!val)
			return usage("sampler set: %s needs a value", opt, NULL);
		if (!strcmp(opt, "--interval")) {
			if (ctl_args_interval(val, &cfg->interval_us, why, sizeof(why)))
				return usage("sampler set: bad --interval '%s'", val, why);
		} else if (!strcmp(opt, "--cpus")) {
			if (config_value_cpus(val, cfg->cpus, &cfg->ncpus, why, sizeof(why)))
				return usage("sampler set: bad --cpus '%s'", val, why);
		} else if (!strcmp(opt, "--event")) {
			if (cfg->nevents == IOCA_MAX_CPU_EVENTS)
				return usage("sampler set: too many --event (at most %s)", "8",
					     NULL);
			if (ctl_args_event(val, &cfg->ev[cfg->nevents++], why, sizeof(why)))
				return usage("sampler set: bad --event '%s'", val, why);
		} else if (!strcmp(opt, "--uncore")) {
			if (cfg->nuncore == IOCA_MAX_UNCORE_EVENTS)
				return usage("sampler set: too many --uncore (at most %s)", "128",
					     NULL);
			if (ctl_args_uncore(val, &cfg->unc[cfg->nuncore++], why, sizeof(why)))
				return usage("sampler set: bad --uncore '%s'", val, why);
		} else {
			return usage("sampler set: unknown option '%s'", opt, NULL);
		}
	}
	return 0;
}

static int cmd_sampler(int argc, char **argv)
{
	struct ctl_sampler_cfg *cfg;
	struct tnl t;
	struct tnl_reply r = {0};
	int err;

	if (argc == 1 && !strcmp(argv[0], "start"))
		return run_simple("sampler start", IOCA_CMD_SAMPLER_START, NULL, NULL);
	if (argc == 1 && !strcmp(argv[0], "stop"))
		return run_simple("sampler stop", IOCA_CMD_SAMPLER_STOP, NULL, NULL);
	if (argc < 1 || strcmp(argv[0], "set"))
		return usage("sampler: expected 'set', 'start' or 'stop', got '%s'",
			     argc ? argv[0] : "", NULL);
	cfg = calloc(1, sizeof(*cfg));
	if (!cfg) {
		ctl_nl_report("sampler set", -ENOMEM, NULL);
		return IOCACTL_EXIT_FAIL;
	}
	err = sampler_args(argc - 1, argv + 1, cfg);
	if (!err && open_req(&t, "sampler set"))
		err = IOCACTL_EXIT_FAIL;
	if (!err) {
		int nerr = ctl_nl_sampler_set(&t, cfg, &r);

		tnl_close(&t);
		if (nerr) {
			ctl_nl_report("sampler set", nerr, &r);
			err = IOCACTL_EXIT_FAIL;
		}
	}
	free(cfg);
	return err;
}

/* The part of info monitor needs before it waits. */
struct sampler_state {
	uint32_t state, interval_us;
	char events[256]; /* "instructions llc-misses ...", by index */
};

static void add_event_name(struct sampler_state *s, const struct nlattr *nest)
{
	struct nlattr *tb[IOCA_A_EVENT_MAX + 1];
	size_t used = strlen(s->events);
	char buf[24];

	if (nla_parse_nested(tb, IOCA_A_EVENT_MAX, (struct nlattr *)nest, NULL) ||
	    !tb[IOCA_A_EVENT_KIND])
		return;
	snprintf(s->events + used, sizeof(s->events) - used, " %s",
		 ctl_print_kind(nla_get_u32(tb[IOCA_A_EVENT_KIND]), buf, sizeof(buf)));
}

static int parse_state(struct nlmsghdr *nlh, void *arg)
{
	struct sampler_state *s = arg;
	struct nlattr *tb[IOCA_A_INFO_MAX + 1], *st[IOCA_A_SAMPLER_MAX + 1], *a;
	int rem;

	if (genlmsg_parse(nlh, 0, tb, IOCA_A_INFO_MAX, NULL) || !tb[IOCA_A_INFO_SAMPLER] ||
	    nla_parse_nested(st, IOCA_A_SAMPLER_MAX, tb[IOCA_A_INFO_SAMPLER], NULL) ||
	    !st[IOCA_A_SAMPLER_STATE])
		return -EBADMSG;
	s->state = nla_get_u32(st[IOCA_A_SAMPLER_STATE]);
	s->interval_us = st[IOCA_A_SAMPLER_INTERVAL_US]
				 ? nla_get_u32(st[IOCA_A_SAMPLER_INTERVAL_US])
				 : IOCA_SAMPLER_INTERVAL_DEFAULT_US;
	/* The kernel lists events in index order, as the samples use them. */
	nla_for_each_nested(a, tb[IOCA_A_INFO_SAMPLER], rem)
	{
		if (nla_type(a) == IOCA_A_SAMPLER_EVENT)
			add_event_name(s, a);
	}
	return 0;
}

static int monitor_loop(struct tnl *ms, struct ctl_monitor *m, uint64_t count, int timeout_ms)
{
	while (!count || m->seen < count) {
		int ret = tnl_recv_one(ms, timeout_ms, ctl_print_monitor, m);

		if (ret == -ENOBUFS) {
			/* Socket overrun: the next seq shows how many were lost. */
			fprintf(stderr, "iocactl: monitor: receive buffer overrun\n");
			continue;
		}
		if (ret < 0) {
			ctl_nl_report("monitor", ret, NULL);
			return IOCACTL_EXIT_FAIL;
		}
		if (ret == 0) {
			fprintf(stderr, "iocactl: monitor: no sample within %d ms\n", timeout_ms);
			return IOCACTL_EXIT_FAIL;
		}
	}
	return 0;
}

static int cmd_monitor(int argc, char **argv)
{
	struct sampler_state s = {0};
	struct ctl_monitor *m;
	struct tnl ms;
	uint64_t count = 0;
	char why[128];
	int err, ret;

	if (argc == 2 && !strcmp(argv[0], "--count")) {
		if (ctl_args_u64(argv[1], UINT32_MAX, &count, why, sizeof(why)) || !count)
			return usage("monitor: bad --count '%s'", argv[1],
				     count ? why : "need 1 or more");
	} else if (argc) {
		return usage("monitor: unexpected '%s' (only --count N)", argv[0], NULL);
	}
	ret = run_simple("monitor: info", IOCA_CMD_INFO_GET, parse_state, &s);
	if (ret)
		return ret;
	if (s.state != IOCA_SAMPLER_STATE_RUNNING) {
		fprintf(stderr, "iocactl: monitor: the sampler is not running (iocactl sampler "
				"start)\n");
		return IOCACTL_EXIT_FAIL;
	}
	err = tnl_open(&ms, NULL);
	if (!err)
		err = tnl_join(&ms, IOCA_FAMILY_NAME, IOCA_MCGRP_SAMPLES);
	if (err) {
		ctl_nl_report("monitor: join samples", err, NULL);
		tnl_close(&ms);
		return IOCACTL_EXIT_FAIL;
	}
	m = calloc(1, sizeof(*m));
	if (!m) {
		tnl_close(&ms);
		ctl_nl_report("monitor", -ENOMEM, NULL);
		return IOCACTL_EXIT_FAIL;
	}
	m->out = stdout;
	printf("# per-CPU deltas of:%s\n", s.events);
	/* Three intervals late means the sampler stopped or the module went. */
	ret = monitor_loop(&ms, m, count, (int)(s.interval_us / 1000 * 3 + 2000));
	if (m->lost)
		fprintf(stderr, "iocactl: monitor: %" PRIu64 " message(s) lost\n", m->lost);
	free(m);
	tnl_close(&ms);
	return ret;
}

int main(int argc, char **argv)
{
	const char *cmd = argc > 1 ? argv[1] : NULL;

	if (!cmd)
		return usage("missing command%s", "", NULL);
	if (!strcmp(cmd, "-h") || !strcmp(cmd, "--help") || !strcmp(cmd, "help")) {
		fputs(usage_text, stdout);
		return 0;
	}
	if (!strcmp(cmd, "info") && argc == 2)
		return run_simple("info", IOCA_CMD_INFO_GET, ctl_print_info, stdout);
	if (!strcmp(cmd, "info") && argc == 3 && !strcmp(argv[2], "--json"))
		return run_simple("info", IOCA_CMD_INFO_GET, ctl_json_info, stdout);
	if (!strcmp(cmd, "sample") && argc == 2)
		return run_simple("sample", IOCA_CMD_SAMPLE_GET, ctl_print_sample, stdout);
	if (!strcmp(cmd, "info") || !strcmp(cmd, "sample"))
		return usage("%s: unexpected arguments (only info takes --json)", cmd, NULL);
	if (!strcmp(cmd, "ddio"))
		return cmd_ddio(argc - 2, argv + 2);
	if (!strcmp(cmd, "sampler"))
		return cmd_sampler(argc - 2, argv + 2);
	if (!strcmp(cmd, "monitor"))
		return cmd_monitor(argc - 2, argv + 2);
	return usage("unknown command '%s'", cmd, NULL);
}
