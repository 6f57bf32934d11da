// SPDX-License-Identifier: GPL-2.0
/*
 * Code generation for merged event handlers. The module is a clone of the
 * handler IR made like a variant (markers generic, mutable state shared
 * with the generic variant), to which we add, per merged event E:
 *
 *   E.i(ctx, a0..a3): the body, always inlined: the argument record for the
 *     handlers (SROA keeps it in registers once they are inlined), then each
 *     bound handler, itself always inlined, with its binding's arguments as
 *     a private constant (the loads fold).
 *   E.m(ctx, a0..a3): the entry dispatch calls, around E.i.
 *   E.s(ctx, a0..a3): what a synchronous raise of E inside merged code
 *     becomes (jit_event_chain.c): a guard reading E's bindings version,
 *     then E.i on the raiser's own context (event, depth and handler set for
 *     the call and restored after it: no frame is built), or, if the guard
 *     fails, the generic raise with the arguments in registers.
 *   E.c: E.s calling E.m instead of E.i, for sites in a raise cycle.
 *
 * Everything but the E.m entries becomes internal, so the optimizer keeps
 * only what the merged functions need.
 */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "jit/jit_event_emit.h"
#include "jit/jit_ir.h"
#include "jit/jit_spec.h"

_Static_assert(offsetof(struct spec_ev_ctx, evs) == 0 && offsetof(struct spec_ev_ctx, user) == 8 &&
		       offsetof(struct spec_ev_ctx, event) == 16 &&
		       offsetof(struct spec_ev_ctx, depth) == 20 &&
		       offsetof(struct spec_ev_ctx, handler) == 24 &&
		       offsetof(struct spec_ev_ctx, sz) == 28 && sizeof(struct spec_ev_ctx) == 32,
	       "the IR below builds struct spec_ev_ctx by these offsets");

LLVMValueRef jit_event_handler_fn(struct jit *j, LLVMModuleRef m, unsigned int id, uint32_t h)
{
	char name[512];

	snprintf(name, sizeof(name), "%s.v%u", jit_handler_name(j, h), id);
	return LLVMGetNamedFunction(m, name);
}

static void gen_types(struct gen *g)
{
	LLVMContextRef c = g->j->ctx;
	LLVMTypeRef p[SPEC_EV_MAX_ARGS + 2], f[6];
	int i;

	g->i8 = LLVMInt8TypeInContext(c);
	g->i32 = LLVMInt32TypeInContext(c);
	g->i64 = LLVMInt64TypeInContext(c);
	g->ptr = LLVMPointerTypeInContext(c, 0);
	g->vd = LLVMVoidTypeInContext(c);
	f[0] = f[1] = g->ptr;
	f[2] = f[3] = f[4] = f[5] = g->i32;
	g->ctx_ty = LLVMStructTypeInContext(c, f, 6, 0);
	p[0] = p[1] = g->ptr;
	for (i = 2; i < SPEC_EV_MAX_ARGS + 2; i++)
		p[i] = g->i64;
	g->raise4_ty = LLVMFunctionType(g->vd, p, SPEC_EV_MAX_ARGS + 2, 0);
	g->m_ty = LLVMFunctionType(g->vd, p + 1, SPEC_EV_MAX_ARGS + 1, 0);
	p[1] = p[2] = g->ptr;
	g->r_ty = LLVMFunctionType(g->vd, p, 2, 0);
	g->h_ty = LLVMFunctionType(g->vd, p, 3, 0);
	g->raise_ty = g->h_ty;
}

static LLVMValueRef add_internal(struct gen *g, size_t e, char kind, LLVMTypeRef ty)
{
	char name[64];
	LLVMValueRef fn;

	snprintf(name, sizeof(name), "__ev.%u.%c%u", g->req->events[e].idx, kind, g->req->id);
	fn = LLVMAddFunction(g->m, name, ty);
	LLVMSetLinkage(fn, LLVMInternalLinkage);
	return fn;
}

static LLVMValueRef helper(struct gen *g, const char *name, LLVMTypeRef ty)
{
	LLVMValueRef fn = LLVMGetNamedFunction(g->m, name);

	return fn ? fn : LLVMAddFunction(g->m, name, ty);
}

/* Declare every merged event's functions; names of the E.m into @names. */
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
		g->ifn[e] = add_internal(g, e, 'i', g->m_ty);
		g->sfn[e] = add_internal(g, e, 's', g->m_ty);
		g->cfn[e] = add_internal(g, e, 'c', g->m_ty);
		g->rfn[e] = add_internal(g, e, 'r', g->r_ty);
	}
	g->fallback = helper(g, "__spec_ev_raise_ev", g->raise_ty);
	g->fallback4 = helper(g, "__spec_ev_raise_ev4", g->raise4_ty);
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

