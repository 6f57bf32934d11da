/* SPDX-License-Identifier: GPL-2.0 */
/* How iocactl reports: libioca's warnings and failed requests, to stderr. */
#ifndef IOCACTL_CTL_REPORT_H
#define IOCACTL_CTL_REPORT_H

#include <stdarg.h>
#include <stdbool.h>
#include <libioca.h>

/*
 * libioca print callback: warnings as "iocactl: ...". @ctx is NULL or a
 * const bool * that silences it while true.
 */
void ctl_lib_print(enum ioca_print_level level, void *ctx, const char *fmt, va_list ap);

/*
 * Prints "iocactl: OP: strerror[: extack]" (the extack of @c's last
 * request when @c is non-NULL); returns IOCACTL_EXIT_FAIL.
 */
int ctl_fail(const char *op, int err, const struct ioca_client *c);

/*
 * Opens a client whose warnings go to stderr, except while opening: then
 * iocactl says itself what failed (naming ioca.ko when it is not loaded).
 * @quiet is the callback's flag; it must outlive the client. NULL on
 * failure (reported).
 */
struct ioca_client *ctl_open(const char *op, bool *quiet);

#endif
