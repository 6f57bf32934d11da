// SPDX-License-Identifier: GPL-2.0
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "config.h"
#include "log.h"
#include "policy/policy_observe.h"
#include "policy/policy_step.h"

uint64_t policy_step_now(const struct spec_policy_exhaustive *p)
{
	return p->clock(p->clock_ctx);
}

static void emit(struct spec_policy_exhaustive *p, enum spec_policy_event ev, size_t i,
		 double score)
{
	struct spec_policy_result r;

	if (!p->report)
		return;
	if (i >= p->nr) {
		p->report(p->report_ctx, ev, NULL);
		return;
	}
	r.cfg = p->c[i].cfg;
	r.text = p->c[i].text;
	r.index = i;
	r.score = score;
	r.err = p->c[i].err;
	p->report(p->report_ctx, ev, &r);
}

/* Events about the chosen candidate, valid after the candidates changed. */
static void emit_best(struct spec_policy_exhaustive *p, enum spec_policy_event ev, double score)
{
	struct spec_policy_result r = {
		.cfg = p->best_cfg, .text = p->best_text, .index = p->best_index, .score = score};

	if (p->report)
		p->report(p->report_ctx, ev, &r);
}

int policy_step_build(struct spec_policy_exhaustive *p, const struct policy_obs *obs, size_t nr_obs)
{
	struct spec_space *space = spec_runtime__space(p->rt);
	struct policy_space_opts so = p->so;
	struct policy_cand *c = NULL;
	char err[256] = "";
	size_t nr = 0;
	int ret;

	if (!space) {
		ret = -errno;
		pr_warn(&p->log, "policy: cannot read the specialization space: %s",
			strerror(-ret));
		return ret;
	}
	so.obs = obs;
	so.nr_obs = nr_obs;
	ret = policy_candidates_build(space, &so, &c, &nr, err, sizeof(err));
	spec_space__free(space);
	if (ret) {
		pr_warn(&p->log, "policy: opts.%s", err[0] ? err : strerror(-ret));
		return ret;
	}
	policy_candidates_free(p->c, p->nr);
	p->c = c;
	p->nr = nr;
	return 0;
}

/* Median of @n (<= POLICY_MAX_WINDOWS) scores; NaN if any is NaN. */
static double median(const double *v, size_t n)
{
	double s[POLICY_MAX_WINDOWS] = {0};
	size_t i, j;

	if (!n)
		return NAN;
	for (i = 0; i < n; i++) {
		if (!isfinite(v[i]))
			return NAN;
		/* insertion sort: n is tiny */
		for (j = i; j > 0 && s[j - 1] > v[i]; j--)
			s[j] = s[j - 1];
		s[j] = v[i];
	}
	return n % 2 ? s[n / 2] : (s[n / 2 - 1] + s[n / 2]) / 2;
}

/* Open a measurement window at @now. */
static void window_open(struct spec_policy_exhaustive *p, uint64_t now)
{
	p->m0 = p->metric(p->metric_ctx);
	p->t0 = now;
	p->deadline = now + p->dwell;
}

/* Close the window at @now: its score, or NaN. */
static double window_close(struct spec_policy_exhaustive *p, uint64_t now)
{
	double v = p->metric(p->metric_ctx), dt;

	if (p->mode == SPEC_METRIC_WINDOW)
		return v;
	dt = (double)(now - p->t0) / 1e9;
	return dt > 0 ? (v - p->m0) / dt : NAN;
}

static bool better(const struct spec_policy_exhaustive *p, double a, double b)
{
	return p->minimize ? a < b : a > b;
}

static bool shifted(const struct spec_policy_exhaustive *p, double now, double ref)
{
	if (p->threshold <= 0.0)
		return false;
	return !isfinite(now) || fabs(now - ref) > p->threshold * fabs(ref);
}

/* Install candidate @i now; the compile thread works while callers run. */
static int install(struct spec_policy_exhaustive *p, size_t i)
{
	int ret = spec_runtime__specialize_sync(p->rt, p->c[i].cfg, NULL);

	if (ret) {
		char msg[256] = "";

		spec_runtime__last_error(p->rt, msg, sizeof(msg));
		pr_warn(&p->log, "policy: candidate %zu '%s' failed: %s", i, p->c[i].text,
			msg[0] ? msg : strerror(-ret));
	}
	return ret;
}

