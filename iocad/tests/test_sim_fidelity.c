// SPDX-License-Identifier: GPL-2.0
/*
 * The simulator's issue-12 properties: leaked DMA costs its consumer
 * cycles, the flow table is calibrated (IPC falls with flows, not 30x),
 * latency and L2, warm-up after a re-allocation, and the trace columns.
 */
#include <errno.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "fake_platform.h"
#include "loop/loop.h"
#include "sim_fx.h"
#include "sim_model.h"
#include "sim_platform.h"

static int setup(void **state)
{
	struct sim_fx *f = sim_fx_new(2);

	if (!f)
		return -1;
	f->p.leak_cycles = 4;
	f->p.llc_latency = 50;
	f->p.l2_latency = 14;
	*state = f;
	return 0;
}

/* Fig. 8(d): more DDIO write misses, lower consumer IPC, more cycles per packet. */
static void test_leaked_dma_costs_the_consumer_cycles(void **state)
{
	struct sim_fx *f = *state;
	double ipc_small[2], cpp_small[2], ipc_big[2], miss_small = 0;

	/* 8 queues of 2048 1500-byte buffers: 24 MiB of lines, far beyond two ways */
	f->t[0].w.rate = 3e6;
	f->t[0].w.pkt = 1500;
	f->t[0].w.queues = 8;
	f->t[0].w.ring = 2048;
	f->t[0].w.ipp = 250;
	f->t[0].ncpus = 2;
	f->t[0].mask = sim_fx_ways(0, 3);
	for (int leak = 0; leak < 2; leak++) {
		f->p.leak_cycles = leak ? 2 : 0;
		sim_fx_solve(f, 1, sim_fx_ways(9, 2)); /* two DDIO ways: many write misses */
		ipc_small[leak] = sim_fx_ipc(&f->r.tenant[0]);
		cpp_small[leak] = f->r.tenant[0].cpp;
		miss_small = f->r.ddio_misses;
		sim_fx_solve(f, 1, sim_fx_ways(5, 6)); /* six: most writes hit */
		ipc_big[leak] = sim_fx_ipc(&f->r.tenant[0]);
		assert_true(miss_small > 1.5 * f->r.ddio_misses);
		assert_true(f->r.tenant[0].cpp < cpp_small[leak] || !leak);
	}
	/* without a leak cost the consumer would not notice DDIO's ways */
	assert_true(fabs(ipc_big[0] - ipc_small[0]) / ipc_big[0] < 0.01);
	/* with it, a few per cent of IPC, as the paper measures (~5 %) */
	assert_true(ipc_big[1] / ipc_small[1] > 1.02);
	assert_true(ipc_big[1] / ipc_small[1] < 1.25);
	assert_true(cpp_small[1] > cpp_small[0]);
}

/* Fig. 9 calibration: IPC falls with flows, a few times at 100K, not 30x. */
static void test_flow_table_is_calibrated(void **state)
{
	struct sim_fx *f = *state;
	double ipc1k, ipc100k, ipc100k_more_ways, pkts100k;

	f->t[0].w.rate = 2e6;
	f->t[0].w.pkt = 64;
	f->t[0].w.queues = 4;
	f->t[0].w.ipp = 250;
	f->t[0].w.rpi = 0.025;
	f->t[0].w.cpi = 0.7;
	f->t[0].w.ws = 512 * 1024;
	f->t[0].ncpus = 2;
	f->t[0].mask = sim_fx_ways(0, 2);
	f->t[0].w.flows = 1000;
	sim_fx_solve(f, 1, sim_fx_ways(9, 2));
	ipc1k = sim_fx_ipc(&f->r.tenant[0]);
	f->t[0].w.flows = 100000;
	sim_fx_solve(f, 1, sim_fx_ways(9, 2));
	ipc100k = sim_fx_ipc(&f->r.tenant[0]);
	pkts100k = f->r.tenant[0].pkts;
	f->t[0].mask = sim_fx_ways(0, 5);
	sim_fx_solve(f, 1, sim_fx_ways(9, 2));
	ipc100k_more_ways = sim_fx_ipc(&f->r.tenant[0]);
	assert_true(ipc1k / ipc100k > 1.5);
	assert_true(ipc1k / ipc100k < 6.0);
	/* the vswitch still forwards most of what it is offered */
	assert_true(pkts100k > 0.5 * 2e6);
	/* more ways win back part of it */
	assert_true(ipc100k_more_ways > 1.05 * ipc100k);
	/* batched lookups overlap their misses (mlp): the same table costs less */
	f->t[0].mask = sim_fx_ways(0, 2);
	f->t[0].w.mlp = 6;
	sim_fx_solve(f, 1, sim_fx_ways(9, 2));
	assert_true(sim_fx_ipc(&f->r.tenant[0]) > 1.3 * ipc100k);
	assert_true(sim_fx_ipc(&f->r.tenant[0]) < ipc1k);
}

