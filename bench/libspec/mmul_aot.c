// SPDX-License-Identifier: GPL-2.0
/*
 * Compiles the very source the JIT specializes, renamed, and clones it per
 * constant B: `flatten` inlines the handler into each wrapper, so constant
 * propagation sees B exactly as the JIT's specializer makes it visible.
 */
#define matmul mmul_aot_generic
#include "handlers.c"
#undef matmul

#include <stddef.h>

#include "mmul_aot.h"

#define AOT_CONST(b)                                                                   \
	static void __attribute__((noinline, flatten))                                 \
	aot_b##b(const uint64_t *L, const uint64_t *R, uint64_t *O, int n, int unused) \
	{                                                                              \
		(void)unused;                                                          \
		mmul_aot_generic(L, R, O, n, b);                                       \
	}

AOT_CONST(2)
AOT_CONST(4)
AOT_CONST(8)
AOT_CONST(16)
AOT_CONST(32)
AOT_CONST(64)

mmul_fn mmul_aot_const(int b)
{
	switch (b) {
	case 2:
		return aot_b2;
	case 4:
		return aot_b4;
	case 8:
		return aot_b8;
	case 16:
		return aot_b16;
	case 32:
		return aot_b32;
	case 64:
		return aot_b64;
	}
	return NULL;
}
