// SPDX-License-Identifier: GPL-2.0
#include "sim_keys.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "config/config_value.h"

enum key_type { K_SIZE, K_COUNT, K_REAL, K_UINT, K_BOOL };

struct tkey {
	const char *name;
	enum key_type type;
	size_t off;
	double min, max;
	int group;
};

#define WOFF(f) offsetof(struct sim_workload, f)
static const struct tkey tkeys[] = {
	{"active", K_BOOL, WOFF(active), 0, 1, 0},
	{"ws", K_SIZE, WOFF(ws), 0, 1e12, SIM_KEYS_WORKLOAD},
	{"rpi", K_REAL, WOFF(rpi), 0, 1, SIM_KEYS_WORKLOAD},
	{"cpi", K_REAL, WOFF(cpi), 0.05, 100, SIM_KEYS_WORKLOAD},
	{"rate", K_COUNT, WOFF(rate), 0, 1e9, SIM_KEYS_TRAFFIC},
	{"pkt", K_SIZE, WOFF(pkt), 1, 65536, SIM_KEYS_TRAFFIC},
	{"buf", K_SIZE, WOFF(buf), 64, 65536, SIM_KEYS_TRAFFIC},
	{"ring", K_UINT, WOFF(ring), 1, 65536, SIM_KEYS_TRAFFIC},
	{"queues", K_UINT, WOFF(queues), 1, 1024, SIM_KEYS_TRAFFIC},
	{"ipp", K_REAL, WOFF(ipp), 1, 1e6, SIM_KEYS_TRAFFIC},
	{"touch", K_SIZE, WOFF(touch), 0, 65536, SIM_KEYS_TRAFFIC},
	{"flows", K_COUNT, WOFF(flows), 0, 1e9, 0},
	{"flow_bytes", K_SIZE, WOFF(flow_bytes), 0, 1 << 20, 0},
	{"emc_flows", K_COUNT, WOFF(emc_flows), 0, 1e9, 0},
	{"flow_refs", K_REAL, WOFF(flow_refs), 0, 100, 0},
	{"mlp", K_REAL, WOFF(mlp), 1, 64, SIM_KEYS_WORKLOAD},
	{"dca", K_BOOL, WOFF(dca), 0, 1, SIM_KEYS_TRAFFIC},
	{"tx", K_REAL, WOFF(tx), 0, 1, SIM_KEYS_TRAFFIC},
	{"dma_rate", K_SIZE, WOFF(dma_rate), 0, 1e11, SIM_KEYS_TRAFFIC},
	{"dma_block", K_SIZE, WOFF(dma_block), 512, 1 << 26, SIM_KEYS_TRAFFIC},
	{"dma_buffers", K_SIZE, WOFF(dma_buffers), 4096, 1e12, SIM_KEYS_TRAFFIC},
	{"dma_reread", K_BOOL, WOFF(dma_reread), 0, 1, SIM_KEYS_TRAFFIC},
};
#define NTKEYS ((int)(sizeof(tkeys) / sizeof(tkeys[0])))

static const char *const type_hint[] = {
	[K_SIZE] = "a size like 2M or 1500",
	[K_COUNT] = "a count like 200K or 3.5M",
	[K_REAL] = "a number",
	[K_UINT] = "a whole number",
	[K_BOOL] = "yes or no",
};

/* Write @v into the field at @dst as its key type says (memcpy: no aliasing). */
static void store(char *dst, enum key_type type, double v)
{
	bool b = v != 0;
	unsigned int u;

	if (type == K_BOOL) {
		memcpy(dst, &b, sizeof(b));
	} else if (type == K_UINT) {
		/* converted only here: a size past UINT_MAX is a valid double */
		u = (unsigned int)v;
		memcpy(dst, &u, sizeof(u));
	} else {
		memcpy(dst, &v, sizeof(v));
	}
}

bool sim_keys_valid_name(const char *name)
{
	size_t len = strlen(name), i;

	if (!len || len >= PLATFORM_NAME_LEN)
		return false;
	for (i = 0; i < len; i++)
		if (!isalnum((unsigned char)name[i]) && !strchr("_.-", name[i]))
			return false;
	return true;
}

const char *sim_keys_name(int key)
{
	return key >= 0 && key < NTKEYS ? tkeys[key].name : "?";
}

void sim_keys_apply(struct sim_workload *w, const struct scenario_set *set)
{
	const struct tkey *k = &tkeys[set->key];

	store((char *)w + k->off, k->type, set->value);
}

/* The callers say what was expected (type_hint, a key's hint), so @why is not kept. */
static int parse_typed(enum key_type type, const char *val, double *v)
{
	char why[80];
	bool b = false;
	int rc;

	switch (type) {
	case K_SIZE:
		return config_value_size(val, v, why, sizeof(why));
	case K_COUNT:
		return config_value_count(val, v, why, sizeof(why));
	case K_BOOL:
		rc = config_value_bool(val, &b, why, sizeof(why));
		*v = b;
		return rc;
	case K_UINT:
		rc = config_value_double(val, 0, 4e9, v, why, sizeof(why));
		if (!rc && *v != (double)(unsigned long)*v)
			rc = -EINVAL;
		return rc;
	default:
		return config_value_double(val, -HUGE_VAL, HUGE_VAL, v, why, sizeof(why));
	}
}

