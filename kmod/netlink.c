// SPDX-License-Identifier: GPL-2.0
/*
 * Handlers of the ioca generic netlink family. The policies have already
 * checked types and ranges; these check what depends on the machine and
 * report each refusal through extack at the attribute that caused it.
 *
 * Privilege: the op table asks CAP_NET_ADMIN (GENL_ADMIN_PERM) of every
 * control op. The handlers add what the in-kernel APIs they use skip: an MSR
 * write needs CAP_SYS_RAWIO (as /dev/cpu/N/msr does), a system-wide counter
 * CAP_PERFMON or CAP_SYS_ADMIN (perfmon_capable(), as perf_event_open()
 * does). Both are checked for the sender and for the socket's opener
 * (netlink_capable()), in the initial user namespace: the family is not
 * namespace-aware.
 */
#include <linux/bitops.h>
#include <linux/capability.h>
#include <linux/cpumask.h>
#include <linux/slab.h>
#include <linux/topology.h>
#include <asm/processor.h>
#include "compat.h"
#include "collect.h"
#include "ddio_msr.h"
#include "main.h"
#include "netlink.h"
#include "owner.h"
#include "sampler_events.h"
#include "sampler_info.h"
#include "topo.h"

static unsigned int ioca_socket_cpus(unsigned int socket)
{
	unsigned int cpu, n = 0;

	for_each_online_cpu(cpu)
		if (topology_logical_package_id(cpu) == socket)
			n++;
	return n;
}

static bool ioca_nl_rawio(const struct sk_buff *skb, struct genl_info *info)
{
	if (netlink_capable(skb, CAP_SYS_RAWIO))
		return true;
	GENL_SET_ERR_MSG(info, "DDIO changes write MSRs: CAP_SYS_RAWIO needed");
	return false;
}

static bool ioca_nl_perfmon(const struct sk_buff *skb, struct genl_info *info)
{
	if (netlink_capable(skb, CAP_PERFMON) ||
	    netlink_capable(skb, CAP_SYS_ADMIN))
		return true;
	GENL_SET_ERR_MSG(info,
			 "system-wide counters: CAP_PERFMON or CAP_SYS_ADMIN needed");
	return false;
}

static int ioca_put_socket_info(struct sk_buff *msg, struct ioca_ddio *d,
				unsigned int id)
{
	const struct ioca_ddio_socket *sk = &d->sock[id];
	struct nlattr *nest = nla_nest_start(msg, IOCA_A_INFO_SOCKET);
	struct ioca_ddio_status st;

	ioca_ddio_status(d, id, &st);
	if (!nest ||
	    nla_put_u32(msg, IOCA_A_SOCKET_ID, id) ||
	    nla_put_u32(msg, IOCA_A_SOCKET_LLC_WAYS, sk->llc_ways) ||
	    nla_put_u32(msg, IOCA_A_SOCKET_DDIO_MASK, sk->mask) ||
	    nla_put_u32(msg, IOCA_A_SOCKET_DDIO_WAYS, hweight32(sk->mask)) ||
	    nla_put_u32(msg, IOCA_A_SOCKET_DDIO_BOOT_MASK, sk->boot_mask) ||
	    nla_put_u32(msg, IOCA_A_SOCKET_DDIO_VALID_MASK, sk->valid_mask) ||
	    nla_put_u32(msg, IOCA_A_SOCKET_CPU_COUNT, ioca_socket_cpus(id)) ||
	    nla_put_u32(msg, IOCA_A_SOCKET_OWNER_PID, sk->owner_pid) ||
	    nla_put_u32(msg, IOCA_A_SOCKET_DDIO_FIELD, st.field) ||
	    nla_put_u8(msg, IOCA_A_SOCKET_DDIO_AVAILABLE, st.available) ||
	    nla_put_u8(msg, IOCA_A_SOCKET_DDIO_WRITABLE, st.writable) ||
	    nla_put_u8(msg, IOCA_A_SOCKET_DDIO_VERIFIED, st.verified) ||
	    nla_put_u32(msg, IOCA_A_SOCKET_DDIO_EPOCH, sk->epoch))
		return -EMSGSIZE;
	nla_nest_end(msg, nest);
	return 0;
}

