/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What rdt.c and rdt_apply.c share: the handle's layout and the helpers
 * both use. Internal to the two; callers use rdt.h.
 */
#ifndef IOCAD_RDT_APPLY_H
#define IOCAD_RDT_APPLY_H

#include <stdbool.h>
#include <stddef.h>

#include "rdt.h"

#define RDT_PATH_LEN 512

struct rdt {
	char root[RDT_PATH_LEN / 2];
	char prefix[RDT_PREFIX_LEN];
	char family[RDT_PREFIX_LEN];
	unsigned int cache_id;
	rdt_write_fn write;
	rdt_rmdir_fn rmdir;
	void *fs_arg;
	rdt_print_fn print;
	void *print_arg;
	struct rdt_l3_info info;
	unsigned int ngroups;
	struct rdt_group group[RDT_MAX_GROUPS];
	struct rdt_group next[RDT_MAX_GROUPS]; /* scratch of rdt_apply */
	/* The masks shared groups had on our domain before iocad wrote them. */
	unsigned int norig;
	struct rdt_group orig[RDT_MAX_GROUPS];
};

/* vsnprintf: a path cut short fails at open(), gcc need not prove it fits */
void rdt_pathf(char *buf, size_t len, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

void rdt_say(const struct rdt *r, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* The group called @name among @n, or NULL. */
const struct rdt_group *rdt_find(const struct rdt_group *g, unsigned int n, const char *name);

/* root/<prefix><name>[/file], or root/<name>[/file] for a shared one, into @buf. */
void rdt_gpath(const struct rdt *r, const struct rdt_group *g, const char *file, char *buf,
	       size_t len);

/* Note a shared group's mask before iocad's first write (once). 0 or -errno. */
int rdt_note_orig(struct rdt *r, const struct rdt_group *g);

/* Put back a shared group's noted mask and forget it. 0 or -errno. */
int rdt_put_orig(struct rdt *r, const struct rdt_group *g);

/* root/<prefix><name>[/file] into @buf. */
void rdt_group_path(const struct rdt *r, const char *name, const char *file, char *buf, size_t len);

#endif /* IOCAD_RDT_APPLY_H */
