// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/*
 * libioca against the real ioca.ko (emulate=1) in the test VM, through the
 * public API only, as a user links it: every call, the kernel's extack text
 * on refusals, all-or-nothing DDIO sets, ownership, and a subscription that
 * receives whole samples with consecutive sequence numbers. TAP on stdout;
 * the guest runs it as root with the module loaded and 2 CPUs. Leaves the
 * module loaded, its boot masks restored and the sampler stopped.
 */
#include <errno.h>
#include <poll.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <libioca.h>
#include "vm_tap.h"

#define NTESTS 32

/* ddio set of @n requests, then info; the extack kept in @ext. */
static int set_then_info(struct ioca_client *c, const struct ioca_ddio_req *r, size_t n,
			 struct ioca_info *in, char *ext, size_t len)
{
	int err = ioca_client__ddio_set(c, r, n, NULL);

	snprintf(ext, len, "%s", ioca_client__last_extack(c));
	if (info(c, in))
		return -EIO;
	return err;
}

static void test_ddio(struct ioca_client *c, struct ioca_info *in)
{
	const struct ioca_socket_info *s0 = &in->sockets[0];
	struct ioca_ddio_req req = {.socket = s0->id, .ways = 3};
	struct ioca_ddio_req two[2] = {{.socket = s0->id, .ways = 4},
				       {.socket = IOCA_MAX_SOCKETS - 1, .ways = 2}};
	uint32_t boot = s0->boot_mask, llc = s0->llc_ways;
	char ext[256];
	int err;

	err = set_then_info(c, &req, 1, in, ext, sizeof(ext));
	tap(!err && in->sockets[0].ddio_ways == 3 &&
		    in->sockets[0].ddio_mask == libioca_top_ways(llc, 3),
	    "ddio set by ways: 3 top ways (0x%x)", in->sockets[0].ddio_mask);
	req = (struct ioca_ddio_req){.socket = s0->id, .mask = boot};
	err = set_then_info(c, &req, 1, in, ext, sizeof(ext));
	tap(!err && in->sockets[0].ddio_mask == boot, "ddio set by mask: the boot mask 0x%x", boot);
	req = (struct ioca_ddio_req){.socket = s0->id, .mask = 0x5};
	errno = 0;
	err = ioca_client__ddio_set(c, &req, 1, NULL);
	tap(err == -EINVAL && errno == EINVAL && strstr(ioca_client__last_extack(c), "contiguous"),
	    "a non-contiguous mask: -EINVAL and the extack \"%s\"", ioca_client__last_extack(c));
	/* Socket IOCA_MAX_SOCKETS - 1 does not exist in a one-socket guest. */
	err = set_then_info(c, two, 2, in, ext, sizeof(ext));
	tap(err < 0 && err != -EIO && ext[0] && in->sockets[0].ddio_mask == boot,
	    "two sockets, the second refused: nothing applied (%d, \"%s\")", err, ext);
	req = (struct ioca_ddio_req){.socket = s0->id, .ways = 5};
	err = ioca_client__ddio_set(c, &req, 1, NULL);
	err = err ? err : ioca_client__ddio_restore(c);
	if (err)
		diag(c, err);
	tap(!err && !info(c, in) && in->sockets[0].ddio_mask == boot,
	    "ddio restore puts the boot mask back");
}

/* Sets 4 ways as owner on a second handle, then closes it. */
static void test_ddio_owner(struct ioca_info *in)
{
	IOCA_OPTS(ioca_ddio_opts, o, .owner = true);
	struct ioca_ddio_req req = {.socket = in->sockets[0].id, .ways = 4};
	struct ioca_client *own = ioca_client__open(NULL), *c = ioca_client__open(NULL);
	uint32_t boot = in->sockets[0].boot_mask;
	int err, set_ok;

	if (!own || !c) {
		tap(0, "ddio owner: open two handles (%s)", strerror(errno));
		tap(0, "ddio owner: closing the owner puts the mask back");
		ioca_client__close(own);
		ioca_client__close(c);
		return;
	}
	err = ioca_client__ddio_set(own, &req, 1, &o);
	if (err == -EINVAL && strstr(ioca_client__last_extack(own), "ttribute")) {
		skip("this ioca.ko has no IOCA_A_DDIO_OWNER", "ddio owner: the mask is owned");
		skip("this ioca.ko has no IOCA_A_DDIO_OWNER",
		     "ddio owner: closing the owner puts the mask back");
		ioca_client__close(own);
		ioca_client__close(c);
		return;
	}
	set_ok = !err && !info(c, in) && in->sockets[0].ddio_ways == 4;
	tap(set_ok && in->sockets[0].owner_pid == (uint32_t)getpid(),
	    "ddio owner: the mask is owned (owner pid %u)", in->sockets[0].owner_pid);
	ioca_client__close(own);
	/* The release runs when the socket is gone; info after it sees it. */
	usleep(100000);
	err = info(c, in);
	tap(set_ok && !err && in->sockets[0].ddio_mask == boot && !in->sockets[0].owner_pid,
	    "ddio owner: closing the owner puts the mask back (0x%x)", in->sockets[0].ddio_mask);
	ioca_client__ddio_restore(c);
	ioca_client__close(c);
}

