/* SPDX-License-Identifier: GPL-2.0 */
/*
 * libspec annotations: what handler code includes.
 *
 * Compiled natively, every annotation is an identity, so the service builds
 * and runs without the JIT and behaves as the generic version. Compiled for
 * the JIT (spec-cc defines LIBSPEC_IR), each annotation becomes a call to a
 * marker function that carries the label, the source location and the
 * allowed values; the specializer finds these calls in the IR and replaces
 * them (identity, constant + guard, assumption, sampler, fast path).
 *
 * Value points take integer expressions of up to 64 bits, of either
 * signedness; the value is converted to long long and back, which is exact.
 * Wider integers (__int128) are refused at compile time: pass them to a
 * spec_gen() point, whose inputs keep their width.
 */
#ifndef LIBSPEC_ANNOTATE_H
#define LIBSPEC_ANNOTATE_H

#ifdef LIBSPEC_IR

/* Markers: declared, never defined; the runtime rejects IR that still
 * contains one after specialization.
 */
long long __spec_point_enum(const char *label, const char *file, int line, long long x,
			    const long long *values, int nr_values);
long long __spec_point_range(const char *label, const char *file, int line, long long x,
			     long long lo, long long hi);
long long __spec_point_generic(const char *label, const char *file, int line, long long x);
void __spec_point_assume(const char *label, const char *file, int line, int cond);
long long __spec_point_custom(const char *label, const char *file, int line, const void *fn,
			      long long x);
const void *__spec_point_ptr(const char *label, const char *file, int line, const void *p);
/* The inputs follow as variadic arguments, each at its own width. */
long long __spec_point_gen(const char *label, const char *file, int line, const void *fn,
			   const void *data, ...);

/* Rejects floating-point, pointer and wider-than-64-bit operands at compile
 * time (long long would silently drop the high bits).
 */
#define LIBSPEC__INT(x)                                                         \
	_Static_assert((__typeof__(x))0.5 == 0, "spec point on a non-integer"); \
	_Static_assert(sizeof(x) <= sizeof(long long),                          \
		       "spec point on an integer wider than 64 bits: use spec_gen()")

/**
 * spec_enum() - value point that may be specialized to one of @...
 * @label: string literal naming the point in configurations
 * @x: integer expression
 * @...: the allowed values, integer constant expressions
 */
#define spec_enum(label, x, ...)                                                                  \
	({                                                                                        \
		LIBSPEC__INT(x);                                                                  \
		static const long long __spec_vals[] = {__VA_ARGS__};                             \
		(__typeof__(x))__spec_point_enum(label, __FILE__, __LINE__, (long long)(x),       \
						 __spec_vals,                                     \
						 (int)(sizeof(__spec_vals) / sizeof(long long))); \
	})

/** spec_range() - value point that may be specialized to a value in [@lo, @hi] */
#define spec_range(label, x, lo, hi)                                                         \
	({                                                                                   \
		LIBSPEC__INT(x);                                                             \
		(__typeof__(x))__spec_point_range(label, __FILE__, __LINE__, (long long)(x), \
						  (long long)(lo), (long long)(hi));         \
	})

/** spec_generic() - value point whose candidate values the policy chooses */
#define spec_generic(label, x)                                                                  \
	({                                                                                      \
		LIBSPEC__INT(x);                                                                \
		(__typeof__(x))__spec_point_generic(label, __FILE__, __LINE__, (long long)(x)); \
	})

/**
 * spec_assume() - assumption the optimizer may use when the point is enabled
 * @cond: evaluated only in the IR build, so it must have no side effects
 */
#define spec_assume(label, cond) __spec_point_assume(label, __FILE__, __LINE__, !!(cond))

/**
 * spec_custom() - custom point: evaluates fn(x); when enabled, a generator
 * registered with spec_runtime__add_custom() supplies (input, output) cases
 * that are answered inline, every other input still calls @fn.
 * @fn: a function of one integer argument returning an integer, without
 *      side effects for the inputs the generator lists
 */
#define spec_custom(label, fn, x)                                                           \
	({                                                                                  \
		LIBSPEC__INT(x);                                                            \
		(__typeof__(fn(x)))__spec_point_custom(label, __FILE__, __LINE__,           \
						       (const void *)(fn), (long long)(x)); \
	})

/**
 * spec_ptr() - pointer point, for devirtualization: set to an address (a
 * function's, typically), the variant checks p == address and uses the
 * constant; a function whose body is in the handler IR is then called
 * directly and can be inlined.
 * @p: a pointer expression
 */
#define spec_ptr(label, p) \
	((__typeof__(p))__spec_point_ptr(label, __FILE__, __LINE__, (const void *)(p)))

/**
 * spec_gen() - generated point: evaluates fn(data, inputs...); when enabled,
 * the generator registered with spec_runtime__add_gen() emits the code that
 * answers instead (libspec/gen.h), reading @data, the table it compiles.
 * @fn: function of (pointer, 1..4 integers of up to 128 bits) returning an
 *      integer of up to 64 bits, without side effects
 * @data: pointer handed to fn and, for the variant set to it, the generator
 */
#define spec_gen(label, fn, data, ...)                            \
	((__typeof__((fn)((data), __VA_ARGS__)))__spec_point_gen( \
		label, __FILE__, __LINE__, (const void *)(fn), (const void *)(data), __VA_ARGS__))

#else /* native build: identities */

/* Spelled as a conditional so that the usual "x = spec_enum(.., x, ..)" is
 * not reported as a self-assignment by linters; x is evaluated once.
 */
#define LIBSPEC__ID(x) (0 ? (x) : (x))
#define spec_enum(label, x, ...) LIBSPEC__ID(x)
#define spec_range(label, x, lo, hi) LIBSPEC__ID(x)
#define spec_generic(label, x) LIBSPEC__ID(x)
#define spec_assume(label, cond) ((void)0)
#define spec_custom(label, fn, x) ((fn)(x))
#define spec_gen(label, fn, data, ...) ((fn)((data), __VA_ARGS__))
#define spec_ptr(label, p) LIBSPEC__ID(p)

#endif /* LIBSPEC_IR */

#endif /* LIBSPEC_ANNOTATE_H */
