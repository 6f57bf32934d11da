/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Code generators of spec_gen() points: what a service writes to compile its
 * own data (a routing table, a rule set, the hot inputs) into the handler.
 *
 * A generator runs in the compile thread while a variant is built. It gets
 * the point's inputs as IR values and a builder positioned where the answer
 * is needed, and emits code in stages. A stage either yields the answer or
 * leaves the builder in a block where nothing matched; the next stage
 * continues there. What is still unmatched after the last stage takes the
 * point's default outcome: the generic function (the default) or a value
 * set with spec_gen__default_value() ("not found").
 *
 * The helpers emit the common shapes; anything else is plain LLVM C API on
 * spec_gen__builder() with spec_gen__yield() for answers. Generators read
 * the data they specialize through spec_gen__data(): the pointer the
 * variant is specialized for (spec_config__set_data()), never a global, so
 * one handler serves several tables.
 *
 * Limits: 1..SPEC_GEN_MAX_INPUTS integer inputs of at most 128 bits each;
 * the answer is an integer of at most 64 bits. Helpers take any number of
 * cases (tens of thousands compile; see the README for compile times).
 *
 * Thread-safety: a spec_gen is valid only during the generator call, in the
 * compile thread; generators of one runtime never run concurrently.
 */
#ifndef LIBSPEC_GEN_H
#define LIBSPEC_GEN_H

#include <llvm-c/Core.h>

#include "libspec/libspec.h"

#ifdef __cplusplus
extern "C" {
#endif

#define SPEC_GEN_MAX_INPUTS 4

struct spec_gen;

/* A key of up to 128 bits (IPv6 addresses): value = hi:lo. */
struct spec_u128 {
	uint64_t lo, hi;
};

/* (x & mask) == value gives out; see spec_gen__masked(). */
struct spec_gen_mask {
	struct spec_u128 mask, value;
	int64_t out;
};

/* lo <= x <= hi (unsigned) gives out. */
struct spec_gen_range {
	struct spec_u128 lo, hi;
	int64_t out;
};

/* x == key gives out. */
struct spec_gen_exact {
	struct spec_u128 key;
	int64_t out;
};

/*
 * Generator of a spec_gen() point: emit code for @g. Returns 0, or a
 * negative errno that fails the compile (the current variant stays).
 */
typedef int (*spec_gen_fn)(void *ctx, struct spec_gen *g);

/**
 * @brief Register the generator of spec_gen() point @p label (replaces an
 * earlier one; applies to variants compiled afterwards).
 * @return 0, -ENOENT (unknown label), -EINVAL (not a spec_gen point)
 */
LIBSPEC_API int spec_runtime__add_gen(struct spec_runtime *rt, const char *label, spec_gen_fn gen,
				      void *ctx);

/** @brief Label of the point being generated. @return label */
LIBSPEC_API const char *spec_gen__label(const struct spec_gen *g);

/** @brief The data the variant is specialized for (NULL when enabled without data). */
LIBSPEC_API const void *spec_gen__data(const struct spec_gen *g);

/** @brief The generator's parameter (spec_config__set_param(); 0 if unset). */
LIBSPEC_API int64_t spec_gen__param(const struct spec_gen *g);

/** @brief Number of inputs of the point. @return 1..SPEC_GEN_MAX_INPUTS */
LIBSPEC_API size_t spec_gen__nr_inputs(const struct spec_gen *g);

/** @brief Width of input @p i in bits. @return bits, or 0 if @p i is out of range */
LIBSPEC_API unsigned int spec_gen__input_bits(const struct spec_gen *g, size_t i);

/** @brief Input @p i as an IR value (an integer of its own width), or NULL. */
LIBSPEC_API LLVMValueRef spec_gen__input(const struct spec_gen *g, size_t i);

/** @brief Builder positioned in the open (nothing matched yet) block. */
LIBSPEC_API LLVMBuilderRef spec_gen__builder(const struct spec_gen *g);

/**
 * @brief Hot inputs the point's sampling saw (first input, up to 128 bits as
 * value and value_hi) with the answers the generic path gave them, by
 * count descending. Valid during the call.
 * @param n out: number of entries
 * @return entries (NULL when none)
 */
LIBSPEC_API const struct spec_observed *spec_gen__hot(const struct spec_gen *g, size_t *n);

/**
 * @brief Hot input @p i (as spec_gen__hot(), indexed by the library's record
 * size: the way to read them from code built against another header).
 * @return entry, or NULL and errno = ERANGE
 */
LIBSPEC_API const struct spec_observed *spec_gen__hot_at(const struct spec_gen *g, size_t i);

/**
 * @brief Answer @p v (an integer IR value) from the builder's block, which
 * this terminates; the builder is then left in a new, unreachable open
 * block (emit the next stage after positioning it where misses go).
 * @return 0 or -EINVAL
 */
LIBSPEC_API int spec_gen__yield(struct spec_gen *g, LLVMValueRef v);

/**
 * @brief A new empty block in the function being generated, e.g. for a
 * stage's miss path.
 * @return block
 */
LIBSPEC_API LLVMBasicBlockRef spec_gen__block(struct spec_gen *g, const char *name);

/**
 * @brief Stage: x_input == key[i] gives out[i]; a switch (LLVM picks a jump
 * table, a binary search or compares). Duplicate keys: the first wins.
 * @return 0, -EINVAL (bad input), -ENOMEM
 */
LIBSPEC_API int spec_gen__exact(struct spec_gen *g, size_t input,
				const struct spec_gen_exact *cases, size_t n);

/**
 * @brief Stage: disjoint unsigned ranges, compiled to a balanced tree of
 * compares (log2 n deep); gaps between ranges miss. Above 64 ranges, each
 * leaf holds up to 32 ranges, found without branches by one vector
 * compare and a popcount (compile time near-linear in n). 128-bit keys are
 * compared on one 64-bit half wherever the bounds allow (a bound with a
 * zero low half, as for prefixes of /64 or shorter).
 * @return 0, -EINVAL (bad input, overlapping ranges, lo > hi), -ENOMEM
 */
LIBSPEC_API int spec_gen__ranges(struct spec_gen *g, size_t input,
				 const struct spec_gen_range *ranges, size_t n);

/**
 * @brief Stage: masked compares as nested ifs. A rule whose mask covers
 * another's and agrees with its value is tested inside it, so the most
 * specific matching rule wins (longest-prefix match for prefix masks);
 * rules of one nesting level with the same mask share one switch on
 * x & mask. Rules that overlap without nesting: the first given wins.
 * @return 0, -EINVAL (bad input, value outside its mask), -ENOMEM
 */
LIBSPEC_API int spec_gen__masked(struct spec_gen *g, size_t input,
				 const struct spec_gen_mask *rules, size_t n);

/**
 * @brief Stage: dense lookup table, x in [base, base + n) gives out[x - base]
 * (a constant array load); other inputs miss.
 * @return 0, -EINVAL, -ENOMEM
 */
LIBSPEC_API int spec_gen__table(struct spec_gen *g, size_t input, uint64_t base, const int64_t *out,
				size_t n);

/**
 * @brief What unmatched inputs get: @p v instead of the generic function.
 * Only for generators that compiled every answer the function can give.
 * @return 0
 */
LIBSPEC_API int spec_gen__default_value(struct spec_gen *g, int64_t v);

#ifdef __cplusplus
}
#endif

#endif /* LIBSPEC_GEN_H */
