// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <unistd.h>

#include "knobs.h"

int knob_cpu_online(int cpu, int on)
{
	char path[96];
	int fd, err = 0;

	snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpu%d/online", cpu);
	fd = open(path, O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	if (write(fd, on ? "1" : "0", 1) != 1)
		err = -errno;
	close(fd);
	return err;
}

int knob_socket_rate(unsigned int sock, const char *file, unsigned long long rate)
{
	char path[128];
	FILE *f;
	int err;

	snprintf(path, sizeof(path), "/sys/kernel/debug/ioca/socket%u/%s", sock, file);
	f = fopen(path, "w");
	if (!f)
		return -errno;
	err = fprintf(f, "%llu\n", rate) < 0 ? -EIO : 0;
	if (fclose(f))
		err = -errno;
	return err;
}
