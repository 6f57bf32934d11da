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
	if (!st->off)
		want = pollutes(p, in) ? DEV_OFF_POLLUTES : DEV_HOLD;
	else
		want = back_on(p, in);
	if (want == DEV_HOLD) {
		st->streak = 0;
		return DEV_HOLD;
	}
	st->streak++;
	if (st->streak < p->confirm)
		return DEV_CONFIRMING;
	if (st->since < p->dwell)
		return DEV_DWELL;
	st->off = want == DEV_OFF_POLLUTES;
	st->streak = 0;
	st->since = 0;
	return want;
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
	}
	return "?";
}
