// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit: DDIO mask validation, way arithmetic and the emulated backend
 * (changing masks: ddio_apply_test.c).
 */
#include <kunit/test.h>
#include <linux/module.h>
#include "../compat.h"
#include "../ddio.h"

struct ddio_mask_case {
	const char *desc;
	u32 mask;
	u32 llc_ways;
	unsigned int min_ways;
	enum ioca_ddio_verdict want;
};

static const struct ddio_mask_case ddio_mask_cases[] = {
	{ "top two of 11 ways", 0x600, 11, 2, IOCA_DDIO_OK },
	{ "all 11 ways", 0x7ff, 11, 2, IOCA_DDIO_OK },
	{ "bottom two ways", 0x3, 11, 2, IOCA_DDIO_OK },
	{ "all 32 ways", 0xffffffff, 32, 2, IOCA_DDIO_OK },
	{ "empty mask", 0, 11, 2, IOCA_DDIO_EMPTY },
	{ "gap between ways", 0x500, 11, 2, IOCA_DDIO_NOT_CONTIGUOUS },
	{ "two separate runs", 0x30c, 11, 2, IOCA_DDIO_NOT_CONTIGUOUS },
	{ "one way under min 2", 0x400, 11, 2, IOCA_DDIO_TOO_FEW },
	{ "three ways under min 4", 0x700, 11, 4, IOCA_DDIO_TOO_FEW },
	{ "bit above 11 ways", 0xc00, 11, 2, IOCA_DDIO_OUTSIDE_LLC },
	{ "bit 31 with 20 ways", 0x80000000, 20, 1, IOCA_DDIO_OUTSIDE_LLC },
};

