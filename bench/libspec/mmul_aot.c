// SPDX-License-Identifier: GPL-2.0
/*
 * Compiles the very source the JIT specializes, once per block size: built
 * with -DAOT_B=<b>, the B point reads the constant <b> at the source level
 * (what the JIT's specializer does in IR) and the function is named
 * mmul_aot_b<b>; built with -DAOT_B=0 it is the generic mmul_aot_generic.
 * (Cloning by inlining into wrappers is not equivalent: the inliner runs
 * after the callee's loops were already simplified for a variable B.)
 */
#include <libspec/annotate.h>

#include "mmul_aot.h"

#define AOT_CAT2(a, b) a##b
#define AOT_CAT(a, b) AOT_CAT2(a, b)

#if AOT_B
#undef spec_enum
#define spec_enum(label, x, ...) ((void)(x), AOT_B)
#define matmul AOT_CAT(mmul_aot_b, AOT_B)
#else
#define matmul mmul_aot_generic
#endif

/* handlers.h (included there) declares the renamed function. */
#include "handlers.c"