/* X-Mem-like random reads: latency falls with ways; L2 serves its share. */
static void test_latency_and_l2(void **state)
{
	struct sim_fx *f = *state;
	double lat2, lat6;

	f->t[0].w.ws = 10 * MB;
	f->t[0].w.rpi = 0.02;
	f->t[0].mask = sim_fx_ways(0, 2);
	sim_fx_solve(f, 1, sim_fx_ways(9, 2));
	lat2 = f->r.tenant[0].lat_ns;
	f->t[0].mask = sim_fx_ways(0, 6);
	sim_fx_solve(f, 1, sim_fx_ways(9, 2));
	lat6 = f->r.tenant[0].lat_ns;
	assert_true(lat6 < 0.8 * lat2);
	assert_true(lat6 >= 50 / 2.3 - 1e-9); /* never below an LLC hit */
	/* a working set that fits its core's L2 never reaches the LLC */
	f->p.l2_bytes = 1 * MB;
	f->t[0].w.ws = 1 * MB;
	sim_fx_solve(f, 1, sim_fx_ways(9, 2));
	assert_true(f->r.tenant[0].llc_refs < 1.0);
	assert_true(fabs(f->r.tenant[0].lat_ns - 14 / 2.3) < 1e-6);
	/* half of it in L2: the LLC sees half the references */
	f->t[0].w.ws = 2 * MB;
	sim_fx_solve(f, 1, sim_fx_ways(9, 2));
	assert_true(fabs(f->r.tenant[0].llc_refs / (f->r.tenant[0].instructions * 0.02) - 0.5) <
		    1e-6);
}

static char scn_path[64];

static struct platform open_scn(const char *text, uint64_t interval_ns)
{
	struct sim_platform_opts o = {.sz = sizeof(o), .noise = 0, .interval_ns = interval_ns};
	struct platform pf;
	char err[256] = "";
	FILE *fp;
	int fd;

	snprintf(scn_path, sizeof(scn_path), "/tmp/iocad-simfid-XXXXXX");
	fd = mkstemp(scn_path);
	assert_true(fd >= 0);
	fp = fdopen(fd, "w");
	assert_non_null(fp);
	fputs(text, fp);
	fclose(fp);
	if (sim_platform_open(scn_path, &o, &pf, err, sizeof(err)))
		fail_msg("%s", err);
	unlink(scn_path);
	return pf;
}

static double tenant_ipc(const struct platform_sample *a, const struct platform_sample *b)
{
	return (double)(b->cpu[0].instructions - a->cpu[0].instructions) /
	       (double)(b->cpu[0].cycles - a->cpu[0].cycles);
}

