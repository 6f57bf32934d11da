/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The kernel log as tests see it: the whole ring buffer (klogctl), a search
 * in it, and the verdict "no WARN, BUG, oops or sanitizer report".
 */
#ifndef IOCA_SELFTEST_KMSG_H
#define IOCA_SELFTEST_KMSG_H

#include <stddef.h>

/* Reads the ring buffer into a malloc'd string; NULL with errno set. */
char *kmsg_read(void);

/* Length of the log now, to look only at what comes after it later. */
size_t kmsg_mark(void);

/*
 * Copies into @out (size @len) the first line after byte @since that shows
 * a kernel splat (WARNING:, BUG:, Oops, Call Trace, general protection,
 * UBSAN/KASAN). Returns 1 when found, 0 when clean, -errno on failure.
 */
int kmsg_find_splat(size_t since, char *out, size_t len);

/* 1 when a line after @since contains @needle, 0 if not, -errno on failure. */
int kmsg_contains(size_t since, const char *needle);

#endif
