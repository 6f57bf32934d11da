/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The real host behind struct platform_ops: counters and DDIO through
 * ioca.ko (libioca), CAT through resctrl (rdt.c), on every socket the
 * module knows. Opening it takes the host's lock (one iocad per host),
 * cleans up groups a dead instance left and subscribes to the module's
 * samples; it changes nothing else. The first plan applied configures and
 * starts the sampler (owned) and writes CAT and DDIO; everything comes
 * from the plans, the platform keeps no config. What it changes is put
 * back by restore(); what it owns in the module (the sampler, DDIO masks)
 * is put back by the module if iocad dies.
 *
 * Not thread-safe: the loop's thread only.
 */
#ifndef IOCAD_HOST_PLATFORM_H
#define IOCAD_HOST_PLATFORM_H

#include <signal.h>
#include <stddef.h>

#include "host_opts.h"
#include "platform.h"

/*
 * Open the host platform into @pf. 0, or -errno with @err saying what is
 * missing and how to fix it (-ENOENT: ioca.ko not loaded or resctrl not
 * mounted; -EBUSY: another iocad, naming its pid).
 */
int host_platform_open(const struct host_platform_opts *opts, struct platform *pf, char *err,
		       size_t errlen);

/*
 * The CPU topology part of platform_info (ncpus, cpu_socket) from sysfs
 * under @cpu_root (NULL: the real one), touching nothing: what
 * --check-config checks a config against. 0 or -errno with @err set.
 */
int host_platform_probe(const char *cpu_root, struct platform_info *out, char *err, size_t errlen);

#endif /* IOCAD_HOST_PLATFORM_H */
