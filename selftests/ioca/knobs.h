/* SPDX-License-Identifier: GPL-2.0 */
/* The sysfs and debugfs files the hotplug and emulation tests turn. */
#ifndef IOCA_SELFTEST_KNOBS_H
#define IOCA_SELFTEST_KNOBS_H

/* Take CPU @cpu offline (@on 0) or back; 0 or -errno. */
int knob_cpu_online(int cpu, int on);
/*
 * Write @rate to the emulated counter rate @file ("ddio_hit_rate",
 * "ddio_miss_rate") of socket @sock in ioca's debugfs; 0 or -errno.
 */
int knob_socket_rate(unsigned int sock, const char *file, unsigned long long rate);

#endif
