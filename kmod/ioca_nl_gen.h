/* SPDX-License-Identifier: GPL-2.0 */
/* Tables for the ioca family, written to follow uapi/ioca.yaml. */

#ifndef _IOCA_NL_GEN_H
#define _IOCA_NL_GEN_H

#include <net/netlink.h>
#include <net/genetlink.h>
#include <linux/ioca.h>

extern const struct nla_policy ioca_ddio_socket_nl_policy[IOCA_A_SOCKET_DDIO_WAYS + 1];
extern const struct nla_policy ioca_event_nl_policy[IOCA_A_EVENT_CONFIG1 + 1];
extern const struct nla_policy ioca_ddio_set_nl_policy[IOCA_A_DDIO_OWNER + 1];
extern const struct nla_policy ioca_sampler_set_nl_policy[IOCA_A_SAMPLER_OWNER + 1];
extern const struct nla_policy ioca_ddio_device_set_nl_policy[IOCA_A_DEVICE_OWNER + 1];

int ioca_nl_info_get_doit(struct sk_buff *skb, struct genl_info *info);
int ioca_nl_ddio_set_doit(struct sk_buff *skb, struct genl_info *info);
int ioca_nl_sampler_set_doit(struct sk_buff *skb, struct genl_info *info);
int ioca_nl_sampler_start_doit(struct sk_buff *skb, struct genl_info *info);
int ioca_nl_sampler_stop_doit(struct sk_buff *skb, struct genl_info *info);
int ioca_nl_sample_get_doit(struct sk_buff *skb, struct genl_info *info);
int ioca_nl_samples_subscribe_doit(struct sk_buff *skb, struct genl_info *info);
int ioca_nl_samples_unsubscribe_doit(struct sk_buff *skb,
				     struct genl_info *info);
int ioca_nl_ddio_device_set_doit(struct sk_buff *skb, struct genl_info *info);

enum {
	IOCA_NLGRP_SAMPLES,
};

extern struct genl_family ioca_nl_family;

#endif /* _IOCA_NL_GEN_H */
