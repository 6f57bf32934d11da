// SPDX-License-Identifier: GPL-2.0
/*
 * The sampler as a subscriber sees it: one message per interval with
 * consecutive sequence numbers, every CPU, counters that never go back;
 * nothing after stop; on-demand samples; configuration checked up front.
 */
#include <time.h>
#include <unistd.h>

#include "ioca_fixture.h"
#include "knobs.h"

#define INTERVAL_US 10000
#define NSAMPLES 30
#define OFF_FIRST (NLMSG_HDRLEN + GENL_HDRLEN)
#define U32_ATTR NLA_ALIGN(NLA_HDRLEN + 4)
#define KIND_ONLY_EVENT (NLA_HDRLEN + U32_ATTR)

static const uint32_t kinds[] = {IOCA_EVENT_KIND_CPU_CLOCK, IOCA_EVENT_KIND_TASK_CLOCK,
				 IOCA_EVENT_KIND_INSTRUCTIONS};
#define NKINDS ((int)(sizeof(kinds) / sizeof(kinds[0])))

static void default_cfg(struct ioca_sampler_cfg *cfg)
{
	int i;

	memset(cfg, 0, sizeof(*cfg));
	cfg->interval_us = INTERVAL_US;
	cfg->nevents = NKINDS;
	for (i = 0; i < NKINDS; i++)
		cfg->ev[i].kind = kinds[i];
}

static void stop(struct tnl *nl)
{
	struct tnl_reply r;

	ioca_simple_cmd(nl, IOCA_CMD_SAMPLER_STOP, &r);
}

static long nprocs(void)
{
	return sysconf(_SC_NPROCESSORS_ONLN);
}

/* Configure the default set, subscribe @sub, start. */
static void start_with_subscriber(struct __test_metadata *_metadata, struct tnl *nl,
				  struct tnl *sub)
{
	struct ioca_sampler_cfg cfg;
	struct tnl_reply r;

	stop(nl);
	default_cfg(&cfg);
	ASSERT_EQ(0, ioca_sampler_set(nl, &cfg, &r)) TH_LOG("sampler-set: %s", r.msg);
	ASSERT_EQ(0, tnl_open(sub, NULL));
	ASSERT_EQ(0, tnl_join(sub, IOCA_FAMILY_NAME, IOCA_MCGRP_SAMPLES));
	ASSERT_EQ(0, ioca_simple_cmd(nl, IOCA_CMD_SAMPLER_START, &r))
	TH_LOG("sampler-start: %s", r.msg);
}

static void check_sample_shape(struct __test_metadata *_metadata, const struct ioca_sample *s)
{
	int k;
	uint32_t c;

	ASSERT_EQ(nprocs(), s->ncpus) TH_LOG("sample lists %u CPUs", s->ncpus);
	for (c = 0; c < s->ncpus; c++) {
		ASSERT_EQ((uint32_t)c, s->cpus[c].id);
		ASSERT_TRUE(s->cpus[c].online);
		ASSERT_EQ(NKINDS, s->cpus[c].ncounters);
		for (k = 0; k < NKINDS; k++) {
			EXPECT_EQ((uint32_t)k, s->cpus[c].counters[k].index);
			EXPECT_LE(s->cpus[c].counters[k].running_ns,
				  s->cpus[c].counters[k].enabled_ns);
		}
	}
}

TEST_F_TIMEOUT(ioca_nl, sampler_delivers_consecutive_samples_every_10ms_on_all_cpus, 120)
{
	struct ioca_sample *s = calloc(2, sizeof(*s));
	struct ioca_sample *prev = &s[0], *cur = &s[1], *tmp;
	uint64_t first_ns = 0, clock_sum = 0;
	struct tnl sub;
	int i, k;
	uint32_t c;

	ASSERT_NE(NULL, s);
	start_with_subscriber(_metadata, &self->nl, &sub);
	for (i = 0; i < NSAMPLES; i++) {
		ASSERT_EQ(1, tnl_recv_one(&sub, 3000, ioca_parse_sample, cur))
		TH_LOG("sample %d did not arrive within 3 s (libnl: %s)", i, nl_geterror(sub.nle));
		check_sample_shape(_metadata, cur);
		EXPECT_FALSE(cur->on_demand);
		EXPECT_EQ(INTERVAL_US, cur->interval_us);
		EXPECT_LT(0, cur->collect_ns);
		if (i == 0) {
			first_ns = cur->time_ns;
		} else {
			ASSERT_EQ(prev->seq + 1, cur->seq)
			TH_LOG("gap: %llu after %llu", (unsigned long long)cur->seq,
			       (unsigned long long)prev->seq);
			ASSERT_LT(prev->time_ns, cur->time_ns);
			for (c = 0; c < cur->ncpus; c++)
				for (k = 0; k < NKINDS; k++) {
					ASSERT_LE(prev->cpus[c].counters[k].value,
						  cur->cpus[c].counters[k].value)
					TH_LOG("cpu %u counter %d went back", c, k);
					ASSERT_LE(prev->cpus[c].counters[k].enabled_ns,
						  cur->cpus[c].counters[k].enabled_ns);
				}
		}
		tmp = prev;
		prev = cur;
		cur = tmp;
	}
	/* A timer may fire late (TCG), never early: the mean spacing is >= the interval. */
	EXPECT_LE((uint64_t)(NSAMPLES - 1) * INTERVAL_US * 1000 * 9 / 10, prev->time_ns - first_ns);
	for (c = 0; c < prev->ncpus; c++)
		clock_sum += prev->cpus[c].counters[0].value;
	EXPECT_LT(0, clock_sum) TH_LOG("cpu-clock never counted");
	stop(&self->nl);
	tnl_close(&sub);
	free(s);
}

