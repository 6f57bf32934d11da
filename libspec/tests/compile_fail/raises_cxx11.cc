// SPDX-License-Identifier: GPL-2.0
/* The raise templates need no more than C++11: right raises (none to four
 * arguments, every raise function) compile with -std=c++11
 * -pedantic-errors (run.sh). LIBSPEC_OPTS is not here: its designated
 * initializers are C++20's.
 */
#include <libspec/events.h>

void right(struct spec_ev_ctx *ctx, struct spec_event *ev);
void right(struct spec_ev_ctx *ctx, struct spec_event *ev)
{
	spec_raise(ctx, "A");
	spec_raise(ctx, "A", 1, 2u, 3L, 4LL);
	spec_raise_async(ctx, "A", 1);
	spec_raise_delayed(ctx, "A", 100);
	spec_raise_delayed(ctx, "A", 100, 1, 2, 3, 4);
	spec_event__raise_args(ev, 1);
	spec_event__raise4(ev, 1, 2, 3, 4);
}
