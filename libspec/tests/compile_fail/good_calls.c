/* SPDX-License-Identifier: GPL-2.0 */
/* Right calls of every checked raise (any integer type, an enum, a
 * bit-field of any width, none to four arguments) and LIBSPEC_OPTS (with
 * and without fields) compile as C and C++ without a warning, also as ISO
 * C11 and C++20 with -pedantic-errors (run.sh).
 */
#include <libspec/events.h>

enum colour { RED, GREEN };

/* gcc gives a bit-field its own type ("unsigned int:3"), which no
 * _Generic association names.
 */
struct flags {
	unsigned int small : 3;
	int neg : 5;
	uint64_t wide : 40;
	bool on : 1;
};

void right(struct spec_ev_ctx *ctx, struct spec_event *ev, const int64_t *args,
	   const struct flags *f);
void right(struct spec_ev_ctx *ctx, struct spec_event *ev, const int64_t *args,
	   const struct flags *f)
{
	char c = 1;
	unsigned short us = 2;
	enum colour col = GREEN;
	bool b = true;
	LIBSPEC_OPTS(spec_bind_opts, o, .order = 1, .args = {1, 2});
	LIBSPEC_OPTS(spec_merge_opts, none);

	(void)o;
	(void)none;
	spec_raise(ctx, "A");
	spec_raise_async(ctx, "A");
	spec_raise_delayed(ctx, "A", 100);
	spec_raise(ctx, "A", args[0]);
	spec_raise(ctx, "A", c, us, col, b);
	spec_raise_async(ctx, "A", 1, 2u);
	spec_raise_delayed(ctx, "A", 100, 1, 2L, 3ULL, (int64_t)4.5);
	spec_event__raise_args(ev, c);
	spec_event__raise_args(ev, 1, 2, 3, 4);
	spec_event__raise4(ev, 1, us, col, args[1]);
	spec_raise(ctx, "A", f->small, f->neg, f->wide, f->on);
	spec_event__raise_args(ev, f->wide);
	spec_event__raise4(ev, f->small, f->neg, f->wide, f->on);
}
