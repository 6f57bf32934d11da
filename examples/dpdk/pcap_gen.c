// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "pcap_gen.h"

/* The classic pcap format: a file header, then per packet a record header
 * and the bytes (tcpdump's "pcap" savefile, host byte order).
 */
struct pcap_file_hdr {
	uint32_t magic; /* 0xa1b2c3d4: microsecond timestamps */
	uint16_t major, minor;
	int32_t thiszone;
	uint32_t sigfigs, snaplen, linktype;
};

struct pcap_rec_hdr {
	uint32_t sec, usec, caplen, len;
};

int pcap_gen_write(const char *path, struct workload *w, size_t per_phase, unsigned int phases)
{
	const struct pcap_file_hdr fh = {0xa1b2c3d4, 2, 4, 0, 0, 65535, 1 /* Ethernet */};
	uint8_t rec[sizeof(struct pcap_rec_hdr) + WORKLOAD_PKT_LEN];
	/* never through a link planted where the capture goes */
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW | O_CLOEXEC, 0600);
	FILE *f = fd < 0 ? NULL : fdopen(fd, "wb");
	size_t i, n = 0;
	unsigned int ph;
	int err = 0;

	if (!f) {
		err = -errno;
		if (fd >= 0)
			close(fd);
		fprintf(stderr, "pcap_gen: %s: %s\n", path, strerror(-err));
		return err;
	}
	if (fwrite(&fh, sizeof(fh), 1, f) != 1)
		err = -EIO;
	for (ph = 0; !err && ph < phases; ph++) {
		if (ph)
			workload_shift(w);
		for (i = 0; !err && i < per_phase; i++, n++) {
			/* 10 Mpps of wire time: timestamps only order the packets. */
			struct pcap_rec_hdr h = {(uint32_t)(n / 10000000),
						 (uint32_t)(n % 10000000 / 10), WORKLOAD_PKT_LEN,
						 WORKLOAD_PKT_LEN};

			memcpy(rec, &h, sizeof(h));
			workload_frame(w, i, (uint32_t)n, rec + sizeof(h));
			if (fwrite(rec, sizeof(rec), 1, f) != 1)
				err = -EIO;
		}
	}
	if (fclose(f) && !err)
		err = -EIO;
	if (err)
		fprintf(stderr, "pcap_gen: writing %s failed (%zu packets written)\n", path, n);
	return err;
}
