/* SPDX-License-Identifier: GPL-2.0 */
/* expect: spec_raise_delayed: argument 1 is not an integer */
/* expect-c++: spec_raise_delayed: an argument is not an integer */
#include <libspec/events.h>

void wrong(struct spec_ev_ctx *ctx, struct spec_event *ev);
void wrong(struct spec_ev_ctx *ctx, struct spec_event *ev)
{
	(void)ctx;
	(void)ev;
	spec_raise_delayed(ctx, "B", 1000, (void *)ctx);
}
