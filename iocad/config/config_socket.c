// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "config/config_check.h"
#include "config/config_socket.h"

bool config_has_socket_sections(const struct config *cfg)
{
	for (unsigned int s = 0; s < PLATFORM_MAX_SOCKETS; s++)
		if (cfg->sock[s].line)
			return true;
	return false;
}

/* " (socket = N)" when the deprecated key pins the socket, else "". */
static const char *pinned(const struct config *cfg, char *buf, size_t len)
{
	if (!cfg->socket_set)
		return "";
	snprintf(buf, len, " (socket = %u)", cfg->socket);
	return buf;
}

static int place_tenant(const struct config *cfg, unsigned int i, const struct platform_info *info,
			unsigned int *out, char *err, size_t len)
{
	const struct config_tenant *t = &cfg->tenant[i];
	int first = -1;
	unsigned int first_cpu = 0;
	char pin[32];

	for (unsigned int k = 0; k < t->ncpus; k++) {
		unsigned int c = t->cpus[k];
		int s = c < info->ncpus ? info->cpu_socket[c] : PLATFORM_CPU_ABSENT;

		if (s == PLATFORM_CPU_ABSENT)
			return config_err_at(cfg, t->cpus_line, err, len,
					     "[tenant %s] cpus: CPU %u does not exist on this "
					     "host%s",
					     t->name, c, pinned(cfg, pin, sizeof(pin)));
		if (s < 0)
			return config_err_at(cfg, t->cpus_line, err, len,
					     "[tenant %s] cpus: CPU %u is offline%s", t->name, c,
					     pinned(cfg, pin, sizeof(pin)));
		if (cfg->socket_set && (unsigned int)s != cfg->socket)
			return config_err_at(cfg, t->cpus_line, err, len,
					     "[tenant %s] cpus: CPU %u is on socket %d, not on "
					     "socket %u%s",
					     t->name, c, s, cfg->socket,
					     pinned(cfg, pin, sizeof(pin)));
		if (s >= PLATFORM_MAX_SOCKETS || !info->socket[s].present)
			return config_err_at(cfg, t->cpus_line, err, len,
					     "[tenant %s] cpus: CPU %u is on socket %d, which the "
					     "platform does not manage",
					     t->name, c, s);
		if (first < 0) {
			first = s;
			first_cpu = c;
		} else if (s != first) {
			return config_err_at(cfg, t->cpus_line, err, len,
					     "[tenant %s] cpus: CPU %u is on socket %d but CPU %u "
					     "on socket %d: a tenant's CPUs must be on one socket",
					     t->name, first_cpu, first, c, s);
		}
	}
	*out = (unsigned int)first;
	return 0;
}

int config_place(struct config *cfg, const struct platform_info *info, char *err, size_t len)
{
	unsigned int sock[PLATFORM_MAX_TENANTS];
	int r;

	for (unsigned int i = 0; i < cfg->ntenants; i++) {
		const struct config_tenant *t = &cfg->tenant[i];
		unsigned int l = config_leader(cfg, i);

		r = place_tenant(cfg, i, info, &sock[i], err, len);
		if (r)
			return r;
		if (sock[l] != sock[i])
			return config_err_at(cfg, t->group_line, err, len,
					     "[tenant %s] group: %s is on socket %u, %s on socket "
					     "%u: a group is one class of service on one socket",
					     t->name, cfg->tenant[l].name, sock[l], t->name,
					     sock[i]);
	}
	for (unsigned int i = 0; i < cfg->ntenants; i++)
		cfg->tenant[i].socket = sock[i];
	return 0;
}

unsigned int config_sockets(const struct config *cfg, unsigned int *ids)
{
	bool has[PLATFORM_MAX_SOCKETS] = {false};
	unsigned int n = 0;

	for (unsigned int i = 0; i < cfg->ntenants; i++)
		has[cfg->tenant[i].socket % PLATFORM_MAX_SOCKETS] = true;
	for (unsigned int s = 0; s < PLATFORM_MAX_SOCKETS; s++)
		if (has[s])
			ids[n++] = s;
	return n;
}

