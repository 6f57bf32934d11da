/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The fixture every ABI test starts from: a request socket on the resolved
 * family with extended acks, and the info the module reported before the
 * test touched anything, so a test can assert "state unchanged". Included by
 * each test program once (the harness keeps its registry per binary).
 */
#ifndef IOCA_SELFTEST_FIXTURE_H
#define IOCA_SELFTEST_FIXTURE_H

#include "kselftest_harness.h"
#include "ioca_client.h"

FIXTURE(ioca_nl)
{
	struct tnl nl;
	struct tnl_reply r;
	struct ioca_info before;
};

FIXTURE_SETUP(ioca_nl)
{
	ASSERT_EQ(0, tnl_open(&self->nl, IOCA_FAMILY_NAME))
	TH_LOG("family %s not registered: is ioca.ko loaded?", IOCA_FAMILY_NAME);
	ASSERT_EQ(0, ioca_info_get(&self->nl, &self->before, &self->r))
	TH_LOG("info-get: %s", self->r.msg);
	ASSERT_LE(1, self->before.nsockets);
}

FIXTURE_TEARDOWN(ioca_nl)
{
	tnl_close(&self->nl);
}

/* Asserts the DDIO state of every socket equals @a's. */
#define ASSERT_DDIO_UNCHANGED(a, b)                                                          \
	do {                                                                                 \
		uint32_t __i;                                                                \
		ASSERT_EQ((a)->nsockets, (b)->nsockets);                                     \
		for (__i = 0; __i < (a)->nsockets; __i++) {                                  \
			ASSERT_EQ((a)->sockets[__i].ddio_mask, (b)->sockets[__i].ddio_mask)  \
			TH_LOG("socket %u mask changed by a rejected request", __i);         \
			ASSERT_EQ((a)->sockets[__i].ddio_ways, (b)->sockets[__i].ddio_ways); \
		}                                                                            \
	} while (0)

#endif
