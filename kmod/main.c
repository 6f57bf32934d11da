// SPDX-License-Identifier: GPL-2.0
/*
 * ioca: DDIO way control and in-kernel counter sampling over generic netlink.
 *
 * Module init and exit. The DDIO backend is chosen here: the real MSR on
 * the CPU models that have it, or software registers when asked with
 * emulate=1 (VMs, CI). Nothing else is ever probed.
 *
 * The module carries no device table and no genetlink family alias: it is
 * loaded by whoever wants it (the service), never by udev at boot or by an
 * unprivileged family lookup, which on an unsupported CPU would fail and log
 * an error each time.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/cpuhotplug.h>
#include <linux/debugfs.h>
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/topology.h>
#include "compat.h"
#include "ddio_emul.h"
#include "ddio_gen.h"
#include "ddio_msr.h"
#include "main.h"
#include "netlink.h"
#include "owner.h"
#include "topo.h"

struct ioca_ctx ioca_ctx;

static bool emulate;
module_param(emulate, bool, 0444);
MODULE_PARM_DESC(emulate, "Use software DDIO registers instead of MSR 0xC8B");

static uint emulate_ways = 11;
module_param(emulate_ways, uint, 0444);
MODULE_PARM_DESC(emulate_ways, "LLC ways of the emulated sockets (default 11)");

static uint emulate_sockets;
module_param(emulate_sockets, uint, 0444);
MODULE_PARM_DESC(emulate_sockets,
		 "Emulated sockets, 1-8 (default: the machine's packages)");

static uint part_budget = IOCA_PART_BUDGET;
module_param(part_budget, uint, 0444);
MODULE_PARM_DESC(part_budget,
		 "Payload bytes per sample message, 512-16384 (default 16384; smaller for tests)");

static uint min_ways = IOCA_DDIO_MIN_WAYS_DEFAULT;
module_param(min_ways, uint, 0444);
MODULE_PARM_DESC(min_ways, "Fewest DDIO ways a mask may have (default 2)");

static int __init ioca_ddio_setup(struct ioca_ddio *d)
{
	const char *why = NULL;
	unsigned int sockets;
	int err;

	if (!min_ways || min_ways > IOCA_LLC_MAX_WAYS) {
		pr_err("min_ways=%u out of range 1-%u\n", min_ways,
		       IOCA_LLC_MAX_WAYS);
		return -EINVAL;
	}
	if (emulate) {
		sockets = emulate_sockets ?: ioca_nr_sockets();
		if (!sockets || sockets > IOCA_MAX_SOCKETS ||
		    emulate_ways < min_ways || emulate_ways < 2 ||
		    emulate_ways > IOCA_LLC_MAX_WAYS) {
			pr_err("emulate_sockets=%u (1-%u) or emulate_ways=%u (%u-%u) out of range\n",
			       sockets, IOCA_MAX_SOCKETS, emulate_ways,
			       max_t(uint, min_ways, 2), IOCA_LLC_MAX_WAYS);
			return -EINVAL;
		}
		return ioca_ddio_init_emulated(d, sockets, emulate_ways,
					       min_ways);
	}
	err = ioca_ddio_init_msr(d, min_ways, &why);
	if (err == -ENODEV)
		pr_err("%s (family %u model 0x%02x); load with emulate=1 to use software DDIO registers\n",
		       why, boot_cpu_data.x86, boot_cpu_data.x86_model);
	else if (err)
		pr_err("DDIO setup failed: %s (%d)\n", why, err);
	return err;
}

static void ioca_print_backend(const struct ioca_ddio *d)
{
	pr_info("backend %s, %u socket(s), %u LLC ways, DDIO mask 0x%x, field 0x%x%s%s\n",
		d->ops->name, d->nr_sockets, d->sock[0].llc_ways,
		d->sock[0].boot_mask, d->field,
		d->ops->id == IOCA_BACKEND_MSR && !d->verified ?
		", model supported but unverified" : "",
		d->ops->id == IOCA_BACKEND_MSR && ioca_ddio_msr_locked_down() ?
		", MSR writes refused by kernel lockdown" : "");
	if (d->gen && d->gen->note)
		pr_notice("%s (model 0x%02x): %s\n", d->gen->name,
			  d->gen->model, d->gen->note);
}

static int ioca_cpuhp_online(unsigned int cpu)
{
	ioca_ddio_cpu_online(&ioca_ctx.ddio, cpu);
	return 0;
}

static int ioca_cpuhp_offline(unsigned int cpu)
{
	ioca_ddio_cpu_offline(&ioca_ctx.ddio, cpu);
	return 0;
}

/*
 * sampler_fail_starts takes a count 0..INT_MAX and nothing else:
 * debugfs_create_atomic_t() stored "-1" (a count that never fails a
 * start) and truncated 2^32 + 1 to 1.
 */
