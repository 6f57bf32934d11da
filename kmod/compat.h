/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Shims for kernel APIs that moved after 6.1, so one source builds on the
 * Debian 6.1 kernel and on newer ones. Only this file tests versions.
 */
#ifndef _IOCA_COMPAT_H
#define _IOCA_COMPAT_H

#include <linux/module.h>
#include <linux/hrtimer.h>
#include <net/genetlink.h>
#include <asm/cpu_device_id.h>
#include <asm/msr.h>
#include <kunit/visibility.h>

/*
 * Feature macros IOCA_HAVE_* come from Kbuild, which greps the target
 * kernel's headers: the renamed functions cannot be tested with #ifdef.
 */

/* 6.16 renamed the 64-bit MSR helpers from *msrl* to *msrq*. */
#ifdef IOCA_HAVE_RDMSRQ
#define ioca_rdmsr_on_cpu(cpu, msr, q)	rdmsrq_safe_on_cpu(cpu, msr, q)
#define ioca_wrmsr_on_cpu(cpu, msr, q)	wrmsrq_safe_on_cpu(cpu, msr, q)
#else
#define ioca_rdmsr_on_cpu(cpu, msr, q)	rdmsrl_safe_on_cpu(cpu, msr, q)
#define ioca_wrmsr_on_cpu(cpu, msr, q)	wrmsrl_safe_on_cpu(cpu, msr, q)
#endif

/*
 * Intel model matching: the INTEL_FAM6_* names went away once X86_MATCH_VFM
 * arrived (6.10); match on family and model numbers, through the
 * vendor/family/model macro while it exists, else through a VFM value.
 */
#ifdef X86_MATCH_VENDOR_FAM_MODEL
#define IOCA_MATCH_INTEL_MODEL(model, data) \
	X86_MATCH_VENDOR_FAM_MODEL(INTEL, 6, model, data)
#else
#define IOCA_MATCH_INTEL_MODEL(model, data) \
	X86_MATCH_VFM(VFM_MAKE(X86_VENDOR_INTEL, 6, model), data)
#endif

/* 6.13 made the namespace argument a string literal. */
#ifdef IOCA_HAVE_NS_STRING
#define IOCA_IMPORT_KUNIT_NS() MODULE_IMPORT_NS("EXPORTED_FOR_KUNIT_TESTING")
#else
#define IOCA_IMPORT_KUNIT_NS() MODULE_IMPORT_NS(EXPORTED_FOR_KUNIT_TESTING)
#endif

/*
 * Multicast group permissions: GENL_MCAST_CAP_NET_ADMIN and _SYS_ADMIN
 * arrived in 6.6 (and in 6.1.y stable). Without them the core cannot check
 * capabilities on join, so refuse to build rather than publish counters to
 * anyone. The core has no CAP_PERFMON flag and 6.1 no per-family bind hook:
 * joining asks CAP_NET_ADMIN and CAP_SYS_ADMIN, which implies
 * perfmon_capable().
 */
#if defined(GENL_MCAST_CAP_NET_ADMIN) && defined(GENL_MCAST_CAP_SYS_ADMIN)
#define IOCA_MCGRP_FLAGS (GENL_MCAST_CAP_NET_ADMIN | GENL_MCAST_CAP_SYS_ADMIN)
#else
#error "kernel lacks GENL_MCAST_CAP_NET_ADMIN/_SYS_ADMIN (6.6+, 6.1.y stable)"
#endif

/* 6.15 added hrtimer_setup(); hrtimer_init() went away in 6.17. */
#ifdef IOCA_HAVE_HRTIMER_SETUP
#define ioca_hrtimer_setup(t, fn, clock, mode) hrtimer_setup(t, fn, clock, mode)
#else
static inline void
ioca_hrtimer_setup(struct hrtimer *t, enum hrtimer_restart (*fn)(struct hrtimer *),
		   clockid_t clock, enum hrtimer_mode mode)
{
	hrtimer_init(t, clock, mode);
	t->function = fn;
}
#endif

/* Exported to the KUnit test modules only, when CONFIG_KUNIT is set. */
#ifndef EXPORT_SYMBOL_IF_KUNIT
#error "kernel lacks kunit/visibility.h (EXPORT_SYMBOL_IF_KUNIT)"
#endif

#endif /* _IOCA_COMPAT_H */
