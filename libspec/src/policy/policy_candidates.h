/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The candidate list of an exhaustive search: the cartesian product of the
 * enumerable points of a space with a list of extra partial configurations,
 * without duplicates, in a fixed order (so a search is reproducible).
 */
#ifndef LIBSPEC_POLICY_CANDIDATES_H
#define LIBSPEC_POLICY_CANDIDATES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "libspec/libspec.h"

struct policy_cand {
	struct spec_config *cfg;
	char *text; /* canonical text, the identity of a candidate */
	double score;
	int err;
};

/* Values seen by sampling a point: each is a choice besides "not set". */
struct policy_obs {
	const char *label;
	int64_t *values;
	size_t nr;
};

struct policy_space_opts {
	const char *const *labels; /* NULL: every enumerable point */
	size_t nr_labels;
	const char *const *noguard; /* labels whose guard is off when set */
	size_t nr_noguard;
	uint64_t max_range_values;
	const struct spec_config *const *extra;
	size_t nr_extra;
	bool include_generic;
	size_t max_candidates;
	const char *const *observe; /* value points searched over observed values */
	size_t nr_observe;
	const struct policy_obs *obs; /* their values this time (NULL: none yet) */
	size_t nr_obs;
};

/*
 * Build the candidates of @space under @o into *@out (*@nr entries).
 * Returns 0 or -errno with the reason written to @err.
 */
int policy_candidates_build(const struct spec_space *space, const struct policy_space_opts *o,
			    struct policy_cand **out, size_t *nr, char *err, size_t errsz);

void policy_candidates_free(struct policy_cand *c, size_t nr);

#endif /* LIBSPEC_POLICY_CANDIDATES_H */
