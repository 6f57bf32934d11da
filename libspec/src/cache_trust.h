/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the code cache may trust: a directory, and files in it, that the
 * process's effective user owns and no one else can write, reached through
 * directories that only root or that user can change (sticky ones such as
 * /tmp included, whose entries others cannot rename or remove). Anything
 * else could hand the service code another user wrote.
 */
#ifndef LIBSPEC_CACHE_TRUST_H
#define LIBSPEC_CACHE_TRUST_H

#include <stddef.h>
#include <stdint.h>
#include <sys/stat.h>

/* Returned (positive) when the file system worked but trust was refused. */
#define CACHE_UNTRUSTED 1

/*
 * Open @dir (created with mode 0700 when missing; its parent must exist)
 * as a directory descriptor into *@dirfd, its path with symbolic links of
 * the parent resolved into @path. 0; CACHE_UNTRUSTED with the reason in
 * @why; or -errno with a message in @why.
 */
int cache_trust_open_dir(const char *dir, int *dirfd, char *path, size_t pathsz, char *why,
			 size_t whysz);

/*
 * Open entry @name of @dirfd for reading, never following a symbolic link
 * or blocking on a FIFO: a regular file of the effective user, writable by
 * no one else, of at most @max bytes (its status in *@st). The descriptor;
 * -ENOENT when there is none; -EPERM with the reason in @why when it is
 * not trusted; other -errno.
 */
int cache_trust_open_entry(int dirfd, const char *name, uint64_t max, struct stat *st, char *why,
			   size_t whysz);

#endif /* LIBSPEC_CACHE_TRUST_H */
