/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The host platform's struct platform_ops (host_ops.c, host_apply.c) over
 * its state (host_state.h); host_platform.c opens and closes it. Internal.
 */
#ifndef IOCAD_HOST_OPS_H
#define IOCAD_HOST_OPS_H

#include <stdbool.h>
#include <stdint.h>

#include <libioca.h>

#include "host_state.h"
#include "host_watch.h"
#include "platform.h"

extern const struct platform_ops host_platform_ops;

/* The module's word on one socket's DDIO way control, into the platform's info. */
void host_ddio_control(struct platform_socket_info *ps, const struct ioca_ddio_control *dc);

/* The plan's socket @id, or NULL if the plan has none of iocad's state there. */
const struct platform_socket_plan *host_plan_socket(const struct platform_plan *p, unsigned int id);

int host_check(void *ctx, const struct platform_plan *p);
int host_apply(void *ctx, const struct platform_plan *p);
int host_restore(void *ctx);

/*
 * host_apply.c's CAT steps, for host_watch.c: stage @p's CAT on every
 * socket (0, or -errno with last_err set and every socket put back);
 * remove what the staged plan dropped; after a failure, read resctrl and
 * the DDIO masks back and return @r.
 */
int host_apply_cat(struct host *h, const struct platform_plan *p);
void host_commit_cat(struct host *h);
int host_reread(struct host *h, int r);

void host_destroy(void *ctx);

#endif /* IOCAD_HOST_OPS_H */
