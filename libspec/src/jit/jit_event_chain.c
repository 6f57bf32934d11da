// SPDX-License-Identifier: GPL-2.0
/*
 * Chain subsumption in a merged module. Every synchronous raise of a merged
 * event X becomes, at its site, a call of X's guarded body with the raise
 * arguments loaded out of the site's record (which SROA then removes); the
 * body is always inlined unless inlining it could reach the site's own
 * function again (a raise cycle such as A -> B -> A), where the site calls
 * X's out-of-line entry instead. Which merged event raises which (through
 * helper functions too) is also noted for the policy.
 */
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "jit/jit_event_chain.h"
#include "jit/jit_ir.h"

/* Index in the request of the merged event a raise call names, or -1. */
static int raised_event(const struct jit_ev_req *req, LLVMValueRef call, LLVMValueRef raise)
{
	const char *name;
	size_t e;

	if (!raise || !LLVMIsACallInst(call) || LLVMGetCalledValue(call) != raise ||
	    LLVMGetNumArgOperands(call) != 3)
		return -1;
	name = jit_ir_cstring(LLVMGetOperand(call, 1));
	for (e = 0; name && e < req->n; e++) {
		if (!strcmp(req->events[e].name, name))
			return (int)e;
	}
	return -1;
}

/*
 * Functions reachable from merged events' handlers (raise calls not
 * followed), each with the set of events whose handlers reach it.
 */
struct fnset {
	LLVMValueRef *fn;
	uint64_t *mask; /* [n * words] */
	size_t n, cap, words;
};

static long fn_find(const struct fnset *s, LLVMValueRef f)
{
	size_t i;

	for (i = 0; i < s->n; i++) {
		if (s->fn[i] == f)
			return (long)i;
	}
	return -1;
}

static long fn_add(struct fnset *s, LLVMValueRef f)
{
	long i = fn_find(s, f);

	if (i >= 0)
		return i;
	if (s->n == s->cap) {
		size_t cap = s->cap ? 2 * s->cap : 32;
		LLVMValueRef *nf = realloc(s->fn, cap * sizeof(*nf));
		uint64_t *nm;

		if (!nf)
			return -1;
		s->fn = nf;
		nm = realloc(s->mask, cap * s->words * sizeof(*nm));
		if (!nm)
			return -1;
		s->mask = nm;
		s->cap = cap;
	}
	memset(&s->mask[s->n * s->words], 0, s->words * sizeof(*s->mask));
	s->fn[s->n] = f;
	return (long)s->n++;
}

static bool bit(const uint64_t *m, size_t i)
{
	return m[i / 64] >> (i % 64) & 1;
}

static void set_bit(uint64_t *m, size_t i)
{
	m[i / 64] |= 1ull << (i % 64);
}

/* Mark @f and what it calls as reached by event @e; raises of merged
 * events found on the way become edges e -> x in @reach.
 */
static int walk(const struct jit_ev_req *req, struct fnset *s, LLVMValueRef f, LLVMValueRef raise,
		size_t e, uint64_t *reach)
{
	LLVMBasicBlockRef bb;
	LLVMValueRef in;
	long i;

	if (!f || LLVMIsDeclaration(f))
		return 0;
	i = fn_add(s, f);
	if (i < 0)
		return -ENOMEM;
	if (bit(&s->mask[(size_t)i * s->words], e))
		return 0;
	set_bit(&s->mask[(size_t)i * s->words], e);
	for (bb = LLVMGetFirstBasicBlock(f); bb; bb = LLVMGetNextBasicBlock(bb)) {
		for (in = LLVMGetFirstInstruction(bb); in; in = LLVMGetNextInstruction(in)) {
			int x = raised_event(req, in, raise);
			LLVMValueRef callee;
			int ret;

			if (x >= 0) {
				set_bit(&reach[e * s->words], (size_t)x);
				continue;
			}
			callee = LLVMIsACallInst(in) ? LLVMGetCalledValue(in) : NULL;
			if (!callee || !LLVMIsAFunction(callee))
				continue;
			ret = walk(req, s, callee, raise, e, reach);
			if (ret)
				return ret;
		}
	}
	return 0;
}

/* reach[e]: events e raises, directly or through others (transitive). */
static void close_reach(uint64_t *reach, size_t n, size_t words)
{
	bool grew = true;
	size_t e, x, w;

	while (grew) {
		grew = false;
		for (e = 0; e < n; e++) {
			for (x = 0; x < n; x++) {
				if (!bit(&reach[e * words], x))
					continue;
				for (w = 0; w < words; w++) {
					uint64_t add = reach[x * words + w] & ~reach[e * words + w];

					if (add) {
						reach[e * words + w] |= add;
						grew = true;
					}
				}
			}
		}
	}
}

/*
 * Inlining X's handlers at a site in @f could bring @f back (a cycle) when
 * X itself or an event X raises reaches @f. @f's mask has a bit per event
 * (@nr_events of them), however few functions there are: one handler
 * bound to several events is one function with several bits.
 */
static bool cyclic(const struct fnset *s, const uint64_t *reach, size_t nr_events, LLVMValueRef f,
		   size_t x)
{
	long i = fn_find(s, f);
	size_t a;

	if (i < 0)
		return false;
	for (a = 0; a < nr_events; a++) {
		if (!bit(&s->mask[(size_t)i * s->words], a))
			continue;
		if (a == x || bit(&reach[x * s->words], a))
			return true;
	}
	return false;
}

