// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
#include "decode_sample.h"

#include <errno.h>
#include <inttypes.h>
#include <netlink/genl/genl.h>
#include "attrs.h"

static const struct nla_policy sample_pol[IOCA_A_SAMPLE_MAX + 1] = {
	[IOCA_A_SAMPLE_SEQ] = IOCA_POL_U64,	    [IOCA_A_SAMPLE_TIME_NS] = IOCA_POL_U64,
	[IOCA_A_SAMPLE_REALTIME_NS] = IOCA_POL_U64, [IOCA_A_SAMPLE_COLLECT_NS] = IOCA_POL_U64,
	[IOCA_A_SAMPLE_INTERVAL_US] = IOCA_POL_U32, [IOCA_A_SAMPLE_ON_DEMAND] = IOCA_POL_FLAG,
	[IOCA_A_SAMPLE_CPU] = IOCA_POL_NESTED,	    [IOCA_A_SAMPLE_SOCKET] = IOCA_POL_NESTED,
	[IOCA_A_SAMPLE_PART] = IOCA_POL_U32,	    [IOCA_A_SAMPLE_PARTS] = IOCA_POL_U32,
	[IOCA_A_SAMPLE_EPOCH] = IOCA_POL_U32,
};

static const struct nla_policy cpu_pol[IOCA_A_CPU_MAX + 1] = {
	[IOCA_A_CPU_ID] = IOCA_POL_U32,		[IOCA_A_CPU_SOCKET] = IOCA_POL_U32,
	[IOCA_A_CPU_ONLINE] = IOCA_POL_U8,	[IOCA_A_CPU_COUNTER] = IOCA_POL_NESTED,
	[IOCA_A_CPU_GENERATION] = IOCA_POL_U32,
};

static const struct nla_policy sock_pol[IOCA_A_SOCKET_MAX + 1] = {
	[IOCA_A_SOCKET_ID] = IOCA_POL_U32,
	[IOCA_A_SOCKET_DDIO_MASK] = IOCA_POL_U32,
	[IOCA_A_SOCKET_COUNTER] = IOCA_POL_NESTED,
	[IOCA_A_SOCKET_DDIO_EPOCH] = IOCA_POL_U32,
};

static const struct nla_policy counter_pol[IOCA_A_COUNTER_MAX + 1] = {
	[IOCA_A_COUNTER_INDEX] = IOCA_POL_U32,
	[IOCA_A_COUNTER_VALUE] = IOCA_POL_U64,
	[IOCA_A_COUNTER_ENABLED_NS] = IOCA_POL_U64,
	[IOCA_A_COUNTER_RUNNING_NS] = IOCA_POL_U64,
};

static int attrs_of(const struct nlmsghdr *nlh, struct nlattr **head, int *len,
		    const struct ioca_log *log)
{
	struct genlmsghdr *g;

	if (nlh->nlmsg_len < NLMSG_HDRLEN + GENL_HDRLEN) {
		pr_warn(log, "sample: %u bytes, shorter than its headers", nlh->nlmsg_len);
		return -EBADMSG;
	}
	g = nlmsg_data(nlh);
	if (g->cmd != IOCA_CMD_SAMPLE_NTF && g->cmd != IOCA_CMD_SAMPLE_GET) {
		pr_warn(log, "sample: command %u is not a sample", g->cmd);
		return -EBADMSG;
	}
	*head = genlmsg_attrdata(g, 0);
	*len = genlmsg_attrlen(g, 0);
	return 0;
}

int ioca_decode_sample_head(const struct nlmsghdr *nlh, struct ioca_sample_head *h,
			    const struct ioca_log *log)
{
	struct nlattr **tb = h->tb;
	int err;

	err = attrs_of(nlh, &h->attrs, &h->len, log);
	if (!err)
		err = ioca_attrs_parse(tb, IOCA_A_SAMPLE_MAX, h->attrs, h->len, sample_pol, log,
				       "sample");
	if (err)
		return err;
	if (!tb[IOCA_A_SAMPLE_SEQ]) {
		pr_warn(log, "sample without IOCA_A_SAMPLE_SEQ");
		return -EBADMSG;
	}
	h->seq = ioca_u64(tb[IOCA_A_SAMPLE_SEQ]);
	h->on_demand = tb[IOCA_A_SAMPLE_ON_DEMAND] != NULL;
	if (!tb[IOCA_A_SAMPLE_PART] != !tb[IOCA_A_SAMPLE_PARTS]) {
		pr_warn(log, "sample %" PRIu64 ": IOCA_A_SAMPLE_PART and _PARTS come together",
			h->seq);
		return -EBADMSG;
	}
	h->part = tb[IOCA_A_SAMPLE_PART] ? ioca_u32(tb[IOCA_A_SAMPLE_PART]) : 0;
	h->parts = tb[IOCA_A_SAMPLE_PARTS] ? ioca_u32(tb[IOCA_A_SAMPLE_PARTS]) : 1;
	if (h->parts < 1 || h->parts > IOCA_MAX_SAMPLE_PARTS || h->part >= h->parts) {
		pr_warn(log, "sample %" PRIu64 ": part %u of %u is out of range (1..%u parts)",
			h->seq, h->part, h->parts, IOCA_MAX_SAMPLE_PARTS);
		return -EBADMSG;
	}
	return 0;
}

