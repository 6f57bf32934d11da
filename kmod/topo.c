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
 * holds the hotplug lock (read or write): taking it again for reading
 * could deadlock behind a waiting writer.
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

/**
 * ioca_package_present() - whether a package of the machine has CPUs
 * @socket: logical package id
 *
 * Offline CPUs count: their package id is kept from when they were up.
 * The caller holds the hotplug lock (read or write).
 *
 * Return: true when a present CPU belongs to the package.
 */
bool ioca_package_present(unsigned int socket)
{
	unsigned int cpu;

	for_each_present_cpu(cpu)
		if (topology_logical_package_id(cpu) == socket)
			return true;
	return false;
}
EXPORT_SYMBOL_IF_KUNIT(ioca_package_present);
