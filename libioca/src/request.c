// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
#include "request.h"

#include <errno.h>
#include <string.h>
#include <netlink/attr.h>

static int check_ddio(const struct ioca_ddio_req *reqs, size_t n, const struct ioca_log *log)
{
	size_t i, j;

	if (!reqs || n < 1 || n > IOCA_MAX_SOCKETS) {
		pr_warn(log, "ddio set: %zu sockets given, expected 1..%d", n, IOCA_MAX_SOCKETS);
		return -EINVAL;
	}
	for (i = 0; i < n; i++) {
		if (!reqs[i].mask == !reqs[i].ways) {
			pr_warn(log, "ddio set: socket %u: give exactly one of mask and ways",
				reqs[i].socket);
			return -EINVAL;
		}
		for (j = 0; j < i; j++) {
			if (reqs[j].socket == reqs[i].socket) {
				pr_warn(log, "ddio set: socket %u listed twice", reqs[i].socket);
				return -EINVAL;
			}
		}
	}
	return 0;
}

int ioca_req_ddio(struct nl_msg *msg, const struct ioca_ddio_req *reqs, size_t n, bool owner,
		  const struct ioca_log *log)
{
	struct nlattr *nest;
	size_t i;
	int err;

	err = check_ddio(reqs, n, log);
	if (err)
		return err;
	for (i = 0; i < n; i++) {
		nest = nla_nest_start(msg, IOCA_A_DDIO_SOCKET | NLA_F_NESTED);
		if (!nest)
			return -EMSGSIZE;
		if (nla_put_u32(msg, IOCA_A_SOCKET_ID, reqs[i].socket))
			return -EMSGSIZE;
		if (reqs[i].mask && nla_put_u32(msg, IOCA_A_SOCKET_DDIO_MASK, reqs[i].mask))
			return -EMSGSIZE;
		if (reqs[i].ways && nla_put_u32(msg, IOCA_A_SOCKET_DDIO_WAYS, reqs[i].ways))
			return -EMSGSIZE;
		nla_nest_end(msg, nest);
	}
	if (owner && nla_put_flag(msg, IOCA_A_DDIO_OWNER))
		return -EMSGSIZE;
	return 0;
}

int ioca_req_ddio_device(struct nl_msg *msg, const char *addr, uint32_t mode, bool owner,
			 const struct ioca_log *log)
{
	if (!addr || !addr[0] || strlen(addr) >= IOCA_PCI_ADDR_LEN) {
		pr_warn(log, "ddio device set: a PCI address of 1 to %d characters is needed",
			IOCA_PCI_ADDR_LEN - 1);
		return -EINVAL;
	}
	if (mode < IOCA_DDIO_DEVICE_MODE_ON || mode > IOCA_DDIO_DEVICE_MODE_MAX) {
		pr_warn(log, "ddio device set: mode %u is none of on, off, full-off", mode);
		return -EINVAL;
	}
	if (nla_put_string(msg, IOCA_A_DEVICE_ADDR, addr) ||
	    nla_put_u32(msg, IOCA_A_DEVICE_MODE, mode) ||
	    (owner && nla_put_flag(msg, IOCA_A_DEVICE_OWNER)))
		return -EMSGSIZE;
	return 0;
}

static int put_event(struct nl_msg *msg, int attr, const struct ioca_event *ev)
{
	struct nlattr *nest = nla_nest_start(msg, attr | NLA_F_NESTED);

	if (!nest || nla_put_u32(msg, IOCA_A_EVENT_KIND, ev->kind))
		return -EMSGSIZE;
	if ((ev->type || ev->has_type) && nla_put_u32(msg, IOCA_A_EVENT_TYPE, ev->type))
		return -EMSGSIZE;
	if (ev->config && nla_put_u64(msg, IOCA_A_EVENT_CONFIG, ev->config))
		return -EMSGSIZE;
	if (ev->config1 && nla_put_u64(msg, IOCA_A_EVENT_CONFIG1, ev->config1))
		return -EMSGSIZE;
	nla_nest_end(msg, nest);
	return 0;
}

static int check_list(const void *list, size_t n, size_t max, const char *what,
		      const struct ioca_log *log)
{
	if (n > max) {
		pr_warn(log, "sampler set: %zu %s, at most %zu", n, what, max);
		return -E2BIG;
	}
	if (n && !list) {
		pr_warn(log, "sampler set: %zu %s but no list", n, what);
		return -EINVAL;
	}
	return 0;
}

int ioca_req_sampler(struct nl_msg *msg, const struct ioca_sampler_config *cfg, bool owner,
		     const struct ioca_log *log)
{
	int err;

	err = check_list(cfg->cpus, cfg->ncpus, IOCA_MAX_CPUS, "CPUs", log);
	if (!err)
		err = check_list(cfg->events, cfg->nevents, IOCA_MAX_CPU_EVENTS, "events", log);
	if (!err)
		err = check_list(cfg->uncore, cfg->nuncore, IOCA_MAX_UNCORE_EVENTS, "uncore events",
				 log);
	if (err)
		return err;
	return ioca_req_sampler_put(msg, cfg, owner);
}

int ioca_req_sampler_put(struct nl_msg *msg, const struct ioca_sampler_config *cfg, bool owner)
{
	size_t i;

	if (cfg->interval_us && nla_put_u32(msg, IOCA_A_SAMPLER_INTERVAL_US, cfg->interval_us))
		return -EMSGSIZE;
	for (i = 0; i < cfg->ncpus; i++)
		if (nla_put_u32(msg, IOCA_A_SAMPLER_CPU, cfg->cpus[i]))
			return -EMSGSIZE;
	for (i = 0; i < cfg->nevents; i++)
		if (put_event(msg, IOCA_A_SAMPLER_EVENT, &cfg->events[i]))
			return -EMSGSIZE;
	for (i = 0; i < cfg->nuncore; i++)
		if (put_event(msg, IOCA_A_SAMPLER_UNCORE_EVENT, &cfg->uncore[i]))
			return -EMSGSIZE;
	if (owner && nla_put_flag(msg, IOCA_A_SAMPLER_OWNER))
		return -EMSGSIZE;
	return 0;
}