/*
 * The nest decoders below walk each nest once, switching on the type and
 * checking each attribute against its constant policy entry, rather than
 * filling a table with ioca_nest_parse() and walking again for the
 * repeated COUNTER nests: the same rules (a policy breach, trailing bytes
 * or a missing required attribute refuse the message; types outside the
 * policy are skipped; the last of a repeated attribute wins) at about a
 * third of the instructions per CPU (callgrind, bench/decode_bench.c).
 */
#define CHECK(a, pol, t, what)                                       \
	do {                                                         \
		int err_ = ioca_attr_check(a, &(pol)[t], log, what); \
		if (err_)                                            \
			return err_;                                 \
	} while (0)

static int decode_counter(const struct nlattr *nest, struct ioca_counter *c,
			  const struct ioca_log *log)
{
	static const char what[] = "sample: counter";
	bool index = false, value = false;
	struct nlattr *a;
	int rem, t;

	c->enabled_ns = c->running_ns = 0;
	ioca_for_each_nested(a, nest, rem)
	{
		t = ioca_nla_type(a);
		switch (t) {
		case IOCA_A_COUNTER_INDEX:
			CHECK(a, counter_pol, IOCA_A_COUNTER_INDEX, what);
			c->index = ioca_u32(a);
			index = true;
			break;
		case IOCA_A_COUNTER_VALUE:
			CHECK(a, counter_pol, IOCA_A_COUNTER_VALUE, what);
			c->value = ioca_u64(a);
			value = true;
			break;
		case IOCA_A_COUNTER_ENABLED_NS:
			CHECK(a, counter_pol, IOCA_A_COUNTER_ENABLED_NS, what);
			c->enabled_ns = ioca_u64(a);
			break;
		case IOCA_A_COUNTER_RUNNING_NS:
			CHECK(a, counter_pol, IOCA_A_COUNTER_RUNNING_NS, what);
			c->running_ns = ioca_u64(a);
			break;
		default: /* not in the policy: skipped, as nla_parse() does */
			break;
		}
	}
	if (ioca_attrs_end(rem, log, what))
		return -EBADMSG;
	if (!index || !value) {
		pr_warn(log, "sample: counter without IOCA_A_COUNTER_INDEX or _VALUE");
		return -EBADMSG;
	}
	return 0;
}

/*
 * The layout the module writes on x86-64 (no pad attributes there): INDEX,
 * VALUE, ENABLED_NS, RUNNING_NS, each with its exact length. A nest with
 * exactly these four headers at these offsets passes every check
 * decode_counter() makes, so only the headers are compared; anything else
 * (another order, a pad, an extra attribute, a bad length) takes
 * decode_counter()'s walk, which refuses what the policy refuses.
 */
#define FAST_LEN (3 * (NLA_HDRLEN + 8) + NLA_HDRLEN + 4)

static inline bool fast_hdr(const char *p, int type, int bytes)
{
	struct nlattr h;

	memcpy(&h, p, sizeof(h));
	return h.nla_len == NLA_HDRLEN + bytes && h.nla_type == type;
}

static inline bool counter_fast(const struct nlattr *nest, struct ioca_counter *c)
{
	const char *p = ioca_nla_data(nest);

	if (ioca_nla_len(nest) != FAST_LEN || !fast_hdr(p, IOCA_A_COUNTER_INDEX, 4) ||
	    !fast_hdr(p + 8, IOCA_A_COUNTER_VALUE, 8) ||
	    !fast_hdr(p + 20, IOCA_A_COUNTER_ENABLED_NS, 8) ||
	    !fast_hdr(p + 32, IOCA_A_COUNTER_RUNNING_NS, 8))
		return false;
	memcpy(&c->index, p + 4, 4);
	memcpy(&c->value, p + 12, 8);
	memcpy(&c->enabled_ns, p + 24, 8);
	memcpy(&c->running_ns, p + 36, 8);
	return true;
}

/* One more COUNTER nest @a into @c[*n], at most @max. */
static int add_counter(const struct nlattr *a, struct ioca_counter *c, uint32_t *n, uint32_t max,
		       const struct ioca_log *log)
{
	if (*n >= max) {
		pr_warn(log, "sample: more than %u counters in a nest", max);
		return -EBADMSG;
	}
	if (counter_fast(a, &c[*n])) {
		(*n)++;
		return 0;
	}
	return decode_counter(a, &c[(*n)++], log);
}

/* A CPU or socket nest ends with nothing left over and its ID seen. */
static int nest_end(int rem, bool id, const char *what, const char *id_attr,
		    const struct ioca_log *log)
{
	if (ioca_attrs_end(rem, log, what))
		return -EBADMSG;
	if (!id) {
		pr_warn(log, "%s without %s", what, id_attr);
		return -EBADMSG;
	}
	return 0;
}

