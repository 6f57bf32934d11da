// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
#include "vm_tap.h"

#include <stdio.h>
#include <string.h>

void diag(struct ioca_client *c, int err)
{
	printf("#   rc %d (%s), extack \"%s\"\n", err, strerror(err < 0 ? -err : err),
	       ioca_client__last_extack(c));
}

/* Counts warnings instead of printing them (a test looks at them). */
void count_print(enum ioca_print_level level, void *ctx, const char *fmt, va_list ap)
{
	(void)fmt;
	(void)ap;
	if (level == IOCA_PRINT_WARN)
		++*(int *)ctx;
}

int info(struct ioca_client *c, struct ioca_info *in)
{
	int err = ioca_client__info(c, in);

	if (err)
		diag(c, err);
	return err;
}
