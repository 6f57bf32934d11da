/* SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause */
/*
 * Encoding a perf event from the fields its PMU publishes in sysfs
 * (<root>/<pmu>/format/<field>: "config:36-47", "config:8-15,32-57",
 * "config1:0-9"), as perf does, so that a field that moved between
 * generations lands where this kernel's driver says it is.
 */
#ifndef LIBIOCA_PMU_FORMAT_H
#define LIBIOCA_PMU_FORMAT_H

#include <stddef.h>
#include <stdint.h>
#include "libioca.h"
#include "log.h"

/* One field's value, named as in the PMU's format/ directory. */
struct ioca_pmu_field {
	const char *name;
	uint64_t value;
};

/* Which config word a format names and its bits there, in ascending order. */
struct ioca_pmu_format {
	unsigned int word; /* 0: config, 1: config1, 2: config2 */
	uint64_t bits;
};

/*
 * Parses one format attribute's text into @fmt. 0, or -EINVAL for text
 * that is not "configN:a-b[,c[-d]]..." with bits 0-63.
 */
int ioca_pmu_format_parse(const char *text, struct ioca_pmu_format *fmt);

/*
 * Sets @ev->config and @ev->config1 from @n field values of PMU @pmu
 * under @root (each field's bits from <root>/<pmu>/format/<name>, the
 * value's low bits into its lowest). 0, or -errno with the PMU, the field
 * and why in @log: -ENOENT (the PMU has no such field), -EINVAL (a format
 * file that does not parse), -ERANGE (a value wider than its field),
 * -EOPNOTSUPP (a field in config2, which ioca events do not carry).
 * @ev is written only on success.
 */
int ioca_pmu_encode(const char *root, const char *pmu, const struct ioca_pmu_field *f, size_t n,
		    struct ioca_event *ev, const struct ioca_log *log);

/*
 * As ioca_pmu_encode(), from an event's terms as the PMU's events/ files
 * give them ("event=0xff,umask=0x20"; values in hex or decimal). -EINVAL
 * for terms that do not parse, or more than eight of them.
 */
int ioca_pmu_encode_terms(const char *root, const char *pmu, const char *terms,
			  struct ioca_event *ev, const struct ioca_log *log);

#endif
