// SPDX-License-Identifier: GPL-2.0
/*
 * [metrics] web_config: the exporter web config's TLS and basic-auth part
 * is read, and a file iocad cannot serve as written is refused with its
 * path, line and key rather than served without its TLS.
 */
#include <crypt.h>
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "metrics/metrics_web.h"

struct dir {
	char path[64];
	char file[128];
};

static void put(struct dir *d, const char *name, const char *text)
{
	char p[192];
	FILE *f;

	snprintf(p, sizeof(p), "%s/%s", d->path, name);
	f = fopen(p, "w");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

static int setup(void **state)
{
	struct dir *d = calloc(1, sizeof(*d));

	assert_non_null(d);
	snprintf(d->path, sizeof(d->path), "/tmp/ioca-web-XXXXXX");
	assert_non_null(mkdtemp(d->path));
	snprintf(d->file, sizeof(d->file), "%s/web.yml", d->path);
	put(d, "c.pem", "-----BEGIN CERTIFICATE-----\nx\n-----END CERTIFICATE-----\n");
	put(d, "k.pem", "-----BEGIN PRIVATE KEY-----\nx\n-----END PRIVATE KEY-----\n");
	*state = d;
	return 0;
}

static int teardown(void **state)
{
	struct dir *d = *state;
	char cmd[96];

	snprintf(cmd, sizeof(cmd), "rm -rf %s", d->path);
	assert_int_equal(system(cmd), 0);
	free(d);
	return 0;
}

static char *hash_of(const char *password, char *out, size_t len)
{
	struct crypt_data cd = {0};

	snprintf(out, len, "%s",
		 crypt_r(password,
			 crypt_gensalt_rn("$2b$", 4, NULL, 0, cd.setting, sizeof(cd.setting)),
			 &cd));
	return out;
}

static void test_metrics_web_reads_tls_files_and_users(void **state)
{
	struct dir *d = *state;
	struct metrics_web w;
	char text[512], h[128], err[256] = "";

	/* relative names are the web config's directory's, as with node_exporter */
	snprintf(text, sizeof(text),
		 "# iocad's endpoint\ntls_server_config:\n  cert_file: c.pem\n"
		 "  key_file: \"%s/k.pem\"  # absolute\n\nbasic_auth_users:\n  prom: '%s'\n",
		 d->path, hash_of("pw", h, sizeof(h)));
	put(d, "web.yml", text);
	assert_int_equal(metrics_web_load(&w, d->file, err, sizeof(err)), 0);
	assert_non_null(strstr(w.cert_pem, "BEGIN CERTIFICATE"));
	assert_non_null(strstr(w.key_pem, "BEGIN PRIVATE KEY"));
	assert_int_equal(w.nusers, 1);
	assert_true(metrics_web_check(&w, "prom", "pw"));
	assert_false(metrics_web_check(&w, "prom", "pW"));
	assert_false(metrics_web_check(&w, "prom", ""));
	assert_false(metrics_web_check(&w, "other", "pw"));
	assert_false(metrics_web_check(&w, NULL, NULL));
	metrics_web_free(&w);
	assert_null(w.cert_pem);
}

/* The htpasswd -B spelling ($2y$) is bcrypt too. */
static void test_metrics_web_accepts_htpasswd_2y_hashes(void **state)
{
	struct dir *d = *state;
	struct metrics_web w;
	char text[256], h[128], err[256] = "";

	hash_of("pw", h, sizeof(h));
	h[2] = 'y';
	snprintf(text, sizeof(text), "basic_auth_users:\n  prom: %s\n", h);
	put(d, "web.yml", text);
	assert_int_equal(metrics_web_load(&w, d->file, err, sizeof(err)), 0);
	assert_true(metrics_web_check(&w, "prom", "pw"));
	metrics_web_free(&w);
}

struct bad {
	const char *desc;
	const char *text;
	const char *want; /* in the error, after "metrics: web_config PATH" */
};

static const struct bad bad[] = {
	{"unknown section", "tls_server_config:\n  cert_file: c.pem\nhttp_server_config:\n",
	 ":3: http_server_config: not supported"},
	{"unknown TLS key", "tls_server_config:\n  client_ca_file: c.pem\n",
	 ":2: tls_server_config: client_ca_file: not supported"},
	{"cert without key", "tls_server_config:\n  cert_file: c.pem\n",
	 "needs both cert_file and key_file"},
	{"missing file", "tls_server_config:\n  cert_file: nope.pem\n", ":2: '"},
	{"not a PEM", "tls_server_config:\n  cert_file: web.yml\n", "not a PEM file"},
	{"plain password", "basic_auth_users:\n  prom: secret\n",
	 ":2: basic_auth_users: prom: not a bcrypt hash"},
	{"md5 hash", "basic_auth_users:\n  prom: $1$abc$def\n", "not a bcrypt hash"},
	{"list", "basic_auth_users:\n  - prom\n", ":2: expected 'key: value'"},
	{"no section", "  cert_file: c.pem\n", ":1: 'cert_file' indented under no section"},
	{"value on a section", "tls_server_config: yes\n", "expected a mapping below it"},
	{"empty (a Secret's empty key)", "", "neither tls_server_config nor basic_auth_users"},
	{"comments only", "# TLS later\n\n", "neither tls_server_config nor basic_auth_users"},
	{"empty sections", "tls_server_config:\nbasic_auth_users:\n",
	 "neither tls_server_config nor basic_auth_users"},
};

static void test_metrics_web_refuses_what_it_cannot_serve(void **state)
{
	struct dir *d = *state;
	struct metrics_web w;
	char err[512], want[256];

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		put(d, "web.yml", bad[i].text);
		err[0] = '\0';
		print_message("%s\n", bad[i].desc);
		assert_int_equal(metrics_web_load(&w, d->file, err, sizeof(err)),
				 strstr(bad[i].desc, "missing") ? -ENOENT : -EINVAL);
		snprintf(want, sizeof(want), "metrics: web_config %s", d->file);
		assert_non_null(strstr(err, want));
		if (!strstr(err, bad[i].want))
			fail_msg("%s: got '%s'", bad[i].desc, err);
		assert_null(w.cert_pem);
	}
	assert_int_equal(metrics_web_load(&w, "/nonexistent/web.yml", err, sizeof(err)), -ENOENT);
	assert_non_null(strstr(err, "/nonexistent/web.yml: No such file"));
	/* a directory opens and reads as an empty file */
	assert_int_equal(metrics_web_load(&w, d->path, err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "not a regular file"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_metrics_web_reads_tls_files_and_users, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_metrics_web_accepts_htpasswd_2y_hashes, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_metrics_web_refuses_what_it_cannot_serve,
						setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