static int decode_cpu(const struct nlattr *nest, struct ioca_cpu_sample *cs,
		      const struct ioca_log *log)
{
	static const char what[] = "sample: CPU nest";
	struct nlattr *a;
	bool id = false;
	int rem, err;

	cs->socket = 0;
	cs->online = false;
	cs->generation = 0;
	cs->ncounters = 0;
	ioca_for_each_nested(a, nest, rem)
	{
		switch (ioca_nla_type(a)) {
		case IOCA_A_CPU_ID:
			CHECK(a, cpu_pol, IOCA_A_CPU_ID, what);
			cs->id = ioca_u32(a);
			id = true;
			break;
		case IOCA_A_CPU_SOCKET:
			CHECK(a, cpu_pol, IOCA_A_CPU_SOCKET, what);
			cs->socket = ioca_u32(a);
			break;
		case IOCA_A_CPU_ONLINE:
			CHECK(a, cpu_pol, IOCA_A_CPU_ONLINE, what);
			cs->online = ioca_u8(a) != 0;
			break;
		case IOCA_A_CPU_GENERATION:
			CHECK(a, cpu_pol, IOCA_A_CPU_GENERATION, what);
			cs->generation = ioca_u32(a);
			break;
		case IOCA_A_CPU_COUNTER:
			err = add_counter(a, cs->counters, &cs->ncounters, IOCA_MAX_CPU_EVENTS,
					  log);
			if (err)
				return err;
			break;
		default:
			break;
		}
	}
	return nest_end(rem, id, what, "IOCA_A_CPU_ID", log);
}

static int decode_socket(const struct nlattr *nest, struct ioca_socket_sample *ss,
			 const struct ioca_log *log)
{
	static const char what[] = "sample: socket nest";
	struct nlattr *a;
	bool id = false;
	int rem, err;

	ss->ncounters = 0;
	ss->ddio_mask = 0;
	ss->ddio_epoch = 0;
	ioca_for_each_nested(a, nest, rem)
	{
		switch (ioca_nla_type(a)) {
		case IOCA_A_SOCKET_ID:
			CHECK(a, sock_pol, IOCA_A_SOCKET_ID, what);
			ss->id = ioca_u32(a);
			id = true;
			break;
		case IOCA_A_SOCKET_DDIO_MASK:
			CHECK(a, sock_pol, IOCA_A_SOCKET_DDIO_MASK, what);
			ss->ddio_mask = ioca_u32(a);
			break;
		case IOCA_A_SOCKET_DDIO_EPOCH:
			CHECK(a, sock_pol, IOCA_A_SOCKET_DDIO_EPOCH, what);
			ss->ddio_epoch = ioca_u32(a);
			break;
		case IOCA_A_SOCKET_COUNTER:
			err = add_counter(a, ss->counters, &ss->ncounters, IOCA_MAX_UNCORE_EVENTS,
					  log);
			if (err)
				return err;
			break;
		default:
			break;
		}
	}
	return nest_end(rem, id, what, "IOCA_A_SOCKET_ID", log);
}

static void decode_times(struct nlattr **tb, struct ioca_sample *s)
{
	s->seq = ioca_u64(tb[IOCA_A_SAMPLE_SEQ]);
	if (tb[IOCA_A_SAMPLE_TIME_NS])
		s->time_ns = ioca_u64(tb[IOCA_A_SAMPLE_TIME_NS]);
	if (tb[IOCA_A_SAMPLE_REALTIME_NS])
		s->realtime_ns = ioca_u64(tb[IOCA_A_SAMPLE_REALTIME_NS]);
	if (tb[IOCA_A_SAMPLE_COLLECT_NS])
		s->collect_ns = ioca_u64(tb[IOCA_A_SAMPLE_COLLECT_NS]);
	if (tb[IOCA_A_SAMPLE_INTERVAL_US])
		s->interval_us = ioca_u32(tb[IOCA_A_SAMPLE_INTERVAL_US]);
	s->on_demand = tb[IOCA_A_SAMPLE_ON_DEMAND] != NULL;
	if (tb[IOCA_A_SAMPLE_EPOCH])
		s->epoch = ioca_u32(tb[IOCA_A_SAMPLE_EPOCH]);
}

int ioca_decode_sample_body(const struct ioca_sample_head *h, struct ioca_sample *s,
			    const struct ioca_log *log)
{
	struct nlattr *a;
	int rem, err = 0;

	decode_times((struct nlattr **)h->tb, s);
	ioca_for_each_attr(a, h->attrs, h->len, rem)
	{
		if (ioca_nla_type(a) == IOCA_A_SAMPLE_CPU) {
			if (s->ncpus >= IOCA_MAX_CPUS) {
				pr_warn(log, "sample: more than IOCA_MAX_CPUS CPU nests");
				return -EBADMSG;
			}
			err = decode_cpu(a, &s->cpus[s->ncpus++], log);
		} else if (ioca_nla_type(a) == IOCA_A_SAMPLE_SOCKET) {
			if (s->nsockets >= IOCA_MAX_SOCKETS) {
				pr_warn(log, "sample: more than IOCA_MAX_SOCKETS socket nests");
				return -EBADMSG;
			}
			err = decode_socket(a, &s->sockets[s->nsockets++], log);
		}
		if (err)
			return err;
	}
	return 0;
}
