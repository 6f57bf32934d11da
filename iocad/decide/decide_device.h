/* SPDX-License-Identifier: GPL-2.0 */
/*
 * `ddio = auto` for a storage device: A4's rule (ISCA 2025,
 * "Microarchitecture-aware LLC management"), pure. A storage device's
 * DMA only pollutes the LLC when its writes stream in faster than the
 * LLC can keep them, miss, evict other agents' lines from DDIO's ways,
 * and no core reads the data back from the LLC before it is evicted:
 * then DDIO is turned off for it (its writes go to DRAM, which they
 * reach anyway). It is turned back on when the traffic stops, or when a
 * core does read the data and DDIO's ways have room. FSM.md, "Storage
 * DDIO (auto)", has the counters, thresholds and why.
 *
 * Every threshold holds for `confirm` intervals in a row before a switch,
 * and no switch comes within `dwell` intervals of the last one.
 */
#ifndef IOCAD_DECIDE_DEVICE_H
#define IOCAD_DECIDE_DEVICE_H

#include <stdbool.h>

/* What one interval measured, as rates per second. */
struct decide_device_in {
	bool measured;	    /* the device's write bytes were read (else: no decision) */
	double write_bytes; /* the device's inbound DMA writes (its IIO stack) */
	/* the socket's DDIO write hits and misses (CHA), every device's allocating writes */
	bool ddio_measured;
	double ddio_hits, ddio_misses;
	/* the owning tenant's cores (0 without a `tenant`): LLC references and misses */
	double owner_refs, owner_misses;
};

struct decide_device_params {
	double on_bytes;      /* off needs at least this write rate (B/s) */
	double quiet_bytes;   /* back on below this write rate (B/s) */
	double miss_high;     /* off needs the socket's DDIO miss ratio at least this */
	double miss_low;      /* back on for re-read data needs the ratio below this */
	double reread_high;   /* owner's LLC hits (on) or misses (off) per written line */
	unsigned int confirm; /* intervals a condition holds before a switch */
	unsigned int dwell;   /* intervals after a switch before the next */
};

enum decide_device_reason {
	DEV_HOLD,	  /* nothing to do */
	DEV_UNMEASURED,	  /* no write counter this interval: the streak restarts */
	DEV_DWELL,	  /* a condition holds, but the last switch is too recent */
	DEV_CONFIRMING,	  /* a condition holds, not yet `confirm` intervals */
	DEV_OFF_POLLUTES, /* switched off: it streams, misses and is not re-read */
	DEV_ON_QUIET,	  /* switched on: its traffic stopped */
	DEV_ON_REREAD,	  /* switched on: a core reads its data and DDIO has room */
};

struct decide_device_state {
	bool off;	     /* DDIO is off for the device (as last decided) */
	unsigned int streak; /* intervals the switch condition has held */
	unsigned int since;  /* intervals since the last switch (or the start) */
};

/* A4's defaults (FSM.md): 200 MB/s on, 20 MB/s quiet, 0.2/0.05 miss ratio, 0.5, 3, 10. */
void decide_device_defaults(struct decide_device_params *p);

/*
 * One interval of @st with @in. Returns the reason; @st->off changes
 * only with DEV_OFF_POLLUTES or DEV_ON_*.
 */
enum decide_device_reason decide_device(const struct decide_device_params *p,
					struct decide_device_state *st,
					const struct decide_device_in *in);

/* "pollutes", "quiet", ...: for log lines. */
const char *decide_device_reason_name(enum decide_device_reason r);

#endif /* IOCAD_DECIDE_DEVICE_H */
