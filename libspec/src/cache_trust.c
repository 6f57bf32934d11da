// SPDX-License-Identifier: GPL-2.0
/*
 * Every check is made on an open descriptor (fstat), and each directory is
 * opened relative to the one checked before it without following links, so
 * nothing can be swapped between a check and the use it allows.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cache_trust.h"

static bool others_write(mode_t m)
{
	return m & (S_IWGRP | S_IWOTH);
}

/* An ancestor: changed only by root or us; shared ones must be sticky. */
static int check_parent(int fd, const char *path, char *why, size_t whysz)
{
	uid_t me = geteuid();
	struct stat st;

	if (fstat(fd, &st)) {
		snprintf(why, whysz, "%s: %s", path, strerror(errno));
		return -errno;
	}
	if (st.st_uid && st.st_uid != me) {
		snprintf(why, whysz, "its parent %s is owned by uid %u (neither root nor %u)", path,
			 (unsigned int)st.st_uid, (unsigned int)me);
		return CACHE_UNTRUSTED;
	}
	if (others_write(st.st_mode) && !(st.st_mode & S_ISVTX)) {
		snprintf(why, whysz,
			 "its parent %s is writable by group or others without the sticky bit "
			 "(mode %04o)",
			 path, (unsigned int)(st.st_mode & 07777));
		return CACHE_UNTRUSTED;
	}
	return 0;
}

/* Open the resolved absolute directory @real component by component. */
static int open_parent(const char *real, int *out, char *why, size_t whysz)
{
	char walked[PATH_MAX] = "/", *copy = strdup(real), *c, *save = NULL;
	int fd = open("/", O_PATH | O_DIRECTORY | O_CLOEXEC), nfd, ret = 0;

	if (!copy || fd < 0) {
		ret = copy ? -errno : -ENOMEM;
		snprintf(why, whysz, "/: %s", strerror(-ret));
		goto out;
	}
	ret = check_parent(fd, walked, why, whysz);
	for (c = strtok_r(copy, "/", &save); !ret && c; c = strtok_r(NULL, "/", &save)) {
		nfd = openat(fd, c, O_PATH | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
		snprintf(walked + strlen(walked), sizeof(walked) - strlen(walked), "%s%s",
			 walked[1] ? "/" : "", c);
		if (nfd < 0) {
			/* Resolved a moment ago: a link now means someone replaced it. */
			ret = errno == ELOOP ? CACHE_UNTRUSTED : -errno;
			snprintf(why, whysz, "%s: %s", walked,
				 errno == ELOOP ? "became a symbolic link" : strerror(errno));
			break;
		}
		close(fd);
		fd = nfd;
		ret = check_parent(fd, walked, why, whysz);
	}
out:
	free(copy);
	if (ret && fd >= 0)
		close(fd);
	else
		*out = fd;
	return ret;
}

/* The cache directory itself: ours, written by no one else. */
static int check_own_dir(int fd, char *why, size_t whysz)
{
	uid_t me = geteuid();
	struct stat st;

	if (fstat(fd, &st)) {
		snprintf(why, whysz, "%s", strerror(errno));
		return -errno;
	}
	if (st.st_uid != me) {
		snprintf(why, whysz, "owned by uid %u, not %u", (unsigned int)st.st_uid,
			 (unsigned int)me);
		return CACHE_UNTRUSTED;
	}
	if (others_write(st.st_mode)) {
		snprintf(why, whysz, "writable by group or others (mode %04o)",
			 (unsigned int)(st.st_mode & 07777));
		return CACHE_UNTRUSTED;
	}
	return 0;
}

/* @dir's parent, resolved, into @parent and its last component into @name. */
static int split(const char *dir, char *parent, size_t psz, char *name, size_t nsz, char *why,
		 size_t whysz)
{
	char *copy = strdup(dir), *slash, *real = NULL;
	size_t n;
	int ret = 0;

	if (!copy)
		return -ENOMEM;
	for (n = strlen(copy); n > 1 && copy[n - 1] == '/'; n--)
		copy[n - 1] = '\0';
	slash = strrchr(copy, '/');
	snprintf(name, nsz, "%s", slash ? slash + 1 : copy);
	if (slash)
		*slash = '\0';
	errno = 0;
	if (!slash || slash == copy)
		real = slash ? strdup("/") : realpath(".", NULL);
	else
		real = realpath(copy, NULL);
	if (!real || !*name || !strcmp(name, ".") || !strcmp(name, "..")) {
		ret = real ? -EINVAL : errno ? -errno : -ENOMEM;
		snprintf(why, whysz, "%s", real ? "not a directory's name" : strerror(-ret));
	} else {
		snprintf(parent, psz, "%s", real);
	}
	free(real);
	free(copy);
	return ret;
}

int cache_trust_open_dir(const char *dir, int *dirfd, char *path, size_t pathsz, char *why,
			 size_t whysz)
{
	char parent[PATH_MAX], name[NAME_MAX + 1];
	struct stat st;
	int pfd = -1, fd, ret;

	*dirfd = -1;
	snprintf(path, pathsz, "%s", dir);
	ret = split(dir, parent, sizeof(parent), name, sizeof(name), why, whysz);
	if (ret)
		return ret;
	snprintf(path, pathsz, "%s%s%s", parent, parent[1] ? "/" : "", name);
	ret = open_parent(parent, &pfd, why, whysz);
	if (ret)
		return ret;
	/* In the checked parent; it may find a directory someone else made. */
	if (mkdirat(pfd, name, 0700) && errno != EEXIST) {
		ret = -errno;
		snprintf(why, whysz, "%s", strerror(errno));
		close(pfd);
		return ret;
	}
	fd = openat(pfd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0) {
		ret = -errno;
		if (!fstatat(pfd, name, &st, AT_SYMLINK_NOFOLLOW) && S_ISLNK(st.st_mode)) {
			snprintf(why, whysz, "a symbolic link");
			ret = CACHE_UNTRUSTED;
		} else {
			snprintf(why, whysz, "%s", strerror(-ret));
		}
	} else {
		ret = check_own_dir(fd, why, whysz);
	}
	close(pfd);
	if (ret && fd >= 0)
		close(fd);
	else if (!ret)
		*dirfd = fd;
	return ret;
}

int cache_trust_open_entry(int dirfd, const char *name, uint64_t max, struct stat *st, char *why,
			   size_t whysz)
{
	uid_t me = geteuid();
	int fd = openat(dirfd, name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC), ret;

	if (fd < 0) {
		ret = -errno;
		snprintf(why, whysz, "%s", ret == -ELOOP ? "a symbolic link" : strerror(-ret));
		return ret == -ELOOP ? -EPERM : ret;
	}
	ret = fstat(fd, st) ? -errno : 0;
	if (ret)
		snprintf(why, whysz, "%s", strerror(-ret));
	else if (!S_ISREG(st->st_mode))
		snprintf(why, whysz, "not a regular file (mode %06o)", (unsigned int)st->st_mode);
	else if (st->st_uid != me)
		snprintf(why, whysz, "owned by uid %u, not %u", (unsigned int)st->st_uid,
			 (unsigned int)me);
	else if (others_write(st->st_mode))
		snprintf(why, whysz, "writable by group or others (mode %04o)",
			 (unsigned int)(st->st_mode & 07777));
	else if ((uint64_t)st->st_size > max)
		snprintf(why, whysz, "%llu bytes, more than the %llu an entry may have",
			 (unsigned long long)st->st_size, (unsigned long long)max);
	else
		return fd;
	close(fd);
	return ret ? ret : -EPERM;
}
