// SPDX-License-Identifier: GPL-2.0
/*
 * resctrl_emu: module parameters, CPU hotplug hooks, filesystem
 * registration. The parameters describe the emulated L3 as resctrl's
 * info/L3 would report it; they are read-only once loaded, except the
 * fault-injection knob.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/cpuhotplug.h>
#include <linux/kobject.h>
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/sysfs.h>

#include "fork.h"
#include "fsops.h"
#include "io_alloc.h"
#include "main.h"
#include "members.h"
#include "model.h"

static unsigned int cbm_mask = RCTL_DEFAULT_CBM_MASK;
module_param(cbm_mask, uint, 0444);
MODULE_PARM_DESC(cbm_mask, "info/L3/cbm_mask: all ways, contiguous from bit 0 (default 0x7ff)");

static unsigned int min_cbm_bits = 1;
module_param(min_cbm_bits, uint, 0444);
MODULE_PARM_DESC(min_cbm_bits, "info/L3/min_cbm_bits (default 1)");

static unsigned int num_closids = RCTL_DEFAULT_NUM_CLOSIDS;
module_param(num_closids, uint, 0444);
MODULE_PARM_DESC(num_closids, "info/L3/num_closids, the default group included (default 16)");

static unsigned int shareable_bits;
module_param(shareable_bits, uint, 0444);
MODULE_PARM_DESC(shareable_bits, "info/L3/shareable_bits (default 0)");

static unsigned int cache_ids[RCTL_MAX_DOMAINS] = { 0 };
static unsigned int num_cache_ids = 1;
module_param_array(cache_ids, uint, &num_cache_ids, 0444);
MODULE_PARM_DESC(cache_ids, "L3 cache ids, the schemata's domains (default 0)");

static int io_alloc;
module_param(io_alloc, int, 0444);
MODULE_PARM_DESC(io_alloc,
		 "info/L3/io_alloc{,_cbm}: 1 supported (6.19 with SDCIAE), -1 \"not supported\", 0 absent (default)");

static int fail_next_set(const char *val, const struct kernel_param *kp)
{
	return rctl_fail_next_set(val);
}

static int fail_next_get(char *buf, const struct kernel_param *kp)
{
	return rctl_fail_next_get(buf, PAGE_SIZE);
}

static const struct kernel_param_ops fail_next_ops = {
	.set = fail_next_set,
	.get = fail_next_get,
};

module_param_cb(fail_next_schemata, &fail_next_ops, NULL, 0600);
MODULE_PARM_DESC(fail_next_schemata,
		 "group name (\"/\" for the default group): its next schemata write fails with EIO; empty disarms");

static int hp_state;

static int __init rctl_init(void)
{
	int ret;

	rctl_cfg.cbm_mask = cbm_mask;
	rctl_cfg.min_cbm_bits = min_cbm_bits;
	rctl_cfg.num_closids = num_closids;
	rctl_cfg.shareable_bits = shareable_bits;
	rctl_cfg.num_domains = num_cache_ids;
	rctl_cfg.io_alloc = io_alloc;
	memcpy(rctl_cfg.cache_ids, cache_ids, sizeof(cache_ids));
	ret = rctl_config_check();
	if (ret)
		return ret;

	ret = cpuhp_setup_state_nocalls(CPUHP_AP_ONLINE_DYN, "resctrl_emu:online",
					rctl_cpu_online, rctl_cpu_offline);
	if (ret < 0)
		return ret;
	hp_state = ret;
	/* The mount point resctrl itself provides: /sys/fs/resctrl. */
	ret = sysfs_create_mount_point(fs_kobj, "resctrl");
	if (ret) {
		pr_err("cannot create /sys/fs/resctrl (real RDT?): %d\n", ret);
		goto err_hp;
	}
	ret = register_filesystem(&rctl_fs_type);
	if (ret) {
		if (ret == -EBUSY)
			pr_err("a \"resctrl\" filesystem is already registered (real RDT?)\n");
		goto err_mnt;
	}
	rctl_fork_init();
	pr_info("resctrl emulation: cbm_mask=%x min_cbm_bits=%u num_closids=%u shareable_bits=%x domains=%u io_alloc=%d\n",
		cbm_mask, min_cbm_bits, num_closids, shareable_bits,
		num_cache_ids, io_alloc);
	return 0;

err_mnt:
	sysfs_remove_mount_point(fs_kobj, "resctrl");
err_hp:
	cpuhp_remove_state_nocalls(hp_state);
	return ret;
}

static void __exit rctl_exit(void)
{
	rctl_fork_exit();
	unregister_filesystem(&rctl_fs_type);
	sysfs_remove_mount_point(fs_kobj, "resctrl");
	cpuhp_remove_state_nocalls(hp_state);
}

module_init(rctl_init);
module_exit(rctl_exit);
MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("Test-only emulation of the resctrl filesystem (L3 CAT)");
