// SPDX-License-Identifier: GPL-2.0
/*
 * Handlers: parse the words, make one libioca call, print the decoded
 * struct. libioca's own warnings go to stderr prefixed "iocactl: ", except
 * while opening, where iocactl says what to do itself.
 */
#include "ctl_cmds.h"

#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <libioca.h>

#include "config/config_value.h"
#include "ctl_args.h"
#include "ctl_json.h"
#include "ctl_print.h"
#include "ctl_report.h"
#include "iocactl.h"

/* Opens, runs @fn, reports its failure as @op, closes. */
static int with_conn(const char *op, int (*fn)(struct ioca_client *c, void *arg), void *arg)
{
	struct ioca_client *c;
	bool quiet;
	int err;

	c = ctl_open(op, &quiet);
	if (!c)
		return IOCACTL_EXIT_FAIL;
	err = fn(c, arg);
	if (err)
		ctl_fail(op, err, c);
	ioca_client__close(c);
	return err ? IOCACTL_EXIT_FAIL : 0;
}

struct info_req {
	struct ioca_info info;
	bool json;
};

static int do_info(struct ioca_client *c, void *arg)
{
	struct info_req *r = arg;
	int err = ioca_client__info(c, &r->info);

	if (err)
		return err;
	if (r->json)
		ctl_json_info(stdout, &r->info);
	else
		ctl_print_info(stdout, &r->info);
	return 0;
}

int ctl_cmd_info(struct ctl_ctx *x, int argc, char **argv)
{
	struct info_req *r;
	int ret;

	if (argc > 1 || (argc == 1 && strcmp(argv[0], "--json")))
		return ctl_usage(x, NULL, "info: unexpected '%s' (only --json)", argv[0]);
	r = calloc(1, sizeof(*r));
	if (!r)
		return ctl_fail("info", -ENOMEM, NULL);
	r->json = argc == 1;
	ret = with_conn("info", do_info, r);
	free(r);
	return ret;
}

static int do_ddio_set(struct ioca_client *c, void *arg)
{
	return ioca_client__ddio_set(c, arg, 1, NULL);
}

int ctl_cmd_ddio_set(struct ctl_ctx *x, int argc, char **argv)
{
	struct ioca_ddio_req req = {0};
	uint64_t sock, val;
	char why[128];
	bool ways;

	if (argc != 3)
		return ctl_usage(x, NULL, "ddio set: expected SOCKET mask MASK or SOCKET ways N");
	if (config_value_u64(argv[0], UINT32_MAX, &sock, why, sizeof(why)))
		return ctl_usage(x, why, "ddio set: bad SOCKET '%s'", argv[0]);
	if (strcmp(argv[1], "mask") && strcmp(argv[1], "ways"))
		return ctl_usage(x, NULL, "ddio set: expected 'mask' or 'ways', got '%s'", argv[1]);
	ways = !strcmp(argv[1], "ways");
	if (config_value_u64(argv[2], UINT32_MAX, &val, why, sizeof(why)))
		return ctl_usage(x, why,
				 ways ? "ddio set: bad way count '%s'" : "ddio set: bad mask '%s'",
				 argv[2]);
	if (!val)
		return ctl_usage(x, NULL, "ddio set: %s 0 leaves no DDIO way", argv[1]);
	req.socket = (uint32_t)sock;
	if (ways)
		req.ways = (uint32_t)val;
	else
		req.mask = (uint32_t)val;
	return with_conn("ddio set", do_ddio_set, &req);
}

struct device_req {
	const char *addr;
	uint32_t mode;
};

static int do_ddio_device(struct ioca_client *c, void *arg)
{
	const struct device_req *r = arg;

	return ioca_client__ddio_device_set(c, r->addr, r->mode, NULL);
}

int ctl_cmd_ddio_device(struct ctl_ctx *x, int argc, char **argv)
{
	static const char *const modes[] = {
		[IOCA_DDIO_DEVICE_MODE_ON] = "on",
		[IOCA_DDIO_DEVICE_MODE_OFF] = "off",
		[IOCA_DDIO_DEVICE_MODE_FULL_OFF] = "full-off",
	};
	struct device_req r = {0};

	if (argc != 2)
		return ctl_usage(x, NULL, "ddio device: expected ADDR on|off|full-off");
	for (uint32_t m = IOCA_DDIO_DEVICE_MODE_ON; m <= IOCA_DDIO_DEVICE_MODE_MAX; m++)
		if (!strcmp(argv[1], modes[m]))
			r.mode = m;
	if (!r.mode)
		return ctl_usage(x, NULL, "ddio device: expected on, off or full-off, got '%s'",
				 argv[1]);
	r.addr = argv[0];
	return with_conn("ddio device", do_ddio_device, &r);
}

static int do_ddio_restore(struct ioca_client *c, void *arg)
{
	(void)arg;
	return ioca_client__ddio_restore(c);
}

int ctl_cmd_ddio_restore(struct ctl_ctx *x, int argc, char **argv)
{
	if (argc)
		return ctl_usage(x, NULL, "ddio restore: unexpected '%s'", argv[0]);
	return with_conn("ddio restore", do_ddio_restore, NULL);
}

static int do_start(struct ioca_client *c, void *arg)
{
	(void)arg;
	return ioca_client__sampler_start(c);
}

static int do_stop(struct ioca_client *c, void *arg)
{
	(void)arg;
	return ioca_client__sampler_stop(c);
}

int ctl_cmd_sampler_start(struct ctl_ctx *x, int argc, char **argv)
{
	if (argc)
		return ctl_usage(x, NULL, "sampler start: unexpected '%s'", argv[0]);
	return with_conn("sampler start", do_start, NULL);
}

int ctl_cmd_sampler_stop(struct ctl_ctx *x, int argc, char **argv)
{
	if (argc)
		return ctl_usage(x, NULL, "sampler stop: unexpected '%s'", argv[0]);
	return with_conn("sampler stop", do_stop, NULL);
}

static int do_sample(struct ioca_client *c, void *arg)
{
	int err = ioca_client__sample(c, arg);

	if (!err)
		ctl_print_sample(stdout, arg);
	return err;
}

int ctl_cmd_sample(struct ctl_ctx *x, int argc, char **argv)
{
	struct ioca_sample *s;
	int ret;

	if (argc)
		return ctl_usage(x, NULL, "sample: unexpected '%s'", argv[0]);
	s = malloc(sizeof(*s));
	if (!s)
		return ctl_fail("sample", -ENOMEM, NULL);
	ret = with_conn("sample", do_sample, s);
	free(s);
	return ret;
}
