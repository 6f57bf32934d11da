// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/*
 * ACPI IRDT decoding. The layout is the one Intel's RDT Architecture
 * Specification gives for I/O RDT enumeration, as intel-cmt-cat's
 * lib/acpi_table.h models it (the specification itself is not among this
 * repository's sources; README.md says what a real table must confirm):
 *
 *   IRDT    ACPI header (36 bytes), IO protocol flags u16 @36, cache
 *           protocol flags u16 @38, 8 reserved, then a list of units @48
 *   unit    type u8 @0 (0: RMUD), length u32 @4; an RMUD has its PCI
 *           segment u16 @8 and its structures from byte 13
 *   struct  type u16 @0 (0: DSS, 1: RCS), length u16 @2
 *   DSS     device type u8 @4 (1: endpoint, 2: bridge), BDF u16 @5, then
 *           16-byte CHMS entries from byte 8: RCS ID u8, eight channel
 *           bytes (bit 7 valid, bit 6 shared, bits 0-5 the channel)
 *   RCS     interface u16 @4, RCS ID u8 @6, channel count u8 @7, flags u16
 *           @8 (bit 1 RMID tagging, bit 2 CLOS tagging, bit 3 2-byte
 *           registers), RMID block offset u16 @10, CLOS block offset u16
 *           @12, MMIO address u64 @32 (40 bytes)
 *
 * Every length is checked against the bytes of the structure that holds
 * it before anything inside is read, so a truncated or lying table is
 * refused with what did not fit, never read past.
 */
#include "irdt.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define HDR_LEN 36
#define IRDT_UNITS 48
#define UNIT_MIN 8
#define RMUD_STRUCTS 13
#define STRUCT_MIN 4
#define DSS_CHMS 8
#define CHMS_LEN 16
#define RCS_LEN 40
#define MAX_ENTRIES 4096

static uint16_t le16(const uint8_t *p)
{
	return (uint16_t)(p[0] | p[1] << 8);
}

static uint32_t le32(const uint8_t *p)
{
	return (uint32_t)le16(p) | (uint32_t)le16(p + 2) << 16;
}

static uint64_t le64(const uint8_t *p)
{
	return (uint64_t)le32(p) | (uint64_t)le32(p + 4) << 32;
}

/* Room for one more entry of @size in *@arr holding *@n; -ENOMEM / -E2BIG. */
static int grow(void **arr, size_t *n, size_t size)
{
	void *p;

	if (*n >= MAX_ENTRIES)
		return -E2BIG;
	p = realloc(*arr, (*n + 1) * size);
	if (!p)
		return -ENOMEM;
	*arr = p;
	return 0;
}

static int dss(struct ioca_irdt *t, const uint8_t *s, size_t len, uint32_t rmud, uint16_t seg,
	       size_t off, const struct ioca_log *log)
{
	struct ioca_irdt_device *d;
	uint16_t bdf;
	int err;

	if (len < DSS_CHMS || (len - DSS_CHMS) % CHMS_LEN) {
		pr_warn(log, "IRDT: DSS at byte %zu: length %zu is not 8 + 16 * n", off, len);
		return -EINVAL;
	}
	if (s[4] != 1 && s[4] != 2) {
		pr_warn(log, "IRDT: DSS at byte %zu: device type %u is neither 1 nor 2", off, s[4]);
		return -EINVAL;
	}
	err = grow((void **)&t->devices, &t->ndevices, sizeof(*t->devices));
	if (err)
		return err;
	d = &t->devices[t->ndevices++];
	memset(d, 0, sizeof(*d));
	bdf = le16(s + 5);
	d->rmud = rmud;
	d->segment = seg;
	d->bus = (uint8_t)(bdf >> 8);
	d->dev = (bdf >> 3) & 0x1f;
	d->fn = bdf & 0x7;
	d->bridge = s[4] == 2;
	for (size_t c = DSS_CHMS; c < len; c += CHMS_LEN) {
		for (size_t v = 1; v <= 8; v++) {
			uint8_t b = s[c + v];

			if (!(b & 0x80))
				continue;
			if (d->nchannels == IOCA_IRDT_MAX_DEV_CHANNELS) {
				pr_warn(log, "IRDT: DSS at byte %zu: more than %d channels", off,
					IOCA_IRDT_MAX_DEV_CHANNELS);
				return -E2BIG;
			}
			d->channels[d->nchannels++] = (struct ioca_irdt_chan_ref){
				.rcs = s[c], .channel = b & 0x3f, .shared = !!(b & 0x40)};
		}
	}
	return 0;
}

static int rcs(struct ioca_irdt *t, const uint8_t *s, size_t len, uint32_t rmud, uint16_t seg,
	       size_t off, const struct ioca_log *log)
{
	struct ioca_irdt_link *l;
	uint16_t flags;
	int err;

	if (len < RCS_LEN) {
		pr_warn(log, "IRDT: RCS at byte %zu: length %zu is shorter than %d", off, len,
			RCS_LEN);
		return -EINVAL;
	}
	err = grow((void **)&t->links, &t->nlinks, sizeof(*t->links));
	if (err)
		return err;
	l = &t->links[t->nlinks++];
	flags = le16(s + 8);
	*l = (struct ioca_irdt_link){
		.rmud = rmud,
		.segment = seg,
		.interface = le16(s + 4),
		.rcs = s[6],
		.nchannels = s[7],
		.rmid_tagging = !!(flags & 0x2),
		.clos_tagging = !!(flags & 0x4),
		.regs_16bit = !!(flags & 0x8),
		.rmid_offset = le16(s + 10),
		.clos_offset = le16(s + 12),
		.mmio = le64(s + 32),
	};
	return 0;
}

static int rmud(struct ioca_irdt *t, const uint8_t *u, size_t len, uint32_t idx, size_t off,
		const struct ioca_log *log)
{
	uint16_t seg;
	size_t at;
	int err = 0;

	if (len < RMUD_STRUCTS) {
		pr_warn(log, "IRDT: RMUD at byte %zu: length %zu is shorter than %d", off, len,
			RMUD_STRUCTS);
		return -EINVAL;
	}
	seg = le16(u + 8);
	for (at = RMUD_STRUCTS; at < len && !err;) {
		size_t slen;

		if (len - at < STRUCT_MIN) {
			pr_warn(log,
				"IRDT: RMUD at byte %zu: %zu bytes left at byte %zu, no room "
				"for a structure header",
				off, len - at, off + at);
			return -EINVAL;
		}
		slen = le16(u + at + 2);
		if (slen < STRUCT_MIN || slen > len - at) {
			pr_warn(log,
				"IRDT: structure at byte %zu: length %zu does not fit the %zu "
				"bytes left of its RMUD",
				off + at, slen, len - at);
			return -EINVAL;
		}
		switch (le16(u + at)) {
		case 0:
			err = dss(t, u + at, slen, idx, seg, off + at, log);
			break;
		case 1:
			err = rcs(t, u + at, slen, idx, seg, off + at, log);
			break;
		default: /* a structure this decoder does not know: skipped by its length */
			break;
		}
		at += slen;
	}
	return err;
}

static uint8_t sum(const uint8_t *p, size_t n)
{
	uint8_t s = 0;

	while (n--)
		s = (uint8_t)(s + *p++);
	return s;
}

static int decode(struct ioca_irdt *t, const uint8_t *b, size_t len, const struct ioca_log *log)
{
	size_t tlen, at;
	uint32_t nrmud = 0;
	int err = 0;

	if (len < IRDT_UNITS || memcmp(b, "IRDT", 4)) {
		pr_warn(log,
			"IRDT: %zu bytes are not an IRDT table (signature \"%.4s\", need %d "
			"bytes)",
			len, len >= 4 ? (const char *)b : "", IRDT_UNITS);
		return -EINVAL;
	}
	tlen = le32(b + 4);
	if (tlen < IRDT_UNITS || tlen > len) {
		pr_warn(log,
			"IRDT: header length %zu does not fit the %zu bytes read (at least %d)",
			tlen, len, IRDT_UNITS);
		return -EINVAL;
	}
	if (sum(b, tlen)) {
		pr_warn(log, "IRDT: checksum does not add up to 0 over its %zu bytes", tlen);
		return -EINVAL;
	}
	t->io_flags = le16(b + 36);
	t->cache_flags = le16(b + 38);
	for (at = IRDT_UNITS; at < tlen && !err;) {
		size_t ulen;

		if (tlen - at < UNIT_MIN) {
			pr_warn(log, "IRDT: %zu bytes left at byte %zu, no room for a unit header",
				tlen - at, at);
			return -EINVAL;
		}
		ulen = le32(b + at + 4);
		if (ulen < UNIT_MIN || ulen > tlen - at) {
			pr_warn(log,
				"IRDT: unit at byte %zu: length %zu does not fit the %zu bytes "
				"left of the table",
				at, ulen, tlen - at);
			return -EINVAL;
		}
		if (b[at] == 0)
			err = rmud(t, b + at, ulen, nrmud++, at, log);
		at += ulen;
	}
	return err;
}

LIBIOCA_API struct ioca_irdt *ioca_irdt__decode(const void *buf, size_t len,
						const struct ioca_irdt_opts *opts)
{
	struct ioca_log log = {
		.fn = IOCA_OPTS_GET(opts, print, NULL),
		.ctx = IOCA_OPTS_GET(opts, print_ctx, NULL),
	};
	struct ioca_irdt *t;
	int err;

	err = IOCA_OPTS_VALID(&log, opts, ioca_irdt_opts);
	if (err)
		return ioca_err_ptr(err);
	if (!buf) {
		pr_warn(&log, "IRDT: no table");
		return ioca_err_ptr(-EINVAL);
	}
	t = calloc(1, sizeof(*t));
	if (!t)
		return ioca_err_ptr(-ENOMEM);
	err = decode(t, buf, len, &log);
	if (err) {
		ioca_irdt__free(t);
		return ioca_err_ptr(err == -E2BIG ? -EINVAL : err);
	}
	return t;
}

LIBIOCA_API struct ioca_irdt *ioca_irdt__open(const struct ioca_irdt_opts *opts)
{
	struct ioca_log log = {
		.fn = IOCA_OPTS_GET(opts, print, NULL),
		.ctx = IOCA_OPTS_GET(opts, print_ctx, NULL),
	};
	const char *path = IOCA_OPTS_GET(opts, path, NULL);
	struct ioca_irdt *t;
	uint8_t *buf;
	size_t len = 0;
	ssize_t r;
	int fd, err;

	err = IOCA_OPTS_VALID(&log, opts, ioca_irdt_opts);
	if (err)
		return ioca_err_ptr(err);
	path = path ? path : "/sys/firmware/acpi/tables/IRDT";
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		err = -errno;
		if (err != -ENOENT)
			pr_warn(&log, "IRDT: %s: %s", path, strerror(-err));
		return ioca_err_ptr(err);
	}
	buf = malloc(IOCA_IRDT_MAX_LEN);
	if (!buf) {
		close(fd);
		return ioca_err_ptr(-ENOMEM);
	}
	while (len < IOCA_IRDT_MAX_LEN && (r = read(fd, buf + len, IOCA_IRDT_MAX_LEN - len)) > 0)
		len += (size_t)r;
	err = r < 0 ? -errno : 0;
	close(fd);
	if (err) {
		pr_warn(&log, "IRDT: %s: %s", path, strerror(-err));
		free(buf);
		return ioca_err_ptr(err);
	}
	t = ioca_irdt__decode(buf, len, opts);
	err = errno;
	free(buf);
	errno = err;
	return t;
}

LIBIOCA_API void ioca_irdt__free(struct ioca_irdt *t)
{
	if (!t)
		return;
	free(t->devices);
	free(t->links);
	free(t);
}

LIBIOCA_API uint32_t ioca_irdt__io_flags(const struct ioca_irdt *t)
{
	return t->io_flags;
}

LIBIOCA_API uint32_t ioca_irdt__cache_flags(const struct ioca_irdt *t)
{
	return t->cache_flags;
}

LIBIOCA_API const struct ioca_irdt_device *ioca_irdt__devices(const struct ioca_irdt *t, size_t *n)
{
	*n = t->ndevices;
	return t->devices;
}

LIBIOCA_API const struct ioca_irdt_link *ioca_irdt__links(const struct ioca_irdt *t, size_t *n)
{
	*n = t->nlinks;
	return t->links;
}
