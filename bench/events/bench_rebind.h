/* SPDX-License-Identifier: GPL-2.0 */
/* What a rebinding costs: raises on the generic path until merged code is back. */
#ifndef BENCH_REBIND_H
#define BENCH_REBIND_H

/* Prints the rebinding table for the CTP IR at @ir; 0 or -errno. */
int bench_rebind(const char *ir);

#endif /* BENCH_REBIND_H */
