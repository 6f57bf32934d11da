// SPDX-License-Identifier: GPL-2.0
/*
 * A variant's specialized module embeds process addresses (guard and
 * sample records, pointer points, generator data) as inttoptr constants.
 * They are moved into a table global of the module that the code loads
 * them from (invariant loads, so the optimizer still merges and hoists
 * them), filled after linking. A table rather than one symbol per address:
 * the optimizer takes distinct globals for distinct objects, which two
 * addresses into one object are not. Names that carry the variant id
 * (which differs between runs) take the key's digest instead.
 */
#include <llvm-c/BitWriter.h>
#include <stdlib.h>
#include <string.h>

#include "build_id.h"
#include "clock.h"
#include "code_cache.h"
#include "jit/jit_cache.h"
#include "jit/jit_hash.h"
#include "log.h"

#ifndef LIBSPEC_VERSION
#define LIBSPEC_VERSION "unknown"
#endif
#define KEY_FORMAT "libspec-code-cache 1"
#define PLACEHOLDER ".vC"
/* Constant expressions looked into before a variant is called uncachable. */
#define SCAN_BUDGET 4096

struct hp_use {
	LLVMValueRef inst;
	unsigned int op;
	size_t slot;
};

struct rebind {
	struct hp_use *uses;
	size_t nr_uses, cap_uses;
	uint64_t *addrs; /* table contents, one per distinct address */
	size_t nr_addrs;
};

static bool is_host_ptr(LLVMValueRef v)
{
	return LLVMIsAConstantExpr(v) && LLVMGetConstOpcode(v) == LLVMIntToPtr &&
	       LLVMIsAConstantInt(LLVMGetOperand(v, 0)) &&
	       !LLVMGetPointerAddressSpace(LLVMTypeOf(v));
}

/* Whether constant @c holds a host pointer anywhere but at its top. */
static bool nests_host_ptr(LLVMValueRef c, int *budget)
{
	int i, n;

	if (--*budget < 0)
		return true; /* too deep to tell: not cached */
	if (!LLVMIsAConstantExpr(c) && !LLVMIsAConstantArray(c) && !LLVMIsAConstantStruct(c) &&
	    !LLVMIsAConstantVector(c))
		return false;
	if (is_host_ptr(c))
		return true;
	n = LLVMGetNumOperands(c);
	for (i = 0; i < n; i++) {
		if (nests_host_ptr(LLVMGetOperand(c, i), budget))
			return true;
	}
	return false;
}

static int add_use(struct rebind *r, LLVMValueRef inst, unsigned int op)
{
	uint64_t a = LLVMConstIntGetZExtValue(LLVMGetOperand(LLVMGetOperand(inst, op), 0));
	size_t k;

	for (k = 0; k < r->nr_addrs && r->addrs[k] != a; k++)
		;
	if (k == r->nr_addrs) {
		uint64_t *na = realloc(r->addrs, (k + 1) * sizeof(*na));

		if (!na)
			return -ENOMEM;
		r->addrs = na;
		r->addrs[r->nr_addrs++] = a;
	}
	if (r->nr_uses == r->cap_uses) {
		size_t cap = r->cap_uses ? 2 * r->cap_uses : 64;
		struct hp_use *nu = realloc(r->uses, cap * sizeof(*nu));

		if (!nu)
			return -ENOMEM;
		r->uses = nu;
		r->cap_uses = cap;
	}
	r->uses[r->nr_uses++] = (struct hp_use){.inst = inst, .op = op, .slot = k};
	return 0;
}

/*
 * Every host pointer operand of @m's instructions into @r; JIT_CACHE_PASS
 * when one sits where a load cannot replace it (inside another constant,
 * a global's initializer).
 */
static int scan(LLVMModuleRef m, struct rebind *r)
{
	int budget = SCAN_BUDGET, ret;
	LLVMValueRef f, g, inst, op;
	LLVMBasicBlockRef bb;
	unsigned int i, n;

	for (g = LLVMGetFirstGlobal(m); g; g = LLVMGetNextGlobal(g)) {
		op = LLVMGetInitializer(g);
		if (op && nests_host_ptr(op, &budget))
			return JIT_CACHE_PASS;
	}
	for (f = LLVMGetFirstFunction(m); f; f = LLVMGetNextFunction(f)) {
		for (bb = LLVMGetFirstBasicBlock(f); bb; bb = LLVMGetNextBasicBlock(bb)) {
			for (inst = LLVMGetFirstInstruction(bb); inst;
			     inst = LLVMGetNextInstruction(inst)) {
				n = (unsigned int)LLVMGetNumOperands(inst);
				for (i = 0; i < n; i++) {
					op = LLVMGetOperand(inst, i);
					if (is_host_ptr(op)) {
						if (LLVMIsALandingPadInst(inst))
							return JIT_CACHE_PASS;
						ret = add_use(r, inst, i);
						if (ret)
							return ret;
					} else if (nests_host_ptr(op, &budget)) {
						return JIT_CACHE_PASS;
					}
				}
			}
		}
	}
	return 0;
}

