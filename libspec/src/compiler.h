/* SPDX-License-Identifier: GPL-2.0 */
/* The compile thread and its queue of specializations. */
#ifndef LIBSPEC_COMPILER_H
#define LIBSPEC_COMPILER_H

#include "runtime_state.h"

int compiler_start(struct spec_runtime *rt);
void compiler_stop(struct spec_runtime *rt);

#endif /* LIBSPEC_COMPILER_H */
