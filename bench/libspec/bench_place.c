// SPDX-License-Identifier: GPL-2.0
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <link.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "bench_place.h"
#include "bench_util.h"

size_t bench_code_size(const void *fn)
{
	const ElfW(Sym) *sym = NULL;
	Dl_info info;

	if (!dladdr1(fn, &info, (void **)&sym, RTLD_DL_SYMENT) || !sym || info.dli_saddr != fn)
		return 0;
	return sym->st_size;
}

/* A fresh read-write mapping of @len bytes, from 1 MiB below @near down, or anywhere. */
static void *map_near(size_t len, size_t page, const void *near)
{
	uintptr_t at = ((uintptr_t)near & ~(uintptr_t)(page - 1)) - (1ul << 20);
	void *m;
	int i;

	for (i = 0; near && i < 256; i++, at -= 16 * page) {
		m = mmap((void *)at, len, PROT_READ | PROT_WRITE,
			 MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED_NOREPLACE, -1, 0);
		if (m != MAP_FAILED)
			return m;
	}
	return mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
}

int bench_code_copy(struct bench_code *c, const void *src, size_t len, size_t off, const void *near)
{
	size_t page = (size_t)sysconf(_SC_PAGESIZE);

	c->maplen = (off + len + page - 1) / page * page;
	c->map = map_near(c->maplen, page, near);
	if (c->map == MAP_FAILED) {
		c->map = NULL;
		return -errno;
	}
	/* int3 around the copy: a stray jump out of it traps at once. */
	memset(c->map, 0xcc, c->maplen);
	memcpy((char *)c->map + off, src, len);
	if (mprotect(c->map, c->maplen, PROT_READ | PROT_EXEC)) {
		int ret = -errno;

		bench_code_free(c);
		return ret;
	}
	c->fn = (char *)c->map + off;
	return 0;
}

int bench_code_jmp(struct bench_code *c, const void *target)
{
	size_t page = (size_t)sysconf(_SC_PAGESIZE);
	/* 1 MiB below the target's page: free in practice, and in reach. */
	uintptr_t hint = ((uintptr_t)target & ~(uintptr_t)(page - 1)) - (1ul << 20);
	unsigned char *p;
	int64_t rel;
	int32_t rel32;

	c->maplen = page;
	c->map = mmap((void *)hint, page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1,
		      0);
	if (c->map == MAP_FAILED) {
		c->map = NULL;
		return -errno;
	}
	p = c->map;
	rel = (int64_t)((uintptr_t)target - ((uintptr_t)p + 5));
	if (rel != (int32_t)rel) {
		bench_code_free(c);
		return -ERANGE;
	}
	rel32 = (int32_t)rel;
	memset(p, 0xcc, page);
	p[0] = 0xe9;
	memcpy(p + 1, &rel32, sizeof(rel32));
	if (mprotect(c->map, page, PROT_READ | PROT_EXEC)) {
		int ret = -errno;

		bench_code_free(c);
		return ret;
	}
	c->fn = p;
	return 0;
}

void bench_code_free(struct bench_code *c)
{
	if (c->map)
		munmap(c->map, c->maplen);
	c->map = NULL;
	c->fn = NULL;
}

void bench_interleave(const struct bench_subject *s, size_t n, size_t rounds, double *cyc,
		      double *ratio)
{
	size_t r, k, i;

	for (r = 0; r < rounds; r++) {
		for (k = 0; k < n; k++) {
			i = r % 2 ? n - 1 - k : k;
			s[i].run(s[i].arg); /* warm-up: the predictors learn this code */
			cyc[i * rounds + r] = s[i].run(s[i].arg);
		}
		for (i = 0; i < n; i++)
			ratio[i * rounds + r] = cyc[i * rounds + r] / cyc[s[i].base * rounds + r];
	}
}

void bench_ratio_of(const double *cyc, const double *ratio, size_t rounds, size_t i, double *tmp,
		    struct bench_ratio *out)
{
	out->cycles = bench_quantile(cyc + i * rounds, rounds, 0.5, tmp);
	out->ratio = bench_quantile(ratio + i * rounds, rounds, 0.5, tmp);
	out->p10 = bench_quantile(tmp, rounds, 0.1, tmp);
	out->p90 = bench_quantile(tmp, rounds, 0.9, tmp);
}