TEST_F_TIMEOUT(ioca_nl, sampler_stop_ends_the_stream, 60)
{
	struct ioca_sample *s = calloc(1, sizeof(*s));
	struct ioca_info info;
	struct tnl sub;

	ASSERT_NE(NULL, s);
	start_with_subscriber(_metadata, &self->nl, &sub);
	ASSERT_EQ(1, tnl_recv_one(&sub, 3000, ioca_parse_sample, s));
	ASSERT_EQ(0, ioca_simple_cmd(&self->nl, IOCA_CMD_SAMPLER_STOP, &self->r))
	TH_LOG("%s", self->r.msg);
	tnl_drain(&sub);
	EXPECT_EQ(0, tnl_recv_one(&sub, 20 * INTERVAL_US / 1000, ioca_parse_sample, s))
	TH_LOG("a sample arrived after stop (seq %llu)", (unsigned long long)s->seq);
	ASSERT_EQ(0, ioca_info_get(&self->nl, &info, &self->r));
	EXPECT_EQ(IOCA_SAMPLER_STATE_CONFIGURED, info.sampler.state);
	tnl_close(&sub);
	free(s);
}

TEST_F_TIMEOUT(ioca_nl, sample_get_reads_every_cpu_on_demand, 60)
{
	struct ioca_sample *s = calloc(1, sizeof(*s));
	uint64_t mcast_seq;
	struct tnl sub;

	ASSERT_NE(NULL, s);
	start_with_subscriber(_metadata, &self->nl, &sub);

	ASSERT_EQ(1, tnl_recv_one(&sub, 3000, ioca_parse_sample, s));
	mcast_seq = s->seq;
	ASSERT_EQ(0, ioca_sample_get(&self->nl, s, &self->r)) TH_LOG("%s", self->r.msg);
	EXPECT_TRUE(s->on_demand);
	check_sample_shape(_metadata, s);
	/* It carries the last multicast seq, which cannot be older than ours. */
	EXPECT_LE(mcast_seq, s->seq);
	stop(&self->nl);
	tnl_close(&sub);
	free(s);
}

TEST_F(ioca_nl, sampler_reports_the_software_fallback_it_counts)
{
	struct ioca_sampler_cfg cfg;
	struct ioca_info info;
	int i;

	stop(&self->nl);
	default_cfg(&cfg);
	ASSERT_EQ(0, ioca_sampler_set(&self->nl, &cfg, &self->r)) TH_LOG("%s", self->r.msg);
	ASSERT_EQ(0, ioca_simple_cmd(&self->nl, IOCA_CMD_SAMPLER_START, &self->r));
	ASSERT_EQ(0, ioca_info_get(&self->nl, &info, &self->r));
	stop(&self->nl);
	ASSERT_EQ(IOCA_SAMPLER_STATE_RUNNING, info.sampler.state);
	EXPECT_EQ(INTERVAL_US, info.sampler.interval_us);
	ASSERT_EQ(NKINDS, info.sampler.nevents);
	for (i = 0; i < NKINDS; i++)
		EXPECT_EQ(kinds[i], info.sampler.events[i].kind);
	EXPECT_EQ(IOCA_EVENT_KIND_CPU_CLOCK, info.sampler.events[0].effective_kind);
	EXPECT_EQ(IOCA_EVENT_KIND_TASK_CLOCK, info.sampler.events[1].effective_kind);
	/* TCG has no PMU: instructions must be counted by the named fallback. */
	if (!info.hw_counters) {
		ASSERT_NE(0, info.fallback_kind);
		EXPECT_EQ(info.fallback_kind, info.sampler.events[2].effective_kind);
	} else {
		EXPECT_EQ(IOCA_EVENT_KIND_INSTRUCTIONS, info.sampler.events[2].effective_kind);
	}
}

