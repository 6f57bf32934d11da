// SPDX-License-Identifier: GPL-2.0
#include "eval/eval_report.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

struct dist {
	double *v;
	size_t n, cap;
};

static void add(struct dist *d, double x)
{
	if (!isfinite(x))
		return;
	if (d->n == d->cap) {
		size_t cap = d->cap ? 2 * d->cap : 256;
		double *v = realloc(d->v, cap * sizeof(*v));

		if (!v)
			return;
		d->v = v;
		d->cap = cap;
	}
	d->v[d->n++] = x;
}

static int cmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

static double q(struct dist *d, double p)
{
	if (!d->n)
		return NAN;
	qsort(d->v, d->n, sizeof(double), cmp);
	return d->v[(size_t)(p * (double)(d->n - 1) + 0.5)];
}

static double ratio(double a, double b)
{
	return b > 0 ? a / b : NAN;
}

static unsigned int ways(uint32_t m)
{
	return (unsigned int)__builtin_popcount(m);
}

/* What placed PS tenant @i where it is in iocad's run, in words. */
static void diagnose(const struct eval_result *r, unsigned int p, unsigned int i, char *buf,
		     size_t len)
{
	const struct eval_tenant_phase *t = &r->tp[p][i];
	unsigned int s = r->socket[i];
	uint32_t m = t->mask[EVAL_IOCA], d = r->ddio[p][EVAL_IOCA][s];
	int k;

	if (m && (m & d) == m)
		k = snprintf(buf, len, "inside DDIO's ways (0x%x in 0x%x)", m, d);
	else if (m & d)
		k = snprintf(buf, len, "shares %u of %u ways with DDIO (0x%x, DDIO 0x%x)",
			     ways(m & d), ways(m), m, d);
	else if (m & r->incl[s])
		k = snprintf(buf, len, "on the inclusive ways (0x%x, inclusive 0x%x)", m,
			     r->incl[s]);
	else if (ways(m) < ways(t->mask[EVAL_STATIC]))
		k = snprintf(buf, len, "%u ways (static %u)", ways(m), ways(t->mask[EVAL_STATIC]));
	else
		k = snprintf(buf, len, "0x%x (static 0x%x), DDIO 0x%x (static 0x%x)", m,
			     t->mask[EVAL_STATIC], d, r->ddio[p][EVAL_STATIC][s]);
	if (k > 0 && (size_t)k < len)
		snprintf(buf + k, len - (size_t)k, "; FSM %s, last %s", r->state[p][s],
			 r->reason[p][s]);
}

static void row(FILE *out, const char *name, struct dist *d)
{
	size_t below = 0;

	for (size_t k = 0; k < d->n; k++)
		below += d->v[k] < EVAL_PS_FLOOR;
	fprintf(out, "  %-10s %7.3f %7.3f %7.3f %7.3f  %zu of %zu below %.2f\n", name, q(d, 0.5),
		q(d, 0.1), d->n ? q(d, 0.0) : NAN, q(d, 0.9), below, d->n, EVAL_PS_FLOOR);
}

struct worst {
	double v;
	unsigned int c, p, i;
};

static int cmp_worst(const void *a, const void *b)
{
	const struct worst *x = a, *y = b;

	return (x->v > y->v) - (x->v < y->v);
}

static void table(FILE *out, const struct eval_result *r, unsigned int n, bool ps,
		  enum eval_mode against)
{
	fprintf(out, "%s tenants' IPC against %s (each phase's second half):\n", ps ? "PS" : "BE",
		eval_mode_name(against));
	fprintf(out, "  %-10s %7s %7s %7s %7s\n", "mode", "median", "p10", "worst", "p90");
	for (int m = 0; m < EVAL_NMODES; m++) {
		struct dist d = {0};

		if (m == (int)against)
			continue;
		for (unsigned int c = 0; c < n; c++)
			for (unsigned int p = 0; !r[c].err && p < r[c].nphases; p++)
				for (unsigned int i = 0; i < r[c].ntenants; i++)
					if (r[c].ps[i] == ps)
						add(&d, ratio(r[c].tp[p][i].ipc[m],
							      r[c].tp[p][i].ipc[against]));
		row(out, eval_mode_name((enum eval_mode)m), &d);
		free(d.v);
	}
}

