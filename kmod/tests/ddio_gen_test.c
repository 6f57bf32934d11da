// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit: the DDIO field of IIO_LLC_WAYS per CPU generation, and what a
 * narrower field does to a socket's masks and writes (read-back:
 * ddio_apply_test.c).
 */
#include <kunit/test.h>
#include <linux/module.h>
#include "../compat.h"
#include "../ddio.h"
#include "../ddio_gen.h"

struct ddio_gen_case {
	const char *desc;
	unsigned int family;
	unsigned int model;
	bool known;
	u32 llc_ways;
	u32 field;
	bool verified;
	bool has_note;
};

static const struct ddio_gen_case ddio_gen_cases[] = {
	{ "Skylake-SP/Cascade Lake: 11 ways, field 0x7ff, verified",
	  6, 0x55, true, 11, 0x7ff, true, false },
	{ "Ice Lake-SP: field assumed, 12 ways, unverified, reported",
	  6, 0x6a, true, 12, 0xfff, false, true },
	{ "Ice Lake-D: as Ice Lake-SP", 6, 0x6c, true, 12, 0xfff, false, true },
	{ "Sapphire Rapids: 15 ways assumed, unverified",
	  6, 0x8f, true, 15, 0x7fff, false, true },
	{ "Emerald Rapids: unverified", 6, 0xcf, true, 15, 0x7fff, false, true },
	{ "Granite Rapids-X: 16 ways assumed, unverified",
	  6, 0xad, true, 16, 0xffff, false, true },
	{ "Granite Rapids-D: unverified", 6, 0xae, true, 16, 0xffff, false, true },
	{ "Haswell-EP: 20 ways assumed, unverified, reported",
	  6, 0x3f, true, 20, 0xfffff, false, true },
	{ "Broadwell-EP: 20 ways assumed, unverified", 6, 0x4f, true, 20, 0xfffff, false, true },
	{ "Broadwell-DE: 12 ways assumed, unverified", 6, 0x56, true, 12, 0xfff, false, true },
	{ "Ivy Bridge-EP (0x3e): no DDIO way control", 6, 0x3e, false },
	{ "Skylake client (0x5e): none", 6, 0x5e, false },
	{ "model 0x55 of family 15: none", 15, 0x55, false },
};

