/* SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause */
/*
 * Crafted messages for the decoder tests: built with libnl's nla_put, as
 * the module would send them, so a decoder is checked against bytes and not
 * against itself.
 */
#ifndef LIBIOCA_TESTS_MSGS_H
#define LIBIOCA_TESTS_MSGS_H

#include <stdbool.h>
#include <stdint.h>
#include <netlink/msg.h>
#include "libioca.h"
#include "log.h"

#define T_FAMILY 0x1f

/* A genetlink message of the test family for @cmd (asserts on failure). */
struct nl_msg *t_msg(uint8_t cmd);

/* Appends a raw attribute of @len bytes (any length, for malformed input). */
void t_put_raw(struct nl_msg *msg, int type, const void *data, int len);

/* One sample part: header attributes; parts 0 leaves PART/PARTS out. */
struct nl_msg *t_sample_msg(uint64_t seq, uint32_t part, uint32_t parts, bool on_demand);

/* CPU @id with @n counters valued base + index (index from 0). */
void t_put_cpu(struct nl_msg *msg, uint32_t id, uint32_t socket, uint32_t gen, int n,
	       uint64_t base);

/* Socket @id with @n uncore counters valued base + index. */
void t_put_socket(struct nl_msg *msg, uint32_t id, int n, uint64_t base);

/* As t_put_socket(), with IOCA_A_SOCKET_DDIO_MASK @mask (0: left out). */
void t_put_socket_ddio(struct nl_msg *msg, uint32_t id, int n, uint64_t base, uint32_t mask);

/* A print callback that keeps the last message (ctx: struct t_log). */
struct t_log {
	char last[512];
	int count;
};
void t_print(enum ioca_print_level level, void *ctx, const char *fmt, va_list ap);

/* An ioca_log writing into @tl. */
struct ioca_log t_logger(struct t_log *tl);

#endif
