// SPDX-License-Identifier: GPL-2.0
/* BLAKE3 as libLLVM exports it: no extra dependency for a strong digest. */
#include <llvm-c/blake3.h>
#include <stdlib.h>

#include "jit/jit_hash.h"

struct jit_hasher {
	llvm_blake3_hasher h;
};

struct jit_hasher *jit_hasher_new(void)
{
	struct jit_hasher *h = malloc(sizeof(*h));

	if (h)
		llvm_blake3_hasher_init(&h->h);
	return h;
}

void jit_hasher_update(struct jit_hasher *h, const void *p, size_t n)
{
	llvm_blake3_hasher_update(&h->h, p, n);
}

void jit_hasher_final(struct jit_hasher *h, uint8_t out[JIT_DIGEST_LEN])
{
	llvm_blake3_hasher_finalize(&h->h, out, JIT_DIGEST_LEN);
	free(h);
}

void jit_digest(const void *p, size_t n, uint8_t out[JIT_DIGEST_LEN])
{
	llvm_blake3_hasher h;

	llvm_blake3_hasher_init(&h);
	llvm_blake3_hasher_update(&h, p, n);
	llvm_blake3_hasher_finalize(&h, out, JIT_DIGEST_LEN);
}

void jit_digest_hex(const uint8_t d[JIT_DIGEST_LEN], char *hex, size_t len)
{
	static const char digits[] = "0123456789abcdef";
	size_t i;

	for (i = 0; i < len && i < 2 * JIT_DIGEST_LEN; i++)
		hex[i] = digits[(d[i / 2] >> (i % 2 ? 0 : 4)) & 0xf];
	hex[i] = '\0';
}
