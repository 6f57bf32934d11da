/* SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause */
/*
 * The decoder of a sample message (IOCA_CMD_SAMPLE_NTF, or a SAMPLE_GET
 * reply), in two steps so the assembler can decide where a part goes before
 * its CPUs and sockets are appended.
 */
#ifndef LIBIOCA_DECODE_SAMPLE_H
#define LIBIOCA_DECODE_SAMPLE_H

#include <stdbool.h>
#include <netlink/netlink.h>
#include "libioca.h"
#include "log.h"

struct ioca_sample_head {
	uint64_t seq;
	uint32_t part;	/* 0 .. parts - 1 */
	uint32_t parts; /* 1 when the message carries no part attributes */
	bool on_demand;
	/* The checked top-level attributes, for ioca_decode_sample_body(). */
	struct nlattr *tb[IOCA_A_SAMPLE_MAX + 1];
	struct nlattr *attrs;
	int len;
};

/*
 * Checks @nlh's command, headers and top-level attributes against the
 * policy and fills @h. 0 or -EBADMSG (with a warning naming the problem).
 */
int ioca_decode_sample_head(const struct nlmsghdr *nlh, struct ioca_sample_head *h,
			    const struct ioca_log *log);

/*
 * Sets @s's header fields from the message @h was decoded from (which must
 * still be in memory) and appends its CPU and socket nests after those
 * already in @s. 0, or -EBADMSG (then @s is partly written and must be
 * dropped).
 */
int ioca_decode_sample_body(const struct ioca_sample_head *h, struct ioca_sample *s,
			    const struct ioca_log *log);

#endif
