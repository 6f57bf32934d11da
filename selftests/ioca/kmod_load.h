/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Loading and unloading ioca.ko from a test, by syscall: the guest has no
 * kmod tools we could rely on for exit codes, and the errno matters.
 * The module file and its default parameters come from the environment
 * (IOCA_KO, default /ioca/ioca.ko; IOCA_KO_PARAMS, default "emulate=1").
 */
#ifndef IOCA_SELFTEST_KMOD_LOAD_H
#define IOCA_SELFTEST_KMOD_LOAD_H

#include <stdbool.h>

const char *kmod_path(void);
const char *kmod_default_params(void);

/* finit_module(@path, @params). 0 or -errno (-EEXIST when loaded). */
int kmod_load(const char *path, const char *params);

/* delete_module("ioca"), retrying while it is busy for up to @ms. */
int kmod_unload(const char *name, int ms);

/*
 * Unload ioca if loaded, then load it with the default parameters plus
 * @extra ("" for none). 0 or -errno.
 */
int kmod_reload(const char *extra);

/* Whether /sys/module/@name exists. */
bool kmod_loaded(const char *name);

#endif
