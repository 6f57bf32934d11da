// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench_hash.h"
#include "bench_place.h"
#include "bench_util.h"
#include "handlers/simple.h"

#define CALLS 100000 /* per measurement */
#define ROUNDS 101
#define PAGES 3 /* placement control: fresh mappings ... */
#define OFFS 4	/* ... times offsets 0, 0x10, 0x20, 0x30 of a line */
#define COPIES (PAGES * OFFS)

typedef long (*hash_fn)(const struct simple_htab *, unsigned long);

static struct simple_htab htab;
static unsigned long hkeys[1024];
static volatile long sink;

/* Half full, keys looked up in a fixed shuffled order (all present). */
static void fill(void)
{
	unsigned long k = 12345;
	size_t i, n = 0;

	memset(&htab, 0, sizeof(htab));
	while (n < SIMPLE_HTAB_SIZE / 2) {
		unsigned long slot;

		k = k * 6364136223846793005ul + 1442695040888963407ul;
		slot = ((k | 1) * 0x9e3779b97f4a7c15ul) >> (64 - SIMPLE_HTAB_BITS);
		while (htab.keys[slot] && htab.keys[slot] != (k | 1))
			slot = (slot + 1) & (SIMPLE_HTAB_SIZE - 1);
		if (htab.keys[slot])
			continue;
		htab.keys[slot] = k | 1;
		htab.vals[slot] = (long)n;
		if (n < 1024)
			hkeys[n] = k | 1;
		n++;
	}
	for (i = 0; i < 1024; i++) {
		size_t j = (i * 7919) & 1023;
		unsigned long t = hkeys[i];

		hkeys[i] = hkeys[j];
		hkeys[j] = t;
	}
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
		acc += g(&htab, hkeys[i & 1023]);
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
		acc += ((hash_fn)spec_entry_load(word))(&htab, hkeys[i & 1023]);
	t0 = bench_cycles() - t0;
	sink = acc;
	return (double)t0 / CALLS;
}

enum { S_NATIVE, S_STUB, S_JIT, S_NATIVE_WORD, S_JIT_WORD, S_COPY };

static void row(const char *what, const double *cyc, size_t i, size_t base, double *tmp,
		const char *ref, struct bench_ratio *out)
{
	struct bench_ratio r;

	bench_ratio_of(cyc, ROUNDS, i, base, tmp, &r);
	printf("  %-36s %7.2f %8.2fx  [%.2f..%.2f]  %s\n", what, r.cycles, r.ratio, r.p10, r.p90,
	       ref);
	if (out)
		*out = r;
}

/* Byte comparison of the JIT's generic code with the native function. */
static void compare_code(const void *jit, size_t len)
{
	printf("  identical machine code: %s (%zu bytes); native at +0x%02x of its 64-byte line, "
	       "JIT generic at +0x%02x\n",
	       memcmp(jit, (const void *)simple_hash_get, len) ? "no" : "yes", len,
	       bench_line_off((const void *)simple_hash_get), bench_line_off(jit));
}

/* Per-round ratios of identical code move by about this much: call it even. */
#define SAME 0.02

static const char *where(double x, double lo, double hi)
{
	return x < lo - SAME ? "under" : x > hi + SAME ? "above" : "within";
}

