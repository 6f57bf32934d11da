// SPDX-License-Identifier: GPL-2.0
/*
 * The weighted event graph: a snapshot of the sampled edge counters, its
 * reduction by a threshold (the paper's Fig. 6) and DOT/JSON export.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "events/event_graph.h"
#include "jit/jit.h"
#include "log.h"

_Thread_local uint32_t ev_countdown;

struct spec_ev_graph {
	struct spec_ev_node *nodes;
	bool *keep; /* [nr_nodes]: still in the graph after a reduction */
	size_t nr_nodes;
	struct spec_ev_edge *edges;
	size_t nr_edges;
	struct spec_ev_handler_edge *hedges;
	size_t nr_hedges;
	char *names; /* the graph's own copy of every name it shows */
};

void ev_graph_counts(struct spec_events *evs, uint64_t *counts, uint32_t n)
{
	uint32_t from, to;
	int k;

	memset(counts, 0, n * sizeof(*counts));
	for (from = 0; from <= evs->max_events; from++) {
		uint32_t f = from == evs->max_events ? SPEC_EV_ROOT : from;

		for (to = 0; to < n; to++)
			for (k = 0; k < 2; k++)
				counts[to] += atomic_load_explicit(ev_edge(evs, f, to, k),
								   memory_order_relaxed);
	}
}

static int by_count(const void *a, const void *b)
{
	const struct spec_ev_edge *x = a, *y = b;

	if (x->count != y->count)
		return x->count < y->count ? 1 : -1;
	if (x->from != y->from)
		return x->from < y->from ? -1 : 1;
	return x->to < y->to ? -1 : x->to > y->to;
}

static int collect_edges(struct spec_events *evs, struct spec_ev_graph *g, uint32_t n)
{
	uint32_t from, to;
	size_t cap = 0;
	int k;

	for (from = 0; from <= evs->max_events; from++) {
		uint32_t f = from == evs->max_events ? SPEC_EV_ROOT : from;

		if (f != SPEC_EV_ROOT && f >= n)
			continue;
		for (to = 0; to < n; to++) {
			for (k = 0; k < 2; k++) {
				uint64_t c = atomic_load_explicit(ev_edge(evs, f, to, k),
								  memory_order_relaxed);
				if (!c)
					continue;
				if (g->nr_edges == cap) {
					struct spec_ev_edge *e;

					cap = cap ? 2 * cap : 16;
					e = realloc(g->edges, cap * sizeof(*e));
					if (!e)
						return -ENOMEM;
					g->edges = e;
				}
				g->edges[g->nr_edges++] = (struct spec_ev_edge){
					.from = f, .to = to, .kind = k, .count = c};
			}
		}
	}
	if (g->nr_edges)
		qsort(g->edges, g->nr_edges, sizeof(*g->edges), by_count);
	return 0;
}

static int by_hcount(const void *a, const void *b)
{
	const struct spec_ev_handler_edge *x = a, *y = b;
	int c = strcmp(x->handler, y->handler);

	if (x->count != y->count)
		return x->count < y->count ? 1 : -1;
	return c ? c : x->to < y->to ? -1 : x->to > y->to;
}

static int collect_handler_edges(struct spec_events *evs, struct spec_ev_graph *g, uint32_t n)
{
	size_t cap = 0;
	uint32_t h, to;
	int k;

	for (h = 0; h < evs->nr_handlers; h++) {
		for (to = 0; to < n; to++) {
			for (k = 0; k < 2; k++) {
				uint64_t c = atomic_load_explicit(
					&evs->hedges[((size_t)h * evs->max_events + to) * 2 + k],
					memory_order_relaxed);

				if (!c)
					continue;
				if (g->nr_hedges == cap) {
					struct spec_ev_handler_edge *e;

					cap = cap ? 2 * cap : 16;
					e = realloc(g->hedges, cap * sizeof(*e));
					if (!e)
						return -ENOMEM;
					g->hedges = e;
				}
				g->hedges[g->nr_hedges++] = (struct spec_ev_handler_edge){
					.handler = jit_handler_name(evs->rt->jit, h),
					.to = to,
					.kind = k,
					.count = c};
			}
		}
	}
	if (g->nr_hedges)
		qsort(g->hedges, g->nr_hedges, sizeof(*g->hedges), by_hcount);
	return 0;
}

/*
 * Copy the names the graph points at (events', handlers'), so it outlives
 * its event system and runtime.
 */
static const char *copy_name(char **p, const char *name)
{
	size_t n = strlen(name) + 1;
	char *to = memcpy(*p, name, n);

	*p += n;
	return to;
}

static int own_names(struct spec_ev_graph *g)
{
	size_t len = 1, i;
	char *p;

	for (i = 0; i < g->nr_nodes; i++)
		len += strlen(g->nodes[i].name) + 1;
	for (i = 0; i < g->nr_hedges; i++)
		len += strlen(g->hedges[i].handler) + 1;
	p = g->names = malloc(len);
	if (!p)
		return -ENOMEM;
	for (i = 0; i < g->nr_nodes; i++)
		g->nodes[i].name = copy_name(&p, g->nodes[i].name);
	for (i = 0; i < g->nr_hedges; i++)
		g->hedges[i].handler = copy_name(&p, g->hedges[i].handler);
	return 0;
}

