/* SPDX-License-Identifier: GPL-2.0 */
/* The LPM example's handlers (handlers.c), natively and through the JIT. */
#ifndef LPM_HANDLERS_H
#define LPM_HANDLERS_H

#include "lpm.h"

long route4(const struct lpm *t, uint32_t dst);
long route6(const struct lpm *t, lpm_u128 dst);

#endif /* LPM_HANDLERS_H */
