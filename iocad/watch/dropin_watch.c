// SPDX-License-Identifier: GPL-2.0
/* inotify on the drop-in directories (dropin_watch.h). */
#include <errno.h>
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/inotify.h>
#include <unistd.h>

#include "watch/dropin_watch.h"

/* What changes the set of drop-ins or one's text; a ConfigMap swaps ..data by rename. */
#define DIR_EVENTS                                                                               \
	(IN_CREATE | IN_CLOSE_WRITE | IN_MOVED_TO | IN_MOVED_FROM | IN_DELETE | IN_DELETE_SELF | \
	 IN_MOVE_SELF | IN_ATTRIB)
#define PARENT_EVENTS (IN_CREATE | IN_MOVED_TO)

struct dropin_watch {
	int fd;
	unsigned int nwd;
	int wd[CONFIG_MAX_TENANTS_DIRS];
	/* "": the directory itself; else its parent, and this is the name awaited there */
	char name[CONFIG_MAX_TENANTS_DIRS][CONFIG_PATH_LEN];
};

struct dropin_watch *dropin_watch_open(char *err, size_t errlen)
{
	struct dropin_watch *w = calloc(1, sizeof(*w));
	int e;

	if (!w) {
		snprintf(err, errlen, "tenants_dir: out of memory");
		return NULL;
	}
	w->fd = inotify_init1(IN_NONBLOCK | IN_CLOEXEC);
	if (w->fd < 0) {
		e = errno;
		snprintf(err, errlen, "tenants_dir: inotify: %s", strerror(e));
		free(w);
		errno = e;
		return NULL;
	}
	return w;
}

/* Watching a path watched already returns its descriptor and queues no event. */
static int add(int fd, const char *path, uint32_t mask, int *wds, unsigned int *n)
{
	int wd = inotify_add_watch(fd, path, mask);

	if (wd < 0)
		return -errno;
	wds[*n] = wd;
	return 0;
}

static int has(const int *wds, unsigned int n, int wd)
{
	for (unsigned int i = 0; i < n; i++)
		if (wds[i] == wd)
			return 1;
	return 0;
}

int dropin_watch_set(struct dropin_watch *w, const struct config *cfg, dropin_log_fn log, void *arg)
{
	char name[CONFIG_MAX_TENANTS_DIRS][CONFIG_PATH_LEN];
	int wd[CONFIG_MAX_TENANTS_DIRS];
	unsigned int n = 0;
	int first = 0;

	for (unsigned int k = 0; k < cfg->ntenants_dirs; k++) {
		const char *dir = cfg->tenants_dir[k];
		char parent[CONFIG_PATH_LEN], msg[768];
		int e = add(w->fd, dir, DIR_EVENTS | IN_ONLYDIR, wd, &n);

		name[n][0] = '\0';
		if (!e) {
			n++;
			continue;
		}
		snprintf(parent, sizeof(parent), "%s", dir);
		snprintf(name[n], sizeof(name[n]), "%s", strrchr(dir, '/') + 1);
		if (e == -ENOENT &&
		    !add(w->fd, dirname(parent), PARENT_EVENTS | IN_ONLYDIR, wd, &n)) {
			n++;
			snprintf(msg, sizeof(msg),
				 "tenants_dir %s: not there yet; its creation is watched (read as "
				 "empty until then)",
				 dir);
		} else {
			snprintf(msg, sizeof(msg),
				 "tenants_dir %s: cannot watch it: %s; changes there need a SIGHUP",
				 dir, strerror(-e));
			first = first ? first : e;
		}
		if (log)
			log(arg, msg);
	}
	/*
	 * Only the watches no longer wanted go: removing one queues IN_IGNORED,
	 * whose SIGIO would be one more reload.
	 */
	for (unsigned int i = 0; i < w->nwd; i++)
		if (!has(wd, n, w->wd[i]))
			inotify_rm_watch(w->fd, w->wd[i]);
	memcpy(w->wd, wd, n * sizeof(wd[0]));
	memcpy(w->name, name, n * sizeof(name[0]));
	w->nwd = n;
	return first;
}

/* Does @ev change a tenants_dir (and not just the parent of a missing one)? */
static int relevant(const struct dropin_watch *w, const struct inotify_event *ev)
{
	if (ev->mask & IN_IGNORED)
		return 0; /* a watch removed: what removed it was an event already */
	for (unsigned int i = 0; i < w->nwd; i++)
		if (w->wd[i] == ev->wd)
			return !w->name[i][0] || (ev->len && !strcmp(ev->name, w->name[i]));
	return 0;
}

int dropin_watch_drain(struct dropin_watch *w)
{
	char buf[4096] __attribute__((aligned(__alignof__(struct inotify_event))));
	int n = 0;

	for (;;) {
		ssize_t r = read(w->fd, buf, sizeof(buf));

		if (r < 0)
			return errno == EAGAIN ? n : -errno;
		for (char *p = buf; p < buf + r;) {
			const struct inotify_event *ev = (const struct inotify_event *)p;

			n += relevant(w, ev);
			p += sizeof(*ev) + ev->len;
		}
	}
}

int dropin_watch_fd(const struct dropin_watch *w)
{
	return w->fd;
}

void dropin_watch_close(struct dropin_watch *w)
{
	if (!w)
		return;
	close(w->fd);
	free(w);
}