TEST_F_TIMEOUT(ioca_nl, sampler_builds_nothing_without_a_listener, 60)
{
	struct ioca_sampler_cfg cfg;
	struct ioca_info a, b;
	struct timespec ts = {.tv_nsec = 300 * 1000 * 1000};

	stop(&self->nl);
	default_cfg(&cfg);
	ASSERT_EQ(0, ioca_sampler_set(&self->nl, &cfg, &self->r));
	ASSERT_EQ(0, ioca_simple_cmd(&self->nl, IOCA_CMD_SAMPLER_START, &self->r));
	ASSERT_EQ(0, ioca_info_get(&self->nl, &a, &self->r));
	nanosleep(&ts, NULL);
	ASSERT_EQ(0, ioca_info_get(&self->nl, &b, &self->r));
	stop(&self->nl);
	EXPECT_LT(a.sampler.intervals, b.sampler.intervals);
	EXPECT_LT(a.sampler.no_listener, b.sampler.no_listener);
	EXPECT_EQ(a.sampler.seq, b.sampler.seq) TH_LOG("samples were sent to nobody");
}

TEST_F(ioca_nl, sampler_set_while_running_is_rejected)
{
	struct ioca_sampler_cfg cfg;
	struct ioca_info info;

	stop(&self->nl);
	default_cfg(&cfg);
	ASSERT_EQ(0, ioca_sampler_set(&self->nl, &cfg, &self->r));
	ASSERT_EQ(0, ioca_simple_cmd(&self->nl, IOCA_CMD_SAMPLER_START, &self->r));
	cfg.interval_us = 2 * INTERVAL_US;
	EXPECT_EQ(-EBUSY, ioca_sampler_set(&self->nl, &cfg, &self->r));
	EXPECT_STREQ("sampler is running: stop it first", self->r.msg);
	ASSERT_EQ(0, ioca_info_get(&self->nl, &info, &self->r));
	stop(&self->nl);
	EXPECT_EQ(INTERVAL_US, info.sampler.interval_us);
	EXPECT_EQ(IOCA_SAMPLER_STATE_RUNNING, info.sampler.state);
}

TEST_F(ioca_nl, sampler_set_rejects_interval_out_of_range)
{
	static const uint32_t bad[] = {IOCA_SAMPLER_INTERVAL_MIN_US - 1,
				       IOCA_SAMPLER_INTERVAL_MAX_US + 1};
	struct ioca_sampler_cfg cfg;
	size_t i;

	stop(&self->nl);
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		default_cfg(&cfg);
		cfg.interval_us = bad[i];
		EXPECT_EQ(-ERANGE, ioca_sampler_set(&self->nl, &cfg, &self->r));
		EXPECT_STREQ("integer out of range", self->r.msg);
		EXPECT_EQ(OFF_FIRST, self->r.offs);
	}
}

TEST_F(ioca_nl, sampler_set_rejects_more_events_than_the_limit)
{
	struct ioca_sampler_cfg cfg;
	int i;

	stop(&self->nl);
	default_cfg(&cfg);
	cfg.nevents = IOCA_MAX_CPU_EVENTS + 1;
	for (i = 0; i < cfg.nevents; i++)
		cfg.ev[i].kind = IOCA_EVENT_KIND_CPU_CLOCK;
	EXPECT_EQ(-EINVAL, ioca_sampler_set(&self->nl, &cfg, &self->r));
	EXPECT_STREQ("more than IOCA_MAX_CPU_EVENTS events", self->r.msg);
	EXPECT_EQ(OFF_FIRST + U32_ATTR + IOCA_MAX_CPU_EVENTS * KIND_ONLY_EVENT, self->r.offs);
}

TEST_F(ioca_nl, sampler_set_rejects_impossible_and_repeated_cpus)
{
	struct ioca_sampler_cfg cfg;

	stop(&self->nl);
	default_cfg(&cfg);
	cfg.ncpus = 2;
	cfg.cpus[0] = 0;
	cfg.cpus[1] = IOCA_MAX_CPUS - 1;
	EXPECT_EQ(-EINVAL, ioca_sampler_set(&self->nl, &cfg, &self->r));
	EXPECT_STREQ("CPU is not a possible CPU", self->r.msg);
	EXPECT_EQ(OFF_FIRST + 2 * U32_ATTR, self->r.offs);
	cfg.cpus[1] = 0;
	EXPECT_EQ(-EINVAL, ioca_sampler_set(&self->nl, &cfg, &self->r));
	EXPECT_STREQ("CPU listed twice", self->r.msg);
	EXPECT_EQ(OFF_FIRST + 2 * U32_ATTR, self->r.offs);
}

