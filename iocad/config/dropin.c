// SPDX-License-Identifier: GPL-2.0
/* Drop-in tenant files composed into one config (dropin.h). */
#include <dirent.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "config/config_check.h"
#include "config/config_socket.h"
#include "config/dropin.h"

static void say(const struct dropin *d, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void say(const struct dropin *d, const char *fmt, ...)
{
	char msg[1024];
	va_list ap;

	if (!d->log)
		return;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	d->log(d->log_arg, msg);
}

static int wanted(const char *name)
{
	size_t n = strlen(name);

	if (name[0] == '.')
		return 0; /* hidden, editors' temporaries, a ConfigMap's ..data */
	return (n > 4 && !strcmp(name + n - 4, ".ini")) ||
	       (n > 5 && !strcmp(name + n - 5, ".conf"));
}

static int by_name(const void *a, const void *b)
{
	return strcmp(a, b);
}

int dropin_list(const char *dir, char (*names)[2 * CONFIG_PATH_LEN], unsigned int max)
{
	unsigned int n = 0;
	struct dirent *e;
	DIR *dh;

	dh = opendir(dir);
	if (!dh)
		return -errno;
	while ((e = readdir(dh)) && n < max) {
		struct stat st;

		if (!wanted(e->d_name))
			continue;
		snprintf(names[n], 2 * CONFIG_PATH_LEN, "%s/%s", dir, e->d_name);
		/* through symlinks (a ConfigMap's keys are links into ..data) */
		if (stat(names[n], &st) || !S_ISREG(st.st_mode))
			continue;
		n++;
	}
	closedir(dh);
	qsort(names, n, sizeof(names[0]), by_name);
	return (int)n;
}

static struct dropin_file *find(struct dropin *d, const char *path)
{
	for (unsigned int i = 0; i < d->nfiles; i++)
		if (!strcmp(d->file[i].path, path))
			return &d->file[i];
	return NULL;
}

/* With the platform known: every tenant placed, every socket's part resolved. */
static int place(struct config *c, const struct platform_info *info, const char *path, char *err,
		 size_t len)
{
	char keep[CONFIG_PATH_LEN];
	unsigned int ids[PLATFORM_MAX_SOCKETS], n;
	struct config *one;
	int r;

	if (!info)
		return 0;
	one = malloc(sizeof(*one));
	if (!one) {
		snprintf(err, len, "%s: out of memory", path);
		return -ENOMEM;
	}
	memcpy(keep, c->path, sizeof(keep));
	snprintf(c->path, sizeof(c->path), "%s", path); /* errors name the drop-in */
	r = config_place(c, info, err, len);
	n = r ? 0 : config_sockets(c, ids);
	for (unsigned int k = 0; k < n && !r; k++)
		r = config_for_socket(c, info, ids[k], one, err, len);
	memcpy(c->path, keep, sizeof(keep));
	free(one);
	return r;
}

/* Remember @f's tenants: those @next added after @cur's. */
static void remember(struct dropin_file *f, const struct config *cur, const struct config *next)
{
	unsigned int n = next->ntenants - cur->ntenants;

	free(f->tenant);
	f->tenant = n ? malloc(n * sizeof(*f->tenant)) : NULL;
	f->ntenants = f->tenant ? n : 0;
	if (f->tenant)
		memcpy(f->tenant, &next->tenant[cur->ntenants], n * sizeof(*f->tenant));
}

/* A refused file's previous version, if it still fits: 0 when @next holds it. */
static int previous(const struct dropin_file *f, const struct config *cur, struct config *next,
		    const struct platform_info *info)
{
	char err[512];

	if (!f || !f->ntenants || cur->ntenants + f->ntenants > PLATFORM_MAX_TENANTS)
		return -ENOENT;
	memcpy(next, cur, sizeof(*next));
	memcpy(&next->tenant[next->ntenants], f->tenant, f->ntenants * sizeof(f->tenant[0]));
	next->ntenants += f->ntenants;
	if (config_check(next, err, sizeof(err)) || place(next, info, f->path, err, sizeof(err)))
		return -EINVAL;
	return 0;
}

static int add_file(struct dropin *d, const char *path, struct config *cur, struct config *next,
		    const struct platform_info *info)
{
	struct dropin_file *f = find(d, path);
	char err[768] = "";
	int r;

	r = config_parse_tenants_file(path, cur, next, err, sizeof(err));
	if (!r)
		r = place(next, info, path, err, sizeof(err));
	if (!r) {
		if (!f && d->nfiles == DROPIN_MAX_FILES) {
			say(d, "%s: more than %d drop-in files: refused", path, DROPIN_MAX_FILES);
			return -ENOSPC;
		}
		if (!f) {
			f = &d->file[d->nfiles++];
			memset(f, 0, sizeof(*f));
			snprintf(f->path, sizeof(f->path), "%s", path);
		}
		remember(f, cur, next);
		f->seen = d->round;
		memcpy(cur, next, sizeof(*cur));
		return 0;
	}
	if (!previous(f, cur, next, info)) {
		say(d, "%s; file refused, keeping its previous version (%u tenant(s))", err,
		    f->ntenants);
		f->seen = d->round;
		memcpy(cur, next, sizeof(*cur));
	} else {
		say(d, "%s; file refused, its tenants are not managed", err);
	}
	return r;
}

/* Files not seen this round were removed (or refused with nothing to keep). */
static void forget_unseen(struct dropin *d)
{
	unsigned int k = 0;

	for (unsigned int i = 0; i < d->nfiles; i++) {
		if (d->file[i].seen != d->round) {
			free(d->file[i].tenant);
			continue;
		}
		d->file[k++] = d->file[i];
	}
	d->nfiles = k;
}

int dropin_compose(struct dropin *d, const struct config *main, const struct platform_info *info,
		   struct config *out, unsigned int *refused, char *err, size_t errlen)
{
	static char names[DROPIN_MAX_FILES][2 * CONFIG_PATH_LEN];
	struct config *cur = malloc(sizeof(*cur)), *next = malloc(sizeof(*next));
	unsigned int bad = 0;
	int r = 0;

	if (!cur || !next) {
		free(cur);
		free(next);
		snprintf(err, errlen, "%s: out of memory", main->path);
		return -ENOMEM;
	}
	d->round++;
	memcpy(cur, main, sizeof(*cur));
	for (unsigned int k = 0; k < main->ntenants_dirs; k++) {
		int n = dropin_list(main->tenants_dir[k], names, DROPIN_MAX_FILES);

		for (int i = 0; i < n; i++)
			if (add_file(d, names[i], cur, next, info))
				bad++;
	}
	forget_unseen(d);
	if (!cur->ntenants) {
		snprintf(err, errlen,
			 "%s: no tenant: neither it nor a file in its tenants_dir has a valid "
			 "[tenant NAME] section",
			 main->path);
		r = -EINVAL;
	} else {
		memcpy(out, cur, sizeof(*out));
	}
	if (refused)
		*refused = bad;
	free(cur);
	free(next);
	return r;
}

void dropin_clear(struct dropin *d)
{
	for (unsigned int i = 0; i < d->nfiles; i++)
		free(d->file[i].tenant);
	d->nfiles = 0;
}
