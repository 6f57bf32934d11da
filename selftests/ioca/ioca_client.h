/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Typed requests and reply parsers for the ioca family on top of nl.h, so
 * tests read as "set the mask, expect EINVAL and this message" instead of
 * attribute plumbing. Replies are decoded by libioca's decoders into
 * libioca's public structs (struct ioca_info, struct ioca_sample), so the
 * tests and the product read the ABI one way; requests are put as given
 * (tests send ill-formed ones on purpose, which libioca's builders refuse);
 * nl.h stays the transport, so a test owns its socket and sees every errno
 * and extack. The limits of struct ioca_sampler_cfg are the test's, not the
 * ABI's: the guest has at most a few CPUs and one socket.
 */
#ifndef IOCA_SELFTEST_IOCA_CLIENT_H
#define IOCA_SELFTEST_IOCA_CLIENT_H

#include <stdbool.h>
#include <stdint.h>
#include <libioca.h>
#include <linux/ioca.h>
#include "nl.h"

#define T_MAX_CPUS 64
#define T_MAX_SOCKETS IOCA_MAX_SOCKETS
#define T_MAX_EVENTS IOCA_MAX_CPU_EVENTS
#define T_MAX_UNCORE 16

/* A sampler-set request as given, also past the ABI's limits. */
struct ioca_sampler_cfg {
	uint32_t interval_us; /* 0 = leave the attribute out */
	int ncpus;
	uint32_t cpus[T_MAX_CPUS];
	int nevents;
	struct ioca_event ev[T_MAX_EVENTS + 2]; /* room to exceed the limit */
	int nuncore;
	struct ioca_event unc[T_MAX_UNCORE];
};

int ioca_info_get(struct tnl *t, struct ioca_info *info, struct tnl_reply *r);
/* 1 if the INFO reply carries top-level attribute @attr, 0 if not, or -errno. */
int ioca_info_has(struct tnl *t, int attr, struct tnl_reply *r);
/* Socket entry with exactly the attributes asked for (-1 = leave out). */
int ioca_ddio_set(struct tnl *t, int64_t sock, int64_t mask, int64_t ways, struct tnl_reply *r);
int ioca_ddio_restore(struct tnl *t, struct tnl_reply *r);
int ioca_sampler_set(struct tnl *t, const struct ioca_sampler_cfg *cfg, struct tnl_reply *r);
/*
 * The attributes of a sampler-set request, for callers whose limits differ
 * from struct ioca_sampler_cfg's (iocactl takes the ABI's maxima).
 * 0, or -EMSGSIZE when @msg is too small.
 */
int ioca_put_sampler(struct nl_msg *msg, uint32_t interval_us, const uint32_t *cpus, int ncpus,
		     const struct ioca_event *ev, int nevents, const struct ioca_event *unc,
		     int nuncore);
/* IOCA_CMD_SAMPLER_START / _STOP and any other attribute-less command. */
int ioca_simple_cmd(struct tnl *t, uint8_t cmd, struct tnl_reply *r);
/* @s is about 100 KiB (struct ioca_sample): allocate it, e.g. with calloc. */
int ioca_sample_get(struct tnl *t, struct ioca_sample *s, struct tnl_reply *r);

/*
 * tnl_parse_fn for IOCA_CMD_SAMPLE_NTF / sample-get replies (arg: struct
 * ioca_sample): what one message, whole or one part, holds.
 */
int ioca_parse_sample(struct nlmsghdr *nlh, void *arg);

#endif
