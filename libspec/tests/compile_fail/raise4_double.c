/* SPDX-License-Identifier: GPL-2.0 */
/* expect: spec_event__raise4: argument 3 is not an integer */
/* expect-c++: spec_event__raise4: an argument is not an integer */
#include <libspec/events.h>

void wrong(struct spec_ev_ctx *ctx, struct spec_event *ev);
void wrong(struct spec_ev_ctx *ctx, struct spec_event *ev)
{
	(void)ctx;
	(void)ev;
	spec_event__raise4(ev, 1, 2, 3.0, 4);
}
