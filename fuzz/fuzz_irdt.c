// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/*
 * libFuzzer target: libioca's decoder of the ACPI IRDT table (Intel I/O
 * RDT), a table the firmware writes. The input is the table, copied to a
 * buffer of its exact length so ASan sees any read past it. A decoded
 * table holds no device with more channel references than its array and
 * no device or link of a unit the table does not have.
 */
#include <stdarg.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "libioca.h"

static void quiet(enum ioca_print_level level, void *ctx, const char *fmt, va_list ap)
{
	(void)level;
	(void)ctx;
	(void)fmt;
	(void)ap;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	IOCA_OPTS(ioca_irdt_opts, o, .print = quiet);
	const struct ioca_irdt_device *d;
	const struct ioca_irdt_link *l;
	struct ioca_irdt *t;
	uint8_t *buf = malloc(size ? size : 1);
	size_t nd, nl;

	if (!buf)
		return 0;
	memcpy(buf, data, size);
	t = ioca_irdt__decode(buf, size, &o);
	free(buf);
	if (!t)
		return 0;
	d = ioca_irdt__devices(t, &nd);
	l = ioca_irdt__links(t, &nl);
	/* each unit is at least 13 bytes, so a table of @size has fewer */
	for (size_t i = 0; i < nd; i++)
		if (d[i].nchannels > IOCA_IRDT_MAX_DEV_CHANNELS || d[i].rmud > size / 13)
			abort();
	for (size_t i = 0; i < nl; i++)
		if (l[i].rmud > size / 13)
			abort();
	ioca_irdt__free(t);
	return 0;
}
