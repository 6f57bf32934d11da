// SPDX-License-Identifier: GPL-2.0
#include "decide/decide_device.h"

#define LINE_BYTES 64.0

void decide_device_defaults(struct decide_device_params *p)
{
	p->on_bytes = 200e6;
	p->quiet_bytes = 20e6;
	p->miss_high = 0.2;
	p->miss_low = 0.05;
	p->reread_high = 0.5;
	p->confirm = 3;
	p->dwell = 10;
	p->rule = DECIDE_RULE_IOCA;
	/* A4's scripts (scripts/configs/parameters.sh, smartLLC.sh) */
	p->a4_pcie_miss = 0.4;
	p->a4_share = 0.35;
	p->a4_llc_miss = 0.4;
	p->a4_drop = 0.3;
}

static double miss_ratio(const struct decide_device_in *in)
{
	double all = in->ddio_hits + in->ddio_misses;

	return all > 0 ? in->ddio_misses / all : 0.0;
}

/*
 * With DDIO on: the device streams (at least on_bytes), the socket's DDIO
 * writes miss (at least miss_high of them) and the owner's cores hit in
 * the LLC less than reread_high times per written line (no core reads
 * the data back from the LLC).
 */
static bool pollutes(const struct decide_device_params *p, const struct decide_device_in *in)
{
	double lines = in->write_bytes / LINE_BYTES;
	double owner_hits = in->owner_refs - in->owner_misses;

	if (in->write_bytes < p->on_bytes || !in->ddio_measured)
		return false;
	if (miss_ratio(in) < p->miss_high)
		return false;
	return owner_hits < p->reread_high * lines;
}

/*
 * With DDIO off: the traffic stopped (below quiet_bytes), or the owner
 * reads the data from DRAM (its misses at least reread_high per written
 * line) while DDIO's own writes hit (miss ratio below miss_low).
 */
static enum decide_device_reason back_on(const struct decide_device_params *p,
					 const struct decide_device_in *in)
{
	double lines = in->write_bytes / LINE_BYTES;

	if (in->write_bytes < p->quiet_bytes)
		return DEV_ON_QUIET;
	if (in->ddio_measured && miss_ratio(in) < p->miss_low &&
	    in->owner_misses >= p->reread_high * lines)
		return DEV_ON_REREAD;
	return DEV_HOLD;
}

/*
 * A4, with DDIO on: PCIe writes miss (above a4_pcie_miss), the device's
 * share of the network's inbound bytes is above a4_share and the
 * application (the socket's performance-sensitive tenants) misses in the
 * LLC (above a4_llc_miss).
 */
static bool a4_off(const struct decide_device_params *p, const struct decide_device_in *in)
{
	if (!in->ddio_measured || !in->net_measured || in->net_bytes <= 0 || in->app_refs <= 0)
		return false;
	return miss_ratio(in) > p->a4_pcie_miss && in->write_bytes > p->a4_share * in->net_bytes &&
	       in->app_misses / in->app_refs > p->a4_llc_miss;
}

static enum decide_device_reason want_of(const struct decide_device_params *p,
					 const struct decide_device_state *st,
					 const struct decide_device_in *in)
{
	if (p->rule != DECIDE_RULE_A4)
		return !st->off ? (pollutes(p, in) ? DEV_OFF_POLLUTES : DEV_HOLD) : back_on(p, in);
	if (!st->off)
		return a4_off(p, in) ? DEV_OFF_A4 : DEV_HOLD;
	return in->write_bytes < (1 - p->a4_drop) * st->stable ? DEV_ON_A4_DROP : DEV_HOLD;
}

enum decide_device_reason decide_device(const struct decide_device_params *p,
					struct decide_device_state *st,
					const struct decide_device_in *in)
{
	enum decide_device_reason want;

	if (st->since < ~0u)
		st->since++;
	if (!in->measured) {
		st->streak = 0;
		return DEV_UNMEASURED;
	}
	want = want_of(p, st, in);
	if (want == DEV_HOLD) {
		st->streak = 0;
		return DEV_HOLD;
	}
	st->streak++;
	if (st->streak < p->confirm)
		return DEV_CONFIRMING;
	if (st->since < p->dwell)
		return DEV_DWELL;
	st->off = want == DEV_OFF_POLLUTES || want == DEV_OFF_A4;
	if (st->off)
		st->stable = in->write_bytes;
	st->streak = 0;
	st->since = 0;
	return want;
}

bool decide_device_switched(enum decide_device_reason r)
{
	return r == DEV_OFF_POLLUTES || r == DEV_ON_QUIET || r == DEV_ON_REREAD ||
	       r == DEV_OFF_A4 || r == DEV_ON_A4_DROP;
}

const char *decide_device_reason_name(enum decide_device_reason r)
{
	switch (r) {
	case DEV_HOLD:
		return "hold";
	case DEV_UNMEASURED:
		return "unmeasured";
	case DEV_DWELL:
		return "dwell";
	case DEV_CONFIRMING:
		return "confirming";
	case DEV_OFF_POLLUTES:
		return "pollutes";
	case DEV_ON_QUIET:
		return "quiet";
	case DEV_ON_REREAD:
		return "re-read";
	case DEV_OFF_A4:
		return "a4-off";
	case DEV_ON_A4_DROP:
		return "a4-drop";
	}
	return "?";
}
