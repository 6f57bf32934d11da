// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <time.h>

#include "loop/pace.h"

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/*
 * Deadlines are absolute, so the time an interval takes to decide does
 * not add up; one that ran later than a whole interval starts over from
 * now instead of catching up in a burst.
 */
static int pace_wait(void *ctx, uint64_t interval_ns)
{
	struct pace *p = ctx;
	uint64_t now = now_ns();
	struct timespec ts;
	int r;

	r = p->inner.ops->wait(p->inner.ctx, interval_ns);
	if (r < 0)
		return r;
	if (!p->deadline_ns || p->deadline_ns + interval_ns < now)
		p->deadline_ns = now;
	p->deadline_ns += interval_ns;
	ts.tv_sec = (time_t)(p->deadline_ns / 1000000000u);
	ts.tv_nsec = (long)(p->deadline_ns % 1000000000u);
	/* a signal (SIGTERM, SIGHUP) ends the wait: the loop looks at its flags */
	r = clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL);
	return r ? -r : 0;
}

/* The rest goes to the wrapped platform as it is. */
static struct platform *in(void *ctx)
{
	return &((struct pace *)ctx)->inner;
}

static int pace_info(void *ctx, struct platform_info *out)
{
	return in(ctx)->ops->info(in(ctx)->ctx, out);
}

static int pace_poll(void *ctx, struct platform_sample *out)
{
	return in(ctx)->ops->poll(in(ctx)->ctx, out);
}

static int pace_apply(void *ctx, const struct platform_plan *plan)
{
	return in(ctx)->ops->apply(in(ctx)->ctx, plan);
}

static int pace_restore(void *ctx)
{
	return in(ctx)->ops->restore(in(ctx)->ctx);
}

static void pace_destroy(void *ctx)
{
	in(ctx)->ops->destroy(in(ctx)->ctx);
}

static const char *pace_last_error(void *ctx)
{
	return in(ctx)->ops->last_error(in(ctx)->ctx);
}

static int pace_trace_columns(void *ctx, bool header, char *buf, size_t len)
{
	return in(ctx)->ops->trace_columns(in(ctx)->ctx, header, buf, len);
}

static int pace_device_ddio(void *ctx, const char *addr, int mode)
{
	return in(ctx)->ops->device_ddio(in(ctx)->ctx, addr, mode);
}

static int pace_device_writes(void *ctx, const char *addr, uint64_t *bytes)
{
	return in(ctx)->ops->device_writes(in(ctx)->ctx, addr, bytes);
}

void pace_wrap(struct pace *p, struct platform *pf)
{
	p->inner = *pf;
	p->deadline_ns = 0;
	p->ops = (struct platform_ops){
		.name = pf->ops->name,
		.info = pace_info,
		.poll = pace_poll,
		.apply = pace_apply,
		.wait = pace_wait,
		.restore = pace_restore,
		.destroy = pace_destroy,
		.last_error = pf->ops->last_error ? pace_last_error : NULL,
		.trace_columns = pf->ops->trace_columns ? pace_trace_columns : NULL,
		.device_ddio = pf->ops->device_ddio ? pace_device_ddio : NULL,
		.device_writes = pf->ops->device_writes ? pace_device_writes : NULL,
	};
	pf->ops = &p->ops;
	pf->ctx = p;
}
