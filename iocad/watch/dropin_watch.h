/* SPDX-License-Identifier: GPL-2.0 */
/*
 * inotify on the tenants_dir directories (dropin.h): any file created,
 * written, moved or removed there is an event; the platform's wait()
 * (cgroup_watch.h) drains them every interval and raises the reload flag,
 * so the loop re-composes the config in the next interval through the
 * same atomic path as a SIGHUP. A directory that does not exist yet is
 * watched through its parent, where only its own creation counts.
 */
#ifndef IOCAD_DROPIN_WATCH_H
#define IOCAD_DROPIN_WATCH_H

#include <stddef.h>

#include "config/config.h"
#include "config/dropin.h"

struct dropin_watch;

/* A non-blocking inotify instance. NULL with errno set and @err saying why. */
struct dropin_watch *dropin_watch_open(char *err, size_t errlen);

/*
 * Watch @cfg's tenants_dir directories (replacing what was watched). A
 * missing directory is said through @log once per call and its parent
 * watched instead. 0 or the first -errno (the others still watched).
 */
int dropin_watch_set(struct dropin_watch *w, const struct config *cfg, dropin_log_fn log,
		     void *arg);

/*
 * Read every pending event; how many of them change a tenants_dir (0: none),
 * or -errno.
 */
int dropin_watch_drain(struct dropin_watch *w);

/* The inotify descriptor (for poll(2) in tests). */
int dropin_watch_fd(const struct dropin_watch *w);

void dropin_watch_close(struct dropin_watch *w);

#endif /* IOCAD_DROPIN_WATCH_H */
