// SPDX-License-Identifier: GPL-2.0
/*
 * The io_alloc backend of the host platform's DDIO control (io_alloc.c
 * talks to resctrl). ioca.ko's DDIO register is never written with it.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "host_io_alloc.h"
#include "host_opts.h"
#include "io_alloc.h"

static enum io_control wanted(const struct host_platform_opts *o)
{
	if (o->sz < offsetof(struct host_platform_opts, io_control) + sizeof(o->io_control))
		return IO_CONTROL_DDIO;
	return (enum io_control)o->io_control;
}

/* Each socket's starting DDIO mask is its domain's io_alloc mask. */
static int read_start(struct host *h, char *err, size_t errlen)
{
	for (unsigned int id = 0; id < PLATFORM_MAX_SOCKETS; id++) {
		struct host_sock *hs = &h->sock[id];
		uint32_t mask;
		int r;

		if (!hs->rdt)
			continue;
		r = io_alloc_mask(h->ioa, hs->l3_id, &mask);
		if (r) {
			snprintf(
				err, errlen,
				"resctrl info/L3/io_alloc_cbm: no mask of cache id %u (socket %u): "
				"%s",
				hs->l3_id, id, strerror(-r));
			return r;
		}
		hs->start_mask = mask;
		hs->ddio_cur = mask;
		h->pi.socket[id].ddio_mask = mask;
		h->pi.socket[id].ddio_boot_mask = mask;
		h->pi.socket[id].ddio_counters = false;
		/* io_alloc, not ioca.ko's register, is the I/O share here */
		h->pi.socket[id].ddio_fixed = false;
		h->pi.socket[id].ddio_unverified = false;
		snprintf(h->pi.socket[id].ddio_counters_why, PLATFORM_WHY_LEN, "%s",
			 "io_control = io_alloc: ioca.ko has no I/O hit/miss events for "
			 "resctrl's io_alloc (AMD)");
	}
	return 0;
}

int host_io_alloc_open(struct host *h, const struct host_platform_opts *o, char *err, size_t errlen)
{
	enum io_alloc_state st;
	char record[300];
	int r;

	r = io_alloc_probe(o->resctrl_root, &st, err, errlen);
	if (r)
		return r;
	r = io_alloc_choose(wanted(o), st, o->resctrl_root, err, errlen);
	if (r <= 0)
		return r;
	snprintf(record, sizeof(record), "%s/io_alloc.found",
		 o->lock_dir ? o->lock_dir : "/run/iocad");
	h->ioa = io_alloc_open(o->resctrl_root, NULL, NULL, record, err, errlen);
	if (!h->ioa)
		return -errno;
	r = read_start(h, err, errlen);
	if (r) {
		char why[256];

		if (io_alloc_restore(h->ioa, why, sizeof(why)))
			host_say(h, "putting io_alloc back: %s", why);
		return r;
	}
	/* the CHA presets count Intel DDIO: meaningless for io_alloc */
	ioca_cha_preset__free(h->preset);
	h->preset = NULL;
	host_say(h,
		 "I/O's ways are resctrl's io_alloc masks (io_control): found %s; the highest "
		 "CLOSID is io_alloc's, not for tenants; ioca.ko only samples",
		 io_alloc_found_enabled(h->ioa) ? "enabled, its masks put back at exit"
						: "disabled, enabled until exit");
	if (io_alloc_from_record(h->ioa))
		host_say(h,
			 "io_alloc: that state is the one an iocad that did not exit cleanly "
			 "found (%s/io_alloc.found), put back at exit",
			 o->lock_dir ? o->lock_dir : "/run/iocad");
	return 0;
}

int host_io_alloc_set(struct host *h, const struct ioca_ddio_req *req, size_t n)
{
	uint32_t prev[PLATFORM_MAX_SOCKETS];
	char why[512];
	size_t k;
	int r = 0;

	for (k = 0; k < n; k++) {
		struct host_sock *hs = &h->sock[req[k].socket];

		prev[k] = hs->ddio_cur;
		r = io_alloc_set(h->ioa, hs->l3_id, req[k].mask, h->last_err, sizeof(h->last_err));
		if (r)
			break;
		hs->ddio_cur = req[k].mask;
		hs->ddio_changed = true;
	}
	if (!r)
		return 0;
	/* the last_err says the first refusal; the sockets done go back */
	while (k-- > 0) {
		struct host_sock *hs = &h->sock[req[k].socket];

		if (io_alloc_set(h->ioa, hs->l3_id, prev[k], why, sizeof(why)))
			host_say(h, "putting io_alloc back: %s", why);
		else
			hs->ddio_cur = prev[k];
	}
	return r;
}

void host_io_alloc_seen(struct host *h, struct platform_sample *out)
{
	for (unsigned int id = 0; id < PLATFORM_MAX_SOCKETS; id++) {
		uint32_t mask;

		if (h->sock[id].rdt && !io_alloc_mask(h->ioa, h->sock[id].l3_id, &mask)) {
			if (out)
				out->socket[id].ddio_mask = mask;
			h->sock[id].ddio_cur = mask;
		}
	}
}

int host_io_alloc_restore(struct host *h)
{
	int r = io_alloc_restore(h->ioa, h->last_err, sizeof(h->last_err));

	if (r)
		host_say(h, "restoring %s", h->last_err);
	for (unsigned int id = 0; id < PLATFORM_MAX_SOCKETS; id++)
		h->sock[id].ddio_changed = false;
	return r;
}

int host_io_alloc_check_closids(struct host *h, struct rdt *any, unsigned int ngroups)
{
	char err[512];

	if (!h->ioa || !rdt_check_closids(any, ngroups + 1, err, sizeof(err)))
		return 0;
	snprintf(h->last_err, sizeof(h->last_err),
		 "resctrl: %u tenant groups fit num_closids=%u only without io_alloc, which "
		 "takes the highest CLOSID for I/O: configure fewer tenants or tenant groups, "
		 "or set io_control = ddio",
		 ngroups, rdt_info(any)->num_closids);
	return -ENOSPC;
}
