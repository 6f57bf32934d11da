// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target: iocad's tenant config parser, the file an operator
 * (or an orchestrator writing drop-ins) hands iocad. Whatever the bytes, the
 * parser must either fill the struct or leave it untouched and say why.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "config/config.h"
#include "fuzz_util.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct config cfg, before;
	char err[512];
	char *text = fuzz_cstr(data, size);
	int r;

	if (!text)
		return 0;
	memset(&cfg, 0xa5, sizeof(cfg));
	memcpy(&before, &cfg, sizeof(cfg));
	err[0] = '\0';
	r = config_parse_string(text, "fuzz.ini", &cfg, err, sizeof(err));
	/* A refusal names the problem and leaves the caller's copy alone. */
	if (r && (!err[0] || memcmp(&cfg, &before, sizeof(cfg))))
		abort();
	if (!r && cfg.ntenants > PLATFORM_MAX_TENANTS)
		abort();
	free(text);
	return 0;
}
