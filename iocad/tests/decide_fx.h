/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A decider fed hand-written intervals, for tests that walk decide_step()
 * through a sequence: each test edits @iv between steps.
 */
#ifndef IOCAD_TESTS_DECIDE_FX_H
#define IOCAD_TESTS_DECIDE_FX_H

#include "decide/decide.h"

struct decide_fx {
	struct config cfg;
	struct decide_ctx ctx;
	struct tenant_delta d;
	struct tenant_interval iv;
	struct decide_out out;
};

/*
 * Parse @text (@file in errors) and start a decider in @mode; every tenant
 * runs at IPC 1 with 1e6 LLC refs/s at a 10% miss rate, DDIO barely misses.
 * Fails the running test on a bad config. free() the result.
 */
struct decide_fx *decide_fx_load(const char *text, const char *file, enum iocad_mode mode);
/* Feed the current interval; return the new state's name. */
const char *decide_fx_step(struct decide_fx *f);

#endif /* IOCAD_TESTS_DECIDE_FX_H */
