// SPDX-License-Identifier: GPL-2.0
#define _GNU_SOURCE /* asprintf */
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
struct metrics_http *metrics_http_start(struct metrics *m, const char *listen,
					struct metrics_web *web, char *err, size_t len)
{
	(void)m;
	if (web)
		metrics_web_free(web);
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

bool metrics_http_tls(const struct metrics_http *h)
{
	(void)h;
	return false;
}

bool metrics_http_auth(const struct metrics_http *h)
{
	(void)h;
	return false;
}

void metrics_http_stop(struct metrics_http *h)
{
	(void)h;
}
#else
struct metrics_http {
	struct MHD_Daemon *d;
	struct metrics *m;
	struct metrics_web web; /* TLS and users; owned */
	char addr[INET6_ADDRSTRLEN + 16];
};

/*
 * Stalled and flooding clients: the server is event-driven (a slow client
 * holds a slot, not a thread), two threads share the work (one may be in
 * bcrypt), a client address gets a quarter of the slots, and an idle
 * connection is closed after a few seconds.
 */
#define HTTP_THREADS 2u
#define HTTP_CONNECTIONS 256u
#define HTTP_PER_IP 64u
#define HTTP_IDLE_S 5u

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

/* 200 while the loop turns (intervals, or polls while it waits), 503 once stuck. */
static enum MHD_Result healthz(struct metrics_http *h, struct MHD_Connection *c)
{
	uint64_t idle;
	bool ok = metrics_healthy(h->m, metrics_now_ns(), &idle);
	char *body = NULL;
	int n;

	n = ok ? asprintf(&body, "ok: last interval %.1f s ago\n", (double)idle / 1e9)
	       : asprintf(&body, "stuck: no interval or loop turn for %.1f s\n",
			  (double)idle / 1e9);
	if (n < 0)
		return MHD_NO;
	return reply(c, ok ? MHD_HTTP_OK : MHD_HTTP_SERVICE_UNAVAILABLE, "text/plain", body,
		     (size_t)n, true);
}

/* Basic auth when the web config names users; NULL user: none sent. */
static bool authorized(struct metrics_http *h, struct MHD_Connection *c)
{
	char *pass = NULL, *user;
	bool ok;

	if (!h->web.nusers)
		return true;
	user = MHD_basic_auth_get_username_password(c, &pass);
	ok = metrics_web_check(&h->web, user, pass);
	MHD_free(user);
	MHD_free(pass);
	return ok;
}

static enum MHD_Result unauthorized(struct MHD_Connection *c)
{
	static char body[] = "unauthorized\n";
	struct MHD_Response *r;
	enum MHD_Result ret;

	r = MHD_create_response_from_buffer(sizeof(body) - 1, body, MHD_RESPMEM_PERSISTENT);
	if (!r)
		return MHD_NO;
	ret = MHD_queue_basic_auth_fail_response(c, "iocad", r);
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
	static char not_found[] = "not found: iocad serves /metrics and /healthz\n";
	static char not_allowed[] = "method not allowed: GET /metrics, /healthz\n";
	struct metrics_http *h = cls;
	bool health;
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
	health = !strcmp(url, "/healthz");
	/* a probe carries no credentials, and "ok"/"stuck" tells nothing to hide */
	if (!health && !authorized(h, c))
		return unauthorized(c);
	if (!health && strcmp(url, "/metrics"))
		return reply(c, MHD_HTTP_NOT_FOUND, "text/plain", not_found, sizeof(not_found) - 1,
			     false);
	if (strcmp(method, MHD_HTTP_METHOD_GET) && strcmp(method, MHD_HTTP_METHOD_HEAD))
		return reply(c, MHD_HTTP_METHOD_NOT_ALLOWED, "text/plain", not_allowed,
			     sizeof(not_allowed) - 1, false);
	return health ? healthz(h, c) : scrape(h, c);
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

struct metrics_http *metrics_http_start(struct metrics *m, const char *listen,
					struct metrics_web *web, char *err, size_t len)
{
	struct sockaddr_storage ss;
	struct metrics_http *h;
	const union MHD_DaemonInfo *info;
	char why[128];
	sigset_t all, old;
	socklen_t sslen;
	int e;

	h = calloc(1, sizeof(*h));
	if (h && web) {
		h->web = *web; /* takes its PEMs */
		memset(web, 0, sizeof(*web));
	} else if (web) {
		metrics_web_free(web);
	}
	if (!h) {
		snprintf(err, len, "metrics: out of memory");
		errno = ENOMEM;
		return NULL;
	}
	if (config_metrics_addr(listen, &ss, &sslen, why, sizeof(why))) {
		snprintf(err, len, "metrics: listen '%s': %s", listen, why);
		metrics_web_free(&h->web);
		free(h);
		errno = EINVAL;
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
	h->d = MHD_start_daemon(
		MHD_USE_INTERNAL_POLLING_THREAD | MHD_USE_POLL |
			(ss.ss_family == AF_INET6 ? MHD_USE_IPv6 : 0) |
			(h->web.cert_pem ? MHD_USE_TLS : 0),
		0, NULL, NULL, handle, h, MHD_OPTION_SOCK_ADDR, &ss, MHD_OPTION_THREAD_POOL_SIZE,
		HTTP_THREADS, MHD_OPTION_CONNECTION_LIMIT, HTTP_CONNECTIONS,
		MHD_OPTION_PER_IP_CONNECTION_LIMIT, HTTP_PER_IP, MHD_OPTION_CONNECTION_TIMEOUT,
		HTTP_IDLE_S,
		/* without TLS these two are read as NULL and ignored */
		h->web.cert_pem ? MHD_OPTION_HTTPS_MEM_CERT : MHD_OPTION_END, h->web.cert_pem,
		MHD_OPTION_HTTPS_MEM_KEY, h->web.key_pem, MHD_OPTION_END);
	e = errno;
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	errno = e;
	if (!h->d) {
		e = errno ? errno : EADDRINUSE;
		snprintf(err, len, "metrics: cannot listen on %s%s: %s", listen,
			 h->web.cert_pem ? " with TLS (check cert_file and key_file)" : "",
			 strerror(e));
		metrics_web_free(&h->web);
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

bool metrics_http_tls(const struct metrics_http *h)
{
	return h->web.cert_pem != NULL;
}

bool metrics_http_auth(const struct metrics_http *h)
{
	return h->web.nusers > 0;
}

void metrics_http_stop(struct metrics_http *h)
{
	if (!h)
		return;
	MHD_stop_daemon(h->d);
	metrics_web_free(&h->web);
	free(h);
}
#endif /* METRICS_NO_HTTP */
