/* SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause */
/* Small libioca helpers of libioca_vm_test, next to its TAP lines. */
#ifndef LIBIOCA_VM_TAP_H
#define LIBIOCA_VM_TAP_H

#include <stdarg.h>
#include <libioca.h>

#include "tap.h" /* scripts/vm/tap.c: tap(), skip(), tap_failed() */

/* The errno and extack of @c's last request, as a TAP comment. */
void diag(struct ioca_client *c, int err);
/* Print callback counting warnings into the int at @ctx. */
void count_print(enum ioca_print_level level, void *ctx, const char *fmt, va_list ap);
/* ioca_client__info(), with diag() on failure. */
int info(struct ioca_client *c, struct ioca_info *in);

#endif
