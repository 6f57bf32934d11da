/* SPDX-License-Identifier: GPL-2.0 */
/* The exhaustive policy's API is public: include/libspec/policy.h. */
#ifndef LIBSPEC_POLICY_EXHAUSTIVE_H
#define LIBSPEC_POLICY_EXHAUSTIVE_H

#include "libspec/policy.h"

#endif /* LIBSPEC_POLICY_EXHAUSTIVE_H */
