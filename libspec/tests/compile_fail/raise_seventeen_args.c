/* SPDX-License-Identifier: GPL-2.0 */
/* expect: excess elements in array initializer */
/* expect-c++: spec_raise_delayed: more than SPEC_EV_MAX_ARGS (4) arguments */
#include <libspec/events.h>

/*
 * Past the 16 arguments the count sees, its pick is the 17th argument (here
 * 0, which passes "<= 4"): the arguments beyond four must still be refused,
 * not dropped.
 */
void wrong(struct spec_ev_ctx *ctx);
void wrong(struct spec_ev_ctx *ctx)
{
	spec_raise_delayed(ctx, "B", 1000, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16,
			   0);
}