static int measure(void *const *entry, void *stub, const struct bench_code *copies, double *cyc,
		   double *tmp)
{
	static void *native_word;
	struct bench_subject s[S_COPY + COPIES] = {
		[S_NATIVE] = {"native build (baseline)", via_pointer,
			      (const void *)simple_hash_get},
		[S_STUB] = {"JIT generic (stub)", via_pointer, stub},
		[S_JIT] = {"JIT generic (its code, no stub)", via_pointer, spec_entry_load(entry)},
		[S_NATIVE_WORD] = {"native build (baseline)", via_word, &native_word},
		[S_JIT_WORD] = {"JIT generic (direct entry)", via_word, entry},
	};
	struct bench_ratio r, jit, word, lo, hi, same = {0};
	char what[64];
	size_t i;

	native_word = (void *)simple_hash_get;
	for (i = 0; i < COPIES; i++)
		s[S_COPY + i] = (struct bench_subject){"copy", via_pointer, copies[i].fn};
	bench_interleave(s, S_COPY + COPIES, ROUNDS, cyc);

	printf("  %-36s %7s %9s  %-12s  %s\n", "through a function pointer", "cycles", "/native",
	       "[p10..p90]", "reference");
	/* The native build is one placement of its bytes: the spread starts there. */
	row(s[S_NATIVE].what, cyc, S_NATIVE, S_NATIVE, tmp, "", &lo);
	hi = lo;
	row(s[S_STUB].what, cyc, S_STUB, S_NATIVE, tmp,
	    "issue: 75 vs 57 native (1.32x), must be <= native", NULL);
	row(s[S_JIT].what, cyc, S_JIT, S_NATIVE, tmp, "", &jit);
	printf("  the pointer read before each call (spec_runtime__handler_entry())\n");
	row(s[S_NATIVE_WORD].what, cyc, S_NATIVE_WORD, S_NATIVE_WORD, tmp, "", NULL);
	row(s[S_JIT_WORD].what, cyc, S_JIT_WORD, S_NATIVE_WORD, tmp, "issue: must be <= native",
	    &word);
	printf("  placement control: native's bytes copied to fresh executable memory\n");
	for (i = 0; i < COPIES; i++) {
		snprintf(what, sizeof(what), "native copy, mapping %zu, line +0x%02x", i / OFFS + 1,
			 bench_line_off(copies[i].fn));
		row(what, cyc, S_COPY + i, S_NATIVE, tmp, "", &r);
		lo = r.ratio < lo.ratio ? r : lo;
		hi = r.ratio > hi.ratio ? r : hi;
		if (bench_line_off(copies[i].fn) == bench_line_off(s[S_JIT].arg)) {
			same.ratio += r.ratio / PAGES;
			same.cycles += r.cycles / PAGES;
		}
	}
	printf("  native's own placement spread (the build and its %d copies): %.2fx..%.2fx "
	       "(%.2f..%.2f cycles)\n",
	       COPIES, lo.ratio, hi.ratio, lo.cycles, hi.cycles);
	printf("  native's copies at the JIT generic's line offset +0x%02x: %.2fx (%.2f cycles)\n",
	       bench_line_off(s[S_JIT].arg), same.ratio, same.cycles);
	printf("  verdict: JIT generic (no stub) %.2fx is %s native's placement spread "
	       "(%.2fx at the same offset); through the entry word %.2fx\n",
	       jit.ratio, where(jit.ratio, lo.ratio, hi.ratio), jit.ratio / same.ratio, word.ratio);
	return 0;
}

int bench_hash(struct spec_runtime *rt)
{
	void *const *entry = spec_runtime__handler_entry(rt, "simple_hash_get");
	void *stub = spec_runtime__handler(rt, "simple_hash_get");
	size_t len = bench_code_size((const void *)simple_hash_get), i;
	struct bench_code copies[COPIES] = {0};
	double *cyc = NULL, *tmp = NULL;
	int ret;

	if (!entry || !stub) {
		fprintf(stderr, "bench: no handler simple_hash_get: %s\n", strerror(errno));
		return -errno;
	}
	if (!len) {
		fprintf(stderr,
			"bench: no symbol size for simple_hash_get (link with -rdynamic)\n");
		return -ENOENT;
	}
	ret = bench_install(rt, "");
	if (ret)
		return ret;
	fill();
	printf("hash lookup (no point), 50%% full: %d interleaved rounds x %d calls, median "
	       "cycles per call\nand median of the per-round ratios [10th..90th percentile]\n",
	       ROUNDS, CALLS);
	compare_code(spec_entry_load(entry), len);
	cyc = calloc((S_COPY + COPIES) * ROUNDS, sizeof(*cyc));
	tmp = calloc(ROUNDS, sizeof(*tmp));
	ret = cyc && tmp ? 0 : -ENOMEM;
	for (i = 0; !ret && i < COPIES; i++)
		ret = bench_code_copy(&copies[i], (const void *)simple_hash_get, len,
				      (i % OFFS) * 16);
	if (!ret)
		ret = measure(entry, stub, copies, cyc, tmp);
	else
		fprintf(stderr, "bench: hash: %s\n", strerror(-ret));
	for (i = 0; i < COPIES; i++)
		bench_code_free(&copies[i]);
	free(cyc);
	free(tmp);
	return ret;
}