/* What was installed before a search, to go back to if all of it fails. */
static void remember_installed(struct spec_policy_exhaustive *p)
{
	char buf[512];
	int len = spec_runtime__current(p->rt, buf, sizeof(buf));

	free(p->prev);
	p->prev = NULL;
	if (len < 0)
		return;
	p->prev = malloc((size_t)len + 1);
	if (p->prev && spec_runtime__current(p->rt, p->prev, (size_t)len + 1) != len) {
		free(p->prev);
		p->prev = NULL;
	}
}

static void restore_installed(struct spec_policy_exhaustive *p)
{
	struct spec_config *cfg = p->prev ? config_parse(p->prev, &p->log) : NULL;

	if (cfg && spec_runtime__specialize_sync(p->rt, cfg, NULL))
		pr_warn(&p->log, "policy: could not go back to '%s'", p->prev);
	spec_config__free(cfg);
}

/* Best measured candidate, or -1. Ties go to the earlier one. */
static long pick_best(const struct spec_policy_exhaustive *p)
{
	long best = -1;
	size_t i;

	for (i = 0; i < p->nr; i++) {
		if (p->c[i].err)
			continue;
		if (best < 0 || better(p, p->c[i].score, p->c[(size_t)best].score))
			best = (long)i;
	}
	return best;
}

static int first_error(const struct spec_policy_exhaustive *p)
{
	size_t i;

	for (i = 0; i < p->nr; i++) {
		if (p->c[i].err)
			return p->c[i].err;
	}
	return -ENOENT;
}

static void forget_best(struct spec_policy_exhaustive *p)
{
	spec_config__free(p->best_cfg);
	free(p->best_text);
	p->best_cfg = NULL;
	p->best_text = NULL;
	p->best_score = NAN;
}

/* Keep a copy of candidate @b as the choice; -ENOMEM leaves the old one. */
static int remember_best(struct spec_policy_exhaustive *p, size_t b)
{
	struct spec_config *cfg = spec_config__dup(p->c[b].cfg);
	char *text = strdup(p->c[b].text);

	if (!cfg || !text) {
		spec_config__free(cfg);
		free(text);
		p->c[b].err = -ENOMEM;
		return -ENOMEM;
	}
	forget_best(p);
	p->best_cfg = cfg;
	p->best_text = text;
	p->best_index = b;
	p->best_score = p->c[b].score;
	return 0;
}

/* Start sampling the observed points; without them, search as before. */
static enum pstate observe_start(struct spec_policy_exhaustive *p)
{
	int ret = policy_observe_start(p->rt, p->so.observe, p->so.nr_observe, p->observe_every);

	if (ret) {
		pr_warn(&p->log,
			"policy: cannot sample the observed points (%s); searching without",
			strerror(-ret));
		return ST_BEGIN;
	}
	p->deadline = policy_step_now(p) + p->observe_ns;
	return ST_OBSERVE;
}

/* The dominant observed values become candidate constants. */
static void observe_end(struct spec_policy_exhaustive *p)
{
	struct policy_obs *obs = NULL;
	int ret = policy_observe_collect(p->rt, p->so.observe, p->so.nr_observe, p->observe_share,
					 &obs);

	if (!ret)
		ret = policy_step_build(p, obs, p->so.nr_observe);
	if (ret)
		pr_warn(&p->log, "policy: observed values not used: %s", strerror(-ret));
	policy_observe_free(obs, p->so.nr_observe);
}

