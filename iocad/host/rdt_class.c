// SPDX-License-Identifier: GPL-2.0
/*
 * A container runtime's RDT class (rdt_class): iocad writes only its L3
 * mask on our domain and puts back the mask it found there when it lets
 * go. A class may vanish and come back (the runtime removes and makes it):
 * it is then a new group with a mask of its own.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "rdt_apply.h"
#include "rdt_class.h"

int rdt_note_orig(struct rdt *r, const struct rdt_group *g)
{
	char path[RDT_PATH_LEN], buf[4096];
	struct rdt_group *o;
	int e;

	if (rdt_find(r->orig, r->norig, g->name))
		return 0;
	if (r->norig == RDT_MAX_GROUPS)
		return -ENOSPC;
	o = &r->orig[r->norig];
	memset(o, 0, sizeof(*o));
	memcpy(o->name, g->name, sizeof(o->name));
	o->shared = true;
	rdt_gpath(r, g, "schemata", path, sizeof(path));
	e = rdt_info_read_file(path, buf, sizeof(buf));
	if (!e)
		e = rdt_info_schemata_l3(buf, r->cache_id, &o->mask);
	if (!e)
		r->norig++;
	return e;
}

void rdt_forget_orig(struct rdt *r, const char *name)
{
	const struct rdt_group *o = rdt_find(r->orig, r->norig, name);
	unsigned int i;

	if (!o)
		return;
	i = (unsigned int)(o - r->orig);
	memmove(&r->orig[i], &r->orig[i + 1], (r->norig - i - 1) * sizeof(r->orig[0]));
	r->norig--;
}

int rdt_put_orig(struct rdt *r, const struct rdt_group *g)
{
	const struct rdt_group *o = rdt_find(r->orig, r->norig, g->name);
	char path[RDT_PATH_LEN], line[64];

	if (!o)
		return 0;
	rdt_gpath(r, g, "schemata", path, sizeof(path));
	snprintf(line, sizeof(line), "L3:%u=%x\n", r->cache_id, o->mask);
	rdt_forget_orig(r, g->name);
	return r->write(r->fs_arg, path, line);
}

int rdt_check_shared(struct rdt *r, const char *name, char *err, size_t errlen)
{
	char path[RDT_PATH_LEN];
	struct stat st;

	if (!strncmp(name, r->family, strlen(r->family))) {
		snprintf(err, errlen, "rdt_class %s: a group of iocad's own, not a runtime's",
			 name);
		return -EINVAL;
	}
	rdt_pathf(path, sizeof(path), "%s/%s/schemata", r->root, name);
	if (stat(path, &st)) {
		int e = -errno;

		snprintf(err, errlen,
			 "rdt_class %s: %s: %s; iocad never creates a runtime's class: create it "
			 "(mkdir %s/%s, or the runtime's RDT class config) or fix the name",
			 name, path, strerror(-e), r->root, name);
		return e;
	}
	return 0;
}
