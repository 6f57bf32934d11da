/* SPDX-License-Identifier: GPL-2.0 */
/* The fixed code tests/handlers/points.c calls, and a reference of it. */
#ifndef LIBSPEC_TEST_POINTS_FIXED_H
#define LIBSPEC_TEST_POINTS_FIXED_H

/* pt_service's fixed-code symbols. */
extern long svc_total;
long svc_scale(long v);

/* What pt_enum computes, for tests that do not link its native build. */
long points_enum_ref(long a, long b);

#endif /* LIBSPEC_TEST_POINTS_FIXED_H */
