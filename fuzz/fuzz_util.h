/* SPDX-License-Identifier: GPL-2.0 */
/* What every fuzz target needs: the input as a C string. */
#ifndef IOCA_FUZZ_UTIL_H
#define IOCA_FUZZ_UTIL_H

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* @data as a NUL-terminated copy (parsers take text); NULL if out of memory. */
static inline char *fuzz_cstr(const uint8_t *data, size_t size)
{
	char *s = malloc(size + 1);

	if (s) {
		memcpy(s, data, size);
		s[size] = '\0';
	}
	return s;
}

#endif /* IOCA_FUZZ_UTIL_H */