static int ioca_put_ddio_info(struct sk_buff *msg, struct ioca_ddio *d)
{
	bool msr = d->ops->id == IOCA_BACKEND_MSR;
	unsigned int i;
	int err = -EMSGSIZE;

	if (nla_put_u32(msg, IOCA_A_INFO_BACKEND, d->ops->id) ||
	    nla_put_string(msg, IOCA_A_INFO_BACKEND_NAME, d->ops->name) ||
	    nla_put_u8(msg, IOCA_A_INFO_DDIO_VERIFIED, d->verified) ||
	    nla_put_u8(msg, IOCA_A_INFO_LOCKED_DOWN,
		       msr && ioca_ddio_msr_locked_down()) ||
	    nla_put_u32(msg, IOCA_A_INFO_MIN_WAYS, d->min_ways))
		return -EMSGSIZE;
	mutex_lock(&d->lock);
	for (i = 0; i < d->nr_sockets; i++)
		if (ioca_put_socket_info(msg, d, i))
			goto out_unlock;
	err = 0;
out_unlock:
	mutex_unlock(&d->lock);
	return err;
}

static int ioca_put_info(struct sk_buff *msg)
{
	struct ioca_sampler *s = &ioca_ctx.sampler;

	if (nla_put_u32(msg, IOCA_A_INFO_CPU_FAMILY, boot_cpu_data.x86) ||
	    nla_put_u32(msg, IOCA_A_INFO_CPU_MODEL, boot_cpu_data.x86_model) ||
	    nla_put_string(msg, IOCA_A_INFO_CPU_MODEL_NAME,
			   boot_cpu_data.x86_model_id) ||
	    nla_put_u8(msg, IOCA_A_INFO_HW_COUNTERS, s->hw_counters) ||
	    nla_put_u32(msg, IOCA_A_INFO_FALLBACK_KIND, IOCA_FALLBACK_KIND))
		return -EMSGSIZE;
	if (ioca_put_ddio_info(msg, &ioca_ctx.ddio) ||
	    ioca_ddio_dev_fill_info(&ioca_ctx.ports, msg))
		return -EMSGSIZE;
	return ioca_sampler_fill_info(s, msg);
}

int ioca_nl_info_get_doit(struct sk_buff *skb, struct genl_info *info)
{
	struct sk_buff *msg;
	void *hdr;

	msg = genlmsg_new(IOCA_INFO_MSG_SIZE + IOCA_SAMPLER_INFO_SIZE +
			  IOCA_DEV_INFO_SIZE, GFP_KERNEL);
	if (!msg)
		return -ENOMEM;
	hdr = genlmsg_put_reply(msg, info, &ioca_nl_family, 0,
				IOCA_CMD_INFO_GET);
	if (!hdr || ioca_put_info(msg)) {
		nlmsg_free(msg);
		return -EMSGSIZE;
	}
	genlmsg_end(msg, hdr);
	return genlmsg_reply(msg, info);
}

/*
 * The set's reply: each written socket's mask and the epoch its write
 * produced, so the writer can tell samples collected before it. The masks
 * are written already; a reply that cannot be built is the set's -errno,
 * though, so the writer knows it lacks the epochs.
 */
