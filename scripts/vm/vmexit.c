// SPDX-License-Identifier: GPL-2.0
/*
 * Usage: vmexit [VALUE]
 * Waits until the serial console has sent everything queued for it, then
 * writes VALUE (default 0) to the isa-debug-exit port so QEMU exits. The wait
 * matters: tty writes return before the UART has shifted the bytes out, and
 * exiting early would cut off the last lines, including run.sh's exit marker.
 * Returns 1 if the port write did not end the VM (no such device), so the
 * caller can fall back to poweroff.
 */
#define _GNU_SOURCE /* ioperm, outb */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/io.h>
#include <termios.h>
#include <unistd.h>

#include "vmexit.h"

static void drain(const char *path)
{
	int fd = open(path, O_WRONLY | O_NOCTTY);

	if (fd < 0)
		return;
	tcdrain(fd);
	close(fd);
}

int main(int argc, char **argv)
{
	unsigned long value = 0;
	char *end;

	if (argc > 2) {
		fprintf(stderr, "usage: vmexit [VALUE]\n");
		return 2;
	}
	if (argc == 2) {
		errno = 0;
		value = strtoul(argv[1], &end, 0);
		if (errno || *end || value > 0x7f) {
			fprintf(stderr, "vmexit: bad value '%s' (0..127)\n", argv[1]);
			return 2;
		}
	}
	fflush(stdout);
	drain("/dev/console");
	drain("/dev/ttyS0");
	if (ioperm(VMEXIT_PORT, 1, 1)) {
		fprintf(stderr, "vmexit: ioperm(0x%x): %s\n", VMEXIT_PORT, strerror(errno));
		return 1;
	}
	outb((unsigned char)value, VMEXIT_PORT);
	/* Still here: no isa-debug-exit device behind the port. */
	fprintf(stderr, "vmexit: no isa-debug-exit device at port 0x%x\n", VMEXIT_PORT);
	return 1;
}
