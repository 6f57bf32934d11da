// SPDX-License-Identifier: GPL-2.0
/*
 * The specializer: turns a clone of the handler IR into one variant by
 * replacing every marker call, then renames what the variant defines so
 * that all variants live side by side in one JITDylib:
 *  - the generic variant (id 0) exports every function as <name>.v0 (also
 *    static ones: guards of any function fall back to them) and owns the
 *    mutable globals, exported as <name>.v0;
 *  - variant k exports its external functions as <name>.vk and refers to
 *    the generic variant's globals, so state survives swaps.
 */
#include <dlfcn.h>
#include <stdlib.h>
#include <string.h>

#include "config.h"
#include "jit/jit_spec.h"
#include "jit/jit_tls.h"
#include "jit/jit_ir.h"
#include "jit/jit_guard.h"
#include "jit/jit_gen.h"
#include "jit/jit_scope.h"

struct marker {
	LLVMValueRef call, fn;
	enum spec_point_kind kind;
	struct spec_point *p;
	struct guard_site gs;
};

struct spec_ctx {
	struct jit *j;
	LLVMModuleRef m;
	const struct jit_variant_req *req;
	LLVMTypeRef i64, ptr;
	char *err;
	size_t errsz;
};

static LLVMValueRef ok_equals(LLVMBuilderRef b, LLVMValueRef v, void *arg)
{
	return LLVMBuildICmp(b, LLVMIntEQ, v, arg, "spec.ok");
}

static LLVMValueRef ok_in_range(LLVMBuilderRef b, LLVMValueRef v, void *arg)
{
	const struct spec_point *p = arg;
	LLVMTypeRef ty = LLVMTypeOf(v);
	LLVMValueRef lo, hi;

	lo = LLVMBuildICmp(b, LLVMIntSGE, v, LLVMConstInt(ty, (unsigned long long)p->lo, 1), "");
	hi = LLVMBuildICmp(b, LLVMIntSLE, v, LLVMConstInt(ty, (unsigned long long)p->hi, 1), "");
	return LLVMBuildAnd(b, lo, hi, "spec.ok");
}

static LLVMValueRef ok_nonzero(LLVMBuilderRef b, LLVMValueRef v, void *arg)
{
	(void)arg;
	return LLVMBuildICmp(b, LLVMIntNE, v, LLVMConstNull(LLVMTypeOf(v)), "spec.ok");
}

/* Declaration of the generic version of @fn in the variant. */
static LLVMValueRef generic_of(struct spec_ctx *c, LLVMValueRef fn)
{
	char name[512];
	const char *orig = LLVMGetValueName2(fn, &(size_t){0});

	snprintf(name, sizeof(name), "%s.v0", orig);
	return jit_helper(c->m, name, LLVMGlobalGetValueType(fn));
}

/* The Nth call's (or a cache miss's) call into the sampler. */
static void call_sample(struct jit *j, LLVMModuleRef m, LLVMBuilderRef b, struct spec_point *p,
			const struct jit_sample_vals *v, uint32_t every)
{
	LLVMTypeRef i32 = LLVMInt32TypeInContext(j->ctx), i64 = LLVMInt64TypeInContext(j->ctx);
	LLVMTypeRef ptr = LLVMPointerTypeInContext(j->ctx, 0), ty;
	LLVMValueRef args[5] = {jit_host_ptr(j, p), v->lo};

	if (!v->out) {
		args[2] = LLVMConstInt(i32, every, 0);
		ty = LLVMFunctionType(LLVMVoidTypeInContext(j->ctx), (LLVMTypeRef[]){ptr, i64, i32},
				      3, 0);
		LLVMBuildCall2(b, ty, jit_helper(m, "__spec_rt_sample", ty), args, 3, "");
		return;
	}
	args[2] = v->hi ? v->hi : LLVMConstNull(i64);
	args[3] = v->out;
	args[4] = LLVMConstInt(i32, every, 0);
	ty = LLVMFunctionType(LLVMVoidTypeInContext(j->ctx),
			      (LLVMTypeRef[]){ptr, i64, i64, i64, i32}, 5, 0);
	LLVMBuildCall2(b, ty, jit_helper(m, "__spec_rt_sample_io", ty), args, 5, "");
}

