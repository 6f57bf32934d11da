// SPDX-License-Identifier: GPL-2.0
/* Thin wrappers: libc has no prototypes for the module syscalls. */
#include "kmod_load.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

const char *kmod_path(void)
{
	const char *p = getenv("IOCA_KO");

	return p && *p ? p : "/ioca/ioca.ko";
}

const char *kmod_default_params(void)
{
	const char *p = getenv("IOCA_KO_PARAMS");

	return p ? p : "emulate=1";
}

int kmod_load(const char *path, const char *params)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	long ret;
	int err;

	if (fd < 0)
		return -errno;
	ret = syscall(SYS_finit_module, fd, params, 0);
	err = ret ? -errno : 0;
	close(fd);
	return err;
}

int kmod_unload(const char *name, int ms)
{
	struct timespec ts = {.tv_nsec = 10 * 1000 * 1000};

	for (;;) {
		if (!syscall(SYS_delete_module, name, O_NONBLOCK))
			return 0;
		if (errno != EAGAIN && errno != EBUSY)
			return -errno;
		if (ms <= 0)
			return -EBUSY;
		nanosleep(&ts, NULL);
		ms -= 10;
	}
}

bool kmod_loaded(const char *name)
{
	char path[128];
	struct stat st;

	snprintf(path, sizeof(path), "/sys/module/%s", name);
	return stat(path, &st) == 0;
}

int kmod_reload(const char *extra)
{
	char params[128];
	int err = kmod_loaded("ioca") ? kmod_unload("ioca", 5000) : 0;

	if (err)
		return err;
	snprintf(params, sizeof(params), "%s %s", kmod_default_params(), extra);
	return kmod_load(kmod_path(), params);
}
