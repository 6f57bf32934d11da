// SPDX-License-Identifier: GPL-2.0
/*
 * Which PMU a dynamic perf type belongs to, before any event is made of it.
 *
 * Creating an event runs the PMU's event_init(), which for some dynamic
 * PMUs is far from harmless (kprobe and uprobe PMUs register probes), so an
 * uncore event's type is looked up by name first, and only an uncore_*
 * PMU's is turned into events. perf keeps its PMU list private; what it
 * publishes is the event_source bus in sysfs, one directory per PMU with
 * its type in "type", which is read here as userspace tools read it.
 */
#include <linux/fs.h>
#include <linux/kernel.h>
#include <linux/slab.h>
#include <linux/string.h>
#include "compat.h"
#include "pmu_type.h"

#define IOCA_PMU_DIR "/sys/bus/event_source/devices"
#define IOCA_PMU_NAME_MAX 64
/* More PMUs than a machine has (a big Xeon has a few hundred uncore ones). */
#define IOCA_PMU_MAX 1024

struct ioca_pmu_names {
	struct dir_context ctx;
	char (*name)[IOCA_PMU_NAME_MAX];
	unsigned int nr;
};

static bool ioca_pmu_collect(struct dir_context *ctx, const char *name,
			     int len, loff_t off, u64 ino, unsigned int dtype)
{
	struct ioca_pmu_names *n = container_of(ctx, struct ioca_pmu_names, ctx);

	if (name[0] == '.' || len >= IOCA_PMU_NAME_MAX)
		return true;
	if (n->nr >= IOCA_PMU_MAX)
		return false;
	memcpy(n->name[n->nr], name, len);
	n->name[n->nr][len] = '\0';
	n->nr++;
	return true;
}

/* The type of PMU @name, or -errno. */
static int ioca_pmu_read_type(const char *name, u32 *type)
{
	char path[sizeof(IOCA_PMU_DIR) + IOCA_PMU_NAME_MAX + 8], buf[16];
	struct file *f;
	loff_t pos = 0;
	ssize_t n;

	snprintf(path, sizeof(path), IOCA_PMU_DIR "/%s/type", name);
	f = filp_open(path, O_RDONLY, 0);
	if (IS_ERR(f))
		return PTR_ERR(f);
	n = kernel_read(f, buf, sizeof(buf) - 1, &pos);
	filp_close(f, NULL);
	if (n < 0)
		return n;
	buf[n] = '\0';
	return kstrtou32(strim(buf), 10, type);
}

/**
 * ioca_pmu_type_check_uncore() - is @type an uncore_* PMU's?
 * @type: perf event type (a dynamic PMU's)
 * @why: set to a message for extack on refusal
 *
 * Return: 0 for an uncore PMU, -EINVAL for another PMU, -ENOENT when no
 * PMU has @type, or -errno when the PMUs could not be listed.
 */
int ioca_pmu_type_check_uncore(u32 type, const char **why)
{
	struct ioca_pmu_names n = { .ctx.actor = ioca_pmu_collect };
	unsigned int i;
	struct file *dir;
	int err;

	n.name = kvmalloc_array(IOCA_PMU_MAX, sizeof(*n.name), GFP_KERNEL);
	if (!n.name)
		return -ENOMEM;
	dir = filp_open(IOCA_PMU_DIR, O_RDONLY | O_DIRECTORY, 0);
	if (IS_ERR(dir)) {
		err = PTR_ERR(dir);
		*why = "perf PMUs could not be listed (" IOCA_PMU_DIR ")";
		goto out_free;
	}
	err = iterate_dir(dir, &n.ctx);
	filp_close(dir, NULL);
	if (err) {
		*why = "perf PMUs could not be listed (" IOCA_PMU_DIR ")";
		goto out_free;
	}
	err = -ENOENT;
	*why = "uncore event could not be created (no such PMU?)";
	for (i = 0; i < n.nr; i++) {
		u32 t;

		if (ioca_pmu_read_type(n.name[i], &t) || t != type)
			continue;
		if (strncmp(n.name[i], "uncore_", strlen("uncore_"))) {
			*why = "uncore event type is not an uncore PMU";
			err = -EINVAL;
		} else {
			err = 0;
		}
		break;
	}
out_free:
	kvfree(n.name);
	return err;
}