void jit_emit_sample(struct jit *j, LLVMBuilderRef b, LLVMValueRef at, LLVMValueRef fn,
		     struct spec_point *p, const struct jit_sample_vals *v, uint32_t every)
{
	LLVMTypeRef i32 = LLVMInt32TypeInContext(j->ctx), i64 = LLVMInt64TypeInContext(j->ctx);
	LLVMTypeRef ptr = LLVMPointerTypeInContext(j->ctx, 0);
	LLVMModuleRef m = LLVMGetGlobalParent(fn);
	LLVMBasicBlockRef head, cont, slow, dec;
	LLVMValueRef rec, cd, slot, n, idx;

	if (!j->tls_ok) {
		LLVMPositionBuilderBefore(b, at);
		call_sample(j, m, b, p, v, every);
		return;
	}
	head = LLVMGetInstructionParent(at);
	cont = jit_split_before(j, at);
	slow = LLVMInsertBasicBlockInContext(j->ctx, cont, "sample.slow");
	dec = LLVMInsertBasicBlockInContext(j->ctx, cont, "sample.skip");
	LLVMPositionBuilderAtEnd(b, head);
	rec = jit_tls_rec(j, b, fn, j->dom, j->cache != NULL, slow);
	cd = LLVMBuildLoad2(b, ptr, jit_tls_field(j, b, rec, j->tls.off_countdown), "cd");
	idx = LLVMConstInt(i64, p->idx, 0);
	slot = LLVMBuildGEP2(b, i32, cd, &idx, 1, "");
	n = LLVMBuildLoad2(b, i32, slot, "left");
	jit_mark_likely(
		j, LLVMBuildCondBr(b, LLVMBuildICmp(b, LLVMIntUGT, n, LLVMConstInt(i32, 1, 0), ""),
				   dec, slow));
	LLVMPositionBuilderAtEnd(b, dec);
	LLVMBuildStore(b, LLVMBuildSub(b, n, LLVMConstInt(i32, 1, 0), ""), slot);
	LLVMBuildBr(b, cont);
	LLVMPositionBuilderAtEnd(b, slow);
	call_sample(j, m, b, p, v, every);
	LLVMBuildBr(b, cont);
	LLVMPositionBuilderBefore(b, at);
}

/*
 * Sample x at the marker. The countdown of this thread is decremented
 * inline when its record is at hand; the Nth call (and any cache miss)
 * calls spec_rt_sample(), which does the same check and records.
 */
static void emit_sample(struct spec_ctx *c, LLVMBuilderRef b, struct marker *mk, LLVMValueRef x,
			uint32_t every)
{
	struct jit_sample_vals v = {.lo = x};

	jit_emit_sample(c->j, b, mk->call, mk->fn, mk->p, &v, every);
}

static const struct jit_setting *setting_of(struct spec_ctx *c, const struct spec_point *p)
{
	static const struct jit_setting off;

	return c->req->settings ? &c->req->settings[p->idx] : &off;
}

static int guard(struct spec_ctx *c, struct marker *mk, LLVMValueRef v,
		 LLVMValueRef (*build_ok)(LLVMBuilderRef, LLVMValueRef, void *), void *arg)
{
	return jit_guard_emit(c->j, &mk->gs, v, build_ok, arg, mk->p, generic_of(c, mk->fn), c->err,
			      c->errsz);
}

static int apply_value(struct spec_ctx *c, LLVMBuilderRef b, struct marker *mk)
{
	const struct jit_setting *s = setting_of(c, mk->p);
	LLVMValueRef x = LLVMGetOperand(mk->call, 3), k;

	LLVMPositionBuilderBefore(b, mk->call);
	if (s->every)
		emit_sample(c, b, mk, x, s->every);
	if (s->mode == CFG_ENABLED) {
		/* A range point enabled without a value: assume lo <= x <= hi. */
		LLVMTypeRef i1 = LLVMInt1TypeInContext(c->j->ctx);
		unsigned int id = LLVMLookupIntrinsicID("llvm.assume", 11);

		if (s->guard) {
			int ret = guard(c, mk, x, ok_in_range, mk->p);

			if (ret)
				return ret;
		}
		LLVMPositionBuilderBefore(b, mk->call);
		LLVMBuildCall2(b, LLVMFunctionType(LLVMVoidTypeInContext(c->j->ctx), &i1, 1, 0),
			       LLVMGetIntrinsicDeclaration(c->m, id, NULL, 0),
			       (LLVMValueRef[]){ok_in_range(b, x, mk->p)}, 1, "");
	}
	if (s->mode != CFG_VALUE) {
		LLVMReplaceAllUsesWith(mk->call, x);
		LLVMInstructionEraseFromParent(mk->call);
		return 0;
	}
	k = LLVMConstInt(c->i64, (unsigned long long)s->value, 1);
	LLVMReplaceAllUsesWith(mk->call, k);
	if (s->guard) {
		int ret = guard(c, mk, x, ok_equals, k);

		if (ret)
			return ret;
	}
	LLVMInstructionEraseFromParent(mk->call);
	return 0;
}

