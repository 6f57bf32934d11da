/* SPDX-License-Identifier: GPL-2.0 */
/*
 * iocactl: the operator's client for ioca.ko's generic netlink family, on
 * libioca. Exit status: 0 done, 1 the request failed, 2 usage error.
 */
#ifndef IOCACTL_IOCACTL_H
#define IOCACTL_IOCACTL_H

#include "ctl_cmds.h"

#define IOCACTL_EXIT_FAIL 1
#define IOCACTL_EXIT_USAGE 2

/* One command: the words that select it, its arguments, help, handler. */
struct ctl_cmd {
	const char *name; /* "ddio set" */
	const char *args; /* "SOCKET mask MASK | SOCKET ways N" */
	const char *help;
	int (*handler)(struct ctl_ctx *x, int argc, char **argv);
};

/* The table (iocactl.c), ending with a NULL name. */
extern const struct ctl_cmd ctl_cmds[];

/* Prints "usage: iocactl NAME ARGS" for @cmd, or every command when NULL. */
void ctl_print_usage(FILE *f, const struct ctl_cmd *cmd);

#endif
