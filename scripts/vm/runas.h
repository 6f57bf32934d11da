/* SPDX-License-Identifier: GPL-2.0 */
/*
 * runas: run a command as another uid/gid inside the test VM.
 *
 * Busybox's setpriv has no --reuid and its su wants a passwd entry and a
 * shell, so the guest gets this small static helper for the -EPERM checks of
 * the selftests.
 */
#ifndef IOCA_VM_RUNAS_H
#define IOCA_VM_RUNAS_H

#include <sys/types.h>

/*
 * runas_parse_ids() - parse "UID" or "UID:GID" (decimal; GID defaults to UID).
 * Returns 0, or -EINVAL if @spec is not of that form or out of range.
 */
int runas_parse_ids(const char *spec, uid_t *uid, gid_t *gid);

#endif
