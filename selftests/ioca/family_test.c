// SPDX-License-Identifier: GPL-2.0
/*
 * Family resolution, the policy dump (CTRL_CMD_GETPOLICY) and info-get.
 * The policy dump is how a client discovers the ranges without reading
 * the source, so the ranges the ABI promises are asserted from it.
 */
#include <cpuid.h>
#include <unistd.h>
#include <linux/genetlink.h>
#include <netlink/genl/ctrl.h>
#include <netlink/genl/family.h>

#include "ioca_fixture.h"

#define MAX_POLICIES 16
#define MAX_ATTRS 16

struct attr_pol {
	bool present;
	uint32_t type, policy_idx;
	bool has_min, has_max;
	uint64_t min, max;
};

struct policy_dump {
	bool op_seen[IOCA_CMD_MAX + 1];
	uint32_t op_do[IOCA_CMD_MAX + 1];
	struct attr_pol pol[MAX_POLICIES][MAX_ATTRS];
};

static void parse_attr_pol(struct nlattr *nest, struct attr_pol *p)
{
	struct nlattr *a;
	int rem;

	p->present = true;
	nla_for_each_nested(a, nest, rem)
	{
		switch (nla_type(a)) {
		case NL_POLICY_TYPE_ATTR_TYPE:
			p->type = nla_get_u32(a);
			break;
		case NL_POLICY_TYPE_ATTR_MIN_VALUE_U:
			p->min = nla_get_u64(a);
			p->has_min = true;
			break;
		case NL_POLICY_TYPE_ATTR_MAX_VALUE_U:
			p->max = nla_get_u64(a);
			p->has_max = true;
			break;
		case NL_POLICY_TYPE_ATTR_POLICY_IDX:
			p->policy_idx = nla_get_u32(a);
			break;
		}
	}
}

static int parse_policy_msg(struct nlmsghdr *nlh, void *arg)
{
	struct policy_dump *d = arg;
	struct nlattr *a, *pi, *at, *op;
	int rem, r1, r2;

	nla_for_each_attr(a, genlmsg_attrdata(nlmsg_data(nlh), 0),
			  genlmsg_attrlen(nlmsg_data(nlh), 0), rem)
	{
		if (nla_type(a) == CTRL_ATTR_POLICY) {
			nla_for_each_nested(pi, a, r1)
			{
				nla_for_each_nested(at, pi, r2)
				{
					if (nla_type(pi) < MAX_POLICIES && nla_type(at) < MAX_ATTRS)
						parse_attr_pol(at,
							       &d->pol[nla_type(pi)][nla_type(at)]);
				}
			}
		} else if (nla_type(a) == CTRL_ATTR_OP_POLICY) {
			nla_for_each_nested(op, a, r1)
			{
				struct nlattr *p;

				if (nla_type(op) > IOCA_CMD_MAX)
					continue;
				nla_for_each_nested(p, op, r2)
				{
					if (nla_type(p) == CTRL_ATTR_POLICY_DO) {
						d->op_seen[nla_type(op)] = true;
						d->op_do[nla_type(op)] = nla_get_u32(p);
					}
				}
			}
		}
	}
	return 0;
}

static int dump_policy(struct tnl *ctl, struct policy_dump *d, struct tnl_reply *r)
{
	struct nl_msg *msg = nlmsg_alloc();

	if (!msg)
		return -ENOMEM;
	if (!genlmsg_put(msg, NL_AUTO_PORT, NL_AUTO_SEQ, GENL_ID_CTRL, 0, NLM_F_DUMP,
			 CTRL_CMD_GETPOLICY, 1) ||
	    nla_put_string(msg, CTRL_ATTR_FAMILY_NAME, IOCA_FAMILY_NAME)) {
		nlmsg_free(msg);
		return -EMSGSIZE;
	}
	memset(d, 0, sizeof(*d));
	r->parse = parse_policy_msg;
	r->arg = d;
	return tnl_do(ctl, msg, r);
}

FIXTURE(ioca_policy)
{
	struct tnl ctl;
	struct tnl_reply r;
	struct policy_dump d;
};

FIXTURE_SETUP(ioca_policy)
{
	ASSERT_EQ(0, tnl_open(&self->ctl, NULL));
	ASSERT_EQ(0, dump_policy(&self->ctl, &self->d, &self->r))
	TH_LOG("CTRL_CMD_GETPOLICY ioca: %s", self->r.msg);
	ASSERT_LT(0, self->r.nmsgs);
}

