// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/*
 * IIO presets: the uncore counter of a PCI device's inbound (device to
 * memory) write bytes, on the IIO stack above it.
 *
 * Discovery: the device's sysfs path under /sys/devices/pciDDDD:BB/ names
 * its root bus DDDD:BB and its root port (the path's next component); each
 * uncore_iio_N PMU has one attribute dieX per die, holding the root bus
 * "DDDD:BB" of stack N on die X (Linux's IIO mapping). The port within
 * the stack follows the root port's generation (iio_port.c). The counter:
 * the free-running uncore_iio_free_running_N PMU's events/bw_in_portK,
 * in the units its .scale and .unit give, else the programmable
 * uncore_iio_N's DATA_REQ_OF_CPU.MEM_WRITE (event 0x83, umask 0x01, one
 * ch_mask bit per port, fc_mask 0x7, as perf's event tables give
 * UNC_IIO_DATA_REQ_OF_CPU.MEM_WRITE.PARTn on Skylake-SP, Ice Lake-SP and
 * Sapphire Rapids; 4-byte units: their ScaleUnit "4Bytes"). Every field is
 * placed where the PMU's format/ attributes say (pmu_format.c): ch_mask is
 * config:36-43 on Skylake-SP and config:36-47 later, fc_mask 44-46 and
 * 48-50.
 */
#include "iio.h"
#include "iio_port.h"
#include "pmu_format.h"

#include <dirent.h>
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define DATA_REQ_OF_CPU 0x83
#define MEM_WRITE 0x01
#define FC_MASK_ALL 0x7

/* The first line of @dir/@name without its newline; 0 or -errno. */
static int read_line(const char *dir, const char *name, char *buf, size_t len)
{
	char path[PATH_MAX];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "r");
	if (!f)
		return -errno;
	if (!fgets(buf, (int)len, f))
		buf[0] = '\0';
	fclose(f);
	buf[strcspn(buf, "\n")] = '\0';
	return 0;
}

static int read_type(const char *dir, uint32_t *type, const struct ioca_log *log)
{
	char line[32], *end;
	unsigned long v;
	int r = read_line(dir, "type", line, sizeof(line));

	if (r) {
		pr_warn(log, "%s/type: %s", dir, strerror(-r));
		return r;
	}
	errno = 0;
	v = strtoul(line, &end, 10);
	if (end == line || *end || errno || v > UINT32_MAX) {
		pr_warn(log, "%s/type: \"%s\" is not a PMU type number", dir, line);
		return -EINVAL;
	}
	*type = (uint32_t)v;
	return 0;
}

int ioca_iio_locate(const char *pci_root, const char *addr, struct ioca_iio_where *w,
		    const struct ioca_log *log)
{
	char path[PATH_MAX], real[PATH_MAX], *p, *rp, *end;
	unsigned int dom, bus, dev, fn, width = 4;
	char line[32];

	snprintf(path, sizeof(path), "%s/%s", pci_root, addr);
	if (!realpath(path, real)) {
		int e = -errno;

		pr_warn(log, "IIO: PCI device %s: %s: %s", addr, path, strerror(errno));
		return e == -ENOENT ? -ENODEV : e;
	}
	p = strstr(real, "/devices/pci");
	if (p)
		p += strlen("/devices");
	if (!p || sscanf(p, "/pci%x:%x/", &dom, &bus) != 2) {
		pr_warn(log, "IIO: PCI device %s: its sysfs path %s names no root bus pciDDDD:BB",
			addr, real);
		return -ENODEV;
	}
	rp = strchr(p + 1, '/');
	if (!rp || sscanf(rp + 1, "%*x:%*x:%x.%x", &dev, &fn) != 2) {
		pr_warn(log, "IIO: PCI device %s: no root port in %s", addr, real);
		return -ENODEV;
	}
	end = strchr(rp + 1, '/');
	if (end)
		*end = '\0';
	w->domain = dom;
	w->bus = bus;
	w->root_dev = dev;
	w->root_fn = fn;
	snprintf(w->root_port, sizeof(w->root_port), "%s", rp + 1);
	if (!read_line(real, "current_link_width", line, sizeof(line)) &&
	    sscanf(line, "%u", &width) != 1)
		width = 4;
	w->link_width = width ? width : 4;
	w->root_vendor = w->root_id = 0;
	if (!read_line(real, "vendor", line, sizeof(line)))
		sscanf(line, "%x", &w->root_vendor);
	if (!read_line(real, "device", line, sizeof(line)))
		sscanf(line, "%x", &w->root_id);
	return 0;
}

