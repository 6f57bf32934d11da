// SPDX-License-Identifier: GPL-2.0
/*
 * A line reader for the web config's YAML subset: two levels of
 * "key: value" mappings, comments, optional quotes. Anything else (lists,
 * flow style, keys iocad does not serve) is refused rather than ignored, so
 * a file written for another exporter never silently drops its TLS.
 */
#include <crypt.h>
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "metrics/metrics_web.h"

enum section { SEC_NONE, SEC_TLS, SEC_USERS };

struct reader {
	const char *path;
	unsigned int line;
	char *err;
	size_t len;
};

static int fail(struct reader *rd, int e, const char *fmt, const char *arg)
{
	char why[4400];

	snprintf(why, sizeof(why), fmt, arg);
	snprintf(rd->err, rd->len, "metrics: web_config %s:%u: %s", rd->path, rd->line, why);
	return -e;
}

/* Cut a comment, trailing blanks and surrounding quotes off @v. */
static char *scalar(char *v)
{
	size_t n;

	while (*v == ' ' || *v == '\t')
		v++;
	if (*v == '"' || *v == '\'') {
		char *end = strchr(v + 1, *v);

		if (end) {
			*end = '\0';
			return v + 1;
		}
	}
	for (char *h = v; (h = strchr(h, '#')); h++)
		if (h == v || h[-1] == ' ' || h[-1] == '\t') {
			*h = '\0';
			break;
		}
	n = strlen(v);
	while (n && isspace((unsigned char)v[n - 1]))
		v[--n] = '\0';
	return v;
}

/* A whole file (a PEM), NUL-terminated; @name relative to the web config's directory. */
static int slurp(struct reader *rd, const char *name, char **out)
{
	char full[4096];
	const char *slash = strrchr(rd->path, '/');
	struct stat st;
	FILE *f;
	char *buf;
	size_t n;

	if (name[0] == '/' || !slash)
		snprintf(full, sizeof(full), "%s", name);
	else
		snprintf(full, sizeof(full), "%.*s/%s", (int)(slash - rd->path), rd->path, name);
	f = fopen(full, "r");
	if (!f) {
		int e = errno;
		char why[4200];

		snprintf(why, sizeof(why), "'%s': %s", full, strerror(e));
		return fail(rd, e, "%s", why);
	}
	if (fstat(fileno(f), &st) || st.st_size <= 0 || st.st_size > (1 << 20)) {
		fclose(f);
		return fail(rd, EINVAL, "'%s': empty or not a PEM file", full);
	}
	buf = malloc((size_t)st.st_size + 1);
	n = buf ? fread(buf, 1, (size_t)st.st_size, f) : 0;
	fclose(f);
	if (!buf || n != (size_t)st.st_size) {
		free(buf);
		return fail(rd, EIO, "'%s': short read", full);
	}
	buf[n] = '\0';
	if (!strstr(buf, "-----BEGIN ")) {
		free(buf);
		return fail(rd, EINVAL, "'%s': not a PEM file", full);
	}
	free(*out);
	*out = buf;
	return 0;
}

static int tls_key(struct reader *rd, struct metrics_web *w, const char *key, const char *val)
{
	if (!strcmp(key, "cert_file"))
		return slurp(rd, val, &w->cert_pem);
	if (!strcmp(key, "key_file"))
		return slurp(rd, val, &w->key_pem);
	return fail(rd, EINVAL, "tls_server_config: %s: not supported (cert_file, key_file)", key);
}

static int user_key(struct reader *rd, struct metrics_web *w, const char *key, const char *val)
{
	struct metrics_web_user *u;
	struct crypt_data *cd;
	const char *out;
	bool ok;

	if (w->nusers == METRICS_WEB_MAX_USERS)
		return fail(rd, EINVAL, "basic_auth_users: more than %s users", "16");
	if (strlen(key) >= sizeof(u->name) || strlen(val) >= sizeof(u->hash))
		return fail(rd, EINVAL, "basic_auth_users: %s: name or hash too long", key);
	/* a hash crypt() cannot use would refuse every scrape: say so now */
	cd = calloc(1, sizeof(*cd));
	if (!cd)
		return fail(rd, ENOMEM, "out of memory%s", "");
	out = strncmp(val, "$2", 2) ? NULL : crypt_r("", val, cd);
	ok = out && out[0] != '*';
	free(cd);
	if (!ok)
		return fail(rd, EINVAL, "basic_auth_users: %s: not a bcrypt hash ($2y$...)", key);
	u = &w->user[w->nusers++];
	memcpy(u->name, key, strlen(key) + 1);
	memcpy(u->hash, val, strlen(val) + 1);
	return 0;
}

