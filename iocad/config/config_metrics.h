/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The [metrics] section of iocad's config: where the Prometheus exporter
 * listens and which node_exporter textfile it writes (CONFIG.md). Read at
 * start only: the exporter is set up once, a reload does not move it.
 */
#ifndef IOCAD_CONFIG_METRICS_H
#define IOCAD_CONFIG_METRICS_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/socket.h>

#include "decide/policy.h"

/* /healthz fails after this many intervals without one completed. */
#define CONFIG_METRICS_HEALTHZ_INTERVALS 5
/* ... and never sooner than this: a start or a slow poll is not a stuck loop */
#define CONFIG_METRICS_HEALTHZ_MIN_S 10

/*
 * A [metrics] header at @line. Returns 0, or -EINVAL with "[metrics] given
 * twice (first at line N)" in @err.
 */
int config_metrics_section(struct config_metrics *m, unsigned int line, char *err, size_t len);

/*
 * One key of [metrics] at @line; *@bit gets a bit unique among its keys (to
 * find repeats). Returns 0, or -EINVAL with "[metrics] KEY: ..." in @err.
 */
int config_metrics_key(struct config_metrics *m, const char *key, const char *val,
		       unsigned int line, unsigned int *bit, char *err, size_t len);

/*
 * "PORT" (loopback), "A.B.C.D:PORT" or "[V6]:PORT" into @ss, @sslen; a
 * numeric address, no name lookup. Port 0: the kernel picks a free one.
 * Returns 0, or -EINVAL with the reason in @why.
 */
int config_metrics_addr(const char *s, struct sockaddr_storage *ss, socklen_t *sslen, char *why,
			size_t len);

#endif /* IOCAD_CONFIG_METRICS_H */
