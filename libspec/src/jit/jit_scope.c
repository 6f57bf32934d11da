// SPDX-License-Identifier: GPL-2.0
#include <stdlib.h>

#include "config.h"
#include "jit/jit_ir.h"
#include "jit/jit_scope.h"

static size_t index_of(const struct jit_scope *sc, LLVMValueRef fn)
{
	size_t i;

	for (i = 0; i < sc->n; i++) {
		if (sc->fns[i] == fn)
			return i;
	}
	return sc->n;
}

bool jit_scope_dirty(const struct jit_scope *sc, LLVMValueRef fn)
{
	size_t i = index_of(sc, fn);

	return i < sc->n && sc->dirty[i];
}

/* A function holding a point the configuration sets or samples. */
static bool sets_a_point(struct jit *j, LLVMValueRef fn, const struct jit_variant_req *req)
{
	LLVMBasicBlockRef bb;
	LLVMValueRef inst;

	for (bb = LLVMGetFirstBasicBlock(fn); bb; bb = LLVMGetNextBasicBlock(bb)) {
		for (inst = LLVMGetFirstInstruction(bb); inst;
		     inst = LLVMGetNextInstruction(inst)) {
			const struct spec_point *p;
			const struct jit_setting *s;

			if (!jit_ir_marker_kind(inst))
				continue;
			p = points_find(j->pts, jit_ir_cstring(LLVMGetOperand(inst, 0)));
			if (!p)
				return true; /* unknown: compile it, the build reports it */
			s = &req->settings[p->idx];
			if (s->mode != CFG_DISABLED || s->every)
				return true;
		}
	}
	return false;
}

/* Mark every function that refers to a dirty one (calls it, takes its
 * address): it must reach the specialized code, not the generic one.
 */
static bool spread(struct jit_scope *sc)
{
	bool changed = false;
	size_t i;

	for (i = 0; i < sc->n; i++) {
		LLVMUseRef u;

		if (!sc->dirty[i])
			continue;
		for (u = LLVMGetFirstUse(sc->fns[i]); u; u = LLVMGetNextUse(u)) {
			LLVMValueRef user = LLVMGetUser(u);
			size_t k;

			if (!LLVMIsAInstruction(user))
				continue;
			k = index_of(sc, LLVMGetBasicBlockParent(LLVMGetInstructionParent(user)));
			if (k < sc->n && !sc->dirty[k]) {
				sc->dirty[k] = true;
				changed = true;
			}
		}
	}
	return changed;
}

int jit_scope_compute(struct jit *j, LLVMModuleRef m, const struct jit_variant_req *req,
		      struct jit_scope *sc)
{
	LLVMValueRef fn;
	size_t n = 0;

	sc->n = 0;
	for (fn = LLVMGetFirstFunction(m); fn; fn = LLVMGetNextFunction(fn))
		n += !LLVMIsDeclaration(fn);
	sc->fns = calloc(n ? n : 1, sizeof(*sc->fns));
	sc->dirty = calloc(n ? n : 1, sizeof(*sc->dirty));
	if (!sc->fns || !sc->dirty) {
		jit_scope_free(sc);
		return -ENOMEM;
	}
	for (fn = LLVMGetFirstFunction(m); fn; fn = LLVMGetNextFunction(fn)) {
		if (LLVMIsDeclaration(fn))
			continue;
		sc->fns[sc->n] = fn;
		/* The generic variant (no settings) compiles everything. */
		sc->dirty[sc->n++] = !req->settings || !req->id || sets_a_point(j, fn, req);
	}
	while (spread(sc))
		;
	return 0;
}

void jit_scope_free(struct jit_scope *sc)
{
	free(sc->fns);
	free(sc->dirty);
	sc->fns = NULL;
	sc->dirty = NULL;
	sc->n = 0;
}