static void traffic(FILE *out, const struct eval_result *r, unsigned int n)
{
	fprintf(out, "memory traffic against static, and layout changes per case:\n");
	for (int m = 1; m < EVAL_NMODES; m++) {
		struct dist d = {0}, ch = {0};

		for (unsigned int c = 0; c < n; c++) {
			if (r[c].err)
				continue;
			for (unsigned int p = 0; p < r[c].nphases; p++)
				add(&d, ratio(r[c].mem[p][m], r[c].mem[p][EVAL_STATIC]));
			add(&ch, r[c].changes[m]);
		}
		fprintf(out, "  %-10s traffic median %.3f p90 %.3f;",
			eval_mode_name((enum eval_mode)m), q(&d, 0.5), q(&d, 0.9));
		if (m == EVAL_ORACLE)
			fprintf(out, " (one layout per phase)\n");
		else
			fprintf(out, " changes median %.0f max %.0f\n", q(&ch, 0.5), q(&ch, 1.0));
		free(d.v);
		free(ch.v);
	}
}

static void worst_cases(FILE *out, const struct eval_result *r, unsigned int n, uint64_t seed)
{
	struct worst *w = calloc(n ? n : 1, sizeof(*w));
	unsigned int k = 0;

	if (!w)
		return;
	for (unsigned int c = 0; c < n; c++) {
		struct worst b = {.v = INFINITY};

		for (unsigned int p = 0; !r[c].err && p < r[c].nphases; p++)
			for (unsigned int i = 0; i < r[c].ntenants; i++) {
				double v = ratio(r[c].tp[p][i].ipc[EVAL_IOCA],
						 r[c].tp[p][i].ipc[EVAL_STATIC]);

				if (r[c].ps[i] && v < b.v)
					b = (struct worst){v, c, p, i};
			}
		if (isfinite(b.v))
			w[k++] = b;
	}
	qsort(w, k, sizeof(*w), cmp_worst);
	fprintf(out,
		"worst cases for a PS tenant (iocad against static; reproduce with "
		"iocad/build/iocad-eval --seed %llu --case N):\n",
		(unsigned long long)seed);
	for (unsigned int j = 0; j < k && j < 10; j++) {
		const struct eval_result *x = &r[w[j].c];
		char why[200];

		diagnose(x, w[j].p, w[j].i, why, sizeof(why));
		fprintf(out, "  case %u phase %u %s: %.3f (oracle %.3f): %s\n    %s\n", x->index,
			w[j].p, x->name[w[j].i], w[j].v,
			ratio(x->tp[w[j].p][w[j].i].ipc[EVAL_ORACLE],
			      x->tp[w[j].p][w[j].i].ipc[EVAL_STATIC]),
			why, x->desc);
	}
	free(w);
}

static void csv_out(FILE *csv, const struct eval_result *r, unsigned int n)
{
	struct dist d[EVAL_NMODES] = {0};

	for (unsigned int c = 0; c < n; c++)
		for (unsigned int p = 0; !r[c].err && p < r[c].nphases; p++)
			for (unsigned int i = 0; i < r[c].ntenants; i++)
				for (int m = 1; m < EVAL_NMODES && r[c].ps[i]; m++)
					add(&d[m], ratio(r[c].tp[p][i].ipc[m],
							 r[c].tp[p][i].ipc[EVAL_STATIC]));
	fprintf(csv, "fraction,ioca,core_only,oracle\n");
	for (int m = 1; m < EVAL_NMODES; m++)
		q(&d[m], 0.5);
	for (size_t k = 0; k < d[1].n; k++)
		fprintf(csv, "%.5f,%.5f,%.5f,%.5f\n", (double)(k + 1) / (double)d[1].n, d[1].v[k],
			k < d[2].n ? d[2].v[k] : NAN, k < d[3].n ? d[3].v[k] : NAN);
	for (int m = 0; m < EVAL_NMODES; m++)
		free(d[m].v);
}

void eval_report(const struct eval_result *r, unsigned int n, uint64_t seed, FILE *out, FILE *csv)
{
	unsigned int bad = 0, refused = 0, phases = 0, solves = 0, kinds[EVAL_KIND_COUNT] = {0};

	for (unsigned int c = 0; c < n; c++) {
		if (r[c].err) {
			fprintf(out, "case %u (seed %llu): %s%s\n", r[c].index,
				(unsigned long long)r[c].seed, r[c].refused ? "refused: " : "",
				r[c].msg);
			*(r[c].refused ? &refused : &bad) += 1;
			continue;
		}
		phases += r[c].nphases;
		solves += r[c].solves;
		kinds[r[c].kind]++;
	}
	fprintf(out,
		"eval: %u cases (seed %llu), %u phases, %u configs refused, %u failed to run; "
		"oracle: %u model solves\n  kinds:",
		n, (unsigned long long)seed, phases, refused, bad, solves);
	for (int k = 0; k < EVAL_KIND_COUNT; k++)
		fprintf(out, " %s %u", eval_kind_name((enum eval_kind)k), kinds[k]);
	fputc('\n', out);
	table(out, r, n, true, EVAL_STATIC);
	table(out, r, n, false, EVAL_STATIC);
	table(out, r, n, true, EVAL_ORACLE);
	table(out, r, n, false, EVAL_ORACLE);
	traffic(out, r, n);
	worst_cases(out, r, n, seed);
	if (csv)
		csv_out(csv, r, n);
}

