// SPDX-License-Identifier: GPL-2.0
#include <arpa/inet.h>
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifndef METRICS_NO_HTTP
#include <microhttpd.h>
#endif

#include "config/config_metrics.h"
#include "metrics/metrics_http.h"
#include "metrics/metrics_render.h"

#ifdef METRICS_NO_HTTP
/*
 * build/iocad.static, the binary copied into test VMs: Debian ships no
 * static libp11-kit or libunistring, which a static libmicrohttpd (built
 * with GnuTLS) needs. That build says so instead of serving; the textfile
 * works there.
 */
struct metrics_http *metrics_http_start(struct metrics *m, const char *listen, char *err,
					size_t len)
{
	(void)m;
	snprintf(err, len,
		 "metrics: listen %s: this static build has no HTTP endpoint (no static "
		 "libmicrohttpd); use [metrics] textfile or the dynamic iocad",
		 listen);
	errno = ENOTSUP;
	return NULL;
}

const char *metrics_http_addr(const struct metrics_http *h)
{
	(void)h;
	return "";
}

void metrics_http_stop(struct metrics_http *h)
{
	(void)h;
}
#else
struct metrics_http {
	struct MHD_Daemon *d;
	struct metrics *m;
	char addr[INET6_ADDRSTRLEN + 16];
};

static enum MHD_Result reply(struct MHD_Connection *c, unsigned int status, const char *type,
			     char *body, size_t len, bool owned)
{
	struct MHD_Response *r;
	enum MHD_Result ret;

	/* a body we allocated is libmicrohttpd's to free once sent */
	r = owned ? MHD_create_response_from_buffer_with_free_callback(len, body, free)
		  : MHD_create_response_from_buffer(len, body, MHD_RESPMEM_PERSISTENT);
	if (!r) {
		if (owned)
			free(body);
		return MHD_NO;
	}
	MHD_add_response_header(r, MHD_HTTP_HEADER_CONTENT_TYPE, type);
	ret = MHD_queue_response(c, status, r);
	MHD_destroy_response(r);
	return ret;
}

/* The snapshot copied out under the lock, rendered without it. */
static enum MHD_Result scrape(struct metrics_http *h, struct MHD_Connection *c)
{
	struct metrics_snapshot *s = malloc(sizeof(*s));
	char *body = NULL;
	size_t len = 0;
	FILE *f;
	int r;

	if (!s)
		return MHD_NO;
	metrics_copy(h->m, s);
	f = open_memstream(&body, &len);
	if (!f) {
		free(s);
		return MHD_NO;
	}
	r = metrics_render(s, f);
	free(s);
	if (fclose(f) || r) {
		free(body);
		return MHD_NO;
	}
	return reply(c, MHD_HTTP_OK, METRICS_CONTENT_TYPE, body, len, true);
}

static enum MHD_Result handle(void *cls, struct MHD_Connection *c, const char *url,
			      const char *method, const char *version, const char *upload,
			      size_t *upload_len, void **req)
{
	static char not_found[] = "not found: iocad serves /metrics\n";
	static char not_allowed[] = "method not allowed: GET /metrics\n";
	static int first;

	(void)version;
	(void)upload;
	/* the first call only announces the request; answer on the second */
	if (!*req) {
		*req = &first;
		return MHD_YES;
	}
	if (*upload_len)
		return MHD_NO; /* a GET has no body: refuse the connection */
	if (strcmp(url, "/metrics"))
		return reply(c, MHD_HTTP_NOT_FOUND, "text/plain", not_found, sizeof(not_found) - 1,
			     false);
	if (strcmp(method, MHD_HTTP_METHOD_GET) && strcmp(method, MHD_HTTP_METHOD_HEAD))
		return reply(c, MHD_HTTP_METHOD_NOT_ALLOWED, "text/plain", not_allowed,
			     sizeof(not_allowed) - 1, false);
	return scrape(cls, c);
}

static void format_addr(struct metrics_http *h, const struct sockaddr_storage *ss,
			unsigned int port)
{
	char host[INET6_ADDRSTRLEN] = "?";

	if (ss->ss_family == AF_INET6) {
		inet_ntop(AF_INET6, &((const struct sockaddr_in6 *)ss)->sin6_addr, host,
			  sizeof(host));
		snprintf(h->addr, sizeof(h->addr), "[%s]:%u", host, port);
	} else {
		inet_ntop(AF_INET, &((const struct sockaddr_in *)ss)->sin_addr, host, sizeof(host));
		snprintf(h->addr, sizeof(h->addr), "%s:%u", host, port);
	}
}

struct metrics_http *metrics_http_start(struct metrics *m, const char *listen, char *err,
					size_t len)
{
	struct sockaddr_storage ss;
	struct metrics_http *h;
	const union MHD_DaemonInfo *info;
	char why[128];
	sigset_t all, old;
	socklen_t sslen;
	int e;

	if (config_metrics_addr(listen, &ss, &sslen, why, sizeof(why))) {
		snprintf(err, len, "metrics: listen '%s': %s", listen, why);
		errno = EINVAL;
		return NULL;
	}
	h = calloc(1, sizeof(*h));
	if (!h) {
		snprintf(err, len, "metrics: out of memory");
		errno = ENOMEM;
		return NULL;
	}
	h->m = m;
	/*
	 * The server's thread inherits this mask: SIGTERM and SIGHUP must
	 * reach the loop's thread, whose wait they are meant to interrupt.
	 */
	sigfillset(&all);
	pthread_sigmask(SIG_BLOCK, &all, &old);
	errno = 0;
	/* few, short scrapes: one polling thread, a small connection cap */
	h->d = MHD_start_daemon(MHD_USE_INTERNAL_POLLING_THREAD | MHD_USE_POLL |
					(ss.ss_family == AF_INET6 ? MHD_USE_IPv6 : 0),
				0, NULL, NULL, handle, h, MHD_OPTION_SOCK_ADDR, &ss,
				MHD_OPTION_CONNECTION_LIMIT, 16u, MHD_OPTION_CONNECTION_TIMEOUT,
				10u, MHD_OPTION_END);
	e = errno;
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	errno = e;
	if (!h->d) {
		e = errno ? errno : EADDRINUSE;
		snprintf(err, len, "metrics: cannot listen on %s: %s", listen, strerror(e));
		free(h);
		errno = e;
		return NULL;
	}
	info = MHD_get_daemon_info(h->d, MHD_DAEMON_INFO_BIND_PORT);
	format_addr(h, &ss, info ? info->port : 0);
	return h;
}

const char *metrics_http_addr(const struct metrics_http *h)
{
	return h->addr;
}

void metrics_http_stop(struct metrics_http *h)
{
	if (!h)
		return;
	MHD_stop_daemon(h->d);
	free(h);
}
#endif /* METRICS_NO_HTTP */
