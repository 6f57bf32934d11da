/* SPDX-License-Identifier: GPL-2.0 */
/* expect: spec_raise_async: argument 1 is not an integer */
/* expect-c++: spec_raise_async: an argument is not an integer */
#include <libspec/events.h>

void wrong(struct spec_ev_ctx *ctx, struct spec_event *ev);
void wrong(struct spec_ev_ctx *ctx, struct spec_event *ev)
{
	(void)ctx;
	(void)ev;
	struct pair {
		int x, y;
	} s = {1, 2};

	spec_raise_async(ctx, "B", s);
}
