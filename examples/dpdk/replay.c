// SPDX-License-Identifier: GPL-2.0
/*
 * dpdk-fwd-replay [--runs N] [--phases N] [--phase-packets N] [--write-pcap FILE]
 *                 [--no-default-ports] [EAL options, e.g. --vdev ...]
 *
 * The forwarder on the ports the EAL creates from --vdev arguments: by
 * default net_pcap replaying a capture written to a temporary directory
 * (its hot flows change every phase; what is sent to it is dropped) and
 * net_null (no rx) as a sink, then the caller's. Every run replays the
 * whole capture through the native build, libspec's generic variant, a
 * fast path built once from the first phase's samples, and the same fast
 * path watched by the library's fast-path policy, which rebuilds it when
 * the hot set moves.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <rte_errno.h>
#include <rte_ethdev.h>

#include <libspec/policy.h>

#include "fwd_gen.h"
#include "pcap_gen.h"
#include "replay.h"
#include "spread.h"

#define POOL_SIZE 16383
#define MAX_EAL_ARGS 64
/* Packets of the first phase that instrument the lookup (not measured). */
#define PREFIX 20000
#define STEP_EVERY 8192

static uint64_t cpu_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

static int setup_ports(struct replay *r)
{
	static const struct rte_eth_conf conf;
	uint16_t pid;

	RTE_ETH_FOREACH_DEV(pid)
	{
		struct rte_eth_dev_info info;
		unsigned int i = r->f.nr_ports;

		if (i == FWD_MAX_PORTS)
			break;
		if (rte_eth_dev_info_get(pid, &info) || rte_eth_dev_configure(pid, 1, 1, &conf) ||
		    rte_eth_rx_queue_setup(pid, 0, 1024, SOCKET_ID_ANY, NULL, r->pool) ||
		    rte_eth_tx_queue_setup(pid, 0, 1024, SOCKET_ID_ANY, NULL) ||
		    rte_eth_dev_start(pid)) {
			fprintf(stderr, "dpdk-fwd-replay: port %u: cannot set it up\n", pid);
			return -EIO;
		}
		/* A net_ring port without a peer sends back what it is sent,
		 * and each packet would loop until its TTL ran out: no flow
		 * goes to it (nor to a port after it).
		 */
		if (!r->nr_out && !strcmp(info.driver_name, "net_ring"))
			r->nr_out = i;
		printf("  port %u: %s (%s)%s\n", i, rte_dev_name(info.device), info.driver_name,
		       r->nr_out && i >= r->nr_out ? ", polled, routed to by no flow" : "");
		r->f.port[i] = pid;
		r->f.mac[i] = (struct rte_ether_addr){{2, 0, 0, 0, (uint8_t)i, 1}};
		r->f.peer[i] = (struct rte_ether_addr){{2, 0, 0, 0, (uint8_t)i, 2}};
		r->f.nr_ports++;
	}
	if (!r->nr_out)
		r->nr_out = r->f.nr_ports;
	if (!r->nr_out) {
		fprintf(stderr, "dpdk-fwd-replay: no port to route to: give the EAL a --vdev "
				"(net_ring ones after the others)\n");
		return -ENODEV;
	}
	return 0;
}

/* Back to the capture's first packet: net_pcap reopens its file on start. */
static void restart_ports(struct replay *r)
{
	unsigned int i;

	for (i = 0; i < r->f.nr_ports; i++) {
		rte_eth_dev_stop(r->f.port[i]);
		rte_eth_dev_start(r->f.port[i]);
	}
}

static int install(struct replay *r, struct fwd_tables *t, unsigned int k, uint32_t every)
{
	struct spec_config *c = fwd_config(0, 0, t, k, every);
	int err;

	if (!c)
		return -errno;
	err = spec_runtime__specialize_sync(r->rt, c, NULL);
	spec_config__free(c);
	return err;
}

/*
 * One replay of the capture through @poll: the first PREFIX packets
 * instrument the lookup when @fast (then a fast path of 8 flows is built
 * from them, watched by the policy when @policy), the rest are measured.
 */
static int run_once(struct replay *r, fwd_poll_fn poll, bool fast, bool policy,
		    struct spread_figure *fig)
{
	LIBSPEC_OPTS(spec_policy_fastpath_opts, po, .hot = 8, .min_samples = 256);
	struct spec_policy_fastpath *fp = NULL;
	uint64_t busy = 0, rx0 = 0, lk0 = 0, next_step = 0;
	unsigned int idle = 0, rebuilds = 0;
	bool measuring = false;
	int err = 0;

