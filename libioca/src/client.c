// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
#include "client.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "assemble.h"
#include "ddio_control.h"
#include "decode_info.h"
#include "request.h"

/* Room for a sampler-set of the ABI's maxima (256 CPUs, 136 events). */
#define IOCA_REQ_SIZE (64 * 1024)

LIBIOCA_API struct ioca_client *ioca_client__open(const struct ioca_client_opts *opts)
{
	struct ioca_log log = {
		.fn = IOCA_OPTS_GET(opts, print, NULL),
		.ctx = IOCA_OPTS_GET(opts, print_ctx, NULL),
	};
	struct ioca_client *c;
	int err;

	err = IOCA_OPTS_VALID(&log, opts, ioca_client_opts);
	if (err)
		return ioca_err_ptr(err);
	c = calloc(1, sizeof(*c));
	if (!c)
		return ioca_err_ptr(-ENOMEM);
	c->log = log;
	err = ioca_transport_open(&c->t, &c->log);
	if (err) {
		free(c);
		return ioca_err_ptr(err);
	}
	return c;
}

LIBIOCA_API void ioca_client__close(struct ioca_client *c)
{
	int saved = errno;

	if (!c)
		return;
	ioca_transport_close(&c->t);
	free(c);
	errno = saved;
}

LIBIOCA_API const char *ioca_client__last_extack(const struct ioca_client *c)
{
	return c->t.extack;
}

LIBIOCA_API int ioca_client__last_extack_offset(const struct ioca_client *c)
{
	return c->t.extack_offs;
}

LIBIOCA_API int ioca_client__fd(const struct ioca_client *c)
{
	return nl_socket_get_fd(c->t.sk);
}

/* Reports a refusal of @op with the kernel's text. */
static int answered(struct ioca_client *c, const char *op, int err)
{
	if (err)
		pr_debug(&c->log, "%s: %s%s%s", op, strerror(-err), c->t.extack[0] ? ": " : "",
			 c->t.extack);
	return ioca_err(err);
}

/* Sends @msg and waits for the ack or error. */
static int request(struct ioca_client *c, struct nl_msg *msg, const char *op, ioca_msg_fn fn,
		   void *arg)
{
	return answered(c, op, ioca_transport_request(&c->t, msg, fn, arg));
}

static int simple(struct ioca_client *c, uint8_t cmd, const char *op)
{
	struct nl_msg *msg = ioca_transport_msg(&c->t, cmd, 0);

	if (!msg)
		return ioca_err(-ENOMEM);
	return request(c, msg, op, NULL, NULL);
}

struct info_ctx {
	struct ioca_client *c;
	struct ioca_info *info;
	int nmsgs;
};

static int on_info(const struct nlmsghdr *nlh, void *arg)
{
	struct info_ctx *x = arg;

	if (x->nmsgs++) {
		pr_warn(&x->c->log, "info reply: more than one message");
		return -EBADMSG;
	}
	return ioca_decode_info(nlh, x->info, &x->c->log);
}

LIBIOCA_API int ioca_client__info(struct ioca_client *c, struct ioca_info *info)
{
	struct info_ctx x = {.c = c, .info = info};
	struct nl_msg *msg = ioca_transport_msg(&c->t, IOCA_CMD_INFO_GET, 0);
	int err;

	if (!msg)
		return ioca_err(-ENOMEM);
	/* iocad's every interval: the one reply ends the exchange, no ack asked */
	err = answered(c, "info", ioca_transport_get(&c->t, msg, on_info, &x));
	if (!err && x.nmsgs != 1) {
		pr_warn(&c->log, "info reply: no data message");
		err = ioca_err(-EBADMSG);
	}
	return err;
}

struct written_ctx {
	const struct ioca_ddio_req *reqs;
	size_t n;
	uint32_t *epochs;
	const struct ioca_log *log;
};

static int on_written(const struct nlmsghdr *nlh, void *arg)
{
	const struct written_ctx *x = arg;

	return ioca_decode_ddio_written(nlh, x->reqs, x->n, x->epochs, x->log);
}

