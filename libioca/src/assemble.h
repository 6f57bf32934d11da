/* SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause */
/*
 * Reassembly of samples sent in parts. A sample is handed out only when
 * every part arrived; a sample with a missing, duplicated or malformed part
 * is dropped whole and shows up as a sequence gap (lost), never as a
 * sample with CPUs missing.
 */
#ifndef LIBIOCA_ASSEMBLE_H
#define LIBIOCA_ASSEMBLE_H

#include <stdbool.h>
#include <stdint.h>
#include "decode_sample.h"

struct ioca_assembler {
	struct ioca_sample *cur; /* the sample being assembled (owned) */
	const struct ioca_log *log;
	bool periodic; /* subscription: skip on-demand, count seq gaps */
	bool active;   /* cur holds parts of sample seq */
	bool dead;     /* ...which was dropped: ignore its remaining parts */
	uint64_t seq;
	uint32_t parts, ngot;
	uint64_t got[(IOCA_MAX_SAMPLE_PARTS + 63) / 64];
	bool has_last; /* a sample was handed out before */
	uint64_t last_seq;
	struct ioca_subscription_stats stats;
};

/* 0 or -ENOMEM. @periodic: see struct ioca_assembler. */
int ioca_asm_init(struct ioca_assembler *a, bool periodic, const struct ioca_log *log);
void ioca_asm_free(struct ioca_assembler *a);

/*
 * Feeds one message. Returns 1 when it completed a sample, copied to @out
 * (with out->lost set), 0 when more parts are needed or the message was
 * dropped (counted in the stats, with a warning).
 */
int ioca_asm_feed(struct ioca_assembler *a, const struct nlmsghdr *nlh, struct ioca_sample *out);

/* Forgets a partly assembled sample (counted as incomplete). */
void ioca_asm_abort(struct ioca_assembler *a);

#endif
