/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Which build of a loaded object the process runs: the code cache keys its
 * files with libspec's and LLVM's, so a rebuilt library (same version,
 * other code) never links an object file the old one generated.
 */
#ifndef LIBSPEC_BUILD_ID_H
#define LIBSPEC_BUILD_ID_H

#include <stddef.h>

/*
 * The build of the object (executable or shared library) that holds
 * @addr, as hex into @hex: its GNU build-id note, else a digest of its
 * executable segment (prefixed "text-"). 0, or -ENOENT when no loaded
 * object holds @addr.
 */
int build_id_of(const void *addr, char *hex, size_t hexsz);

#endif /* LIBSPEC_BUILD_ID_H */
