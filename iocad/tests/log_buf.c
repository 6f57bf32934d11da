// SPDX-License-Identifier: GPL-2.0
#include <stdio.h>
#include <string.h>

#include "log_buf.h"

void log_buf_append(char *log, size_t size, const char *msg)
{
	size_t n = strlen(log);

	snprintf(log + n, size - n, "%s\n", msg);
}

void log_buf_loop_log(void *arg, enum loop_log_level lvl, const char *msg)
{
	(void)lvl;
	log_buf_append(arg, LOG_BUF_SIZE, msg);
}