/* Configures the sampler as owner on @own; @c (another socket) is refused. */
static void test_sampler_owner(struct ioca_client *c, struct ioca_info *in)
{
	static const struct ioca_event ev = {.kind = IOCA_EVENT_KIND_CPU_CLOCK};
	struct ioca_sampler_config cfg = {.interval_us = 50000, .events = &ev, .nevents = 1};
	IOCA_OPTS(ioca_sampler_opts, o, .owner = true);
	struct ioca_client *own = ioca_client__open(NULL);
	int err;

	err = own ? ioca_client__sampler_set(own, &cfg, &o) : -errno;
	if (err == -EINVAL && strstr(ioca_client__last_extack(own), "ttribute")) {
		skip("this ioca.ko has no IOCA_A_SAMPLER_OWNER", "sampler owner: others get EBUSY");
		skip("this ioca.ko has no IOCA_A_SAMPLER_OWNER",
		     "sampler owner: closing the owner unconfigures it");
		ioca_client__close(own);
		return;
	}
	if (err)
		diag(own, err);
	err = err ? err : ioca_client__sampler_start(c);
	tap(err == -EBUSY && ioca_client__last_extack(c)[0],
	    "sampler owner: another socket's start gets EBUSY: \"%s\"",
	    ioca_client__last_extack(c));
	ioca_client__close(own);
	usleep(100000);
	err = info(c, in);
	tap(!err && in->sampler.state == IOCA_SAMPLER_STATE_UNCONFIGURED && !in->sampler.owner_pid,
	    "sampler owner: closing the owner unconfigures it (state %u)", in->sampler.state);
}

static const uint32_t cpus[] = {0, 1};
static const struct ioca_event events[] = {
	{.kind = IOCA_EVENT_KIND_INSTRUCTIONS},
	{.kind = IOCA_EVENT_KIND_CYCLES},
};

/* Configures the sampler; with @preset, its events as the uncore list. */
static int configure(struct ioca_client *c, const struct ioca_cha_preset *preset)
{
	struct ioca_sampler_config cfg = {
		.interval_us = 20000, .cpus = cpus, .ncpus = 2, .events = events, .nevents = 2};

	if (preset)
		cfg.uncore = ioca_cha_preset__events(preset, &cfg.nuncore);
	return ioca_client__sampler_set(c, &cfg, NULL);
}

static void test_sampler_errors(struct ioca_client *c)
{
	static uint32_t many[IOCA_MAX_CPUS + 1];
	struct ioca_sampler_config cfg = {.interval_us = 10, .events = events, .nevents = 1};
	int err;

	err = ioca_client__sampler_set(c, &cfg, NULL);
	/* The policy's range check answers ERANGE. */
	tap((err == -ERANGE || err == -EINVAL) && ioca_client__last_extack(c)[0],
	    "a 10 us interval is refused by the policy: %d \"%s\"", err,
	    ioca_client__last_extack(c));
	cfg = (struct ioca_sampler_config){
		.cpus = many, .ncpus = IOCA_MAX_CPUS + 1, .events = events, .nevents = 1};
	errno = 0;
	err = ioca_client__sampler_set(c, &cfg, NULL);
	tap(err == -E2BIG && errno == E2BIG, "257 CPUs: -E2BIG before the kernel");
}

static void test_sample_not_running(struct ioca_client *c, struct ioca_sample *s)
{
	int err = ioca_client__sample(c, s);

	tap(err == -ENODATA && strstr(ioca_client__last_extack(c), "not running"),
	    "sample on demand while stopped: -ENODATA, \"%s\"", ioca_client__last_extack(c));
}

