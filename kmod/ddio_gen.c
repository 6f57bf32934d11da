// SPDX-License-Identifier: GPL-2.0
/*
 * Which bits of IIO_LLC_WAYS (MSR 0xC8B) are the DDIO field, per Intel CPU
 * model, and whether writing them is known to work.
 *
 * Public sources confirm the register only on Skylake-SP and Cascade Lake
 * (model 0x55, 11 LLC ways, field 0x7ff): the DDIO papers measure it and
 * the default 0x600 equals CPUID.(EAX=10h,ECX=1):EBX. On Ice Lake-SP users
 * report that 0xC8B reads 0xc00 and a written mask reads back while the
 * PCIe hit rates do not change (a FastClick user's report). For Sapphire Rapids
 * and later nothing about the field is public. On Haswell-EP and
 * Broadwell-EP/DE public firmware code and FastClick's DDIOTune program the
 * register (DDIOTune's default there is 0x60000 on a 20-way LLC), but no
 * public measurement shows a written mask moving DDIO. Those models keep
 * the low llc_ways bits as the assumed field and are marked unverified: the
 * module writes them (read back after every write), info says so.
 */
#include <linux/bitops.h>
#include <linux/kernel.h>
#include <linux/ioca.h>
#include "compat.h"
#include "ddio_gen.h"

static const char ioca_icx_note[] =
	"writes are reported to read back without changing DDIO allocation (public DDIO tuning)";
static const char ioca_unknown_note[] =
	"the DDIO field of 0xC8B is not public; the low LLC-way bits are assumed";
static const char ioca_pre_skx_note[] =
	"set by firmware and DDIOTune; effect unmeasured in public; low LLC-way bits assumed";

static const struct ioca_ddio_gen ioca_ddio_gens[] = {
	{0x3f, "Haswell-EP", 0, false, ioca_pre_skx_note},
	{0x4f, "Broadwell-EP", 0, false, ioca_pre_skx_note},
	{0x56, "Broadwell-DE", 0, false, ioca_pre_skx_note},
	{0x55, "Skylake-SP/Cascade Lake", 0x7ff, true, NULL},
	{0x6a, "Ice Lake-SP", 0, false, ioca_icx_note},
	{0x6c, "Ice Lake-D", 0, false, ioca_icx_note},
	{0x8f, "Sapphire Rapids", 0, false, ioca_unknown_note},
	{0xcf, "Emerald Rapids", 0, false, ioca_unknown_note},
	{0xad, "Granite Rapids-X", 0, false, ioca_unknown_note},
	{0xae, "Granite Rapids-D", 0, false, ioca_unknown_note},
};

/**
 * ioca_ddio_gen_find() - the generation entry of an Intel CPU model
 * @family: CPU family (only 6 has entries)
 * @model: CPU model
 *
 * Return: the entry, or NULL when the model has no known DDIO way control.
 */
const struct ioca_ddio_gen *ioca_ddio_gen_find(unsigned int family, unsigned int model)
{
	unsigned int i;

	if (family != 6)
		return NULL;
	for (i = 0; i < ARRAY_SIZE(ioca_ddio_gens); i++)
		if (ioca_ddio_gens[i].model == model)
			return &ioca_ddio_gens[i];
	return NULL;
}
EXPORT_SYMBOL_IF_KUNIT(ioca_ddio_gen_find);

/**
 * ioca_ddio_gen_matches() - does the LLC have the ways of the model's field?
 * @g: generation entry
 * @llc_ways: ways of the LLC (CPUID leaf 4)
 *
 * A known field that is not the LLC's ways (a VM's CPUID on a model 0x55,
 * say) is not the layout the table describes: the caller falls back to the
 * assumed field and does not call it verified.
 *
 * Return: true when the field is unknown or spans exactly the LLC's ways.
 */
bool ioca_ddio_gen_matches(const struct ioca_ddio_gen *g, u32 llc_ways)
{
	if (!g || !g->field)
		return true;
	if (!llc_ways || llc_ways > IOCA_LLC_MAX_WAYS)
		return false;
	return g->field == GENMASK(llc_ways - 1, 0);
}
EXPORT_SYMBOL_IF_KUNIT(ioca_ddio_gen_matches);

/**
 * ioca_ddio_gen_field() - the register bits that are the DDIO field
 * @g: generation entry, or NULL for the emulated register
 * @llc_ways: ways of the LLC (CPUID leaf 4)
 *
 * The generation's field where it is known and matches the LLC
 * (ioca_ddio_gen_matches()); otherwise the low @llc_ways bits, assumed.
 * Writes keep every bit outside the field.
 *
 * Return: the field mask, 0 for an LLC without ways.
 */
u32 ioca_ddio_gen_field(const struct ioca_ddio_gen *g, u32 llc_ways)
{
	if (g && g->field && ioca_ddio_gen_matches(g, llc_ways))
		return g->field;
	if (!llc_ways)
		return 0;
	return GENMASK(min_t(u32, llc_ways, IOCA_LLC_MAX_WAYS) - 1, 0);
}
EXPORT_SYMBOL_IF_KUNIT(ioca_ddio_gen_field);
