/* SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause */
/*
 * IRDT tables built byte by byte from the layout src/irdt.c describes, for
 * the decoder's tests: begin, units and their structures, end (which
 * writes the lengths and the checksum).
 */
#ifndef LIBIOCA_TESTS_IRDT_BUILD_H
#define LIBIOCA_TESTS_IRDT_BUILD_H

#include <stddef.h>
#include <stdint.h>

struct tb {
	uint8_t b[2048];
	size_t n;
	size_t unit; /* where the open RMUD starts */
};

void tb_begin(struct tb *t, uint16_t io_flags, uint16_t cache_flags);
void tb_rmud(struct tb *t, uint16_t segment);
/* A DSS of @type (1, 2) for @bdf with one CHMS of link @rcs and @vc[8]. */
void tb_dss(struct tb *t, uint8_t type, uint16_t bdf, uint8_t rcs, const uint8_t vc[8]);
void tb_rcs(struct tb *t, uint8_t id, uint16_t iface, uint8_t nch, uint16_t flags,
	    uint16_t rmid_off, uint16_t clos_off, uint64_t mmio);
/* A structure or unit of another type, @len bytes (@unit: a top-level unit). */
void tb_other(struct tb *t, int unit, uint16_t type, uint16_t len);
void tb_end_rmud(struct tb *t);
void tb_end(struct tb *t);
/* Recomputes the checksum after a test changed bytes. */
void tb_resum(struct tb *t);

#endif
