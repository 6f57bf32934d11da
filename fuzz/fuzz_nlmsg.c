// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/*
 * libFuzzer target: libioca's decoders of what the kernel sends (INFO
 * replies and samples). The input is a generic netlink payload (genl
 * header, then attributes); the first byte picks the decoder. A decoder
 * must refuse what it cannot trust, never read past the message.
 */
#include <stdarg.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <linux/genetlink.h>
#include <netlink/msg.h>

#include "decode_info.h"
#include "decode_sample.h"

static void quiet(enum ioca_print_level level, void *ctx, const char *fmt, va_list ap)
{
	(void)level;
	(void)ctx;
	(void)fmt;
	(void)ap;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct ioca_sample sample;
	static struct ioca_info info;
	const struct ioca_log log = {.fn = quiet};
	struct ioca_sample_head h;
	struct nlmsghdr *nlh;
	int r;

	if (!size || size > 1 << 20)
		return 0;
	/* exactly the message's bytes, so ASan sees any read past its end */
	nlh = malloc(NLMSG_HDRLEN + size - 1);
	if (!nlh)
		return 0;
	memset(nlh, 0, NLMSG_HDRLEN);
	nlh->nlmsg_len = (uint32_t)(NLMSG_HDRLEN + size - 1);
	memcpy((char *)nlh + NLMSG_HDRLEN, data + 1, size - 1);
	if (data[0] & 1) {
		r = ioca_decode_info(nlh, &info, &log);
		(void)r;
	} else if (!ioca_decode_sample_head(nlh, &h, &log)) {
		if (h.part >= h.parts)
			abort();
		r = ioca_decode_sample_body(&h, &sample, &log);
		if (!r && (sample.ncpus > IOCA_MAX_CPUS || sample.nsockets > IOCA_MAX_SOCKETS))
			abort();
	}
	free(nlh);
	return 0;
}