int sim_keys_tenant(const char *key, const char *val, int group, struct scenario_set *out,
		    char *msg, size_t len)
{
	double v = 0;
	int i;

	for (i = 0; i < NTKEYS; i++)
		if (!strcmp(tkeys[i].name, key))
			break;
	if (i == NTKEYS) {
		snprintf(msg, len, "unknown tenant key '%s'", key);
		return -EINVAL;
	}
	if (group && !(tkeys[i].group & group)) {
		snprintf(msg, len, "key '%s' cannot be changed by this event", key);
		return -EINVAL;
	}
	if (parse_typed(tkeys[i].type, val, &v)) {
		snprintf(msg, len, "%s: bad value '%s' (expected %s)", key, val,
			 type_hint[tkeys[i].type]);
		return -EINVAL;
	}
	if (v < tkeys[i].min || v > tkeys[i].max) {
		snprintf(msg, len, "%s: %s is out of range [%g, %g]", key, val, tkeys[i].min,
			 tkeys[i].max);
		return -EINVAL;
	}
	out->key = i;
	out->value = v;
	return 0;
}

/* Real-valued platform keys: name, where, range, what the value means. */
struct pkey {
	const char *name;
	enum key_type type;
	size_t off;
	double min, max;
	const char *hint;
};

#define POFF(f) offsetof(struct sim_params, f)
static const struct pkey pkeys[] = {
	{"ways", K_UINT, POFF(ways), 1, 32, "a way count in [1, 32]"},
	{"way_size", K_SIZE, POFF(way_bytes), 4096, 1 << 30, "a size in [4K, 1G]"},
	{"miss_penalty", K_REAL, POFF(miss_penalty), 0, 10000, "cycles in [0, 10000]"},
	{"ghz", K_REAL, POFF(ghz), 0.1, 10, "a clock in GHz in [0.1, 10]"},
	{"leak_cycles", K_REAL, POFF(leak_cycles), 0, 10000, "cycles in [0, 10000]"},
	{"llc_latency", K_REAL, POFF(llc_latency), 0, 10000, "cycles in [0, 10000]"},
	{"l2", K_SIZE, POFF(l2_bytes), 0, 1 << 30, "a size in [0, 1G]"},
	{"l2_latency", K_REAL, POFF(l2_latency), 0, 10000, "cycles in [0, 10000]"},
	{"mem_bw", K_COUNT, POFF(mem_bw), 0, 1e13, "bytes/s like 128G, at most 10000G"},
	{"mem_slope", K_REAL, POFF(mem_slope), 0, 100, "a number in [0, 100]"},
	{"rx_burst", K_REAL, POFF(rx_burst), 0, 4096, "packets in [0, 4096]"},
};

static int other_platform_key(struct scenario *s, const char *key, const char *val, char *msg,
			      size_t len)
{
	char why[120];
	uint64_t u;
	double v;

	if (!strcmp(key, "noise")) {
		if (config_value_double(val, 0, 0.5, &v, why, sizeof(why)))
			goto bad;
		s->noise = v;
	} else if (!strcmp(key, "seed")) {
		if (config_value_u64(val, UINT64_MAX, &u, why, sizeof(why)))
			goto bad;
		s->seed = u;
	} else if (!strcmp(key, "duration")) {
		if (config_value_duration(val, &u, why, sizeof(why)))
			goto bad_why;
		if (!u)
			goto bad;
		s->duration_ns = u;
	} else if (!strcmp(key, "stall")) {
		if (config_value_duration(val, &u, why, sizeof(why)))
			goto bad_why;
		if (u > 1000000000ULL)
			goto bad;
		s->params.stall = (double)u * 1e-9;
	} else if (!strcmp(key, "ddio_mask")) {
		if (config_value_u64(val, UINT32_MAX, &u, why, sizeof(why)))
			goto bad;
		s->ddio_mask = (uint32_t)u;
	} else if (!strcmp(key, "inclusive_mask")) {
		if (config_value_u64(val, UINT32_MAX, &u, why, sizeof(why)))
			goto bad;
		s->params.incl_mask = (uint32_t)u;
	} else if (!strcmp(key, "sockets")) {
		if (config_value_uint(val, 1, PLATFORM_MAX_SOCKETS, &s->nsockets, why, sizeof(why)))
			goto bad;
	} else if (!strcmp(key, "cpus_per_socket")) {
		if (config_value_uint(val, 1, PLATFORM_MAX_CPUS, &s->cpus_per_socket, why,
				      sizeof(why)))
			goto bad;
	} else {
		snprintf(msg, len, "unknown key '%s' in [platform]", key);
		return -EINVAL;
	}
	return 0;
bad_why:
	snprintf(msg, len, "%s: bad value '%s': %s", key, val, why);
	return -EINVAL;
bad:
	snprintf(msg, len, "%s: bad value '%s' (expected %s)", key, val,
		 !strcmp(key, "noise")		   ? "a relative sd in [0, 0.5]"
		 : !strcmp(key, "seed")		   ? "an unsigned number"
		 : !strcmp(key, "duration")	   ? "a time like 60s"
		 : !strcmp(key, "stall")	   ? "a time like 50us, at most 1s"
		 : !strcmp(key, "sockets")	   ? "a socket count in [1, 8]"
		 : !strcmp(key, "cpus_per_socket") ? "a CPU count in [1, 256]"
						   : "a mask like 0x600");
	return -EINVAL;
}

int sim_keys_platform(struct scenario *s, const char *key, const char *val, char *msg, size_t len)
{
	char *base = (char *)&s->params;
	size_t i;
	double v;

	for (i = 0; i < sizeof(pkeys) / sizeof(pkeys[0]); i++) {
		if (strcmp(pkeys[i].name, key))
			continue;
		if (parse_typed(pkeys[i].type, val, &v) || v < pkeys[i].min || v > pkeys[i].max) {
			snprintf(msg, len, "%s: bad value '%s' (expected %s)", key, val,
				 pkeys[i].hint);
			return -EINVAL;
		}
		store(base + pkeys[i].off, pkeys[i].type, v);
		return 0;
	}
	return other_platform_key(s, key, val, msg, len);
}
