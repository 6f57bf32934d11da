// SPDX-License-Identifier: GPL-2.0
/*
 * ctp-demo: send messages through CTP over the lossy in-memory link with
 * libspec's optimizer merging the hot events in the background; check the
 * bytes that arrived, print the protocol's and the event system's counters
 * and the event graph reduced as the paper's Fig. 6.
 *   ctp-demo [-n messages] [-s bytes] [-l drop 1 in N (0: none)] [-t seconds] [-g]
 *            [-r threshold]
 *   rounds of -n messages for -t seconds (the stream restarts each round and
 *   is checked); -g: generic dispatch only (no optimizer)
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "ctp_stack.h"

#ifndef CTP_IR
#define CTP_IR "build/ctp.ll"
#endif

static void print_warn(enum libspec_print_level level, void *ctx, const char *fmt, va_list ap)
{
	(void)ctx;
	if (level != LIBSPEC_PRINT_WARN && !getenv("CTP_DEBUG"))
		return;
	fputs("libspec: ", stderr);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
}

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static void print_graph(struct ctp_stack *s, double threshold)
{
	struct spec_ev_graph *g = spec_events__graph(s->evs);
	char *buf;
	int len;

	if (!g || spec_ev_graph__reduce(g, threshold))
		goto out;
	len = spec_ev_graph__dot(g, NULL, 0);
	buf = len > 0 ? malloc((size_t)len + 1) : NULL;
	if (buf && spec_ev_graph__dot(g, buf, (size_t)len + 1) == len)
		printf("event graph (sampled, reduced at %.2f):\n%s", threshold, buf);
	free(buf);
out:
	spec_ev_graph__free(g);
}

int main(int argc, char **argv)
{
	struct ctp_opts o = {.ir = CTP_IR,
			     .frag = 96,
			     .drop_mod = 8,
			     .fec = true,
			     .optimize = true,
			     .sample_every = 16,
			     .print = print_warn};
	long msgs = 2000, size = 400, i, rounds = 0, sent = 0, bad = 0;
	double seconds = 2;
	struct spec_events_stats st;
	double threshold = 0.1, t0, t_round;
	struct ctp_stack s;
	uint8_t *data;
	int opt, ret, e;

	while ((opt = getopt(argc, argv, "n:s:l:t:gr:")) != -1) {
		switch (opt) {
		case 'n':
			msgs = strtol(optarg, NULL, 0);
			break;
		case 's':
			size = strtol(optarg, NULL, 0);
			break;
		case 'l':
			o.drop_mod = strtol(optarg, NULL, 0);
			break;
		case 't':
			seconds = strtod(optarg, NULL);
			break;
		case 'g':
			o.optimize = false;
			break;
		case 'r':
			threshold = strtod(optarg, NULL);
			break;
		default:
			fprintf(stderr,
				"usage: %s [-n msgs] [-s bytes] [-l N] [-t s] [-g] [-r thr]\n",
				argv[0]);
			return 2;
		}
	}
	if (msgs <= 0 || size <= 0 || msgs * size > CTP_STREAM || o.drop_mod < 0) {
		fprintf(stderr, "ctp-demo: -n %ld x -s %ld must fit %d bytes; -l >= 0\n", msgs,
			size, CTP_STREAM);
		return 2;
	}
	data = malloc((size_t)(msgs * size));
	if (!data)
		return 1;
	for (i = 0; i < msgs * size; i++)
		data[i] = (uint8_t)(i * 2654435761u >> 13);
	ret = ctp_open(&s, &o);
	if (ret) {
		fprintf(stderr, "ctp-demo: %s: %s\n", o.ir, strerror(-ret));
		return 1;
	}
	t0 = t_round = now_s();
	do {
		s.c->msg_off = 0;
		memset(s.c->rx, 0, (size_t)(msgs * size));
		for (i = 0; i < msgs && !ret; i++, sent++) {
			ret = ctp_send(&s, data + i * size, size);
			if (!ret && i % 8 == 7)
				ret = ctp_tick(&s);
		}
		bad += !ret && memcmp(s.c->rx, data, (size_t)(msgs * size));
		rounds++;
		if (getenv("CTP_DEBUG"))
			fprintf(stderr, "round %ld: %.0f msgs/s\n", rounds,
				(double)msgs / (now_s() - t_round));
		t_round = now_s();
	} while (!ret && now_s() - t0 < seconds);
	printf("%ld messages of %ld bytes in %ld rounds, %.3f s (%.0f msgs/s): %s\n", sent, size,
	       rounds, now_s() - t0, (double)sent / (now_s() - t0),
	       ret   ? strerror(-ret)
	       : bad ? "DELIVERED BYTES DIFFER"
		     : "delivered bytes match");
	printf("segments %lld, transmissions %lld, dropped %lld, retransmitted %lld, recovered "
	       "by FEC %lld, FEC k now %lld\n",
	       (long long)s.c->next_seq, (long long)s.c->tx, (long long)s.c->drops,
	       (long long)s.c->retrans, (long long)s.c->recovered, (long long)s.c->fec_k);
	spec_events__stats(s.evs, &st, sizeof(st));
	printf("merged builds %llu (last %.1f ms, %llu events, %llu raise sites inlined), "
	       "guard failures %llu\nmerged now:",
	       (unsigned long long)st.builds, (double)st.last_build_ns / 1e6,
	       (unsigned long long)st.merged_events, (unsigned long long)st.subsumed,
	       (unsigned long long)st.guard_fails);
	for (e = 0; e < CTP_NR_EVENTS; e++) {
		if (spec_event__is_merged(s.ev[e]))
			printf(" %s", ctp_event_names[e]);
	}
	printf("\n");
	print_graph(&s, threshold);
	ctp_close(&s);
	free(data);
	return ret || bad ? 1 : 0;
}