struct spec_ev_graph *spec_events__graph(struct spec_events *evs)
{
	struct spec_ev_graph *g;
	uint64_t *counts;
	uint32_t n, i;

	if (!evs)
		return libspec_err_ptr(-EINVAL);
	n = atomic_load_explicit(&evs->nr_events, memory_order_acquire);
	g = calloc(1, sizeof(*g));
	counts = calloc(n + 1, sizeof(*counts));
	if (!g || !counts)
		goto nomem;
	g->nodes = calloc(n + 1, sizeof(*g->nodes));
	g->keep = calloc(n + 1, sizeof(*g->keep));
	if (!g->nodes || !g->keep || collect_edges(evs, g, n) || collect_handler_edges(evs, g, n))
		goto nomem;
	ev_graph_counts(evs, counts, n);
	for (i = 0; i < n; i++) {
		g->nodes[i] =
			(struct spec_ev_node){.name = evs->events[i]->name, .count = counts[i]};
		g->keep[i] = true;
	}
	g->nr_nodes = n;
	free(counts);
	if (own_names(g)) {
		counts = NULL;
		goto nomem;
	}
	return g;
nomem:
	free(counts);
	spec_ev_graph__free(g);
	return libspec_err_ptr(-ENOMEM);
}

int spec_events__reset_graph(struct spec_events *evs)
{
	size_t i, n;

	if (!evs)
		return libspec_err(-EINVAL);
	n = (size_t)(evs->max_events + 1) * evs->max_events * 2;
	for (i = 0; i < n; i++)
		atomic_store_explicit(&evs->edges[i], 0, memory_order_relaxed);
	n = (size_t)evs->nr_handlers * evs->max_events * 2;
	for (i = 0; i < n; i++)
		atomic_store_explicit(&evs->hedges[i], 0, memory_order_relaxed);
	return 0;
}

size_t spec_ev_graph__nr_nodes(const struct spec_ev_graph *g)
{
	return g ? g->nr_nodes : 0;
}

size_t spec_ev_graph__nr_edges(const struct spec_ev_graph *g)
{
	return g ? g->nr_edges : 0;
}

const struct spec_ev_node *spec_ev_graph__node(const struct spec_ev_graph *g, size_t i)
{
	if (!g || i >= g->nr_nodes)
		return libspec_err_ptr(-ERANGE);
	return &g->nodes[i];
}

size_t spec_ev_graph__nr_handler_edges(const struct spec_ev_graph *g)
{
	return g ? g->nr_hedges : 0;
}

const struct spec_ev_handler_edge *spec_ev_graph__handler_edge(const struct spec_ev_graph *g,
							       size_t i)
{
	if (!g || i >= g->nr_hedges)
		return libspec_err_ptr(-ERANGE);
	return &g->hedges[i];
}

const struct spec_ev_edge *spec_ev_graph__edge(const struct spec_ev_graph *g, size_t i)
{
	if (!g || i >= g->nr_edges)
		return libspec_err_ptr(-ERANGE);
	return &g->edges[i];
}

int spec_ev_graph__reduce(struct spec_ev_graph *g, double threshold)
{
	uint64_t max_edge = 0, max_node = 0;
	size_t i, j;

	if (!g || !(threshold >= 0 && threshold <= 1))
		return libspec_err(-EINVAL);
	for (i = 0; i < g->nr_edges; i++)
		max_edge = g->edges[i].count > max_edge ? g->edges[i].count : max_edge;
	for (i = 0; i < g->nr_nodes; i++)
		max_node = g->nodes[i].count > max_node ? g->nodes[i].count : max_node;
	for (i = 0, j = 0; i < g->nr_edges; i++) {
		if ((double)g->edges[i].count >= threshold * (double)max_edge)
			g->edges[j++] = g->edges[i];
	}
	g->nr_edges = j;
	max_edge = 0;
	for (i = 0; i < g->nr_hedges; i++)
		max_edge = g->hedges[i].count > max_edge ? g->hedges[i].count : max_edge;
	for (i = 0, j = 0; i < g->nr_hedges; i++) {
		if ((double)g->hedges[i].count >= threshold * (double)max_edge)
			g->hedges[j++] = g->hedges[i];
	}
	g->nr_hedges = j;
	for (i = 0; i < g->nr_nodes; i++)
		g->keep[i] = (double)g->nodes[i].count >= threshold * (double)max_node &&
			     g->nodes[i].count;
	for (i = 0; i < g->nr_edges; i++) {
		if (g->edges[i].from != SPEC_EV_ROOT)
			g->keep[g->edges[i].from] = true;
		g->keep[g->edges[i].to] = true;
	}
	return 0;
}