/* One transition; returns 1 to continue, 0 to wait until *next, <0 error. */
static int advance(struct spec_policy_exhaustive *p, uint64_t now, uint64_t *next)
{
	double score;
	long b;
	size_t i;

	switch (p->state) {
	case ST_EXPLORE:
		emit(p, SPEC_POLICY_EXPLORE, p->nr, NAN);
		remember_installed(p);
		p->state = p->so.nr_observe ? observe_start(p) : ST_BEGIN;
		return 1;
	case ST_OBSERVE:
		if (now < p->deadline)
			break;
		observe_end(p);
		p->state = ST_BEGIN;
		return 1;
	case ST_BEGIN:
		for (i = 0; i < p->nr; i++) {
			p->c[i].err = 0;
			p->c[i].score = NAN;
		}
		p->cur = 0;
		p->state = ST_SWITCH;
		return 1;
	case ST_SWITCH:
		if (p->cur >= p->nr) {
			p->state = ST_CHOOSE;
			return 1;
		}
		p->c[p->cur].err = install(p, p->cur);
		if (p->c[p->cur].err) {
			emit(p, SPEC_POLICY_MEASURED, p->cur, NAN);
			p->cur++;
			return 1;
		}
		/* The next one compiles while this one is measured; an error
		 * of it comes again, and is reported, when it is installed.
		 */
		if (p->prepare_ahead && p->cur + 1 < p->nr)
			(void)spec_runtime__prepare(p->rt, p->c[p->cur + 1].cfg, NULL);
		/* The compile took time: warm up from now, not from the step. */
		p->deadline = policy_step_now(p) + p->warmup;
		p->win_done = 0;
		p->state = ST_WARMUP;
		return 1;
	case ST_WARMUP:
	case ST_WATCH_WARMUP:
		if (now < p->deadline)
			break;
		window_open(p, now);
		p->state = p->state == ST_WARMUP ? ST_MEASURE : ST_WATCH;
		return 1;
	case ST_MEASURE:
		if (now < p->deadline)
			break;
		p->win[p->win_done++] = window_close(p, now);
		if (p->win_done < p->windows) {
			window_open(p, now);
			return 1;
		}
		score = median(p->win, p->win_done);
		p->win_done = 0;
		if (!isfinite(score)) {
			pr_warn(&p->log, "policy: candidate %zu '%s': the metric is not finite",
				p->cur, p->c[p->cur].text);
			p->c[p->cur].err = -EDOM;
		}
		p->c[p->cur].score = score;
		emit(p, SPEC_POLICY_MEASURED, p->cur, score);
		p->cur++;
		p->state = ST_SWITCH;
		return 1;
	case ST_CHOOSE:
		b = pick_best(p);
		if (b < 0) {
			forget_best(p);
			p->chosen_at = now;
			p->state = ST_IDLE;
			emit(p, SPEC_POLICY_NONE_OK, p->nr, NAN);
			pr_warn(&p->log, "policy: every candidate failed; back to '%s'",
				p->prev ? p->prev : "?");
			restore_installed(p);
			return first_error(p);
		}
		/* From the cache, normally; if it fails now, drop it and retry. */
		p->c[b].err = install(p, (size_t)b);
		if (p->c[b].err)
			return 1;
		if (remember_best(p, (size_t)b))
			return 1;
		p->beyond = 0;
		p->chosen_at = policy_step_now(p);
		p->deadline = p->chosen_at + p->warmup;
		p->state = ST_WATCH_WARMUP;
		emit(p, SPEC_POLICY_CHOSEN, (size_t)b, p->best_score);
		return 1;
	case ST_WATCH:
		if (p->period && now >= p->chosen_at + p->period) {
			emit(p, SPEC_POLICY_PERIOD, p->nr, NAN);
			p->state = ST_EXPLORE;
			return 1;
		}
		if (now < p->deadline)
			break;
		score = window_close(p, now);
		p->beyond = shifted(p, score, p->best_score) ? p->beyond + 1 : 0;
		if (p->beyond >= p->confirm) {
			emit_best(p, SPEC_POLICY_SHIFT, score);
			p->state = ST_EXPLORE;
			return 1;
		}
		emit_best(p, SPEC_POLICY_WATCH, score);
		window_open(p, now);
		return 1;
	case ST_IDLE:
		if (!p->period)
			break;
		if (now >= p->chosen_at + p->period) {
			emit(p, SPEC_POLICY_PERIOD, p->nr, NAN);
			p->state = ST_EXPLORE;
			return 1;
		}
		*next = p->chosen_at + p->period;
		return 0;
	}
	*next = p->state == ST_IDLE ? UINT64_MAX : p->deadline;
	if (p->state == ST_WATCH && p->period && p->chosen_at + p->period < *next)
		*next = p->chosen_at + p->period;
	return 0;
}

int policy_step_run(struct spec_policy_exhaustive *p, uint64_t *next)
{
	int ret;

	*next = UINT64_MAX;
	if (atomic_exchange(&p->force, false))
		p->state = ST_EXPLORE;
	do {
		ret = advance(p, policy_step_now(p), next);
	} while (ret == 1);
	return ret;
}
