/* SPDX-License-Identifier: GPL-2.0 */
/*
 * resctrl's L3 facts and text formats (the kernel's
 * Documentation/arch/x86/resctrl.rst): info/L3/{cbm_mask, min_cbm_bits,
 * num_closids, shareable_bits}, schemata lines "L3:<id>=<hex>;<id>=<hex>",
 * and the kernel's rules for a cache bit mask, checked here before a write
 * so a bad plan is refused without touching the filesystem.
 */
#ifndef IOCAD_RDT_INFO_H
#define IOCAD_RDT_INFO_H

#include <stddef.h>
#include <stdint.h>

#include "platform.h"

#define RDT_ROOT_DEFAULT "/sys/fs/resctrl"

struct rdt_l3_info {
	uint32_t cbm_mask;	   /* every way CAT can give: the LLC's ways */
	unsigned int cbm_len;	   /* bits in cbm_mask */
	unsigned int min_cbm_bits; /* fewest ways in one mask */
	unsigned int num_closids;  /* groups including the default one */
	uint32_t shareable_bits;   /* ways other agents (e.g. I/O) may use */
};

/*
 * Read @root/info/L3/. Not mounted (no @root/info) and mounted without L3
 * CAT are told apart; @err then says how to mount or what is missing.
 * Returns 0, -ENOENT (not mounted / no L3), or -EINVAL (unreadable value).
 */
int rdt_info_read(const char *root, struct rdt_l3_info *out, char *err, size_t errlen);

/*
 * The kernel's rules for one L3 mask: non-zero, within cbm_mask,
 * contiguous, at least min_cbm_bits bits. 0 or -EINVAL with @why set.
 */
int rdt_info_check_mask(const struct rdt_l3_info *info, uint32_t mask, char *why, size_t len);

/*
 * Find cache @id's mask in a schemata file's text (any number of lines,
 * only the "L3:" one is read). 0, or -ENOENT if the line or the id is
 * absent, -EINVAL if the line does not parse.
 */
int rdt_info_schemata_l3(const char *text, unsigned int id, uint32_t *mask);

/* A CPU list ("0-3,8", resctrl's cpus_list) into @out; 0 or -EINVAL. */
int rdt_parse_cpus(const char *list, struct platform_cpuset *out);

/* Read a small file whole into @buf (NUL-terminated). 0 or -errno. */
int rdt_info_read_file(const char *path, char *buf, size_t len);

#endif /* IOCAD_RDT_INFO_H */
