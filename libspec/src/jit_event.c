// SPDX-License-Identifier: GPL-2.0
/*
 * Code generation for merged event handlers. The module is a clone of the
 * handler IR made like a variant (markers generic, mutable state shared
 * with the generic variant), to which we add, per merged event E:
 *
 *   E.m(ctx, a0..a3): the argument record on the stack, then each bound
 *     handler called with its binding's arguments as a private constant;
 *     after inlining, SROA keeps the record in registers (marshalling gone)
 *     and the binding loads fold.
 *   E.s(parent, args): the replacement of a synchronous raise of E inside a
 *     handler: a guard reading E's bindings version, then a new context and
 *     E.m; if the guard fails, the generic raise.
 *
 * Everything but the E.m entries becomes internal, so the optimizer keeps
 * only what the merged functions need.
 */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "jit_event.h"
#include "jit_event_chain.h"
#include "jit_int.h"
#include "jit_ir.h"
#include "jit_spec.h"

_Static_assert(offsetof(struct spec_ev_ctx, evs) == 0 && offsetof(struct spec_ev_ctx, user) == 8 &&
		       offsetof(struct spec_ev_ctx, event) == 16 &&
		       offsetof(struct spec_ev_ctx, depth) == 20 &&
		       offsetof(struct spec_ev_ctx, handler) == 24 &&
		       sizeof(struct spec_ev_ctx) == 32,
	       "the IR below builds struct spec_ev_ctx by these offsets");

struct gen {
	struct jit *j;
	LLVMModuleRef m;
	LLVMBuilderRef b;
	const struct jit_ev_req *req;
	LLVMTypeRef i8, i32, i64, ptr, vd, ctx_ty, m_ty, s_ty, h_ty, raise_ty;
	LLVMValueRef *mfn, *sfn; /* [n] */
	LLVMValueRef fallback;	 /* __spec_ev_raise_ev */
};

static LLVMValueRef at(struct gen *g, LLVMValueRef p, unsigned long long off)
{
	LLVMValueRef idx = LLVMConstInt(g->i64, off, 0);

	return LLVMBuildGEP2(g->b, g->i8, p, &idx, 1, "");
}

static LLVMValueRef addr_const(struct gen *g, const void *p)
{
	return LLVMConstIntToPtr(LLVMConstInt(g->i64, (uint64_t)(uintptr_t)p, 0), g->ptr);
}

static void set_attr(struct gen *g, LLVMValueRef fn, const char *name)
{
	unsigned int kind = LLVMGetEnumAttributeKindForName(name, strlen(name));
	LLVMContextRef c = g->j->ctx;

	LLVMAddAttributeAtIndex(fn, LLVMAttributeFunctionIndex,
				LLVMCreateEnumAttribute(c, kind, 0));
}

LLVMValueRef jit_event_handler_fn(struct jit *j, LLVMModuleRef m, unsigned int id, uint32_t h)
{
	char name[512];

	snprintf(name, sizeof(name), "%s.v%u", jit_handler_name(j, h), id);
	return LLVMGetNamedFunction(m, name);
}

