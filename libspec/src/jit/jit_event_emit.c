// SPDX-License-Identifier: GPL-2.0
/*
 * The functions of a merged module, per event (see jit_event.c for what
 * each is): body, entry, guarded forms for raise sites, and the marshalled
 * form the IR tests use as a mutation.
 */
#include <stdlib.h>
#include <string.h>

#include "jit/jit_event_emit.h"

LLVMValueRef jit_ev_at(struct gen *g, LLVMValueRef p, unsigned long long off)
{
	LLVMValueRef idx = LLVMConstInt(g->i64, off, 0);

	return off ? LLVMBuildGEP2(g->b, g->i8, p, &idx, 1, "") : p;
}

static LLVMValueRef addr_const(struct gen *g, const void *p)
{
	return LLVMConstIntToPtr(LLVMConstInt(g->i64, (uint64_t)(uintptr_t)p, 0), g->ptr);
}

static unsigned int attr_kind(const char *name)
{
	return LLVMGetEnumAttributeKindForName(name, strlen(name));
}

static void set_attr(struct gen *g, LLVMValueRef fn, const char *name)
{
	LLVMAddAttributeAtIndex(fn, LLVMAttributeFunctionIndex,
				LLVMCreateEnumAttribute(g->j->ctx, attr_kind(name), 0));
}

/* Inlined everywhere in this module (a handler's own noinline gives way). */
void jit_ev_force_inline(struct gen *g, LLVMValueRef fn)
{
	if (g->req->mutate & JIT_EV_MUT_NO_INLINE) {
		set_attr(g, fn, "noinline");
		return;
	}
	LLVMRemoveEnumAttributeAtIndex(fn, LLVMAttributeFunctionIndex, attr_kind("noinline"));
	set_attr(g, fn, "alwaysinline");
}

static LLVMValueRef bind_const(struct gen *g, size_t e, size_t k, const int64_t *args)
{
	LLVMTypeRef arr = LLVMArrayType(g->i64, SPEC_EV_MAX_ARGS);
	LLVMValueRef vals[SPEC_EV_MAX_ARGS], gv;
	char name[64];
	int i;

	for (i = 0; i < SPEC_EV_MAX_ARGS; i++)
		vals[i] = LLVMConstInt(g->i64, (uint64_t)args[i], 1);
	snprintf(name, sizeof(name), "__ev.bind.%zu.%zu", e, k);
	gv = LLVMAddGlobal(g->m, arr, name);
	LLVMSetInitializer(gv, LLVMConstArray(g->i64, vals, SPEC_EV_MAX_ARGS));
	LLVMSetGlobalConstant(gv, 1);
	LLVMSetLinkage(gv, LLVMPrivateLinkage);
	LLVMSetUnnamedAddress(gv, LLVMGlobalUnnamedAddr);
	return gv;
}

/* The bound handlers' functions in the clone, in request order. */
int jit_ev_find_handlers(struct gen *g, char *err, size_t errsz)
{
	size_t e, k, h = 0;

	for (e = 0; e < g->req->n; e++) {
		const struct jit_ev_event *ev = &g->req->events[e];

		for (k = 0; k < ev->n; k++) {
			g->hfn[h] = jit_event_handler_fn(g->j, g->m, g->req->id, ev->b[k].handler);
			if (!g->hfn[h]) {
				snprintf(err, errsz,
					 "event '%s': handler '%s' missing from the clone",
					 ev->name, jit_handler_name(g->j, ev->b[k].handler));
				return -ENOENT;
			}
			h++;
		}
	}
	return 0;
}

