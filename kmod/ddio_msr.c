// SPDX-License-Identifier: GPL-2.0
/*
 * The real DDIO backend: IIO_LLC_WAYS (MSR 0xC8B), one register per package.
 *
 * Support is decided by the CPU model table, never by probing the MSR: under
 * QEMU's TCG unknown MSRs read as 0 and writes vanish without a fault, so a
 * probe would "succeed" anywhere.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/cpu.h>
#include <linux/security.h>
#include <linux/topology.h>
#include <asm/processor.h>
#include "compat.h"
#include "ddio_gen.h"
#include "ddio_msr.h"
#include "topo.h"

/*
 * The models and their DDIO fields are in ddio_gen.c. No
 * MODULE_DEVICE_TABLE: udev would load the module at boot on every listed
 * Xeon; the service loads it when wanted.
 */
static const struct ioca_ddio_gen *ioca_ddio_msr_gen(void)
{
	if (boot_cpu_data.x86_vendor != X86_VENDOR_INTEL)
		return NULL;
	return ioca_ddio_gen_find(boot_cpu_data.x86, boot_cpu_data.x86_model);
}

bool ioca_ddio_msr_locked_down(void)
{
	return security_locked_down(LOCKDOWN_MSR) != 0;
}

/* CPUID leaf 4: the L3 descriptor's ways field (EBX[31:22] + 1). */
static u32 ioca_cpuid_llc_ways(void)
{
	unsigned int i, eax, ebx, ecx, edx;

	if (boot_cpu_data.cpuid_level < 4)
		return 0;
	for (i = 0; i < 16; i++) {
		cpuid_count(4, i, &eax, &ebx, &ecx, &edx);
		if (!(eax & 0x1f))
			break;
		if (((eax >> 5) & 0x7) == 3)
			return ((ebx >> 22) & 0x3ff) + 1;
	}
	return 0;
}

/* CPUID.(EAX=10h,ECX=1):EBX, the L3 ways shared with I/O; 0 if absent. */
static u32 ioca_cpuid_ddio_default(void)
{
	unsigned int eax, ebx, ecx, edx;

	if (boot_cpu_data.cpuid_level < 0x10)
		return 0;
	cpuid_count(0x10, 0, &eax, &ebx, &ecx, &edx);
	if (!(ebx & BIT(1)))
		return 0;
	cpuid_count(0x10, 1, &eax, &ebx, &ecx, &edx);
	return ebx;
}

/* Any online CPU of the package; the caller holds the hotplug lock. */
static int ioca_msr_socket_cpu(unsigned int socket)
{
	int cpu = ioca_socket_cpu(socket);

	return cpu < 0 ? -ENODEV : cpu;
}

static int ioca_msr_read(struct ioca_ddio *d, unsigned int socket, u64 *raw)
{
	int cpu = ioca_msr_socket_cpu(socket);

	*raw = 0;
	return cpu < 0 ? cpu : ioca_rdmsr_on_cpu(cpu, IOCA_MSR_IIO_LLC_WAYS, raw);
}

static int ioca_msr_write(struct ioca_ddio *d, unsigned int socket, u64 raw)
{
	int cpu;

	if (ioca_ddio_msr_locked_down())
		return -EPERM;
	cpu = ioca_msr_socket_cpu(socket);
	return cpu < 0 ? cpu : ioca_wrmsr_on_cpu(cpu, IOCA_MSR_IIO_LLC_WAYS, raw);
}

static bool ioca_msr_online(struct ioca_ddio *d, unsigned int socket)
{
	return ioca_msr_socket_cpu(socket) >= 0;
}

static int ioca_msr_may_write(const char **why)
{
	if (!ioca_ddio_msr_locked_down())
		return 0;
	*why = "kernel lockdown forbids MSR writes (LOCKDOWN_MSR)";
	return -EPERM;
}

static const struct ioca_ddio_backend ioca_ddio_msr = {
	.id = IOCA_BACKEND_MSR,
	.name = "msr",
	.read = ioca_msr_read,
	.write = ioca_msr_write,
	.may_write = ioca_msr_may_write,
	.online = ioca_msr_online,
};

/**
 * ioca_ddio_init_msr() - set up the MSR backend on a supported CPU
 * @d: state to fill
 * @min_ways: fewest ways a mask may have
 * @why: set to the reason on failure, for the load message
 *
 * Return: 0, -ENODEV when the CPU is not in the table or has no usable L3,
 * -EINVAL when @min_ways exceeds the LLC ways, -E2BIG with more packages
 * than IOCA_MAX_SOCKETS, or a backend -errno.
 */
int ioca_ddio_init_msr(struct ioca_ddio *d, unsigned int min_ways,
		       const char **why)
{
	const struct ioca_ddio_gen *gen = ioca_ddio_msr_gen();
	unsigned int sockets = ioca_nr_sockets();
	u32 ways, def, field;
	int err;

	if (!gen) {
		*why = "CPU model has no DDIO way control";
		return -ENODEV;
	}
	ways = ioca_cpuid_llc_ways();
	if (ways < 2 || ways > IOCA_LLC_MAX_WAYS) {
		*why = "CPUID leaf 4 reports no usable L3";
		return -ENODEV;
	}
	if (min_ways > ways) {
		*why = "min_ways exceeds the LLC ways";
		return -EINVAL;
	}
	if (sockets > IOCA_MAX_SOCKETS) {
		*why = "more packages than IOCA_MAX_SOCKETS";
		return -E2BIG;
	}
	if (!ioca_ddio_gen_matches(gen, ways))
		pr_notice("%s: CPUID reports %u LLC ways, not the %u of DDIO field 0x%x: assuming the low %u bits, unverified\n",
			  gen->name, ways, hweight32(gen->field), gen->field,
			  ways);
	field = ioca_ddio_gen_field(gen, ways);
	def = ioca_cpuid_ddio_default();
	if (!def || def & ~field)
		def = ioca_ddio_default_mask(ways);
	err = ioca_ddio_init_field(d, &ioca_ddio_msr, sockets, ways, def,
				   min_ways, field);
	if (err) {
		*why = "reading IIO_LLC_WAYS failed";
		return err;
	}
	d->gen = gen;
	d->verified = gen->verified && ioca_ddio_gen_matches(gen, ways);
	return 0;
}
