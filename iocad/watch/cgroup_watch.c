// SPDX-License-Identifier: GPL-2.0
/* cgroup tenants' CPUs re-read every interval (cgroup_watch.h). */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "config/cgroup_cpus.h"
#include "watch/cgroup_watch.h"

void cgroup_watch_set(struct cgroup_watch *w, const struct config *cfg)
{
	snprintf(w->root, sizeof(w->root), "%s",
		 cfg->cgroup_root[0] ? cfg->cgroup_root : CONFIG_CGROUP_ROOT_DEFAULT);
	w->ntenants = 0;
	for (unsigned int i = 0; i < cfg->ntenants; i++) {
		const struct config_tenant *t = &cfg->tenant[i];
		struct cgroup_watch_tenant *c = &w->tenant[w->ntenants];

		if (!t->cgroup[0])
			continue;
		memcpy(c->name, t->name, sizeof(c->name));
		memcpy(c->cgroup, t->cgroup, sizeof(c->cgroup));
		c->ncpus = t->ncpus;
		memcpy(c->cpus, t->cpus, t->ncpus * sizeof(t->cpus[0]));
		c->err = 0;
		w->ntenants++;
	}
}

int cgroup_watch_check(struct cgroup_watch *w)
{
	static unsigned int cpus[PLATFORM_MAX_CPUS];
	int changed = 0;

	for (unsigned int i = 0; i < w->ntenants; i++) {
		struct cgroup_watch_tenant *c = &w->tenant[i];
		char why[768], msg[1024];
		unsigned int n = 0;
		int e = cgroup_cpus_read(w->root, c->cgroup, cpus, &n, why, sizeof(why));

		if (e == c->err &&
		    (e || (n == c->ncpus && !memcmp(cpus, c->cpus, n * sizeof(*cpus)))))
			continue;
		if (e)
			snprintf(msg, sizeof(msg), "tenant %s: cgroup %s: %s; reloading", c->name,
				 c->cgroup, why);
		else
			snprintf(msg, sizeof(msg),
				 "tenant %s: cgroup %s: cpuset.cpus.effective changed (%u CPUs); "
				 "reloading",
				 c->name, c->cgroup, n);
		if (w->log)
			w->log(w->log_arg, msg);
		c->err = e;
		c->ncpus = e ? 0 : n;
		memcpy(c->cpus, cpus, c->ncpus * sizeof(*cpus));
		changed = 1;
	}
	if (changed && w->reload)
		*w->reload = 1;
	return changed;
}

static struct platform *in(void *ctx)
{
	return &((struct cgroup_watch *)ctx)->inner;
}

static int cw_wait(void *ctx, uint64_t interval_ns)
{
	struct cgroup_watch *w = ctx;
	int r = in(ctx)->ops->wait(in(ctx)->ctx, interval_ns);

	cgroup_watch_check(w);
	if (w->dropins && dropin_watch_drain(w->dropins) > 0 && w->reload)
		*w->reload = 1;
	return r;
}

static int cw_info(void *ctx, struct platform_info *out)
{
	return in(ctx)->ops->info(in(ctx)->ctx, out);
}

static int cw_poll(void *ctx, struct platform_sample *out)
{
	struct cgroup_watch *w = ctx;
	int r = in(ctx)->ops->poll(in(ctx)->ctx, out);

	/* no sample (the loop skips its wait): look at the cgroups and drop-ins here */
	if (r == -EAGAIN) {
		cgroup_watch_check(w);
		if (w->dropins && dropin_watch_drain(w->dropins) > 0 && w->reload)
			*w->reload = 1;
	}
	return r;
}

static int cw_check(void *ctx, const struct platform_plan *plan)
{
	return in(ctx)->ops->check(in(ctx)->ctx, plan);
}

static int cw_apply(void *ctx, const struct platform_plan *plan)
{
	return in(ctx)->ops->apply(in(ctx)->ctx, plan);
}

static int cw_restore(void *ctx)
{
	return in(ctx)->ops->restore(in(ctx)->ctx);
}

static void cw_destroy(void *ctx)
{
	in(ctx)->ops->destroy(in(ctx)->ctx);
}

static const char *cw_waiting(void *ctx)
{
	return in(ctx)->ops->waiting(in(ctx)->ctx);
}

static unsigned int cw_cat_waiting(void *ctx, char *buf, size_t len)
{
	return in(ctx)->ops->cat_waiting(in(ctx)->ctx, buf, len);
}

static const char *cw_last_error(void *ctx)
{
	return in(ctx)->ops->last_error ? in(ctx)->ops->last_error(in(ctx)->ctx) : NULL;
}

static int cw_trace_columns(void *ctx, bool header, char *buf, size_t len)
{
	return in(ctx)->ops->trace_columns(in(ctx)->ctx, header, buf, len);
}

static int cw_device_ddio(void *ctx, const char *addr, int mode)
{
	return in(ctx)->ops->device_ddio(in(ctx)->ctx, addr, mode);
}

static int cw_device_writes(void *ctx, const char *addr, uint64_t *bytes)
{
	return in(ctx)->ops->device_writes(in(ctx)->ctx, addr, bytes);
}

void cgroup_watch_wrap(struct cgroup_watch *w, struct platform *pf, volatile sig_atomic_t *reload,
		       cgroup_watch_log_fn log, void *log_arg)
{
	w->inner = *pf;
	/*
	 * Every op forwarded by name: a copy of the inner table would hand an
	 * op added later the wrapper's context in place of its platform's.
	 */
	w->ops = (struct platform_ops){.name = pf->ops->name};
	w->ops.wait = cw_wait;
	w->ops.info = cw_info;
	w->ops.poll = cw_poll;
	if (pf->ops->check)
		w->ops.check = cw_check;
	w->ops.apply = cw_apply;
	w->ops.restore = cw_restore;
	w->ops.destroy = cw_destroy;
	if (pf->ops->last_error)
		w->ops.last_error = cw_last_error;
	if (pf->ops->waiting)
		w->ops.waiting = cw_waiting;
	if (pf->ops->cat_waiting)
		w->ops.cat_waiting = cw_cat_waiting;
	if (pf->ops->trace_columns)
		w->ops.trace_columns = cw_trace_columns;
	if (pf->ops->device_ddio)
		w->ops.device_ddio = cw_device_ddio;
	if (pf->ops->device_writes)
		w->ops.device_writes = cw_device_writes;
	w->reload = reload;
	w->dropins = NULL;
	w->log = log;
	w->log_arg = log_arg;
	pf->ops = &w->ops;
	pf->ctx = w;
}
