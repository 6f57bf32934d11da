// SPDX-License-Identifier: GPL-2.0
/*
 * Applying a CAT plan to resctrl, in two parts so a caller with more to
 * apply (DDIO, the sampler) can still go back: rdt_stage() creates missing
 * groups (ENOSPC is the kernel's "no CLOSID left"), writes masks and
 * assigns CPUs; rdt_commit() then removes the groups the plan dropped, and
 * rdt_unstage() instead puts back the masks and CPU lists written and
 * removes the groups the stage created. Nothing is removed before the
 * commit, so going back never makes a group again: a group keeps its
 * CLOSID, its tasks and its monitoring groups.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "rdt_apply.h"
#include "rdt_class.h"

static void format_cpus(const unsigned int *cpus, unsigned int n, char *buf, size_t len)
{
	size_t off = 0;
	unsigned int i = 0, j;

	buf[0] = '\0';
	while (i < n && off < len) {
		for (j = i; j + 1 < n && cpus[j + 1] == cpus[j] + 1; j++)
			;
		if (j == i)
			off += (size_t)snprintf(buf + off, len - off, "%s%u", off ? "," : "",
						cpus[i]);
		else
			off += (size_t)snprintf(buf + off, len - off, "%s%u-%u", off ? "," : "",
						cpus[i], cpus[j]);
		i = j + 1;
	}
	if (off + 1 < len)
		strcat(buf, "\n");
}

/* A partial schemata line: the kernel changes only the domain it names. */
static int write_mask(struct rdt *r, const struct rdt_group *g, uint32_t mask)
{
	char path[RDT_PATH_LEN], line[64];

	rdt_gpath(r, g, "schemata", path, sizeof(path));
	snprintf(line, sizeof(line), "L3:%u=%x\n", r->cache_id, mask);
	return r->write(r->fs_arg, path, line);
}

/*
 * @g's CPU list without the CPUs groups of others hold (as the stage read
 * them): writing one would take it out of theirs. @g is left as written.
 */
static int write_cpus(struct rdt *r, struct rdt_group *g)
{
	char path[RDT_PATH_LEN], list[PLATFORM_MAX_CPUS * 5];
	unsigned int n = 0;

	for (unsigned int i = 0; i < g->ncpus; i++)
		if (!platform_cpuset_has(&r->foreign, g->cpus[i]))
			g->cpus[n++] = g->cpus[i];
		else if (!platform_cpuset_has(&r->foreign_said, g->cpus[i])) {
			platform_cpuset_add(&r->foreign_said, g->cpus[i]);
			rdt_say(r,
				"resctrl: CPU %u of group %s%s is in a group iocad did not create: "
				"left there (iocad never takes CPUs out of others' groups)",
				g->cpus[i], r->prefix, g->name);
		}
	g->ncpus = n;
	rdt_group_path(r, g->name, "cpus_list", path, sizeof(path));
	format_cpus(g->cpus, g->ncpus, list, sizeof(list));
	return r->write(r->fs_arg, path, list);
}

/* The kernel's reason for the last refused write, "" if none. */
static void last_status(const struct rdt *r, char *buf, size_t len)
{
	char path[RDT_PATH_LEN];

	rdt_pathf(path, sizeof(path), "%s/info/last_cmd_status", r->root);
	if (rdt_info_read_file(path, buf, len))
		buf[0] = '\0';
	buf[strcspn(buf, "\n")] = '\0';
}

static int same_cpus(const struct rdt_group *a, const struct rdt_group *b)
{
	return a->ncpus == b->ncpus && !memcmp(a->cpus, b->cpus, a->ncpus * sizeof(a->cpus[0]));
}

