// SPDX-License-Identifier: GPL-2.0
/*
 * Smoke KUnit suite: proves that the KUnit kernel, kunit.ko, an
 * out-of-tree test module and the KTAP parser in scripts/kunit/ work end to
 * end, before the real suites in kmod/tests/ depend on them. The cases check
 * kernel helpers that ioca's own parameter handling leans on.
 *
 * Built with -DIOCA_SMOKE_INJECT_FAILURE, one case fails on purpose, to show
 * that a failing case turns `make kunit` red. This is a build flag, not a
 * module parameter, because 6.1 runs a module's suites from KUnit's
 * MODULE_STATE_COMING notifier, before the module's parameters are parsed.
 */
#include <kunit/test.h>
#include <linux/bitmap.h>
#include <linux/bitops.h>
#include <linux/kernel.h>
#include <linux/module.h>

#ifdef IOCA_SMOKE_INJECT_FAILURE
static const bool inject_failure = true;
#else
static const bool inject_failure;
#endif

struct smoke_parse_case {
	const char *desc;
	const char *input;
	int err;
	unsigned int val;
};

static const struct smoke_parse_case smoke_parse_cases[] = {
	{ .desc = "hex way mask", .input = "0x600", .err = 0, .val = 0x600 },
	{ .desc = "decimal with newline", .input = "11\n", .err = 0, .val = 11 },
	{ .desc = "trailing garbage", .input = "0x6z", .err = -EINVAL },
	{ .desc = "overflow", .input = "0x100000000", .err = -ERANGE },
};

static void smoke_parse_desc(const struct smoke_parse_case *c, char *desc)
{
	strscpy(desc, c->desc, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(smoke_parse, smoke_parse_cases, smoke_parse_desc);

static void smoke_test_kstrtouint(struct kunit *test)
{
	const struct smoke_parse_case *c = test->param_value;
	unsigned int val = 0;
	int err;

	/* Act */
	err = kstrtouint(c->input, 0, &val);

	/* Assert */
	KUNIT_EXPECT_EQ(test, err, c->err);
	if (!c->err)
		KUNIT_EXPECT_EQ(test, val, c->val);
}

static void smoke_test_kzalloc_is_zeroed(struct kunit *test)
{
	size_t i, len = 256;
	u8 *buf;

	buf = kunit_kzalloc(test, len, GFP_KERNEL);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, buf);
	if (inject_failure)
		buf[len / 2] = 1;
	for (i = 0; i < len; i++)
		KUNIT_EXPECT_EQ_MSG(test, buf[i], 0, "byte %zu", i);
}

static void smoke_test_contiguous_mask(struct kunit *test)
{
	unsigned long mask = GENMASK(10, 9);

	/* A DDIO-style mask: two ways at the top of an 11-way LLC. */
	KUNIT_EXPECT_EQ(test, mask, 0x600UL);
	KUNIT_EXPECT_EQ(test, hweight_long(mask), 2);
	KUNIT_EXPECT_EQ(test, __ffs(mask), 9UL);
	KUNIT_EXPECT_EQ(test, __fls(mask), 10UL);
}

static struct kunit_case smoke_test_cases[] = {
	KUNIT_CASE_PARAM(smoke_test_kstrtouint, smoke_parse_gen_params),
	KUNIT_CASE(smoke_test_kzalloc_is_zeroed),
	KUNIT_CASE(smoke_test_contiguous_mask),
	{}
};

static struct kunit_suite smoke_test_suite = {
	.name = "ioca-smoke",
	.test_cases = smoke_test_cases,
};

kunit_test_suites(&smoke_test_suite);

MODULE_DESCRIPTION("ioca KUnit smoke suite");
MODULE_LICENSE("GPL");
