/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What iocactl info says about Intel I/O RDT: the ACPI IRDT table libioca
 * decoded (devices, the channels their traffic takes, the links and
 * whether they tag a CLOS), and that ioca does not allocate through it.
 */
#ifndef IOCACTL_CTL_IRDT_H
#define IOCACTL_CTL_IRDT_H

#include <stdio.h>
#include <libioca.h>

struct ctl_irdt {
	int err;	     /* 0, or what ioca_irdt__open() failed with */
	struct ioca_irdt *t; /* the table when err is 0 */
};

/* Reads the host's table (libioca's messages silenced: err says it). */
void ctl_irdt_read(struct ctl_irdt *r);

void ctl_irdt_free(struct ctl_irdt *r);

/* "io-rdt: ..." lines. */
void ctl_irdt_print(FILE *f, const struct ctl_irdt *r);

/* ,"io_rdt":{...} for info --json. */
void ctl_irdt_json(FILE *f, const struct ctl_irdt *r);

#endif