/* After a plan gives a tenant ways, they fill first: the next interval is slower. */
static void test_warmup_after_a_reallocation(void **state)
{
	struct platform pf = open_scn("[platform]\nways = 11\nduration = 10s\nnoise = 0\n"
				      "[tenant a]\ncpus = 0\nws = 20M\nrpi = 0.02\n",
				      100000000ULL);
	struct platform_plan plan = {0};
	struct platform_sample s[4];

	(void)state;
	fake_plan_group(&plan, 0, "a", 0x3, 0, 0);
	plan.socket[0].ddio_mask = 0x600;
	assert_int_equal(pf.ops->apply(pf.ctx, &plan), 0);
	for (int k = 0; k < 2; k++)
		assert_int_equal(pf.ops->poll(pf.ctx, &s[0]), 0);
	plan.socket[0].group[0].mask = 0x1ff;
	assert_int_equal(pf.ops->apply(pf.ctx, &plan), 0);
	assert_int_equal(pf.ops->poll(pf.ctx, &s[1]), 0);
	assert_int_equal(pf.ops->poll(pf.ctx, &s[2]), 0);
	assert_int_equal(pf.ops->poll(pf.ctx, &s[3]), 0);
	/* 15 MiB to fill at ~0.6 GB/s of misses: the first ~26 ms of 100 run at the old rates */
	assert_true(tenant_ipc(&s[0], &s[1]) < 0.97 * tenant_ipc(&s[1], &s[2]));
	/* then the new steady state */
	assert_true(fabs(tenant_ipc(&s[1], &s[2]) - tenant_ipc(&s[2], &s[3])) < 1e-3);
	pf.ops->destroy(pf.ctx);
}

/* The trace gains the model's memory traffic, packets, drops, cycles/packet, latency. */
static void test_trace_has_the_models_columns(void **state)
{
	struct platform pf = open_scn("[platform]\nways = 11\nduration = 5s\n"
				      "[tenant net]\ncpus = 0-1\nrate = 2M\npkt = 1500\n"
				      "queues = 4\n[tenant x]\ncpus = 2\nws = 8M\nrpi = 0.02\n",
				      0);
	static const char cfg_text[] =
		"[platform]\nllc_ways = 11\n[tenant net]\ncpus = 0-1\n"
		"ways = 3\nnetworking = yes\n[tenant x]\ncpus = 2\nways = 2\n";
	struct config cfg;
	char err[256], *buf = NULL, *line, *hdr;
	size_t len = 0;
	FILE *m = open_memstream(&buf, &len);
	struct loop_opts lo = {.sz = sizeof(lo), .cfg = &cfg, .mode = IOCAD_MODE_IOCA, .trace = m};
	double mem = 0, pkts = 0, lat = 0;
	int rows = 0;

	(void)state;
	assert_int_equal(config_parse_string(cfg_text, "t.ini", &cfg, err, sizeof(err)), 0);
	assert_int_equal(loop_run(&lo, &pf, NULL, 0, NULL), 0);
	pf.ops->destroy(pf.ctx);
	fclose(m);
	hdr = strtok(buf, "\n");
	assert_non_null(strstr(hdr, ",sim_mem_bytes_s,sim_net_pkts_s,sim_net_drops_s,"
				    "sim_net_cycles_per_pkt,sim_net_lat_ns,sim_net_refs_s,"
				    "sim_x_pkts_s"));
	while ((line = strtok(NULL, "\n"))) {
		char *c = line;

		/* sim_mem_bytes_s is column 21: 10 fixed, 5 per tenant */
		for (int k = 0; k < 20; k++)
			c = strchr(c, ',') + 1;
		assert_int_equal(
			sscanf(c, "%lf,%lf,%*f,%*f,%*f,%*f,%*f,%*f,%*f,%lf", &mem, &pkts, &lat), 3);
		rows++;
	}
	assert_int_equal(rows, 4);
	assert_true(mem > 1e8);
	assert_true(fabs(pkts - 2e6) < 1e3);
	assert_true(lat > 50 / 2.3);
	free(buf);
}

int main(void)
{
#define T(x) cmocka_unit_test_setup_teardown(x, setup, sim_fx_teardown)
	const struct CMUnitTest tests[] = {
		T(test_leaked_dma_costs_the_consumer_cycles),
		T(test_flow_table_is_calibrated),
		T(test_latency_and_l2),
		cmocka_unit_test(test_warmup_after_a_reallocation),
		cmocka_unit_test(test_trace_has_the_models_columns),
	};

	return cmocka_run_group_tests_name("sim_fidelity", tests, NULL, NULL);
}