/*
 * A helper holding an inlined site (CTP's deliver() raising SegmentAcked)
 * is inlined into the handlers too, so the raised handlers land in the
 * merged entry itself rather than behind a call.
 */
static void inline_holder(LLVMValueRef f, unsigned int mutate)
{
	static const char always[] = "alwaysinline", never[] = "noinline";
	LLVMContextRef c = LLVMGetTypeContext(LLVMTypeOf(f));
	unsigned int ak = LLVMGetEnumAttributeKindForName(always, sizeof(always) - 1);
	unsigned int nk = LLVMGetEnumAttributeKindForName(never, sizeof(never) - 1);

	if (mutate & JIT_EV_MUT_NO_INLINE)
		return;
	LLVMRemoveEnumAttributeAtIndex(f, LLVMAttributeFunctionIndex, nk);
	LLVMAddAttributeAtIndex(f, LLVMAttributeFunctionIndex, LLVMCreateEnumAttribute(c, ak, 0));
}

/* The site's arguments, loaded from the record it built, before it. */
static void site_args(LLVMBuilderRef b, LLVMTypeRef i64, LLVMValueRef call, LLVMValueRef *a)
{
	LLVMTypeRef i8 = LLVMInt8TypeInContext(LLVMGetTypeContext(i64));
	LLVMValueRef rec = LLVMGetOperand(call, 2);
	unsigned int k;

	for (k = 0; k < SPEC_EV_MAX_ARGS; k++) {
		LLVMValueRef off = LLVMConstInt(i64, 8ull * k, 0);
		LLVMValueRef p = k ? LLVMBuildGEP2(b, i8, rec, &off, 1, "") : rec;

		a[k] = LLVMBuildLoad2(b, i64, p, "");
		LLVMSetAlignment(a[k], 8);
	}
}

static int rewrite(LLVMModuleRef m, LLVMBuilderRef b, const struct jit_ev_req *req,
		   LLVMValueRef raise, const struct jit_chain_fns *fns, const struct fnset *s,
		   const uint64_t *reach, struct jit_chain_sites *out)
{
	LLVMTypeRef i64 = LLVMInt64TypeInContext(LLVMGetModuleContext(m));
	LLVMValueRef f, in, next;
	LLVMBasicBlockRef bb;

	for (f = LLVMGetFirstFunction(m); f; f = LLVMGetNextFunction(f)) {
		for (bb = LLVMGetFirstBasicBlock(f); bb; bb = LLVMGetNextBasicBlock(bb)) {
			for (in = LLVMGetFirstInstruction(bb); in; in = next) {
				int x = raised_event(req, in, raise);
				LLVMValueRef a[SPEC_EV_MAX_ARGS + 1];
				bool cyc;

				next = LLVMGetNextInstruction(in);
				if (x < 0)
					continue;
				if (req->mutate & JIT_EV_MUT_NO_REWRITE) {
					out->inlined++;
					continue;
				}
				cyc = cyclic(s, reach, req->n, f, (size_t)x);
				LLVMPositionBuilderBefore(b, in);
				a[0] = LLVMGetOperand(in, 0);
				if (req->mutate & JIT_EV_MUT_MARSHAL) {
					a[1] = LLVMGetOperand(in, 2);
					LLVMBuildCall2(b, fns->rec_ty, fns->rec[x], a, 2, "");
				} else {
					site_args(b, i64, in, a + 1);
					LLVMBuildCall2(b, fns->s_ty,
						       cyc ? fns->call[x] : fns->inl[x], a,
						       SPEC_EV_MAX_ARGS + 1, "");
				}
				LLVMInstructionEraseFromParent(in);
				if (cyc) {
					out->called++;
				} else {
					out->inlined++;
					inline_holder(f, req->mutate);
				}
			}
		}
	}
	return 0;
}

int jit_chain_subsume(LLVMModuleRef m, LLVMBuilderRef b, const struct jit_ev_req *req,
		      LLVMValueRef raise, const LLVMValueRef *handlers,
		      const struct jit_chain_fns *fns, struct jit_chain_sites *out)
{
	struct fnset s = {.words = (req->n + 63) / 64 ?: 1};
	uint64_t *reach = calloc((req->n + 1) * s.words, sizeof(*reach));
	size_t e, k, h = 0;
	int ret = reach ? 0 : -ENOMEM;

	out->inlined = out->called = 0;
	for (e = 0; !ret && raise && e < req->n; e++) {
		for (k = 0; !ret && k < req->events[e].n; k++)
			ret = walk(req, &s, handlers[h++], raise, e, reach);
	}
	if (!ret && raise) {
		close_reach(reach, req->n, s.words);
		ret = rewrite(m, b, req, raise, fns, &s, reach, out);
	}
	free(reach);
	free(s.fn);
	free(s.mask);
	return ret;
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
void jit_chain_raisers(const struct jit_ev_req *req, LLVMValueRef raise,
		       const LLVMValueRef *handlers, uint32_t *into)
{
	struct seen seen = {0};
	size_t e, k, n = req->n, h = 0;

	for (e = 0; e < n; e++)
		into[e] = UINT32_MAX;
	for (e = 0; raise && e < n; e++) {
		seen.n = 0;
		for (k = 0; k < req->events[e].n; k++)
			scan_raises(req, handlers[h++], raise, (uint32_t)e, into, &seen);
	}
	free(seen.fn);
}
