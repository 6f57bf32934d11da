/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The options host_platform_open() takes (host_platform.h), in a header of
 * their own so the parts that read them (host_io_alloc.c) need nothing of
 * the opening.
 */
#ifndef IOCAD_HOST_OPTS_H
#define IOCAD_HOST_OPTS_H

#include <signal.h>
#include <stddef.h>

typedef void (*host_print_fn)(void *arg, const char *msg);

struct host_platform_opts {
	size_t sz;		  /* sizeof(struct host_platform_opts) */
	const char *resctrl_root; /* NULL: /sys/fs/resctrl */
	const char *cpu_root;	  /* NULL: /sys/devices/system/cpu */
	const char *lock_dir;	  /* NULL: /run/iocad */
	/* Set by SIGTERM/SIGINT: wait() and poll() return within 100 ms. May be NULL. */
	volatile sig_atomic_t *stop;
	host_print_fn print; /* notices (cleanup, DDIO counters); NULL: stderr */
	void *print_arg;
	/* what sets I/O's ways: enum io_control (host/io_alloc.h); 0 is auto */
	int io_control;
	size_t : 0;
};
#define host_platform_opts__last_field io_control

#endif /* IOCAD_HOST_OPTS_H */
