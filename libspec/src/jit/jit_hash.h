/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A cryptographic digest (LLVM's BLAKE3) for the code cache's keys and
 * payload checksums, behind plain C so callers need no LLVM headers.
 */
#ifndef LIBSPEC_JIT_HASH_H
#define LIBSPEC_JIT_HASH_H

#include <stddef.h>
#include <stdint.h>

#define JIT_DIGEST_LEN 32

struct jit_hasher;

/* Incremental: new, update any number of times, then final (frees it). */
struct jit_hasher *jit_hasher_new(void);
void jit_hasher_update(struct jit_hasher *h, const void *p, size_t n);
void jit_hasher_final(struct jit_hasher *h, uint8_t out[JIT_DIGEST_LEN]);

/* One buffer's digest. */
void jit_digest(const void *p, size_t n, uint8_t out[JIT_DIGEST_LEN]);
/* @len hex digits of @d (@len <= 2 * JIT_DIGEST_LEN) and a NUL into @hex. */
void jit_digest_hex(const uint8_t d[JIT_DIGEST_LEN], char *hex, size_t len);

#endif /* LIBSPEC_JIT_HASH_H */