/*
 * The function of the module at runtime address @addr: a process symbol
 * whose body the IR also defines (the same source), or one of the module's
 * own functions whose generic copy (<name>.v0) lives there. NULL if none.
 */
static LLVMValueRef function_at(struct spec_ctx *c, uint64_t addr)
{
	LLVMValueRef f;
	Dl_info info;
	char name[512];

	if (dladdr((void *)(uintptr_t)addr, &info) && info.dli_sname &&
	    (uintptr_t)info.dli_saddr == (uintptr_t)addr) {
		f = LLVMGetNamedFunction(c->m, info.dli_sname);
		if (f && !LLVMIsDeclaration(f))
			return f;
	}
	for (f = LLVMGetFirstFunction(c->m); f; f = LLVMGetNextFunction(f)) {
		LLVMOrcExecutorAddress a;
		LLVMErrorRef e;

		if (LLVMIsDeclaration(f) || jit_ir_marker_kind(f))
			continue;
		snprintf(name, sizeof(name), "%s.v0", LLVMGetValueName2(f, &(size_t){0}));
		e = LLVMOrcLLJITLookup(c->j->lljit, &a, name);
		if (e) {
			LLVMConsumeError(e);
			continue;
		}
		if (a == addr)
			return f;
	}
	return NULL;
}

/* A pointer point set to an address: the constant (the function itself
 * when the module has it, so the call can be inlined) behind p == address.
 */
static int apply_ptr(struct spec_ctx *c, LLVMBuilderRef b, struct marker *mk)
{
	const struct jit_setting *s = setting_of(c, mk->p);
	LLVMValueRef x = LLVMGetOperand(mk->call, 3), k, target;

	LLVMPositionBuilderBefore(b, mk->call);
	if (s->every)
		emit_sample(c, b, mk, LLVMBuildPtrToInt(b, x, c->i64, ""), s->every);
	if (s->mode != CFG_VALUE) {
		LLVMReplaceAllUsesWith(mk->call, x);
		LLVMInstructionEraseFromParent(mk->call);
		return 0;
	}
	k = jit_host_ptr(c->j, (const void *)(uintptr_t)s->value);
	target = function_at(c, (uint64_t)s->value);
	LLVMReplaceAllUsesWith(mk->call, target ? target : k);
	if (s->guard) {
		int ret = guard(c, mk, x, ok_equals, k);

		if (ret)
			return ret;
	}
	LLVMInstructionEraseFromParent(mk->call);
	return 0;
}

static int apply_assume(struct spec_ctx *c, LLVMBuilderRef b, struct marker *mk)
{
	const struct jit_setting *s = setting_of(c, mk->p);
	LLVMValueRef cond = LLVMGetOperand(mk->call, 3), bit, assume;
	unsigned int id;
	LLVMTypeRef i1 = LLVMInt1TypeInContext(c->j->ctx);

	if (s->mode == CFG_ENABLED) {
		if (s->guard) {
			int ret = guard(c, mk, cond, ok_nonzero, NULL);

			if (ret)
				return ret;
		}
		LLVMPositionBuilderBefore(b, mk->call);
		bit = LLVMBuildICmp(b, LLVMIntNE, cond, LLVMConstNull(LLVMTypeOf(cond)), "");
		id = LLVMLookupIntrinsicID("llvm.assume", 11);
		assume = LLVMGetIntrinsicDeclaration(c->m, id, NULL, 0);
		LLVMBuildCall2(b, LLVMFunctionType(LLVMVoidTypeInContext(c->j->ctx), &i1, 1, 0),
			       assume, &bit, 1, "");
	}
	LLVMInstructionEraseFromParent(mk->call);
	return 0;
}

