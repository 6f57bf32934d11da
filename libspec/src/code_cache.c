// SPDX-License-Identifier: GPL-2.0
/*
 * File format (host byte order; the key names the host's triple, so a file
 * is never read on a machine of another order): a fixed header, the full
 * key, the payload. The name is the key's digest; the key inside is what
 * decides, so a name collision is a miss, not foreign code.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "cache_trust.h"
#include "code_cache.h"
#include "jit/jit_hash.h"
#include "log.h"

#define CC_MAGIC "LSPCODE"
#define CC_FORMAT 1
#define CC_SUFFIX ".spo"
#define CC_NAME_HEX 40
/* A writer that died leaves its temporary file; older ones are removed. */
#define CC_STALE_TMP_S 600
/* No entry is larger than this, or than the directory's bound. */
#define CC_MAX_FILE (1ull << 30)
/* Temporary names tried before a store gives up. */
#define CC_TMP_TRIES 16

struct cc_header {
	char magic[8];
	uint32_t format;
	uint32_t key_len;
	uint64_t payload_len;
	uint8_t payload_digest[JIT_DIGEST_LEN];
};

struct code_cache {
	int dirfd;
	uint64_t max_bytes;
	char *dir; /* for messages: every access is relative to dirfd */
	const struct libspec_log *log;
	/* The last store's -errno (0: stored): a full or read-only disk
	 * fails every store, which is said once, not once per variant.
	 */
	_Atomic int store_err;
};

struct cc_file {
	char name[CC_NAME_HEX + sizeof(CC_SUFFIX)];
	struct timespec mtime;
	uint64_t size;
};

int code_cache_open(struct code_cache **out, const char *dir, uint64_t max_bytes,
		    const struct libspec_log *log, char *err, size_t errsz)
{
	char path[PATH_MAX], why[PATH_MAX + 128];
	struct code_cache *cc;
	int fd, ret;

	*out = NULL;
	ret = cache_trust_open_dir(dir, &fd, path, sizeof(path), why, sizeof(why));
	if (ret == CACHE_UNTRUSTED) {
		pr_warn(log, "code cache %s: not used, %s; variants are compiled", path, why);
		return 0;
	}
	if (ret) {
		snprintf(err, errsz, "code cache directory %s: %s", path, why);
		return ret;
	}
	cc = calloc(1, sizeof(*cc));
	if (!cc || !(cc->dir = strdup(path))) {
		free(cc);
		close(fd);
		snprintf(err, errsz, "out of memory");
		return -ENOMEM;
	}
	cc->dirfd = fd;
	cc->log = log;
	cc->max_bytes = max_bytes ? max_bytes : CODE_CACHE_DEFAULT_MAX;
	*out = cc;
	return 0;
}

void code_cache_close(struct code_cache *cc)
{
	if (!cc)
		return;
	close(cc->dirfd);
	free(cc->dir);
	free(cc);
}

static void file_name(const void *key, size_t key_len, char *name)
{
	uint8_t d[JIT_DIGEST_LEN];

	jit_digest(key, key_len, d);
	jit_digest_hex(d, name, CC_NAME_HEX);
	strcat(name, CC_SUFFIX);
}

static int read_all(int fd, void *buf, size_t n)
{
	size_t done = 0;

	while (done < n) {
		ssize_t r = read(fd, (char *)buf + done, n - done);

		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			return r < 0 ? -errno : -EBADMSG;
		done += (size_t)r;
	}
	return 0;
}

static int write_all(int fd, const void *buf, size_t n)
{
	size_t done = 0;

	while (done < n) {
		ssize_t r = write(fd, (const char *)buf + done, n - done);

		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0)
			return -errno;
		done += (size_t)r;
	}
	return 0;
}

/* Checks the header and key of the file's bytes at @buf; 0 or -errno. */
static int check_file(const uint8_t *buf, size_t size, const void *key, size_t key_len)
{
	const struct cc_header *h = (const void *)buf;
	uint8_t d[JIT_DIGEST_LEN];

	if (size < sizeof(*h) || memcmp(h->magic, CC_MAGIC, sizeof(CC_MAGIC)))
		return -EBADMSG;
	if (h->format != CC_FORMAT || h->key_len != key_len ||
	    memcmp(buf + sizeof(*h), key, key_len))
		return -ESTALE;
	if (h->payload_len != size - sizeof(*h) - key_len)
		return -EBADMSG;
	jit_digest(buf + sizeof(*h) + key_len, h->payload_len, d);
	return memcmp(d, h->payload_digest, sizeof(d)) ? -EBADMSG : 0;
}

/*
 * Remove the corrupt file @name that @bad (its fstat, the file still open)
 * describes, and only that file: another process may have renamed a fresh
 * entry over it since it was read, and unlinking the name would delete
 * that one. So the name is first renamed to a private one (atomic: what
 * is moved is whatever the name held then), and the moved file is unlinked
 * only if it is @bad's inode (which cannot be reused while open); a fresh
 * one goes back by link, which never replaces an entry stored meanwhile
 * (then the newer one stays and the moved copy is dropped). Between the
 * two, a reader misses and compiles, as for any missing entry. The private
 * name never replaces a file of that name either: a process of the same
 * pid in another pid namespace may be using it for an entry it moved
 * aside. Returns 1 when @bad was removed, 0 when another process removed
 * or replaced it, -errno when it could not be moved (e.g. -EROFS).
 */
