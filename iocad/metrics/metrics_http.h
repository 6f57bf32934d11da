/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The metrics' HTTP endpoint, served by libmicrohttpd on its own thread:
 * GET /metrics answers the snapshot in the text format 0.0.4, GET /healthz
 * 200 while the loop turns and 503 once it is stuck
 * (metrics_healthy); anything else is 404 (405 for another method). With a
 * web config: HTTPS and/or basic auth on every path.
 */
#ifndef IOCAD_METRICS_HTTP_H
#define IOCAD_METRICS_HTTP_H

#include <stdbool.h>
#include <stddef.h>

#include "metrics/metrics.h"
#include "metrics/metrics_web.h"

struct metrics_http;

/*
 * Listen on @listen ("PORT", "A.B.C.D:PORT", "[V6]:PORT"; port 0: a free
 * one) and serve @m until metrics_http_stop(), with @web's TLS and users
 * (NULL: plain, open; the server takes @web's PEMs and empties it, also
 * on failure).
 * Returns the server, or NULL with errno set and the reason in @err.
 */
struct metrics_http *metrics_http_start(struct metrics *m, const char *listen,
					struct metrics_web *web, char *err, size_t len);

/* "127.0.0.1:9465" or "[::1]:9465": where it listens (port 0 resolved). */
const char *metrics_http_addr(const struct metrics_http *h);

/* Whether it serves HTTPS; whether it asks for basic auth. */
bool metrics_http_tls(const struct metrics_http *h);
bool metrics_http_auth(const struct metrics_http *h);

/* Stop serving (waits for a scrape in progress) and free @h; NULL is fine. */
void metrics_http_stop(struct metrics_http *h);

#endif /* IOCAD_METRICS_HTTP_H */
