/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The fixed code of CTP: the runtime and event system, the binding table
 * of the micro-protocols, and the driver that sends messages through the
 * in-memory link and lets the receiver side process them.
 */
#ifndef CTP_STACK_H
#define CTP_STACK_H

#include <stdbool.h>
#include <stddef.h>

#include <libspec/events.h>

#include "ctp.h"

enum ctp_event {
	CTP_MSG_FROM_USER,
	CTP_SEG_FROM_USER,
	CTP_SEG2NET,
	CTP_SEG_FROM_NET,
	CTP_SEGMENT_ACKED,
	CTP_SEGMENT_TIMEOUT,
	CTP_CONTROLLER_CLOCK,
	CTP_ADAPT,
	CTP_NR_EVENTS,
};

struct ctp_stack {
	struct spec_runtime *rt;
	struct spec_events *evs;
	struct ctp_conn *c;
	struct spec_event *ev[CTP_NR_EVENTS];
	unsigned long long sent_msgs;
};

struct ctp_opts {
	const char *ir;	  /* ctp_handlers.c compiled by spec-cc */
	int64_t frag;	  /* fragment size (<= CTP_SEG_MAX) */
	int64_t drop_mod; /* drop about 1 transmission in drop_mod (0: none) */
	bool fec;	  /* bind FEC */
	bool optimize;	  /* start libspec's optimizer thread */
	uint32_t sample_every;
	/* libspec's messages (the runtime's and the event system's); NULL:
	 * warnings to stderr
	 */
	libspec_print_fn_t print;
	void *print_ctx;
};

/* Open the runtime, create the events, bind the micro-protocols. 0 or -errno. */
int ctp_open(struct ctp_stack *s, const struct ctp_opts *o);
void ctp_close(struct ctp_stack *s);

/* Send @len bytes and run both sides until every segment is acknowledged. */
int ctp_send(struct ctp_stack *s, const uint8_t *msg, int64_t len);

/* One controller period: ControllerClock (and so Adapt). */
int ctp_tick(struct ctp_stack *s);

extern const char *const ctp_event_names[CTP_NR_EVENTS];

#endif /* CTP_STACK_H */
