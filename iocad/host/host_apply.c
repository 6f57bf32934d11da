// SPDX-License-Identifier: GPL-2.0
/*
 * The host platform's check, apply and restore. A plan is applied in an
 * order where each step can be undone: CAT on every socket, then every
 * DDIO mask in one request, then the sampler if its part changed; a
 * refusal puts back what went before. Nothing is taken from the plan but
 * what it says.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "host_device.h"
#include "host_io_alloc.h"
#include "host_ops.h"
#include "host_topo.h"
#include "rdt_watch.h"

const struct platform_socket_plan *host_plan_socket(const struct platform_plan *p, unsigned int id)
{
	for (unsigned int k = 0; p && k < p->nsockets; k++)
		if (p->socket[k].id == id)
			return &p->socket[k];
	return NULL;
}

/* The CPUs of @sp's groups: online, on socket @id, in no group of others. */
static int check_cpus(struct host *h, const struct host_topo *t,
		      const struct platform_socket_plan *sp)
{
	for (unsigned int g = 0; g < sp->ngroups; g++) {
		const struct platform_group *grp = &sp->group[g];
		char other[PLATFORM_NAME_LEN + RDT_PREFIX_LEN];
		unsigned int cpu;
		int r;

		if (grp->rdt_class[0]) {
			/* a runtime's class: its CPUs and tasks are never written */
			char why[512];

			r = rdt_check_shared(h->sock[sp->id].rdt, grp->rdt_class, why, sizeof(why));
			/* not there (yet): its tenant waits, said by the apply */
			if (r && r != -ENOENT) {
				snprintf(h->last_err, sizeof(h->last_err), "group %s: %s",
					 grp->name, why);
				return r;
			}
			continue;
		}
		for (unsigned int c = 0; c < PLATFORM_MAX_CPUS; c++) {
			if (!platform_cpuset_has(&grp->cpus, c))
				continue;
			if (c < t->ncpus && t->present[c] && t->online[c] &&
			    t->socket[c] == (int)sp->id)
				continue;
			snprintf(h->last_err, sizeof(h->last_err),
				 "group %s: CPU %u is not online on socket %u (sysfs)", grp->name,
				 c, sp->id);
			return -EINVAL;
		}
		r = rdt_foreign_cpus(h->sock[sp->id].rdt, &grp->cpus, other, sizeof(other), &cpu);
		if (r < 0) {
			snprintf(h->last_err, sizeof(h->last_err), "resctrl: %s", strerror(-r));
			return r;
		}
		if (r) {
			snprintf(h->last_err, sizeof(h->last_err),
				 "group %s: CPU %u is in resctrl group '%s', which iocad did not "
				 "create; iocad never takes CPUs out of others' groups: move them "
				 "out of '%s' or change the tenant's cpus",
				 grp->name, cpu, other, other);
			return -EBUSY;
		}
	}
	return 0;
}

int host_check(void *ctx, const struct platform_plan *p)
{
	struct host *h = ctx;
	struct host_topo *t;
	unsigned int ngroups = 0, peak = 0;
	struct rdt *any = NULL;
	char err[512] = "";
	int r = 0;

	h->last_err[0] = '\0';
	t = malloc(sizeof(*t));
	if (!t)
		return -ENOMEM;
	r = host_topo_read(h->cpu_root, t, h->last_err, sizeof(h->last_err));
	/* the groups of sockets the plan drops are there until its commit */
	for (unsigned int id = 0; !r && !p->sample_only && id < PLATFORM_MAX_SOCKETS; id++)
		if (h->sock[id].rdt && !host_plan_socket(p, id))
			peak += rdt_peak(h->sock[id].rdt, NULL, 0);
	for (unsigned int k = 0; !r && k < p->nsockets; k++) {
		const struct platform_socket_plan *sp = &p->socket[k];

		if (sp->id >= PLATFORM_MAX_SOCKETS || !h->sock[sp->id].rdt) {
			snprintf(h->last_err, sizeof(h->last_err),
				 "socket %u: ioca.ko or resctrl does not know it, or it has no "
				 "online CPU",
				 sp->id);
			r = -ENODEV;
			break;
		}
		any = h->sock[sp->id].rdt;
		/* a runtime's class has its CLOSID already: it is among the others' groups */
		for (unsigned int g = 0; g < sp->ngroups; g++)
			ngroups += !sp->group[g].rdt_class[0];
		if (!p->sample_only) {
			unsigned int n = host_cat_groups(sp, NULL, h->groups);

			peak += rdt_peak(any, h->groups, n);
			r = check_cpus(h, t, sp);
		}
	}
	free(t);
	if (!r && any && !p->sample_only) {
		r = rdt_check_closids_peak(any, ngroups, peak, err, sizeof(err));
		if (r)
			snprintf(h->last_err, sizeof(h->last_err), "%s", err);
		if (!r)
			r = host_io_alloc_check_closids(h, any, peak);
	}
	return r;
}

