// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "fake_platform.h"
#include "log_buf.h"

static int f_info(void *ctx, struct platform_info *out)
{
	const struct fake_platform *f = ctx;

	*out = f->info;
	return 0;
}

static int f_poll(void *ctx, struct platform_sample *out)
{
	struct fake_platform *f = ctx;

	f->polls++;
	if (f->on_poll)
		f->on_poll(f, f->arg);
	if (f->end_after && f->polls >= f->end_after)
		return PLATFORM_END;
	if (f->poll_error)
		return f->poll_error; /* no sample: the counters stay */
	f->s.seq++;
	f->s.t_ns += f->interval_ns;
	f->s.ncpus = f->info.ncpus;
	for (unsigned int c = 0; c < f->info.ncpus; c++) {
		struct platform_cpu_counters *p = &f->s.cpu[c];

		p->online = true;
		p->instructions += f->inc[c].instructions;
		p->cycles += f->inc[c].cycles;
		p->llc_refs += f->inc[c].llc_refs;
		p->llc_misses += f->inc[c].llc_misses;
	}
	for (unsigned int k = 0; k < PLATFORM_MAX_SOCKETS; k++) {
		struct platform_socket_sample *ss = &f->s.socket[k];

		if (!f->info.socket[k].present)
			continue;
		ss->ddio_missing = f->sock[k].ddio_missing;
		if (!ss->ddio_missing) {
			ss->ddio_hits += f->sock[k].hits_inc;
			ss->ddio_misses += f->sock[k].misses_inc;
		}
		ss->ddio_mask = f->sock[k].mask_now;
	}
	*out = f->s;
	return 0;
}

static int f_apply(void *ctx, const struct platform_plan *plan)
{
	struct fake_platform *f = ctx;

	f->apply_calls++;
	if (f->apply_error)
		return f->apply_error;
	for (unsigned int k = 0; k < plan->nsockets && !plan->sample_only; k++) {
		unsigned int id = plan->socket[k].id;

		if (!f->sock[id].ddio_locked || plan->socket[k].ddio_mask == f->sock[id].mask_now)
			continue;
		f->info.socket[id].ddio_fixed = true;
		snprintf(f->info.socket[id].ddio_fixed_why, PLATFORM_WHY_LEN,
			 "ioca.ko: DDIO writes do not stick");
		return -EIO;
	}
	f->plan = *plan;
	if (plan->sample_only) {
		f->sample_applies++;
		return 0;
	}
	f->applies++;
	for (unsigned int k = 0; k < plan->nsockets; k++)
		f->sock[plan->socket[k].id].mask_now = plan->socket[k].ddio_mask;
	return 0;
}

static int f_check(void *ctx, const struct platform_plan *plan)
{
	struct fake_platform *f = ctx;

	(void)plan;
	f->checks++;
	return f->check_error;
}

static int f_wait(void *ctx, uint64_t ns)
{
	struct fake_platform *f = ctx;

	(void)ns;
	f->waits++;
	return 0;
}

static int f_restore(void *ctx)
{
	struct fake_platform *f = ctx;

	f->restores++;
	for (unsigned int k = 0; k < PLATFORM_MAX_SOCKETS; k++)
		f->sock[k].mask_now = f->info.socket[k].ddio_mask;
	return 0;
}

static void f_destroy(void *ctx)
{
	(void)ctx;
}

static const char *f_waiting(void *ctx)
{
	const struct fake_platform *f = ctx;

	return f->waiting;
}

static unsigned int f_cat_waiting(void *ctx, char *buf, size_t len)
{
	const struct fake_platform *f = ctx;

	snprintf(buf, len, "%s", f->cat_waiting ? f->cat_waiting : "");
	return f->cat_waits;
}

static const struct platform_ops fake_ops = {
	.name = "fake",
	.info = f_info,
	.poll = f_poll,
	.check = f_check,
	.apply = f_apply,
	.wait = f_wait,
	.restore = f_restore,
	.destroy = f_destroy,
	.waiting = f_waiting,
	.cat_waiting = f_cat_waiting,
};

