/* SPDX-License-Identifier: GPL-2.0 */
/* expect: spec_event__raise_args: argument 1 is not an integer */
/* expect-c++: spec_event__raise_args: an argument is not an integer */
#include <libspec/events.h>

void wrong(struct spec_ev_ctx *ctx, struct spec_event *ev);
void wrong(struct spec_ev_ctx *ctx, struct spec_event *ev)
{
	(void)ctx;
	(void)ev;
	float f = 2.5f;

	spec_event__raise_args(ev, f);
}