	restart_ports(r);
	r->f.rx = r->f.tx = r->f.dropped = 0;
	if (fast) {
		/* A fresh data version: no fast path of an earlier run comes back. */
		err = spec_runtime__invalidate(r->rt, FWD_FLOW_LABEL, NULL);
		if (!err)
			err = spec_runtime__reset_counters(r->rt);
		if (!err)
			err = install(r, NULL, 0, 16);
	}
	while (!err && idle < 256 && r->f.rx < r->total) {
		uint64_t t0 = cpu_ns();
		unsigned int got = poll(&r->f);

		if (measuring)
			busy += cpu_ns() - t0;
		idle = got ? 0 : idle + 1;
		if (!measuring && r->f.rx >= PREFIX) {
			if (fast)
				err = install(r, r->f.tables, 8, 16);
			if (!err && policy) {
				fp = spec_policy_fastpath__new(r->rt, FWD_FLOW_LABEL, &po);
				err = fp ? 0 : -errno;
			}
			measuring = true;
			rx0 = r->f.rx;
			lk0 = r->f.tables->lookups;
			next_step = rx0 + STEP_EVERY;
		}
		if (fp && r->f.rx >= next_step) {
			uint64_t t1 = cpu_ns();
			int ret = spec_policy_fastpath__step(fp);

			/* The step's own work is poll time; a rebuild's compile
			 * runs in the compile thread.
			 */
			busy += cpu_ns() - t1;
			rebuilds += ret == 1;
			err = ret < 0 ? ret : 0;
			next_step = r->f.rx + STEP_EVERY;
		}
	}
	spec_policy_fastpath__free(fp);
	if (!err && fast)
		err = install(r, NULL, 0, 0); /* the generic variant again */
	if (err || !measuring || !busy) {
		fprintf(stderr, "dpdk-fwd-replay: %s: %s\n", fig->name,
			err ? strerror(-err) : "the capture ended in the prefix");
		return err ? err : -EIO;
	}
	fig->mpps[fig->n] = (double)(r->f.rx - rx0) * 1e3 / (double)busy;
	fig->slow_share[fig->n] =
		(double)(r->f.tables->lookups - lk0) / (double)(r->f.rx - rx0 ? r->f.rx - rx0 : 1);
	fig->rebuilds[fig->n] = rebuilds;
	fig->n++;
	return 0;
}

static void print_figure(const struct spread_figure *f, const struct spread_figure *base)
{
	double m, lo, hi, bm, bl, bh, sm = 0;
	size_t i;

	spread_of(f, &m, &lo, &hi);
	for (i = 0; i < f->n; i++)
		sm += f->slow_share[i] / (double)f->n;
	printf("  %-34s %6.2f Mpps [%6.2f-%6.2f] %5.1f %% slow lookups", f->name, m, lo, hi,
	       100 * sm);
	for (i = 0; i < f->n && (f->rebuilds[0] || f->rebuilds[f->n - 1]); i++)
		printf("%s%u", i ? " " : ", rebuilds ", f->rebuilds[i]);
	printf("\n");
	if (!base)
		return;
	spread_of(base, &bm, &bl, &bh);
	printf("  %-34s %.2fx the %s: %s\n", "", m / bm, base->name, spread_verdict(f, base));
}

/* The generated capture's temporary directory, removed at the end. */
struct cleanup {
	char dir[64];
	char pcap[96];
};

static void clean_up(struct cleanup *c)
{
	if (c->pcap[0])
		unlink(c->pcap);
	if (c->dir[0])
		rmdir(c->dir);
}

