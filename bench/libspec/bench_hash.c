// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench_hash.h"
#include "bench_place.h"
#include "bench_util.h"
#include "handlers/simple.h"

#define CALLS 50000 /* per measurement */
#define ROUNDS 101
#define PAGES 3 /* placement control: fresh mappings ... */
#define OFFS 4	/* ... times offsets 0, 0x10, 0x20, 0x30 of a line */
#define COPIES (PAGES * OFFS)
#define NKEYS 65536 /* the longest key sequence looked up */

/* Per-round ratios of identical code move by about this much: call it even. */
#define SAME 0.02

typedef long (*hash_fn)(const struct simple_htab *, unsigned long);

static struct simple_htab htab;
static unsigned long hkeys[NKEYS];
static unsigned long nkeys_mask; /* keys looked up: hkeys[i & nkeys_mask] */
static volatile long sink;

static unsigned long lcg(unsigned long *k)
{
	*k = *k * 6364136223846793005ul + 1442695040888963407ul;
	return *k;
}

/*
 * Half full. @repeat: the first 1024 keys inserted, looked up in a fixed
 * shuffled order again and again (the workload the issue measured); else
 * NKEYS draws from all keys present, too long a sequence for a branch
 * predictor to learn.
 */
static void fill(bool repeat)
{
	static unsigned long present[SIMPLE_HTAB_SIZE / 2];
	unsigned long k = 12345;
	size_t i, n = 0;

	memset(&htab, 0, sizeof(htab));
	while (n < SIMPLE_HTAB_SIZE / 2) {
		unsigned long key = lcg(&k) | 1, slot;

		slot = (key * 0x9e3779b97f4a7c15ul) >> (64 - SIMPLE_HTAB_BITS);
		while (htab.keys[slot] && htab.keys[slot] != key)
			slot = (slot + 1) & (SIMPLE_HTAB_SIZE - 1);
		if (htab.keys[slot])
			continue;
		htab.keys[slot] = key;
		htab.vals[slot] = (long)n;
		present[n++] = key;
	}
	nkeys_mask = repeat ? 1023 : NKEYS - 1;
	for (i = 0; i <= nkeys_mask; i++)
		hkeys[i] = repeat ? present[(i * 7919) & 1023] : present[(lcg(&k) >> 33) % n];
}

/* Cycles per call of the function at @arg. Every subject of one kind runs
 * this same loop, so only the callee's code and place differ.
 */
static double via_pointer(const void *arg)
{
	hash_fn volatile f = (hash_fn)arg;
	hash_fn g = f; /* read once: opaque to the optimizer, no inlining */
	long acc = 0, i;
	uint64_t t0 = bench_cycles();

	for (i = 0; i < CALLS; i++)
		acc += g(&htab, hkeys[i & nkeys_mask]);
	t0 = bench_cycles() - t0;
	sink = acc;
	return (double)t0 / CALLS;
}

/* The same, reading what to call from the word at @arg before every call,
 * as a spec_runtime__handler_entry() caller does.
 */
static double via_word(const void *arg)
{
	void *const *word = arg;
	long acc = 0, i;
	uint64_t t0 = bench_cycles();

	for (i = 0; i < CALLS; i++)
		acc += ((hash_fn)spec_entry_load(word))(&htab, hkeys[i & nkeys_mask]);
	t0 = bench_cycles() - t0;
	sink = acc;
	return (double)t0 / CALLS;
}

/* Copies run through both callers: S_COPY + i by pointer, S_WCOPY + i by word. */
enum {
	S_NATIVE,
	S_STUB,
	S_HOP,
	S_JIT,
	S_NATIVE_WORD,
	S_JIT_WORD,
	S_COPY,
	S_WCOPY = S_COPY + COPIES,
	S_ALL = S_WCOPY + COPIES
};

/* Measurements of every subject in every round, and scratch space. */
struct hash_runs {
	double cyc[S_ALL * ROUNDS], ratio[S_ALL * ROUNDS], tmp[ROUNDS];
};

/* Where make_copies() puts each mapping. */
static const char *const where_mapped[PAGES] = {"anywhere", "near the program", "anywhere"};

/* What the copies of one caller give, against its native baseline. */
struct spread {
	struct bench_ratio lo, hi; /* fastest and slowest placement, native's own included */
	double same;		   /* mean ratio of the copies at the JIT code's line offset */
};

static void row(const char *what, struct hash_runs *m, size_t i, const char *ref,
		struct bench_ratio *out)
{
	struct bench_ratio r;