void fake_platform_init(struct fake_platform *f, unsigned int llc_ways, unsigned int ncpus,
			uint32_t ddio_mask)
{
	memset(f, 0, sizeof(*f));
	f->info.ncpus = ncpus;
	for (unsigned int c = 0; c < PLATFORM_MAX_CPUS; c++)
		f->info.cpu_socket[c] = PLATFORM_CPU_ABSENT;
	f->interval_ns = 1000000000u;
	fake_platform_socket(f, 0, 0, ncpus - 1, llc_ways, ddio_mask);
}

void fake_platform_socket(struct fake_platform *f, unsigned int id, unsigned int lo,
			  unsigned int hi, unsigned int llc_ways, uint32_t ddio_mask)
{
	struct platform_socket_info *si = &f->info.socket[id];

	for (unsigned int c = lo; c <= hi; c++)
		f->info.cpu_socket[c] = (int)id;
	if (hi >= f->info.ncpus)
		f->info.ncpus = hi + 1;
	si->present = true;
	si->llc_ways = llc_ways;
	si->ddio_mask = ddio_mask;
	si->ddio_boot_mask = ddio_mask;
	si->ddio_counters = true;
	f->sock[id].mask_now = ddio_mask;
}

const struct platform_socket_plan *fake_plan_socket(const struct platform_plan *p, unsigned int id)
{
	for (unsigned int k = 0; k < p->nsockets; k++)
		if (p->socket[k].id == id)
			return &p->socket[k];
	return NULL;
}

uint32_t fake_plan_mask(const struct platform_plan *p, const char *name)
{
	for (unsigned int k = 0; k < p->nsockets; k++)
		for (unsigned int g = 0; g < p->socket[k].ngroups; g++)
			if (!strcmp(p->socket[k].group[g].name, name))
				return p->socket[k].group[g].mask;
	return 0;
}

void fake_platform_bind(struct fake_platform *f, struct platform *pf)
{
	pf->ops = &fake_ops;
	pf->ctx = f;
}

void fake_platform_cpu(struct fake_platform *f, unsigned int cpu, double ipc, uint64_t refs,
		       uint64_t misses)
{
	f->inc[cpu].cycles = 1000000000u;
	f->inc[cpu].instructions = (uint64_t)(ipc * 1e9);
	f->inc[cpu].llc_refs = refs;
	f->inc[cpu].llc_misses = misses;
}

void fake_platform_quiet(struct fake_platform *f)
{
	fake_platform_init(f, 11, 4, 0x600);
	for (unsigned int c = 0; c < 4; c++)
		fake_platform_cpu(f, c, 1.0, 1000000, 100000);
	f->sock[0].hits_inc = 1000000;
	f->sock[0].misses_inc = 100;
}

void fake_platform_setup(struct fake_platform *f, struct platform *pf, struct config *cfg,
			 const char *text, const char *file)
{
	char err[256];

	if (config_parse_string(text, file, cfg, err, sizeof(err)))
		fail_msg("%s", err);
	fake_platform_quiet(f);
	fake_platform_bind(f, pf);
}

const char fake_platform_vf_be[] =
	"[platform]\nmodel = slicing\nllc_ways = 11\n"
	"[tenant vf]\ncpus = 0\nways = 3\npriority = PS\nnetworking = yes\n"
	"[tenant be]\ncpus = 1\nways = 3\n";

struct loop_opts fake_platform_loop_opts(const struct config *cfg, uint64_t intervals, char *log)
{
	return (struct loop_opts){
		.sz = sizeof(struct loop_opts),
		.cfg = cfg,
		.mode = IOCAD_MODE_IOCA,
		.max_intervals = intervals,
		.log = log ? log_buf_loop_log : NULL,
		.log_arg = log,
	};
}

void fake_plan_group(struct platform_plan *p, unsigned int socket, const char *name, uint32_t mask,
		     unsigned int lo, unsigned int hi)
{
	struct platform_socket_plan *sp =
		(struct platform_socket_plan *)fake_plan_socket(p, socket);
	struct platform_group *g;

	if (!sp) {
		sp = &p->socket[p->nsockets++];
		sp->id = socket;
	}
	g = &sp->group[sp->ngroups++];
	snprintf(g->name, sizeof(g->name), "%s", name);
	g->mask = mask;
	memset(&g->cpus, 0, sizeof(g->cpus));
	for (unsigned int c = lo; c <= hi; c++) {
		platform_cpuset_add(&g->cpus, c);
		platform_cpuset_add(&sp->sample_cpus, c);
	}
}
