/* SPDX-License-Identifier: GPL-2.0 */
/* Metrics tests: render a registry to text and read samples back from it. */
#ifndef IOCAD_TESTS_METRICS_FX_H
#define IOCAD_TESTS_METRICS_FX_H

#include <stdbool.h>

#include "metrics/metrics.h"

/* A registry with one socket, run by a config parsed from text. */
struct metrics_fx {
	struct config cfg;
	struct metrics m;
	struct loop_record r; /* scratch for the test's records */
};

/* Parse @cfg_text, add its socket (slot 0); fails the test on an error. */
struct metrics_fx *metrics_fx_new(const char *cfg_text);
void metrics_fx_free(struct metrics_fx *x);

/* The exposition text of @m's snapshot (malloc'd; the test frees it). */
char *metrics_fx_render(struct metrics *m);

/*
 * The value of the sample whose name and labels are exactly @series (e.g.
 * "ioca_ddio_hits_total{socket=\"0\"}") in @text; fails the test if absent.
 */
double metrics_fx_value(const char *text, const char *series);

/*
 * A device family's sample: @name, then @labels (`{socket="0",device=...`,
 * unclosed), then `,mode="@mode"}` (@mode NULL: just `}`); as metrics_fx_value.
 */
double metrics_fx_device(const char *text, const char *name, const char *labels, const char *mode);

/* Whether a sample line starts with @series followed by a space. */
bool metrics_fx_has(const char *text, const char *series);

/* A TCP connection from @src (NULL: any) to 127.0.0.1:@port, reads time out after 5 s. */
int metrics_fx_connect(const char *src, unsigned int port);

/* Send @req from @src to 127.0.0.1:@port; the whole response, malloc'd. */
char *metrics_fx_http_raw(const char *src, unsigned int port, const char *req);

/* One HTTP/1.0 @method @path request to 127.0.0.1:@port; as metrics_fx_http_raw. */
char *metrics_fx_http(unsigned int port, const char *method, const char *path);

#endif /* IOCAD_TESTS_METRICS_FX_H */
