/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What code built on the runtime (space.c, events/, policy/, the tests)
 * sees of it: its state and its last error. runtime.c implements the
 * public lifetime API (libspec.h) on them.
 */
#ifndef LIBSPEC_RUNTIME_H
#define LIBSPEC_RUNTIME_H

#include "runtime_error.h"
#include "runtime_state.h"

#endif /* LIBSPEC_RUNTIME_H */