TEST_F(ioca_nl, sampler_set_rejects_a_configuration_without_events)
{
	struct ioca_sampler_cfg cfg;

	stop(&self->nl);
	default_cfg(&cfg);
	cfg.nevents = 0;
	EXPECT_EQ(-EINVAL, ioca_sampler_set(&self->nl, &cfg, &self->r));
	EXPECT_STREQ("no event configured", self->r.msg);
}

TEST_F(ioca_nl, sampler_set_rejects_raw_event_without_config)
{
	struct ioca_sampler_cfg cfg;

	stop(&self->nl);
	default_cfg(&cfg);
	cfg.ev[0].kind = IOCA_EVENT_KIND_RAW;
	EXPECT_EQ(-EINVAL, ioca_sampler_set(&self->nl, &cfg, &self->r));
	EXPECT_STREQ("raw event needs config", self->r.msg);
	EXPECT_EQ(OFF_FIRST + U32_ATTR, self->r.offs);
}

TEST_F_TIMEOUT(ioca_nl, sampler_samples_only_the_listed_cpus, 60)
{
	struct ioca_sample *s = calloc(1, sizeof(*s));
	struct ioca_sampler_cfg cfg;
	uint32_t last = (uint32_t)nprocs() - 1;
	struct tnl sub;

	ASSERT_NE(NULL, s);
	stop(&self->nl);
	default_cfg(&cfg);
	cfg.ncpus = 1;
	cfg.cpus[0] = last;
	ASSERT_EQ(0, ioca_sampler_set(&self->nl, &cfg, &self->r)) TH_LOG("%s", self->r.msg);
	ASSERT_EQ(0, tnl_open(&sub, NULL));
	ASSERT_EQ(0, tnl_join(&sub, IOCA_FAMILY_NAME, IOCA_MCGRP_SAMPLES));
	ASSERT_EQ(0, ioca_simple_cmd(&self->nl, IOCA_CMD_SAMPLER_START, &self->r));
	ASSERT_EQ(1, tnl_recv_one(&sub, 3000, ioca_parse_sample, s));
	stop(&self->nl);
	ASSERT_EQ(1, s->ncpus);
	EXPECT_EQ(last, s->cpus[0].id);
	EXPECT_EQ(NKINDS, s->cpus[0].ncounters);
	tnl_close(&sub);
	free(s);
}

TEST_F_TIMEOUT(ioca_nl, sampler_counts_uncore_events_once_per_socket, 60)
{
	struct ioca_sample *s = calloc(1, sizeof(*s));
	struct ioca_sampler_cfg cfg;
	struct tnl sub;
	uint32_t i;

	ASSERT_NE(NULL, s);
	stop(&self->nl);
	default_cfg(&cfg);
	/* No uncore PMU in a VM: the emulated DDIO counters stand in for CHA events. */
	cfg.nuncore = 2;
	cfg.unc[0].kind = IOCA_EVENT_KIND_DDIO_HIT_EMULATED;
	cfg.unc[1].kind = IOCA_EVENT_KIND_DDIO_MISS_EMULATED;
	ASSERT_EQ(0, ioca_sampler_set(&self->nl, &cfg, &self->r)) TH_LOG("%s", self->r.msg);
	ASSERT_EQ(0, tnl_open(&sub, NULL));
	ASSERT_EQ(0, tnl_join(&sub, IOCA_FAMILY_NAME, IOCA_MCGRP_SAMPLES));
	ASSERT_EQ(0, ioca_simple_cmd(&self->nl, IOCA_CMD_SAMPLER_START, &self->r))
	TH_LOG("%s", self->r.msg);
	ASSERT_EQ(1, tnl_recv_one(&sub, 3000, ioca_parse_sample, s));
	stop(&self->nl);
	ASSERT_EQ(self->before.nsockets, s->nsockets);
	for (i = 0; i < s->nsockets; i++) {
		EXPECT_EQ((uint32_t)i, s->sockets[i].id);
		EXPECT_EQ(2, s->sockets[i].ncounters);
	}
	tnl_close(&sub);
	free(s);
}

