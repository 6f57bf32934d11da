// SPDX-License-Identifier: GPL-2.0
#include <string.h>

#include "log.h"
#include "runtime_error.h"

void rt_record_error(struct spec_runtime *rt, int err, const char *msg)
{
	size_t len = strnlen(msg, sizeof(rt->last_msg) - 1);

	pthread_mutex_lock(&rt->err_lock);
	rt->last_err = err;
	memcpy(rt->last_msg, msg, len);
	rt->last_msg[len] = '\0';
	pthread_mutex_unlock(&rt->err_lock);
}

int rt_set_error(struct spec_runtime *rt, int err, const char *msg)
{
	rt_record_error(rt, err, msg);
	pr_warn(&rt->log, "%s", msg);
	return err;
}

void rt_clear_error(struct spec_runtime *rt)
{
	pthread_mutex_lock(&rt->err_lock);
	rt->last_err = 0;
	rt->last_msg[0] = '\0';
	pthread_mutex_unlock(&rt->err_lock);
}
