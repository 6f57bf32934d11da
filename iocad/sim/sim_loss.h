/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The RX ring as a finite buffer and the IOCA paper's Fig. 3 measurement:
 * RFC2544 zero-loss throughput against the ring size (SIMULATOR.md,
 * "Zero-loss throughput"). sim_model.c gives the consumer's cycles per
 * packet at an offered rate (its cache misses depend on the ring); the
 * consumer's cores stop serving for at most `stall` seconds once in a
 * trial; the ring of each queue absorbs what arrives meanwhile or loses
 * it. The zero-loss throughput is the highest offered rate losing less
 * than one packet in a trial, found by bisection as RFC2544 searches.
 */
#ifndef IOCAD_SIM_LOSS_H
#define IOCAD_SIM_LOSS_H

#include "sim_model.h"

/* RFC2544, Sec. 24: a trial runs at least 60 seconds. */
#define SIM_LOSS_TRIAL 60.0

/* One consumer at one offered rate, as the loss model sees it. */
struct sim_loss_load {
	double rate;	     /* offered packets/s, over all its queues */
	double mu;	     /* packets/s its cores can process at that rate */
	double ring;	     /* descriptors per queue */
	unsigned int queues; /* RX queues, the rate spread evenly (RSS) */
};

/* Packets lost over one trial of SIM_LOSS_TRIAL seconds under @p's stall. */
double sim_loss_trial(const struct sim_params *p, const struct sim_loss_load *l);

struct sim_loss_result {
	double rate;	    /* zero-loss throughput, packets/s */
	double mu;	    /* what its cores could process at that rate */
	double cpp;	    /* cycles per packet there */
	double miss_pp;	    /* DDIO write misses per packet there */
	double mem;	    /* DRAM bytes/s there */
	unsigned int steps; /* bisection steps */
};

/*
 * Zero-loss throughput of tenant @i of @t (a packet consumer) with its
 * offered rate between 0 and its workload's rate (the line rate): the
 * model is solved at each rate tried. @t[@i].w.rate is restored.
 * Returns 0, or -EINVAL (@i not a packet consumer, bad arguments) or the
 * model's error.
 */
int sim_loss_zero(const struct sim_params *p, struct sim_tenant *t, unsigned int n, unsigned int i,
		  uint32_t ddio_mask, struct sim_model_ws *ws, struct sim_loss_result *out);

#endif /* IOCAD_SIM_LOSS_H */
