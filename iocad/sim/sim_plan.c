// SPDX-License-Identifier: GPL-2.0
#include "sim_plan.h"

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "ways.h"

/* The group of @sp holding tenant @i's first CPU, or NULL. */
static const struct platform_group *group_of(const struct sim_bind *b, unsigned int i,
					     const struct platform_socket_plan *sp)
{
	if (!b->tenant_ncpus[i])
		return NULL;
	for (unsigned int g = 0; g < sp->ngroups; g++)
		if (platform_cpuset_has(&sp->group[g].cpus, b->cpu[i][0]))
			return &sp->group[g];
	return NULL;
}

/* One socket's part of the plan into @mask and *@ddio. */
static int check_socket(const struct scenario *s, const struct sim_bind *b,
			const struct sim_sockets *ss, unsigned int ways,
			const struct platform_socket_plan *sp, uint32_t *mask, uint32_t *ddio,
			const struct platform_group **late, char *err, size_t len)
{
	if (!ways_fits(sp->ddio_mask, ways)) {
		snprintf(err, len, "socket %u: DDIO mask 0x%x is not contiguous within %u ways",
			 sp->id, sp->ddio_mask, ways);
		return -EINVAL;
	}
	*ddio = sp->ddio_mask;
	for (unsigned int g = 0; g < sp->ngroups; g++) {
		const struct platform_group *grp = &sp->group[g];
		bool runs = false;

		if (!ways_fits(grp->mask, ways)) {
			snprintf(err, len,
				 "group '%.*s': mask 0x%x is not contiguous within %u ways",
				 PLATFORM_NAME_LEN, grp->name, grp->mask, ways);
			return -EINVAL;
		}
		for (unsigned int i = 0; i < s->ntenants; i++)
			if (ss->of[i] == sp->id && group_of(b, i, sp) == grp) {
				mask[i] = grp->mask;
				runs = true;
			}
		/* a joining tenant described in the config only: the group named after it */
		for (unsigned int i = 0; !runs && i < s->ntenants; i++)
			if (!b->tenant_ncpus[i] &&
			    !strncmp(s->tenant[i].name, grp->name, PLATFORM_NAME_LEN)) {
				mask[i] = grp->mask;
				if (late)
					late[i] = grp;
				runs = true;
			}
		if (!runs) {
			snprintf(err, len,
				 "group '%.*s': its CPUs run no tenant of scenario %s on socket %u",
				 PLATFORM_NAME_LEN, grp->name, s->path, sp->id);
			return -ENOENT;
		}
	}
	return 0;
}

int sim_plan_check(const struct scenario *s, const struct sim_bind *b, const struct sim_sockets *ss,
		   unsigned int ways, const struct platform_plan *plan, uint32_t all,
		   uint32_t *mask, uint32_t *ddio, const struct platform_group **late, char *err,
		   size_t len)
{
	err[0] = '\0';
	if (!plan || plan->nsockets > PLATFORM_MAX_SOCKETS) {
		snprintf(err, len, "plan of %u sockets", plan ? plan->nsockets : 0);
		return -EINVAL;
	}
	for (unsigned int i = 0; i < s->ntenants; i++) {
		mask[i] = all;
		if (late)
			late[i] = NULL;
	}
	for (unsigned int k = 0; k < plan->nsockets; k++) {
		const struct platform_socket_plan *sp = &plan->socket[k];
		int r;

		if (sp->id >= ss->n) {
			snprintf(err, len, "socket %u: scenario %s simulates %u socket(s)", sp->id,
				 s->path, ss->n);
			return -ENOENT;
		}
		r = check_socket(s, b, ss, ways, sp, mask, &ddio[sp->id], late, err, len);
		if (r)
			return r;
	}
	return 0;
}

void sim_plan_path(const struct scenario *s, const char *rel, char *out, size_t len)
{
	const char *slash = strrchr(s->path, '/');

	if (rel[0] == '/' || !slash)
		snprintf(out, len, "%s", rel);
	else
		snprintf(out, len, "%.*s/%s", (int)(slash - s->path), s->path, rel);
}
