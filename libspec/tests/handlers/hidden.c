// SPDX-License-Identifier: GPL-2.0
/* Calls a function the fixed code does not export (test IR). */
#include <libspec/annotate.h>

extern long hidden_twice(long v);

long hd_call(long a)
{
	return hidden_twice(spec_generic("ha", a)) + 1;
}
