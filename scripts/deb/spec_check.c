// SPDX-License-Identifier: GPL-2.0
/*
 * A libspec program as a user of the libspec-dev package writes it: built
 * by scripts/deb/test.sh with the installed headers and pkg-config file,
 * linked against the packaged libspec.so.1. Loads the IR spec-cc made of
 * spec_handler.c, calls the generic variant, installs the K=5 variant and
 * calls it again. Exits 0 only if every answer is right.
 */
#include <stdio.h>
#include <string.h>
#include <libspec/libspec.h>

typedef long (*scale_fn)(long, int);

int main(int argc, char **argv)
{
	struct spec_runtime *rt;
	struct spec_config *cfg;
	scale_fn fn;
	long generic, special;
	int err;

	if (argc != 2) {
		fprintf(stderr, "usage: spec_check HANDLER.bc\n");
		return 2;
	}
	rt = spec_runtime__open(argv[1], NULL);
	if (!rt) {
		perror("spec_check: spec_runtime__open");
		return 1;
	}
	err = spec_runtime__load(rt);
	if (err) {
		fprintf(stderr, "spec_check: spec_runtime__load: %s\n", strerror(-err));
		return 1;
	}
	fn = (scale_fn)spec_runtime__handler(rt, "scale");
	generic = fn ? fn(7, 3) : -1;
	cfg = spec_config__parse("K=5");
	err = cfg ? spec_runtime__specialize_sync(rt, cfg, NULL) : -1;
	fn = (scale_fn)spec_runtime__handler(rt, "scale");
	special = fn ? fn(7, 5) : -1;
	spec_config__free(cfg);
	spec_runtime__close(rt);
	printf("generic scale(7, 3) = %ld, K=5 variant scale(7, 5) = %ld (specialize: %d)\n",
	       generic, special, err);
	return generic == 21 && special == 35 && err == 0 ? 0 : 1;
}
