// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
#include "irdt_build.h"

#include <string.h>

static void put(struct tb *t, const void *p, size_t n)
{
	memcpy(t->b + t->n, p, n);
	t->n += n;
}

static void u8(struct tb *t, uint8_t v)
{
	put(t, &v, 1);
}

static void u16(struct tb *t, uint16_t v)
{
	u8(t, (uint8_t)v);
	u8(t, (uint8_t)(v >> 8));
}

static void u32(struct tb *t, uint32_t v)
{
	u16(t, (uint16_t)v);
	u16(t, (uint16_t)(v >> 16));
}

static void zero(struct tb *t, size_t n)
{
	memset(t->b + t->n, 0, n);
	t->n += n;
}

static void at32(struct tb *t, size_t at, uint32_t v)
{
	for (int i = 0; i < 4; i++)
		t->b[at + i] = (uint8_t)(v >> 8 * i);
}

void tb_begin(struct tb *t, uint16_t io_flags, uint16_t cache_flags)
{
	memset(t, 0, sizeof(*t));
	put(t, "IRDT", 4);
	u32(t, 0); /* length, by tb_end() */
	u8(t, 1);  /* revision */
	u8(t, 0);  /* checksum, by tb_end() */
	put(t, "IOCAT ", 6);
	put(t, "IOCATEST", 8);
	u32(t, 1);
	u32(t, 0x54534554);
	u32(t, 1);
	u16(t, io_flags);
	u16(t, cache_flags);
	zero(t, 8);
}

void tb_rmud(struct tb *t, uint16_t segment)
{
	t->unit = t->n;
	u8(t, 0);
	zero(t, 3);
	u32(t, 0); /* length, by tb_end_rmud() */
	u16(t, segment);
	zero(t, 3);
}

void tb_dss(struct tb *t, uint8_t type, uint16_t bdf, uint8_t rcs, const uint8_t vc[8])
{
	u16(t, 0);
	u16(t, 8 + 16);
	u8(t, type);
	u16(t, bdf);
	u8(t, 0);
	u8(t, rcs);
	put(t, vc, 8);
	zero(t, 7);
}

void tb_rcs(struct tb *t, uint8_t id, uint16_t iface, uint8_t nch, uint16_t flags,
	    uint16_t rmid_off, uint16_t clos_off, uint64_t mmio)
{
	u16(t, 1);
	u16(t, 40);
	u16(t, iface);
	u8(t, id);
	u8(t, nch);
	u16(t, flags);
	u16(t, rmid_off);
	u16(t, clos_off);
	zero(t, 18);
	u32(t, (uint32_t)mmio);
	u32(t, (uint32_t)(mmio >> 32));
}

void tb_other(struct tb *t, int unit, uint16_t type, uint16_t len)
{
	if (unit) {
		u8(t, (uint8_t)type);
		zero(t, 3);
		u32(t, len);
		zero(t, len - 8);
	} else {
		u16(t, type);
		u16(t, len);
		zero(t, len - 4);
	}
}

void tb_end_rmud(struct tb *t)
{
	at32(t, t->unit + 4, (uint32_t)(t->n - t->unit));
}

void tb_resum(struct tb *t)
{
	uint8_t s = 0;

	t->b[9] = 0;
	for (size_t i = 0; i < t->n; i++)
		s = (uint8_t)(s + t->b[i]);
	t->b[9] = (uint8_t)-s;
}

void tb_end(struct tb *t)
{
	at32(t, 4, (uint32_t)t->n);
	tb_resum(t);
}
