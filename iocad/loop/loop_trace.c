// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <inttypes.h>
#include <string.h>

#include "loop/loop_trace.h"

int loop_trace_header(FILE *f, const struct config *cfg, const char *extra)
{
	fputs("interval,socket,t_s,state,reason,ddio_ways,ddio_mask,ddio_hits,ddio_misses,ddio_"
	      "outside",
	      f);
	for (unsigned int i = 0; i < cfg->ntenants; i++) {
		const char *n = cfg->tenant[i].name;

		fprintf(f, ",%s_ways,%s_mask,%s_ipc,%s_llc_refs,%s_llc_misses", n, n, n, n, n);
	}
	fprintf(f, "%s\n", extra ? extra : "");
	return fflush(f) || ferror(f) ? -EIO : 0;
}

const char *loop_trace_platform(struct platform *pf, bool header, char *buf, size_t len)
{
	if (!pf->ops->trace_columns || pf->ops->trace_columns(pf->ctx, header, buf, len))
		buf[0] = '\0';
	return buf;
}

static const struct loop_tenant_record *find(const struct loop_record *r, const char *name)
{
	for (unsigned int i = 0; i < r->ntenants; i++)
		if (!strcmp(r->tenant[i].name, name))
			return &r->tenant[i];
	return NULL;
}

int loop_trace_row(FILE *f, const struct config *traced, const struct loop_record *r,
		   const char *extra)
{
	fprintf(f, "%" PRIu64 ",%u,%.6f,%s,%s,%u,0x%x", r->index, r->socket, (double)r->t_ns / 1e9,
		fsm_state_name(r->state), decide_reason_name(&r->decision), r->ddio_ways,
		r->ddio_mask);
	if (r->ddio_missing)
		fputs(",,", f);
	else
		fprintf(f, ",%" PRIu64 ",%" PRIu64, r->ddio_hits, r->ddio_misses);
	if (r->ddio_outside)
		fprintf(f, ",0x%x", r->ddio_outside_from);
	else
		fputc(',', f);
	for (unsigned int i = 0; i < traced->ntenants; i++) {
		const struct loop_tenant_record *t = find(r, traced->tenant[i].name);

		if (!t) {
			fputs(",,,,,", f);
			continue;
		}
		fprintf(f, ",%u,0x%x,%.4f,%" PRIu64 ",%" PRIu64, t->ways, t->mask, t->ipc,
			t->llc_refs, t->llc_misses);
	}
	fprintf(f, "%s\n", extra ? extra : "");
	return fflush(f) || ferror(f) ? -EIO : 0;
}

/* What changed, e.g. "+vswitch", "-ddio", "shuffle BE2"; "" if nothing. */
static void action_text(const struct loop_record *r, char *buf, size_t len)
{
	const struct decide_out *d = &r->decision;
	const char *who = d->tenant >= 0 && (unsigned int)d->tenant < r->ntenants
				  ? r->tenant[d->tenant].name
				  : NULL;

	buf[0] = '\0';
	if (d->blocked) {
		/* Reclaim found nothing idle: holding is its normal outcome */
		snprintf(buf, len, "%s",
			 d->action == FSM_ACT_RECLAIM ? "hold: nothing idle" : "blocked");
	} else if (d->reason == DECIDE_R_RESHARE) {
		snprintf(buf, len, "reshare");
	} else if (d->reason == DECIDE_R_SHUFFLE && who) {
		snprintf(buf, len, "shuffle %s", who);
	} else if (d->reason == DECIDE_R_CORE_ALLOC && who) {
		snprintf(buf, len, "+%s", who);
	} else if (d->reason == DECIDE_R_CORE_RELEASE && who) {
		snprintf(buf, len, "-%s", who);
	} else if (d->reason == DECIDE_R_FSM) {
		if (d->action == FSM_ACT_DDIO_GROW)
			snprintf(buf, len, "+ddio");
		else if (d->action == FSM_ACT_TENANT_GROW && who)
			snprintf(buf, len, "+%s", who);
		else if (d->action == FSM_ACT_RECLAIM && who)
			snprintf(buf, len, "-%s", who);
		else if (d->action == FSM_ACT_RECLAIM && d->ddio_changed)
			snprintf(buf, len, "-ddio");
	}
}

void loop_format_line(const struct loop_record *r, char *buf, size_t len)
{
	const struct decide_out *d = &r->decision;
	char act[PLATFORM_NAME_LEN + 48];
	size_t n;
	int k;

	if (r->prev_state != r->state)
		k = snprintf(buf, len, "#%" PRIu64 " s%u t=%.3fs %s -> %s (%s)", r->index,
			     r->socket, (double)r->t_ns / 1e9, fsm_state_name(r->prev_state),
			     fsm_state_name(r->state), decide_reason_name(d));
	else
		k = snprintf(buf, len, "#%" PRIu64 " s%u t=%.3fs %s (%s)", r->index, r->socket,
			     (double)r->t_ns / 1e9, fsm_state_name(r->state),
			     decide_reason_name(d));
	if (k < 0 || (size_t)k >= len)
		return;
	n = (size_t)k;
	if (r->ddio_outside)
		k = snprintf(buf + n, len - n, " ddio=0x%x (outside: was 0x%x)", r->ddio_mask,
			     r->ddio_outside_from);
	else
		k = snprintf(buf + n, len - n, " ddio=0x%x", r->ddio_mask);
	for (unsigned int i = 0; i < r->ntenants && k >= 0 && (size_t)k < len - n; i++) {
		n += (size_t)k;
		k = snprintf(buf + n, len - n, " %s=0x%x", r->tenant[i].name, r->tenant[i].mask);
	}
	action_text(r, act, sizeof(act));
	if (r->ddio_missing)
		snprintf(act, sizeof(act), "no DDIO counts: DDIO decisions skipped");
	if (k >= 0 && (size_t)k < len - n && act[0]) {
		n += (size_t)k;
		snprintf(buf + n, len - n, " [%s]", act);
	}
}
