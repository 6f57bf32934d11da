/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Drop-in tenants: besides the main config, the files of every
 * [platform] tenants_dir (`*.ini` or `*.conf`, not starting with '.',
 * read in name order, directories in config order) each add [tenant NAME]
 * sections. This is the point an orchestrator writes to (a ConfigMap, a
 * runtime hook). The composition is per file: each file is parsed and
 * checked against the main config plus the files accepted before it (and,
 * given the platform, placed on its sockets); a file refused there is
 * logged with its file:line and leaves the others alone. A refused file
 * that was accepted before keeps its previous version (a bad edit changes
 * nothing); a removed file's tenants leave.
 *
 * The composition reads files but changes nothing outside @d; inotify
 * (dropin_watch.h) says when to compose again.
 */
#ifndef IOCAD_DROPIN_H
#define IOCAD_DROPIN_H

#include <stddef.h>

#include "config/config.h"
#include "platform.h"

#define DROPIN_MAX_FILES 128

typedef void (*dropin_log_fn)(void *arg, const char *msg);

struct dropin_file {
	char path[2 * CONFIG_PATH_LEN];
	unsigned int ntenants;
	struct config_tenant *tenant; /* its tenants when last accepted (malloc) */
	unsigned int seen;	      /* the composition that last saw it */
};

/* What the drop-ins were at the last composition. Zeroed: empty. */
struct dropin {
	unsigned int nfiles;
	unsigned int round;
	struct dropin_file file[DROPIN_MAX_FILES];
	dropin_log_fn log; /* refusals and "keeping" notices; NULL: silent */
	void *log_arg;
};

/*
 * @main (a parsed main config) plus the drop-ins of its tenants_dir into
 * @out (may be @main). With @info, each file's tenants are placed on the
 * platform's sockets too (config_place, config_for_socket), so a file
 * naming an offline CPU is refused alone. The number of files refused is
 * in *@refused (may be NULL). Returns 0, or -EINVAL with @err set when
 * the result has no tenant at all (then @out is untouched).
 */
int dropin_compose(struct dropin *d, const struct config *main, const struct platform_info *info,
		   struct config *out, unsigned int *refused, char *err, size_t errlen);

/* Free what @d holds; it is empty afterwards. */
void dropin_clear(struct dropin *d);

/*
 * The drop-in files of @dir in name order into @names (up to @max, each
 * 2 * CONFIG_PATH_LEN long). Their number, or -errno (-ENOENT: no
 * directory).
 */
int dropin_list(const char *dir, char (*names)[2 * CONFIG_PATH_LEN], unsigned int max);

#endif /* IOCAD_DROPIN_H */