TEST_F(ioca_nl, sampler_set_rejects_uncore_event_without_pmu_type)
{
	struct ioca_sampler_cfg cfg;

	stop(&self->nl);
	default_cfg(&cfg);
	cfg.nuncore = 1;
	cfg.unc[0].kind = IOCA_EVENT_KIND_RAW;
	cfg.unc[0].config = 0x35;
	EXPECT_EQ(-EINVAL, ioca_sampler_set(&self->nl, &cfg, &self->r));
	EXPECT_STREQ("uncore event needs a PMU type", self->r.msg);
}

/* Uncore events go to socket-scope PMUs only, never software or tracepoints. */
TEST_F(ioca_nl, sampler_set_rejects_uncore_event_on_software_pmu)
{
	struct ioca_sampler_cfg cfg;

	stop(&self->nl);
	default_cfg(&cfg);
	cfg.nuncore = 1;
	cfg.unc[0].kind = IOCA_EVENT_KIND_RAW;
	cfg.unc[0].type = 1;   /* PERF_TYPE_SOFTWARE */
	cfg.unc[0].config = 3; /* PERF_COUNT_SW_CONTEXT_SWITCHES */
	EXPECT_EQ(-EINVAL, ioca_sampler_set(&self->nl, &cfg, &self->r));
	EXPECT_STREQ("uncore event type must be an uncore PMU's", self->r.msg);
}

/* A dynamic PMU type that is not uncore_* (or no PMU at all) fails at start. */
TEST_F(ioca_nl, sampler_start_rejects_unknown_uncore_pmu)
{
	struct ioca_sampler_cfg cfg;
	struct ioca_info after;

	stop(&self->nl);
	default_cfg(&cfg);
	cfg.nuncore = 1;
	cfg.unc[0].kind = IOCA_EVENT_KIND_RAW;
	cfg.unc[0].type = 4000;
	cfg.unc[0].config = 0x35;
	ASSERT_EQ(0, ioca_sampler_set(&self->nl, &cfg, &self->r)) TH_LOG("%s", self->r.msg);
	EXPECT_GT(0, ioca_simple_cmd(&self->nl, IOCA_CMD_SAMPLER_START, &self->r));
	EXPECT_STREQ("uncore event could not be created (no such PMU?)", self->r.msg);
	ASSERT_EQ(0, ioca_info_get(&self->nl, &after, &self->r));
	EXPECT_EQ(IOCA_SAMPLER_STATE_CONFIGURED, after.sampler.state);
}

/* The type of the dynamic PMU @name from sysfs, or -1. */
static int pmu_type(const char *name)
{
	char path[128];
	int type = -1;

	snprintf(path, sizeof(path), "/sys/bus/event_source/devices/%s/type", name);
	return knob_read_int(path, &type) ? -1 : type;
}

/*
 * A dynamic PMU that is not uncore_* is refused by its name before any event
 * is made of it: the kprobe PMU's event_init() would try to register a probe
 * (and refuse this config with its own error, the "could not be created"
 * message).
 */
TEST_F(ioca_nl, sampler_start_checks_the_pmu_name_before_any_event)
{
	struct ioca_sampler_cfg cfg;
	int type = pmu_type("kprobe");

	if (type < 0)
		SKIP(return, "no kprobe PMU in this kernel");
	stop(&self->nl);
	default_cfg(&cfg);
	cfg.nuncore = 1;
	cfg.unc[0].kind = IOCA_EVENT_KIND_RAW;
	cfg.unc[0].type = (uint32_t)type;
	cfg.unc[0].config = 0x35;
	ASSERT_EQ(0, ioca_sampler_set(&self->nl, &cfg, &self->r)) TH_LOG("%s", self->r.msg);
	EXPECT_EQ(-EINVAL, ioca_simple_cmd(&self->nl, IOCA_CMD_SAMPLER_START, &self->r));
	EXPECT_STREQ("uncore event type is not an uncore PMU", self->r.msg);
}

/* A per-CPU raw event on a PMU other than the core's is refused up front. */
TEST_F(ioca_nl, sampler_set_rejects_per_cpu_software_pmu)
{
	struct ioca_sampler_cfg cfg;

	stop(&self->nl);
	default_cfg(&cfg);
	cfg.ev[0].kind = IOCA_EVENT_KIND_RAW;
	cfg.ev[0].type = 2; /* PERF_TYPE_TRACEPOINT */
	cfg.ev[0].has_type = true;
	cfg.ev[0].config = 1;
	EXPECT_EQ(-EINVAL, ioca_sampler_set(&self->nl, &cfg, &self->r));
	EXPECT_STREQ("PMU type not allowed: hardware, hw-cache or raw only", self->r.msg);
}

TEST_HARNESS_MAIN
