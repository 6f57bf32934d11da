/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Asynchronous and delayed raises: a FIFO, a deadline heap, and who runs
 * them (spec_events__poll() or the dispatcher thread).
 */
#ifndef LIBSPEC_EVENT_QUEUE_H
#define LIBSPEC_EVENT_QUEUE_H

#include "events/event_registry.h"

int ev_queue_start(struct spec_events *evs, bool thread);
/* Stop the dispatcher and drop what is still queued. */
void ev_queue_stop(struct spec_events *evs);

/*
 * Queue @ev raised by event @from (SPEC_EV_ROOT: the service) in its
 * handler @by (UINT32_MAX: none): now when
 * @delay_ns is 0, else after it. Returns 0 or a timer id (> 0) for delayed
 * raises, -ERANGE (@delay_ns > SPEC_EV_MAX_DELAY_NS), -ENOMEM.
 */
int64_t ev_queue_push(struct spec_event *ev, const int64_t *args, uint32_t from, uint32_t by,
		      uint64_t delay_ns);

#endif /* LIBSPEC_EVENT_QUEUE_H */