/* N of "@prefix N", or -1. */
static long index_of(const char *name, const char *prefix)
{
	size_t n = strlen(prefix);
	char *end;
	long v;

	if (strncmp(name, prefix, n) || name[n] < '0' || name[n] > '9')
		return -1;
	v = strtol(name + n, &end, 10);
	return *end ? -1 : v;
}

/*
 * The stack whose dieX attribute holds @w's root bus: its N into @w->stack
 * and X into @w->die. 0, or -ENODEV with why.
 */
static int find_stack(const char *root, struct ioca_iio_where *w, char *why, size_t whylen)
{
	bool any_pmu = false, any_map = false;
	struct dirent *de;
	DIR *d = opendir(root);
	int r = -ENODEV;

	if (!d) {
		snprintf(why, whylen, "%s: %s", root, strerror(errno));
		return -ENODEV;
	}
	while (r && (de = readdir(d))) {
		long n = index_of(de->d_name, "uncore_iio_");
		char dir[PATH_MAX];
		struct dirent *ae;
		DIR *a;

		if (n < 0)
			continue;
		any_pmu = true;
		snprintf(dir, sizeof(dir), "%s/%s", root, de->d_name);
		a = opendir(dir);
		while (a && r && (ae = readdir(a))) {
			long die = index_of(ae->d_name, "die");
			unsigned int dom, bus;
			char line[32];

			if (die < 0 || read_line(dir, ae->d_name, line, sizeof(line)))
				continue;
			any_map = true;
			if (sscanf(line, "%x:%x", &dom, &bus) == 2 && dom == w->domain &&
			    bus == w->bus) {
				w->stack = (uint32_t)n;
				w->die = (uint32_t)die;
				r = 0;
			}
		}
		if (a)
			closedir(a);
	}
	closedir(d);
	if (!r)
		return 0;
	if (!any_pmu)
		snprintf(why, whylen,
			 "no uncore_iio_N PMU under %s (a VM, a CPU without IIO uncore PMUs, or a "
			 "kernel without the Intel uncore driver)",
			 root);
	else if (!any_map)
		snprintf(why, whylen,
			 "the uncore_iio_N PMUs under %s have no dieX mapping attribute (the "
			 "kernel maps IIO stacks to root buses on Skylake-SP / Cascade Lake from "
			 "Linux 5.9, on later Xeons from later kernels; older kernels do not)",
			 root);
	else
		snprintf(why, whylen,
			 "root bus %04x:%02x is on no IIO stack the uncore_iio_N dieX attributes "
			 "under %s list",
			 w->domain, w->bus, root);
	return -ENODEV;
}

/* Bytes per count of event @ev of the PMU in @dir: its .scale in .unit; 4 if they say nothing. */
static double unit_bytes(const char *dir, const char *ev)
{
	char name[96], line[64], *end;
	double scale, mult = 1;

	snprintf(name, sizeof(name), "events/%s.scale", ev);
	if (read_line(dir, name, line, sizeof(line)))
		return 4;
	scale = strtod(line, &end);
	if (end == line || scale <= 0)
		return 4;
	snprintf(name, sizeof(name), "events/%s.unit", ev);
	if (!read_line(dir, name, line, sizeof(line))) {
		if (!strcmp(line, "MiB"))
			mult = 1024.0 * 1024.0;
		else if (!strcmp(line, "KiB"))
			mult = 1024.0;
		else if (strcmp(line, "B") && strcmp(line, "Bytes"))
			return 4;
	}
	return scale * mult;
}

