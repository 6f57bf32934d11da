// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target: the simulator's scenario files, written by people
 * outside the project. A bad one is refused with a message, never a crash.
 */
#include <stdint.h>
#include <stdlib.h>

#include "fuzz_util.h"
#include "scenario.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char err[512] = "";
	char *text = fuzz_cstr(data, size);
	struct scenario *s;

	if (!text)
		return 0;
	s = scenario_parse_string(text, "fuzz.scn", err, sizeof(err));
	if (!s && !err[0])
		abort();
	scenario_free(s);
	free(text);
	return 0;
}