/* Replace each recorded operand by a load of its table slot. */
static void rewrite(struct jit *j, LLVMModuleRef m, struct rebind *r)
{
	LLVMTypeRef ptr = LLVMPointerTypeInContext(j->ctx, 0), i64 = LLVMInt64TypeInContext(j->ctx);
	LLVMTypeRef tty = LLVMArrayType(ptr, (unsigned int)(r->nr_addrs ? r->nr_addrs : 1));
	LLVMValueRef table = LLVMAddGlobal(m, tty, "__spec_hp" PLACEHOLDER);
	LLVMBuilderRef b = LLVMCreateBuilderInContext(j->ctx);
	unsigned int inv = LLVMGetMDKindIDInContext(j->ctx, "invariant.load", 14);
	LLVMValueRef md = LLVMMetadataAsValue(j->ctx, LLVMMDNodeInContext2(j->ctx, NULL, 0));
	size_t i, k;

	/* Written once after linking, before any call: never constant to LLVM. */
	LLVMSetInitializer(table, LLVMConstNull(tty));
	LLVMSetLinkage(table, LLVMExternalLinkage);
	LLVMSetAlignment(table, 8);
	for (i = 0; i < r->nr_uses; i++) {
		struct hp_use *u = &r->uses[i];
		LLVMValueRef idx[2] = {LLVMConstInt(i64, 0, 0), LLVMConstInt(i64, u->slot, 0)};
		LLVMValueRef load = NULL;
		LLVMBasicBlockRef in = NULL;

		if (LLVMIsAPHINode(u->inst)) {
			/* Entries of one predecessor must carry one value. */
			in = LLVMGetIncomingBlock(u->inst, u->op);
			for (k = 0; k < i && !load; k++) {
				if (r->uses[k].inst == u->inst && r->uses[k].slot == u->slot &&
				    LLVMGetIncomingBlock(u->inst, r->uses[k].op) == in)
					load = LLVMGetOperand(u->inst, r->uses[k].op);
			}
			if (!load)
				LLVMPositionBuilderBefore(b, LLVMGetBasicBlockTerminator(in));
		} else {
			LLVMPositionBuilderBefore(b, u->inst);
		}
		if (!load) {
			load = LLVMBuildLoad2(b, ptr, LLVMConstInBoundsGEP2(tty, table, idx, 2),
					      "hp");
			LLVMSetMetadata(load, inv, md);
		}
		LLVMSetOperand(u->inst, u->op, load);
	}
	LLVMDisposeBuilder(b);
}

/* Values named <base>@from get <base>@to (functions and globals). */
static void rename_suffix(LLVMModuleRef m, const char *from, const char *to)
{
	size_t fl = strlen(from), len;
	LLVMValueRef v, lists[2] = {LLVMGetFirstFunction(m), LLVMGetFirstGlobal(m)};
	char name[600];
	int l;

	for (l = 0; l < 2; l++) {
		for (v = lists[l]; v; v = l ? LLVMGetNextGlobal(v) : LLVMGetNextFunction(v)) {
			const char *s = LLVMGetValueName2(v, &len);

			if (len < fl || len - fl + strlen(to) >= sizeof(name) ||
			    strcmp(s + len - fl, from))
				continue;
			snprintf(name, sizeof(name), "%.*s%s", (int)(len - fl), s, to);
			LLVMSetValueName2(v, name, strlen(name));
		}
	}
}

/* The variant's full key: the shared parts, then its own. */
static char *variant_key(struct jit *j, LLVMModuleRef m, const struct jit_variant_req *req)
{
	LLVMMemoryBufferRef bc = LLVMWriteBitcodeToMemoryBuffer(m);
	uint8_t d[JIT_DIGEST_LEN];
	char hex[2 * JIT_DIGEST_LEN + 1], *key;

	if (!bc)
		return NULL;
	jit_digest(LLVMGetBufferStart(bc), LLVMGetBufferSize(bc), d);
	LLVMDisposeMemoryBuffer(bc);
	jit_digest_hex(d, hex, sizeof(hex) - 1);
	if (asprintf(&key, "%spipeline %s\ncodegen %s\nvariant %s\n", j->cache_key, req->pipeline,
		     req->fast_codegen ? "O0" : "O3", hex) < 0)
		return NULL;
	return key;
}