static int generate(struct gen *g, char **names, struct jit_ev_out *out, char *err, size_t errsz)
{
	LLVMValueRef raise = LLVMGetNamedFunction(g->m, "__spec_ev_raise");
	struct jit_chain_fns fns;
	struct jit_chain_sites sites = {0};
	size_t e, h = 0;
	int ret;

	ret = declare(g, names);
	if (!ret)
		ret = jit_ev_find_handlers(g, err, errsz);
	if (ret)
		return ret;
	fns = (struct jit_chain_fns){
		.s_ty = g->m_ty, .rec_ty = g->r_ty, .inl = g->sfn, .call = g->cfn, .rec = g->rfn};
	jit_chain_raisers(g->req, g->req->subsume ? raise : NULL, g->hfn, out->subsumed_into);
	if (g->req->subsume) {
		ret = jit_chain_subsume(g->m, g->b, g->req, raise, g->hfn, &fns, &sites);
		if (ret)
			return ret;
	}
	out->inlined = sites.inlined;
	out->called = sites.called;
	for (e = 0; e < g->req->n; e++) {
		jit_ev_emit_body(g, e, h);
		h += g->req->events[e].n;
		jit_ev_emit_entry(g, e);
		jit_ev_emit_guarded(g, e, g->sfn[e], g->ifn[e]);
		jit_ev_force_inline(g, g->sfn[e]);
		jit_ev_emit_guarded(g, e, g->cfn[e], g->mfn[e]);
		jit_ev_emit_marshalled(g, e);
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

/*
 * LIBSPEC_DUMP_IR=<dir>: keep the optimized merged module, as for variants;
 * the JIT's address tells the modules of two runtimes of a process apart.
 */
static void dump_ir(struct jit *j, LLVMModuleRef m, unsigned int id)
{
	const char *dir = getenv("LIBSPEC_DUMP_IR");
	char path[512], *msg = NULL;

	if (!dir || !*dir)
		return;
	snprintf(path, sizeof(path), "%s/merged-%d-%lx-%u.ll", dir, (int)getpid(),
		 (unsigned long)(uintptr_t)j, id);
	if (LLVMPrintModuleToFile(m, path, &msg))
		LLVMDisposeMessage(msg);
}

static int gen_alloc(struct gen *g, size_t n)
{
	size_t e, nh = 0;

	for (e = 0; e < n; e++)
		nh += g->req->events[e].n;
	g->mfn = calloc(5 * (n + 1) + nh, sizeof(*g->mfn));
	if (!g->mfn)
		return -ENOMEM;
	g->ifn = g->mfn + (n + 1);
	g->sfn = g->ifn + (n + 1);
	g->cfn = g->sfn + (n + 1);
	g->rfn = g->cfn + (n + 1);
	g->hfn = g->rfn + (n + 1);
	return 0;
}

int jit_event_build(struct jit *j, const struct jit_ev_req *req, struct jit_code **code,
		    struct jit_ev_out *out, char *err, size_t errsz)
{
	struct jit_variant_req vreq = {.id = req->id, .pipeline = req->pipeline};
	struct gen g = {.j = j, .req = req};
	char **names = calloc(req->n + 1, sizeof(*names));
	bool *dirty = NULL;
	size_t i;
	int ret;

	ret = names ? gen_alloc(&g, req->n) : -ENOMEM;
	/* Which handlers the specializer compiles anew; merging needs no list. */
	if (!ret)
		dirty = calloc(j->nr_handlers ? j->nr_handlers : 1, sizeof(*dirty));
	if (ret || !dirty) {
		ret = -ENOMEM;
		goto out;
	}
	g.m = LLVMCloneModule(j->master);
	g.b = LLVMCreateBuilderInContext(j->ctx);
	gen_types(&g);
	ret = jit_spec_apply(j, g.m, &vreq, dirty, err, errsz);
	if (!ret)
		ret = generate(&g, names, out, err, errsz);
	if (!ret)
		ret = optimize(&g, err, errsz);
	if (!ret) {
		dump_ir(j, g.m, req->id);
		if (req->keep_ir) {
			char *text = LLVMPrintModuleToString(g.m);

			out->ir = text ? strdup(text) : NULL;
			LLVMDisposeMessage(text);
		}
	}
	LLVMDisposeBuilder(g.b);
	if (ret) {
		LLVMDisposeModule(g.m);
		goto out;
	}
	/* The JIT owns the module from here, even on failure. */
	ret = jit_add_and_lookup(j, g.m, names, req->n, out->addrs, code, err, errsz);
out:
	for (i = 0; names && i < req->n; i++)
		free(names[i]);
	free(names);
	free(dirty);
	free(g.mfn);
	return ret;
}

bool jit_event_any_handler(struct jit *j)
{
	char msg[256];
	size_t h;

	for (h = 0; h < j->nr_handlers; h++) {
		if (!jit_event_check_handler(j, h, msg, sizeof(msg)))
			return true;
	}
	return false;
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
