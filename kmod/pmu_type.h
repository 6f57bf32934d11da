/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _IOCA_PMU_TYPE_H
#define _IOCA_PMU_TYPE_H

#include <linux/types.h>

int ioca_pmu_type_check_uncore(u32 type, const char **why);

#endif /* _IOCA_PMU_TYPE_H */
