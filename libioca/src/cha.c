// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/*
 * Encodings from the seeds README (Intel's uncore performance monitoring
 * guides): TOR_INSERTS is event 0x35. Skylake-SP / Cascade Lake select
 * IO_HIT / IO_MISS by umask (0x14 / 0x24) and the opcode by the CHA filter
 * (FILTER1, which Linux's uncore driver takes from config1 bits 32-63);
 * Ice Lake-SP and later use umask 0x04 plus an extended umask in config
 * bits 32 and up.
 */
#include "cha.h"

#include <dirent.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define TOR_INSERTS 0x35ull
#define SKX_CFG(umask) (TOR_INSERTS | ((uint64_t)(umask) << 8))
#define SKX_FILTER1(opc) ((uint64_t)(opc) << 32)
#define ICX_CFG(umask_ext) (TOR_INSERTS | (0x04ull << 8) | ((uint64_t)(umask_ext) << 32))

static const struct ioca_cha_encoding skx[] = {
	{IOCA_CHA_FLOW_WRITES, SKX_CFG(0x14), SKX_CFG(0x24), SKX_FILTER1(0x49033)},
	{IOCA_CHA_FLOW_READS, SKX_CFG(0x14), SKX_CFG(0x24), SKX_FILTER1(0x43C33)},
};

static const struct ioca_cha_encoding icx[] = {
	{IOCA_CHA_FLOW_WRITES, ICX_CFG(0xCC43FD), ICX_CFG(0xCC43FE), 0},
	{IOCA_CHA_FLOW_READS, ICX_CFG(0xC8F3FD), ICX_CFG(0xC8F3FE), 0},
};

size_t ioca_cha_encodings(uint32_t family, uint32_t model, struct ioca_cha_encoding *enc,
			  size_t max)
{
	const struct ioca_cha_encoding *src;
	size_t n, i;

	if (family != 6)
		return 0;
	switch (model) {
	case 0x55: /* Skylake-SP, Cascade Lake */
		src = skx;
		n = sizeof(skx) / sizeof(skx[0]);
		break;
	case 0x6A: /* Ice Lake-SP */
	case 0x6C: /* Ice Lake-D */
	case 0x8F: /* Sapphire Rapids */
	case 0xCF: /* Emerald Rapids */
	case 0xAD: /* Granite Rapids */
		src = icx;
		n = sizeof(icx) / sizeof(icx[0]);
		break;
	default:
		return 0;
	}
	for (i = 0; i < n && i < max; i++)
		enc[i] = src[i];
	return i;
}

struct cha_pmu {
	unsigned long n; /* the N of uncore_cha_N */
	uint32_t type;
};

static int by_n(const void *a, const void *b)
{
	const struct cha_pmu *x = a, *y = b;

	return x->n < y->n ? -1 : x->n > y->n;
}

static int read_type(const char *root, const char *name, uint32_t *type, const struct ioca_log *log)
{
	char path[4096];
	unsigned long v;
	char *end;
	FILE *f;
	char line[32];

	snprintf(path, sizeof(path), "%s/%s/type", root, name);
	f = fopen(path, "r");
	if (!f) {
		pr_warn(log, "%s: %s", path, strerror(errno));
		return -errno;
	}
	if (!fgets(line, sizeof(line), f))
		line[0] = '\0';
	fclose(f);
	errno = 0;
	v = strtoul(line, &end, 10);
	if (end == line || (*end && *end != '\n') || errno || v > UINT32_MAX) {
		pr_warn(log, "%s: \"%.*s\" is not a PMU type number", path,
			(int)strcspn(line, "\n"), line);
		return -EINVAL;
	}
	*type = (uint32_t)v;
	return 0;
}

/* N of "uncore_cha_N", or -1 for any other name. */
static long cha_index(const char *name)
{
	static const char prefix[] = "uncore_cha_";
	const char *p = name + sizeof(prefix) - 1;
	char *end;
	long n;

	if (strncmp(name, prefix, sizeof(prefix) - 1) || *p < '0' || *p > '9')
		return -1;
	n = strtol(p, &end, 10);
	return *end ? -1 : n;
}

int ioca_cha_discover(const char *root, uint32_t *types, size_t max, const struct ioca_log *log)
{
	struct cha_pmu found[IOCA_MAX_UNCORE_EVENTS];
	struct dirent *de;
	size_t n = 0, i;
	DIR *d;
	int err = 0;

	d = opendir(root);
	if (!d) {
		err = -errno;
		pr_warn(log, "%s: %s", root, strerror(errno));
		return err == -ENOENT ? -ENODEV : err;
	}
	while ((de = readdir(d))) {
		long idx = cha_index(de->d_name);

		if (idx < 0)
			continue;
		if (n >= max || n >= IOCA_MAX_UNCORE_EVENTS) {
			pr_warn(log, "%s: more than %zu uncore_cha PMUs", root, max);
			err = -E2BIG;
			break;
		}
		found[n].n = (unsigned long)idx;
		err = read_type(root, de->d_name, &found[n].type, log);
		if (err)
			break;
		n++;
	}
	closedir(d);
	if (err)
		return err;
	if (!n) {
		pr_warn(log,
			"no uncore_cha_N PMU under %s: DDIO hit/miss counters are not "
			"available (a VM, or a CPU without CHA uncore PMUs)",
			root);
		return -ENODEV;
	}
	qsort(found, n, sizeof(found[0]), by_n);
	for (i = 0; i < n; i++)
		types[i] = found[i].type;
	return (int)n;
}

static struct ioca_cha_preset *emulated(void)
{
	struct ioca_cha_preset *p = calloc(1, sizeof(*p));

	if (!p)
		return ioca_err_ptr(-ENOMEM);
	p->events[0].kind = IOCA_EVENT_KIND_DDIO_HIT_EMULATED;
	p->role[0] = IOCA_CHA_HIT;
	p->events[1].kind = IOCA_EVENT_KIND_DDIO_MISS_EMULATED;
	p->role[1] = IOCA_CHA_MISS;
	p->nevents = 2;
	return p;
}

static void add_event(struct ioca_cha_preset *p, uint32_t type, uint64_t config, uint64_t config1,
		      enum ioca_cha_role role)
{
	struct ioca_event *ev = &p->events[p->nevents];

	ev->kind = IOCA_EVENT_KIND_RAW;
	ev->type = type;
	ev->has_type = true;
	ev->config = config;
	ev->config1 = config1;
	p->role[p->nevents++] = role;
}

/* One hit and one miss event per CHA and selected flow. */
static int fill(struct ioca_cha_preset *p, const struct ioca_cha_encoding *enc, size_t nenc,
		unsigned int flows, const uint32_t *types, size_t nchas, const struct ioca_log *log)
{
	size_t i, j, nflows = 0;

	for (j = 0; j < nenc; j++)
		nflows += !!(enc[j].flow & flows);
	if (2 * nflows * nchas > IOCA_MAX_UNCORE_EVENTS) {
		pr_warn(log, "%zu CHAs x %zu flows x 2 events exceed IOCA_MAX_UNCORE_EVENTS (%d)",
			nchas, nflows, IOCA_MAX_UNCORE_EVENTS);
		return -E2BIG;
	}
	for (i = 0; i < nchas; i++) {
		for (j = 0; j < nenc; j++) {
			if (!(enc[j].flow & flows))
				continue;
			add_event(p, types[i], enc[j].hit_config, enc[j].config1, IOCA_CHA_HIT);
			add_event(p, types[i], enc[j].miss_config, enc[j].config1, IOCA_CHA_MISS);
		}
	}
	p->nr_chas = nchas;
	return 0;
}

LIBIOCA_API struct ioca_cha_preset *ioca_cha_preset__new(const struct ioca_info *info,
							 const struct ioca_cha_opts *opts)
{
	struct ioca_log log = {
		.fn = IOCA_OPTS_GET(opts, print, NULL),
		.ctx = IOCA_OPTS_GET(opts, print_ctx, NULL),
	};
	const char *root = IOCA_OPTS_GET(opts, sysfs_root, NULL);
	unsigned int flows = IOCA_OPTS_GET(opts, flows, 0);
	struct ioca_cha_encoding enc[4];
	uint32_t types[IOCA_MAX_UNCORE_EVENTS];
	struct ioca_cha_preset *p;
	size_t nenc;
	int n, err;

	err = IOCA_OPTS_VALID(&log, opts, ioca_cha_opts);
	if (err)
		return ioca_err_ptr(err);
	if (!info) {
		pr_warn(&log, "CHA preset: no info");
		return ioca_err_ptr(-EINVAL);
	}
	if (info->backend == IOCA_BACKEND_EMULATED)
		return emulated();
	if (!flows)
		flows = IOCA_CHA_FLOW_WRITES;
	if (flows & ~(unsigned int)(IOCA_CHA_FLOW_WRITES | IOCA_CHA_FLOW_READS)) {
		pr_warn(&log, "CHA preset: unknown flow bits 0x%x", flows);
		return ioca_err_ptr(-EINVAL);
	}
	nenc = ioca_cha_encodings(info->cpu_family, info->cpu_model, enc, 4);
	if (!nenc) {
		pr_warn(&log,
			"CPU family %u model 0x%x (%s) has no known DDIO hit/miss encoding: "
			"DDIO counters are not available",
			info->cpu_family, info->cpu_model, info->cpu_model_name);
		return ioca_err_ptr(-EOPNOTSUPP);
	}
	n = ioca_cha_discover(root ? root : "/sys/bus/event_source/devices", types,
			      IOCA_MAX_UNCORE_EVENTS, &log);
	if (n < 0)
		return ioca_err_ptr(n);
	p = calloc(1, sizeof(*p));
	if (!p)
		return ioca_err_ptr(-ENOMEM);
	err = fill(p, enc, nenc, flows, types, (size_t)n, &log);
	if (err) {
		free(p);
		return ioca_err_ptr(err);
	}
	return p;
}

LIBIOCA_API void ioca_cha_preset__free(struct ioca_cha_preset *p)
{
	free(p);
}

LIBIOCA_API const struct ioca_event *ioca_cha_preset__events(const struct ioca_cha_preset *p,
							     size_t *n)
{
	*n = p->nevents;
	return p->events;
}

LIBIOCA_API size_t ioca_cha_preset__nr_chas(const struct ioca_cha_preset *p)
{
	return p->nr_chas;
}

static const struct ioca_counter *find_counter(const struct ioca_socket_sample *s, size_t index)
{
	uint32_t i;

	/* The module sends counters in index order: try the direct slot. */
	if (index < s->ncounters && s->counters[index].index == index)
		return &s->counters[index];
	for (i = 0; i < s->ncounters; i++)
		if (s->counters[i].index == index)
			return &s->counters[i];
	return NULL;
}

LIBIOCA_API int ioca_cha_preset__sum(const struct ioca_cha_preset *p,
				     const struct ioca_socket_sample *s, size_t first,
				     uint64_t *hit, uint64_t *miss)
{
	uint64_t sum[2] = {0, 0};
	size_t i;

	for (i = 0; i < p->nevents; i++) {
		const struct ioca_counter *c = find_counter(s, first + i);

		if (!c)
			return ioca_err(-ENODATA);
		sum[p->role[i]] += c->value;
	}
	*hit = sum[IOCA_CHA_HIT];
	*miss = sum[IOCA_CHA_MISS];
	return 0;
}