static int remove_corrupt(struct code_cache *cc, const char *name, const struct stat *bad)
{
	static _Atomic unsigned int seq;
	char aside[64];
	struct stat st;
	int i, r = -EEXIST;

	for (i = 0; i < CC_TMP_TRIES && r == -EEXIST; i++) {
		snprintf(aside, sizeof(aside), ".tmp-bad-%d-%u", (int)getpid(),
			 atomic_fetch_add(&seq, 1));
		r = renameat2(cc->dirfd, name, cc->dirfd, aside, RENAME_NOREPLACE) ? -errno : 0;
		/* a file system without RENAME_NOREPLACE: the pid's name alone */
		if (r == -EINVAL)
			r = renameat(cc->dirfd, name, cc->dirfd, aside) ? -errno : 0;
	}
	if (r)
		return r == -ENOENT ? 0 : r;
	if (!fstatat(cc->dirfd, aside, &st, AT_SYMLINK_NOFOLLOW) && st.st_dev == bad->st_dev &&
	    st.st_ino == bad->st_ino) {
		unlinkat(cc->dirfd, aside, 0);
		return 1;
	}
	if (linkat(cc->dirfd, aside, cc->dirfd, name, 0) && errno != EEXIST)
		pr_warn(cc->log, "code cache %s/%s: a fresh entry could not be put back: %s",
			cc->dir, name, strerror(errno));
	unlinkat(cc->dirfd, aside, 0);
	return 0;
}

int code_cache_load(struct code_cache *cc, const void *key, size_t key_len, void **payload,
		    size_t *len)
{
	char name[CC_NAME_HEX + sizeof(CC_SUFFIX)];
	uint64_t max = cc->max_bytes < CC_MAX_FILE ? cc->max_bytes : CC_MAX_FILE;
	char why[128];
	const struct cc_header *h;
	struct stat st;
	uint8_t *buf;
	int fd, ret, rm;

	*payload = NULL;
	*len = 0;
	file_name(key, key_len, name);
	fd = cache_trust_open_entry(cc->dirfd, name, max, &st, why, sizeof(why));
	if (fd == -EPERM)
		/* Not removed: the store that follows renames over it. */
		pr_warn(cc->log, "code cache %s/%s: refused, %s; compiling the variant", cc->dir,
			name, why);
	if (fd < 0)
		return fd;
	ret = -EBADMSG;
	if ((size_t)st.st_size < sizeof(*h) + key_len)
		goto out_bad;
	buf = malloc((size_t)st.st_size);
	if (!buf) {
		ret = -ENOMEM;
		goto out_fd;
	}
	ret = read_all(fd, buf, (size_t)st.st_size);
	if (!ret)
		ret = check_file(buf, (size_t)st.st_size, key, key_len);
	if (ret) {
		free(buf);
		if (ret == -EBADMSG)
			goto out_bad;
		goto out_fd;
	}
	/* Recently used: the eviction order is by modification time. */
	futimens(fd, NULL);
	h = (const void *)buf;
	*len = h->payload_len;
	memmove(buf, buf + sizeof(*h) + key_len, *len);
	*payload = buf;
	close(fd);
	return 0;
out_bad:
	rm = remove_corrupt(cc, name, &st);
	pr_warn(cc->log, "code cache %s/%s: truncated or corrupt, %s%s", cc->dir, name,
		rm > 0 ? "removed"
		: !rm  ? "already removed or replaced by another process"
		       : "not removed: ",
		rm < 0 ? strerror(-rm) : "");
out_fd:
	close(fd);
	return ret;
}

static int cmp_age(const void *a, const void *b)
{
	const struct cc_file *x = a, *y = b;

	if (x->mtime.tv_sec != y->mtime.tv_sec)
		return x->mtime.tv_sec < y->mtime.tv_sec ? -1 : 1;
	if (x->mtime.tv_nsec != y->mtime.tv_nsec)
		return x->mtime.tv_nsec < y->mtime.tv_nsec ? -1 : 1;
	return strcmp(x->name, y->name);
}

static bool is_cache_file(const char *name)
{
	size_t n = strlen(name);

	return n == CC_NAME_HEX + strlen(CC_SUFFIX) && !strcmp(name + CC_NAME_HEX, CC_SUFFIX);
}

/*
 * The directory's cache files (and stale temporaries removed on the way);
 * *@total their bytes. The caller frees *@files.
 */
