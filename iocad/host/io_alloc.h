/* SPDX-License-Identifier: GPL-2.0 */
/*
 * I/O's ways through resctrl's io_alloc (Linux 6.19, AMD SDCIAE):
 * info/L3/io_alloc ("enabled", "disabled", "not supported"; 1/0 enables or
 * disables it, reserving the highest CLOSID for I/O) and
 * info/L3/io_alloc_cbm ("<id>=<hex>;..."), the ways devices allocate into
 * on each cache domain. The second DDIO backend of the host platform: the
 * planner's DDIO mask of a socket is its domain's io_alloc mask. Opening
 * enables io_alloc if it was disabled; restore puts back what open found
 * (disabled, or enabled with the masks it read).
 *
 * Not thread-safe: one handle belongs to one thread.
 */
#ifndef IOCAD_IO_ALLOC_H
#define IOCAD_IO_ALLOC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "rdt.h"

enum io_alloc_state {
	IO_ALLOC_ABSENT,      /* no info/L3/io_alloc: a kernel before 6.19 */
	IO_ALLOC_UNSUPPORTED, /* "not supported": no SDCIAE (or no such CPU) */
	IO_ALLOC_DISABLED,
	IO_ALLOC_ENABLED,
};

/* [platform] io_control: which backend sets I/O's ways. */
enum io_control {
	IO_CONTROL_AUTO,     /* io_alloc when it is supported, else ddio */
	IO_CONTROL_DDIO,     /* ioca.ko's DDIO mask (Intel, MSR 0xC8B) */
	IO_CONTROL_IO_ALLOC, /* resctrl's io_alloc (AMD SDCIAE) */
};

/* "enabled", "disabled", ... as read; ABSENT when @root has no such file. */
int io_alloc_probe(const char *root, enum io_alloc_state *out, char *err, size_t errlen);

/*
 * The backend @want chooses on a host whose io_alloc is @st: 1 io_alloc,
 * 0 ddio, or -ENODEV with @err saying why io_alloc cannot be used.
 */
int io_alloc_choose(enum io_control want, enum io_alloc_state st, const char *root, char *err,
		    size_t errlen);

struct io_alloc;

/*
 * Enable io_alloc under @root (NULL: RDT_ROOT_DEFAULT) unless it is on,
 * remembering the state and masks found. With @record (a file in iocad's
 * lock directory; NULL: none) what was found is also written there before
 * anything changes, and removed by a restore; a record that is already
 * there was left by an iocad that died, and what it says is taken as
 * found instead. @write (NULL: write(2)) as in rdt.h. NULL with errno and
 * @err (naming the file and last_cmd_status).
 */
struct io_alloc *io_alloc_open(const char *root, rdt_write_fn write, void *fs_arg,
			       const char *record, char *err, size_t errlen);

/* Whether io_alloc was found enabled already (by open, or by the record). */
bool io_alloc_found_enabled(const struct io_alloc *ia);

/* Whether what was found came from a dead iocad's record. */
bool io_alloc_from_record(const struct io_alloc *ia);

/* Cache domain @id's io_alloc mask, read from io_alloc_cbm. 0 or -errno. */
int io_alloc_mask(struct io_alloc *ia, unsigned int id, uint32_t *mask);

/* Set domain @id's io_alloc mask. 0 or -errno with @err set. */
int io_alloc_set(struct io_alloc *ia, unsigned int id, uint32_t mask, char *err, size_t errlen);

/* Put back what open found. 0 or the first -errno, with @err set. */
int io_alloc_restore(struct io_alloc *ia, char *err, size_t errlen);

/* Whether open or a set changed io_alloc since the last restore. */
bool io_alloc_changed(const struct io_alloc *ia);

/* Frees @ia; the record stays only if io_alloc was changed and not restored. */
void io_alloc_close(struct io_alloc *ia);

#endif /* IOCAD_IO_ALLOC_H */