	bench_ratio_of(m->cyc, m->ratio, ROUNDS, i, m->tmp, &r);
	printf("  %-38s %7.2f %8.2fx  [%.2f..%.2f]  %s\n", what, r.cycles, r.ratio, r.p10, r.p90,
	       ref);
	if (out)
		*out = r;
}

static const char *where(double x, double lo, double hi)
{
	return x < lo - SAME ? "under" : x > hi + SAME ? "above" : "within";
}

/*
 * The copies from subject @first on, one line per mapping when @print;
 * @sp starts from the baseline @base (native's own placement).
 */
static void copies_of(const struct bench_subject *s, struct hash_runs *m, size_t first, size_t base,
		      unsigned int jit_off, bool print, struct spread *sp)
{
	struct bench_ratio r;
	size_t i;

	bench_ratio_of(m->cyc, m->ratio, ROUNDS, base, m->tmp, &sp->lo);
	sp->hi = sp->lo;
	sp->same = 0;
	for (i = 0; i < COPIES; i++) {
		const void *fn =
			first == S_WCOPY ? *(void *const *)s[first + i].arg : s[first + i].arg;

		bench_ratio_of(m->cyc, m->ratio, ROUNDS, first + i, m->tmp, &r);
		if (print && i % OFFS == 0)
			printf("    %-7s %-16s page +0x%03x:",
			       first == S_WCOPY ? "word" : "pointer", where_mapped[i / OFFS],
			       (unsigned int)((uintptr_t)fn & 0xfc0));
		if (print)
			printf(" %5.2fx%s", r.ratio, i % OFFS == OFFS - 1 ? "\n" : "");
		sp->lo = r.ratio < sp->lo.ratio ? r : sp->lo;
		sp->hi = r.ratio > sp->hi.ratio ? r : sp->hi;
		if (bench_line_off(fn) == jit_off)
			sp->same += r.ratio / PAGES;
	}
}

/* Prints the rows (the copies' only when @copies) and the verdicts. */
static void report(const struct bench_subject *s, struct hash_runs *m, bool copies)
{
	struct bench_ratio jit, word, stub, hop;
	unsigned int off = bench_line_off(s[S_JIT].arg);
	struct spread p, w;

	printf("  %-38s %7s %9s  %-12s  %s\n", "through a function pointer", "cycles", "/native",
	       "[p10..p90]", "reference");
	row(s[S_NATIVE].what, m, S_NATIVE, "", NULL);
	row(s[S_STUB].what, m, S_STUB, "issue: 75 vs 57 native (1.32x), must be <= native", &stub);
	row(s[S_HOP].what, m, S_HOP, "", &hop);
	row(s[S_JIT].what, m, S_JIT, "", &jit);
	printf("  the pointer read before each call (spec_runtime__handler_entry())\n");
	row(s[S_NATIVE_WORD].what, m, S_NATIVE_WORD, "", NULL);
	row(s[S_JIT_WORD].what, m, S_JIT_WORD, "issue: must be <= native", &word);
	if (copies)
		printf("  placement control: native's bytes in fresh executable memory, x native "
		       "through the\n  same caller, at line offsets +0x00 +0x10 +0x20 +0x30:\n");
	copies_of(s, m, S_COPY, S_NATIVE, off, copies, &p);
	copies_of(s, m, S_WCOPY, S_NATIVE_WORD, off, copies, &w);
	printf("  native's placement spread (the build and %d copies), by pointer: %.2fx..%.2fx "
	       "(%.2f..%.2f\n  cycles), by word: %.2fx..%.2fx (%.2f..%.2f cycles)\n",
	       COPIES, p.lo.ratio, p.hi.ratio, p.lo.cycles, p.hi.cycles, w.lo.ratio, w.hi.ratio,
	       w.lo.cycles, w.hi.cycles);
	printf("  verdict: JIT generic by pointer (no stub) %.2fx is %s native's spread, %.2fx "
	       "of native's\n  copies at its line offset +0x%02x; by word %.2fx is %s, %.2fx of "
	       "those copies\n",
	       jit.ratio, where(jit.ratio, p.lo.ratio, p.hi.ratio), jit.ratio / p.same, off,
	       word.ratio, where(word.ratio, w.lo.ratio, w.hi.ratio), word.ratio / w.same);
	printf("  the stub: %.2fx its target; a bare jmp there: %.2fx\n", stub.ratio / jit.ratio,
	       hop.ratio / jit.ratio);
}