/* Receives @count samples; checks seq, shape and the preset's sums. */
static void test_subscription(struct ioca_subscription *sub, const struct ioca_cha_preset *p,
			      int nuncore)
{
	struct ioca_sample *s = malloc(sizeof(*s));
	struct pollfd pfd = {.fd = ioca_subscription__fd(sub), .events = POLLIN};
	struct ioca_subscription_stats st;
	uint64_t prev_seq = 0, prev_sum = 0, hit, miss;
	int i, got = 0, consecutive = 1, shape = 1, sums = 1;

	tap(poll(&pfd, 1, 3000) == 1 && (pfd.revents & POLLIN),
	    "the subscription fd polls readable within 3 s");
	for (i = 0; i < 5; i++) {
		if (ioca_subscription__recv(sub, s, 3000) != 1)
			break;
		got++;
		if (i && (s->seq != prev_seq + 1 || s->lost))
			consecutive = 0;
		prev_seq = s->seq;
		if (s->ncpus != 2 || s->cpus[0].ncounters != 2 || s->cpus[1].ncounters != 2 ||
		    s->on_demand || s->interval_us != 20000)
			shape = 0;
		if (nuncore && (s->nsockets < 1 || (int)s->sockets[0].ncounters != nuncore))
			shape = 0;
		if (p && (ioca_cha_preset__sum(p, &s->sockets[0], 0, &hit, &miss) ||
			  hit + miss < prev_sum))
			sums = 0;
		else if (p)
			prev_sum = hit + miss;
	}
	tap(got == 5, "5 samples received (%d)", got);
	tap(got == 5 && consecutive, "their seqs are consecutive, none lost (last %llu)",
	    (unsigned long long)prev_seq);
	tap(got == 5 && shape, "each has both CPUs with 2 counters%s",
	    nuncore ? " and the socket's uncore counters" : "");
	if (p)
		tap(got == 5 && sums, "DDIO hit+miss summed by the preset never decreases");
	else
		skip("this ioca.ko has no emulated DDIO kinds", "DDIO hit+miss sums");
	ioca_subscription__stats(sub, &st);
	tap(st.samples == (uint64_t)got && !st.malformed && !st.incomplete,
	    "subscription stats: %llu samples, %llu malformed, %llu incomplete",
	    (unsigned long long)st.samples, (unsigned long long)st.malformed,
	    (unsigned long long)st.incomplete);
	free(s);
}

/* A model with CHA encodings, but no uncore_cha PMU in a VM. */
static void test_cha_not_available(const struct ioca_info *in)
{
	struct ioca_info *msr = malloc(sizeof(*msr));
	int warns = 0;
	IOCA_OPTS(ioca_cha_opts, o, .print = count_print, .print_ctx = &warns);

	*msr = *in;
	msr->backend = IOCA_BACKEND_MSR;
	msr->cpu_family = 6;
	msr->cpu_model = 0x55;
	struct ioca_cha_preset *p;
	int err;

	errno = 0;
	p = ioca_cha_preset__new(msr, &o);
	err = errno;
	tap(!p && err == ENODEV && warns == 1,
	    "CHA preset on a VM's sysfs: ENODEV with one warning (%s)", strerror(err));
	ioca_cha_preset__free(p);
	free(msr);
}

static void test_rcvbuf(const struct ioca_subscription *sub)
{
	int got = 0;
	socklen_t len = sizeof(got);

	getsockopt(ioca_subscription__fd(sub), SOL_SOCKET, SO_RCVBUF, &got, &len);
	tap(got >= 4 << 20, "the samples socket buffer is at least 4 MiB (%d bytes)", got);
}

/*
 * rmmod under an open subscription and client: recv says -ENODEV, the
 * client's requests fail; the module is loaded again as the guest had it.
 */
static void test_unload(struct ioca_client *c, struct ioca_subscription *sub, struct ioca_sample *s,
			struct ioca_info *in)
{
	const char *ko = getenv("IOCA_KO"), *params = getenv("IOCA_KO_PARAMS");
	char cmd[256];
	int err, i;

	tap(system("rmmod ioca") == 0, "rmmod ioca with a subscription and a client open");
	/* Samples queued before the sampler stopped come first. */
	for (i = 0; i < 1000; i++) {
		err = ioca_subscription__recv(sub, s, 3000);
		if (err != 1)
			break;
	}
	tap(err == -ENODEV, "the subscription's recv says -ENODEV after %d queued samples (%d)", i,
	    err);
	err = ioca_client__info(c, in);
	tap(err < 0, "the old client's info fails (%d %s)", err, strerror(-err));
	snprintf(cmd, sizeof(cmd), "insmod %s %s", ko ? ko : "/ioca/ioca.ko",
		 params ? params : "emulate=1");
	if (system(cmd))
		printf("# %s failed\n", cmd);
}