int main(int argc, char **argv)
{
	struct workload_opts wo = {
		.seed = 8,
		.nr_ports = 0, /* set from the ports found */
		.nr_flows = 4096,
		.nr_routes = 512,
		.nr_hot = 6,
		.hot_pct = 90,
		.nr_pkts = 1 << 16,
	};
	static char prefix[64], vdev_pcap[160];
	char *eal[MAX_EAL_ARGS] = {
		argv[0],	  "-l",		 "0",	    "--no-huge",
		"--no-pci",	  "-m",		 "512",	    "--no-shconf",
		"--no-telemetry", "--log-level", "*:error", "--file-prefix",
		prefix,
	};
	struct spread_figure figs[4] = {{.name = "native build"},
					{.name = "libspec generic variant"},
					{.name = "fast path built once (phase 1)"},
					{.name = "fast path + fast-path policy"}};
	unsigned int runs = 5, phases = 4, i, k;
	int ne = 13, ret = 1, err = 0;
	struct cleanup cl = {.dir = ""};
	size_t per_phase = 100000;
	const char *write_pcap = NULL;
	struct replay r = {0};
	struct fwd_tables *t = NULL;
	struct workload w, wcap;
	bool defaults = true;

	for (i = 1; i < (unsigned int)argc; i++) {
		if (!strcmp(argv[i], "--runs") && i + 1 < (unsigned int)argc)
			runs = (unsigned int)atoi(argv[++i]);
		else if (!strcmp(argv[i], "--phases") && i + 1 < (unsigned int)argc)
			phases = (unsigned int)atoi(argv[++i]);
		else if (!strcmp(argv[i], "--phase-packets") && i + 1 < (unsigned int)argc)
			per_phase = (size_t)atol(argv[++i]);
		else if (!strcmp(argv[i], "--write-pcap") && i + 1 < (unsigned int)argc)
			write_pcap = argv[++i];
		else if (!strcmp(argv[i], "--no-default-ports"))
			defaults = false;
		else if (ne < MAX_EAL_ARGS - 4)
			eal[ne++] = argv[i];
	}
	if (!runs || runs > SPREAD_MAX_RUNS || !phases || per_phase < 2 * PREFIX) {
		fprintf(stderr,
			"dpdk-fwd-replay: --runs 1..%d, --phases >= 1, --phase-packets "
			"at least %d\n",
			SPREAD_MAX_RUNS, 2 * PREFIX);
		return 2;
	}
	wo.nr_ports = 3;
	if (write_pcap) {
		if (workload_init(&wcap, &wo))
			return 1;
		err = pcap_gen_write(write_pcap, &wcap, per_phase, phases);
		workload_fini(&wcap);
		return err ? 1 : 0;
	}
	if (defaults) {
		snprintf(cl.dir, sizeof(cl.dir), "/tmp/dpdk-fwd-replay.XXXXXX");
		if (!mkdtemp(cl.dir)) {
			perror("dpdk-fwd-replay: mkdtemp");
			return 1;
		}
		snprintf(cl.pcap, sizeof(cl.pcap), "%s/shift.pcap", cl.dir);
		if (workload_init(&wcap, &wo))
			goto out;
		err = pcap_gen_write(cl.pcap, &wcap, per_phase, phases);
		workload_fini(&wcap);
		if (err)
			goto out;
		snprintf(vdev_pcap, sizeof(vdev_pcap), "--vdev=net_pcap0,rx_pcap=%s", cl.pcap);
		/* First, so that they come before the caller's ports. */
		memmove(&eal[15], &eal[13], (size_t)(ne - 13) * sizeof(*eal));
		eal[13] = vdev_pcap;
		eal[14] = "--vdev=net_null0,no-rx=1";
		ne += 2;
	}
	snprintf(prefix, sizeof(prefix), "ioca-replay-%ld", (long)getpid());
	if (net_eal_init_args(ne, eal)) {
		net_eal_fini();
		goto out;
	}
	printf("DPDK L3 forwarder on --vdev ports (capture: %u phases of %zu packets, %u hot "
	       "flows carry %u %% in each phase)\n",
	       phases, per_phase, wo.nr_hot, wo.hot_pct);
	r.pool = rte_pktmbuf_pool_create("replay_pool", POOL_SIZE, 256, 0,
					 RTE_MBUF_DEFAULT_BUF_SIZE, SOCKET_ID_ANY);
	if (!r.pool || setup_ports(&r))
		goto eal_out;
	wo.nr_ports = r.nr_out;
	if (workload_init(&w, &wo))
		goto eal_out;
	t = tables_new("replay", 2 * wo.nr_flows);
	if (!t || workload_fill(&w, t))
		goto w_out;
	r.f.tables = t;
	r.f.rx_burst = r.f.tx_burst = 32;
	r.total = phases * per_phase;
	r.rt = spec_runtime__open(DPDK_IR, NULL);
	if (!r.rt || spec_runtime__add_gen(r.rt, FWD_FLOW_LABEL, fwd_gen, NULL))
		goto w_out;
	r.spec_poll = spec_runtime__handler(r.rt, "fwd_poll");
	if (!r.spec_poll)
		goto w_out;
	/* Interleaved, so that a slow stretch of the machine hits every variant. */
	for (k = 0; !err && k < runs; k++) {
		err = run_once(&r, fwd_poll, false, false, &figs[0]);
		err = err ?: run_once(&r, r.spec_poll, false, false, &figs[1]);
		err = err ?: run_once(&r, r.spec_poll, true, false, &figs[2]);
		err = err ?: run_once(&r, r.spec_poll, true, true, &figs[3]);
	}
	if (err)
		goto w_out;
	printf("packets/s of poll time over the capture after its first %d packets, median "
	       "[range] of %u runs:\n",
	       PREFIX, runs);
	print_figure(&figs[0], NULL);
	print_figure(&figs[1], &figs[0]);
	print_figure(&figs[2], &figs[1]);
	print_figure(&figs[3], &figs[1]);
	print_figure(&figs[3], &figs[2]);
	ret = 0;
w_out:
	spec_runtime__close(r.rt);
	tables_free(t);
	workload_fini(&w);
eal_out:
	for (i = 0; i < r.f.nr_ports; i++) {
		rte_eth_dev_stop(r.f.port[i]);
		rte_eth_dev_close(r.f.port[i]);
	}
	rte_mempool_free(r.pool);
	net_eal_fini();
out:
	clean_up(&cl);
	return ret;
}