/* Handler entry names (then the table's) of a variant whose own suffix is @sfx. */
static char **entry_names(struct jit *j, const bool *dirty, bool generic, const char *sfx)
{
	char **names = calloc(j->nr_handlers + 2, sizeof(*names));
	size_t i;

	for (i = 0; names && i <= j->nr_handlers; i++) {
		int n;

		if (i == j->nr_handlers)
			n = asprintf(&names[i], "__spec_hp%s", sfx);
		else
			n = asprintf(&names[i], "%s%s", j->handlers[i],
				     dirty[i] && !generic ? sfx : ".v0");
		if (n < 0) {
			names[i] = NULL;
			break;
		}
	}
	if (names && i <= j->nr_handlers) {
		jit_free_names(names);
		names = NULL;
	}
	return names;
}

static bool defined(struct jit *j, const char *name)
{
	LLVMOrcExecutorAddress a;
	LLVMErrorRef e = LLVMOrcLLJITLookup(j->lljit, &a, name);

	if (e)
		LLVMConsumeError(e);
	return !e;
}

/* Link @obj, hand out the handlers' addresses, fill the table. */
static int link_object(struct jit *j, LLVMMemoryBufferRef obj, char **names, const struct rebind *r,
		       struct jit_code **code, uint64_t *addrs, char *err, size_t errsz)
{
	size_t n = j->nr_handlers;
	uint64_t *all = calloc(n + 1, sizeof(*all));
	int ret;

	if (!all) {
		LLVMDisposeMemoryBuffer(obj);
		return -ENOMEM;
	}
	ret = jit_add_object(j, obj, names, n + 1, all, code, err, errsz);
	if (!ret) {
		if (r->nr_addrs)
			memcpy((void *)(uintptr_t)all[n], r->addrs, r->nr_addrs * sizeof(uint64_t));
		memcpy(addrs, all, n * sizeof(*addrs));
	}
	free(all);
	return ret;
}

static int compile(struct jit *j, LLVMModuleRef m, const struct jit_variant_req *req, char **names,
		   const struct rebind *r, const char *key, struct jit_code **code, uint64_t *addrs,
		   struct jit_phases *ph, char *err, size_t errsz)
{
	uint64_t t0 = clock_mono_ns(), t1;
	LLVMTargetMachineRef tm;
	LLVMMemoryBufferRef obj;
	LLVMErrorRef e;
	char *msg = NULL;
	int ret = 0;

	if (LLVMVerifyModule(m, LLVMReturnStatusAction, &msg)) {
		snprintf(err, errsz, "verifier (code cache rebinding): %s", msg);
		ret = -EINVAL;
	}
	LLVMDisposeMessage(msg);
	if (!ret) {
		jit_dump_ir(m, req->id, true);
		ret = jit_optimize(j, m, req, err, errsz);
	}
	if (!ret)
		jit_dump_ir(m, req->id, false);
	if (!ret)
		ret = jit_check_unresolved(j, m, err, errsz);
	tm = ret ? NULL : jit_codegen_tm(j, req->fast_codegen, err, errsz);
	if (!tm) {
		LLVMDisposeModule(m);
		return ret ? ret : -EINVAL;
	}
	t1 = clock_mono_ns();
	ph->optimize_ns = t1 - t0;
	e = jit_emit_object(tm, m, &obj);
	if (e) {
		jit_errmsg(e, "code generation", err, errsz);
		return -EINVAL;
	}
	ph->cache = key ? JIT_CACHE_UNSTORED : JIT_CACHE_BYPASS;
	if (key) {
		ret = code_cache_store(j->cache, key, strlen(key), LLVMGetBufferStart(obj),
				       LLVMGetBufferSize(obj));
		/* code_cache_store() says why, once per run of failures. */
		if (!ret)
			ph->cache = JIT_CACHE_STORED;
	}
	ret = link_object(j, obj, names, r, code, addrs, err, errsz);
	ph->codegen_ns = clock_mono_ns() - t1;
	return ret;
}

int jit_cache_build(struct jit *j, LLVMModuleRef m, const struct jit_variant_req *req,
		    const bool *dirty, struct jit_code **code, uint64_t *addrs,
		    struct jit_phases *ph, char *err, size_t errsz)
{
	uint64_t t0 = clock_mono_ns();
	struct rebind r = {0};
	char own[32], sfx[40], hex[17], table[64], **names = NULL, *key = NULL;
	uint8_t d[JIT_DIGEST_LEN];
	void *payload;
	size_t len;
	int ret;

