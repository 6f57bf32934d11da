// SPDX-License-Identifier: GPL-2.0
/*
 * Bounded random-attribute fuzz of every op (and the numbers around them):
 * random types, lengths, payloads and nests, some built from valid
 * attributes so the handlers, not only the policies, see odd input. Each
 * request must be answered; afterwards the family must still work and the
 * kernel log must show no WARN, BUG or oops. The seed is printed so a
 * failure can be replayed (IOCA_FUZZ_SEED).
 */
#include <stdlib.h>
#include <time.h>

#include "ioca_fixture.h"
#include "kmsg.h"

#define PER_OP 250

static uint32_t rnd(uint64_t *st)
{
	/* xorshift64*: reproducible from the printed seed on any libc. */
	*st ^= *st >> 12;
	*st ^= *st << 25;
	*st ^= *st >> 27;
	return (uint32_t)((*st * 0x2545F4914F6CDD1DULL) >> 32);
}

static uint32_t interesting(uint64_t *st)
{
	static const uint32_t v[] = {0,	    1,	 2,	   3,	     7,		 8,	    31,
				     32,    33,	 255,	   256,	     999,	 1000,	    0x600,
				     0x7ff, 0x5, 60000000, 60000001, 0x7fffffff, 0xffffffff};

	return rnd(st) % 3 ? v[rnd(st) % (sizeof(v) / sizeof(v[0]))] : rnd(st);
}

static void put_random(struct nl_msg *msg, uint64_t *st, int depth)
{
	int n = (int)(rnd(st) % 6), i;

	for (i = 0; i < n; i++) {
		int type = (int)(rnd(st) % 14);
		unsigned char buf[24];
		size_t j, len;

		switch (rnd(st) % 5) {
		case 0:
			nla_put_u32(msg, type, interesting(st));
			break;
		case 1:
			nla_put_u64(msg, type, ((uint64_t)interesting(st) << 32) | interesting(st));
			break;
		case 2:
			if (depth < 3) {
				struct nlattr *nest = nla_nest_start(
					msg, type | (rnd(st) % 4 ? NLA_F_NESTED : 0));

				if (nest) {
					put_random(msg, st, depth + 1);
					nla_nest_end(msg, nest);
				}
				break;
			}
			/* fall through */
		case 3:
			len = rnd(st) % sizeof(buf);
			for (j = 0; j < len; j++)
				buf[j] = (unsigned char)rnd(st);
			nla_put(msg, type, (int)len, buf);
			break;
		default:
			nla_put_flag(msg, type);
			break;
		}
	}
}

TEST_F_TIMEOUT(ioca_nl, random_attributes_to_every_op_leave_no_trace, 300)
{
	const char *env = getenv("IOCA_FUZZ_SEED");
	uint64_t seed = env ? strtoull(env, NULL, 0) : (uint64_t)time(NULL) * 2654435761u + 1;
	uint64_t st = seed ? seed : 1;
	size_t mark = kmsg_mark();
	struct ioca_info after;
	char splat[256];
	int cmd, i, answered = 0;

	TH_LOG("seed %llu (IOCA_FUZZ_SEED to replay)", (unsigned long long)seed);
	for (cmd = 0; cmd <= IOCA_CMD_MAX + 1; cmd++) {
		for (i = 0; i < PER_OP; i++) {
			struct nl_msg *msg = tnl_msg(&self->nl, (uint8_t)cmd, 0);
			int err;

			ASSERT_NE(NULL, msg);
			put_random(msg, &st, 0);
			err = tnl_do(&self->nl, msg, &self->r);
			/* -EIO is ours: no answer at all, or a broken socket. */
			ASSERT_NE(-EIO, err) TH_LOG("cmd %d request %d got no answer", cmd, i);
			ASSERT_GE(0, err);
			answered++;
		}
	}
	EXPECT_EQ((IOCA_CMD_MAX + 2) * PER_OP, answered);
	ioca_simple_cmd(&self->nl, IOCA_CMD_SAMPLER_STOP, &self->r);
	ASSERT_EQ(0, ioca_ddio_restore(&self->nl, &self->r)) TH_LOG("%s", self->r.msg);
	ASSERT_EQ(0, ioca_info_get(&self->nl, &after, &self->r));
	EXPECT_EQ(after.sockets[0].boot_mask, after.sockets[0].ddio_mask);
	EXPECT_EQ(0, kmsg_find_splat(mark, splat, sizeof(splat))) TH_LOG("kernel log: %s", splat);
}

TEST_HARNESS_MAIN
