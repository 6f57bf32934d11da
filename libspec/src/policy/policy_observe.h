/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The observation phase of a search (the paper's instrumentation phase):
 * run the generic variant with sampling on some value points for a while,
 * then keep the values that dominate what was seen, as candidate constants.
 */
#ifndef LIBSPEC_POLICY_OBSERVE_H
#define LIBSPEC_POLICY_OBSERVE_H

#include <stddef.h>
#include <stdint.h>

#include "libspec/libspec.h"
#include "policy/policy_candidates.h"

/*
 * Install the generic variant sampling each of @labels once every @every
 * calls, and zero the runtime's observed values. Returns 0 or -errno.
 */
int policy_observe_start(struct spec_runtime *rt, const char *const *labels, size_t n,
			 uint32_t every);

/*
 * For each of @labels, the observed values seen in at least @share of its
 * samples (none if it was never sampled), into *@out (@n entries, labels
 * pointing at @labels). Returns 0 or -errno.
 */
int policy_observe_collect(struct spec_runtime *rt, const char *const *labels, size_t n,
			   double share, struct policy_obs **out);

void policy_observe_free(struct policy_obs *obs, size_t n);

#endif /* LIBSPEC_POLICY_OBSERVE_H */