static int set_ddio(struct host *h, const struct ioca_ddio_req *req, size_t n, bool own)
{
	uint32_t epochs[PLATFORM_MAX_SOCKETS] = {0};
	IOCA_OPTS(ioca_ddio_opts, o, .owner = own, .epochs = epochs);
	int r;

	if (!n)
		return 0;
	if (h->ioa)
		return host_io_alloc_set(h, req, n);
	r = ioca_client__ddio_set(h->client, req, n, &o);
	if (r) {
		snprintf(h->last_err, sizeof(h->last_err), "DDIO socket %u mask 0x%x%s: %s%s%s",
			 req[0].socket, req[0].mask, n > 1 ? " (and others)" : "", strerror(-r),
			 *ioca_client__last_extack(h->client) ? ": " : "",
			 ioca_client__last_extack(h->client));
		return r;
	}
	for (size_t k = 0; k < n; k++) {
		h->sock[req[k].socket].ddio_cur = req[k].mask;
		/* samples collected before this write report the mask it replaced */
		h->sock[req[k].socket].ddio_epoch = epochs[k];
		if (own)
			h->sock[req[k].socket].ddio_changed = true;
	}
	return 0;
}

/* SAMPLER_SET and START; on a refusal @h->last_err says why. */
static int set_start(struct host *h, const struct ioca_sampler_config *sc)
{
	IOCA_OPTS(ioca_sampler_opts, so, .owner = true);
	int r = ioca_client__sampler_set(h->client, sc, &so);

	if (r == -EBUSY) {
		snprintf(h->last_err, sizeof(h->last_err),
			 "ioca.ko's sampler belongs to another process ('iocactl info' shows its "
			 "pid); iocad needs it to itself");
		return r;
	}
	if (!r)
		r = ioca_client__sampler_start(h->client);
	if (r)
		snprintf(h->last_err, sizeof(h->last_err), "ioca.ko: sampler for %zu CPUs: %s%s%s",
			 sc->ncpus, strerror(-r), *ioca_client__last_extack(h->client) ? ": " : "",
			 ioca_client__last_extack(h->client));
	return r;
}

/*
 * Whether the started sampler counts the L2 events as asked, by INFO's
 * per-event status; if not, no L2 counts from now on (said by the loop).
 */
static bool l2_live(struct host *h)
{
	char why[HOST_L2_WHY_LEN];

	if (ioca_client__info(h->client, h->info)) {
		snprintf(h->pi.l2_why, sizeof(h->pi.l2_why),
			 "ioca.ko's info after the sampler started did not come");
	} else if (host_counters_l2_live(&h->info->sampler, HOST_NR_CPU_EVENTS, h->l2_ev, why,
					 sizeof(why))) {
		h->pi.l2_why[0] = '\0';
		return true;
	} else {
		snprintf(h->pi.l2_why, sizeof(h->pi.l2_why), "%s", why);
	}
	h->l2_try = false;
	return false;
}

/*
 * Configure the sampler (owned) for @p's CPUs and events and start it,
 * with the L2 events while they are worth trying: if the module cannot
 * count them (a PMU without them, as under QEMU, or not enough counters)
 * it starts again without them and samples carry no L2 counts.
 */