LIBIOCA_API int ioca_client__ddio_set(struct ioca_client *c, const struct ioca_ddio_req *reqs,
				      size_t n, const struct ioca_ddio_opts *opts)
{
	uint32_t epochs[IOCA_MAX_SOCKETS] = {0};
	struct written_ctx x = {.reqs = reqs, .n = n, .epochs = epochs, .log = &c->log};
	uint32_t *out;
	struct nl_msg *msg;
	int err;

	err = IOCA_OPTS_VALID(&c->log, opts, ioca_ddio_opts);
	if (err)
		return ioca_err(err);
	msg = ioca_transport_msg(&c->t, IOCA_CMD_DDIO_SET, 0);
	if (!msg)
		return ioca_err(-ENOMEM);
	err = ioca_req_ddio(msg, reqs, n, IOCA_OPTS_GET(opts, owner, false), &c->log);
	if (err) {
		nlmsg_free(msg);
		return ioca_err(err);
	}
	err = request(c, msg, "ddio set", on_written, &x);
	out = IOCA_OPTS_GET(opts, epochs, NULL);
	if (!err && out)
		memcpy(out, epochs, n * sizeof(*out));
	return err;
}

LIBIOCA_API int ioca_client__ddio_device_set(struct ioca_client *c, const char *addr, uint32_t mode,
					     const struct ioca_ddio_opts *opts)
{
	struct nl_msg *msg;
	int err;

	err = IOCA_OPTS_VALID(&c->log, opts, ioca_ddio_opts);
	if (err)
		return ioca_err(err);
	msg = ioca_transport_msg(&c->t, IOCA_CMD_DDIO_DEVICE_SET, 0);
	if (!msg)
		return ioca_err(-ENOMEM);
	err = ioca_req_ddio_device(msg, addr, mode, IOCA_OPTS_GET(opts, owner, false), &c->log);
	if (err) {
		nlmsg_free(msg);
		return ioca_err(err);
	}
	return request(c, msg, "ddio device set", NULL, NULL);
}

LIBIOCA_API int ioca_client__ddio_restore(struct ioca_client *c)
{
	struct nl_msg *msg = ioca_transport_msg(&c->t, IOCA_CMD_DDIO_SET, 0);

	if (!msg)
		return ioca_err(-ENOMEM);
	if (nla_put_flag(msg, IOCA_A_DDIO_RESTORE)) {
		nlmsg_free(msg);
		return ioca_err(-EMSGSIZE);
	}
	return request(c, msg, "ddio restore", NULL, NULL);
}

LIBIOCA_API int ioca_client__sampler_set(struct ioca_client *c,
					 const struct ioca_sampler_config *cfg,
					 const struct ioca_sampler_opts *opts)
{
	struct nl_msg *msg;
	int err;

	err = IOCA_OPTS_VALID(&c->log, opts, ioca_sampler_opts);
	if (err)
		return ioca_err(err);
	if (!cfg) {
		pr_warn(&c->log, "sampler set: no configuration");
		return ioca_err(-EINVAL);
	}
	msg = ioca_transport_msg(&c->t, IOCA_CMD_SAMPLER_SET, IOCA_REQ_SIZE);
	if (!msg)
		return ioca_err(-ENOMEM);
	err = ioca_req_sampler(msg, cfg, IOCA_OPTS_GET(opts, owner, false), &c->log);
	if (err) {
		nlmsg_free(msg);
		return ioca_err(err);
	}
	return request(c, msg, "sampler set", NULL, NULL);
}

LIBIOCA_API int ioca_client__sampler_start(struct ioca_client *c)
{
	return simple(c, IOCA_CMD_SAMPLER_START, "sampler start");
}

LIBIOCA_API int ioca_client__sampler_stop(struct ioca_client *c)
{
	return simple(c, IOCA_CMD_SAMPLER_STOP, "sampler stop");
}

struct sample_ctx {
	struct ioca_assembler a;
	struct ioca_sample *out;
	int done;
};

static int on_sample(const struct nlmsghdr *nlh, void *arg)
{
	struct sample_ctx *x = arg;

	if (x->done) {
		pr_warn(x->a.log, "sample reply: a message after the last part");
		return -EBADMSG;
	}
	x->done = ioca_asm_feed(&x->a, nlh, x->out);
	return 0;
}

LIBIOCA_API int ioca_client__sample(struct ioca_client *c, struct ioca_sample *s)
{
	struct sample_ctx x = {.out = s};
	struct nl_msg *msg;
	int err;

	err = ioca_asm_init(&x.a, false, &c->log);
	if (err)
		return ioca_err(err);
	msg = ioca_transport_msg(&c->t, IOCA_CMD_SAMPLE_GET, 0);
	if (!msg) {
		ioca_asm_free(&x.a);
		return ioca_err(-ENOMEM);
	}
	memset(s, 0, sizeof(*s));
	err = request(c, msg, "sample", on_sample, &x);
	if (!err && (x.done != 1 || x.a.stats.malformed)) {
		pr_warn(&c->log, "sample reply: incomplete or malformed");
		err = ioca_err(-EBADMSG);
	}
	ioca_asm_free(&x.a);
	return err;
}