/* Put back what a stage changed; r->group is the record before it. */
static void rollback(struct rdt *r, const struct rdt_group *g, unsigned int n,
		     const struct rdt_undo *u)
{
	char path[RDT_PATH_LEN];
	int e;

	for (unsigned int i = 0; i < n; i++) {
		const struct rdt_group *old = rdt_find(r->group, r->ngroups, g[i].name);

		if (u->created[i]) {
			rdt_group_path(r, g[i].name, NULL, path, sizeof(path));
			e = r->rmdir(r->fs_arg, path);
			if (e)
				rdt_say(r, "resctrl: rollback: rmdir %s: %s", path, strerror(-e));
		} else if (u->mask_written[i] && g[i].shared && (!old || old->missing)) {
			e = rdt_put_orig(r, &g[i]);
			if (e)
				rdt_say(r, "resctrl: rollback: mask of %s: %s", g[i].name,
					strerror(-e));
		} else if (u->mask_written[i] && old) {
			e = write_mask(r, old, old->mask);
			if (e)
				rdt_say(r, "resctrl: rollback: mask of %s%s: %s",
					old->shared ? "" : r->prefix, old->name, strerror(-e));
		}
	}
	/* CPUs taken by a new or changed group go back where they were */
	if (u->cpus_written)
		for (unsigned int i = 0; i < r->ngroups; i++) {
			if (r->group[i].shared)
				continue;
			e = write_cpus(r, &r->group[i]);
			if (e)
				rdt_say(r, "resctrl: rollback: cpus of %s%s: %s", r->prefix,
					r->group[i].name, strerror(-e));
		}
}

static int fail(struct rdt *r, const struct rdt_group *g, const char *what, int e, char *err,
		size_t errlen)
{
	char status[256];

	last_status(r, status, sizeof(status));
	snprintf(err, errlen, "resctrl: %s %s%s: %s%s%s%s", what, g->shared ? "" : r->prefix,
		 g->name, strerror(-e), status[0] ? " (last_cmd_status: " : "", status,
		 status[0] ? ")" : "");
	return e;
}

static int check_plan(const struct rdt *r, const struct rdt_group *g, unsigned int n, char *err,
		      size_t errlen)
{
	char why[128];

	if (n > RDT_MAX_GROUPS) {
		snprintf(err, errlen, "resctrl: %u groups, at most %d", n, RDT_MAX_GROUPS);
		return -EINVAL;
	}
	for (unsigned int i = 0; i < n; i++) {
		if (rdt_info_check_mask(&r->info, g[i].mask, why, sizeof(why))) {
			snprintf(err, errlen, "resctrl: group %s%s: %s", r->prefix, g[i].name, why);
			return -EINVAL;
		}
		if (rdt_find(g, i, g[i].name)) {
			snprintf(err, errlen, "resctrl: group %s twice in one plan", g[i].name);
			return -EINVAL;
		}
	}
	return 0;
}

/*
 * A runtime's class of the plan: there (0, its mask noted), not there
 * (0 with @nx->missing: its tenant waits), or -errno with @err set.
 */
static int stage_class(struct rdt *r, const struct rdt_group *old, struct rdt_group *nx, char *err,
		       size_t errlen)
{
	char path[RDT_PATH_LEN], why[512];
	int e;

	rdt_gpath(r, nx, NULL, path, sizeof(path));
	if (old && !old->missing) {
		if (rdt_dir_ino(path) == old->ino)
			return 0;
		/* vanished since: what comes back is a new group with its own mask */
		rdt_forget_orig(r, nx->name);
	}
	e = rdt_check_shared(r, nx->name, why, sizeof(why));
	if (e == -ENOENT) {
		if (!old || !old->missing)
			rdt_say(r,
				"resctrl: %s; its tenant waits for it (its mask is written when "
				"it appears), the other tenants are managed",
				why);
		nx->missing = true;
		return 0;
	}
	if (e) {
		snprintf(err, errlen, "resctrl: %s", why);
		return e;
	}
	if (old && old->missing)
		rdt_say(r, "resctrl: rdt_class %s is there again: its tenant is managed again",
			nx->name);
	e = rdt_note_orig(r, nx);
	if (e)
		return fail(r, nx, "reading the L3 mask of", e, err, errlen);
	nx->ino = rdt_dir_ino(path);
	return 0;
}

/* Create the plan's new groups of ours, and take in its runtimes' classes. */
static int stage_groups(struct rdt *r, unsigned int n, char *err, size_t errlen)
{
	char path[RDT_PATH_LEN];
	int e;

	for (unsigned int i = 0; i < n; i++) {
		struct rdt_group *nx = &r->next[i];
		const struct rdt_group *old = rdt_find(r->group, r->ngroups, nx->name);

		nx->missing = false;
		nx->ino = old ? old->ino : 0;
		if (nx->shared) {
			e = stage_class(r, old, nx, err, errlen);
			if (e)
				return e;
			continue;
		}
		if (old)
			continue;
		rdt_group_path(r, nx->name, NULL, path, sizeof(path));
		e = r->mkdir(r->fs_arg, path);
		if (e == -ENOSPC) {
			snprintf(err, errlen,
				 "resctrl: creating %s: no free CLOSID (num_closids %u)", path,
				 r->info.num_closids);
			return e;
		}
		if (e)
			return fail(r, nx, "creating", e, err, errlen);
		r->undo.created[i] = true;
		nx->ino = rdt_dir_ino(path);
	}
	return 0;
}

