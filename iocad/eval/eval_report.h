/* SPDX-License-Identifier: GPL-2.0 */
/*
 * make eval's report over every case: per mode the distribution of PS and
 * BE tenants' IPC against static and against the oracle (median, p10,
 * worst), memory traffic and allocation changes; the worst cases with
 * their seeds and a one-line diagnosis; the property "iocad never costs a
 * PS tenant more than 5 % against static"; a CSV for the plot.
 */
#ifndef IOCAD_EVAL_REPORT_H
#define IOCAD_EVAL_REPORT_H

#include <stdio.h>

#include "eval/eval_case.h"

/* A PS tenant losing more than this against static breaks the property. */
#define EVAL_PS_FLOOR 0.95

/* Print the report of @n results to @out; the sorted ratios to @csv (may be NULL). */
void eval_report(const struct eval_result *r, unsigned int n, uint64_t seed, FILE *out, FILE *csv);

/*
 * The property on @n results: print each violation (with the command that
 * reproduces it) to @out; returns how many cases broke it. A case whose
 * config iocad refused at start with a reason breaks nothing: it is listed
 * with its reason and counted in @refused; one refused without a reason
 * breaks the property.
 */
unsigned int eval_property(const struct eval_result *r, unsigned int n, uint64_t seed, FILE *out,
			   unsigned int *refused);

/* One case in full: config, phases, each tenant's IPC per mode, layouts. */
void eval_report_case(const struct eval_result *r, const struct eval_case *c, FILE *out);

/*
 * A story's figures, one line per phase and tenant (and "mem" for the DRAM
 * traffic): "phase P T0 T1 NAME static X ioca Y core-only Z oracle W".
 */
void eval_report_story(const struct eval_result *r, const struct eval_case *c, FILE *out);

#endif /* IOCAD_EVAL_REPORT_H */