static int sampler_start(struct host *h, const struct platform_plan *p)
{
	struct ioca_event ev[HOST_MAX_CPU_EVENTS] = {{0}};
	struct ioca_event all[IOCA_MAX_UNCORE_EVENTS];
	const struct ioca_event *uncore = NULL;
	uint32_t cpus[PLATFORM_MAX_CPUS];
	struct ioca_sampler_config sc = {0};
	size_t nuncore = 0;
	bool l2 = h->l2_try;
	int r;

	for (unsigned int k = 0; k < HOST_NR_CPU_EVENTS; k++)
		ev[k].kind = host_cpu_event_kinds[k];
	memcpy(&ev[HOST_NR_CPU_EVENTS], h->l2_ev, sizeof(h->l2_ev));
	if (h->preset && p->events & PLATFORM_EV_DDIO)
		uncore = ioca_cha_preset__events(h->preset, &nuncore);
	/* the auto devices' IIO counters after the CHA preset's (host_iio.c) */
	nuncore = host_iio_events(&h->iio, uncore, nuncore, all, IOCA_MAX_UNCORE_EVENTS);
	uncore = nuncore ? all : NULL;
	sc.interval_us = (uint32_t)(p->interval_ns / 1000u);
	sc.cpus = cpus;
	sc.ncpus = host_cat_cpus(p, cpus);
	sc.events = ev;
	sc.nevents = l2 ? HOST_MAX_CPU_EVENTS : HOST_NR_CPU_EVENTS;
	sc.uncore = uncore;
	sc.nuncore = nuncore;
	/*
	 * The module reconfigures only a stopped sampler. EINVAL: it had
	 * stopped already (a sampler failure the polls have not seen yet),
	 * which is what is wanted here, not a reason to refuse the plan.
	 */
	if (h->sampler_running) {
		r = ioca_client__sampler_stop(h->client);
		if (r && r != -EINVAL) {
			snprintf(h->last_err, sizeof(h->last_err),
				 "ioca.ko: stopping the sampler: %s", strerror(-r));
			return r;
		}
		h->sampler_running = false;
	}
	r = set_start(h, &sc);
	if (r && r != -EBUSY && l2) {
		char why[sizeof(h->pi.l2_why)];

		snprintf(why, sizeof(why),
			 "ioca.ko could not count L2_RQSTS.REFERENCES and L2_RQSTS.MISS (raw "
			 "0x%llx, 0x%llx): %s",
			 (unsigned long long)h->l2_ev[0].config,
			 (unsigned long long)h->l2_ev[1].config, h->last_err + strlen("ioca.ko: "));
		sc.nevents = HOST_NR_CPU_EVENTS;
		r = set_start(h, &sc);
		/* the L2 events were the trouble only if the sampler starts without them */
		if (!r) {
			memcpy(h->pi.l2_why, why, sizeof(why));
			h->l2_try = l2 = false;
		}
	}
	if (r)
		return r;
	h->sampler_running = true;
	h->sampler_down = false;
	/* a later outage backs off from 1 s again, not from this one's last wait */
	h->retry_ms = 0;
	h->sampler_tries = 0;
	/* a full table at open: the owner's kept slot is iocad's now */
	r = host_subscribe(h);
	if (r)
		return r;
	/* INFO after the start: the run's epoch (and the L2 events' status) */
	if (l2)
		l2 = l2_live(h);
	else if (ioca_client__info(h->client, h->info))
		h->info->sampler_epoch = 0;
	h->pi.l2_counters = l2;
	host_counters_new_epoch(&h->hc, l2, h->info->sampler_epoch);
	host_iio_new_epoch(&h->iio);
	return 0;
}

int host_apply_sampler(struct host *h)
{
	return h->have_plan ? sampler_start(h, &h->plan) : -EINVAL;
}

int host_apply_resample(struct host *h)
{
	int r;

	if (!h->have_plan)
		return 0; /* the first apply configures it */
	r = sampler_start(h, &h->plan);
	if (!r)
		return 0;
	host_say(h, "sampler with the IIO counters: %s; sampling without them", h->last_err);
	host_iio_drop_counters(&h->iio);
	return sampler_start(h, &h->plan);
}

