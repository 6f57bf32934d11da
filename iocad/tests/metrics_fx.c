// SPDX-License-Identifier: GPL-2.0
#include <arpa/inet.h>
#include <netinet/in.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <unistd.h>
#include <cmocka.h>

#include "metrics_fx.h"
#include "metrics/metrics_render.h"

struct metrics_fx *metrics_fx_new(const char *cfg_text)
{
	struct metrics_fx *x = calloc(1, sizeof(*x));
	char err[256];

	assert_non_null(x);
	assert_int_equal(config_parse_string(cfg_text, "m.ini", &x->cfg, err, sizeof(err)), 0);
	assert_int_equal(metrics_init(&x->m), 0);
	assert_int_equal(metrics_add_socket(&x->m, &x->cfg, NULL), 0);
	return x;
}

void metrics_fx_free(struct metrics_fx *x)
{
	metrics_destroy(&x->m);
	free(x);
}

char *metrics_fx_render(struct metrics *m)
{
	struct metrics_snapshot *s = malloc(sizeof(*s));
	char *text = NULL;
	size_t len = 0;
	FILE *f;

	assert_non_null(s);
	metrics_copy(m, s);
	f = open_memstream(&text, &len);
	assert_non_null(f);
	assert_int_equal(metrics_render(s, f), 0);
	assert_int_equal(fclose(f), 0);
	free(s);
	return text;
}

static const char *find(const char *text, const char *series)
{
	size_t n = strlen(series);

	for (const char *l = text; l && *l; l = strchr(l, '\n'), l = l ? l + 1 : NULL)
		if (!strncmp(l, series, n) && l[n] == ' ')
			return l + n + 1;
	return NULL;
}

bool metrics_fx_has(const char *text, const char *series)
{
	return find(text, series) != NULL;
}

double metrics_fx_value(const char *text, const char *series)
{
	const char *v = find(text, series);

	if (!v)
		fail_msg("no sample %s in:\n%s", series, text);
	return strtod(v, NULL);
}

double metrics_fx_device(const char *text, const char *name, const char *labels, const char *mode)
{
	char series[512];

	if (mode)
		snprintf(series, sizeof(series), "%s%s,mode=\"%s\"}", name, labels, mode);
	else
		snprintf(series, sizeof(series), "%s%s}", name, labels);
	return metrics_fx_value(text, series);
}

int metrics_fx_connect(const char *src, unsigned int port)
{
	struct sockaddr_in a = {.sin_family = AF_INET, .sin_port = htons((uint16_t)port)};
	struct timeval tv = {.tv_sec = 5};
	int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);

	assert_true(fd >= 0);
	if (src) {
		struct sockaddr_in b = {.sin_family = AF_INET};

		assert_int_equal(inet_pton(AF_INET, src, &b.sin_addr), 1);
		assert_int_equal(bind(fd, (struct sockaddr *)&b, sizeof(b)), 0);
	}
	/* a server that never answers fails the test, not hangs it */
	setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
	a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	assert_int_equal(connect(fd, (struct sockaddr *)&a, sizeof(a)), 0);
	return fd;
}

char *metrics_fx_http_raw(const char *src, unsigned int port, const char *req)
{
	size_t len = 0, cap = 1 << 16;
	char *buf = malloc(cap + 1);
	int fd = metrics_fx_connect(src, port);
	ssize_t n;

	assert_non_null(buf);
	assert_int_equal(write(fd, req, strlen(req)), (ssize_t)strlen(req));
	while ((n = read(fd, buf + len, cap - len)) > 0) {
		len += (size_t)n;
		if (len == cap) {
			char *more = realloc(buf, 2 * cap + 1);

			assert_non_null(more);
			buf = more;
			cap *= 2;
		}
	}
	close(fd);
	buf[len] = '\0';
	return buf;
}

char *metrics_fx_http(unsigned int port, const char *method, const char *path)
{
	char req[256];

	snprintf(req, sizeof(req), "%s %s HTTP/1.0\r\nHost: localhost\r\n\r\n", method, path);
	return metrics_fx_http_raw(NULL, port, req);
}
