// SPDX-License-Identifier: GPL-2.0
/*
 * Emulated DDIO hit/miss counters (emulate=1). A test writes a rate in
 * events per second to debugfs (ioca/socketN/ddio_hit_rate, ddio_miss_rate);
 * the counter's cumulative value is that rate integrated over
 * CLOCK_MONOTONIC, so a reader sees the same deltas a real CHA counter would
 * give for that traffic, through the same sampler path.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/debugfs.h>
#include <linux/fs.h>
#include <linux/ktime.h>
#include <linux/math64.h>
#include "compat.h"
#include "emul_counters.h"

bool ioca_emul_kind(u32 kind)
{
	return kind == IOCA_EVENT_KIND_DDIO_HIT_EMULATED ||
	       kind == IOCA_EVENT_KIND_DDIO_MISS_EMULATED;
}
EXPORT_SYMBOL_IF_KUNIT(ioca_emul_kind);

static struct ioca_emul_rate *ioca_emul_rate_of(struct ioca_emul_counters *e,
						unsigned int socket, u32 kind)
{
	if (socket >= e->nr_sockets || !ioca_emul_kind(kind))
		return NULL;
	return kind == IOCA_EVENT_KIND_DDIO_HIT_EMULATED ?
	       &e->sock[socket].hit : &e->sock[socket].miss;
}

static u64 ioca_emul_value(const struct ioca_emul_rate *r, u64 now_ns)
{
	if (now_ns <= r->since)
		return r->base;
	return r->base + mul_u64_u64_div_u64(r->rate, now_ns - r->since,
					     NSEC_PER_SEC);
}

/**
 * ioca_emul_init() - counters at zero, rates at zero
 * @e: state
 * @nr_sockets: sockets (1..IOCA_MAX_SOCKETS)
 */
void ioca_emul_init(struct ioca_emul_counters *e, unsigned int nr_sockets)
{
	memset(e, 0, sizeof(*e));
	spin_lock_init(&e->lock);
	e->nr_sockets = min_t(unsigned int, nr_sockets, IOCA_MAX_SOCKETS);
}
EXPORT_SYMBOL_IF_KUNIT(ioca_emul_init);

/**
 * ioca_emul_set_rate() - change a counter's rate from @now_ns on
 * @e: state
 * @socket: socket id
 * @kind: IOCA_EVENT_KIND_DDIO_HIT_EMULATED or _MISS_EMULATED
 * @rate: events per second
 * @now_ns: CLOCK_MONOTONIC ns
 *
 * Return: 0 or -EINVAL for an unknown socket or kind.
 */
int ioca_emul_set_rate(struct ioca_emul_counters *e, unsigned int socket,
		       u32 kind, u64 rate, u64 now_ns)
{
	struct ioca_emul_rate *r = ioca_emul_rate_of(e, socket, kind);

	if (!r)
		return -EINVAL;
	spin_lock(&e->lock);
	r->base = ioca_emul_value(r, now_ns);
	r->since = now_ns;
	r->rate = rate;
	spin_unlock(&e->lock);
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(ioca_emul_set_rate);

/**
 * ioca_emul_read() - a counter's cumulative value at @now_ns
 * @e: state
 * @socket: socket id
 * @kind: IOCA_EVENT_KIND_DDIO_HIT_EMULATED or _MISS_EMULATED
 * @now_ns: CLOCK_MONOTONIC ns
 *
 * Return: the value, 0 for an unknown socket or kind.
 */
u64 ioca_emul_read(struct ioca_emul_counters *e, unsigned int socket,
		   u32 kind, u64 now_ns)
{
	struct ioca_emul_rate *r = ioca_emul_rate_of(e, socket, kind);
	u64 v;

	if (!r)
		return 0;
	spin_lock(&e->lock);
	v = ioca_emul_value(r, now_ns);
	spin_unlock(&e->lock);
	return v;
}
EXPORT_SYMBOL_IF_KUNIT(ioca_emul_read);

/* debugfs: the file's private data is the rate; its parent dir the socket. */
struct ioca_emul_file {
	struct ioca_emul_counters *e;
	unsigned int socket;
	u32 kind;
};

static struct ioca_emul_file ioca_emul_files[IOCA_MAX_SOCKETS][2];

static int ioca_emul_rate_get(void *data, u64 *val)
{
	struct ioca_emul_file *f = data;
	struct ioca_emul_rate *r = ioca_emul_rate_of(f->e, f->socket, f->kind);

	spin_lock(&f->e->lock);
	*val = r->rate;
	spin_unlock(&f->e->lock);
	return 0;
}

static int ioca_emul_rate_set(void *data, u64 val)
{
	struct ioca_emul_file *f = data;

	return ioca_emul_set_rate(f->e, f->socket, f->kind, val,
				  ktime_get_ns());
}

DEFINE_DEBUGFS_ATTRIBUTE(ioca_emul_rate_fops, ioca_emul_rate_get,
			 ioca_emul_rate_set, "%llu\n");

/**
 * ioca_emul_debugfs_init() - ioca/socketN/ddio_{hit,miss}_rate, root only
 * @e: state
 *
 * Without debugfs the counters stay at rate 0; nothing fails.
 */
void ioca_emul_debugfs_init(struct ioca_emul_counters *e)
{
	unsigned int s;
	char name[16];

	e->dir = debugfs_create_dir(KBUILD_MODNAME, NULL);
	for (s = 0; s < e->nr_sockets; s++) {
		struct dentry *sd;

		snprintf(name, sizeof(name), "socket%u", s);
		sd = debugfs_create_dir(name, e->dir);
		ioca_emul_files[s][0] = (struct ioca_emul_file){
			e, s, IOCA_EVENT_KIND_DDIO_HIT_EMULATED };
		ioca_emul_files[s][1] = (struct ioca_emul_file){
			e, s, IOCA_EVENT_KIND_DDIO_MISS_EMULATED };
		debugfs_create_file_unsafe("ddio_hit_rate", 0600, sd,
					   &ioca_emul_files[s][0],
					   &ioca_emul_rate_fops);
		debugfs_create_file_unsafe("ddio_miss_rate", 0600, sd,
					   &ioca_emul_files[s][1],
					   &ioca_emul_rate_fops);
	}
}

/**
 * ioca_emul_exit() - remove the debugfs files (waits for open readers)
 * @e: state
 */
void ioca_emul_exit(struct ioca_emul_counters *e)
{
	debugfs_remove(e->dir);
	e->dir = NULL;
}
