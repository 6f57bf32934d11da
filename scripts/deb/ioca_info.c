// SPDX-License-Identifier: GPL-2.0
/*
 * A libioca client as a user of the libioca-dev package writes it: built by
 * scripts/deb/test.sh with the installed header and pkg-config file, and
 * run in the test guest against the packaged libioca.so.0. Prints one line
 * per socket, "socket ID mask 0xMASK ways N", after "backend NAME".
 */
#include <errno.h>
#include <stdio.h>
#include <libioca.h>

int main(void)
{
	struct ioca_info info;
	struct ioca_client *c;
	int err;

	c = ioca_client__open(NULL);
	if (!c) {
		fprintf(stderr, "ioca_info: ioca_client__open: %s\n", strerror(errno));
		return 1;
	}
	err = ioca_client__info(c, &info);
	ioca_client__close(c);
	if (err) {
		fprintf(stderr, "ioca_info: ioca_client__info: %s\n", strerror(-err));
		return 1;
	}
	printf("backend %s\n", info.backend_name);
	for (unsigned int i = 0; i < info.nsockets; i++)
		printf("socket %u mask 0x%x ways %u\n", info.sockets[i].id,
		       info.sockets[i].ddio_mask, info.sockets[i].ddio_ways);
	return 0;
}