static void add(struct ioca_iio_preset *p, uint32_t type, const struct ioca_event *enc)
{
	struct ioca_event *ev = &p->events[p->nevents++];

	ev->kind = IOCA_EVENT_KIND_RAW;
	ev->type = type;
	ev->has_type = true;
	ev->config = enc->config;
	ev->config1 = enc->config1;
}

/*
 * bw_in_port<first..> of uncore_iio_free_running_<stack>. -ENOENT when the
 * PMU or an event is missing (the caller falls back to the programmable
 * counter), other -errno when one does not encode.
 */
static int free_running(const char *root, struct ioca_iio_preset *p, unsigned int first,
			unsigned int nports, const struct ioca_log *log)
{
	char pmu[48], dir[PATH_MAX], name[64], line[128];
	struct ioca_event enc;
	uint32_t type;
	int r;

	snprintf(pmu, sizeof(pmu), "uncore_iio_free_running_%u", p->where.stack);
	snprintf(dir, sizeof(dir), "%s/%s", root, pmu);
	if (access(dir, F_OK))
		return -ENOENT;
	r = read_type(dir, &type, log);
	if (r)
		return r;
	for (unsigned int k = first; k < first + nports; k++) {
		snprintf(name, sizeof(name), "events/bw_in_port%u", k);
		if (read_line(dir, name, line, sizeof(line))) {
			pr_warn(log, "IIO: %s/%s: missing", dir, name);
			p->nevents = 0;
			return -ENOENT;
		}
		r = ioca_pmu_encode_terms(root, pmu, line, &enc, log);
		if (r) {
			p->nevents = 0;
			return r;
		}
		add(p, type, &enc);
		p->unit_bytes = unit_bytes(dir, name + strlen("events/"));
	}
	if (nports == 1)
		snprintf(p->source, sizeof(p->source), "%s/bw_in_port%u", pmu, first);
	else
		snprintf(p->source, sizeof(p->source), "%s/bw_in_port%u-%u", pmu, first,
			 first + nports - 1);
	return 0;
}

static int programmable(const char *root, struct ioca_iio_preset *p, unsigned int first,
			unsigned int nports, const struct ioca_log *log)
{
	char pmu[32], dir[PATH_MAX];
	uint64_t ports = ((1ull << nports) - 1) << first;
	const struct ioca_pmu_field f[] = {
		{"event", DATA_REQ_OF_CPU},
		{"umask", MEM_WRITE},
		{"ch_mask", ports},
		{"fc_mask", FC_MASK_ALL},
	};
	struct ioca_event enc;
	uint32_t type;
	int r;

	snprintf(pmu, sizeof(pmu), "uncore_iio_%u", p->where.stack);
	snprintf(dir, sizeof(dir), "%s/%s", root, pmu);
	r = read_type(dir, &type, log);
	if (r)
		return r == -ENOENT ? -ENODEV : r;
	r = ioca_pmu_encode(root, pmu, f, sizeof(f) / sizeof(f[0]), &enc, log);
	if (r)
		return r;
	add(p, type, &enc);
	p->unit_bytes = 4;
	snprintf(p->source, sizeof(p->source), "%s DATA_REQ_OF_CPU.MEM_WRITE ch_mask 0x%02" PRIx64,
		 pmu, ports);
	return 0;
}

/* @p's port within its stack by its root port's generation; 0 or -ENODEV. */
static int port_of(struct ioca_iio_preset *p, const char *addr, unsigned int *first,
		   unsigned int *nports, const struct ioca_log *log)
{
	struct ioca_iio_where *w = &p->where;
	const struct ioca_iio_rule *r =
		ioca_iio_rule_of((uint16_t)w->root_vendor, (uint16_t)w->root_id);

	if (!r) {
		pr_warn(log,
			"IIO: device %s: root port %s is %04x:%04x, not a root port whose IIO "
			"port ioca knows (Skylake-SP/Cascade Lake 8086:2030-2033, Ice Lake-SP "
			"8086:347a-347d, Sapphire/Emerald Rapids 8086:352a-352d): no inbound "
			"write counter",
			addr, w->root_port, w->root_vendor, w->root_id);
		return -ENODEV;
	}
	if (ioca_iio_rule_port(r, w->root_dev, w->link_width, first, nports)) {
		pr_warn(log,
			"IIO: device %s: root port %s (%s) is device %u on its bus, not one of "
			"the stack's %u root port devices from %u: no inbound write counter",
			addr, w->root_port, r->gen, w->root_dev, r->nports, r->first_dev);
		return -ENODEV;
	}
	p->gen = r->gen;
	return 0;
}

