/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Requests for the parts of the ABI that ioca_client.h does not send (the
 * owner flags), and what a test reads beside libioca's decoded structs: a
 * sample message's part attributes and a socket counter by its index.
 */
#ifndef IOCA_SELFTEST_CLIENT_EXT_H
#define IOCA_SELFTEST_CLIENT_EXT_H

#include <stdbool.h>
#include <stdint.h>
#include "ioca_client.h"

/* sampler-set from @cfg, plus IOCA_A_SAMPLER_OWNER when @own. */
int iocx_sampler_set(struct tnl *t, const struct ioca_sampler_cfg *cfg, bool own,
		     struct tnl_reply *r);

/* ddio-set of one socket to @mask, plus IOCA_A_DDIO_OWNER when @own. */
int iocx_ddio_set(struct tnl *t, uint32_t sock, uint32_t mask, bool own, struct tnl_reply *r);

/* One sample message: libioca's decode of it, and its part attributes. */
struct iocx_sample {
	struct ioca_sample s;
	uint32_t part, parts; /* without part attributes: 0 and 1 */
	bool has_part;	      /* IOCA_A_SAMPLE_PART was there */
};

/* tnl_parse_fn for sample messages (arg: struct iocx_sample). */
int iocx_parse_sample(struct nlmsghdr *nlh, void *arg);

/* sample-get; the reply must be one whole message. */
int iocx_sample_get(struct tnl *t, struct iocx_sample *s, struct tnl_reply *r);

/* The value of @so's counter with event index @index, 0 when it has none. */
uint64_t iocx_counter(const struct ioca_socket_sample *so, uint32_t index);

#endif
