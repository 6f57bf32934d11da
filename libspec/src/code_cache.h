/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The on-disk code cache: one file per compiled variant in a directory the
 * service names, found by the digest of its key and valid only when the
 * full key it stores equals the asker's and its payload checksum holds.
 * Files appear by rename (readers never see half a file), so any number of
 * processes share a directory; the total size is kept under a bound by
 * removing the least recently used files (a store that finds another
 * process trimming leaves the excess to it or to the next store). Knows nothing of LLVM: the
 * payload is opaque bytes.
 */
#ifndef LIBSPEC_CODE_CACHE_H
#define LIBSPEC_CODE_CACHE_H

#include <stddef.h>
#include <stdint.h>

#define CODE_CACHE_DEFAULT_MAX (64ull << 20)

struct code_cache;
struct libspec_log;

/*
 * Use directory @dir (created 0700 if missing, its parent must exist),
 * keeping at most @max_bytes of files (0: CODE_CACHE_DEFAULT_MAX); the
 * files it refuses or removes are reported to @log (the runtime's, which
 * outlives the cache). A directory another user could write into
 * (cache_trust.h) is not used: one line to @log, 0 and *@out NULL.
 * -errno and a message naming @dir when the file system fails.
 */
int code_cache_open(struct code_cache **out, const char *dir, uint64_t max_bytes,
		    const struct libspec_log *log, char *err, size_t errsz);
void code_cache_close(struct code_cache *cc);

/*
 * The payload stored under @key (malloc'd into *@payload, *@len bytes).
 * Returns 0, or -ENOENT (none), -ESTALE (a file for another key: a digest
 * collision or an older format), -EBADMSG (truncated or corrupt: removed,
 * so the next store replaces it), -EPERM (not trusted: a link, not a
 * regular file, another owner, writable by others, larger than the
 * bound; logged, left for the next store to replace), other -errno.
 */
int code_cache_load(struct code_cache *cc, const void *key, size_t key_len, void **payload,
		    size_t *len);

/*
 * Store @payload under @key (replacing any file there), then remove the
 * least recently used files while the directory holds more than its bound.
 * Returns 0, -EFBIG (larger than the bound alone) or -errno; the first
 * of a run of failures with one errno is logged.
 */
int code_cache_store(struct code_cache *cc, const void *key, size_t key_len, const void *payload,
		     size_t len);

/* The bytes of cache files in the directory now (for tests). */
uint64_t code_cache_usage(struct code_cache *cc);

#endif /* LIBSPEC_CODE_CACHE_H */
