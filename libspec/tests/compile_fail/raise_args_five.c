/* SPDX-License-Identifier: GPL-2.0 */
/* expect: spec_event__raise_args: more than SPEC_EV_MAX_ARGS (4) arguments */
/* expect-c++: spec_event__raise_args: more than SPEC_EV_MAX_ARGS (4) arguments */
#include <libspec/events.h>

void wrong(struct spec_ev_ctx *ctx, struct spec_event *ev);
void wrong(struct spec_ev_ctx *ctx, struct spec_event *ev)
{
	(void)ctx;
	(void)ev;
	spec_event__raise_args(ev, 1, 2, 3, 4, 5);
}