static int ioca_nl_ddio_reply(struct genl_info *info,
			      const struct ioca_ddio_req *reqs, unsigned int n)
{
	struct sk_buff *msg;
	struct nlattr *nest;
	unsigned int i;
	void *hdr;

	msg = genlmsg_new(IOCA_MAX_SOCKETS * 32, GFP_KERNEL);
	if (!msg)
		return -ENOMEM;
	hdr = genlmsg_put_reply(msg, info, &ioca_nl_family, 0,
				IOCA_CMD_DDIO_SET);
	if (!hdr)
		goto err_free;
	for (i = 0; i < n; i++) {
		nest = nla_nest_start(msg, IOCA_A_DDIO_WRITTEN);
		if (!nest ||
		    nla_put_u32(msg, IOCA_A_SOCKET_ID, reqs[i].socket) ||
		    nla_put_u32(msg, IOCA_A_SOCKET_DDIO_MASK, reqs[i].mask) ||
		    nla_put_u32(msg, IOCA_A_SOCKET_DDIO_EPOCH, reqs[i].epoch))
			goto err_free;
		nla_nest_end(msg, nest);
	}
	genlmsg_end(msg, hdr);
	return genlmsg_reply(msg, info);

err_free:
	nlmsg_free(msg);
	GENL_SET_ERR_MSG(info, "DDIO masks written; their reply did not fit");
	return -EMSGSIZE;
}

int ioca_nl_ddio_set_doit(struct sk_buff *skb, struct genl_info *info)
{
	struct ioca_ddio_req reqs[IOCA_MAX_SOCKETS];
	struct ioca_ddio_owner o = {
		.portid = info->snd_portid,
		.pid = task_tgid_nr(current),
		.own = !!info->attrs[IOCA_A_DDIO_OWNER],
	};
	const char *why = NULL;
	unsigned int n = 0;
	int err;

	if (!ioca_nl_rawio(skb, info))
		return -EPERM;
	err = ioca_ddio_parse(&ioca_ctx.ddio,
			      nlmsg_attrdata(info->nlhdr, GENL_HDRLEN),
			      nlmsg_attrlen(info->nlhdr, GENL_HDRLEN),
			      reqs, &n, info->extack);
	if (err)
		return err;
	if (info->attrs[IOCA_A_DDIO_RESTORE]) {
		if (n) {
			NL_SET_ERR_MSG_ATTR(info->extack,
					    info->attrs[IOCA_A_DDIO_RESTORE],
					    "restore cannot be combined with socket");
			return -EINVAL;
		}
		err = ioca_ddio_restore(&ioca_ctx.ddio, NULL);
		if (err)
			GENL_SET_ERR_MSG(info, "restoring a boot DDIO mask failed");
		return err;
	}
	if (!n) {
		GENL_SET_ERR_MSG(info, "no socket given");
		return -EINVAL;
	}
	err = ioca_ddio_apply(&ioca_ctx.ddio, reqs, n, &o, &why);
	if (err) {
		ioca_nl_set_err(info->extack, NULL, why);
		return err;
	}
	return ioca_nl_ddio_reply(info, reqs, n);
}

int ioca_nl_ddio_device_set_doit(struct sk_buff *skb, struct genl_info *info)
{
	struct ioca_ddio_dev_owner o = {
		.portid = info->snd_portid,
		.pid = task_tgid_nr(current),
		.own = !!info->attrs[IOCA_A_DEVICE_OWNER],
	};
	struct nlattr *addr = info->attrs[IOCA_A_DEVICE_ADDR];
	const char *why = NULL;
	int err;

	if (!ioca_nl_rawio(skb, info))
		return -EPERM;
	if (!addr || !info->attrs[IOCA_A_DEVICE_MODE]) {
		GENL_SET_ERR_MSG(info, "a device address and a mode are needed");
		return -EINVAL;
	}
	err = ioca_ddio_dev_set(&ioca_ctx.ports, nla_data(addr),
				nla_get_u32(info->attrs[IOCA_A_DEVICE_MODE]),
				&o, &why);
	if (err)
		ioca_nl_set_err(info->extack, addr, why);
	return err;
}

/* Emulated DDIO counters exist only with the emulated backend. */
static int ioca_check_emul(const struct ioca_sampler_config *cfg,
			   struct genl_info *info)
{
	unsigned int i;

	for (i = 0; i < cfg->nr_uncore; i++) {
		if (!ioca_emul_kind(cfg->uncore[i].kind) || ioca_ctx.sampler.emul)
			continue;
		GENL_SET_ERR_MSG(info,
				 "emulated DDIO events need emulate=1; use the CHA PMU's events");
		return -EINVAL;
	}
	return 0;
}

