/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The metrics' HTTP endpoint, served by libmicrohttpd on its own thread:
 * GET /metrics answers the snapshot in the text format 0.0.4; anything
 * else is 404 (405 for another method on /metrics).
 */
#ifndef IOCAD_METRICS_HTTP_H
#define IOCAD_METRICS_HTTP_H

#include <stddef.h>

#include "metrics/metrics.h"

struct metrics_http;

/*
 * Listen on @listen ("PORT", "A.B.C.D:PORT", "[V6]:PORT"; port 0: a free
 * one) and serve @m until metrics_http_stop(). Returns the server, or
 * NULL with errno set and the reason in @err.
 */
struct metrics_http *metrics_http_start(struct metrics *m, const char *listen, char *err,
					size_t len);

/* "127.0.0.1:9465" or "[::1]:9465": where it listens (port 0 resolved). */
const char *metrics_http_addr(const struct metrics_http *h);

/* Stop serving (waits for a scrape in progress) and free @h; NULL is fine. */
void metrics_http_stop(struct metrics_http *h);

#endif /* IOCAD_METRICS_HTTP_H */