static int ioca_fail_starts_get(void *data, u64 *val)
{
	*val = atomic_read(data);
	return 0;
}

static int ioca_fail_starts_set(void *data, u64 val)
{
	if (val > INT_MAX)
		return -EINVAL;
	atomic_set(data, val);
	return 0;
}

DEFINE_DEBUGFS_ATTRIBUTE(ioca_fail_starts_fops, ioca_fail_starts_get,
			 ioca_fail_starts_set, "%llu\n");

static int __init ioca_init(void)
{
	int err;

	if (part_budget < IOCA_PART_BUDGET_MIN ||
	    part_budget > IOCA_PART_BUDGET_MAX) {
		pr_err("part_budget=%u out of range %u-%u\n", part_budget,
		       IOCA_PART_BUDGET_MIN, IOCA_PART_BUDGET_MAX);
		return -EINVAL;
	}
	mutex_init(&ioca_ctx.owner_lock);
	/* ORDER: DDIO state (ways, root ports), sampler, owner watch, the family. */
	err = ioca_ddio_setup(&ioca_ctx.ddio);
	if (err)
		return err;
	ioca_ddio_ports_init(&ioca_ctx.ports, emulate);
	err = cpuhp_setup_state_nocalls(CPUHP_AP_ONLINE_DYN, "ioca/ddio:online",
					ioca_cpuhp_online, ioca_cpuhp_offline);
	if (err < 0)
		goto err_ddio_exit;
	ioca_ctx.cpuhp_state = err;
	err = ioca_sampler_init(&ioca_ctx.sampler);
	if (err)
		goto err_remove_state;
	ioca_ctx.sampler.part_budget = part_budget;
	ioca_ctx.sampler.ddio = &ioca_ctx.ddio;
	if (emulate) {
		ioca_emul_init(&ioca_ctx.emul, ioca_ctx.ddio.nr_sockets);
		ioca_ctx.sampler.emul = &ioca_ctx.emul;
	}
	err = ioca_owner_register();
	if (err)
		goto err_sampler_exit;
	err = ioca_nl_register();
	if (err)
		goto err_owner_unregister;
	if (emulate) {
		ioca_emul_debugfs_init(&ioca_ctx.emul);
		ioca_ddio_emul_debugfs_init(&ioca_ctx.ddio, ioca_ctx.emul.dir);
		ioca_ddio_ports_debugfs_init(&ioca_ctx.ports, ioca_ctx.emul.dir);
		/* Tests: the next N sampler starts fail as on a busy PMU. */
		debugfs_create_file_unsafe("sampler_fail_starts", 0600,
					   ioca_ctx.emul.dir,
					   &ioca_ctx.sampler.fail_starts,
					   &ioca_fail_starts_fops);
	}
	ioca_print_backend(&ioca_ctx.ddio);
	if (!ioca_ctx.sampler.hw_counters)
		pr_info("no hardware perf events, counting cpu-clock instead\n");
	return 0;

err_owner_unregister:
	ioca_owner_unregister();
err_sampler_exit:
	ioca_sampler_shutdown(&ioca_ctx.sampler);
	ioca_sampler_exit(&ioca_ctx.sampler);
err_remove_state:
	cpuhp_remove_state_nocalls(ioca_ctx.cpuhp_state);
err_ddio_exit:
	ioca_ddio_ports_exit(&ioca_ctx.ports);
	ioca_ddio_exit(&ioca_ctx.ddio);
	return err;
}

static void __exit ioca_exit(void)
{
	/* No owner callback may run on a sampler or DDIO state being freed. */
	ioca_owner_unregister();
	/* Stop first: the collector must not multicast on a gone family. */
	ioca_sampler_shutdown(&ioca_ctx.sampler);
	ioca_nl_unregister();
	ioca_emul_exit(&ioca_ctx.emul);
	ioca_sampler_exit(&ioca_ctx.sampler);
	cpuhp_remove_state_nocalls(ioca_ctx.cpuhp_state);
	ioca_ddio_ports_exit(&ioca_ctx.ports);
	ioca_ddio_exit(&ioca_ctx.ddio);
}

module_init(ioca_init);
module_exit(ioca_exit);

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("DDIO way control and in-kernel counter sampling (ioca)");