int ioca_nl_sampler_set_doit(struct sk_buff *skb, struct genl_info *info)
{
	struct ioca_sampler *s = &ioca_ctx.sampler;
	struct ioca_sampler_config *cfg;
	int err;

	if (!ioca_nl_perfmon(skb, info))
		return -EPERM;
	cfg = kzalloc(sizeof(*cfg), GFP_KERNEL);
	if (!cfg)
		return -ENOMEM;
	err = ioca_parse_sampler_config(nlmsg_attrdata(info->nlhdr, GENL_HDRLEN),
					nlmsg_attrlen(info->nlhdr, GENL_HDRLEN),
					cfg, info->extack);
	if (!err)
		err = ioca_check_emul(cfg, info);
	if (err) {
		kfree(cfg);
		return err;
	}
	mutex_lock(&ioca_ctx.owner_lock);
	err = ioca_owner_check_sampler(s, info->snd_portid, info->extack);
	if (!err)
		err = ioca_sampler_configure(s, cfg, info->extack);
	if (!err)
		ioca_owner_set_sampler(s, info->snd_portid,
				       !!info->attrs[IOCA_A_SAMPLER_OWNER]);
	mutex_unlock(&ioca_ctx.owner_lock);
	if (err)
		kfree(cfg);
	return err;
}

static int ioca_nl_sampler_ctl(struct sk_buff *skb, struct genl_info *info,
			       int (*op)(struct ioca_sampler *s,
					 struct netlink_ext_ack *extack))
{
	struct ioca_sampler *s = &ioca_ctx.sampler;
	int err;

	if (!ioca_nl_perfmon(skb, info))
		return -EPERM;
	mutex_lock(&ioca_ctx.owner_lock);
	err = ioca_owner_check_sampler(s, info->snd_portid, info->extack);
	if (!err)
		err = op(s, info->extack);
	mutex_unlock(&ioca_ctx.owner_lock);
	return err;
}

int ioca_nl_sampler_start_doit(struct sk_buff *skb, struct genl_info *info)
{
	return ioca_nl_sampler_ctl(skb, info, ioca_sampler_start);
}

int ioca_nl_sampler_stop_doit(struct sk_buff *skb, struct genl_info *info)
{
	return ioca_nl_sampler_ctl(skb, info, ioca_sampler_stop);
}

int ioca_nl_sample_get_doit(struct sk_buff *skb, struct genl_info *info)
{
	if (!ioca_nl_perfmon(skb, info))
		return -EPERM;
	return ioca_collect_on_demand(&ioca_ctx.sampler, info);
}

int ioca_nl_samples_subscribe_doit(struct sk_buff *skb, struct genl_info *info)
{
	u32 pid = task_tgid_nr(current);
	const char *why = NULL;
	int err;

	if (!ioca_nl_perfmon(skb, info))
		return -EPERM;
	err = ioca_collect_subscribe(&ioca_ctx.sampler, info->snd_portid, pid,
				     ioca_owner_is_process(pid), &why);
	if (err)
		ioca_nl_set_err(info->extack, NULL, why);
	return err;
}

int ioca_nl_samples_unsubscribe_doit(struct sk_buff *skb,
				     struct genl_info *info)
{
	if (ioca_collect_unsubscribe(&ioca_ctx.sampler, info->snd_portid))
		return 0;
	GENL_SET_ERR_MSG(info, "this socket is not subscribed");
	return -ENOENT;
}

/**
 * ioca_nl_register() - register the family
 *
 * Return: 0 or -errno.
 */
int ioca_nl_register(void)
{
	return genl_register_family(&ioca_nl_family);
}

/**
 * ioca_nl_unregister() - unregister the family; waits for running ops
 */
void ioca_nl_unregister(void)
{
	genl_unregister_family(&ioca_nl_family);
}