int rdt_stage(struct rdt *r, const struct rdt_group *g, unsigned int n, char *err, size_t errlen)
{
	unsigned int i;
	int e;

	if (r->staged)
		rdt_commit(r);
	e = check_plan(r, g, n, err, errlen);
	if (e)
		return e;
	e = rdt_foreign_set(r, &r->foreign);
	if (e) {
		snprintf(err, errlen, "resctrl: reading the groups of others in %s: %s", r->root,
			 strerror(-e));
		return e;
	}
	/* a CPU others let go of and took again is said again */
	for (unsigned int w = 0; w < PLATFORM_MAX_CPUS / 64; w++)
		r->foreign_said.w[w] &= r->foreign.w[w];
	memset(&r->undo, 0, sizeof(r->undo));
	memcpy(r->next, g, n * sizeof(g[0]));
	e = stage_groups(r, n, err, errlen);
	if (e)
		goto undo;
	for (i = 0; i < n; i++) {
		const struct rdt_group *old = rdt_find(r->group, r->ngroups, g[i].name);

		if (r->next[i].missing || (old && !old->missing && old->mask == g[i].mask))
			continue;
		e = write_mask(r, &g[i], g[i].mask);
		if (e) {
			fail(r, &g[i], "writing the L3 mask of", e, err, errlen);
			goto undo;
		}
		r->undo.mask_written[i] = true;
	}
	for (i = 0; i < n; i++) {
		const struct rdt_group *old = rdt_find(r->group, r->ngroups, g[i].name);

		if (g[i].shared || (old && same_cpus(old, &g[i])))
			continue;
		r->undo.cpus_written = true;
		e = write_cpus(r, &r->next[i]);
		if (e) {
			fail(r, &g[i], "assigning CPUs to", e, err, errlen);
			goto undo;
		}
	}
	r->nold = r->ngroups;
	memcpy(r->old, r->group, r->ngroups * sizeof(r->group[0]));
	memcpy(r->group, r->next, n * sizeof(g[0]));
	r->ngroups = n;
	r->staged = true;
	return 0;
undo:
	rollback(r, r->next, n, &r->undo);
	return e;
}

void rdt_commit(struct rdt *r)
{
	char path[RDT_PATH_LEN];
	unsigned int n = r->ngroups;
	int e;

	if (!r->staged)
		return;
	r->staged = false;
	for (unsigned int i = 0; i < r->nold; i++) {
		const struct rdt_group *o = &r->old[i];

		if (rdt_find(r->group, n, o->name))
			continue;
		if (o->shared) {
			/* let go of a runtime's class: the mask it had, never rmdir */
			e = o->missing ? 0 : rdt_put_orig(r, o);
			if (e)
				rdt_say(r, "resctrl: putting back the mask of %s: %s", o->name,
					strerror(-e));
			continue;
		}
		rdt_group_path(r, o->name, NULL, path, sizeof(path));
		e = r->rmdir(r->fs_arg, path);
		if (e && e != -ENOENT) {
			rdt_say(r, "resctrl: removing %s: %s (kept; retried on exit)", path,
				strerror(-e));
			if (r->ngroups < RDT_MAX_GROUPS)
				r->group[r->ngroups++] = *o;
		}
	}
}

void rdt_unstage(struct rdt *r)
{
	unsigned int n = r->ngroups;

	if (!r->staged)
		return;
	r->staged = false;
	memcpy(r->next, r->group, n * sizeof(r->group[0]));
	memcpy(r->group, r->old, r->nold * sizeof(r->group[0]));
	r->ngroups = r->nold;
	rollback(r, r->next, n, &r->undo);
}

int rdt_apply(struct rdt *r, const struct rdt_group *g, unsigned int n, char *err, size_t errlen)
{
	int e = rdt_stage(r, g, n, err, errlen);

	if (!e)
		rdt_commit(r);
	return e;
}