static LLVMValueRef handler_fn(struct gen *g, uint32_t h)
{
	return jit_event_handler_fn(g->j, g->m, g->req->id, h);
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

static int emit_merged(struct gen *g, size_t e, char *err, size_t errsz)
{
	const struct jit_ev_event *ev = &g->req->events[e];
	LLVMValueRef fn = g->mfn[e], rec, args[3];
	size_t k;
	int i;

	LLVMPositionBuilderAtEnd(g->b, LLVMAppendBasicBlockInContext(g->j->ctx, fn, "entry"));
	rec = LLVMBuildAlloca(g->b, LLVMArrayType(g->i64, SPEC_EV_MAX_ARGS), "args");
	for (i = 0; i < SPEC_EV_MAX_ARGS; i++)
		LLVMBuildStore(g->b, LLVMGetParam(fn, (unsigned int)i + 1), at(g, rec, 8ull * i));
	for (k = 0; k < ev->n; k++) {
		LLVMValueRef h = handler_fn(g, ev->b[k].handler);

		if (!h) {
			snprintf(err, errsz, "event '%s': handler '%s' missing from the clone",
				 ev->name, jit_handler_name(g->j, ev->b[k].handler));
			return -ENOENT;
		}
		set_attr(g, h, "inlinehint");
		/* ctx->handler, for raises the handler makes (the graph). */
		LLVMBuildStore(g->b, LLVMConstInt(g->i32, ev->b[k].handler, 0),
			       at(g, LLVMGetParam(fn, 0), 24));
		args[0] = LLVMGetParam(fn, 0);
		args[1] = bind_const(g, e, k, ev->b[k].args);
		args[2] = rec;
		LLVMBuildCall2(g->b, g->h_ty, h, args, 3, "");
	}
	LLVMBuildRetVoid(g->b);
	return 0;
}

static void emit_subsumed(struct gen *g, size_t e)
{
	const struct jit_ev_event *ev = &g->req->events[e];
	LLVMValueRef fn = g->sfn[e], parent = LLVMGetParam(fn, 0), args = LLVMGetParam(fn, 1);
	LLVMBasicBlockRef entry, fast, slow;
	LLVMValueRef frame, ver, ok, br, margs[SPEC_EV_MAX_ARGS + 1], fargs[3], depth;
	LLVMContextRef c = g->j->ctx;
	int i;

	entry = LLVMAppendBasicBlockInContext(c, fn, "entry");
	fast = LLVMAppendBasicBlockInContext(c, fn, "fast");
	slow = LLVMAppendBasicBlockInContext(c, fn, "stale");
	LLVMPositionBuilderAtEnd(g->b, entry);
	frame = LLVMBuildAlloca(g->b, g->ctx_ty, "ctx");
	ver = LLVMBuildLoad2(g->b, g->i64, addr_const(g, ev->version_word), "version");
	LLVMSetOrdering(ver, LLVMAtomicOrderingAcquire);
	LLVMSetAlignment(ver, 8);
	ok = LLVMBuildICmp(g->b, LLVMIntEQ, ver, LLVMConstInt(g->i64, ev->version, 0), "");
	br = LLVMBuildCondBr(g->b, ok, fast, slow);
	{
		/* The guard passes unless a rebinding happened meanwhile. */
		LLVMMetadataRef w[3] = {
			LLVMMDStringInContext2(c, "branch_weights", 14),
			LLVMValueAsMetadata(LLVMConstInt(g->i32, 2000, 0)),
			LLVMValueAsMetadata(LLVMConstInt(g->i32, 1, 0)),
		};

		LLVMSetMetadata(br, LLVMGetMDKindIDInContext(c, "prof", 4),
				LLVMMetadataAsValue(c, LLVMMDNodeInContext2(c, w, 3)));
	}

	LLVMPositionBuilderAtEnd(g->b, fast);
	LLVMBuildStore(g->b, LLVMBuildLoad2(g->b, g->ptr, parent, "evs"), frame);
	LLVMBuildStore(g->b, LLVMBuildLoad2(g->b, g->ptr, at(g, parent, 8), "user"),
		       at(g, frame, 8));
	LLVMBuildStore(g->b, LLVMConstInt(g->i32, ev->idx, 0), at(g, frame, 16));
	depth = LLVMBuildLoad2(g->b, g->i32, at(g, parent, 20), "depth");
	LLVMBuildStore(g->b, LLVMBuildAdd(g->b, depth, LLVMConstInt(g->i32, 1, 0), ""),
		       at(g, frame, 20));
	LLVMBuildStore(g->b, LLVMConstInt(g->i32, UINT32_MAX, 0), at(g, frame, 24));
	margs[0] = frame;
	for (i = 0; i < SPEC_EV_MAX_ARGS; i++)
		margs[i + 1] = LLVMBuildLoad2(g->b, g->i64, at(g, args, 8ull * i), "");
	LLVMBuildCall2(g->b, g->m_ty, g->mfn[e], margs, SPEC_EV_MAX_ARGS + 1, "");
	LLVMBuildRetVoid(g->b);

	LLVMPositionBuilderAtEnd(g->b, slow);
	fargs[0] = parent;
	fargs[1] = addr_const(g, ev->event);
	fargs[2] = args;
	LLVMBuildCall2(g->b, g->raise_ty, g->fallback, fargs, 3, "");
	LLVMBuildRetVoid(g->b);
	set_attr(g, fn, "alwaysinline");
}

static void gen_types(struct gen *g)
{
	LLVMContextRef c = g->j->ctx;
	LLVMTypeRef p[SPEC_EV_MAX_ARGS + 1], f[6];
	int i;

	g->i8 = LLVMInt8TypeInContext(c);
	g->i32 = LLVMInt32TypeInContext(c);
	g->i64 = LLVMInt64TypeInContext(c);
	g->ptr = LLVMPointerTypeInContext(c, 0);
	g->vd = LLVMVoidTypeInContext(c);
	f[0] = f[1] = g->ptr;
	f[2] = f[3] = f[4] = f[5] = g->i32;
	g->ctx_ty = LLVMStructTypeInContext(c, f, 6, 0);
	p[0] = g->ptr;
	for (i = 1; i <= SPEC_EV_MAX_ARGS; i++)
		p[i] = g->i64;
	g->m_ty = LLVMFunctionType(g->vd, p, SPEC_EV_MAX_ARGS + 1, 0);
	p[1] = g->ptr;
	g->s_ty = LLVMFunctionType(g->vd, p, 2, 0);
	p[2] = g->ptr;
	g->h_ty = LLVMFunctionType(g->vd, p, 3, 0);
	g->raise_ty = g->h_ty;
}

/* Declare E.m and E.s of every merged event; names of the E.m into @names. */
static int declare(struct gen *g, char **names)
{
	char name[64];
	size_t e;

	for (e = 0; e < g->req->n; e++) {
		snprintf(name, sizeof(name), "__ev.%u.m%u", g->req->events[e].idx, g->req->id);
		names[e] = strdup(name);
		if (!names[e])
			return -ENOMEM;
		g->mfn[e] = LLVMAddFunction(g->m, name, g->m_ty);
		snprintf(name, sizeof(name), "__ev.%u.s%u", g->req->events[e].idx, g->req->id);
		g->sfn[e] = LLVMAddFunction(g->m, name, g->s_ty);
		LLVMSetLinkage(g->sfn[e], LLVMInternalLinkage);
	}
	g->fallback = LLVMGetNamedFunction(g->m, "__spec_ev_raise_ev");
	if (!g->fallback)
		g->fallback = LLVMAddFunction(g->m, "__spec_ev_raise_ev", g->raise_ty);
	return 0;
}

/* Only the entries stay visible: the optimizer may drop everything else
 * once it is inlined.
 */
static void internalize(struct gen *g)
{
	LLVMValueRef f;
	size_t e;

	for (f = LLVMGetFirstFunction(g->m); f; f = LLVMGetNextFunction(f)) {
		if (LLVMIsDeclaration(f))
			continue;
		for (e = 0; e < g->req->n && g->mfn[e] != f; e++)
			;
		if (e == g->req->n)
			LLVMSetLinkage(f, LLVMInternalLinkage);
	}
}

static int generate(struct gen *g, char **names, uint32_t *into, size_t *nr_sites, char *err,
		    size_t errsz)
{
	LLVMValueRef raise = LLVMGetNamedFunction(g->m, "__spec_ev_raise");
	size_t e;
	int ret;

	ret = declare(g, names);
	if (ret)
		return ret;
	jit_chain_raisers(g->j, g->m, g->req, raise, into);
	*nr_sites =
		g->req->subsume ? jit_chain_subsume(g->m, g->b, g->req, raise, g->sfn, g->s_ty) : 0;
	if (!g->req->subsume) {
		for (e = 0; e < g->req->n; e++)
			into[e] = UINT32_MAX;
	}
	for (e = 0; e < g->req->n; e++) {
		ret = emit_merged(g, e, err, errsz);
		if (ret)
			return ret;
		emit_subsumed(g, e);
	}
	internalize(g);
	return 0;
}

static int optimize(struct gen *g, char *err, size_t errsz)
{
	LLVMPassBuilderOptionsRef pbo;
	char *msg = NULL;
	LLVMErrorRef e;

	if (LLVMVerifyModule(g->m, LLVMReturnStatusAction, &msg)) {
		snprintf(err, errsz, "verifier (merged events): %s", msg);
		LLVMDisposeMessage(msg);
		return -EINVAL;
	}
	LLVMDisposeMessage(msg);
	pbo = LLVMCreatePassBuilderOptions();
	e = LLVMRunPasses(g->m, g->req->pipeline, g->j->tm, pbo);
	LLVMDisposePassBuilderOptions(pbo);
	if (e) {
		jit_errmsg(e, "merged events pipeline", err, errsz);
		return -EINVAL;
	}
	return 0;
}

/* LIBSPEC_DUMP_IR=<dir>: keep the optimized merged module, as for variants. */
static void dump_ir(LLVMModuleRef m, unsigned int id)
{
	const char *dir = getenv("LIBSPEC_DUMP_IR");
	char path[512], *msg = NULL;

	if (!dir || !*dir)
		return;
	snprintf(path, sizeof(path), "%s/merged-%d-%u.ll", dir, (int)getpid(), id);
	if (LLVMPrintModuleToFile(m, path, &msg))
		LLVMDisposeMessage(msg);
}

int jit_event_build(struct jit *j, const struct jit_ev_req *req, struct jit_code **code,
		    uint64_t *addrs, uint32_t *subsumed_into, size_t *nr_sites, char *err,
		    size_t errsz)
{
	struct jit_variant_req vreq = {.id = req->id, .pipeline = req->pipeline};
	struct gen g = {.j = j, .req = req};
	char **names = calloc(req->n + 1, sizeof(*names));
	bool *dirty = NULL;
	size_t i;
	int ret;

	g.mfn = calloc(req->n + 1, sizeof(*g.mfn));
	g.sfn = calloc(req->n + 1, sizeof(*g.sfn));
	if (!names || !g.mfn || !g.sfn) {
		ret = -ENOMEM;
		goto out;
	}
	/* Which handlers the specializer compiles anew; merging needs no list. */
	dirty = calloc(j->nr_handlers ? j->nr_handlers : 1, sizeof(*dirty));
	if (!dirty) {
		ret = -ENOMEM;
		goto out;
	}
	g.m = LLVMCloneModule(j->master);
	g.b = LLVMCreateBuilderInContext(j->ctx);
	gen_types(&g);
	ret = jit_spec_apply(j, g.m, &vreq, dirty, err, errsz);
	if (!ret)
		ret = generate(&g, names, subsumed_into, nr_sites, err, errsz);
	if (!ret)
		ret = optimize(&g, err, errsz);
	if (!ret)
		dump_ir(g.m, req->id);
	LLVMDisposeBuilder(g.b);
	if (ret) {
		LLVMDisposeModule(g.m);
		goto out;
	}
	/* The JIT owns the module from here, even on failure. */
	ret = jit_add_and_lookup(j, g.m, names, req->n, addrs, code, err, errsz);
out:
	for (i = 0; names && i < req->n; i++)
		free(names[i]);
	free(names);
	free(dirty);
	free(g.mfn);
	free(g.sfn);
	return ret;
}

int jit_event_check_handler(struct jit *j, size_t h, char *err, size_t errsz)
{
	const char *name = jit_handler_name(j, h);
	LLVMValueRef fn = name ? LLVMGetNamedFunction(j->master, name) : NULL;
	LLVMTypeRef ty, params[3];
	unsigned int i;

	if (!fn)
		return -ENOENT;
	ty = LLVMGlobalGetValueType(fn);
	if (LLVMGetTypeKind(LLVMGetReturnType(ty)) != LLVMVoidTypeKind ||
	    LLVMCountParamTypes(ty) != 3 || LLVMIsFunctionVarArg(ty))
		goto bad;
	LLVMGetParamTypes(ty, params);
	for (i = 0; i < 3; i++) {
		if (LLVMGetTypeKind(params[i]) != LLVMPointerTypeKind)
			goto bad;
	}
	return 0;
bad:
	snprintf(err, errsz,
		 "handler '%s' is not void (struct spec_ev_ctx *, const int64_t *, "
		 "const int64_t *)",
		 name);
	return -EINVAL;
}