FIXTURE_TEARDOWN(ioca_policy)
{
	tnl_close(&self->ctl);
}

TEST_F(ioca_nl, family_resolves_with_version_and_samples_group)
{
	struct nl_cache *cache = NULL;
	struct genl_family *fam;

	ASSERT_LT(0, self->nl.family);
	ASSERT_EQ(0, genl_ctrl_alloc_cache(self->nl.sk, &cache));
	fam = genl_ctrl_search_by_name(cache, IOCA_FAMILY_NAME);
	ASSERT_NE(NULL, fam);
	EXPECT_EQ(self->nl.family, genl_family_get_id(fam));
	EXPECT_EQ(IOCA_FAMILY_VERSION, (int)genl_family_get_version(fam));
	genl_family_put(fam);
	nl_cache_free(cache);
	EXPECT_LT(0, genl_ctrl_resolve_grp(self->nl.sk, IOCA_FAMILY_NAME, IOCA_MCGRP_SAMPLES));
}

TEST_F(ioca_policy, every_control_op_has_a_do_policy)
{
	static const int ops[] = {IOCA_CMD_DDIO_SET, IOCA_CMD_SAMPLER_SET};
	size_t i;

	for (i = 0; i < sizeof(ops) / sizeof(ops[0]); i++) {
		ASSERT_TRUE(self->d.op_seen[ops[i]]) TH_LOG("op %d has no do policy", ops[i]);
		ASSERT_GT(MAX_POLICIES, self->d.op_do[ops[i]]);
	}
}

TEST_F(ioca_policy, sampler_interval_range_is_1ms_to_60s)
{
	const struct attr_pol *p;

	ASSERT_TRUE(self->d.op_seen[IOCA_CMD_SAMPLER_SET]);
	p = &self->d.pol[self->d.op_do[IOCA_CMD_SAMPLER_SET]][IOCA_A_SAMPLER_INTERVAL_US];
	ASSERT_TRUE(p->present);
	EXPECT_EQ(NL_ATTR_TYPE_U32, p->type);
	ASSERT_TRUE(p->has_min && p->has_max);
	EXPECT_EQ(IOCA_SAMPLER_INTERVAL_MIN_US, p->min);
	EXPECT_EQ(IOCA_SAMPLER_INTERVAL_MAX_US, p->max);
}

TEST_F(ioca_policy, sampler_event_kind_range_is_the_event_kind_enum)
{
	const struct attr_pol *ev, *kind;

	ev = &self->d.pol[self->d.op_do[IOCA_CMD_SAMPLER_SET]][IOCA_A_SAMPLER_EVENT];
	ASSERT_TRUE(ev->present);
	EXPECT_EQ(NL_ATTR_TYPE_NESTED, ev->type);
	ASSERT_GT(MAX_POLICIES, ev->policy_idx);
	kind = &self->d.pol[ev->policy_idx][IOCA_A_EVENT_KIND];
	ASSERT_TRUE(kind->present);
	EXPECT_EQ(1, kind->min);
	EXPECT_EQ(IOCA_EVENT_KIND_MAX, kind->max);
}

TEST_F(ioca_policy, ddio_socket_policy_bounds_the_way_count)
{
	const struct attr_pol *sock, *p;

	ASSERT_TRUE(self->d.op_seen[IOCA_CMD_DDIO_SET]);
	sock = &self->d.pol[self->d.op_do[IOCA_CMD_DDIO_SET]][IOCA_A_DDIO_SOCKET];
	ASSERT_TRUE(sock->present);
	EXPECT_EQ(NL_ATTR_TYPE_NESTED, sock->type);
	ASSERT_GT(MAX_POLICIES, sock->policy_idx);
	p = &self->d.pol[sock->policy_idx][IOCA_A_SOCKET_ID];
	ASSERT_TRUE(p->present);
	EXPECT_EQ(NL_ATTR_TYPE_U32, p->type);
	p = &self->d.pol[sock->policy_idx][IOCA_A_SOCKET_DDIO_MASK];
	ASSERT_TRUE(p->present);
	EXPECT_EQ(NL_ATTR_TYPE_U32, p->type);
	p = &self->d.pol[sock->policy_idx][IOCA_A_SOCKET_DDIO_WAYS];
	ASSERT_TRUE(p->present);
	ASSERT_TRUE(p->has_max);
	EXPECT_EQ(IOCA_LLC_MAX_WAYS, p->max);
	/* Attributes only the module reports are not accepted in a request. */
	EXPECT_FALSE(self->d.pol[sock->policy_idx][IOCA_A_SOCKET_DDIO_BOOT_MASK].present);
	p = &self->d.pol[self->d.op_do[IOCA_CMD_DDIO_SET]][IOCA_A_DDIO_RESTORE];
	ASSERT_TRUE(p->present);
	EXPECT_EQ(NL_ATTR_TYPE_FLAG, p->type);
}