/*
 * CAT of every socket as @p says, each group with its online CPUs (@on,
 * also recorded as the set the groups were written for), staged: the
 * groups the plan drops stay until host_commit_cat(). On a refusal the sockets
 * done are put back.
 */
int host_apply_cat(struct host *h, const struct platform_plan *p)
{
	struct platform_cpuset on;
	char err[768] = "";
	unsigned int id;
	int r;

	r = host_topo_online_fd(&h->online_fd, h->cpu_root, &on, h->last_err, sizeof(h->last_err));
	if (r)
		return r;
	h->online = on;
	for (id = 0; id < PLATFORM_MAX_SOCKETS; id++) {
		const struct platform_socket_plan *sp = host_plan_socket(p, id);
		unsigned int n;

		if (!h->sock[id].rdt)
			continue;
		n = sp ? host_cat_groups(sp, &on, h->groups) : 0;
		r = rdt_stage(h->sock[id].rdt, h->groups, n, err, sizeof(err));
		if (r) {
			snprintf(h->last_err, sizeof(h->last_err),
				 "socket %u: %s; every mask left as it was", id, err);
			break;
		}
	}
	if (r)
		while (id-- > 0)
			if (h->sock[id].rdt)
				rdt_unstage(h->sock[id].rdt);
	return r;
}

/* Every socket's staged CAT back as it was: no group was removed yet. */
static void undo_cat(struct host *h)
{
	for (unsigned int id = 0; id < PLATFORM_MAX_SOCKETS; id++)
		if (h->sock[id].rdt)
			rdt_unstage(h->sock[id].rdt);
}

/* The whole plan holds: the groups it dropped go now. */
void host_commit_cat(struct host *h)
{
	for (unsigned int id = 0; id < PLATFORM_MAX_SOCKETS; id++)
		if (h->sock[id].rdt)
			rdt_commit(h->sock[id].rdt);
}

/* The DDIO requests that make the platform hold @p (or, @back, what it held). */
static size_t ddio_reqs(struct host *h, const struct platform_plan *p, struct ioca_ddio_req *req)
{
	size_t n = 0;

	for (unsigned int id = 0; id < PLATFORM_MAX_SOCKETS; id++) {
		const struct platform_socket_plan *sp = host_plan_socket(p, id);
		uint32_t want;

		if (!h->sock[id].present)
			continue;
		/* a socket out of the plan goes back to the mask found at open */
		want = sp ? sp->ddio_mask : h->sock[id].ddio_changed ? h->sock[id].start_mask : 0;
		if (want && want != h->sock[id].ddio_cur)
			req[n++] = (struct ioca_ddio_req){.socket = id, .mask = want};
	}
	return n;
}

/*
 * After a failed write or rollback iocad acts on nothing it has not
 * verified: resctrl's groups and every DDIO mask are read back, so the
 * next apply compares with what is there.
 */
int host_reread(struct host *h, int r)
{
	for (unsigned int id = 0; id < PLATFORM_MAX_SOCKETS; id++)
		if (h->sock[id].rdt && rdt_reread(h->sock[id].rdt))
			host_say(h, "socket %u: re-reading resctrl after a failed apply failed too",
				 id);
	if (h->ioa)
		host_io_alloc_seen(h, NULL);
	else if (!ioca_client__info(h->client, h->info))
		for (uint32_t i = 0; i < h->info->nsockets; i++) {
			uint32_t id = h->info->sockets[i].id;

			if (id >= PLATFORM_MAX_SOCKETS)
				continue;
			h->sock[id].ddio_cur = h->info->sockets[i].ddio_mask;
			h->sock[id].ddio_epoch = h->info->ddio_epoch[i];
			/* a write that did not stick says so here */
			host_ddio_control(&h->pi.socket[id], &h->info->ddio[i]);
		}
	return r;
}

