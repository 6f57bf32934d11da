/* SPDX-License-Identifier: GPL-2.0 */
/*
 * systemd's notify protocol, spoken directly (no libsystemd, so the
 * static build runs in the test VMs): one datagram per message to
 * $NOTIFY_SOCKET (a path, or '@' for an abstract socket). READY=1 once
 * the loop turned, WATCHDOG=1 while it keeps turning (a loop that hangs
 * stops feeding it and systemd restarts iocad), STATUS= what it waits
 * for, STOPPING=1 on the way out. Without $NOTIFY_SOCKET every call is a
 * no-op.
 */
#ifndef IOCAD_NOTIFY_H
#define IOCAD_NOTIFY_H

#include <stdbool.h>
#include <stdint.h>

#include "loop/loop_types.h"

#define NOTIFY_STATUS_LEN 256

struct notify {
	int fd; /* -1: no notify socket */
	char path[108];
	unsigned int path_len; /* bytes of the address, '\0' of an abstract one included */
	uint64_t watchdog_ns;  /* 0: no watchdog asked */
	uint64_t pinged_ns;    /* CLOCK_MONOTONIC of the last WATCHDOG=1 */
	bool ready;	       /* READY=1 sent */
	char status[NOTIFY_STATUS_LEN];
};

/*
 * Open from the environment's values (NULL: unset): @socket
 * $NOTIFY_SOCKET, @usec $WATCHDOG_USEC, @pid $WATCHDOG_PID (the watchdog
 * is this process's only if it is unset or its pid). 0, or -errno with
 * @err saying why (a malformed address; the caller goes on without).
 */
int notify_open(struct notify *n, const char *socket, const char *usec, const char *pid, char *err,
		size_t len);

/*
 * Send @msg ("KEY=value\n..."), never waiting: 0, or -errno (-EAGAIN: the
 * listener's queue is full; it does not read).
 */
int notify_send(struct notify *n, const char *msg);

/*
 * A loop_opts.status_fn (@arg the struct notify): READY=1 the first time,
 * WATCHDOG=1 when a quarter of the watchdog's time went by since the last,
 * STATUS= when what the loop waits for changed. A message that could not
 * be sent is sent again at the next call.
 */
void notify_status(void *arg, const struct loop_status *st);

void notify_close(struct notify *n);

#endif /* IOCAD_NOTIFY_H */
