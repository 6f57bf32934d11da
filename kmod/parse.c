// SPDX-License-Identifier: GPL-2.0
/*
 * Request parsing. sampler-set: the CPU list and the event lists arrive as
 * repeated attributes, which the genetlink core validates one by one but
 * only hands over as the last of each type, so walk the whole payload.
 * ddio-set: the same for the repeated socket nests, each resolved against
 * the DDIO geometry.
 */
#include <linux/bitmap.h>
#include <linux/cpumask.h>
#include <linux/perf_event.h>
#include <linux/slab.h>
#include <net/netlink.h>
#include "compat.h"
#include "ddio.h"
#include "emul_counters.h"
#include "extack.h"
#include "ioca_nl_gen.h"
#include "parse.h"

/*
 * Per-CPU raw events go to the core PMU only: hardware, hw-cache or raw.
 * Software, tracepoint, breakpoint and the dynamic PMUs (kprobes, uprobes,
 * ...) are not counters this module has any business opening system-wide.
 */
static bool ioca_core_pmu_type(u32 type)
{
	return type == PERF_TYPE_HARDWARE || type == PERF_TYPE_HW_CACHE ||
	       type == PERF_TYPE_RAW;
}

static int ioca_parse_kind_only(struct nlattr **tb, const struct nlattr *nest,
				bool uncore, u32 kind,
				struct netlink_ext_ack *extack)
{
	if (uncore && !ioca_emul_kind(kind)) {
		NL_SET_ERR_MSG_ATTR(extack, tb[IOCA_A_EVENT_KIND],
				    "uncore events must be raw (or emulated DDIO)");
		return -EINVAL;
	}
	if (!uncore && ioca_emul_kind(kind)) {
		NL_SET_ERR_MSG_ATTR(extack, tb[IOCA_A_EVENT_KIND],
				    "emulated DDIO events are uncore events only");
		return -EINVAL;
	}
	if (tb[IOCA_A_EVENT_TYPE] || tb[IOCA_A_EVENT_CONFIG] ||
	    tb[IOCA_A_EVENT_CONFIG1]) {
		NL_SET_ERR_MSG_ATTR(extack, nest,
				    "type and config apply to raw events only");
		return -EINVAL;
	}
	return 0;
}

/**
 * ioca_parse_event() - parse and check one event nest
 * @nest: IOCA_A_SAMPLER_EVENT or IOCA_A_SAMPLER_UNCORE_EVENT
 * @uncore: the event is per socket (must be raw with a PMU type)
 * @ev: result
 * @extack: error report, pointing at the offending attribute
 *
 * Return: 0 or -EINVAL.
 */
int ioca_parse_event(const struct nlattr *nest, bool uncore,
		     struct ioca_event_spec *ev, struct netlink_ext_ack *extack)
{
	struct nlattr *tb[IOCA_A_EVENT_CONFIG1 + 1];
	int err;

