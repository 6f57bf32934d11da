// SPDX-License-Identifier: GPL-2.0
/*
 * resctrl_emu: the schemata file. The parsing follows the kernel's resctrl
 * step by step (arch/x86/kernel/cpu/resctrl/ctrlmondata.c in 6.1), so the
 * same input fails with the same errno and info/last_cmd_status text: a
 * write must end in a newline; every line is "<resource>:<id>=<hex>[;...]";
 * only L3 exists; each domain at most once; a mask is non-zero, within
 * cbm_mask, one run of 1-bits, at least min_cbm_bits long. A write is
 * staged whole and applied only if every line parsed: a refused write
 * changes nothing. Domains a write does not name keep their masks.
 */
#include <linux/bitmap.h>
#include <linux/kernel.h>
#include <linux/string.h>

#include "schemata.h"

int rctl_schemata_show(struct rctl_group *grp, struct seq_file *m)
{
	int width = DIV_ROUND_UP(rctl_cfg.cbm_len, 4);
	unsigned int d;

	seq_puts(m, "L3:");
	for (d = 0; d < rctl_cfg.num_domains; d++)
		seq_printf(m, "%s%u=%0*x", d ? ";" : "", rctl_cfg.cache_ids[d],
			   width, grp->cbm[d]);
	seq_putc(m, '\n');
	return 0;
}

static bool cbm_valid(char *buf, u32 *out)
{
	unsigned long val, first, zero;
	unsigned int len = rctl_cfg.cbm_len;

	if (kstrtoul(buf, 16, &val)) {
		rctl_status("Non-hex character in the mask %s\n", buf);
		return false;
	}
	if (val == 0 || val > rctl_cfg.cbm_mask) {
		rctl_status("Mask out of range\n");
		return false;
	}
	first = find_first_bit(&val, len);
	zero = find_next_zero_bit(&val, len, first);
	if (find_next_bit(&val, len, zero) < len) {
		rctl_status("The mask %lx has non-consecutive 1-bits\n", val);
		return false;
	}
	if (zero - first < rctl_cfg.min_cbm_bits) {
		rctl_status("Need at least %d bits in the mask\n",
			    rctl_cfg.min_cbm_bits);
		return false;
	}
	*out = val;
	return true;
}

static int domain_index(unsigned long id)
{
	unsigned int d;

	for (d = 0; d < rctl_cfg.num_domains; d++)
		if (rctl_cfg.cache_ids[d] == id)
			return d;
	return -1;
}

/*
 * "<id>=<mask>[;<id>=<mask>...]" into @staged, marking @have. An unknown
 * cache id is EINVAL with last_cmd_status left empty ("ok"), as the 6.1
 * kernel does. io_alloc_cbm's lines are parsed by this too.
 */
int rctl_domains_parse(char *line, u32 *staged, bool *have)
{
	char *dom, *id;
	unsigned long dom_id;
	int d;

	while (line && line[0] != '\0') {
		dom = strsep(&line, ";");
		id = strsep(&dom, "=");
		if (!dom || kstrtoul(id, 10, &dom_id)) {
			rctl_status("Missing '=' or non-numeric domain\n");
			return -EINVAL;
		}
		dom = strim(dom);
		d = domain_index(dom_id);
		if (d < 0)
			return -EINVAL;
		if (have[d]) {
			rctl_status("Duplicate domain %d\n", (int)dom_id);
			return -EINVAL;
		}
		if (!cbm_valid(dom, &staged[d]))
			return -EINVAL;
		have[d] = true;
	}
	return 0;
}

int rctl_schemata_write(struct rctl_group *grp, char *buf, size_t len)
{
	u32 staged[RCTL_MAX_DOMAINS];
	bool have[RCTL_MAX_DOMAINS] = { false };
	char *tok, *res;
	unsigned int d;
	int ret;

	if (!len || buf[len - 1] != '\n')
		return -EINVAL;
	buf[len - 1] = '\0';
	rctl_status_clear();
	memcpy(staged, grp->cbm, sizeof(staged));

	while ((tok = strsep(&buf, "\n"))) {
		res = strim(strsep(&tok, ":"));
		if (!tok) {
			rctl_status("Missing ':'\n");
			return -EINVAL;
		}
		if (tok[0] == '\0') {
			rctl_status("Missing '%s' value\n", res);
			return -EINVAL;
		}
		if (strcmp(res, "L3")) {
			rctl_status("Unknown or unsupported resource name '%s'\n",
				    res);
			return -EINVAL;
		}
		ret = rctl_domains_parse(tok, staged, have);
		if (ret)
			return ret;
	}
	if (rctl_fail_next_take(grp)) {
		rctl_status("Injected failure (resctrl_emu fail_next_schemata)\n");
		return -EIO;
	}
	for (d = 0; d < rctl_cfg.num_domains; d++)
		if (have[d])
			grp->cbm[d] = staged[d];
	return 0;
}
