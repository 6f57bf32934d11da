/* SPDX-License-Identifier: GPL-2.0 */
/* Loop log callbacks in tests collect every line into one buffer to grep. */
#ifndef IOCAD_TESTS_LOG_BUF_H
#define IOCAD_TESTS_LOG_BUF_H

#include <stddef.h>

/* Append @msg and a newline to the NUL-terminated @log, truncating at @size. */
void log_buf_append(char *log, size_t size, const char *msg);

#endif /* IOCAD_TESTS_LOG_BUF_H */