static uint32_t popcount32(uint32_t v)
{
	return (uint32_t)__builtin_popcount(v);
}

TEST_F(ioca_nl, info_describes_sockets_consistently)
{
	const struct ioca_info *in = &self->before;
	uint32_t cpus = 0;
	uint32_t i;

	ASSERT_EQ(1, ioca_info_has(&self->nl, IOCA_A_INFO_BACKEND, &self->r));
	ASSERT_EQ(1, ioca_info_has(&self->nl, IOCA_A_INFO_MIN_WAYS, &self->r));
	EXPECT_EQ(IOCA_DDIO_MIN_WAYS_DEFAULT, in->min_ways);
	for (i = 0; i < in->nsockets; i++) {
		const struct ioca_socket_info *s = &in->sockets[i];
		uint32_t all;

		EXPECT_EQ((uint32_t)i, s->id);
		ASSERT_LE(in->min_ways, s->llc_ways);
		ASSERT_GE(IOCA_LLC_MAX_WAYS, s->llc_ways);
		all = s->llc_ways == 32 ? 0xffffffffu : (1u << s->llc_ways) - 1;
		EXPECT_EQ(all, s->valid_mask);
		EXPECT_TRUE(libioca_mask_contiguous(s->boot_mask))
		TH_LOG("boot mask 0x%x", s->boot_mask);
		EXPECT_EQ(0, s->boot_mask & ~s->valid_mask);
		EXPECT_TRUE(libioca_mask_contiguous(s->ddio_mask));
		EXPECT_EQ(0, s->ddio_mask & ~s->valid_mask);
		EXPECT_EQ(popcount32(s->ddio_mask), s->ddio_ways);
		EXPECT_LE(in->min_ways, s->ddio_ways);
		cpus += s->cpu_count;
	}
	EXPECT_EQ((uint32_t)sysconf(_SC_NPROCESSORS_ONLN), cpus);
	ASSERT_TRUE(in->has_sampler);
	EXPECT_GE(IOCA_SAMPLER_STATE_RUNNING, in->sampler.state);
}

TEST_F(ioca_nl, info_names_the_backend_it_runs)
{
	const char *want = getenv("IOCA_EXPECT_BACKEND");
	const struct ioca_info *in = &self->before;

	ASSERT_TRUE(in->backend == IOCA_BACKEND_MSR || in->backend == IOCA_BACKEND_EMULATED);
	EXPECT_STREQ(in->backend == IOCA_BACKEND_MSR ? "msr" : "emulated", in->backend_name);
	if (want && *want)
		EXPECT_STREQ(want, in->backend_name);
	/* Under the msr backend the module must know its model is supported. */
	if (in->backend == IOCA_BACKEND_MSR) {
		EXPECT_EQ(6, in->cpu_family);
	}
}

TEST_F(ioca_nl, info_reports_this_cpu_model)
{
	unsigned int a, b, c, d, family, model;

	ASSERT_TRUE(__get_cpuid(1, &a, &b, &c, &d));
	family = (a >> 8) & 0xf;
	model = (a >> 4) & 0xf;
	if (family == 0xf)
		family += (a >> 20) & 0xff;
	if (family == 6 || family == 0xf)
		model |= ((a >> 16) & 0xf) << 4;
	ASSERT_EQ(1, ioca_info_has(&self->nl, IOCA_A_INFO_CPU_MODEL, &self->r));
	EXPECT_EQ(family, self->before.cpu_family);
	EXPECT_EQ(model, self->before.cpu_model);
}

TEST_HARNESS_MAIN