static int scan(struct code_cache *cc, struct cc_file **files, size_t *nr, uint64_t *total)
{
	int fd = openat(cc->dirfd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	DIR *d = fd >= 0 ? fdopendir(fd) : NULL;
	struct cc_file *v = NULL, *nv;
	size_t n = 0, cap = 0;
	struct dirent *e;
	time_t now = time(NULL);
	struct stat st;

	*total = 0;
	if (!d) {
		if (fd >= 0)
			close(fd);
		return -errno;
	}
	while ((e = readdir(d))) {
		if (fstatat(cc->dirfd, e->d_name, &st, AT_SYMLINK_NOFOLLOW) || !S_ISREG(st.st_mode))
			continue;
		if (!strncmp(e->d_name, ".tmp-", 5)) {
			if (now - st.st_mtime > CC_STALE_TMP_S)
				unlinkat(cc->dirfd, e->d_name, 0);
			continue;
		}
		if (!is_cache_file(e->d_name))
			continue;
		if (n == cap) {
			cap = cap ? 2 * cap : 32;
			nv = realloc(v, cap * sizeof(*v));
			if (!nv) {
				free(v);
				closedir(d);
				return -ENOMEM;
			}
			v = nv;
		}
		snprintf(v[n].name, sizeof(v[n].name), "%s", e->d_name);
		v[n].mtime = st.st_mtim;
		v[n].size = (uint64_t)st.st_size;
		*total += v[n].size;
		n++;
	}
	closedir(d);
	*files = v;
	*nr = n;
	return 0;
}

uint64_t code_cache_usage(struct code_cache *cc)
{
	struct cc_file *files = NULL;
	uint64_t total = 0;
	size_t n;

	if (!scan(cc, &files, &n, &total))
		free(files);
	return total;
}

/* Least recently used first, under an exclusive lock so that two
 * processes trimming at once do not both remove files for the same excess.
 * A held lock is not waited for: its holder may be stopped (a debugger,
 * SIGSTOP) and a store must not hang on it; the holder, or the next
 * store, trims.
 */
static int evict(struct code_cache *cc, const char *keep)
{
	int lock = openat(cc->dirfd, ".lock",
			  O_RDWR | O_CREAT | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC, 0600);
	struct cc_file *files = NULL;
	uint64_t total;
	size_t n, i;
	int ret;

	if (lock < 0)
		return -errno;
	if (flock(lock, LOCK_EX | LOCK_NB)) {
		ret = errno == EWOULDBLOCK ? 0 : -errno;
		close(lock);
		return ret;
	}
	ret = scan(cc, &files, &n, &total);
	if (!ret && total > cc->max_bytes) {
		qsort(files, n, sizeof(*files), cmp_age);
		for (i = 0; i < n && total > cc->max_bytes; i++) {
			if (!strcmp(files[i].name, keep))
				continue;
			if (!unlinkat(cc->dirfd, files[i].name, 0) || errno == ENOENT)
				total -= files[i].size;
		}
	}
	free(files);
	close(lock); /* drops the lock */
	return ret;
}

/* A new temporary file of the directory, its name into @tmp; fd or -errno. */
static int open_tmp(struct code_cache *cc, char *tmp, size_t size)
{
	static _Atomic unsigned int seq;
	struct timespec ts;
	int i, fd = -EEXIST;

	for (i = 0; i < CC_TMP_TRIES && fd == -EEXIST; i++) {
		clock_gettime(CLOCK_MONOTONIC, &ts);
		snprintf(tmp, size, ".tmp-%d-%u-%lx", (int)getpid(), atomic_fetch_add(&seq, 1),
			 (unsigned long)ts.tv_nsec);
		fd = openat(cc->dirfd, tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC,
			    0600);
		if (fd < 0)
			fd = -errno;
	}
	return fd;
}

static int store_file(struct code_cache *cc, const void *key, size_t key_len, const void *payload,
		      size_t len)
{
	char name[CC_NAME_HEX + sizeof(CC_SUFFIX)], tmp[64];
	struct cc_header h = {.format = CC_FORMAT, .payload_len = len};
	int fd, ret;

	if (sizeof(h) + key_len + len > cc->max_bytes || key_len > UINT32_MAX)
		return -EFBIG;
	memcpy(h.magic, CC_MAGIC, sizeof(CC_MAGIC));
	h.key_len = (uint32_t)key_len;
	jit_digest(payload, len, h.payload_digest);
	file_name(key, key_len, name);
	fd = open_tmp(cc, tmp, sizeof(tmp));
	if (fd < 0)
		return fd;
	ret = write_all(fd, &h, sizeof(h));
	if (!ret)
		ret = write_all(fd, key, key_len);
	if (!ret)
		ret = write_all(fd, payload, len);
	if (close(fd) && !ret)
		ret = -errno;
	if (!ret && renameat(cc->dirfd, tmp, cc->dirfd, name))
		ret = -errno;
	if (ret)
		unlinkat(cc->dirfd, tmp, 0);
	return ret ? ret : evict(cc, name);
}

int code_cache_store(struct code_cache *cc, const void *key, size_t key_len, const void *payload,
		     size_t len)
{
	int ret = store_file(cc, key, key_len, payload, len);

	if (atomic_exchange(&cc->store_err, ret) != ret && ret)
		pr_warn(cc->log,
			"code cache %s: variants not stored: %s (counted in disk_store_failures; "
			"said again after a store succeeds)",
			cc->dir, strerror(-ret));
	return ret;
}
