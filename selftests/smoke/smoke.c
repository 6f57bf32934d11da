// SPDX-License-Identifier: GPL-2.0
/*
 * Smoke test of the VM runner: proves that a module built in the tree
 * against KDIR loads into the kernel run.sh boots, that its printk reaches
 * dmesg and that it unloads. vmtest.sh passes a fresh random token and looks
 * for it in the line below, so a stale log or another module cannot pass.
 */
#include <linux/init.h>
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/utsname.h>

static char *token = "none";
module_param(token, charp, 0444);
MODULE_PARM_DESC(token, "string echoed in the load message");

static int __init ioca_smoke_init(void)
{
	pr_info("ioca_smoke: loaded token=%s release=%s\n", token,
		init_utsname()->release);
	return 0;
}

static void __exit ioca_smoke_exit(void)
{
	pr_info("ioca_smoke: unloaded token=%s\n", token);
}

module_init(ioca_smoke_init);
module_exit(ioca_smoke_exit);

MODULE_DESCRIPTION("ioca VM runner smoke test");
MODULE_LICENSE("GPL");
