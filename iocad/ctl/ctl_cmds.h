/* SPDX-License-Identifier: GPL-2.0 */
/*
 * iocactl's command handlers, one per row of the table in iocactl.c. Each
 * gets the words after its name and returns an exit status (iocactl.h).
 */
#ifndef IOCACTL_CTL_CMDS_H
#define IOCACTL_CTL_CMDS_H

/* What every handler needs: how to report a usage error. */
struct ctl_cmd;
struct ctl_ctx {
	const struct ctl_cmd *cmd; /* the row being run, for its usage line */
};

int ctl_cmd_info(struct ctl_ctx *x, int argc, char **argv);
int ctl_cmd_ddio_set(struct ctl_ctx *x, int argc, char **argv);
int ctl_cmd_ddio_restore(struct ctl_ctx *x, int argc, char **argv);
int ctl_cmd_ddio_device(struct ctl_ctx *x, int argc, char **argv);
int ctl_cmd_sampler_set(struct ctl_ctx *x, int argc, char **argv);
int ctl_cmd_sampler_start(struct ctl_ctx *x, int argc, char **argv);
int ctl_cmd_sampler_stop(struct ctl_ctx *x, int argc, char **argv);
int ctl_cmd_sample(struct ctl_ctx *x, int argc, char **argv);
int ctl_cmd_monitor(struct ctl_ctx *x, int argc, char **argv);

/*
 * Prints "iocactl: " + the formatted message (+ ": " + @why when non-NULL)
 * and the usage line of x->cmd to stderr; returns IOCACTL_EXIT_USAGE.
 */
int ctl_usage(const struct ctl_ctx *x, const char *why, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

#endif
