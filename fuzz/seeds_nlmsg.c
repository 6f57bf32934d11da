// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/*
 * Writes the seed corpus of fuzz_nlmsg (make -C fuzz seeds): well-formed
 * INFO replies and sample parts as the module sends them, each as the
 * target reads it (one selector byte, then the genl header and
 * attributes). Only run when the ABI grows; its output is in the repo.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <netlink/attr.h>
#include <netlink/genl/genl.h>
#include <netlink/msg.h>
#include <linux/ioca.h>

static struct nl_msg *msg_of(uint8_t cmd)
{
	struct nl_msg *m = nlmsg_alloc_size(64 * 1024);

	if (!m || !genlmsg_put(m, 0, 0, 0x1f, 0, 0, cmd, 1))
		exit(1);
	return m;
}

static void counter(struct nl_msg *m, int type, uint32_t i, uint64_t v)
{
	struct nlattr *c = nla_nest_start(m, type);

	nla_put_u32(m, IOCA_A_COUNTER_INDEX, i);
	nla_put_u64(m, IOCA_A_COUNTER_VALUE, v);
	nla_put_u64(m, IOCA_A_COUNTER_ENABLED_NS, 500);
	nla_put_u64(m, IOCA_A_COUNTER_RUNNING_NS, 400);
	nla_nest_end(m, c);
}

static struct nl_msg *sample(uint64_t seq, uint32_t part, uint32_t parts, int ncpus)
{
	struct nl_msg *m = msg_of(IOCA_CMD_SAMPLE_NTF);
	struct nlattr *n;

	nla_put_u64(m, IOCA_A_SAMPLE_SEQ, seq);
	nla_put_u64(m, IOCA_A_SAMPLE_TIME_NS, 1000 + seq);
	nla_put_u64(m, IOCA_A_SAMPLE_REALTIME_NS, 2000 + seq);
	nla_put_u64(m, IOCA_A_SAMPLE_COLLECT_NS, 30);
	nla_put_u32(m, IOCA_A_SAMPLE_INTERVAL_US, 10000);
	if (parts) {
		nla_put_u32(m, IOCA_A_SAMPLE_PART, part);
		nla_put_u32(m, IOCA_A_SAMPLE_PARTS, parts);
	}
	for (int c = 0; c < ncpus; c++) {
		n = nla_nest_start(m, IOCA_A_SAMPLE_CPU);
		nla_put_u32(m, IOCA_A_CPU_ID, (uint32_t)c);
		nla_put_u32(m, IOCA_A_CPU_SOCKET, (uint32_t)c / 2);
		nla_put_u8(m, IOCA_A_CPU_ONLINE, 1);
		nla_put_u32(m, IOCA_A_CPU_GENERATION, 1);
		for (uint32_t i = 0; i < 4; i++)
			counter(m, IOCA_A_CPU_COUNTER, i, 100 * seq + i);
		nla_nest_end(m, n);
	}
	n = nla_nest_start(m, IOCA_A_SAMPLE_SOCKET);
	nla_put_u32(m, IOCA_A_SOCKET_ID, 0);
	counter(m, IOCA_A_SOCKET_COUNTER, 0, 7 * seq);
	counter(m, IOCA_A_SOCKET_COUNTER, 1, 3 * seq);
	nla_nest_end(m, n);
	return m;
}

static struct nl_msg *info(void)
{
	struct nl_msg *m = msg_of(IOCA_CMD_INFO_GET);
	struct nlattr *n;

	nla_put_u32(m, IOCA_A_INFO_BACKEND, IOCA_BACKEND_EMULATED);
	nla_put_string(m, IOCA_A_INFO_BACKEND_NAME, "emulated");
	nla_put_u32(m, IOCA_A_INFO_CPU_FAMILY, 6);
	nla_put_u32(m, IOCA_A_INFO_CPU_MODEL, 0x55);
	nla_put_string(m, IOCA_A_INFO_CPU_MODEL_NAME, "Intel Xeon Gold 6140");
	nla_put_u8(m, IOCA_A_INFO_DDIO_VERIFIED, 1);
	nla_put_u32(m, IOCA_A_INFO_MIN_WAYS, 2);
	for (uint32_t s = 0; s < 2; s++) {
		n = nla_nest_start(m, IOCA_A_INFO_SOCKET);
		nla_put_u32(m, IOCA_A_SOCKET_ID, s);
		nla_put_u32(m, IOCA_A_SOCKET_LLC_WAYS, 11);
		nla_put_u32(m, IOCA_A_SOCKET_DDIO_MASK, 0x600);
		nla_put_u32(m, IOCA_A_SOCKET_DDIO_WAYS, 2);
		nla_put_u32(m, IOCA_A_SOCKET_DDIO_BOOT_MASK, 0x600);
		nla_put_u32(m, IOCA_A_SOCKET_DDIO_VALID_MASK, 0x7ff);
		nla_put_u32(m, IOCA_A_SOCKET_CPU_COUNT, 2);
		nla_nest_end(m, n);
	}
	n = nla_nest_start(m, IOCA_A_INFO_SAMPLER);
	nla_put_u32(m, IOCA_A_SAMPLER_STATE, IOCA_SAMPLER_STATE_RUNNING);
	nla_put_u32(m, IOCA_A_SAMPLER_INTERVAL_US, 10000);
	nla_put_u32(m, IOCA_A_SAMPLER_CPU, 0);
	nla_put_u32(m, IOCA_A_SAMPLER_CPU, 2);
	nla_put_u64(m, IOCA_A_SAMPLER_SEQ, 77);
	nla_nest_end(m, n);
	return m;
}

static void write_seed(const char *dir, const char *name, uint8_t sel, struct nl_msg *m)
{
	struct nlmsghdr *h = nlmsg_hdr(m);
	char path[512];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "wb");
	if (!f || fputc(sel, f) == EOF ||
	    fwrite(nlmsg_data(h), 1, nlmsg_datalen(h), f) != (size_t)nlmsg_datalen(h) || fclose(f))
		exit(1);
	nlmsg_free(m);
}

int main(int argc, char **argv)
{
	if (argc != 2) {
		fprintf(stderr, "usage: seeds_nlmsg DIR\n");
		return 2;
	}
	write_seed(argv[1], "info-2sockets", 1, info());
	write_seed(argv[1], "sample-whole", 0, sample(5, 0, 0, 4));
	write_seed(argv[1], "sample-part1of3", 0, sample(6, 1, 3, 2));
	return 0;
}
