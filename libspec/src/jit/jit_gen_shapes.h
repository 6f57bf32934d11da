/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The generator helpers of libspec/gen.h (exact set, ranges, masked rules,
 * table), declared there; this header only names the file's job.
 */
#ifndef LIBSPEC_JIT_GEN_SHAPES_H
#define LIBSPEC_JIT_GEN_SHAPES_H

#include "jit/jit_gen.h"

#endif /* LIBSPEC_JIT_GEN_SHAPES_H */
