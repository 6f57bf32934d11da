// SPDX-License-Identifier: GPL-2.0
/*
 * Chain subsumption in a merged module: synchronous raises of merged events
 * become calls of their guarded E.s, and which merged event raises which
 * (through helper functions too) is noted for the policy.
 */
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "jit_event_chain.h"
#include "jit_ir.h"

/* Index in the request of the merged event a raise call names, or -1. */
static int raised_event(const struct jit_ev_req *req, LLVMValueRef call, LLVMValueRef raise)
{
	const char *name;
	size_t e;

	if (!raise || LLVMGetCalledValue(call) != raise || LLVMGetNumArgOperands(call) != 3)
		return -1;
	name = jit_ir_cstring(LLVMGetOperand(call, 1));
	for (e = 0; name && e < req->n; e++) {
		if (!strcmp(req->events[e].name, name))
			return (int)e;
	}
	return -1;
}

/* Functions already scanned for one event (a handler's helpers included). */
struct seen {
	LLVMValueRef *fn;
	size_t n, cap;
};

static bool seen_add(struct seen *s, LLVMValueRef f)
{
	size_t i;

	for (i = 0; i < s->n; i++) {
		if (s->fn[i] == f)
			return false;
	}
	if (s->n == s->cap) {
		LLVMValueRef *nf = realloc(s->fn, (s->cap ? 2 * s->cap : 16) * sizeof(*nf));

		if (!nf)
			return false;
		s->fn = nf;
		s->cap = s->cap ? 2 * s->cap : 16;
	}
	s->fn[s->n++] = f;
	return true;
}

/* Note the merged events @f raises, itself or through functions it calls. */
static void scan_raises(const struct jit_ev_req *req, LLVMValueRef f, LLVMValueRef raise,
			uint32_t e, uint32_t *into, struct seen *seen)
{
	LLVMBasicBlockRef bb;
	LLVMValueRef in;

	if (!f || LLVMIsDeclaration(f) || !seen_add(seen, f))
		return;
	for (bb = LLVMGetFirstBasicBlock(f); bb; bb = LLVMGetNextBasicBlock(bb)) {
		for (in = LLVMGetFirstInstruction(bb); in; in = LLVMGetNextInstruction(in)) {
			LLVMValueRef callee;
			int to;

			if (!LLVMIsACallInst(in))
				continue;
			to = raised_event(req, in, raise);
			if (to >= 0 && into[to] == UINT32_MAX)
				into[to] = e;
			callee = LLVMGetCalledValue(in);
			if (to < 0 && callee && LLVMIsAFunction(callee))
				scan_raises(req, callee, raise, e, into, seen);
		}
	}
}

/*
 * Which merged event's handlers raise event e (first found), also through
 * helper functions: the policy keeps an inlined event merged while its
 * raiser stays hot, its own raises being no longer sampled.
 */
void jit_chain_raisers(struct jit *j, LLVMModuleRef m, const struct jit_ev_req *req,
		       LLVMValueRef raise, uint32_t *into)
{
	struct seen seen = {0};
	size_t e, k, n = req->n;

	for (e = 0; e < n; e++)
		into[e] = UINT32_MAX;
	for (e = 0; raise && e < n; e++) {
		seen.n = 0;
		for (k = 0; k < req->events[e].n; k++)
			scan_raises(
				req,
				jit_event_handler_fn(j, m, req->id, req->events[e].b[k].handler),
				raise, (uint32_t)e, into, &seen);
	}
	free(seen.fn);
}

size_t jit_chain_subsume(LLVMModuleRef m, LLVMBuilderRef b, const struct jit_ev_req *req,
			 LLVMValueRef raise, const LLVMValueRef *sfn, LLVMTypeRef s_ty)
{
	LLVMValueRef f, in, next;
	LLVMBasicBlockRef bb;
	size_t sites = 0;

	for (f = LLVMGetFirstFunction(m); raise && f; f = LLVMGetNextFunction(f)) {
		for (bb = LLVMGetFirstBasicBlock(f); bb; bb = LLVMGetNextBasicBlock(bb)) {
			for (in = LLVMGetFirstInstruction(bb); in; in = next) {
				int e = LLVMIsACallInst(in) ? raised_event(req, in, raise) : -1;
				LLVMValueRef a[2];

				next = LLVMGetNextInstruction(in);
				if (e < 0)
					continue;
				a[0] = LLVMGetOperand(in, 0);
				a[1] = LLVMGetOperand(in, 2);
				LLVMPositionBuilderBefore(b, in);
				LLVMBuildCall2(b, s_ty, sfn[e], a, 2, "");
				LLVMInstructionEraseFromParent(in);
				sites++;
			}
		}
	}
	return sites;
}