void jit_ev_emit_body(struct gen *g, size_t e, size_t h)
{
	const struct jit_ev_event *ev = &g->req->events[e];
	LLVMValueRef fn = g->ifn[e], ctx = LLVMGetParam(fn, 0), rec, args[3];
	size_t k;
	int i;

	LLVMPositionBuilderAtEnd(g->b, LLVMAppendBasicBlockInContext(g->j->ctx, fn, "entry"));
	rec = LLVMBuildAlloca(g->b, LLVMArrayType(g->i64, SPEC_EV_MAX_ARGS), "args");
	for (i = 0; i < SPEC_EV_MAX_ARGS; i++)
		LLVMBuildStore(g->b, LLVMGetParam(fn, (unsigned int)i + 1),
			       jit_ev_at(g, rec, 8ull * i));
	for (k = 0; k < ev->n; k++, h++) {
		jit_ev_force_inline(g, g->hfn[h]);
		/* ctx->handler, for raises the handler makes (the graph). */
		LLVMBuildStore(g->b, LLVMConstInt(g->i32, ev->b[k].handler, 0),
			       jit_ev_at(g, ctx, 24));
		args[0] = ctx;
		args[1] = bind_const(g, e, k, ev->b[k].args);
		args[2] = rec;
		LLVMBuildCall2(g->b, g->h_ty, g->hfn[h], args, 3, "");
	}
	LLVMBuildRetVoid(g->b);
	jit_ev_force_inline(g, fn);
}

void jit_ev_emit_entry(struct gen *g, size_t e)
{
	LLVMValueRef fn = g->mfn[e], a[SPEC_EV_MAX_ARGS + 1];
	unsigned int i;

	LLVMPositionBuilderAtEnd(g->b, LLVMAppendBasicBlockInContext(g->j->ctx, fn, "entry"));
	for (i = 0; i <= SPEC_EV_MAX_ARGS; i++)
		a[i] = LLVMGetParam(fn, i);
	LLVMBuildCall2(g->b, g->m_ty, g->ifn[e], a, SPEC_EV_MAX_ARGS + 1, "");
	LLVMBuildRetVoid(g->b);
}

/* Branch to @fast while @ev's bindings are still the ones built for. */
static void emit_guard(struct gen *g, const struct jit_ev_event *ev, LLVMBasicBlockRef fast,
		       LLVMBasicBlockRef slow)
{
	LLVMContextRef c = g->j->ctx;
	LLVMValueRef ver, ok, br;
	LLVMMetadataRef w[3];

	if (g->req->mutate & JIT_EV_MUT_NO_GUARD) {
		LLVMBuildBr(g->b, fast);
		return;
	}
	ver = LLVMBuildLoad2(g->b, g->i64, addr_const(g, ev->version_word), "version");
	LLVMSetOrdering(ver, LLVMAtomicOrderingAcquire);
	LLVMSetAlignment(ver, 8);
	ok = LLVMBuildICmp(g->b, LLVMIntEQ, ver, LLVMConstInt(g->i64, ev->version, 0), "");
	br = LLVMBuildCondBr(g->b, ok, fast, slow);
	/* The guard passes unless a rebinding happened meanwhile. */
	w[0] = LLVMMDStringInContext2(c, "branch_weights", 14);
	w[1] = LLVMValueAsMetadata(LLVMConstInt(g->i32, 2000, 0));
	w[2] = LLVMValueAsMetadata(LLVMConstInt(g->i32, 1, 0));
	LLVMSetMetadata(br, LLVMGetMDKindIDInContext(c, "prof", 4),
			LLVMMetadataAsValue(c, LLVMMDNodeInContext2(c, w, 3)));
}

/*
 * E.s / E.c: run @body on the raiser's context with this event's fields,
 * then give the raiser its own back.
 */
