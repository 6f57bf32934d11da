// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit: the subscriber table keeps its last slot for the owner's process
 * and no other process holds more than its share; a used slot never moves,
 * so the lockless lookup of a closing socket finds it after others left.
 */
#include <kunit/test.h>
#include <linux/module.h>
#include "../compat.h"
#include "../subscribers.h"

struct subs_check_case {
	const char *desc;
	unsigned int nr;
	unsigned int mine;
	bool owner;
	bool admitted;
};

static const struct subs_check_case subs_check_cases[] = {
	{ "empty table", 0, 0, false, true },
	{ "a process at its limit", 4, IOCA_MAX_SUBSCRIBERS_PER_PROCESS, false, false },
	{ "the owner past the per-process limit", 8, 8, true, true },
	{ "the kept slot, for another process", IOCA_MAX_SUBSCRIBERS - 1, 0, false, false },
	{ "the kept slot, for the owner", IOCA_MAX_SUBSCRIBERS - 1, 0, true, true },
	{ "a full table, for the owner", IOCA_MAX_SUBSCRIBERS, 1, true, false },
};

static void subs_check_desc(const struct subs_check_case *c, char *desc)
{
	strscpy(desc, c->desc, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(subs_check, subs_check_cases, subs_check_desc);

static void subscribers_test_check(struct kunit *test)
{
	const struct subs_check_case *c = test->param_value;
	const char *why = ioca_subs_check(c->nr, c->mine, c->owner);

	if (c->admitted)
		KUNIT_EXPECT_NULL(test, why);
	else
		KUNIT_EXPECT_NOT_NULL(test, why);
}

static void subscribers_test_fill_by_others_leaves_the_owner_a_slot(struct kunit *test)
{
	struct ioca_subscribers *subs = kunit_kzalloc(test, sizeof(*subs), GFP_KERNEL);
	const char *why = NULL;
	unsigned int i;

	KUNIT_ASSERT_NOT_NULL(test, subs);
	/* Arrange: other processes, one socket each, until refused */
	for (i = 0; i < IOCA_MAX_SUBSCRIBERS - 1; i++)
		KUNIT_ASSERT_EQ(test, ioca_subs_add(subs, 100 + i, 10 + i, false, &why), 0);
	/* Act, Assert */
	KUNIT_EXPECT_EQ(test, ioca_subs_add(subs, 200, 99, false, &why), -ENOSPC);
	KUNIT_EXPECT_NOT_NULL(test, strstr(why, "kept for the sampler or DDIO owner"));
	KUNIT_EXPECT_EQ(test, ioca_subs_add(subs, 300, 1, true, &why), 0);
	KUNIT_EXPECT_EQ(test, ioca_subs_add(subs, 301, 1, true, &why), -ENOSPC);
	KUNIT_EXPECT_NOT_NULL(test, strstr(why, "IOCA_MAX_SUBSCRIBERS (16)"));
	/* A socket subscribed again takes no second slot. */
	KUNIT_EXPECT_EQ(test, ioca_subs_add(subs, 300, 1, true, &why), 0);
	KUNIT_EXPECT_EQ(test, subs->nr, (unsigned int)IOCA_MAX_SUBSCRIBERS);
}

static void subscribers_test_slots_do_not_move_on_remove(struct kunit *test)
{
	struct ioca_subscribers *subs = kunit_kzalloc(test, sizeof(*subs), GFP_KERNEL);
	const char *why = NULL;

	KUNIT_ASSERT_NOT_NULL(test, subs);
	KUNIT_ASSERT_EQ(test, ioca_subs_add(subs, 7, 1, false, &why), 0);
	KUNIT_ASSERT_EQ(test, ioca_subs_add(subs, 8, 2, false, &why), 0);
	KUNIT_ASSERT_EQ(test, ioca_subs_add(subs, 9, 3, false, &why), 0);
	/* Act: the first leaves; the last must stay where a reader saw it */
	KUNIT_EXPECT_TRUE(test, ioca_subs_remove(subs, 7));
	/* Assert */
	KUNIT_EXPECT_EQ(test, subs->sub[2].portid, 9u);
	KUNIT_EXPECT_TRUE(test, ioca_subs_has(subs, 9));
	KUNIT_EXPECT_FALSE(test, ioca_subs_has(subs, 7));
	KUNIT_EXPECT_FALSE(test, ioca_subs_remove(subs, 7));
	KUNIT_EXPECT_EQ(test, subs->nr, 2u);
	/* The freed slot is reused; a socket of nobody is never found. */
	KUNIT_EXPECT_EQ(test, ioca_subs_add(subs, 10, 4, false, &why), 0);
	KUNIT_EXPECT_EQ(test, subs->sub[0].portid, 10u);
	KUNIT_EXPECT_FALSE(test, ioca_subs_has(subs, 11));
}

static void subscribers_test_per_process_limit(struct kunit *test)
{
	struct ioca_subscribers *subs = kunit_kzalloc(test, sizeof(*subs), GFP_KERNEL);
	const char *why = NULL;
	unsigned int i;

	KUNIT_ASSERT_NOT_NULL(test, subs);
	for (i = 0; i < IOCA_MAX_SUBSCRIBERS_PER_PROCESS; i++)
		KUNIT_ASSERT_EQ(test, ioca_subs_add(subs, 50 + i, 5, false, &why), 0);
	KUNIT_EXPECT_EQ(test, ioca_subs_add(subs, 60, 5, false, &why), -ENOSPC);
	KUNIT_EXPECT_NOT_NULL(test, strstr(why, "IOCA_MAX_SUBSCRIBERS_PER_PROCESS"));
	KUNIT_EXPECT_EQ(test, ioca_subs_add(subs, 61, 6, false, &why), 0);
}

static struct kunit_case subscribers_test_cases[] = {
	KUNIT_CASE_PARAM(subscribers_test_check, subs_check_gen_params),
	KUNIT_CASE(subscribers_test_fill_by_others_leaves_the_owner_a_slot),
	KUNIT_CASE(subscribers_test_slots_do_not_move_on_remove),
	KUNIT_CASE(subscribers_test_per_process_limit),
	{}
};

static struct kunit_suite subscribers_test_suite = {
	.name = "ioca-subscribers",
	.test_cases = subscribers_test_cases,
};

kunit_test_suite(subscribers_test_suite);

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("KUnit tests for ioca's subscriber table");
IOCA_IMPORT_KUNIT_NS();
