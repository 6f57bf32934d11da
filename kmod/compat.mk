# SPDX-License-Identifier: GPL-2.0
# API probes for compat.h: grep the target's headers (srctree is the
# headers tree for distribution kernels). Included by both Kbuild files.
ioca_has = $(shell grep -qsE '$(2)' $(srctree)/$(1) && echo -D$(3))
ccflags-y += $(call ioca_has,arch/x86/include/asm/msr.h,rdmsrq_safe_on_cpu,IOCA_HAVE_RDMSRQ)
ccflags-y += $(call ioca_has,include/linux/hrtimer.h,void hrtimer_setup.struct hrtimer,IOCA_HAVE_HRTIMER_SETUP)
ccflags-y += $(call ioca_has,include/linux/module.h,MODULE_INFO.import_ns$(comma) ns.$$,IOCA_HAVE_NS_STRING)
