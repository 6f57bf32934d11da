/* SPDX-License-Identifier: GPL-2.0 */
/*
 * iocad's Prometheus metrics: a snapshot of what an operator watches, kept
 * up to date from the loop's per-interval records, rendered in the text
 * exposition format 0.0.4 (served by metrics_http.c, written by
 * metrics_textfile.c; metrics_render.c writes the text). The metric names
 * and their meaning are in README.md ("Metrics for Prometheus").
 *
 * Threads: the loop (one per socket, later) calls metrics_record(); the
 * HTTP server's thread calls metrics_copy(). Both take the one mutex of
 * struct metrics: the loop updates the snapshot in place under it, a reader
 * copies the whole snapshot out under it and renders its copy without it,
 * so a scrape never sees half an interval and never holds up the loop for
 * longer than one memcpy.
 */
#ifndef IOCAD_METRICS_H
#define IOCAD_METRICS_H

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "config/config.h"
#include "decide/decide.h"
#include "decide/fsm.h"
#include "loop/loop.h"
#include "platform.h"

#define METRICS_MAX_SOCKETS 8
#define METRICS_NREASONS (DECIDE_R_FSM + FSM_NREASONS) /* decide's, then the FSM's */
#define METRICS_NSIM 5				       /* simulator figures per tenant */
#define METRICS_MAX_COLS (1 + METRICS_NSIM * PLATFORM_MAX_TENANTS)

struct metrics_tenant {
	char name[PLATFORM_NAME_LEN];
	bool present; /* in the latest record (left tenants keep counters only) */
	enum config_prio prio;
	unsigned int ways;
	uint32_t mask;
	double ipc;
	uint64_t llc_refs_total;
	uint64_t llc_misses_total;
};

/* A [device ADDR] of the socket, as the latest interval left it (loop_device_record). */
struct metrics_device {
	char addr[PLATFORM_PCI_ADDR_LEN];
	int setting; /* enum config_dev_ddio */
	int mode;    /* enum platform_dev_ddio in force; 0: not set by iocad */
	bool refused;
};

/* The simulator's own figures (its trace columns), per interval. */
struct metrics_sim_tenant {
	char name[PLATFORM_NAME_LEN];
	double v[METRICS_NSIM]; /* in metrics_sim_figures[] order */
};

struct metrics_socket {
	unsigned int socket; /* the label */
	unsigned int llc_ways;
	uint64_t interval_ns; /* configured */
	uint64_t intervals_total;
	uint64_t last_index; /* the record's index: the trace row */
	double platform_time_s;
	bool have_duration;
	double interval_duration_s;
	enum fsm_state_id state;
	unsigned int ddio_ways;
	uint32_t ddio_mask;
	uint64_t ddio_hits_total;
	uint64_t ddio_misses_total;
	uint64_t lost_samples_total;
	uint64_t apply_errors_total;
	uint64_t ddio_outside_total;
	uint64_t decisions[METRICS_NREASONS];
	/* state changes, by from, to and the reason of the interval */
	uint64_t transitions[FSM_NSTATES][FSM_NSTATES][METRICS_NREASONS];
	unsigned int ntenants;
	struct metrics_tenant tenant[PLATFORM_MAX_TENANTS];
	unsigned int ndev; /* the config's devices on this socket, now */
	struct metrics_device dev[PLATFORM_MAX_DEVICES];
	/* simulator only */
	bool sim;
	double sim_mem_bytes_s;
	unsigned int nsim;
	struct metrics_sim_tenant sim_tenant[PLATFORM_MAX_TENANTS];
};

struct metrics_snapshot {
	unsigned int nsockets;
	struct metrics_socket sock[METRICS_MAX_SOCKETS];
	/* the loop's last turn (metrics_status); rendered once one came */
	bool have_status;
	bool waiting;		/* the platform waits (the sampler, a sample): no interval */
	double waiting_s;	/* for how long, at the last turn; 0 when not */
	unsigned int cat_waits; /* PLATFORM_CAT_WAIT_*: what CAT waits for while samples come */
	uint64_t loop_turns_total;
};

/* A platform trace column, as a figure of the simulator. */
struct metrics_col {
	short tenant; /* sim_tenant slot; -1: the socket's memory traffic; -2: not ours */
	unsigned char fig;
};

struct metrics {
	pthread_mutex_t lock;
	struct metrics_snapshot snap; /* under lock */
	/* /healthz, under lock: CLOCK_MONOTONIC of the latest record (or of init) */
	uint64_t progress_ns;
	uint64_t stall_ns; /* stuck when no record for this long; 0: never */
	/* the loop's side, per socket slot */
	uint64_t prev_t_ns[METRICS_MAX_SOCKETS];
	struct platform *pf[METRICS_MAX_SOCKETS]; /* for its trace columns, may be NULL */
	unsigned int ncols[METRICS_MAX_SOCKETS];
	struct metrics_col col[METRICS_MAX_SOCKETS][METRICS_MAX_COLS];
	char row[8192]; /* scratch: one row of trace columns */
};

/* One simulator figure: its trace column suffix and its metric. */
struct metrics_sim_figure {
	const char *suffix; /* "_pkts_s" of sim_<tenant>_pkts_s */
	const char *name;
	const char *help;
	double scale; /* to base units */
};

extern const struct metrics_sim_figure metrics_sim_figures[METRICS_NSIM];

/* The label value of decisions[@i]: decide_reason_name()'s names. */
const char *metrics_reason_name(unsigned int i);

/* An empty registry. Returns 0 or -errno. */
int metrics_init(struct metrics *m);
void metrics_destroy(struct metrics *m);

/*
 * Add socket @cfg->socket, run by @cfg on @pf (its trace columns become
 * the ioca_sim_* metrics; @pf may be NULL). Returns its slot, or -ENOSPC.
 */
int metrics_add_socket(struct metrics *m, const struct config *cfg, struct platform *pf);

/*
 * The one adapter from the loop: fold interval @r of socket slot @slot
 * into the snapshot (counters add, gauges take the interval's values).
 */
void metrics_record(struct metrics *m, unsigned int slot, const struct loop_record *r);

/* The loop's turn @st: whether, and how long, the platform waits. */
void metrics_status(struct metrics *m, const struct loop_status *st);

/* The loop counts as stuck after @stall_ns without a record or a status turn (0: never). */
void metrics_set_stall(struct metrics *m, uint64_t stall_ns);

/*
 * Whether the loop recorded an interval or reported a turn (metrics_status)
 * within the stall time before @now_ns (CLOCK_MONOTONIC); *@idle_ns gets
 * how long ago it did.
 */
bool metrics_healthy(struct metrics *m, uint64_t now_ns, uint64_t *idle_ns);

/* CLOCK_MONOTONIC in ns. */
uint64_t metrics_now_ns(void);

/* Copy the snapshot out (consistent: between two records). */
void metrics_copy(struct metrics *m, struct metrics_snapshot *out);

#endif /* IOCAD_METRICS_H */
