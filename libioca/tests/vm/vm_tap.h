/* SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause */
/* TAP lines and small libioca helpers of libioca_vm_test. */
#ifndef LIBIOCA_VM_TAP_H
#define LIBIOCA_VM_TAP_H

#include <stdarg.h>
#include <libioca.h>

/* "ok N - ..." or "not ok N - ...", numbered in order. */
__attribute__((format(printf, 2, 3))) void tap(int ok, const char *fmt, ...);
/* "ok N - @what # SKIP @why". */
void skip(const char *why, const char *what);
/* Whether any tap() failed (the exit status). */
int vm_tap_failed(void);

/* The errno and extack of @c's last request, as a TAP comment. */
void diag(struct ioca_client *c, int err);
/* Print callback counting warnings into the int at @ctx. */
void count_print(enum ioca_print_level level, void *ctx, const char *fmt, va_list ap);
/* ioca_client__info(), with diag() on failure. */
int info(struct ioca_client *c, struct ioca_info *in);

#endif