static void ddio_gen_desc(const struct ddio_gen_case *c, char *desc)
{
	strscpy(desc, c->desc, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(ddio_gen, ddio_gen_cases, ddio_gen_desc);

static void ddio_gen_test_field_per_model(struct kunit *test)
{
	const struct ddio_gen_case *c = test->param_value;
	const struct ioca_ddio_gen *g = ioca_ddio_gen_find(c->family, c->model);

	if (!c->known) {
		KUNIT_EXPECT_NULL(test, g);
		return;
	}
	KUNIT_ASSERT_NOT_NULL(test, g);
	KUNIT_EXPECT_EQ(test, (unsigned int)g->model, c->model);
	KUNIT_EXPECT_EQ(test, ioca_ddio_gen_field(g, c->llc_ways), c->field);
	KUNIT_EXPECT_EQ(test, g->verified, c->verified);
	KUNIT_EXPECT_EQ(test, !!g->note, c->has_note);
}

static void ddio_gen_test_field_contradicted_by_cpuid_is_assumed(struct kunit *test)
{
	const struct ioca_ddio_gen *skx = ioca_ddio_gen_find(6, 0x55);
	const struct ioca_ddio_gen *icx = ioca_ddio_gen_find(6, 0x6a);

	KUNIT_ASSERT_NOT_NULL(test, skx);
	KUNIT_ASSERT_NOT_NULL(test, icx);
	KUNIT_EXPECT_TRUE(test, ioca_ddio_gen_matches(skx, 11));
	/* A VM's 16-way LLC on model 0x55: not the table's layout */
	KUNIT_EXPECT_FALSE(test, ioca_ddio_gen_matches(skx, 16));
	KUNIT_EXPECT_EQ(test, ioca_ddio_gen_field(skx, 16), 0xffffu);
	KUNIT_EXPECT_FALSE(test, ioca_ddio_gen_matches(skx, 0));
	/* An unknown field matches any LLC: it is the assumption itself */
	KUNIT_EXPECT_TRUE(test, ioca_ddio_gen_matches(icx, 20));
	/* The emulated register: the low ways */
	KUNIT_EXPECT_EQ(test, ioca_ddio_gen_field(NULL, 11), 0x7ffu);
	KUNIT_EXPECT_EQ(test, ioca_ddio_gen_field(NULL, 32), 0xffffffffu);
	KUNIT_EXPECT_EQ(test, ioca_ddio_gen_field(NULL, 0), 0u);
}

static u64 narrow_reg;

static int narrow_read(struct ioca_ddio *d, unsigned int s, u64 *raw)
{
	*raw = narrow_reg;
	return 0;
}

static int narrow_write(struct ioca_ddio *d, unsigned int s, u64 raw)
{
	narrow_reg = raw;
	return 0;
}

static const struct ioca_ddio_backend narrow_backend = {
	.id = IOCA_BACKEND_MSR,
	.name = "narrow",
	.read = narrow_read,
	.write = narrow_write,
};

static void ddio_gen_test_narrow_field_limits_masks_and_writes(struct kunit *test)
{
	struct ioca_ddio *d = kunit_kzalloc(test, sizeof(*d), GFP_KERNEL);
	struct ioca_ddio_req top = { .socket = 0, .mask = 0xc00 };
	struct ioca_ddio_req in = { .socket = 0, .mask = 0x300 };
	struct ioca_ddio_status st;
	const char *why = NULL;

	KUNIT_ASSERT_NOT_NULL(test, d);
	/* Arrange: 12 LLC ways but a field of the low 11 bits, bit 11 set */
	narrow_reg = 0x800 | 0x600;
	KUNIT_ASSERT_EQ(test, ioca_ddio_init_field(d, &narrow_backend, 1, 12,
						   0x300, 2, 0x7ff), 0);
	KUNIT_EXPECT_EQ(test, d->sock[0].valid_mask, 0x7ffu);
	KUNIT_EXPECT_EQ(test, d->sock[0].mask, 0x600u);
	/* Act, assert: a mask on the way outside the field is refused */
	KUNIT_EXPECT_EQ(test, ioca_ddio_resolve(d, &top, &why), -EINVAL);
	KUNIT_EXPECT_STREQ(test, why,
			   "DDIO mask has bits outside the register's DDIO field");
	/* ...one inside is written without touching bit 11 */
	KUNIT_ASSERT_EQ(test, ioca_ddio_resolve(d, &in, &why), 0);
	KUNIT_ASSERT_EQ(test, ioca_ddio_apply(d, &in, 1, NULL, &why), 0);
	KUNIT_EXPECT_EQ(test, narrow_reg, 0x800ull | 0x300);
	mutex_lock(&d->lock);
	ioca_ddio_status(d, 0, &st);
	mutex_unlock(&d->lock);
	KUNIT_EXPECT_EQ(test, st.field, 0x7ffu);
	KUNIT_EXPECT_TRUE(test, st.available);
	KUNIT_EXPECT_TRUE(test, st.writable);
	/* verified is the model's word (d->verified), not given here */
	KUNIT_EXPECT_FALSE(test, st.verified);
	d->verified = true;
	mutex_lock(&d->lock);
	ioca_ddio_status(d, 0, &st);
	mutex_unlock(&d->lock);
	KUNIT_EXPECT_TRUE(test, st.verified);
	ioca_ddio_exit(d);
	KUNIT_EXPECT_EQ(test, narrow_reg, 0x800ull | 0x600);
}

static struct kunit_case ddio_gen_test_cases[] = {
	KUNIT_CASE_PARAM(ddio_gen_test_field_per_model, ddio_gen_gen_params),
	KUNIT_CASE(ddio_gen_test_field_contradicted_by_cpuid_is_assumed),
	KUNIT_CASE(ddio_gen_test_narrow_field_limits_masks_and_writes),
	{}
};

static struct kunit_suite ddio_gen_test_suite = {
	.name = "ioca-ddio-gen",
	.test_cases = ddio_gen_test_cases,
};

kunit_test_suite(ddio_gen_test_suite);

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("KUnit tests for ioca's per-generation DDIO field");
IOCA_IMPORT_KUNIT_NS();
