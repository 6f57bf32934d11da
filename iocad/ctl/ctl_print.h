/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Readable output of libioca's decoded structs: info, one sample, and the
 * per-interval lines of monitor (deltas against the previous sample).
 * Printers never walk attributes: libioca decoded the reply once.
 */
#ifndef IOCACTL_CTL_PRINT_H
#define IOCACTL_CTL_PRINT_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <libioca.h>

/* "instructions", ... for an IOCA_EVENT_KIND_*, "kind-N" when unknown. */
const char *ctl_print_kind(uint32_t kind, char *buf, size_t len);

void ctl_print_info(FILE *f, const struct ioca_info *info);

void ctl_print_sample(FILE *f, const struct ioca_sample *s);

/* What monitor carries from one sample to the next. */
struct ctl_monitor {
	FILE *out;
	uint64_t lost;	   /* samples lost so far (libioca's seq gaps) */
	unsigned int seen; /* samples printed */
	/* The previous sample's cumulative values and generations, by CPU id. */
	bool prev_valid[IOCA_MAX_CPUS][IOCA_MAX_CPU_EVENTS];
	uint64_t prev[IOCA_MAX_CPUS][IOCA_MAX_CPU_EVENTS];
	uint32_t prev_gen[IOCA_MAX_CPUS];
};

/*
 * Prints one line per sample ("seq N time S.ssssss ... | cpuC a b"), and a
 * gap line before it when samples were lost. A CPU whose counter
 * generation changed prints "-" (no delta across re-created counters).
 */
void ctl_print_monitor(struct ctl_monitor *m, const struct ioca_sample *s);

#endif