static void ddio_mask_desc(const struct ddio_mask_case *c, char *desc)
{
	strscpy(desc, c->desc, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(ddio_mask, ddio_mask_cases, ddio_mask_desc);

static void ddio_test_check_mask(struct kunit *test)
{
	const struct ddio_mask_case *c = test->param_value;

	KUNIT_EXPECT_EQ(test, ioca_ddio_check_mask(c->mask, c->llc_ways,
						   c->min_ways), c->want);
}

struct ddio_ways_case {
	const char *desc;
	u32 ways;
	u32 llc_ways;
	unsigned int min_ways;
	enum ioca_ddio_verdict want;
	u32 mask;
};

static const struct ddio_ways_case ddio_ways_cases[] = {
	{ "2 of 11 at the top", 2, 11, 2, IOCA_DDIO_OK, 0x600 },
	{ "4 of 11 at the top", 4, 11, 2, IOCA_DDIO_OK, 0x780 },
	{ "all 11", 11, 11, 2, IOCA_DDIO_OK, 0x7ff },
	{ "all 32", 32, 32, 2, IOCA_DDIO_OK, 0xffffffff },
	{ "0 ways", 0, 11, 2, IOCA_DDIO_EMPTY, 0 },
	{ "1 way under min 2", 1, 11, 2, IOCA_DDIO_TOO_FEW, 0 },
	{ "12 of 11", 12, 11, 2, IOCA_DDIO_TOO_MANY, 0 },
	{ "33 of 32", 33, 32, 2, IOCA_DDIO_TOO_MANY, 0 },
};

static void ddio_ways_desc(const struct ddio_ways_case *c, char *desc)
{
	strscpy(desc, c->desc, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(ddio_ways, ddio_ways_cases, ddio_ways_desc);

static void ddio_test_ways_to_mask(struct kunit *test)
{
	const struct ddio_ways_case *c = test->param_value;
	u32 mask = 0xdead;

	KUNIT_EXPECT_EQ(test, ioca_ddio_ways_to_mask(c->ways, c->llc_ways,
						     c->min_ways, &mask),
			c->want);
	KUNIT_EXPECT_EQ(test, mask, c->want == IOCA_DDIO_OK ? c->mask : 0xdead);
}

static void ddio_test_verdict_messages_differ(struct kunit *test)
{
	enum ioca_ddio_verdict a, b;

	for (a = IOCA_DDIO_EMPTY; a <= IOCA_DDIO_OUTSIDE_LLC; a++)
		for (b = a + 1; b <= IOCA_DDIO_OUTSIDE_LLC; b++)
			KUNIT_EXPECT_STRNEQ(test, ioca_ddio_verdict_msg(a),
					    ioca_ddio_verdict_msg(b));
}

static struct ioca_ddio *ddio_emulated(struct kunit *test, unsigned int n)
{
	struct ioca_ddio *d = kunit_kzalloc(test, sizeof(*d), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, d);
	KUNIT_ASSERT_EQ(test, ioca_ddio_init_emulated(d, n, 11, 2), 0);
	return d;
}

static void ddio_test_emulated_boot_mask(struct kunit *test)
{
	struct ioca_ddio *d = ddio_emulated(test, 2);
	unsigned int s;

	KUNIT_EXPECT_EQ(test, d->ops->id, IOCA_BACKEND_EMULATED);
	KUNIT_EXPECT_STREQ(test, d->ops->name, "emulated");
	for (s = 0; s < 2; s++) {
		KUNIT_EXPECT_EQ(test, d->sock[s].boot_mask, 0x600u);
		KUNIT_EXPECT_EQ(test, d->sock[s].mask, 0x600u);
		KUNIT_EXPECT_EQ(test, d->sock[s].valid_mask, 0x7ffu);
		KUNIT_EXPECT_EQ(test, d->sock[s].llc_ways, 11u);
	}
	ioca_ddio_exit(d);
}

static void ddio_test_emulated_set_then_restore(struct kunit *test)
{
	struct ioca_ddio *d = ddio_emulated(test, 2);
	struct ioca_ddio_req req = { .socket = 1, .ways = 4 };
	const char *why = NULL;

	/* Act */
	KUNIT_ASSERT_EQ(test, ioca_ddio_resolve(d, &req, &why), 0);
	KUNIT_ASSERT_EQ(test, ioca_ddio_apply(d, &req, 1, NULL, &why), 0);
	/* Assert: only socket 1 changed, in state and in the register */
	KUNIT_EXPECT_EQ(test, d->sock[1].mask, 0x780u);
	KUNIT_EXPECT_EQ(test, d->sock[1].emul_reg, 0x780u);
	KUNIT_EXPECT_EQ(test, d->sock[0].emul_reg, 0x600u);
	KUNIT_EXPECT_EQ(test, ioca_ddio_restore(d, NULL), 0);
	KUNIT_EXPECT_EQ(test, d->sock[1].mask, 0x600u);
	KUNIT_EXPECT_EQ(test, d->sock[1].emul_reg, 0x600u);
	ioca_ddio_exit(d);
}

struct ddio_reject_case {
	const char *desc;
	struct ioca_ddio_req req;
	int err;
	const char *why;
};

static const struct ddio_reject_case ddio_reject_cases[] = {
	{ "unknown socket", { .socket = 2, .mask = 0x600 }, -ENODEV,
	  "unknown socket" },
	{ "empty mask", { .socket = 0, .mask = 0 }, -EINVAL,
	  "DDIO mask is empty" },
	{ "non-contiguous mask", { .socket = 0, .mask = 0x500 }, -EINVAL,
	  "DDIO mask is not contiguous" },
	{ "mask under min ways", { .socket = 1, .mask = 0x400 }, -EINVAL,
	  "DDIO mask has fewer ways than min_ways" },
	{ "mask beyond the LLC", { .socket = 0, .mask = 0xc00 }, -EINVAL,
	  "DDIO mask has bits beyond the LLC ways" },
	{ "way count beyond the LLC", { .socket = 0, .ways = 12 }, -EINVAL,
	  "DDIO way count exceeds the LLC ways" },
	{ "way count under min ways", { .socket = 0, .ways = 1 }, -EINVAL,
	  "DDIO mask has fewer ways than min_ways" },
};

static void ddio_reject_desc(const struct ddio_reject_case *c, char *desc)
{
	strscpy(desc, c->desc, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(ddio_reject, ddio_reject_cases, ddio_reject_desc);

static void ddio_test_resolve_rejects(struct kunit *test)
{
	const struct ddio_reject_case *c = test->param_value;
	struct ioca_ddio *d = ddio_emulated(test, 2);
	struct ioca_ddio_req req = c->req;
	const char *why = NULL;

	KUNIT_EXPECT_EQ(test, ioca_ddio_resolve(d, &req, &why), c->err);
	KUNIT_ASSERT_NOT_NULL(test, why);
	KUNIT_EXPECT_STREQ(test, why, c->why);
	KUNIT_EXPECT_EQ(test, d->sock[0].emul_reg, 0x600u);
	KUNIT_EXPECT_EQ(test, d->sock[1].emul_reg, 0x600u);
	ioca_ddio_exit(d);
}

static void ddio_test_init_rejects_bad_geometry(struct kunit *test)
{
	struct ioca_ddio *d = kunit_kzalloc(test, sizeof(*d), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, d);
	KUNIT_EXPECT_EQ(test, ioca_ddio_init_emulated(d, 0, 11, 2), -EINVAL);
	KUNIT_EXPECT_EQ(test, ioca_ddio_init_emulated(d, IOCA_MAX_SOCKETS + 1,
						      11, 2), -EINVAL);
	KUNIT_EXPECT_EQ(test, ioca_ddio_init_emulated(d, 1, 1, 1), -EINVAL);
	KUNIT_EXPECT_EQ(test, ioca_ddio_init_emulated(d, 1, 33, 2), -EINVAL);
	KUNIT_EXPECT_EQ(test, ioca_ddio_init_emulated(d, 1, 11, 12), -EINVAL);
	KUNIT_EXPECT_EQ(test, ioca_ddio_init_emulated(d, 1, 11, 0), -EINVAL);
}

static struct kunit_case ddio_test_cases[] = {
	KUNIT_CASE_PARAM(ddio_test_check_mask, ddio_mask_gen_params),
	KUNIT_CASE_PARAM(ddio_test_ways_to_mask, ddio_ways_gen_params),
	KUNIT_CASE(ddio_test_verdict_messages_differ),
	KUNIT_CASE(ddio_test_emulated_boot_mask),
	KUNIT_CASE(ddio_test_emulated_set_then_restore),
	KUNIT_CASE_PARAM(ddio_test_resolve_rejects, ddio_reject_gen_params),
	KUNIT_CASE(ddio_test_init_rejects_bad_geometry),
	{}
};

static struct kunit_suite ddio_test_suite = {
	.name = "ioca-ddio",
	.test_cases = ddio_test_cases,
};

kunit_test_suite(ddio_test_suite);

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("KUnit tests for ioca DDIO way control");
IOCA_IMPORT_KUNIT_NS();
