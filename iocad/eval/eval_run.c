// SPDX-License-Identifier: GPL-2.0
#include "eval/eval_run.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "config/config.h"
#include "decide/fsm.h"
#include "loop/loop.h"
#include "sim_platform.h"

#define NS 1e9

struct collect {
	const struct eval_case *c;
	struct platform *pf;
	struct eval_run *out;
	bool keep_views;
	uint64_t last_index;
	bool any;
	char why[256]; /* the loop's first error */
	uint32_t last_layout[EVAL_MAX_TENANTS + EVAL_MAX_SOCKETS];
	double mem_sum[EVAL_MAX_PHASES];
};

static int phase_of(const struct eval_case *c, double t)
{
	for (unsigned int p = 0; p < c->nphases; p++)
		if (t > c->start[p] && t <= c->start[p + 1])
			return (int)p;
	return -1;
}

static int tenant_of(const struct eval_run *r, const char *name)
{
	for (unsigned int i = 0; i < r->ntenants; i++)
		if (!strcmp(r->name[i], name))
			return (int)i;
	return -1;
}

static void keep_view(struct collect *k, struct eval_view *v)
{
	struct sim_platform_view s;

	if (v->valid || sim_platform_view(k->pf, &s) || s.ntenants > EVAL_MAX_TENANTS)
		return;
	v->params = *s.params;
	v->n = s.ntenants;
	for (unsigned int i = 0; i < s.ntenants; i++) {
		int j = tenant_of(k->out, s.names[i]);

		/* config order, so that the oracle's answers line up with the runs' */
		if (j < 0)
			return;
		v->t[j] = s.t[i];
		v->socket[j] = s.sock->of[i];
	}
	for (unsigned int so = 0; so < EVAL_MAX_SOCKETS && so < s.sock->n; so++)
		v->ddio[so] = s.ddio[so];
	v->valid = true;
}

/* Once per socket per interval: fold the record into its phase. */
static void on_record(void *arg, const struct loop_record *rec)
{
	struct collect *k = arg;
	struct eval_run *r = k->out;
	double t = (double)rec->t_ns / NS;
	int p = phase_of(k->c, t);
	bool first = !k->any || rec->index != k->last_index;
	struct eval_phase *ph;

	if (rec->socket >= EVAL_MAX_SOCKETS)
		return;
	k->any = true;
	k->last_index = rec->index;
	for (unsigned int i = 0; i < rec->ntenants; i++) {
		int j = tenant_of(r, rec->tenant[i].name);

		if (j >= 0 && k->last_layout[j] != rec->tenant[i].mask) {
			if (k->last_layout[j])
				r->changes++;
			k->last_layout[j] = rec->tenant[i].mask;
		}
	}
	if (k->last_layout[EVAL_MAX_TENANTS + rec->socket] != rec->ddio_mask) {
		if (k->last_layout[EVAL_MAX_TENANTS + rec->socket])
			r->changes++;
		k->last_layout[EVAL_MAX_TENANTS + rec->socket] = rec->ddio_mask;
	}
	if (p < 0)
		return;
	ph = &r->ph[p];
	for (unsigned int i = 0; i < rec->ntenants; i++) {
		int j = tenant_of(r, rec->tenant[i].name);

		if (j >= 0)
			ph->mask[j] = rec->tenant[i].mask;
	}
	ph->ddio[rec->socket] = rec->ddio_mask;
	snprintf(ph->state[rec->socket], sizeof(ph->state[0]), "%s", fsm_state_name(rec->state));
	snprintf(ph->reason[rec->socket], sizeof(ph->reason[0]), "%s",
		 decide_reason_name(&rec->decision));
	if (t <= (k->c->start[p] + k->c->start[p + 1]) / 2)
		return;
	for (unsigned int i = 0; i < rec->ntenants; i++) {
		int j = tenant_of(r, rec->tenant[i].name);

		if (j >= 0)
			ph->ipc[j] += rec->tenant[i].ipc;
	}
	if (!first)
		return;
	{
		const struct sim_rates *rt = sim_platform_rates(k->pf);

		ph->samples++;
		if (rt) {
			ph->mem += rt->mem_bytes;
			for (unsigned int i = 0; i < rt->ntenants && i < EVAL_MAX_TENANTS; i++)
				ph->pkts[i] += rt->tenant[i].pkts; /* scenario order; fixed below */
		}
	}
	if (k->keep_views && t >= 0.25 * k->c->start[p] + 0.75 * k->c->start[p + 1])
		keep_view(k, &ph->view);
}

static int write_file(const char *path, const char *text, char *err, size_t len)
{
	/* never through a link planted where a case file goes */
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW | O_CLOEXEC, 0600);
	FILE *f = fd < 0 ? NULL : fdopen(fd, "w");
	bool bad;

	if (!f) {
		if (fd >= 0)
			close(fd);
		snprintf(err, len, "%s: %s", path, strerror(errno));
		return -EIO;
	}
	bad = fputs(text, f) < 0;
	if (fclose(f) || bad) {
		snprintf(err, len, "%s: %s", path, strerror(errno));
		return -EIO;
	}
	return 0;
}