/* fn(x) with x and the result converted like the C call would. */
static LLVMValueRef call_custom(struct spec_ctx *c, LLVMBuilderRef b, LLVMValueRef fn,
				LLVMValueRef x)
{
	LLVMTypeRef fty = LLVMGlobalGetValueType(fn), pty;
	LLVMValueRef arg, r;

	LLVMGetParamTypes(fty, &pty);
	arg = LLVMBuildIntCast2(b, x, pty, 1, "");
	r = LLVMBuildCall2(b, fty, fn, &arg, 1, "");
	return LLVMBuildIntCast2(b, r, c->i64, 1, "");
}

/* Enabled custom point: switch over the generator's cases, fn(x) otherwise. */
static void custom_cases(struct spec_ctx *c, LLVMBuilderRef b, struct marker *mk,
			 const struct jit_setting *s)
{
	LLVMValueRef fn = LLVMGetOperand(mk->call, 3), x = LLVMGetOperand(mk->call, 4);
	LLVMBasicBlockRef head = LLVMGetInstructionParent(mk->call), cont, dflt;
	LLVMValueRef sw, phi, r;
	size_t i;

	cont = jit_split_before(c->j, mk->call);
	dflt = LLVMInsertBasicBlockInContext(c->j->ctx, cont, "spec.custom.call");
	LLVMPositionBuilderAtEnd(b, head);
	sw = LLVMBuildSwitch(b, x, dflt, (unsigned int)s->nr_cases);
	LLVMPositionBuilderAtEnd(b, dflt);
	r = call_custom(c, b, fn, x);
	LLVMBuildBr(b, cont);
	LLVMPositionBuilderBefore(b, mk->call);
	phi = LLVMBuildPhi(b, c->i64, "spec.custom");
	LLVMAddIncoming(phi, &r, &dflt, 1);
	for (i = 0; i < s->nr_cases; i++) {
		LLVMBasicBlockRef cb = LLVMInsertBasicBlockInContext(c->j->ctx, cont, "spec.case");
		LLVMValueRef out = LLVMConstInt(c->i64, (unsigned long long)s->cases[i].out, 1);

		LLVMAddCase(sw, LLVMConstInt(c->i64, (unsigned long long)s->cases[i].in, 1), cb);
		LLVMPositionBuilderAtEnd(b, cb);
		LLVMBuildBr(b, cont);
		LLVMAddIncoming(phi, &out, &cb, 1);
	}
	LLVMReplaceAllUsesWith(mk->call, phi);
}

static int apply_custom(struct spec_ctx *c, LLVMBuilderRef b, struct marker *mk)
{
	const struct jit_setting *s = setting_of(c, mk->p);
	LLVMValueRef fn = LLVMGetOperand(mk->call, 3), x = LLVMGetOperand(mk->call, 4);

	LLVMPositionBuilderBefore(b, mk->call);
	if (s->every)
		emit_sample(c, b, mk, x, s->every);
	if (s->mode == CFG_ENABLED && s->nr_cases)
		custom_cases(c, b, mk, s);
	else
		LLVMReplaceAllUsesWith(mk->call, call_custom(c, b, fn, x));
	LLVMInstructionEraseFromParent(mk->call);
	return 0;
}

/* Collect every marker, classifying guard sites before anything moves. */
static int collect(struct spec_ctx *c, struct marker **out, size_t *n)
{
	LLVMValueRef fn, inst;
	LLVMBasicBlockRef bb;
	size_t cap = 0;

	*out = NULL;
	*n = 0;
	for (fn = LLVMGetFirstFunction(c->m); fn; fn = LLVMGetNextFunction(fn)) {
		for (bb = LLVMGetFirstBasicBlock(fn); bb; bb = LLVMGetNextBasicBlock(bb)) {
			for (inst = LLVMGetFirstInstruction(bb); inst;
			     inst = LLVMGetNextInstruction(inst)) {
				enum spec_point_kind kind = jit_ir_marker_kind(inst);
				struct marker *mk;

				if (!kind)
					continue;
				if (*n == cap) {
					cap = cap ? 2 * cap : 16;
					mk = realloc(*out, cap * sizeof(*mk));
					if (!mk)
						return -ENOMEM;
					*out = mk;
				}
				mk = &(*out)[(*n)++];
				mk->call = inst;
				mk->fn = fn;
				mk->kind = kind;
				mk->p = points_find(c->j->pts,
						    jit_ir_cstring(LLVMGetOperand(inst, 0)));
				if (!mk->p)
					return -EINVAL;
				if (kind != SPEC_POINT_GEN)
					jit_guard_classify(
						fn, inst,
						LLVMGetOperand(inst,
							       kind == SPEC_POINT_CUSTOM ? 4 : 3),
						&mk->gs);
			}
		}
	}
	return 0;
}

