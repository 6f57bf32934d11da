/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The LPM code generator for the lpm4/lpm6 spec_gen points. Its parameter
 * (spec_config__set_param) selects the specialization:
 *   LPM_GEN_FP(k)   the k hottest sampled destinations as an exact switch,
 *                   answers taken from the samples; the rest: the table
 *   LPM_GEN_NI      every route as nested ifs of masked compares (a /24
 *                   under a /16 is tested inside it), "no route" default
 *   both OR-ed      NI-FP: the hot switch first, then the nested ifs
 */
#ifndef LPM_LPM_GEN_H
#define LPM_LPM_GEN_H

#include <libspec/gen.h>

#include "lpm.h"

#define LPM_GEN_FP(k) ((int64_t)(k)&0xffff)
#define LPM_GEN_NI ((int64_t)1 << 16)

/* spec_gen_fn: @ctx unused (the table is the point's data). */
int lpm_gen(void *ctx, struct spec_gen *g);

/* The configuration text of specialization @param for table @t at @label,
 * sampling every @every calls (0: off) so a fast path can follow the hot set.
 */
struct spec_config *lpm_gen_config(const char *label, const struct lpm *t, int64_t param,
				   uint32_t every);

#endif /* LPM_LPM_GEN_H */
