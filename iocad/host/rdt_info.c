// SPDX-License-Identifier: GPL-2.0
/*
 * resctrl info/L3 and schemata parsing. Values are read as the kernel
 * prints them (hex masks without 0x, decimal counts) and refused if
 * anything else is there, so a misread never turns into a wrong mask.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "rdt_info.h"
#include "ways.h"

int rdt_info_read_file(const char *path, char *buf, size_t len)
{
	ssize_t n;
	size_t got = 0;
	int fd;

	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	while (got + 1 < len) {
		n = read(fd, buf + got, len - 1 - got);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			n = -errno;
			close(fd);
			return (int)n;
		}
		if (!n)
			break;
		got += (size_t)n;
	}
	buf[got] = '\0';
	close(fd);
	return 0;
}

/* "7ff\n" or "11\n": one number in @base, nothing else but the newline. */
static int parse_num(const char *s, int base, unsigned long *out)
{
	char *end;

	while (*s == ' ')
		s++;
	if (!*s || *s == '-' || *s == '+')
		return -EINVAL;
	errno = 0;
	*out = strtoul(s, &end, base);
	if (errno || end == s)
		return -EINVAL;
	while (*end == '\n' || *end == ' ')
		end++;
	return *end ? -EINVAL : 0;
}

static int read_value(const char *root, const char *name, int base, unsigned long max,
		      unsigned long *out, char *err, size_t errlen)
{
	char path[512], buf[64];
	int r;

	snprintf(path, sizeof(path), "%s/info/L3/%s", root, name);
	r = rdt_info_read_file(path, buf, sizeof(buf));
	if (r) {
		snprintf(err, errlen, "resctrl: %s: %s", path, strerror(-r));
		return r == -ENOENT ? -ENOENT : -EINVAL;
	}
	if (parse_num(buf, base, out) || *out > max) {
		buf[strcspn(buf, "\n")] = '\0';
		snprintf(err, errlen, "resctrl: %s: unexpected value '%s'", path, buf);
		return -EINVAL;
	}
	return 0;
}

int rdt_info_read(const char *root, struct rdt_l3_info *out, char *err, size_t errlen)
{
	unsigned long cbm, min, clos, share;
	char path[512];
	struct stat st;
	int r;

	snprintf(path, sizeof(path), "%s/info", root);
	if (stat(path, &st) || !S_ISDIR(st.st_mode)) {
		snprintf(err, errlen,
			 "resctrl is not mounted at %s (no %s); mount it with "
			 "'mount -t resctrl resctrl %s' (needs a CPU with RDT/CAT and a kernel "
			 "with CONFIG_X86_CPU_RESCTRL)",
			 root, path, root);
		return -ENOENT;
	}
	snprintf(path, sizeof(path), "%s/info/L3", root);
	if (stat(path, &st) || !S_ISDIR(st.st_mode)) {
		snprintf(err, errlen,
			 "resctrl at %s has no L3 allocation (no %s): this CPU or its "
			 "firmware does not offer L3 CAT, or CDP split it (mount without cdp)",
			 root, path);
		return -ENOENT;
	}
	r = read_value(root, "cbm_mask", 16, 0xffffffffUL, &cbm, err, errlen);
	if (!r)
		r = read_value(root, "min_cbm_bits", 10, 32, &min, err, errlen);
	if (!r)
		r = read_value(root, "num_closids", 10, 1u << 20, &clos, err, errlen);
	if (!r)
		r = read_value(root, "shareable_bits", 16, 0xffffffffUL, &share, err, errlen);
	if (r)
		return r;
	if (!cbm || (cbm & (cbm + 1)) || !clos) {
		snprintf(err, errlen,
			 "resctrl: info/L3: cbm_mask %lx / num_closids %lu make no sense", cbm,
			 clos);
		return -EINVAL;
	}
	out->cbm_mask = (uint32_t)cbm;
	out->cbm_len = (unsigned int)__builtin_popcount((unsigned int)cbm);
	out->min_cbm_bits = (unsigned int)(min ? min : 1);
	out->num_closids = (unsigned int)clos;
	out->shareable_bits = (uint32_t)share;
	return 0;
}

int rdt_info_check_mask(const struct rdt_l3_info *info, uint32_t mask, char *why, size_t len)
{
	if (!mask) {
		snprintf(why, len, "L3 mask is empty");
		return -EINVAL;
	}
	if (mask & ~info->cbm_mask) {
		snprintf(why, len, "L3 mask 0x%x has ways outside cbm_mask 0x%x", mask,
			 info->cbm_mask);
		return -EINVAL;
	}
	if (!ways_contiguous(mask)) {
		snprintf(why, len, "L3 mask 0x%x is not contiguous", mask);
		return -EINVAL;
	}
	if ((unsigned int)__builtin_popcount(mask) < info->min_cbm_bits) {
		snprintf(why, len, "L3 mask 0x%x has fewer than min_cbm_bits %u ways", mask,
			 info->min_cbm_bits);
		return -EINVAL;
	}
	return 0;
}

/* One "L3:0=7ff;1=7ff" line (without "L3:"), up to its end. */
static int find_domain(const char *s, const char *eol, unsigned int id, uint32_t *mask)
{
	unsigned long d, m;
	char *end;

	while (s < eol) {
		while (*s == ' ')
			s++;
		errno = 0;
		d = strtoul(s, &end, 10);
		if (errno || end == s || *end != '=')
			return -EINVAL;
		s = end + 1;
		m = strtoul(s, &end, 16);
		if (errno || end == s || m > 0xffffffffUL)
			return -EINVAL;
		s = end;
		while (*s == ' ')
			s++;
		if (s < eol && *s != ';')
			return -EINVAL;
		if (d == id) {
			*mask = (uint32_t)m;
			return 0;
		}
		if (s < eol)
			s++;
	}
	return -ENOENT;
}

int rdt_info_schemata_l3(const char *text, unsigned int id, uint32_t *mask)
{
	const char *s = text, *eol;

	while (*s) {
		eol = strchr(s, '\n');
		if (!eol)
			eol = s + strlen(s);
		while (*s == ' ')
			s++;
		if (!strncmp(s, "L3:", 3))
			return find_domain(s + 3, eol, id, mask);
		s = *eol ? eol + 1 : eol;
	}
	return -ENOENT;
}

/* sysfs's and resctrl's CPU lists alike. */
int rdt_parse_cpus(const char *list, struct platform_cpuset *out)
{
	const char *s = list;
	unsigned long lo, hi;
	char *end;

	memset(out, 0, sizeof(*out));
	while (*s && *s != '\n') {
		errno = 0;
		lo = strtoul(s, &end, 10);
		hi = lo;
		if (!errno && end != s && *end == '-') {
			s = end + 1;
			hi = strtoul(s, &end, 10);
		}
		if (errno || end == s || hi < lo || (*end && *end != ',' && *end != '\n'))
			return -EINVAL;
		for (unsigned long c = lo; c <= hi && c < PLATFORM_MAX_CPUS; c++)
			platform_cpuset_add(out, (unsigned int)c);
		s = *end == ',' ? end + 1 : end;
	}
	return 0;
}
