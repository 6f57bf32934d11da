/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Following cgroup tenants' CPUs (cgroup_cpus.h) and the tenants_dir
 * directories (dropin_watch.h): a platform wrapper whose wait() also
 * re-reads every cgroup tenant's cpuset.cpus.effective once per interval
 * and drains the drop-ins' inotify events, and raises the reload flag when
 * either changed (the Kubernetes static CPU manager moves a pod's
 * exclusive CPUs this way; an orchestrator writes a tenant file). The
 * reload then re-reads the files through the config, as a SIGHUP does.
 */
#ifndef IOCAD_CGROUP_WATCH_H
#define IOCAD_CGROUP_WATCH_H

#include <signal.h>

#include "config/config.h"
#include "watch/dropin_watch.h"
#include "platform.h"

typedef void (*cgroup_watch_log_fn)(void *arg, const char *msg);

struct cgroup_watch_tenant {
	char name[PLATFORM_NAME_LEN];
	char cgroup[CONFIG_PATH_LEN];
	unsigned int ncpus; /* as last read; 0 with @err: unreadable */
	unsigned int cpus[PLATFORM_MAX_CPUS];
	int err;
};

struct cgroup_watch {
	struct platform inner;
	struct platform_ops ops;
	volatile sig_atomic_t *reload;
	struct dropin_watch *dropins; /* NULL: no tenants_dir watched */
	cgroup_watch_log_fn log;
	void *log_arg;
	char root[CONFIG_PATH_LEN];
	unsigned int ntenants;
	struct cgroup_watch_tenant tenant[PLATFORM_MAX_TENANTS];
};

/* Wrap @pf in place (as pace_wrap does); @w must outlive @pf's use. */
void cgroup_watch_wrap(struct cgroup_watch *w, struct platform *pf, volatile sig_atomic_t *reload,
		       cgroup_watch_log_fn log, void *log_arg);

/* Follow @cfg's cgroup tenants from the CPUs @cfg holds for them. */
void cgroup_watch_set(struct cgroup_watch *w, const struct config *cfg);

/*
 * Re-read every followed cgroup; 1 (and the reload flag raised) if one
 * changed since the last read, else 0. What wait() calls.
 */
int cgroup_watch_check(struct cgroup_watch *w);

#endif /* IOCAD_CGROUP_WATCH_H */
