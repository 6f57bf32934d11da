// SPDX-License-Identifier: GPL-2.0
/*
 * The host platform's open and close: everything that must hold before
 * iocad changes anything, in an order where a refusal leaves the host as
 * it was. The per-interval ops are in host_ops.c.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include "host_io_alloc.h"
#include "host_ops.h"
#include "io_alloc.h"
#include "host_platform.h"
#include "host_topo.h"

static void default_print(void *arg, const char *msg)
{
	(void)arg;
	fprintf(stderr, "iocad: %s\n", msg);
}

void host_say(struct host *h, const char *fmt, ...)
{
	char msg[768];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	h->print(h->print_arg, msg);
}

static void lib_print(enum ioca_print_level lvl, void *ctx, const char *fmt, va_list ap)
{
	struct host *h = ctx;
	char msg[512];

	if (lvl != IOCA_PRINT_WARN || h->lib_quiet)
		return;
	vsnprintf(msg, sizeof(msg), fmt, ap);
	host_say(h, "libioca: %s", msg);
}

static void rdt_print(void *arg, const char *msg)
{
	struct host *h = arg;

	h->print(h->print_arg, msg);
}

/* One iocad per host: the lock is what makes "stale" groups stale. */
static int take_lock(struct host *h, const char *dir, char *err, size_t errlen)
{
	char path[300], pid[32];
	int fd, n;

	if (mkdir(dir, 0755) && errno != EEXIST) {
		snprintf(err, errlen, "lock directory %s: %s", dir, strerror(errno));
		return -errno;
	}
	snprintf(path, sizeof(path), "%s/iocad.lock", dir);
	fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0644);
	if (fd < 0) {
		snprintf(err, errlen, "lock %s: %s", path, strerror(errno));
		return -errno;
	}
	if (flock(fd, LOCK_EX | LOCK_NB)) {
		n = (int)read(fd, pid, sizeof(pid) - 1);
		pid[n > 0 ? n : 0] = '\0';
		pid[strcspn(pid, "\n")] = '\0';
		snprintf(err, errlen,
			 "another iocad (pid %s) is running on this host (lock %s); one iocad "
			 "manages every socket: stop it first, or send it SIGHUP to reload",
			 pid[0] ? pid : "?", path);
		close(fd);
		return -EBUSY;
	}
	n = snprintf(pid, sizeof(pid), "%d\n", (int)getpid());
	if (ftruncate(fd, 0) || write(fd, pid, (size_t)n) != n)
		host_say(h, "lock %s: could not record the pid", path);
	h->lock_fd = fd;
	return 0;
}

void host_ddio_control(struct platform_socket_info *ps, const struct ioca_ddio_control *dc)
{
	const char *why = ioca_ddio_control__why_not(dc);

	ps->ddio_fixed = why != NULL;
	if (why)
		snprintf(ps->ddio_fixed_why, sizeof(ps->ddio_fixed_why), "ioca.ko: %s", why);
	ps->ddio_unverified = dc->reported && !why && !dc->verified;
}

static int open_module(struct host *h, char *err, size_t errlen)
{
	IOCA_OPTS(ioca_client_opts, co, .print = lib_print, .print_ctx = h);
	int r;

	h->lib_quiet = true;
	h->client = ioca_client__open(&co);
	h->lib_quiet = false;
	if (!h->client) {
		r = -errno;
		if (r == -ENOENT)
			snprintf(err, errlen,
				 "ioca.ko is not loaded (no 'ioca' generic netlink family): load "
				 "it with 'modprobe ioca' (or 'insmod ioca.ko'; a CPU without DDIO "
				 "way control needs 'insmod ioca.ko emulate=1', for tests only)");
		else
			snprintf(err, errlen, "ioca.ko: cannot open a netlink socket: %s",
				 strerror(-r));
		return r;
	}
	r = ioca_client__info(h->client, h->info);
	if (r) {
		snprintf(err, errlen, "ioca.ko: info: %s", strerror(-r));
		return r;
	}
	for (uint32_t i = 0; i < h->info->nsockets; i++) {
		const struct ioca_socket_info *si = &h->info->sockets[i];
		struct host_sock *hs;

		if (si->id >= PLATFORM_MAX_SOCKETS) {
			host_say(h, "ioca.ko socket %u: beyond the %d iocad manages, left alone",
				 si->id, PLATFORM_MAX_SOCKETS);
			continue;
		}
		hs = &h->sock[si->id];
		hs->present = true;
		hs->llc_ways = si->llc_ways;
		hs->start_mask = si->ddio_mask;
		hs->ddio_cur = si->ddio_mask;
		h->pi.socket[si->id] = (struct platform_socket_info){
			.present = true,
			.llc_ways = si->llc_ways,
			.ddio_mask = si->ddio_mask,
			.ddio_boot_mask = si->boot_mask,
		};
		host_ddio_control(&h->pi.socket[si->id], &h->info->ddio[i]);
	}
	/* tried at the sampler's first start (host_apply.c) */
	h->l2_try = host_counters_l2_events(h->info->cpu_family, h->info->cpu_model, h->l2_ev,
					    h->pi.l2_why, sizeof(h->pi.l2_why));
	if (h->l2_try)
		snprintf(h->pi.l2_why, sizeof(h->pi.l2_why), "the sampler has not started yet");
	r = host_subscribe(h);
	/* the slot kept for the sampler's owner is iocad's once it owns the sampler */
	if (r == -ENOSPC) {
		host_say(h,
			 "%s; iocad subscribes again once it owns the sampler (the slot kept "
			 "for the owner)",
			 h->last_err);
		return 0;
	}
	if (r)
		snprintf(err, errlen, "%s", h->last_err);
	return r;
}