int host_apply(void *ctx, const struct platform_plan *p)
{
	struct host *h = ctx;
	struct ioca_ddio_req req[PLATFORM_MAX_SOCKETS], back[PLATFORM_MAX_SOCKETS];
	bool sampling = !h->have_plan || !host_cat_same_sampling(p, &h->plan);
	size_t n = 0;
	int r;

	h->last_err[0] = '\0';
	/*
	 * A plan while the sampler is down comes from a reload (no sample,
	 * no interval, no FSM change): maybe the fix. Its sampler is tried
	 * now (sampling changed) or at the next poll, the backoff from 1 s.
	 */
	if (h->sampler_down) {
		h->retry_ms = 0;
		h->retry_at_ms = 0;
	}
	if (!p->sample_only) {
		/* CAT waiting for resctrl (said): the watch applies the plan in force */
		r = h->cat_said ? 0 : host_apply_cat(h, p);
		if (r)
			return host_reread(h, r);
		n = ddio_reqs(h, p, req);
		for (size_t k = 0; k < n; k++)
			back[k] = (struct ioca_ddio_req){.socket = req[k].socket,
							 .mask = h->sock[req[k].socket].ddio_cur};
		r = set_ddio(h, req, n, true);
		if (r) {
			undo_cat(h);
			return host_reread(h, r);
		}
	}
	if (sampling) {
		r = sampler_start(h, p);
		if (r) {
			char why[768];

			memcpy(why, h->last_err, sizeof(why));
			/* neither starts: the polls retry the running one, backing off */
			if (h->have_plan && sampler_start(h, &h->plan)) {
				host_say(h, "sampler for the running plan: %s", h->last_err);
				h->sampler_down = true;
			}
			if (!p->sample_only) {
				if (set_ddio(h, back, n, true))
					host_say(h, "putting DDIO back: %s", h->last_err);
				undo_cat(h);
			}
			memcpy(h->last_err, why, sizeof(why));
			return host_reread(h, r);
		}
	}
	if (!p->sample_only)
		host_commit_cat(h);
	h->plan = *p;
	h->have_plan = true;
	return 0;
}

int host_restore(void *ctx)
{
	struct host *h = ctx;
	struct ioca_ddio_req req[PLATFORM_MAX_SOCKETS];
	size_t n = 0;
	int r, e, first = 0;

	/*
	 * A sampler that is not running has nothing to stop, and the module
	 * would answer EINVAL ("not running"): said as what happened, not as
	 * a failure to stop.
	 */
	if (h->sampler_down) {
		host_say(h, "the sampler was down (iocad was waiting for it to start again): "
			    "nothing to stop");
	} else if (h->sampler_running) {
		e = ioca_client__sampler_stop(h->client);
		if (e == -EINVAL)
			host_say(h, "the sampler had stopped already (a sampler failure, or "
				    "someone's stop): nothing to stop");
		else if (e && e != -EBUSY)
			host_say(h, "stopping the sampler: %s", strerror(-e));
	}
	h->sampler_running = false;
	h->sampler_down = false;
	h->have_plan = false;
	/*
	 * The sockets iocad ever set, without the owner flag: that also ends
	 * its ownership, so closing the socket cannot put back an older mask
	 * (the one an outside change left before iocad's next change).
	 */
	for (unsigned int id = 0; id < PLATFORM_MAX_SOCKETS && !h->ioa; id++)
		if (h->sock[id].ddio_changed)
			req[n++] = (struct ioca_ddio_req){.socket = id,
							  .mask = h->sock[id].start_mask};
	if (h->ioa) {
		r = host_io_alloc_restore(h);
	} else {
		r = set_ddio(h, req, n, false);
		if (r)
			host_say(h, "restoring %s", h->last_err);
	}
	e = host_device_restore(h);
	if (e && !first)
		first = e;
	for (unsigned int id = 0; id < PLATFORM_MAX_SOCKETS; id++) {
		if (!h->sock[id].rdt)
			continue;
		e = rdt_remove_all(h->sock[id].rdt);
		if (e && !first)
			first = e;
	}
	return r ? r : first;
}