LIBIOCA_API struct ioca_iio_preset *ioca_iio_preset__new(const char *addr,
							 const struct ioca_iio_opts *opts)
{
	struct ioca_log log = {
		.fn = IOCA_OPTS_GET(opts, print, NULL),
		.ctx = IOCA_OPTS_GET(opts, print_ctx, NULL),
	};
	const char *root = IOCA_OPTS_GET(opts, sysfs_root, NULL);
	const char *pci = IOCA_OPTS_GET(opts, pci_root, NULL);
	struct ioca_iio_preset *p;
	unsigned int first = 0, nports = 0;
	char why[PATH_MAX + 160];
	int err;

	err = IOCA_OPTS_VALID(&log, opts, ioca_iio_opts);
	if (err)
		return ioca_err_ptr(err);
	if (!addr || !*addr) {
		pr_warn(&log, "IIO preset: no device address");
		return ioca_err_ptr(-EINVAL);
	}
	root = root ? root : "/sys/bus/event_source/devices";
	p = calloc(1, sizeof(*p));
	if (!p)
		return ioca_err_ptr(-ENOMEM);
	err = ioca_iio_locate(pci ? pci : "/sys/bus/pci/devices", addr, &p->where, &log);
	if (!err) {
		err = find_stack(root, &p->where, why, sizeof(why));
		if (err)
			pr_warn(&log, "IIO: device %s: %s: no inbound write counter", addr, why);
	}
	if (!err)
		err = port_of(p, addr, &first, &nports, &log);
	if (err) {
		free(p);
		return ioca_err_ptr(err);
	}
	err = free_running(root, p, first, nports, &log);
	if (err && err != -ENOENT)
		pr_warn(&log,
			"IIO: device %s: the free-running counter does not encode; trying "
			"uncore_iio_%u",
			addr, p->where.stack);
	if (err)
		err = programmable(root, p, first, nports, &log);
	if (err == -ENODEV)
		pr_warn(&log,
			"IIO: device %s: stack %u has neither uncore_iio_free_running_%u nor a "
			"readable uncore_iio_%u: no inbound write counter",
			addr, p->where.stack, p->where.stack, p->where.stack);
	if (err) {
		free(p);
		return ioca_err_ptr(err);
	}
	return p;
}

LIBIOCA_API void ioca_iio_preset__free(struct ioca_iio_preset *p)
{
	free(p);
}

LIBIOCA_API const struct ioca_event *ioca_iio_preset__events(const struct ioca_iio_preset *p,
							     size_t *n)
{
	*n = p->nevents;
	return p->events;
}

LIBIOCA_API uint32_t ioca_iio_preset__socket(const struct ioca_iio_preset *p)
{
	return p->where.die;
}

LIBIOCA_API const char *ioca_iio_preset__source(const struct ioca_iio_preset *p)
{
	return p->source;
}

LIBIOCA_API int ioca_iio_preset__bytes(const struct ioca_iio_preset *p,
				       const struct ioca_socket_sample *s, size_t first,
				       uint64_t *bytes)
{
	double sum = 0;

	for (size_t i = 0; i < p->nevents; i++) {
		const struct ioca_counter *c = NULL;

		for (uint32_t j = 0; j < s->ncounters && !c; j++)
			if (s->counters[j].index == first + i)
				c = &s->counters[j];
		if (!c)
			return ioca_err(-ENODATA);
		sum += (double)c->value;
	}
	*bytes = (uint64_t)(sum * p->unit_bytes + 0.5);
	return 0;
}
