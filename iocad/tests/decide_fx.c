// SPDX-License-Identifier: GPL-2.0
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <cmocka.h>

#include "decide_fx.h"

#include "config/config.h"

struct decide_fx *decide_fx_load(const char *text, const char *file, enum iocad_mode mode)
{
	struct decide_fx *f = calloc(1, sizeof(*f));
	char err[256];

	assert_non_null(f);
	if (config_parse_string(text, file, &f->cfg, err, sizeof(err)))
		fail_msg("%s", err);
	assert_int_equal(decide_init(&f->ctx, &f->cfg, mode, f->cfg.ddio_ways, NULL), 0);
	f->iv.ntenants = f->cfg.ntenants;
	f->iv.dt_ns = 1000000000u;
	f->iv.ddio_hits = 1e6;
	f->iv.ddio_misses = 500;
	for (unsigned int i = 0; i < f->cfg.ntenants; i++)
		f->iv.tenant[i] = (struct tenant_rates){.ipc = 1,
							.cycles = 1e9,
							.instructions = 1e9,
							.llc_refs = 1e6,
							.llc_misses = 1e5,
							.miss_rate = 0.1};
	return f;
}

const char *decide_fx_step(struct decide_fx *f)
{
	f->iv.llc_refs = 0;
	for (unsigned int i = 0; i < f->cfg.ntenants; i++)
		f->iv.llc_refs += f->iv.tenant[i].llc_refs;
	tenant_delta_push(&f->d, &f->iv);
	decide_step(&f->ctx, &f->d, &f->out);
	return fsm_state_name(f->out.state);
}
