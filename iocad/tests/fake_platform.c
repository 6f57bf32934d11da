// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "fake_platform.h"

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
	f->s.ddio_hits += f->ddio_hits_inc;
	f->s.ddio_misses += f->ddio_misses_inc;
	f->s.ddio_mask = f->ddio_mask_now;
	*out = f->s;
	return 0;
}

static int f_apply(void *ctx, const struct platform_plan *plan)
{
	struct fake_platform *f = ctx;

	if (f->apply_error)
		return f->apply_error;
	f->applies++;
	f->plan = *plan;
	f->ddio_mask_now = plan->ddio_mask;
	return 0;
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
	f->ddio_mask_now = f->info.ddio_mask;
	return 0;
}

static void f_destroy(void *ctx)
{
	(void)ctx;
}

static const struct platform_ops fake_ops = {
	.name = "fake",
	.info = f_info,
	.poll = f_poll,
	.apply = f_apply,
	.wait = f_wait,
	.restore = f_restore,
	.destroy = f_destroy,
};

void fake_platform_init(struct fake_platform *f, unsigned int llc_ways, unsigned int ncpus,
			uint32_t ddio_mask)
{
	memset(f, 0, sizeof(*f));
	f->info.llc_ways = llc_ways;
	f->info.ncpus = ncpus;
	f->info.ddio_mask = ddio_mask;
	f->info.ddio_boot_mask = ddio_mask;
	f->info.ddio_counters = true;
	f->interval_ns = 1000000000u;
	f->ddio_mask_now = ddio_mask;
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
	f->ddio_hits_inc = 1000000;
	f->ddio_misses_inc = 100;
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
