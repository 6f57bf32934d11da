// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdint.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>
#include <linux/capability.h>

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

int knob_ddio_register(unsigned int sock, const char *mode)
{
	char path[128];
	int fd, err = 0;
	size_t len = strlen(mode);

	snprintf(path, sizeof(path), "/sys/kernel/debug/ioca/socket%u/ddio_register", sock);
	fd = open(path, O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	if (write(fd, mode, len) != (ssize_t)len)
		err = -errno;
	close(fd);
	return err;
}

int knob_read_int(const char *path, int *v)
{
	FILE *f = fopen(path, "re");
	int err = 0;

	if (!f)
		return -errno;
	if (fscanf(f, "%d", v) != 1)
		err = -EINVAL;
	fclose(f);
	return err;
}

int knob_keep_caps(unsigned long long caps)
{
	struct __user_cap_header_struct hdr = {.version = _LINUX_CAPABILITY_VERSION_3};
	struct __user_cap_data_struct data[2] = {0};

	data[0].effective = data[0].permitted = (uint32_t)caps;
	data[1].effective = data[1].permitted = (uint32_t)(caps >> 32);
	return syscall(SYS_capset, &hdr, data) ? -errno : 0;
}