unsigned int eval_property(const struct eval_result *r, unsigned int n, uint64_t seed, FILE *out,
			   unsigned int *refused)
{
	unsigned int broken = 0;

	*refused = 0;
	for (unsigned int c = 0; c < n; c++) {
		bool hit = false;

		/*
		 * A config iocad refuses at start hurts nobody (the operator is told
		 * why and runs static) if it is told why: a refusal without a reason
		 * breaks the property like a case that could not run.
		 */
		if (r[c].refused && r[c].msg[0]) {
			fprintf(out,
				"refused: case %u: %s (iocad/build/iocad-eval --seed %llu --case "
				"%u)\n",
				r[c].index, r[c].msg, (unsigned long long)seed, r[c].index);
			++*refused;
			continue;
		}
		if (r[c].refused)
			fprintf(out,
				"property: case %u: its config was refused without a reason "
				"(iocad/build/iocad-eval --seed %llu --case %u)\n",
				r[c].index, (unsigned long long)seed, r[c].index);
		else if (r[c].err)
			fprintf(out,
				"property: case %u could not run: %s (iocad/build/iocad-eval "
				"--seed %llu "
				"--case %u)\n",
				r[c].index, r[c].msg, (unsigned long long)seed, r[c].index);
		for (unsigned int p = 0; !r[c].err && p < r[c].nphases; p++)
			for (unsigned int i = 0; i < r[c].ntenants; i++) {
				double v = ratio(r[c].tp[p][i].ipc[EVAL_IOCA],
						 r[c].tp[p][i].ipc[EVAL_STATIC]);
				char why[200];

				if (!r[c].ps[i] || !(v < EVAL_PS_FLOOR))
					continue;
				diagnose(&r[c], p, i, why, sizeof(why));
				fprintf(out,
					"property: case %u phase %u: PS tenant %s at %.3f of "
					"static: %s "
					"(iocad/build/iocad-eval --seed %llu --case %u)\n",
					r[c].index, p, r[c].name[i], v, why,
					(unsigned long long)seed, r[c].index);
				hit = true;
			}
		broken += hit || r[c].err;
	}
	return broken;
}

void eval_report_case(const struct eval_result *r, const struct eval_case *c, FILE *out)
{
	fprintf(out, "case %u (case seed %llu): %s\n--- config\n%s--- scenario\n%s---\n", r->index,
		(unsigned long long)r->seed, r->desc, c->ini, c->scn);
	if (r->err) {
		fprintf(out, "%s: %s\n", r->refused ? "refused" : "error",
			r->msg[0] ? r->msg : "(no reason given)");
		return;
	}
	for (unsigned int p = 0; p < r->nphases; p++) {
		fprintf(out, "phase %u [%.0fs, %.0fs): FSM %s (%s); DDIO", p, c->start[p],
			c->start[p + 1], r->state[p][0], r->reason[p][0]);
		for (int m = 0; m < EVAL_NMODES; m++)
			fprintf(out, " %s 0x%x", eval_mode_name((enum eval_mode)m),
				r->ddio[p][m][0]);
		fputc('\n', out);
		for (unsigned int i = 0; i < r->ntenants; i++) {
			fprintf(out, "  %-8s %s", r->name[i], r->ps[i] ? "PS" : "BE");
			for (int m = 0; m < EVAL_NMODES; m++)
				fprintf(out, "  %s %.3f (0x%03x)",
					eval_mode_name((enum eval_mode)m), r->tp[p][i].ipc[m],
					r->tp[p][i].mask[m]);
			fputc('\n', out);
		}
	}
}

void eval_report_story(const struct eval_result *r, const struct eval_case *c, FILE *out)
{
	if (r->err) {
		fprintf(out, "error: %s\n", r->msg);
		return;
	}
	for (unsigned int p = 0; p < r->nphases; p++) {
		for (unsigned int i = 0; i <= r->ntenants; i++) {
			fprintf(out, "phase %u %g %g %s", p, c->start[p], c->start[p + 1],
				i < r->ntenants ? r->name[i] : "mem");
			for (int m = 0; m < EVAL_NMODES; m++)
				fprintf(out, " %s %.6g", eval_mode_name((enum eval_mode)m),
					i < r->ntenants ? r->tp[p][i].ipc[m] : r->mem[p][m]);
			fputc('\n', out);
		}
	}
}
