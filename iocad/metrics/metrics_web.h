/* SPDX-License-Identifier: GPL-2.0 */
/*
 * [metrics] web_config: TLS and basic auth for the HTTP endpoint, in the
 * file format of Prometheus' own exporters (--web.config.file), the part of
 * it iocad serves:
 *
 *   tls_server_config:
 *     cert_file: server.crt      # PEM; relative to this file's directory
 *     key_file: server.key
 *   basic_auth_users:
 *     prometheus: $2y$10$...     # bcrypt (htpasswd -nBC 10 USER)
 *
 * Read once at start; a file iocad cannot serve is refused with its
 * path, line and key.
 */
#ifndef IOCAD_METRICS_WEB_H
#define IOCAD_METRICS_WEB_H

#include <stdbool.h>
#include <stddef.h>

#define METRICS_WEB_MAX_USERS 16

struct metrics_web_user {
	char name[64];
	char hash[128]; /* a crypt(3) hash: $2b$/$2y$ bcrypt */
};

struct metrics_web {
	char *cert_pem; /* NULL: plain HTTP */
	char *key_pem;
	unsigned int nusers; /* 0: no authentication */
	struct metrics_web_user user[METRICS_WEB_MAX_USERS];
};

/*
 * Read @path into @w. Returns 0, or -errno with "metrics: web_config
 * PATH:LINE: ..." in @err (nothing to free then).
 */
int metrics_web_load(struct metrics_web *w, const char *path, char *err, size_t len);

/* Free what metrics_web_load() read; @w is then empty. */
void metrics_web_free(struct metrics_web *w);

/* Whether @user with @password is one of @w's users (bcrypt, constant-time compare). */
bool metrics_web_check(const struct metrics_web *w, const char *user, const char *password);

#endif /* IOCAD_METRICS_WEB_H */
