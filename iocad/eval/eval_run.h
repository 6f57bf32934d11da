/* SPDX-License-Identifier: GPL-2.0 */
/*
 * One generated case run through iocad's loop on the simulator in one
 * mode, reduced to what the report compares: per phase, each tenant's
 * mean IPC and the memory traffic over the phase's second half (the
 * first half is the decisions' time to act), and the layout and FSM
 * state at the phase's end. The static run also keeps, per phase, the
 * model's inputs (eval_oracle.h searches other layouts on them).
 */
#ifndef IOCAD_EVAL_RUN_H
#define IOCAD_EVAL_RUN_H

#include <stdbool.h>
#include <stdint.h>

#include "decide/decide.h"
#include "eval/eval_gen.h"
#include "platform.h"
#include "sim_model.h"

#define EVAL_MAX_TENANTS 16
#define EVAL_MAX_SOCKETS 2

/* The model's inputs in the middle of a phase's second half (scenario order). */
struct eval_view {
	bool valid;
	struct sim_params params;
	unsigned int n;
	struct sim_tenant t[EVAL_MAX_TENANTS];
	unsigned int socket[EVAL_MAX_TENANTS];
	uint32_t ddio[EVAL_MAX_SOCKETS];
};

struct eval_phase {
	unsigned int samples;		 /* intervals in the second half */
	double ipc[EVAL_MAX_TENANTS];	 /* mean, config order */
	double pkts[EVAL_MAX_TENANTS];	 /* packets/s processed (networking tenants) */
	double mem;			 /* DRAM bytes/s, every socket */
	uint32_t mask[EVAL_MAX_TENANTS]; /* at the phase's last interval */
	uint32_t ddio[EVAL_MAX_SOCKETS];
	char state[EVAL_MAX_SOCKETS][24];  /* FSM state then */
	char reason[EVAL_MAX_SOCKETS][24]; /* its last decision's reason */
	struct eval_view view;		   /* static runs only */
};

struct eval_run {
	unsigned int ntenants; /* config order */
	char name[EVAL_MAX_TENANTS][32];
	bool ps[EVAL_MAX_TENANTS];
	bool net[EVAL_MAX_TENANTS];
	unsigned int socket[EVAL_MAX_TENANTS];
	unsigned int changes; /* intervals whose applied layout differs from the one before */
	struct eval_phase ph[EVAL_MAX_PHASES];
	/*
	 * The config was refused before anything ran (it does not parse, or
	 * does not fit the platform): what iocad does at start, exit 2, the
	 * operator told why and running static. err then holds iocad's own
	 * words, "" when it gave none.
	 */
	bool refused;
	char err[256];
};

/*
 * Run @c in @mode (files written under @dir) into @out; @keep_views: keep
 * each phase's model inputs. 0 or -errno with out->err saying why (file
 * names without @dir: the same words in every run).
 */
int eval_run_case(const struct eval_case *c, const char *dir, enum iocad_mode mode, bool keep_views,
		  struct eval_run *out);

#endif /* IOCAD_EVAL_RUN_H */
