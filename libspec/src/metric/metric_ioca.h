/* SPDX-License-Identifier: GPL-2.0 */
/*
 * libspec/metric.h on libioca: the sampler set-up, the subscription and the
 * readings handed to counters_window_close(). Built only with libioca
 * (LIBSPEC_HAVE_IOCA); metric_counters.c has the stand-ins otherwise.
 */
#ifndef LIBSPEC_METRIC_IOCA_H
#define LIBSPEC_METRIC_IOCA_H

#include "metric/metric_counters.h"

#endif /* LIBSPEC_METRIC_IOCA_H */
