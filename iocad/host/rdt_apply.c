// SPDX-License-Identifier: GPL-2.0
/*
 * Applying a CAT plan to resctrl. The order of one apply is the one that
 * lets every step be undone: create missing groups (ENOSPC is the kernel's
 * "no CLOSID left"), write masks, assign CPUs, and only when all that
 * succeeded remove the groups the plan dropped. A failure in the first
 * three steps puts back the masks and CPU lists written so far and removes
 * the groups this apply created.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "rdt_apply.h"

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

static int write_cpus(struct rdt *r, const struct rdt_group *g)
{
	char path[RDT_PATH_LEN], list[PLATFORM_MAX_CPUS * 5];

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

struct undo {
	bool created[RDT_MAX_GROUPS];
	bool mask_written[RDT_MAX_GROUPS];
	bool cpus_written;
};

/* Put back what one failed apply changed; the old state is r->group. */
static void rollback(struct rdt *r, const struct rdt_group *g, unsigned int n, const struct undo *u)
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
		} else if (u->mask_written[i] && !old && g[i].shared) {
			e = rdt_put_orig(r, &g[i]);
			if (e)
				rdt_say(r, "resctrl: rollback: mask of %s: %s", g[i].name,
					strerror(-e));
		} else if (u->mask_written[i] && old) {
			e = write_mask(r, old, old->mask);
			if (e)
				rdt_say(r, "resctrl: rollback: mask of %s%s: %s", r->prefix,
					old->name, strerror(-e));
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

int rdt_apply(struct rdt *r, const struct rdt_group *g, unsigned int n, char *err, size_t errlen)
{
	char path[RDT_PATH_LEN];
	struct undo u = {0};
	unsigned int i, kept;
	int e;

	e = check_plan(r, g, n, err, errlen);
	if (e)
		return e;
	for (i = 0; i < n; i++) {
		if (rdt_find(r->group, r->ngroups, g[i].name))
			continue;
		if (g[i].shared) {
			/* a runtime's class: there already; its mask is noted to put back */
			e = rdt_check_shared(r, g[i].name, err, errlen);
			if (!e && (e = rdt_note_orig(r, &g[i])))
				fail(r, &g[i], "reading the L3 mask of", e, err, errlen);
			if (e)
				goto undo;
			continue;
		}
		rdt_group_path(r, g[i].name, NULL, path, sizeof(path));
		if (mkdir(path, 0755)) {
			e = -errno;
			if (e == -ENOSPC)
				snprintf(err, errlen,
					 "resctrl: creating %s: no free CLOSID (num_closids %u)",
					 path, r->info.num_closids);
			else
				fail(r, &g[i], "creating", e, err, errlen);
			goto undo;
		}
		u.created[i] = true;
	}
	for (i = 0; i < n; i++) {
		const struct rdt_group *old = rdt_find(r->group, r->ngroups, g[i].name);

		if (old && old->mask == g[i].mask)
			continue;
		e = write_mask(r, &g[i], g[i].mask);
		if (e) {
			fail(r, &g[i], "writing the L3 mask of", e, err, errlen);
			goto undo;
		}
		u.mask_written[i] = true;
	}
	for (i = 0; i < n; i++) {
		const struct rdt_group *old = rdt_find(r->group, r->ngroups, g[i].name);

		if (g[i].shared || (old && same_cpus(old, &g[i])))
			continue;
		u.cpus_written = true;
		e = write_cpus(r, &g[i]);
		if (e) {
			fail(r, &g[i], "assigning CPUs to", e, err, errlen);
			goto undo;
		}
	}
	/* committed: drop the groups the plan no longer has */
	memcpy(r->next, g, n * sizeof(g[0]));
	kept = n;
	for (i = 0; i < r->ngroups; i++) {
		if (rdt_find(g, n, r->group[i].name))
			continue;
		if (r->group[i].shared) {
			/* let go of a runtime's class: the mask it had, never rmdir */
			e = rdt_put_orig(r, &r->group[i]);
			if (e)
				rdt_say(r, "resctrl: putting back the mask of %s: %s",
					r->group[i].name, strerror(-e));
			continue;
		}
		rdt_group_path(r, r->group[i].name, NULL, path, sizeof(path));
		e = r->rmdir(r->fs_arg, path);
		if (e && e != -ENOENT) {
			rdt_say(r, "resctrl: removing %s: %s (kept; retried on exit)", path,
				strerror(-e));
			if (kept < RDT_MAX_GROUPS)
				r->next[kept++] = r->group[i];
		}
	}
	memcpy(r->group, r->next, kept * sizeof(r->group[0]));
	r->ngroups = kept;
	return 0;
undo:
	rollback(r, g, n, &u);
	return e;
}

int rdt_reread(struct rdt *r)
{
	char names[RDT_MAX_GROUPS][PLATFORM_NAME_LEN + RDT_PREFIX_LEN];
	char path[RDT_PATH_LEN], buf[4096];
	size_t plen = strlen(r->prefix);
	int n, first = 0;

	n = rdt_find_stale(r, names, RDT_MAX_GROUPS);
	if (n < 0)
		return n;
	r->ngroups = 0;
	for (int i = 0; i < n && i < RDT_MAX_GROUPS; i++) {
		struct rdt_group *g = &r->group[r->ngroups];
		struct platform_cpuset cpus;
		int e;

		memset(g, 0, sizeof(*g));
		snprintf(g->name, sizeof(g->name), "%s", names[i] + plen);
		rdt_group_path(r, g->name, "schemata", path, sizeof(path));
		e = rdt_info_read_file(path, buf, sizeof(buf));
		if (!e)
			e = rdt_info_schemata_l3(buf, r->cache_id, &g->mask);
		if (!e) {
			rdt_group_path(r, g->name, "cpus_list", path, sizeof(path));
			e = rdt_info_read_file(path, buf, sizeof(buf));
		}
		if (!e)
			e = rdt_parse_cpus(buf, &cpus);
		if (e) {
			/* unreadable: not on record, so the next apply writes it whole */
			first = first ? first : e;
			continue;
		}
		for (unsigned int c = 0; c < PLATFORM_MAX_CPUS; c++)
			if (platform_cpuset_has(&cpus, c))
				g->cpus[g->ncpus++] = c;
		r->ngroups++;
	}
	/* the runtimes' classes iocad holds: their masks as they are now */
	for (unsigned int i = 0; i < r->norig && r->ngroups < RDT_MAX_GROUPS; i++) {
		struct rdt_group *g = &r->group[r->ngroups];

		*g = r->orig[i];
		rdt_gpath(r, g, "schemata", path, sizeof(path));
		if (!rdt_info_read_file(path, buf, sizeof(buf)) &&
		    !rdt_info_schemata_l3(buf, r->cache_id, &g->mask))
			r->ngroups++;
	}
	return first;
}
