// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/*
 * TOR_INSERTS (event 0x35) counts what enters a CHA's table of requests;
 * an I/O write or read that hits or misses the LLC is one DDIO hit or
 * miss. Values as perf's event tables give them (tools/perf/pmu-events/
 * arch/x86/{skylakex,icelakex,sapphirerapids}): Skylake-SP selects IO_HIT
 * / IO_MISS by umask (0x14 / 0x24) and the opcode by the CHA filter
 * (config1 0x49033: filter_rem, filter_loc, filter_nm, filter_not_nm and
 * filter_opc0 = ItoM 0x248; PCIRdCur 0x21e); Ice Lake-SP and later put the
 * whole selection in an extended umask (IO_HIT_ITOM 0xCC43FD04). From Ice
 * Lake on a PCIe write may also come as ItoMCacheNear (IO_HIT_ITOMCACHENEAR
 * 0xCD43FD04), which PCM counts with ItoM as PCIe writes; so does this,
 * while the events fit. Granite Rapids and Granite Rapids-D take Sapphire
 * Rapids' values (assumed: the kernel drives their CHAs with Sapphire
 * Rapids' format). Every value is placed by the PMU's format/ attributes
 * (pmu_format.c): umask is config:8-15 on Skylake-SP, config:8-15,32-57
 * on Ice Lake-SP, config:8-15,32-63 on Sapphire Rapids.
 */
#include "cha.h"
#include "pmu_format.h"

#include <dirent.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define TOR_INSERTS 0x35
#define SKX_ITOM 0x248
#define SKX_PCIRDCUR 0x21e

static const struct ioca_cha_encoding skx[] = {
	{IOCA_CHA_FLOW_WRITES, "ItoM", false, 0x14, 0x24, SKX_ITOM},
	{IOCA_CHA_FLOW_READS, "PCIRdCur", false, 0x14, 0x24, SKX_PCIRDCUR},
};

static const struct ioca_cha_encoding icx[] = {
	{IOCA_CHA_FLOW_WRITES, "ItoM", false, 0xCC43FD04, 0xCC43FE04, 0},
	{IOCA_CHA_FLOW_WRITES, "ItoMCacheNear", true, 0xCD43FD04, 0xCD43FE04, 0},
	{IOCA_CHA_FLOW_READS, "PCIRdCur", false, 0xC8F3FD04, 0xC8F3FE04, 0},
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
	case 0xAE: /* Granite Rapids-D */
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

/* @e's hit (@miss false) or miss event, placed by @pmu's format. */
int ioca_cha_encode(const char *root, const char *pmu, const struct ioca_cha_encoding *e, bool miss,
		    struct ioca_event *ev, const struct ioca_log *log)
{
	const struct ioca_pmu_field f[] = {
		{"event", TOR_INSERTS},	 {"umask", miss ? e->miss_umask : e->hit_umask},
		{"filter_rem", 1},	 {"filter_loc", 1},
		{"filter_nm", 1},	 {"filter_not_nm", 1},
		{"filter_opc0", e->opc},
	};

	return ioca_pmu_encode(root, pmu, f, e->opc ? 7 : 2, ev, log);
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

int ioca_cha_discover(const char *root, uint32_t *types, size_t max, unsigned long *first,
		      const struct ioca_log *log)
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
	if (first)
		*first = found[0].n;
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

static void add_event(struct ioca_cha_preset *p, uint32_t type, const struct ioca_event *enc,
		      enum ioca_cha_role role)
{
	struct ioca_event *ev = &p->events[p->nevents];

	ev->kind = IOCA_EVENT_KIND_RAW;
	ev->type = type;
	ev->has_type = true;
	ev->config = enc->config;
	ev->config1 = enc->config1;
	p->role[p->nevents++] = role;
}

/*
 * The selected encodings, each as a hit and a miss event from the format
 * of uncore_cha_<first> (the kernel gives every CHA of a host one format
 * group), into @hit and @miss; how many.
 */
static int encode_all(const char *root, unsigned long first, const struct ioca_cha_encoding *enc,
		      size_t nenc, struct ioca_event *hit, struct ioca_event *miss,
		      const struct ioca_log *log)
{
	char pmu[32];
	int err;

	snprintf(pmu, sizeof(pmu), "uncore_cha_%lu", first);
	for (size_t j = 0; j < nenc; j++) {
		err = ioca_cha_encode(root, pmu, &enc[j], false, &hit[j], log);
		if (!err)
			err = ioca_cha_encode(root, pmu, &enc[j], true, &miss[j], log);
		if (err)
			return err;
	}
	return 0;
}

/*
 * One hit and one miss event per CHA and selected encoding; the encodings
 * marked extra (ItoMCacheNear) only when every CHA's fit in the ABI's
 * IOCA_MAX_UNCORE_EVENTS, else left out with a warning.
 */
static int fill(struct ioca_cha_preset *p, const struct ioca_cha_encoding *enc, size_t nenc,
		unsigned int flows, const uint32_t *types, size_t nchas, const char *root,
		unsigned long first, const struct ioca_log *log)
{
	struct ioca_event hit[4], miss[4];
	size_t i, j, nsel = 0, nextra = 0;
	bool extras;
	int err;

	for (j = 0; j < nenc; j++) {
		nsel += !!(enc[j].flow & flows);
		nextra += (enc[j].flow & flows) && enc[j].extra;
	}
	extras = 2 * nsel * nchas <= IOCA_MAX_UNCORE_EVENTS;
	if (!extras)
		nsel -= nextra;
	if (2 * nsel * nchas > IOCA_MAX_UNCORE_EVENTS) {
		pr_warn(log, "%zu CHAs x %zu flows x 2 events exceed IOCA_MAX_UNCORE_EVENTS (%d)",
			nchas, nsel, IOCA_MAX_UNCORE_EVENTS);
		return -E2BIG;
	}
	if (nextra && !extras)
		pr_warn(log,
			"%zu CHAs: ItoMCacheNear writes not counted (%zu more events would "
			"exceed IOCA_MAX_UNCORE_EVENTS, %d): DDIO hits and misses count ItoM only",
			nchas, 2 * nextra * nchas, IOCA_MAX_UNCORE_EVENTS);
	err = encode_all(root, first, enc, nenc, hit, miss, log);
	if (err)
		return err;
	for (i = 0; i < nchas; i++) {
		for (j = 0; j < nenc; j++) {
			if (!(enc[j].flow & flows) || (enc[j].extra && !extras))
				continue;
			add_event(p, types[i], &hit[j], IOCA_CHA_HIT);
			add_event(p, types[i], &miss[j], IOCA_CHA_MISS);
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
	unsigned long first = 0;
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
	root = root ? root : "/sys/bus/event_source/devices";
	n = ioca_cha_discover(root, types, IOCA_MAX_UNCORE_EVENTS, &first, &log);
	if (n < 0)
		return ioca_err_ptr(n);
	p = calloc(1, sizeof(*p));
	if (!p)
		return ioca_err_ptr(-ENOMEM);
	err = fill(p, enc, nenc, flows, types, (size_t)n, root, first, &log);
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