void jit_ev_emit_guarded(struct gen *g, size_t e, LLVMValueRef fn, LLVMValueRef body)
{
	const struct jit_ev_event *ev = &g->req->events[e];
	LLVMValueRef ctx = LLVMGetParam(fn, 0), a[SPEC_EV_MAX_ARGS + 2], old[3];
	LLVMBasicBlockRef fast, slow;
	LLVMContextRef c = g->j->ctx;
	unsigned int i;

	LLVMPositionBuilderAtEnd(g->b, LLVMAppendBasicBlockInContext(c, fn, "entry"));
	fast = LLVMAppendBasicBlockInContext(c, fn, "fast");
	slow = LLVMAppendBasicBlockInContext(c, fn, "stale");
	emit_guard(g, ev, fast, slow);

	LLVMPositionBuilderAtEnd(g->b, fast);
	for (i = 0; i < 3; i++)
		old[i] = LLVMBuildLoad2(g->b, g->i32, jit_ev_at(g, ctx, 16 + 4 * i), "");
	LLVMBuildStore(g->b, LLVMConstInt(g->i32, ev->idx, 0), jit_ev_at(g, ctx, 16));
	LLVMBuildStore(g->b, LLVMBuildAdd(g->b, old[1], LLVMConstInt(g->i32, 1, 0), ""),
		       jit_ev_at(g, ctx, 20));
	for (i = 0; i <= SPEC_EV_MAX_ARGS; i++)
		a[i] = LLVMGetParam(fn, i);
	LLVMBuildCall2(g->b, g->m_ty, body, a, SPEC_EV_MAX_ARGS + 1, "");
	for (i = 0; i < 3; i++)
		LLVMBuildStore(g->b, old[i], jit_ev_at(g, ctx, 16 + 4 * i));
	LLVMBuildRetVoid(g->b);

	LLVMPositionBuilderAtEnd(g->b, slow);
	a[0] = ctx;
	a[1] = addr_const(g, ev->event);
	for (i = 0; i < SPEC_EV_MAX_ARGS; i++)
		a[i + 2] = LLVMGetParam(fn, i + 1);
	LLVMBuildCall2(g->b, g->raise4_ty, g->fallback4, a, SPEC_EV_MAX_ARGS + 2, "");
	LLVMBuildRetVoid(g->b);
}

/*
 * JIT_EV_MUT_MARSHAL's E.r(parent, args): what subsumption used to be, a
 * context frame on the stack, the record read back, the array-form generic
 * raise; the IR tests must tell it from E.s.
 */
void jit_ev_emit_marshalled(struct gen *g, size_t e)
{
	const struct jit_ev_event *ev = &g->req->events[e];
	LLVMValueRef fn = g->rfn[e], parent = LLVMGetParam(fn, 0), args = LLVMGetParam(fn, 1);
	LLVMValueRef frame, a[SPEC_EV_MAX_ARGS + 1], depth;
	LLVMContextRef c = g->j->ctx;
	LLVMBasicBlockRef fast, slow;
	int i;

	LLVMPositionBuilderAtEnd(g->b, LLVMAppendBasicBlockInContext(c, fn, "entry"));
	frame = LLVMBuildAlloca(g->b, g->ctx_ty, "ctx");
	fast = LLVMAppendBasicBlockInContext(c, fn, "fast");
	slow = LLVMAppendBasicBlockInContext(c, fn, "stale");
	emit_guard(g, ev, fast, slow);
	LLVMPositionBuilderAtEnd(g->b, fast);
	LLVMBuildStore(g->b, LLVMBuildLoad2(g->b, g->ptr, parent, "evs"), frame);
	LLVMBuildStore(g->b, LLVMBuildLoad2(g->b, g->ptr, jit_ev_at(g, parent, 8), "user"),
		       jit_ev_at(g, frame, 8));
	LLVMBuildStore(g->b, LLVMConstInt(g->i32, ev->idx, 0), jit_ev_at(g, frame, 16));
	depth = LLVMBuildLoad2(g->b, g->i32, jit_ev_at(g, parent, 20), "depth");
	LLVMBuildStore(g->b, LLVMBuildAdd(g->b, depth, LLVMConstInt(g->i32, 1, 0), ""),
		       jit_ev_at(g, frame, 20));
	LLVMBuildStore(g->b, LLVMConstInt(g->i32, UINT32_MAX, 0), jit_ev_at(g, frame, 24));
	a[0] = frame;
	for (i = 0; i < SPEC_EV_MAX_ARGS; i++)
		a[i + 1] = LLVMBuildLoad2(g->b, g->i64, jit_ev_at(g, args, 8ull * i), "");
	LLVMBuildCall2(g->b, g->m_ty, g->mfn[e], a, SPEC_EV_MAX_ARGS + 1, "");
	LLVMBuildRetVoid(g->b);
	LLVMPositionBuilderAtEnd(g->b, slow);
	a[0] = parent;
	a[1] = addr_const(g, ev->event);
	a[2] = args;
	LLVMBuildCall2(g->b, g->raise_ty, g->fallback, a, 3, "");
	LLVMBuildRetVoid(g->b);
}