static void test_unprivileged(void)
{
	pid_t pid = fork();
	int status = 0;

	if (pid == 0) {
		struct ioca_ddio_req req = {.socket = 0, .ways = 3};
		struct ioca_client *c;
		int warns = 0;
		IOCA_OPTS(ioca_subscription_opts, so, .print = count_print, .print_ctx = &warns);

		if (setgid(1000) || setuid(1000))
			_exit(10);
		c = ioca_client__open(NULL);
		if (!c)
			_exit(11);
		if (ioca_client__ddio_set(c, &req, 1, NULL) != -EPERM)
			_exit(12);
		ioca_client__close(c);
		if (ioca_subscription__open(&so) || errno != EPERM || !warns)
			_exit(13);
		_exit(0);
	}
	waitpid(pid, &status, 0);
	tap(WIFEXITED(status) && WEXITSTATUS(status) == 0,
	    "as uid 1000: ddio set -EPERM, joining samples -EPERM (child status %d)",
	    WIFEXITED(status) ? WEXITSTATUS(status) : -1);
}

int main(void)
{
	struct ioca_info *in = calloc(1, sizeof(*in));
	struct ioca_cha_preset *preset;
	struct ioca_subscription *sub;
	struct ioca_sample *s = calloc(1, sizeof(*s));
	struct ioca_client *c;
	int err, nuncore = 0;

	printf("1..%d\n", NTESTS);
	c = ioca_client__open(NULL);
	tap(c != NULL, "ioca_client__open resolves the family (%s)", c ? "ok" : strerror(errno));
	if (!c) {
		free(s);
		free(in);
		return 1;
	}
	err = ioca_client__info(c, in);
	tap(!err && in->backend == IOCA_BACKEND_EMULATED && in->nsockets >= 1 &&
		    in->sockets[0].llc_ways && libioca_mask_contiguous(in->sockets[0].boot_mask),
	    "info: emulated backend, socket 0 with %u ways, boot mask 0x%x",
	    in->sockets[0].llc_ways, in->sockets[0].boot_mask);
	tap(!err && in->ddio[0].reported && in->ddio[0].available && in->ddio[0].writable &&
		    in->ddio[0].verified && in->ddio[0].field == in->sockets[0].valid_mask &&
		    !ioca_ddio_control__why_not(&in->ddio[0]),
	    "info: socket 0's DDIO control available, writable, verified, field 0x%x",
	    in->ddio[0].field);
	test_ddio(c, in);
	test_ddio_owner(in);
	test_sampler_owner(c, in);

	/* The emulated backend's preset: the module's DDIO kinds, no sysfs. */
	preset = ioca_cha_preset__new(in, NULL);
	err = configure(c, preset);
	if (err == -EINVAL && preset) {
		printf("# no emulated DDIO kinds (\"%s\"): sampling without them\n",
		       ioca_client__last_extack(c));
		ioca_cha_preset__free(preset);
		preset = NULL;
		err = configure(c, NULL);
	}
	nuncore = preset ? 2 : 0;
	tap(!err && !info(c, in) && in->sampler.state == IOCA_SAMPLER_STATE_CONFIGURED &&
		    in->sampler.ncpus == 2 && in->sampler.nevents == 2 &&
		    (int)in->sampler.nuncore == nuncore && in->sampler.interval_us == 20000,
	    "sampler set: 2 CPUs, 2 events, %d uncore, 20 ms", nuncore);
	test_sampler_errors(c);
	test_sample_not_running(c, s);
	sub = ioca_subscription__open(NULL);
	tap(sub && ioca_subscription__fd(sub) >= 0, "subscription to samples opens (%s)",
	    sub ? "ok" : strerror(errno));
	err = ioca_client__sampler_start(c);
	tap(!err && !info(c, in) && in->sampler.state == IOCA_SAMPLER_STATE_RUNNING,
	    "sampler start: running");
	if (sub) {
		test_rcvbuf(sub);
		test_subscription(sub, preset, nuncore);
	}
	err = ioca_client__sample(c, s);
	tap(!err && s->on_demand && s->ncpus == 2, "sample on demand: both CPUs (%d)", err);
	err = ioca_client__sampler_stop(c);
	tap(!err && !info(c, in) && in->sampler.state == IOCA_SAMPLER_STATE_CONFIGURED,
	    "sampler stop: configured");
	test_cha_not_available(in);
	test_unprivileged();
	if (sub)
		test_unload(c, sub, s, in);
	ioca_subscription__close(sub);
	ioca_cha_preset__free(preset);
	ioca_client__close(c);
	free(s);
	free(in);
	return tap_failed();
}
