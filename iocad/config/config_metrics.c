// SPDX-License-Identifier: GPL-2.0
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <stdio.h>
#include <string.h>

#include "config/config_metrics.h"
#include "config/config_value.h"

enum {
	KM_LISTEN = 1u << 0,
	KM_TEXTFILE = 1u << 1,
	KM_WEB_CONFIG = 1u << 2,
	KM_HEALTHZ_INTERVALS = 1u << 3,
};

int config_metrics_section(struct config_metrics *m, unsigned int line, char *err, size_t len)
{
	if (m->line) {
		snprintf(err, len, "[metrics] given twice (first at line %u)", m->line);
		return -EINVAL;
	}
	m->line = line;
	return 0;
}

static int parse_port(const char *s, in_port_t *port, char *why, size_t len)
{
	unsigned int v;

	if (config_value_uint(s, 0, 65535, &v, why, len))
		return -EINVAL;
	*port = htons((uint16_t)v);
	return 0;
}

int config_metrics_addr(const char *s, struct sockaddr_storage *ss, socklen_t *sslen, char *why,
			size_t len)
{
	char host[INET6_ADDRSTRLEN + 2];
	const char *colon, *port;
	size_t n;

	memset(ss, 0, sizeof(*ss));
	colon = strrchr(s, ':');
	port = colon ? colon + 1 : s;
	n = colon ? (size_t)(colon - s) : 0;
	if (n >= sizeof(host)) {
		snprintf(why, len, "address part too long");
		return -EINVAL;
	}
	memcpy(host, s, n);
	host[n] = '\0';
	if (host[0] == '[') {
		struct sockaddr_in6 *a = (struct sockaddr_in6 *)ss;

		if (n < 3 || host[n - 1] != ']') {
			snprintf(why, len, "expected [IPv6]:PORT");
			return -EINVAL;
		}
		host[n - 1] = '\0';
		a->sin6_family = AF_INET6;
		*sslen = sizeof(*a);
		if (inet_pton(AF_INET6, host + 1, &a->sin6_addr) != 1) {
			snprintf(why, len, "'%s' is not a numeric IPv6 address", host + 1);
			return -EINVAL;
		}
		return parse_port(port, &a->sin6_port, why, len);
	}
	struct sockaddr_in *a = (struct sockaddr_in *)ss;

	a->sin_family = AF_INET;
	*sslen = sizeof(*a);
	/* a bare port means loopback: exposing the endpoint is a choice */
	if (inet_pton(AF_INET, colon ? host : "127.0.0.1", &a->sin_addr) != 1) {
		snprintf(why, len, "'%s' is not a numeric IPv4 address (or [IPv6])", host);
		return -EINVAL;
	}
	return parse_port(port, &a->sin_port, why, len);
}

static int check_textfile(const char *val, char *why, size_t len)
{
	size_t n = strlen(val);

	if (n >= CONFIG_METRICS_PATH_LEN) {
		snprintf(why, len, "longer than %d characters", CONFIG_METRICS_PATH_LEN - 1);
		return -EINVAL;
	}
	/* node_exporter's textfile collector reads *.prom files only */
	if (n < 6 || strcmp(val + n - 5, ".prom") || val[n - 6] == '/') {
		snprintf(why, len, "expected a file name ending in .prom");
		return -EINVAL;
	}
	return 0;
}

int config_metrics_key(struct config_metrics *m, const char *key, const char *val,
		       unsigned int line, unsigned int *bit, char *err, size_t len)
{
	struct sockaddr_storage ss;
	socklen_t sslen;
	char why[128] = "";
	int r;

	if (!strcmp(key, "listen")) {
		*bit = KM_LISTEN;
		m->listen_line = line;
		r = strlen(val) >= sizeof(m->listen)
			    ? snprintf(why, sizeof(why), "longer than %zu characters",
				       sizeof(m->listen) - 1)
			    : config_metrics_addr(val, &ss, &sslen, why, sizeof(why));
		if (!r)
			memcpy(m->listen, val, strlen(val) + 1);
	} else if (!strcmp(key, "textfile")) {
		*bit = KM_TEXTFILE;
		m->textfile_line = line;
		r = check_textfile(val, why, sizeof(why));
		if (!r)
			memcpy(m->textfile, val, strlen(val) + 1);
	} else if (!strcmp(key, "web_config")) {
		*bit = KM_WEB_CONFIG;
		m->web_config_line = line;
		/* its contents are read when the endpoint starts (metrics_web.c) */
		r = strlen(val) >= sizeof(m->web_config) || val[0] != '/'
			    ? snprintf(why, sizeof(why),
				       "expected an absolute path shorter than %zu",
				       sizeof(m->web_config))
			    : 0;
		if (!r)
			memcpy(m->web_config, val, strlen(val) + 1);
	} else if (!strcmp(key, "healthz_intervals")) {
		*bit = KM_HEALTHZ_INTERVALS;
		r = config_value_uint(val, 1, 1000, &m->healthz_intervals, why, sizeof(why));
	} else {
		snprintf(err, len,
			 "[metrics] %s: unknown key (listen, textfile, web_config, "
			 "healthz_intervals)",
			 key);
		return -EINVAL;
	}
	if (r) {
		snprintf(err, len, "[metrics] %s: bad value '%s': %s", key, val, why);
		return -EINVAL;
	}
	return 0;
}