	ret = scan(m, &r);
	if (ret < 0)
		goto out_module;
	if (ret) {
		ph->cache = JIT_CACHE_BYPASS;
		goto out;
	}
	rewrite(j, m, &r);
	snprintf(own, sizeof(own), ".v%u", req->id);
	if (req->id)
		rename_suffix(m, own, PLACEHOLDER);
	key = variant_key(j, m, req);
	if (!key) {
		ret = -ENOMEM;
		goto out_module;
	}
	jit_digest(key, strlen(key), d);
	jit_digest_hex(d, hex, 16);
	snprintf(sfx, sizeof(sfx), ".h%s", hex);
	snprintf(table, sizeof(table), "__spec_hp%s", sfx);
	if (defined(j, table)) {
		/* The same code is live under this key: a private copy, not stored. */
		snprintf(sfx, sizeof(sfx), ".h%s.%u", hex, req->id);
		free(key);
		key = NULL;
	}
	rename_suffix(m, PLACEHOLDER, sfx);
	names = entry_names(j, dirty, !req->id, sfx);
	if (!names) {
		ret = -ENOMEM;
		goto out_module;
	}
	ret = key ? code_cache_load(j->cache, key, strlen(key), &payload, &len) : -ENOENT;
	if (!ret) {
		LLVMMemoryBufferRef obj =
			LLVMCreateMemoryBufferWithMemoryRangeCopy(payload, len, "spec-cache");

		free(payload);
		ret = link_object(j, obj, names, &r, code, addrs, err, errsz);
		if (!ret) {
			ph->cache = JIT_CACHE_HIT;
			ph->optimize_ns = 0;
			ph->codegen_ns = clock_mono_ns() - t0;
			LLVMDisposeModule(m);
			goto out;
		}
		pr_warn(j->log, "code cache: a stored variant did not link (%s); compiling it",
			err);
		ph->cache_rejected = true;
	} else if (ret == -EBADMSG || ret == -ESTALE || ret == -EPERM) {
		ph->cache_rejected = true;
	}
	ph->specialize_ns += clock_mono_ns() - t0;
	ret = compile(j, m, req, names, &r, key, code, addrs, ph, err, errsz);
	goto out;
out_module:
	LLVMDisposeModule(m);
out:
	jit_free_names(names);
	free(key);
	free(r.uses);
	free(r.addrs);
	return ret;
}

#ifdef LIBSPEC_TESTING
/*
 * LIBSPEC_CACHE_TEST_KEY=<part>=<value> replaces one shared key part (as
 * another machine, LLVM or libspec would have it). Only the tests' build
 * of the library reads it: elsewhere the environment could make a service
 * take code built for another machine.
 */
static const char *key_part(const char *part, const char *real)
{
	const char *t = getenv("LIBSPEC_CACHE_TEST_KEY");
	size_t n = strlen(part);

	return t && !strncmp(t, part, n) && t[n] == '=' ? t + n + 1 : real;
}
#else
#define key_part(part, real) (real)
#endif

/* @version and the build of the object holding @code (unknown: none). */
static void build_part(char *buf, size_t size, const char *version, const void *code)
{
	char id[2 * JIT_DIGEST_LEN + 8];

	if (build_id_of(code, id, sizeof(id)))
		snprintf(id, sizeof(id), "unknown");
	snprintf(buf, size, "%s build %s", version, id);
}

int jit_cache_key(struct jit *j, char *err, size_t errsz)
{
	LLVMMemoryBufferRef bc = LLVMWriteBitcodeToMemoryBuffer(j->master);
	char *triple = LLVMGetDefaultTargetTriple(), hex[2 * JIT_DIGEST_LEN + 1];
	char llvm[128], libspec[128], version[32];
	unsigned int maj, min, patch;
	uint8_t d[JIT_DIGEST_LEN];
	int n = -1;

	LLVMGetVersion(&maj, &min, &patch);
	snprintf(version, sizeof(version), "%u.%u.%u", maj, min, patch);
	/* A statically linked LLVM is part of libspec's object: the same id. */
	build_part(llvm, sizeof(llvm), version, (const void *)(uintptr_t)LLVMGetVersion);
	build_part(libspec, sizeof(libspec), LIBSPEC_VERSION,
		   (const void *)(uintptr_t)jit_cache_key);
	if (bc) {
		jit_digest(LLVMGetBufferStart(bc), LLVMGetBufferSize(bc), d);
		LLVMDisposeMemoryBuffer(bc);
		jit_digest_hex(d, hex, sizeof(hex) - 1);
		n = asprintf(&j->cache_key,
			     KEY_FORMAT "\nlibspec %s\nllvm %s\ntriple %s\ncpu %s\nfeatures %s\n"
					"ir %s\n",
			     key_part("libspec", libspec), key_part("llvm", llvm),
			     key_part("triple", triple), key_part("cpu", j->cpu),
			     key_part("features", j->features), key_part("ir", hex));
	}
	LLVMDisposeMessage(triple);
	if (n < 0) {
		j->cache_key = NULL;
		snprintf(err, errsz, "out of memory");
		return -ENOMEM;
	}
	return 0;
}
