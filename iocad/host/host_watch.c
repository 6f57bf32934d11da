// SPDX-License-Identifier: GPL-2.0
/*
 * Every interval, between two applies: does CAT still hold the plan in
 * force? CPUs that went offline or online, resctrl remounted or iocad's
 * groups removed by someone else, a runtime's class that appeared: the
 * plan's CAT is written again. resctrl not mounted: said once, looked at
 * again with backoff. DDIO and the sampler are left alone.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "host_ops.h"
#include "host_topo.h"
#include "host_watch.h"
#include "rdt_watch.h"

/* CAT cannot be put right now: said once, looked at again in 1, 2, 4 .. 64 intervals. */
static void cat_wait(struct host *h, const char *why)
{
	h->cat_backoff = h->cat_backoff ? h->cat_backoff * 2 : 1;
	if (h->cat_backoff > HOST_CAT_BACKOFF_MAX)
		h->cat_backoff = HOST_CAT_BACKOFF_MAX;
	h->cat_skip = h->cat_backoff;
	if (h->cat_said)
		return;
	h->cat_said = true;
	snprintf(h->cat_why, sizeof(h->cat_why), "%s", why);
	host_say(h,
		 "%s; CAT waits for resctrl (the tenants run without iocad's masks, DDIO is "
		 "still managed): looked at again after 1, 2, 4 .. %d intervals, said again "
		 "when iocad's groups are back",
		 why, HOST_CAT_BACKOFF_MAX);
}

/*
 * Does resctrl hold the record? After a remount (or one of iocad's groups
 * removed by someone else) the record is taken from what is there and
 * *@again set, so the plan in force makes what is missing; likewise when a
 * runtime's class the plan waits for appeared. 0, or -errno when resctrl
 * cannot be used now (said, backoff started).
 */
static int watch_cat(struct host *h, bool *again)
{
	char err[512], why[640];

	for (unsigned int id = 0; id < PLATFORM_MAX_SOCKETS; id++) {
		struct rdt *rdt = h->sock[id].rdt;
		int v;

		if (!rdt)
			continue;
		v = rdt_verify(rdt);
		if (v == -ENOENT) {
			snprintf(
				why, sizeof(why),
				"resctrl is not mounted at %s (unmounted under iocad?): its groups "
				"went with it",
				rdt_root(rdt));
			cat_wait(h, why);
			return v;
		}
		if (v & RDT_LOST) {
			v = rdt_reset(rdt, err, sizeof(err));
			if (v) {
				cat_wait(h, err);
				return v;
			}
			host_say(h,
				 "socket %u: resctrl was remounted, or iocad's groups there were "
				 "removed by someone else: making them again",
				 id);
			*again = true;
		}
		if (v & RDT_CLASS_BACK)
			*again = true;
	}
	return 0;
}

int host_apply_hotplug(struct host *h)
{
	struct platform_cpuset on;
	bool again = false;
	char why[768];
	int r;

	if (!h->have_plan || h->plan.sample_only)
		return 0;
	if (h->cat_skip && --h->cat_skip)
		return 0;
	r = watch_cat(h, &again);
	if (r)
		return r;
	r = host_topo_online_fd(&h->online_fd, h->cpu_root, &on, why, sizeof(why));
	if (r)
		return r;
	/* after a failed fix-up (said), try again even if nothing changed since */
	if (!again && !h->cat_said && !h->hotplug_said && !memcmp(&on, &h->online, sizeof(on)))
		return 0;
	r = host_apply_cat(h, &h->plan);
	if (!r)
		host_commit_cat(h);
	if (r && (again || h->cat_said)) {
		char msg[sizeof(h->last_err) + 64];

		snprintf(msg, sizeof(msg), "making iocad's resctrl groups again failed (%s)",
			 h->last_err);
		cat_wait(h, msg);
		return host_reread(h, r);
	}
	if (r) {
		if (!h->hotplug_said)
			host_say(h,
				 "CPUs went offline or online: putting the groups' CPUs right "
				 "failed (%s); retried every interval, said again when it worked",
				 h->last_err);
		h->hotplug_said = true;
		return host_reread(h, r);
	}
	if (h->cat_said)
		host_say(h, "resctrl: iocad's groups are back as the plan in force says");
	else if (!again || h->hotplug_said)
		host_say(h,
			 "CPUs went offline or online: every group holds its online CPUs again%s",
			 h->hotplug_said ? " (after failures)" : "");
	h->cat_said = h->hotplug_said = false;
	h->cat_backoff = h->cat_skip = 0;
	return 0;
}