/* The loop's first error: why a run ended, in the words it logs. */
static void on_log(void *arg, enum loop_log_level lvl, const char *msg)
{
	struct collect *k = arg;

	if (lvl == LOOP_LOG_ERROR && !k->why[0])
		snprintf(k->why, sizeof(k->why), "%s", msg);
}

/* @msg's file names without @dir/ (a case's temporary directory). */
static void drop_dir(char *msg, const char *dir)
{
	size_t n = strlen(dir);
	char *p;

	while ((p = strstr(msg, dir)) && p[n] == '/')
		memmove(p, p + n + 1, strlen(p + n + 1) + 1);
}

static void finish(struct eval_run *r, const struct eval_case *c, struct platform *pf)
{
	struct sim_platform_view v;
	double pk[EVAL_MAX_TENANTS];

	for (unsigned int p = 0; p < c->nphases; p++) {
		struct eval_phase *ph = &r->ph[p];
		double n = ph->samples ? ph->samples : 1;

		for (unsigned int i = 0; i < r->ntenants; i++)
			ph->ipc[i] /= n;
		ph->mem /= n;
		/* packets were summed in scenario order: put them in config order */
		memcpy(pk, ph->pkts, sizeof(pk));
		memset(ph->pkts, 0, sizeof(ph->pkts));
		if (!sim_platform_view(pf, &v))
			for (unsigned int i = 0; i < v.ntenants && i < EVAL_MAX_TENANTS; i++) {
				int j = tenant_of(r, v.names[i]);

				if (j >= 0)
					ph->pkts[j] = pk[i] / n;
			}
	}
}

int eval_run_case(const struct eval_case *c, const char *dir, enum iocad_mode mode, bool keep_views,
		  struct eval_run *out)
{
	static struct config cfg;
	struct sim_tenant_cfg st[PLATFORM_MAX_TENANTS];
	char ini[128], scn[128];
	struct platform pf;
	struct collect k = {.c = c, .pf = &pf, .out = out, .keep_views = keep_views};
	size_t nrec = 0;
	int err;

	memset(out, 0, sizeof(*out));
	snprintf(ini, sizeof(ini), "%s/case%u.ini", dir, c->index);
	snprintf(scn, sizeof(scn), "%s/case%u.scn", dir, c->index);
	if (write_file(ini, c->ini, out->err, sizeof(out->err)) ||
	    write_file(scn, c->scn, out->err, sizeof(out->err)))
		return -EIO;
	err = config_parse_file(ini, &cfg, out->err, sizeof(out->err));
	if (err) {
		unlink(ini);
		unlink(scn);
		out->refused = true;
		drop_dir(out->err, dir);
		return err;
	}
	if (cfg.ntenants > EVAL_MAX_TENANTS) {
		snprintf(out->err, sizeof(out->err), "%s: more than %d tenants", ini,
			 EVAL_MAX_TENANTS);
		return -E2BIG;
	}
	out->ntenants = cfg.ntenants;
	for (unsigned int i = 0; i < cfg.ntenants; i++) {
		snprintf(out->name[i], sizeof(out->name[i]), "%s", cfg.tenant[i].name);
		out->ps[i] = cfg.tenant[i].prio == CONFIG_PRIO_PS;
		out->net[i] = cfg.tenant[i].networking || cfg.tenant[i].vswitch;
		out->socket[i] = cfg.tenant[i].ncpus && cfg.tenant[i].cpus[0] >= 16 ? 1 : 0;
		st[i] = (struct sim_tenant_cfg){.name = cfg.tenant[i].name,
						.cpus = cfg.tenant[i].cpus,
						.ncpus = cfg.tenant[i].ncpus,
						.networking = cfg.tenant[i].networking,
						.vswitch = cfg.tenant[i].vswitch};
	}
	struct sim_platform_opts so = {.sz = sizeof(so),
				       .noise = -1,
				       .interval_ns = cfg.interval_ns,
				       .tenants = st,
				       .ntenants = cfg.ntenants};

	err = sim_platform_open(scn, &so, &pf, out->err, sizeof(out->err));
	/* both files are read whole by now: the run leaves nothing behind */
	unlink(ini);
	unlink(scn);
	if (err)
		return err;
	bool started = false;
	struct loop_opts lo = {.sz = sizeof(lo),
			       .cfg = &cfg,
			       .mode = mode,
			       .log = on_log,
			       .log_arg = &k,
			       .quiet = true,
			       .started = &started,
			       .record_fn = on_record,
			       .record_arg = &k};

	err = loop_run(&lo, &pf, NULL, 0, &nrec);
	/* refused at start (loop.h, started): the config against the platform */
	out->refused = err && !started;
	if (err && out->refused)
		snprintf(out->err, sizeof(out->err), "%s", k.why);
	else if (err)
		snprintf(out->err, sizeof(out->err), "loop_run: %s: %.200s", strerror(-err),
			 k.why[0] ? k.why : "(no reason logged)");
	drop_dir(out->err, dir);
	if (!err)
		finish(out, c, &pf);
	pf.ops->destroy(pf.ctx);
	return err;
}
