/* SPDX-License-Identifier: GPL-2.0 */
/* Right calls of every checked raise (any integer type, an enum, none to
 * four arguments) compile as C and C++ without a warning.
 */
#include <libspec/events.h>

enum colour { RED, GREEN };

void right(struct spec_ev_ctx *ctx, struct spec_event *ev, const int64_t *args);
void right(struct spec_ev_ctx *ctx, struct spec_event *ev, const int64_t *args)
{
	char c = 1;
	unsigned short us = 2;
	enum colour col = GREEN;
	bool b = true;
	LIBSPEC_OPTS(spec_bind_opts, o, .order = 1, .args = {1, 2});

	(void)o;
	spec_raise(ctx, "A");
	spec_raise(ctx, "A", args[0]);
	spec_raise(ctx, "A", c, us, col, b);
	spec_raise_async(ctx, "A", 1, 2u);
	spec_raise_delayed(ctx, "A", 100, 1, 2L, 3ULL, (int64_t)4.5);
	spec_event__raise_args(ev, c);
	spec_event__raise_args(ev, 1, 2, 3, 4);
	spec_event__raise4(ev, 1, us, col, args[1]);
}
