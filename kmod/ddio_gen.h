/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _IOCA_DDIO_GEN_H
#define _IOCA_DDIO_GEN_H

#include <linux/types.h>

/**
 * struct ioca_ddio_gen - what is public about IIO_LLC_WAYS on one CPU model
 * @model: Intel family 6 model number
 * @name: the generation, for the load message
 * @field: bits of the register that are DDIO ways; 0 where that is not
 *	public: the low llc_ways bits are assumed
 * @verified: a written mask is confirmed to change where DDIO allocates
 * @note: what is reported against the register there, or NULL
 */
struct ioca_ddio_gen {
	u8 model;
	const char *name;
	u32 field;
	bool verified;
	const char *note;
};

const struct ioca_ddio_gen *ioca_ddio_gen_find(unsigned int family,
					       unsigned int model);
bool ioca_ddio_gen_matches(const struct ioca_ddio_gen *g, u32 llc_ways);
u32 ioca_ddio_gen_field(const struct ioca_ddio_gen *g, u32 llc_ways);

#endif /* _IOCA_DDIO_GEN_H */