int host_subscribe(struct host *h)
{
	IOCA_OPTS(ioca_subscription_opts, so, .print = lib_print, .print_ctx = h);
	const char *caps;
	int r;

	if (h->sub)
		return 0;
	h->sub = ioca_subscription__open(&so);
	if (h->sub)
		return 0;
	r = -errno;
	caps = r == -EPERM ? libioca_cmd_caps(IOCA_CMD_SAMPLES_SUBSCRIBE) : NULL;
	snprintf(h->last_err, sizeof(h->last_err), "ioca.ko: subscribing to the samples: %s%s%s%s",
		 strerror(-r), caps ? " (iocad needs " : "", caps ? caps : "", caps ? ")" : "");
	return r;
}

static void find_ddio_counters(struct host *h)
{
	IOCA_OPTS(ioca_cha_opts, o, .print = lib_print, .print_ctx = h);
	int e;

	h->preset = ioca_cha_preset__new(h->info, &o);
	if (h->preset)
		return;
	e = errno;
	snprintf(h->no_ddio_why, sizeof(h->no_ddio_why), "%s",
		 e == ENODEV	   ? "no uncore_cha PMU in sysfs (any VM; or the kernel "
				     "lacks the Intel uncore driver)"
		 : e == EOPNOTSUPP ? "no known DDIO hit/miss encoding for this CPU model"
				   : strerror(e));
}

/* resctrl for socket @id's cache domain: checked against the module, stale groups removed. */
static int open_resctrl(struct host *h, const struct host_platform_opts *o,
			const struct host_topo *topo, unsigned int id, char *err, size_t errlen)
{
	char prefix[RDT_PREFIX_LEN];
	struct host_sock *hs = &h->sock[id];
	int l3, n;

	l3 = host_topo_l3_id(topo, id);
	if (l3 < 0) {
		host_say(h, "socket %u: no L3 id in sysfs cache info, using the socket number", id);
		l3 = (int)id;
	}
	hs->l3_id = (unsigned int)l3;
	snprintf(prefix, sizeof(prefix), "iocad-s%u-", id);
	struct rdt_opts ro = {
		.sz = sizeof(ro),
		.root = o->resctrl_root,
		.prefix = prefix,
		.family = "iocad-s",
		.cache_id = (unsigned int)l3,
		.print = rdt_print,
		.print_arg = h,
	};
	hs->rdt = rdt_open(&ro, err, errlen);
	if (!hs->rdt)
		return -errno;
	if (rdt_info(hs->rdt)->cbm_len != hs->llc_ways) {
		snprintf(err, errlen,
			 "resctrl's L3 cbm_mask has %u ways, but ioca.ko reports %u LLC ways on "
			 "socket %u",
			 rdt_info(hs->rdt)->cbm_len, hs->llc_ways, id);
		return -EINVAL;
	}
	n = rdt_remove_stale(hs->rdt, err, errlen);
	if (n < 0)
		return n;
	if (n > 0)
		host_say(h,
			 "resctrl: cleaned up %d group(s) left by an iocad that did not exit "
			 "cleanly (socket %u)",
			 n, id);
	return 0;
}

/* Every socket the module knows and sysfs shows online CPUs of. */
static int open_sockets(struct host *h, const struct host_platform_opts *o,
			const struct host_topo *topo, char *err, size_t errlen)
{
	for (unsigned int id = 0; id < PLATFORM_MAX_SOCKETS; id++) {
		bool online = false;
		int r;

		for (unsigned int c = 0; c < topo->ncpus && !online; c++)
			online = topo->online[c] && topo->socket[c] == (int)id;
		if (!h->sock[id].present || !online)
			continue;
		r = open_resctrl(h, o, topo, id, err, errlen);
		if (r)
			return r;
		h->pi.socket[id].ddio_counters = h->preset != NULL;
		snprintf(h->pi.socket[id].ddio_counters_why, PLATFORM_WHY_LEN, "%s",
			 h->preset ? "" : h->no_ddio_why);
	}
	return 0;
}

static void destroy(void *ctx)
{
	struct host *h = ctx;

	ioca_subscription__close(h->sub);
	/* the module stops the sampler and puts owned DDIO masks back */
	ioca_client__close(h->client);
	ioca_cha_preset__free(h->preset);
	host_iio_free(&h->iio);
	if (h->ioa && io_alloc_changed(h->ioa))
		host_io_alloc_restore(h); /* a start refused after open */
	if (h->ioa)
		io_alloc_close(h->ioa);
	for (unsigned int id = 0; id < PLATFORM_MAX_SOCKETS; id++)
		if (h->sock[id].rdt)
			rdt_close(h->sock[id].rdt);
	if (h->lock_fd >= 0)
		close(h->lock_fd);
	if (h->online_fd >= 0)
		close(h->online_fd);
	free(h->sample);
	free(h->info);
	free(h);
}

