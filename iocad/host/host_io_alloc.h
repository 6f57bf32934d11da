/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The host platform's io_alloc backend (io_control = io_alloc, or auto on
 * a kernel whose info/L3/io_alloc is supported): each socket's DDIO mask
 * of the plans is its L3 domain's io_alloc_cbm mask instead of ioca.ko's
 * DDIO register; ioca.ko still samples the counters. Internal to the host
 * platform (host_platform.c opens it, host_apply.c and host_ops.c ask it).
 */
#ifndef IOCAD_HOST_IO_ALLOC_H
#define IOCAD_HOST_IO_ALLOC_H

#include "host_state.h"

struct host_platform_opts;

/*
 * Choose the backend by @o->io_control and what info/L3/io_alloc says;
 * for io_alloc, enable it, read every socket's mask as its starting DDIO
 * mask and mark the DDIO counters absent. 0 or -errno with @err set.
 */
int host_io_alloc_open(struct host *h, const struct host_platform_opts *o, char *err,
		       size_t errlen);

/* Set the masks @req says; on a refusal the ones set go back. 0 or -errno. */
int host_io_alloc_set(struct host *h, const struct ioca_ddio_req *req, size_t n);

/* Every socket's io_alloc mask now, into @out and ddio_cur. */
void host_io_alloc_seen(struct host *h, struct platform_sample *out);

/* io_alloc as open found it (disabled, or its masks). 0 or -errno. */
int host_io_alloc_restore(struct host *h);

/*
 * Whether @ngroups groups fit beside the CLOSID io_alloc reserves (none
 * without the backend): 0, or -ENOSPC with h->last_err saying so.
 */
int host_io_alloc_check_closids(struct host *h, struct rdt *any, unsigned int ngroups);

#endif /* IOCAD_HOST_IO_ALLOC_H */
