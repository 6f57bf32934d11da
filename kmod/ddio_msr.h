/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _IOCA_DDIO_MSR_H
#define _IOCA_DDIO_MSR_H

#include "ddio.h"

/* IIO_LLC_WAYS: package-scope mask of the LLC ways DDIO may fill. */
#define IOCA_MSR_IIO_LLC_WAYS	0xc8b

bool ioca_ddio_msr_locked_down(void);
int ioca_ddio_init_msr(struct ioca_ddio *d, unsigned int min_ways,
		       const char **why);

#endif /* _IOCA_DDIO_MSR_H */