static void quiet(enum ioca_print_level l, void *c, const char *fmt, va_list ap)
{
	(void)l, (void)c, (void)fmt, (void)ap;
}

/*
 * A host whose firmware describes Intel I/O RDT (the ACPI IRDT table) is
 * told that ioca plans DDIO through IIO_LLC_WAYS or io_alloc, not through
 * it (libioca/README.md, "Intel I/O RDT"); silent where there is none.
 */
static void say_io_rdt(struct host *h)
{
	IOCA_OPTS(ioca_irdt_opts, o, .print = quiet);
	struct ioca_irdt *t = ioca_irdt__open(&o);
	size_t ndev = 0, nlink = 0;

	if (!t) {
		if (errno != ENOENT)
			host_say(h, "Intel I/O RDT: the ACPI IRDT table could not be read (%s)",
				 strerror(errno));
		return;
	}
	ioca_irdt__devices(t, &ndev);
	ioca_irdt__links(t, &nlink);
	host_say(h,
		 "Intel I/O RDT: the ACPI IRDT table describes %zu device(s) on %zu link(s); "
		 "ioca does not allocate through it (iocactl info lists them)",
		 ndev, nlink);
	ioca_irdt__free(t);
}

int host_platform_open(const struct host_platform_opts *o, struct platform *pf, char *err,
		       size_t errlen)
{
	struct host_topo *topo = NULL;
	struct host *h;
	int r;

	if (!o || o->sz < offsetof(struct host_platform_opts, print_arg) + sizeof(void *) || !pf) {
		snprintf(err, errlen, "host: bad options");
		return -EINVAL;
	}
	h = calloc(1, sizeof(*h));
	topo = malloc(sizeof(*topo));
	if (h) {
		/* before any failure: destroy() closes what is >= 0 */
		h->lock_fd = -1;
		h->online_fd = -1;
		h->info = calloc(1, sizeof(*h->info));
		h->sample = calloc(1, sizeof(*h->sample));
	}
	if (!h || !topo || !h->info || !h->sample) {
		snprintf(err, errlen, "host: out of memory");
		r = -ENOMEM;
		goto fail;
	}
	h->stop = o->stop;
	if (o->sz >= offsetof(struct host_platform_opts, reload) + sizeof(o->reload))
		h->reload = o->reload;
	h->print = o->print ? o->print : default_print;
	h->print_arg = o->print_arg;
	snprintf(h->cpu_root, sizeof(h->cpu_root), "%s",
		 o->cpu_root ? o->cpu_root : HOST_TOPO_SYSFS);
	snprintf(h->pci_root, sizeof(h->pci_root), "/sys/bus/pci/devices");
	h->iio.pci_root = h->pci_root;
	h->iio.print = lib_print;
	h->iio.print_ctx = h;
	host_counters_init(&h->hc);
	/* ORDER: checks that change nothing, then the lock, then the module */
	r = host_topo_read(h->cpu_root, topo, err, errlen);
	if (!r) {
		host_topo_info(topo, &h->pi);
		(void)host_topo_online(h->cpu_root, &h->pi_online, err, errlen);
		r = take_lock(h, o->lock_dir ? o->lock_dir : "/run/iocad", err, errlen);
	}
	if (!r)
		r = open_module(h, err, errlen);
	if (!r) {
		find_ddio_counters(h);
		r = open_sockets(h, o, topo, err, errlen);
	}
	if (!r)
		r = host_io_alloc_open(h, o, err, errlen);
	if (r)
		goto fail;
	say_io_rdt(h);
	free(topo);
	pf->ops = &host_platform_ops;
	pf->ctx = h;
	return 0;
fail:
	free(topo);
	if (h)
		destroy(h);
	return r;
}

void host_destroy(void *ctx)
{
	destroy(ctx);
}

int host_platform_probe(const char *cpu_root, struct platform_info *out, char *err, size_t errlen)
{
	struct host_topo *topo = malloc(sizeof(*topo));
	int r;

	if (!topo) {
		snprintf(err, errlen, "host: out of memory");
		return -ENOMEM;
	}
	memset(out, 0, sizeof(*out));
	r = host_topo_read(cpu_root ? cpu_root : HOST_TOPO_SYSFS, topo, err, errlen);
	if (!r) {
		host_topo_info(topo, out);
		/* sockets as sysfs shows them: the module's are known only when opened */
		for (unsigned int c = 0; c < PLATFORM_MAX_CPUS; c++)
			if (out->cpu_socket[c] >= 0 && out->cpu_socket[c] < PLATFORM_MAX_SOCKETS)
				out->socket[out->cpu_socket[c]].present = true;
	}
	free(topo);
	return r;
}