/* [socket N] keys over [platform]'s. */
static void overlay(struct config *c, const struct config_socket *s)
{
	if (s->keys & CONFIG_SOCK_LLC) {
		c->llc_ways = s->llc_ways;
		c->llc_ways_line = s->llc_ways_line;
	}
	if (s->keys & CONFIG_SOCK_DDIO)
		c->ddio_ways = s->ddio_ways;
	if (s->keys & CONFIG_SOCK_DDIO_MIN)
		c->ddio_ways_min = s->ddio_ways_min;
	if (s->keys & CONFIG_SOCK_DDIO_MAX)
		c->ddio_ways_max = s->ddio_ways_max;
	if (s->keys & CONFIG_SOCK_DDIO_MODE)
		c->ddio_observe = s->ddio_observe;
	if (s->keys & CONFIG_SOCK_INCLUSIVE)
		c->inclusive = s->inclusive;
	if (s->keys & CONFIG_SOCK_MODEL) {
		c->model = s->model;
		c->model_line = s->model_line;
	}
	if (s->ddio_line)
		c->ddio_line = s->ddio_line;
}

int config_for_socket(const struct config *cfg, const struct platform_info *info, unsigned int id,
		      struct config *out, char *err, size_t len)
{
	unsigned int map[PLATFORM_MAX_TENANTS], n = 0;

	memcpy(out, cfg, offsetof(struct config, ntenants));
	out->socket = id;
	overlay(out, &cfg->sock[id % PLATFORM_MAX_SOCKETS]);
	if (out->ddio_ways_min > out->ddio_ways_max)
		return config_err_at(out, out->ddio_line, err, len,
				     "[socket %u] ddio_ways_min %u is more than ddio_ways_max %u",
				     id, out->ddio_ways_min, out->ddio_ways_max);
	if (out->ddio_ways &&
	    (out->ddio_ways < out->ddio_ways_min || out->ddio_ways > out->ddio_ways_max))
		return config_err_at(out, out->ddio_line, err, len,
				     "[socket %u] ddio_ways %u is outside ddio_ways_min..max "
				     "(%u..%u)",
				     id, out->ddio_ways, out->ddio_ways_min, out->ddio_ways_max);
	for (unsigned int i = 0; i < cfg->ntenants; i++) {
		struct config_tenant *t;

		if (cfg->tenant[i].socket != id)
			continue;
		map[i] = n;
		t = &out->tenant[n++];
		memcpy(t, &cfg->tenant[i], sizeof(*t));
		/* a group is on one socket (config_place): its leader is here too */
		if (t->group_leader)
			t->group_leader = map[t->group_leader - 1] + 1;
	}
	out->ntenants = n;
	/* with [socket N] sections the vswitch rules hold per socket */
	if (config_has_socket_sections(cfg)) {
		int r = config_check_vswitch(out, err, len);

		if (r)
			return r;
	}
	return config_resolve(out, info, err, len);
}

/* Where things were written does not change what they say. */
static void strip(struct config *c)
{
	memset(c->path, 0, sizeof(c->path));
	c->model_line = c->llc_ways_line = c->ddio_line = c->socket_line = 0;
	memset(c->sock, 0, sizeof(c->sock));
	c->inclusive.line = 0;
	/* thresholds are the loop's, taken at the next interval (loop_plan_reload) */
	memset(&c->thr, 0, sizeof(c->thr));
	/* devices are the loop's (loop_device.c), not a socket's */
	c->ndevices = 0;
	memset(c->device, 0, sizeof(c->device));
	for (unsigned int i = 0; i < c->ntenants; i++) {
		struct config_tenant *t = &c->tenant[i];

		t->line = t->cpus_line = t->ways_line = t->prio_line = 0;
		t->vswitch_line = t->group_line = 0;
		t->cgroup_line = t->rdt_class_line = 0;
	}
}

int config_same(const struct config *a, const struct config *b)
{
	struct config *x = malloc(sizeof(*x)), *y = malloc(sizeof(*y));
	int r = -ENOMEM;

	if (x && y) {
		memcpy(x, a, sizeof(*x));
		memcpy(y, b, sizeof(*y));
		strip(x);
		strip(y);
		r = !memcmp(x, y, sizeof(*x));
	}
	free(x);
	free(y);
	return r;
}