static int parse_line(struct reader *rd, struct metrics_web *w, char *s, enum section *sec)
{
	bool indented = *s == ' ' || *s == '\t';
	char *colon, *key, *val;

	key = scalar(s);
	if (!*key)
		return 0;
	colon = strchr(key, ':');
	if (!colon || key[0] == '-' || key[0] == '{')
		return fail(rd, EINVAL, "expected 'key: value', got '%s'", key);
	*colon = '\0';
	val = scalar(colon + 1);
	if (!indented) {
		if (*val)
			return fail(rd, EINVAL, "%s: expected a mapping below it", key);
		if (!strcmp(key, "tls_server_config"))
			*sec = SEC_TLS;
		else if (!strcmp(key, "basic_auth_users"))
			*sec = SEC_USERS;
		else
			return fail(rd, EINVAL,
				    "%s: not supported (tls_server_config, basic_auth_users)", key);
		return 0;
	}
	if (*sec == SEC_NONE)
		return fail(rd, EINVAL, "'%s' indented under no section", key);
	if (!*val)
		return fail(rd, EINVAL, "%s: empty value", key);
	return *sec == SEC_TLS ? tls_key(rd, w, key, val) : user_key(rd, w, key, val);
}

int metrics_web_load(struct metrics_web *w, const char *path, char *err, size_t len)
{
	struct reader rd = {.path = path, .err = err, .len = len};
	enum section sec = SEC_NONE;
	struct stat st;
	char buf[1024];
	FILE *f;
	int r = 0;

	memset(w, 0, sizeof(*w));
	f = fopen(path, "r");
	if (!f) {
		r = -errno;
		snprintf(err, len, "metrics: web_config %s: %s", path, strerror(-r));
		return r;
	}
	/* a directory opens, and reads as nothing: no TLS, no password */
	if (fstat(fileno(f), &st) || !S_ISREG(st.st_mode)) {
		fclose(f);
		snprintf(err, len, "metrics: web_config %s: not a regular file", path);
		return -EINVAL;
	}
	while (!r && fgets(buf, sizeof(buf), f)) {
		rd.line++;
		r = parse_line(&rd, w, buf, &sec);
	}
	if (!r && ferror(f))
		r = fail(&rd, EIO, "read error after this line%s", "");
	fclose(f);
	if (!r && !w->cert_pem != !w->key_pem)
		r = fail(&rd, EINVAL, "tls_server_config needs both cert_file and key_file%s", "");
	/*
	 * A web config that sets up neither part (an empty Secret key, a
	 * file of comments) would serve plain HTTP to anyone, where its
	 * author asked for protection: refused, not served in the clear.
	 */
	if (!r && !w->cert_pem && !w->nusers) {
		snprintf(err, len,
			 "metrics: web_config %s: neither tls_server_config nor "
			 "basic_auth_users: it would serve plain HTTP without a password "
			 "(leave web_config out for that)",
			 path);
		r = -EINVAL;
	}
	if (r)
		metrics_web_free(w);
	return r;
}

void metrics_web_free(struct metrics_web *w)
{
	free(w->cert_pem);
	free(w->key_pem);
	memset(w, 0, sizeof(*w));
}

bool metrics_web_check(const struct metrics_web *w, const char *user, const char *password)
{
	struct crypt_data *cd;
	bool ok = false;

	if (!user || !password)
		return false;
	cd = calloc(1, sizeof(*cd));
	if (!cd)
		return false;
	for (unsigned int i = 0; i < w->nusers; i++) {
		const char *h = w->user[i].hash, *out;
		unsigned char diff = 0;
		size_t n = strlen(h);

		if (strcmp(w->user[i].name, user))
			continue;
		out = crypt_r(password, h, cd);
		if (!out || strlen(out) != n)
			break;
		/* no early exit: the time taken says nothing of where they differ */
		for (size_t k = 0; k < n; k++)
			diff |= (unsigned char)(out[k] ^ h[k]);
		ok = !diff;
		break;
	}
	free(cd);
	return ok;
}