	err = nla_parse_nested(tb, IOCA_A_EVENT_CONFIG1, nest,
			       ioca_event_nl_policy, extack);
	if (err)
		return err;
	if (NL_REQ_ATTR_CHECK(extack, nest, tb, IOCA_A_EVENT_KIND)) {
		NL_SET_ERR_MSG_ATTR(extack, nest, "event kind missing");
		return -EINVAL;
	}
	memset(ev, 0, sizeof(*ev));
	ev->kind = nla_get_u32(tb[IOCA_A_EVENT_KIND]);
	if (ev->kind != IOCA_EVENT_KIND_RAW)
		return ioca_parse_kind_only(tb, nest, uncore, ev->kind, extack);
	if (!tb[IOCA_A_EVENT_CONFIG]) {
		NL_SET_ERR_MSG_ATTR(extack, nest, "raw event needs config");
		return -EINVAL;
	}
	if (uncore && !tb[IOCA_A_EVENT_TYPE]) {
		NL_SET_ERR_MSG_ATTR(extack, nest,
				    "uncore event needs a PMU type");
		return -EINVAL;
	}
	ev->type = tb[IOCA_A_EVENT_TYPE] ?
		   nla_get_u32(tb[IOCA_A_EVENT_TYPE]) : PERF_TYPE_RAW;
	if (!uncore && !ioca_core_pmu_type(ev->type)) {
		NL_SET_ERR_MSG_ATTR(extack, tb[IOCA_A_EVENT_TYPE],
				    "PMU type not allowed: hardware, hw-cache or raw only");
		return -EINVAL;
	}
	/* The uncore PMUs register dynamic types; the name is checked later. */
	if (uncore && ev->type < PERF_TYPE_MAX) {
		NL_SET_ERR_MSG_ATTR(extack, tb[IOCA_A_EVENT_TYPE],
				    "uncore event type must be an uncore PMU's");
		return -EINVAL;
	}
	ev->config = nla_get_u64(tb[IOCA_A_EVENT_CONFIG]);
	if (tb[IOCA_A_EVENT_CONFIG1])
		ev->config1 = nla_get_u64(tb[IOCA_A_EVENT_CONFIG1]);
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(ioca_parse_event);

static int ioca_parse_cpu(const struct nlattr *nla, unsigned long *seen,
			  unsigned int *n, struct netlink_ext_ack *extack)
{
	u32 cpu = nla_get_u32(nla);

	if (cpu >= nr_cpu_ids || !cpu_possible(cpu)) {
		NL_SET_ERR_MSG_ATTR(extack, nla, "CPU is not a possible CPU");
		return -EINVAL;
	}
	if (test_and_set_bit(cpu, seen)) {
		NL_SET_ERR_MSG_ATTR(extack, nla, "CPU listed twice");
		return -EINVAL;
	}
	if (++*n > IOCA_MAX_CPUS) {
		NL_SET_ERR_MSG_ATTR(extack, nla, "more than IOCA_MAX_CPUS CPUs");
		return -EINVAL;
	}
	return 0;
}

static int ioca_parse_events(const struct nlattr *nla, bool uncore,
			     struct ioca_sampler_config *cfg,
			     struct netlink_ext_ack *extack)
{
	unsigned int *n = uncore ? &cfg->nr_uncore : &cfg->nr_events;
	unsigned int max = uncore ? IOCA_MAX_UNCORE_EVENTS :
				    IOCA_MAX_CPU_EVENTS;
	struct ioca_event_spec *ev;
	int err;

	if (*n >= max && uncore) {
		NL_SET_ERR_MSG_ATTR(extack, nla,
				    "more than IOCA_MAX_UNCORE_EVENTS events");
		return -EINVAL;
	}
	if (*n >= max) {
		NL_SET_ERR_MSG_ATTR(extack, nla,
				    "more than IOCA_MAX_CPU_EVENTS events");
		return -EINVAL;
	}
	ev = uncore ? &cfg->uncore[*n] : &cfg->events[*n];
	err = ioca_parse_event(nla, uncore, ev, extack);
	if (!err)
		(*n)++;
	return err;
}

/* No CPU listed: every possible CPU, if they fit. */
static int ioca_parse_all_cpus(unsigned long *seen, unsigned int *n,
			       struct netlink_ext_ack *extack)
{
	if (num_possible_cpus() > IOCA_MAX_CPUS) {
		NL_SET_ERR_MSG(extack,
			       "more possible CPUs than IOCA_MAX_CPUS: list the CPUs");
		return -EINVAL;
	}
	bitmap_copy(seen, cpumask_bits(cpu_possible_mask), nr_cpu_ids);
	*n = num_possible_cpus();
	return 0;
}

/**
 * ioca_parse_sampler_config() - parse a sampler-set payload
 * @head: first attribute
 * @len: payload length
 * @cfg: result (fully overwritten)
 * @extack: error report, pointing at the offending attribute
 *
 * Return: 0, -EINVAL for a bad request, -ENOMEM.
 */
int ioca_parse_sampler_config(const struct nlattr *head, int len,
			      struct ioca_sampler_config *cfg,
			      struct netlink_ext_ack *extack)
{
	const struct nlattr *nla;
	unsigned long *seen;
	unsigned int n = 0, cpu;
	int rem, err;