/* snprintf that keeps counting past the end of the buffer. */
struct out {
	char *buf;
	size_t size, len;
};

static void put(struct out *o, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void put(struct out *o, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(o->len < o->size ? o->buf + o->len : NULL,
		      o->len < o->size ? o->size - o->len : 0, fmt, ap);
	va_end(ap);
	if (n > 0)
		o->len += (size_t)n;
}

/*
 * @s inside a DOT or JSON string: quote and backslash escaped, newline as
 * \n, other control bytes as \u00XX (JSON) or '?' (DOT has no such
 * escape). Handler names come from the IR, which may name a function
 * anything.
 */
static void put_escaped(struct out *o, const char *s, bool json)
{
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;

		if (c == '"' || c == '\\')
			put(o, "\\%c", c);
		else if (c == '\n')
			put(o, "\\n");
		else if (c < 0x20 || c == 0x7f)
			json ? put(o, "\\u%04x", c) : put(o, "?");
		else
			put(o, "%c", c);
	}
}

static void put_quoted(struct out *o, const char *s, bool json)
{
	put(o, "\"");
	put_escaped(o, s, json);
	put(o, "\"");
}

static const char *from_name(const struct spec_ev_graph *g, uint32_t from)
{
	return from == SPEC_EV_ROOT ? "(service)" : g->nodes[from].name;
}

int spec_ev_graph__dot(const struct spec_ev_graph *g, char *buf, size_t size)
{
	struct out o = {.buf = buf, .size = size};
	size_t i;

	if (!g || (!buf && size))
		return libspec_err(-EINVAL);
	if (size)
		buf[0] = '\0';
	put(&o, "digraph events {\n");
	for (i = 0; i < g->nr_nodes; i++) {
		if (!g->keep[i])
			continue;
		/* The label is the name and the count on a second line. */
		put(&o, "\t");
		put_quoted(&o, g->nodes[i].name, false);
		put(&o, " [label=\"");
		put_escaped(&o, g->nodes[i].name, false);
		put(&o, "\\n%llu\"];\n", (unsigned long long)g->nodes[i].count);
	}
	for (i = 0; i < g->nr_edges; i++) {
		const struct spec_ev_edge *e = &g->edges[i];

		put(&o, "\t");
		put_quoted(&o, from_name(g, e->from), false);
		put(&o, " -> ");
		put_quoted(&o, g->nodes[e->to].name, false);
		put(&o, " [label=\"%llu\"%s];\n", (unsigned long long)e->count,
		    e->kind == SPEC_EV_ASYNC ? ", style=dashed" : "");
	}
	put(&o, "}\n");
	return (int)o.len;
}

int spec_ev_graph__json(const struct spec_ev_graph *g, char *buf, size_t size)
{
	struct out o = {.buf = buf, .size = size};
	const char *sep = "";
	size_t i;

	if (!g || (!buf && size))
		return libspec_err(-EINVAL);
	if (size)
		buf[0] = '\0';
	put(&o, "{\"nodes\":[");
	for (i = 0; i < g->nr_nodes; i++) {
		if (!g->keep[i])
			continue;
		put(&o, "%s{\"id\":%zu,\"name\":", sep, i);
		put_quoted(&o, g->nodes[i].name, true);
		put(&o, ",\"count\":%llu}", (unsigned long long)g->nodes[i].count);
		sep = ",";
	}
	put(&o, "],\"edges\":[");
	for (i = 0; i < g->nr_edges; i++) {
		const struct spec_ev_edge *e = &g->edges[i];

		put(&o, "%s{\"from\":", i ? "," : "");
		if (e->from == SPEC_EV_ROOT)
			put(&o, "null");
		else
			put_quoted(&o, g->nodes[e->from].name, true);
		put(&o, ",\"to\":");
		put_quoted(&o, g->nodes[e->to].name, true);
		put(&o, ",\"kind\":\"%s\",\"count\":%llu}",
		    e->kind == SPEC_EV_ASYNC ? "async" : "sync", (unsigned long long)e->count);
	}
	put(&o, "],\"handlers\":[");
	for (i = 0; i < g->nr_hedges; i++) {
		const struct spec_ev_handler_edge *h = &g->hedges[i];

		put(&o, "%s{\"handler\":", i ? "," : "");
		put_quoted(&o, h->handler, true);
		put(&o, ",\"to\":");
		put_quoted(&o, g->nodes[h->to].name, true);
		put(&o, ",\"kind\":\"%s\",\"count\":%llu}",
		    h->kind == SPEC_EV_ASYNC ? "async" : "sync", (unsigned long long)h->count);
	}
	put(&o, "]}\n");
	return (int)o.len;
}

void spec_ev_graph__free(struct spec_ev_graph *g)
{
	if (!g)
		return;
	free(g->nodes);
	free(g->keep);
	free(g->edges);
	free(g->hedges);
	free(g->names);
	free(g);
}
