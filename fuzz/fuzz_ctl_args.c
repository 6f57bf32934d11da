// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target: iocactl's argument parsers (numbers, intervals, CPU
 * lists, event specs; the first three are config_value.c's, shared with the
 * config and the scenarios). The first byte picks the parser, the rest is
 * the argument.
 */
#include <stdint.h>
#include <stdlib.h>

#include "config/config_value.h"
#include "ctl_args.h"
#include "fuzz_util.h"
#include "platform.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	unsigned int cpus[PLATFORM_MAX_CPUS], ncpus;
	char why[256] = "";
	struct ioca_event ev;
	uint64_t u64;
	uint32_t us;
	char *arg;
	int r;

	if (!size)
		return 0;
	arg = fuzz_cstr(data + 1, size - 1);
	if (!arg)
		return 0;
	switch (data[0] % 5) {
	case 0:
		r = config_value_u64(arg, UINT32_MAX, &u64, why, sizeof(why));
		if (!r && u64 > UINT32_MAX)
			abort();
		break;
	case 1:
		r = ctl_args_interval(arg, &us, why, sizeof(why));
		break;
	case 2:
		r = ctl_args_event(arg, &ev, why, sizeof(why));
		break;
	case 3:
		r = config_value_cpus(arg, cpus, &ncpus, why, sizeof(why));
		for (unsigned int i = 1; !r && i < ncpus; i++)
			if (cpus[i] <= cpus[i - 1])
				abort();
		break;
	default:
		r = ctl_args_uncore(arg, &ev, why, sizeof(why));
		break;
	}
	/* every refusal says why */
	if (r && !why[0])
		abort();
	free(arg);
	return 0;
}
