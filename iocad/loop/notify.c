// SPDX-License-Identifier: GPL-2.0
/*
 * sd_notify's datagrams, without libsystemd (notify.h). The watchdog is
 * fed from the loop's turns only: a timer thread would keep a hung loop
 * alive in systemd's eyes.
 */
#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

#include "loop/notify.h"

static uint64_t mono_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

static int parse_u64(const char *s, uint64_t *out)
{
	char *end;

	errno = 0;
	*out = strtoull(s, &end, 10);
	return !*s || *end || errno || *s == '-' ? -EINVAL : 0;
}

int notify_open(struct notify *n, const char *socket_path, const char *usec, const char *pid,
		char *err, size_t len)
{
	uint64_t v;
	size_t l;

	memset(n, 0, sizeof(*n));
	n->fd = -1;
	if (!socket_path || !socket_path[0])
		return 0;
	l = strlen(socket_path);
	if ((socket_path[0] != '/' && socket_path[0] != '@') || l >= sizeof(n->path)) {
		snprintf(err, len,
			 "NOTIFY_SOCKET '%s': neither a path nor an abstract socket ('@') of "
			 "at most %zu bytes; systemd is not told iocad's state",
			 socket_path, sizeof(n->path) - 1);
		return -EINVAL;
	}
	memcpy(n->path, socket_path, l);
	/* an abstract socket's name starts with a NUL and has no terminator */
	if (n->path[0] == '@')
		n->path[0] = '\0';
	n->path_len = (unsigned int)(l + (n->path[0] ? 1 : 0));
	if (usec && !parse_u64(usec, &v) && v &&
	    (!pid || !pid[0] || (uint64_t)getpid() == strtoull(pid, NULL, 10)))
		n->watchdog_ns = v * 1000u;
	n->fd = socket(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	if (n->fd < 0) {
		int e = errno;

		snprintf(err, len, "notify socket: %s", strerror(e));
		return -e;
	}
	return 0;
}

int notify_send(struct notify *n, const char *msg)
{
	struct sockaddr_un a = {.sun_family = AF_UNIX};
	ssize_t w;

	if (n->fd < 0)
		return 0;
	memcpy(a.sun_path, n->path, n->path_len);
	/*
	 * Never wait: a listener that does not read (systemd busy, or a socket
	 * another user bound at $NOTIFY_SOCKET's path) would otherwise block
	 * the control loop once its queue is full. What is not sent is sent
	 * again at a later turn (notify_status).
	 */
	w = sendto(n->fd, msg, strlen(msg), MSG_NOSIGNAL | MSG_DONTWAIT, (struct sockaddr *)&a,
		   (socklen_t)(offsetof(struct sockaddr_un, sun_path) + n->path_len));
	return w < 0 ? -errno : 0;
}

void notify_status(void *arg, const struct loop_status *st)
{
	struct notify *n = arg;
	char status[NOTIFY_STATUS_LEN], msg[NOTIFY_STATUS_LEN + 64];
	uint64_t now = mono_ns();
	size_t off = 0;
	bool ping, say;

	if (n->fd < 0)
		return;
	if (st->waiting && st->waiting[0])
		snprintf(status, sizeof(status), "waiting for %s", st->waiting);
	else if (st->cat_waits && st->cat_waiting)
		snprintf(status, sizeof(status),
			 "running, CAT waiting (DDIO and sampling go on): %.*s",
			 (int)(sizeof(status) - 64), st->cat_waiting);
	else
		snprintf(status, sizeof(status), "running: samples come, allocation in force");
	ping = n->watchdog_ns && (!n->ready || now - n->pinged_ns >= n->watchdog_ns / 4);
	say = strcmp(status, n->status);
	msg[0] = '\0';
	if (!n->ready)
		off += (size_t)snprintf(msg + off, sizeof(msg) - off, "READY=1\n");
	if (ping)
		off += (size_t)snprintf(msg + off, sizeof(msg) - off, "WATCHDOG=1\n");
	if (say)
		snprintf(msg + off, sizeof(msg) - off, "STATUS=%s\n", status);
	/* a message not sent (a full queue) is what the next turn sends again */
	if (!msg[0] || notify_send(n, msg))
		return;
	n->ready = true;
	if (ping)
		n->pinged_ns = now;
	if (say)
		memcpy(n->status, status, sizeof(status));
}

void notify_close(struct notify *n)
{
	if (n->fd >= 0)
		close(n->fd);
	n->fd = -1;
}
