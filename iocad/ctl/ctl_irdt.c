// SPDX-License-Identifier: GPL-2.0
#include "ctl_irdt.h"

#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <string.h>

static const char not_used[] =
	"ioca does not allocate through it: DDIO's ways are set through IIO_LLC_WAYS or "
	"resctrl's io_alloc";

static void quiet(enum ioca_print_level l, void *c, const char *fmt, va_list ap)
{
	(void)l, (void)c, (void)fmt, (void)ap;
}

void ctl_irdt_read(struct ctl_irdt *r)
{
	IOCA_OPTS(ioca_irdt_opts, o, .print = quiet);

	r->t = ioca_irdt__open(&o);
	r->err = r->t ? 0 : -errno;
}

void ctl_irdt_free(struct ctl_irdt *r)
{
	ioca_irdt__free(r->t);
	r->t = NULL;
}

static void flags(FILE *f, uint32_t v)
{
	static const char *const name[] = {"mon", "ctl", "bw-ctl"};
	const char *sep = "";

	for (unsigned int i = 0; i < 3; i++)
		if (v & 1u << i) {
			fprintf(f, "%s%s", sep, name[i]);
			sep = ",";
		}
	if (!*sep)
		fputc('-', f);
}

static const char *iface(uint16_t v)
{
	return v == 0 ? "pcie" : v == 1 ? "cxl.cache" : "reserved";
}

static const char *why(int err)
{
	switch (err) {
	case -ENOENT:
		return "no ACPI IRDT table: the firmware describes no Intel I/O RDT";
	case -EACCES:
	case -EPERM:
		return "/sys/firmware/acpi/tables/IRDT is readable by root only";
	case -EINVAL:
		return "the ACPI IRDT table does not decode (libioca's ioca_irdt__open() says why)";
	default:
		return strerror(-err);
	}
}

void ctl_irdt_print(FILE *f, const struct ctl_irdt *r)
{
	const struct ioca_irdt_device *d;
	const struct ioca_irdt_link *l;
	size_t nd, nl;

	if (r->err) {
		fprintf(f, "io-rdt: %s (%s)\n", r->err == -ENOENT ? "none" : "unknown",
			why(r->err));
		return;
	}
	d = ioca_irdt__devices(r->t, &nd);
	l = ioca_irdt__links(r->t, &nl);
	fputs("io-rdt: io ", f);
	flags(f, ioca_irdt__io_flags(r->t));
	fputs(" cache ", f);
	flags(f, ioca_irdt__cache_flags(r->t));
	fprintf(f, ", %zu devices, %zu links; %s\n", nd, nl, not_used);
	for (size_t i = 0; i < nd; i++) {
		fprintf(f, "io-rdt-device: %04x:%02x:%02x.%x %s channels", d[i].segment, d[i].bus,
			d[i].dev, d[i].fn, d[i].bridge ? "bridge" : "endpoint");
		for (uint32_t c = 0; c < d[i].nchannels; c++)
			fprintf(f, " %u/%u%s", d[i].channels[c].rcs, d[i].channels[c].channel,
				d[i].channels[c].shared ? "(shared)" : "");
		if (!d[i].nchannels)
			fputs(" -", f);
		fputc('\n', f);
	}
	for (size_t i = 0; i < nl; i++)
		fprintf(f,
			"io-rdt-link: segment %04x rcs %u %s channels %u clos-tagging %s "
			"rmid-tagging %s mmio 0x%" PRIx64 " clos-block +0x%x\n",
			l[i].segment, l[i].rcs, iface(l[i].interface), l[i].nchannels,
			l[i].clos_tagging ? "yes" : "no", l[i].rmid_tagging ? "yes" : "no",
			l[i].mmio, l[i].clos_offset);
}

void ctl_irdt_json(FILE *f, const struct ctl_irdt *r)
{
	const struct ioca_irdt_device *d;
	const struct ioca_irdt_link *l;
	size_t nd, nl;

	if (r->err) {
		fprintf(f, ",\"io_rdt\":{\"present\":false,\"errno\":%d,\"why\":\"%s\"}", -r->err,
			why(r->err));
		return;
	}
	d = ioca_irdt__devices(r->t, &nd);
	l = ioca_irdt__links(r->t, &nl);
	fprintf(f,
		",\"io_rdt\":{\"present\":true,\"allocated_by_ioca\":false,\"io_flags\":%" PRIu32
		",\"cache_flags\":%" PRIu32 ",\"devices\":[",
		ioca_irdt__io_flags(r->t), ioca_irdt__cache_flags(r->t));
	for (size_t i = 0; i < nd; i++) {
		fprintf(f, "%s{\"device\":\"%04x:%02x:%02x.%x\",\"bridge\":%s,\"channels\":[",
			i ? "," : "", d[i].segment, d[i].bus, d[i].dev, d[i].fn,
			d[i].bridge ? "true" : "false");
		for (uint32_t c = 0; c < d[i].nchannels; c++)
			fprintf(f, "%s{\"rcs\":%u,\"channel\":%u,\"shared\":%s}", c ? "," : "",
				d[i].channels[c].rcs, d[i].channels[c].channel,
				d[i].channels[c].shared ? "true" : "false");
		fputs("]}", f);
	}
	fputs("],\"links\":[", f);
	for (size_t i = 0; i < nl; i++)
		fprintf(f,
			"%s{\"segment\":%u,\"rcs\":%u,\"interface\":\"%s\",\"channels\":%u,"
			"\"clos_tagging\":%s,\"rmid_tagging\":%s,\"mmio\":%" PRIu64 "}",
			i ? "," : "", l[i].segment, l[i].rcs, iface(l[i].interface), l[i].nchannels,
			l[i].clos_tagging ? "true" : "false", l[i].rmid_tagging ? "true" : "false",
			l[i].mmio);
	fputs("]}", f);
}
