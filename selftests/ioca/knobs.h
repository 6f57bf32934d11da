/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The sysfs and debugfs files the hotplug and emulation tests turn, and the
 * capability set the privilege tests drop to.
 */
#ifndef IOCA_SELFTEST_KNOBS_H
#define IOCA_SELFTEST_KNOBS_H

/* Take CPU @cpu offline (@on 0) or back; 0 or -errno. */
int knob_cpu_online(int cpu, int on);
/*
 * Write @rate to the emulated counter rate @file ("ddio_hit_rate",
 * "ddio_miss_rate") of socket @sock in ioca's debugfs; 0 or -errno.
 */
int knob_socket_rate(unsigned int sock, const char *file, unsigned long long rate);

/*
 * Make the emulated DDIO register of socket @sock "locked" (ignores
 * writes), "ignoring" (takes them, DDIO does not follow) or "normal"
 * through ioca's debugfs (ioca/socketN/ddio_register); 0 or -errno.
 */
int knob_ddio_register(unsigned int sock, const char *mode);

/* The integer in sysfs file @path (a CPU's online, a PMU's type); 0 or -errno. */
int knob_read_int(const char *path, int *v);

/* Keep exactly the capabilities in bit mask @caps (permitted and effective). */
int knob_keep_caps(unsigned long long caps);

#endif
