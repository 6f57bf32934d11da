// SPDX-License-Identifier: GPL-2.0
#include "eval/eval_case.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "config/config.h"
#include "eval/eval_oracle.h"

const char *eval_mode_name(enum eval_mode m)
{
	static const char *const n[] = {"static", "ioca", "core-only", "oracle"};

	return m < EVAL_NMODES ? n[m] : "?";
}

static void take_run(struct eval_result *r, const struct eval_run *run, enum eval_mode m)
{
	r->changes[m] = run->changes;
	for (unsigned int p = 0; p < r->nphases; p++) {
		for (unsigned int i = 0; i < run->ntenants; i++) {
			r->tp[p][i].ipc[m] = run->ph[p].ipc[i];
			r->tp[p][i].mask[m] = run->ph[p].mask[i];
		}
		r->mem[p][m] = run->ph[p].mem;
		memcpy(r->ddio[p][m], run->ph[p].ddio, sizeof(r->ddio[p][m]));
	}
}

/* The DDIO ways iocad may use, read back from the case's own config. */
static void ddio_range(const struct eval_case *c, struct eval_oracle_opts *o)
{
	static struct config cfg;
	char err[256];

	o->ddio_min = 2;
	o->ddio_max = 6;
	if (config_parse_string(c->ini, "eval", &cfg, err, sizeof(err)))
		return;
	o->ddio_min = cfg.ddio_ways_min;
	o->ddio_max = cfg.ddio_ways_max;
	o->ddio_fixed = cfg.ddio_observe;
}

static int oracle_phases(struct eval_result *r, const struct eval_case *c,
			 const struct eval_run *st, const struct eval_run *io)
{
	for (unsigned int p = 0; p < r->nphases; p++) {
		struct eval_oracle_opts o = {.ps = st->ps,
					     .net = st->net,
					     .start2 = io->ph[p].mask,
					     .start2_ddio = io->ph[p].ddio};
		struct eval_oracle_out out;
		int err;

		ddio_range(c, &o);
		err = eval_oracle(&st->ph[p].view, &o, &out);
		if (err) {
			snprintf(r->msg, sizeof(r->msg), "oracle, phase %u: %s", p, strerror(-err));
			return err;
		}
		for (unsigned int i = 0; i < r->ntenants; i++) {
			r->tp[p][i].ipc[EVAL_ORACLE] = out.ipc[i];
			r->tp[p][i].mask[EVAL_ORACLE] = out.mask[i];
		}
		r->mem[p][EVAL_ORACLE] = out.mem;
		memcpy(r->ddio[p][EVAL_ORACLE], out.ddio, sizeof(out.ddio));
		r->solves += out.solves;
	}
	return 0;
}

void eval_case_run(uint64_t seed, unsigned int index, const char *dir, bool property_only,
		   struct eval_result *r)
{
	static struct eval_case c;

	memset(r, 0, sizeof(*r));
	r->index = index;
	r->err = eval_gen(seed, index, &c);
	if (r->err) {
		r->seed = c.seed;
		snprintf(r->msg, sizeof(r->msg), "generator: %s", strerror(-r->err));
		return;
	}
	eval_case_run_given(&c, dir, property_only, r);
}

void eval_case_run_given(const struct eval_case *cp, const char *dir, bool property_only,
			 struct eval_result *r)
{
	static struct eval_case c;
	static struct eval_run run[3];
	static const enum iocad_mode modes[] = {IOCAD_MODE_STATIC, IOCAD_MODE_IOCA,
						IOCAD_MODE_CORE_ONLY};

	c = *cp;
	memset(r, 0, sizeof(*r));
	r->index = c.index;
	r->seed = c.seed;
	r->kind = c.kind;
	snprintf(r->desc, sizeof(r->desc), "%s", c.desc);
	r->nphases = c.nphases;
	for (unsigned int m = 0; m < (property_only ? 2u : 3u); m++) {
		r->err = eval_run_case(&c, dir, modes[m], m == 0, &run[m]);
		if (r->err) {
			/* a refusal is the config's, whatever the mode: iocad's words alone */
			r->refused = run[m].refused;
			snprintf(r->msg, sizeof(r->msg), "%s%s%s",
				 r->refused ? "" : eval_mode_name((enum eval_mode)m),
				 r->refused ? "" : ": ", run[m].err);
			return;
		}
		take_run(r, &run[m], (enum eval_mode)m);
	}
	r->ntenants = run[0].ntenants;
	for (unsigned int i = 0; i < r->ntenants; i++) {
		memcpy(r->name[i], run[0].name[i], sizeof(r->name[i]));
		r->ps[i] = run[0].ps[i];
		r->net[i] = run[0].net[i];
		r->socket[i] = run[0].socket[i];
	}
	for (unsigned int p = 0; p < r->nphases; p++)
		for (unsigned int s = 0; s < EVAL_MAX_SOCKETS; s++) {
			memcpy(r->state[p][s], run[1].ph[p].state[s], sizeof(r->state[p][s]));
			memcpy(r->reason[p][s], run[1].ph[p].reason[s], sizeof(r->reason[p][s]));
		}
	/* the inclusive ways, for the diagnosis: the model's, as static's run saw them */
	for (unsigned int p = 0; p < r->nphases; p++)
		if (run[0].ph[p].view.valid)
			r->incl[0] = r->incl[1] = run[0].ph[p].view.params.incl_mask;
	if (!property_only)
		r->err = oracle_phases(r, &c, &run[0], &run[1]);
}
