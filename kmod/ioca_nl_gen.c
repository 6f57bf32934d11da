// SPDX-License-Identifier: GPL-2.0
/*
 * Policies, ops, groups and the family of ioca, kept apart from the handlers
 * in the layout the YAML code generator uses, following uapi/ioca.yaml.
 * 6.1 has no split ops: one struct genl_ops per command with its own policy.
 */
#include <net/netlink.h>
#include <net/genetlink.h>
#include <linux/ioca.h>
#include "compat.h"
#include "ioca_nl_gen.h"

/* A socket in a ddio-set request: the read-only fields are refused. */
const struct nla_policy ioca_ddio_socket_nl_policy[IOCA_A_SOCKET_DDIO_WAYS + 1] = {
	[IOCA_A_SOCKET_ID] = { .type = NLA_U32, },
	[IOCA_A_SOCKET_DDIO_MASK] = { .type = NLA_U32, },
	[IOCA_A_SOCKET_DDIO_WAYS] = NLA_POLICY_MAX(NLA_U32, IOCA_LLC_MAX_WAYS),
};

const struct nla_policy ioca_event_nl_policy[IOCA_A_EVENT_CONFIG1 + 1] = {
	[IOCA_A_EVENT_KIND] = NLA_POLICY_RANGE(NLA_U32, 1, IOCA_EVENT_KIND_MAX),
	[IOCA_A_EVENT_TYPE] = { .type = NLA_U32, },
	[IOCA_A_EVENT_CONFIG] = { .type = NLA_U64, },
	[IOCA_A_EVENT_CONFIG1] = { .type = NLA_U64, },
};

/* IOCA_CMD_DDIO_SET - do */
const struct nla_policy ioca_ddio_set_nl_policy[IOCA_A_DDIO_OWNER + 1] = {
	[IOCA_A_DDIO_SOCKET] = NLA_POLICY_NESTED(ioca_ddio_socket_nl_policy),
	[IOCA_A_DDIO_RESTORE] = { .type = NLA_FLAG, },
	[IOCA_A_DDIO_OWNER] = { .type = NLA_FLAG, },
};

/* Beyond the s16 inline range of 6.1's nla_policy (not const there). */
static struct netlink_range_validation ioca_interval_range = {
	.min = IOCA_SAMPLER_INTERVAL_MIN_US,
	.max = IOCA_SAMPLER_INTERVAL_MAX_US,
};

/* IOCA_CMD_SAMPLER_SET - do */
const struct nla_policy ioca_sampler_set_nl_policy[IOCA_A_SAMPLER_OWNER + 1] = {
	[IOCA_A_SAMPLER_INTERVAL_US] =
		NLA_POLICY_FULL_RANGE(NLA_U32, &ioca_interval_range),
	[IOCA_A_SAMPLER_CPU] = { .type = NLA_U32, },
	[IOCA_A_SAMPLER_EVENT] = NLA_POLICY_NESTED(ioca_event_nl_policy),
	[IOCA_A_SAMPLER_UNCORE_EVENT] = NLA_POLICY_NESTED(ioca_event_nl_policy),
	[IOCA_A_SAMPLER_OWNER] = { .type = NLA_FLAG, },
};

/* IOCA_CMD_DDIO_DEVICE_SET - do */
const struct nla_policy ioca_ddio_device_set_nl_policy[IOCA_A_DEVICE_OWNER + 1] = {
	[IOCA_A_DEVICE_ADDR] = { .type = NLA_NUL_STRING, .len = IOCA_PCI_ADDR_LEN - 1, },
	[IOCA_A_DEVICE_MODE] = NLA_POLICY_RANGE(NLA_U32, 1, IOCA_DDIO_DEVICE_MODE_MAX),
	[IOCA_A_DEVICE_OWNER] = { .type = NLA_FLAG, },
};

/* Ops without a policy take no attributes (resv_start_op is 0). */
static const struct genl_ops ioca_nl_ops[] = {
	{
		.cmd		= IOCA_CMD_INFO_GET,
		.doit		= ioca_nl_info_get_doit,
	},
	{
		.cmd		= IOCA_CMD_DDIO_SET,
		.doit		= ioca_nl_ddio_set_doit,
		.policy		= ioca_ddio_set_nl_policy,
		.maxattr	= IOCA_A_DDIO_OWNER,
		.flags		= GENL_ADMIN_PERM,
	},
	{
		.cmd		= IOCA_CMD_SAMPLER_SET,
		.doit		= ioca_nl_sampler_set_doit,
		.policy		= ioca_sampler_set_nl_policy,
		.maxattr	= IOCA_A_SAMPLER_OWNER,
		.flags		= GENL_ADMIN_PERM,
	},
	{
		.cmd		= IOCA_CMD_SAMPLER_START,
		.doit		= ioca_nl_sampler_start_doit,
		.flags		= GENL_ADMIN_PERM,
	},
	{
		.cmd		= IOCA_CMD_SAMPLER_STOP,
		.doit		= ioca_nl_sampler_stop_doit,
		.flags		= GENL_ADMIN_PERM,
	},
	{
		.cmd		= IOCA_CMD_SAMPLE_GET,
		.doit		= ioca_nl_sample_get_doit,
		.flags		= GENL_ADMIN_PERM,
	},
	/* CAP_PERFMON is checked by the handler: no GENL_ADMIN_PERM. */
	{
		.cmd		= IOCA_CMD_SAMPLES_SUBSCRIBE,
		.doit		= ioca_nl_samples_subscribe_doit,
	},
	{
		.cmd		= IOCA_CMD_SAMPLES_UNSUBSCRIBE,
		.doit		= ioca_nl_samples_unsubscribe_doit,
	},
	{
		.cmd		= IOCA_CMD_DDIO_DEVICE_SET,
		.doit		= ioca_nl_ddio_device_set_doit,
		.policy		= ioca_ddio_device_set_nl_policy,
		.maxattr	= IOCA_A_DEVICE_OWNER,
		.flags		= GENL_ADMIN_PERM,
	},
};

static const struct genl_multicast_group ioca_nl_mcgrps[] = {
	[IOCA_NLGRP_SAMPLES] = {
		.name = IOCA_MCGRP_SAMPLES,
		.flags = IOCA_MCGRP_FLAGS,
	},
};

struct genl_family ioca_nl_family __ro_after_init = {
	.name		= IOCA_FAMILY_NAME,
	.version	= IOCA_FAMILY_VERSION,
	.netnsok	= false,
	.parallel_ops	= true,
	.module		= THIS_MODULE,
	.ops		= ioca_nl_ops,
	.n_ops		= ARRAY_SIZE(ioca_nl_ops),
	.mcgrps		= ioca_nl_mcgrps,
	.n_mcgrps	= ARRAY_SIZE(ioca_nl_mcgrps),
};
