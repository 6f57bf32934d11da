// SPDX-License-Identifier: GPL-2.0
/*
 * Sockets as the module sees them: logical packages of the CPUs that exist
 * and are online, never an estimate from CPU counts.
 */
#include <linux/cpu.h>
#include <linux/cpumask.h>
#include <linux/topology.h>
#include "compat.h"
#include "topo.h"

/**
 * ioca_nr_sockets_locked() - packages that have a CPU online now
 *
 * The highest logical package id of an online CPU, plus one. The caller
 * holds the hotplug lock: taking its read side again would deadlock
 * against a waiting writer. (lockdep_assert_cpus_held() would say so, but
 * 6.1 does not export it to modules.)
 *
 * Return: the count, at least 1.
 */
unsigned int ioca_nr_sockets_locked(void)
{
	unsigned int cpu, n = 1;

	for_each_online_cpu(cpu)
		n = max_t(unsigned int, n,
			  topology_logical_package_id(cpu) + 1);
	return n;
}
EXPORT_SYMBOL_IF_KUNIT(ioca_nr_sockets_locked);

/**
 * ioca_nr_sockets() - ioca_nr_sockets_locked() for callers without the lock
 *
 * Return: the count, at least 1.
 */
unsigned int ioca_nr_sockets(void)
{
	unsigned int n;

	cpus_read_lock();
	n = ioca_nr_sockets_locked();
	cpus_read_unlock();
	return n;
}
EXPORT_SYMBOL_IF_KUNIT(ioca_nr_sockets);

/**
 * ioca_socket_cpu() - any online CPU of a package
 * @socket: logical package id
 *
 * The caller holds the hotplug lock (read or write).
 *
 * Return: the CPU, or -1 when the package has none online.
 */
int ioca_socket_cpu(unsigned int socket)
{
	unsigned int cpu;

	for_each_online_cpu(cpu)
		if (topology_logical_package_id(cpu) == socket)
			return cpu;
	return -1;
}
EXPORT_SYMBOL_IF_KUNIT(ioca_socket_cpu);
