/* SPDX-License-Identifier: GPL-2.0 */
/* expect: spec_raise: argument 2 is not an integer */
/* expect-c++: spec_raise: an argument is not an integer */
#include <libspec/events.h>

void wrong(struct spec_ev_ctx *ctx, struct spec_event *ev);
void wrong(struct spec_ev_ctx *ctx, struct spec_event *ev)
{
	(void)ctx;
	(void)ev;
	double d = 1.5;

	spec_raise(ctx, "B", 1, d);
}
