// SPDX-License-Identifier: GPL-2.0
/*
 * resctrl's io_alloc files: probe, enable, per-domain masks, restore.
 * Every refusal names the file, the value written and what the kernel's
 * info/last_cmd_status said.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "io_alloc.h"
#include "rdt_info.h"

#define IO_ALLOC_TEXT 512
#define IO_ALLOC_PATH 320

struct io_alloc {
	char root[256];
	rdt_write_fn write;
	void *fs_arg;
	bool found_enabled;
	bool changed;		       /* by open or a set since the last restore */
	bool from_record;	       /* found: what a dead iocad's record says */
	char record[IO_ALLOC_PATH];    /* "": none */
	char found_cbm[IO_ALLOC_TEXT]; /* io_alloc_cbm as found, when enabled */
};

static int plain_write(void *arg, const char *path, const char *data)
{
	size_t len = strlen(data);
	ssize_t n;
	int fd, r = 0;

	(void)arg;
	fd = open(path, O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	n = write(fd, data, len); /* one write() is one command */
	if (n < 0)
		r = -errno;
	else if ((size_t)n != len)
		r = -EIO;
	close(fd);
	return r;
}

static void file_path(const char *root, const char *name, char *path, size_t len)
{
	snprintf(path, len, "%s/info/L3/%s", root, name);
}

int io_alloc_probe(const char *root, enum io_alloc_state *out, char *err, size_t errlen)
{
	char path[IO_ALLOC_PATH], text[64];
	int r;

	file_path(root ? root : RDT_ROOT_DEFAULT, "io_alloc", path, sizeof(path));
	r = rdt_info_read_file(path, text, sizeof(text));
	if (r == -ENOENT) {
		*out = IO_ALLOC_ABSENT;
		return 0;
	}
	if (r) {
		snprintf(err, errlen, "%s: %s", path, strerror(-r));
		return r;
	}
	text[strcspn(text, "\n")] = '\0';
	if (!strcmp(text, "enabled"))
		*out = IO_ALLOC_ENABLED;
	else if (!strcmp(text, "disabled"))
		*out = IO_ALLOC_DISABLED;
	else if (!strcmp(text, "not supported"))
		*out = IO_ALLOC_UNSUPPORTED;
	else {
		snprintf(err, errlen, "%s: '%s' is none of enabled, disabled, not supported", path,
			 text);
		return -EINVAL;
	}
	return 0;
}

int io_alloc_choose(enum io_control want, enum io_alloc_state st, const char *root, char *err,
		    size_t errlen)
{
	bool usable = st == IO_ALLOC_DISABLED || st == IO_ALLOC_ENABLED;

	if (want == IO_CONTROL_DDIO || (want == IO_CONTROL_AUTO && !usable))
		return 0;
	if (usable)
		return 1;
	snprintf(err, errlen,
		 "io_control = io_alloc, but %s/info/L3/io_alloc %s: it needs Linux 6.19 or "
		 "later on a CPU with AMD SDCIAE; set io_control = ddio or auto",
		 root ? root : RDT_ROOT_DEFAULT,
		 st == IO_ALLOC_ABSENT ? "does not exist" : "reads 'not supported'");
	return -ENODEV;
}

/* Write @data into info/L3/@name; a refusal says what the kernel said. */
static int put(struct io_alloc *ia, const char *name, const char *data, char *err, size_t errlen)
{
	char path[IO_ALLOC_PATH], status[256] = "";
	int r;

	file_path(ia->root, name, path, sizeof(path));
	r = ia->write(ia->fs_arg, path, data);
	if (!r)
		return 0;
	snprintf(path, sizeof(path), "%s/info/last_cmd_status", ia->root);
	if (rdt_info_read_file(path, status, sizeof(status)))
		status[0] = '\0';
	status[strcspn(status, "\n")] = '\0';
	file_path(ia->root, name, path, sizeof(path));
	snprintf(err, errlen, "%s: writing '%.*s': %s%s%s", path, (int)strcspn(data, "\n"), data,
		 strerror(-r), status[0] ? ": " : "", status);
	return r;
}

static int read_cbm(struct io_alloc *ia, char *text, size_t len)
{
	char path[IO_ALLOC_PATH];

	file_path(ia->root, "io_alloc_cbm", path, sizeof(path));
	return rdt_info_read_file(path, text, len);
}

/* What open found, as the next start should see it if this iocad dies. */
static int record_write(struct io_alloc *ia, char *err, size_t errlen)
{
	FILE *f;
	int r = 0;

	errno = 0;
	f = fopen(ia->record, "we");

	if (!f ||
	    fprintf(f, "%s\n%s\n", ia->found_enabled ? "enabled" : "disabled", ia->found_cbm) < 0)
		r = errno ? -errno : -EIO;
	if (f && fclose(f) && !r)
		r = -errno;
	if (r)
		snprintf(err, errlen, "io_alloc record %s: %s", ia->record, strerror(-r));
	return r;
}

/* A record left by an iocad that died: what it had found. 1 if there was one. */
static int record_read(struct io_alloc *ia, char *err, size_t errlen)
{
	char text[IO_ALLOC_TEXT + 16], *nl;
	int r = rdt_info_read_file(ia->record, text, sizeof(text));

	if (r == -ENOENT)
		return 0;
	nl = strchr(text, '\n');
	if (r || !nl || (strncmp(text, "enabled\n", 8) && strncmp(text, "disabled\n", 9))) {
		snprintf(err, errlen,
			 "io_alloc record %s: %s: remove it if io_alloc is as it should be",
			 ia->record, r ? strerror(-r) : "not what iocad writes");
		return r ? r : -EINVAL;
	}
	ia->found_enabled = text[0] == 'e';
	snprintf(ia->found_cbm, sizeof(ia->found_cbm), "%s", nl + 1);
	ia->found_cbm[strcspn(ia->found_cbm, "\n")] = '\0';
	if (ia->found_enabled && !ia->found_cbm[0]) {
		snprintf(err, errlen, "io_alloc record %s: enabled without masks", ia->record);
		return -EINVAL;
	}
	ia->from_record = true;
	ia->changed = true; /* the dead iocad's masks are still there */
	return 1;
}

/* The state found now, recorded (if asked) before anything changes. */
static int find(struct io_alloc *ia, enum io_alloc_state st, char *err, size_t errlen)
{
	int r = 0;

	if (ia->record[0]) {
		r = record_read(ia, err, errlen);
		if (r)
			return r < 0 ? r : 0;
	}
	if (st == IO_ALLOC_ENABLED) {
		ia->found_enabled = true;
		r = read_cbm(ia, ia->found_cbm, sizeof(ia->found_cbm));
		if (r) {
			snprintf(err, errlen, "%s/info/L3/io_alloc_cbm: %s", ia->root,
				 strerror(-r));
			return r;
		}
		ia->found_cbm[strcspn(ia->found_cbm, "\n")] = '\0';
	}
	return ia->record[0] ? record_write(ia, err, errlen) : 0;
}

struct io_alloc *io_alloc_open(const char *root, rdt_write_fn write, void *fs_arg,
			       const char *record, char *err, size_t errlen)
{
	struct io_alloc *ia = calloc(1, sizeof(*ia));
	enum io_alloc_state st;
	int r;

	if (!ia) {
		snprintf(err, errlen, "io_alloc: out of memory");
		errno = ENOMEM;
		return NULL;
	}
	snprintf(ia->root, sizeof(ia->root), "%s", root ? root : RDT_ROOT_DEFAULT);
	snprintf(ia->record, sizeof(ia->record), "%s", record ? record : "");
	ia->write = write ? write : plain_write;
	ia->fs_arg = fs_arg;
	r = io_alloc_probe(ia->root, &st, err, errlen);
	if (!r && io_alloc_choose(IO_CONTROL_IO_ALLOC, st, ia->root, err, errlen) < 0)
		r = -ENODEV;
	if (!r)
		r = find(ia, st, err, errlen);
	if (!r && st == IO_ALLOC_DISABLED) {
		r = put(ia, "io_alloc", "1\n", err, errlen);
		ia->changed |= !r;
		if (r && ia->record[0] && !ia->from_record)
			unlink(ia->record);
	}
	if (r) {
		free(ia);
		errno = -r;
		return NULL;
	}
	return ia;
}

bool io_alloc_from_record(const struct io_alloc *ia)
{
	return ia->from_record;
}

bool io_alloc_found_enabled(const struct io_alloc *ia)
{
	return ia->found_enabled;
}

int io_alloc_mask(struct io_alloc *ia, unsigned int id, uint32_t *mask)
{
	char text[IO_ALLOC_TEXT], line[IO_ALLOC_TEXT + 4];
	int r;

	r = read_cbm(ia, text, sizeof(text));
	if (r)
		return r;
	/* the same "<id>=<hex>;..." as a schemata line's, without "L3:" */
	snprintf(line, sizeof(line), "L3:%s", text);
	return rdt_info_schemata_l3(line, id, mask);
}

int io_alloc_set(struct io_alloc *ia, unsigned int id, uint32_t mask, char *err, size_t errlen)
{
	char data[32];

	int r;

	snprintf(data, sizeof(data), "%u=%x\n", id, mask);
	r = put(ia, "io_alloc_cbm", data, err, errlen);
	ia->changed |= !r;
	return r;
}

int io_alloc_restore(struct io_alloc *ia, char *err, size_t errlen)
{
	char data[IO_ALLOC_TEXT + 2];
	int r;

	if (!ia->found_enabled) {
		r = put(ia, "io_alloc", "0\n", err, errlen);
	} else {
		snprintf(data, sizeof(data), "%s\n", ia->found_cbm);
		r = put(ia, "io_alloc_cbm", data, err, errlen);
	}
	if (!r) {
		ia->changed = false;
		if (ia->record[0])
			unlink(ia->record);
	}
	return r;
}

bool io_alloc_changed(const struct io_alloc *ia)
{
	return ia->changed;
}

void io_alloc_close(struct io_alloc *ia)
{
	/* unchanged: nothing for a next start to put back */
	if (ia->record[0] && !ia->changed)
		unlink(ia->record);
	free(ia);
}
