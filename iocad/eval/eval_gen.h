/* SPDX-License-Identifier: GPL-2.0 */
/*
 * make eval's scenarios: a seeded generator of scenario + config pairs of
 * the kind an operator of a network-heavy host runs (EVAL.md): one
 * networking tenant (vswitch-like or DPDK-like, 1-60 Mpps, 64-1500 B, PS
 * or BE), 2-5 compute tenants (256 KiB-20 MiB working sets), 2-5 phases
 * that change packet size, rate, flows or working sets, and a config
 * written as an operator would. Variants: DDIO observed (not managed),
 * two sockets, a storage device (A4), an antagonist (A4).
 * The same (seed, index) always gives the same texts.
 */
#ifndef IOCAD_EVAL_GEN_H
#define IOCAD_EVAL_GEN_H

#include <stddef.h>
#include <stdint.h>

#define EVAL_MAX_PHASES 5

enum eval_kind {
	EVAL_KIND_BASE,
	EVAL_KIND_OBSERVE,    /* ddio = observe: DDIO's ways are not iocad's */
	EVAL_KIND_TWO_SOCKET, /* two LLCs, a networking tenant on each */
	EVAL_KIND_STORAGE,    /* a tenant's storage device writes by DMA */
	EVAL_KIND_ANTAGONIST, /* a BE tenant streams through a huge working set */
	EVAL_KIND_COUNT,
};

struct eval_case {
	uint64_t seed; /* of this case (the run's seed and its index) */
	unsigned int index;
	enum eval_kind kind;
	char desc[200]; /* one line: the networking tenant and the phases */
	unsigned int nphases;
	/* seconds; phase p is [start[p], start[p + 1]), start[nphases] the end */
	double start[EVAL_MAX_PHASES + 1];
	char ini[4096]; /* iocad's config */
	char scn[6144]; /* the simulator's scenario */
};

const char *eval_kind_name(enum eval_kind k);

/* Case @index of the run seeded @seed into @out. 0, or -ENOSPC (a text did not fit). */
int eval_gen(uint64_t seed, unsigned int index, struct eval_case *out);

#endif /* IOCAD_EVAL_GEN_H */
