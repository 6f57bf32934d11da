/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A capture for net_pcap to replay: the workload's stream in phases, each
 * with its own hot flows (workload_shift() between phases), written as a
 * classic pcap file (microsecond timestamps, Ethernet).
 */
#ifndef DPDK_PCAP_GEN_H
#define DPDK_PCAP_GEN_H

#include <stddef.h>

#include "workload.h"

/* Writes @phases * @per_phase packets of @w to @path, shifting @w's hot
 * set after each phase. 0, or -errno with the reason on stderr.
 */
int pcap_gen_write(const char *path, struct workload *w, size_t per_phase, unsigned int phases);

#endif /* DPDK_PCAP_GEN_H */
