/* SPDX-License-Identifier: GPL-2.0 */
/*
 * One case evaluated in every mode, as plain numbers: what a worker
 * process hands the report (eval_report.h) through shared memory.
 */
#ifndef IOCAD_EVAL_CASE_H
#define IOCAD_EVAL_CASE_H

#include <stdbool.h>
#include <stdint.h>

#include "eval/eval_gen.h"
#include "eval/eval_run.h"

enum eval_mode { EVAL_STATIC, EVAL_IOCA, EVAL_CORE_ONLY, EVAL_ORACLE, EVAL_NMODES };

struct eval_tenant_phase {
	double ipc[EVAL_NMODES];
	uint32_t mask[EVAL_NMODES];
};

struct eval_result {
	int err; /* 0, or -errno: msg says what */
	/*
	 * err is iocad refusing the case's config at start (eval_run.refused):
	 * no run to judge, msg is iocad's reason ("" if it gave none).
	 */
	bool refused;
	char msg[256];
	uint64_t seed;
	unsigned int index;
	enum eval_kind kind;
	char desc[200];
	unsigned int nphases, ntenants;
	char name[EVAL_MAX_TENANTS][32];
	bool ps[EVAL_MAX_TENANTS], net[EVAL_MAX_TENANTS];
	unsigned int socket[EVAL_MAX_TENANTS];
	unsigned int changes[EVAL_NMODES];
	struct eval_tenant_phase tp[EVAL_MAX_PHASES][EVAL_MAX_TENANTS];
	double mem[EVAL_MAX_PHASES][EVAL_NMODES];
	uint32_t ddio[EVAL_MAX_PHASES][EVAL_NMODES][EVAL_MAX_SOCKETS];
	uint32_t incl[EVAL_MAX_SOCKETS];
	char state[EVAL_MAX_PHASES][EVAL_MAX_SOCKETS][24];  /* iocad's, phase end */
	char reason[EVAL_MAX_PHASES][EVAL_MAX_SOCKETS][24]; /* iocad's last reason */
	unsigned int solves;
};

const char *eval_mode_name(enum eval_mode m);

/*
 * Generate case @index of @seed and evaluate it in every mode (files under @dir);
 * @property_only: static and ioca only, what the property compares (no core-only,
 * no oracle: a fraction of the time).
 */
void eval_case_run(uint64_t seed, unsigned int index, const char *dir, bool property_only,
		   struct eval_result *r);

/* As eval_case_run on a case given whole (a story's own config and scenario). */
void eval_case_run_given(const struct eval_case *c, const char *dir, bool property_only,
			 struct eval_result *r);

#endif /* IOCAD_EVAL_CASE_H */
