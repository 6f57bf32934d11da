/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Where code sits, measured apart from what it does: a function's size from
 * the symbol table, copies of its bytes in fresh executable memory at
 * chosen offsets, and interleaved measurement rounds.
 */
#ifndef BENCH_PLACE_H
#define BENCH_PLACE_H

#include <stddef.h>
#include <stdint.h>

/*
 * Size of the function at @fn from the dynamic symbol table (the program
 * is linked with -rdynamic), or 0 when @fn is not the start of a sized
 * symbol.
 */
size_t bench_code_size(const void *fn);

/* Offset of @p in its 64-byte cache line. */
static inline unsigned int bench_line_off(const void *p)
{
	return (unsigned int)((uintptr_t)p & 63);
}

/* A copy of some code in its own mapping. */
struct bench_code {
	void *map;
	size_t maplen;
	void *fn; /* the copy's entry: map + the offset asked for */
};

/*
 * Copy @len bytes of position-independent code from @src to a fresh
 * mapping at byte @off of its first page, then make it read-only and
 * executable. With @near, the mapping goes at the first free page found
 * from 1 MiB below @near downwards (else anywhere). Returns 0 or -errno;
 * bench_code_free() undoes it.
 */
int bench_code_copy(struct bench_code *c, const void *src, size_t len, size_t off,
		    const void *near);
void bench_code_free(struct bench_code *c);

/*
 * A fresh mapping holding one `jmp rel32` to @target (x86-64), placed
 * within reach of it. Returns 0, -ERANGE when no mapping near enough was
 * given, or -errno; bench_code_free() undoes it.
 */
int bench_code_jmp(struct bench_code *c, const void *target);

/* One thing measured: @run returns cycles per call. */
struct bench_subject {
	const char *what;
	double (*run)(const void *arg);
	const void *arg;
	size_t base; /* index of the subject it is compared with; its own: a baseline */
};

/*
 * @rounds rounds over the @n subjects, in order on even rounds and in
 * reverse on odd ones (A B C, C B A, ...), so that drift in the machine's
 * load reaches every subject alike. Each subject runs the same number of
 * times: run once to warm up (discarded), once measured. Branch predictors
 * keep what they learnt about code that runs often, so a baseline run more
 * often than the others would be favoured. @cyc[i * @rounds + r] is
 * subject i's cycles per call in round r, @ratio[i * @rounds + r] its
 * ratio to its baseline's in that round.
 */
void bench_interleave(const struct bench_subject *s, size_t n, size_t rounds, double *cyc,
		      double *ratio);

/* Summary of subject @i over the rounds. */
struct bench_ratio {
	double cycles;	 /* median cycles per call */
	double ratio;	 /* median of the per-round ratios to its baseline */
	double p10, p90; /* 10th and 90th percentile of those ratios */
};

/* Fills @out; @tmp holds @rounds doubles. */
void bench_ratio_of(const double *cyc, const double *ratio, size_t rounds, size_t i, double *tmp,
		    struct bench_ratio *out);

#endif /* BENCH_PLACE_H */
