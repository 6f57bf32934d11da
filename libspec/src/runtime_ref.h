/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The runtime's references: the opener holds one, and every object built
 * on it (event system, policies) takes one, so those and the runtime can be
 * closed in any order. spec_runtime__close() drops the caller's reference;
 * the runtime is torn down when the last one goes.
 */
#ifndef LIBSPEC_RUNTIME_REF_H
#define LIBSPEC_RUNTIME_REF_H

#include <stdbool.h>

#include "runtime.h"

/* Take a reference for an object that keeps @rt. */
void rt_get(struct spec_runtime *rt);
/* Drop a reference: true when it was the last (the caller tears down). */
bool rt_put_last(struct spec_runtime *rt);

#endif /* LIBSPEC_RUNTIME_REF_H */