static void rename_value(LLVMValueRef v, const char *base, unsigned int id)
{
	char name[512];

	snprintf(name, sizeof(name), "%s.v%u", base, id);
	LLVMSetValueName2(v, name, strlen(name));
}

static void rename_defs(struct spec_ctx *c, const struct jit_scope *sc)
{
	unsigned int id = c->req->id;
	LLVMValueRef v, next;
	char base[480];

	for (v = LLVMGetFirstFunction(c->m); v; v = next) {
		next = LLVMGetNextFunction(v);
		if (LLVMIsDeclaration(v))
			continue;
		snprintf(base, sizeof(base), "%s", LLVMGetValueName2(v, &(size_t){0}));
		if (id && !jit_scope_dirty(sc, v)) {
			/* Unchanged: the generic variant's code, inlinable here. */
			LLVMSetLinkage(v, LLVMAvailableExternallyLinkage);
			LLVMSetVisibility(v, LLVMDefaultVisibility);
			rename_value(v, base, 0);
			continue;
		}
		if (id && LLVMGetLinkage(v) != LLVMExternalLinkage)
			continue;
		LLVMSetLinkage(v, LLVMExternalLinkage);
		LLVMSetVisibility(v, LLVMDefaultVisibility);
		rename_value(v, base, id);
	}
	for (v = LLVMGetFirstGlobal(c->m); v; v = LLVMGetNextGlobal(v)) {
		if (LLVMIsDeclaration(v))
			continue;
		snprintf(base, sizeof(base), "%s", LLVMGetValueName2(v, &(size_t){0}));
		if (LLVMIsGlobalConstant(v)) {
			if (LLVMGetLinkage(v) == LLVMExternalLinkage)
				rename_value(v, base, id);
			continue;
		}
		/* Mutable state: defined once, by the generic variant. */
		LLVMSetLinkage(v, LLVMExternalLinkage);
		LLVMSetVisibility(v, LLVMDefaultVisibility);
		if (id) {
			LLVMSetInitializer(v, NULL);
			LLVMSetSection(v, "");
		}
		rename_value(v, base, 0);
	}
}

int jit_spec_apply(struct jit *j, LLVMModuleRef m, const struct jit_variant_req *req,
		   bool *handler_dirty, char *err, size_t errsz)
{
	struct spec_ctx c = {.j = j, .m = m, .req = req, .err = err, .errsz = errsz};
	LLVMBuilderRef b;
	struct jit_scope sc;
	struct marker *mks;
	size_t n, i;
	int ret;

	ret = jit_scope_compute(j, m, req, &sc);
	if (ret) {
		snprintf(err, errsz, "out of memory");
		return ret;
	}
	for (i = 0; i < j->nr_handlers; i++)
		handler_dirty[i] = jit_scope_dirty(&sc, LLVMGetNamedFunction(m, j->handlers[i]));
	b = LLVMCreateBuilderInContext(j->ctx);
	c.i64 = LLVMInt64TypeInContext(j->ctx);
	c.ptr = LLVMPointerTypeInContext(j->ctx, 0);
	ret = collect(&c, &mks, &n);
	if (ret)
		snprintf(err, errsz, "collecting points: %s", strerror(-ret));
	for (i = 0; !ret && i < n; i++) {
		switch (mks[i].kind) {
		case SPEC_POINT_ASSUME:
			ret = apply_assume(&c, b, &mks[i]);
			break;
		case SPEC_POINT_CUSTOM:
			ret = apply_custom(&c, b, &mks[i]);
			break;
		case SPEC_POINT_PTR:
			ret = apply_ptr(&c, b, &mks[i]);
			break;
		case SPEC_POINT_GEN:
			ret = jit_gen_apply(j, b, mks[i].call, mks[i].fn, mks[i].p,
					    setting_of(&c, mks[i].p), err, errsz);
			break;
		default:
			ret = apply_value(&c, b, &mks[i]);
			break;
		}
	}
	free(mks);
	LLVMDisposeBuilder(b);
	if (!ret)
		rename_defs(&c, &sc);
	jit_scope_free(&sc);
	return ret;
}