	err = nla_validate(head, len, IOCA_A_SAMPLER_OWNER,
			   ioca_sampler_set_nl_policy, extack);
	if (err)
		return err;
	seen = bitmap_zalloc(nr_cpu_ids, GFP_KERNEL);
	if (!seen)
		return -ENOMEM;
	memset(cfg, 0, sizeof(*cfg));
	cfg->interval_us = IOCA_SAMPLER_INTERVAL_DEFAULT_US;
	nla_for_each_attr(nla, head, len, rem) {
		switch (nla_type(nla)) {
		case IOCA_A_SAMPLER_INTERVAL_US:
			cfg->interval_us = nla_get_u32(nla);
			break;
		case IOCA_A_SAMPLER_CPU:
			err = ioca_parse_cpu(nla, seen, &n, extack);
			break;
		case IOCA_A_SAMPLER_EVENT:
		case IOCA_A_SAMPLER_UNCORE_EVENT:
			err = ioca_parse_events(nla, nla_type(nla) ==
						IOCA_A_SAMPLER_UNCORE_EVENT,
						cfg, extack);
			break;
		}
		if (err)
			goto out_free;
	}
	if (!cfg->nr_events && !cfg->nr_uncore) {
		NL_SET_ERR_MSG(extack, "no event configured");
		err = -EINVAL;
		goto out_free;
	}
	if (!n) {
		err = ioca_parse_all_cpus(seen, &n, extack);
		if (err)
			goto out_free;
	}
	for_each_set_bit(cpu, seen, nr_cpu_ids)
		cfg->cpus[cfg->nr_cpus++] = cpu;
out_free:
	bitmap_free(seen);
	return err;
}
EXPORT_SYMBOL_IF_KUNIT(ioca_parse_sampler_config);

/* One IOCA_A_DDIO_SOCKET nest into a resolved request. */
static int ioca_ddio_parse_socket(const struct ioca_ddio *d,
				  const struct nlattr *nest,
				  struct ioca_ddio_req *req,
				  struct netlink_ext_ack *extack)
{
	struct nlattr *tb[IOCA_A_SOCKET_DDIO_WAYS + 1];
	const struct nlattr *what;
	const char *why = NULL;
	int err;

	err = nla_parse_nested(tb, IOCA_A_SOCKET_DDIO_WAYS, nest,
			       ioca_ddio_socket_nl_policy, extack);
	if (err)
		return err;
	if (NL_REQ_ATTR_CHECK(extack, nest, tb, IOCA_A_SOCKET_ID)) {
		NL_SET_ERR_MSG_ATTR(extack, nest, "socket id missing");
		return -EINVAL;
	}
	if (!tb[IOCA_A_SOCKET_DDIO_MASK] == !tb[IOCA_A_SOCKET_DDIO_WAYS]) {
		NL_SET_ERR_MSG_ATTR(extack, nest,
				    "give exactly one of ddio-mask and ddio-ways");
		return -EINVAL;
	}
	req->socket = nla_get_u32(tb[IOCA_A_SOCKET_ID]);
	what = tb[IOCA_A_SOCKET_DDIO_MASK];
	if (what) {
		req->mask = nla_get_u32(what);
		req->ways = 0;
	} else {
		what = tb[IOCA_A_SOCKET_DDIO_WAYS];
		req->mask = 0;
		req->ways = nla_get_u32(what);
		/* 0 ways would mean "use the mask": refuse it here. */
		if (!req->ways) {
			NL_SET_ERR_MSG_ATTR(extack, what, "DDIO mask is empty");
			return -EINVAL;
		}
	}
	err = ioca_ddio_resolve(d, req, &why);
	if (err)
		ioca_nl_set_err(extack, err == -ENODEV ?
				tb[IOCA_A_SOCKET_ID] : what, why);
	return err;
}

/**
 * ioca_ddio_parse() - the sockets of a ddio-set request, each resolved
 * @d: DDIO state (geometry, for the validation)
 * @head: the request's attributes
 * @len: their length
 * @reqs: filled, IOCA_MAX_SOCKETS entries
 * @n: set to the number of sockets
 * @extack: each refusal's message, at the attribute
 *
 * Return: 0 or -errno (-EINVAL, -ENODEV, -ERANGE from the policy).
 */
int ioca_ddio_parse(const struct ioca_ddio *d, const struct nlattr *head,
		    int len, struct ioca_ddio_req *reqs, unsigned int *n,
		    struct netlink_ext_ack *extack)
{
	const struct nlattr *nla;
	unsigned long seen = 0;
	int rem, err;

	*n = 0;
	nla_for_each_attr(nla, head, len, rem) {
		if (nla_type(nla) != IOCA_A_DDIO_SOCKET)
			continue;
		if (*n >= IOCA_MAX_SOCKETS) {
			NL_SET_ERR_MSG_ATTR(extack, nla,
					    "more sockets than IOCA_MAX_SOCKETS");
			return -EINVAL;
		}
		err = ioca_ddio_parse_socket(d, nla, &reqs[*n], extack);
		if (err)
			return err;
		if (__test_and_set_bit(reqs[*n].socket, &seen)) {
			NL_SET_ERR_MSG_ATTR(extack, nla, "socket listed twice");
			return -EINVAL;
		}
		(*n)++;
	}
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(ioca_ddio_parse);
