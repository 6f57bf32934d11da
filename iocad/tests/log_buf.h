/* SPDX-License-Identifier: GPL-2.0 */
/* Loop log callbacks in tests collect every line into one buffer to grep. */
#ifndef IOCAD_TESTS_LOG_BUF_H
#define IOCAD_TESTS_LOG_BUF_H

#include <stddef.h>

#include "loop/loop.h"

/* A test's log buffer behind log_buf_loop_log: char log[LOG_BUF_SIZE]. */
#define LOG_BUF_SIZE 16384

/* Append @msg and a newline to the NUL-terminated @log, truncating at @size. */
void log_buf_append(char *log, size_t size, const char *msg);
/* A loop_opts.log callback: every line, any level, into @arg, a char[LOG_BUF_SIZE]. */
void log_buf_loop_log(void *arg, enum loop_log_level lvl, const char *msg);

#endif /* IOCAD_TESTS_LOG_BUF_H */