static void measure(void *const *entry, void *stub, const struct bench_code *copies,
		    const void *hop, bool repeat, struct hash_runs *m)
{
	static void *native_word, *words[COPIES];
	struct bench_subject s[S_ALL] = {
		[S_NATIVE] = {"native build (baseline)", via_pointer, (const void *)simple_hash_get,
			      S_NATIVE},
		[S_STUB] = {"JIT generic (stub)", via_pointer, stub, S_NATIVE},
		[S_HOP] = {"a bare jmp to the JIT generic", via_pointer, hop, S_NATIVE},
		[S_JIT] = {"JIT generic (its code, no stub)", via_pointer, spec_entry_load(entry),
			   S_NATIVE},
		[S_NATIVE_WORD] = {"native build (baseline)", via_word, &native_word,
				   S_NATIVE_WORD},
		[S_JIT_WORD] = {"JIT generic (direct entry)", via_word, entry, S_NATIVE_WORD},
	};
	size_t i;

	native_word = (void *)simple_hash_get;
	for (i = 0; i < COPIES; i++) {
		words[i] = copies[i].fn;
		s[S_COPY + i] = (struct bench_subject){"copy", via_pointer, copies[i].fn, S_NATIVE};
		s[S_WCOPY + i] = (struct bench_subject){"copy", via_word, &words[i], S_NATIVE_WORD};
	}
	fill(repeat);
	bench_interleave(s, S_ALL, ROUNDS, m->cyc, m->ratio);
	report(s, m, repeat);
}

/*
 * Copies at offsets 0..0x30 of a line: the first mapping anywhere, at the
 * start of a page; the second just below the program (near its callers),
 * at the native function's line in its page; the third anywhere, at the
 * JIT generic's line.
 */
static int make_copies(struct bench_code *copies, size_t len, const void *jit)
{
	uintptr_t line[PAGES] = {0, (uintptr_t)simple_hash_get & 0xfc0, (uintptr_t)jit & 0xfc0};
	const void *near[PAGES] = {NULL, (const void *)simple_hash_get, NULL};
	size_t i;
	int ret = 0;

	for (i = 0; !ret && i < COPIES; i++)
		ret = bench_code_copy(&copies[i], (const void *)simple_hash_get, len,
				      line[i / OFFS] + (i % OFFS) * 16, near[i / OFFS]);
	return ret;
}

int bench_hash(struct spec_runtime *rt)
{
	void *const *entry = spec_runtime__handler_entry(rt, "simple_hash_get");
	void *stub = spec_runtime__handler(rt, "simple_hash_get");
	size_t len = bench_code_size((const void *)simple_hash_get), i;
	struct bench_code copies[COPIES] = {0}, hop = {0};
	struct hash_runs *m = NULL;
	const void *jit;
	int ret;

	if (!entry || !stub) {
		ret = -errno;
		fprintf(stderr, "bench: no handler simple_hash_get: %s\n", strerror(-ret));
		return ret;
	}
	if (!len) {
		fprintf(stderr,
			"bench: no symbol size for simple_hash_get (link with -rdynamic)\n");
		return -ENOENT;
	}
	ret = bench_install(rt, "");
	if (ret)
		return ret;
	jit = spec_entry_load(entry); /* the generic function itself */
	printf("hash lookup (no point), 50%% full: %d rounds, each subject once in turn (reversed "
	       "every\nother round), %d calls after as many to warm up; median cycles per call "
	       "and median\nof the per-round ratios [10th..90th percentile]\n",
	       ROUNDS, CALLS);
	printf("  identical machine code: %s (%zu bytes); native at +0x%02x of its 64-byte line, "
	       "JIT generic at +0x%02x\n",
	       memcmp(jit, (const void *)simple_hash_get, len) ? "no" : "yes", len,
	       bench_line_off((const void *)simple_hash_get), bench_line_off(jit));
	m = malloc(sizeof(*m));
	ret = m ? make_copies(copies, len, jit) : -ENOMEM;
	/* The stub's hop alone: what the stub costs beyond its load and compare. */
	if (!ret)
		ret = bench_code_jmp(&hop, jit);
	if (!ret) {
		printf("1024 keys looked up in one order, over and over (the issue's workload)\n");
		measure(entry, stub, copies, hop.fn, true, m);
		printf("%d random draws of the 2048 keys: no order for a predictor to learn\n",
		       NKEYS);
		measure(entry, stub, copies, hop.fn, false, m);
	} else {
		fprintf(stderr, "bench: hash: %s\n", strerror(-ret));
	}
	for (i = 0; i < COPIES; i++)
		bench_code_free(&copies[i]);
	bench_code_free(&hop);
	free(m);
	return ret;
}
