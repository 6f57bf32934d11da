// SPDX-License-Identifier: GPL-2.0
/* Loading the handler IR and finding its specialization points. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "jit/jit_ir.h"
#include "jit/jit_guard.h"

#define MARKER_PREFIX "__spec_point_"

static const struct {
	const char *suffix;
	enum spec_point_kind kind;
	unsigned int nargs, max_args;
} markers[] = {
	{"enum", SPEC_POINT_ENUM, 6, 6},
	{"range", SPEC_POINT_RANGE, 6, 6},
	{"generic", SPEC_POINT_GENERIC, 4, 4},
	{"ptr", SPEC_POINT_PTR, 4, 4},
	{"assume", SPEC_POINT_ASSUME, 4, 4},
	{"custom", SPEC_POINT_CUSTOM, 5, 5},
	{"gen", SPEC_POINT_GEN, JIT_GEN_FIRST_INPUT + 1, JIT_GEN_FIRST_INPUT + SPEC_GEN_MAX_INPUTS},
};

enum spec_point_kind jit_ir_marker_kind(LLVMValueRef inst)
{
	LLVMValueRef callee;
	const char *name;
	size_t len, i;

	if (!LLVMIsACallInst(inst))
		return 0;
	callee = LLVMGetCalledValue(inst);
	if (!callee || !LLVMIsAFunction(callee))
		return 0;
	name = LLVMGetValueName2(callee, &len);
	if (strncmp(name, MARKER_PREFIX, strlen(MARKER_PREFIX)))
		return 0;
	for (i = 0; i < sizeof(markers) / sizeof(markers[0]); i++) {
		unsigned int n = (unsigned int)LLVMGetNumArgOperands(inst);

		if (!strcmp(name + strlen(MARKER_PREFIX), markers[i].suffix) &&
		    n >= markers[i].nargs && n <= markers[i].max_args)
			return markers[i].kind;
	}
	return 0;
}

const char *jit_ir_cstring(LLVMValueRef v)
{
	LLVMValueRef init;
	const char *s;
	size_t len;

	if (!v || !LLVMIsAGlobalVariable(v) || !LLVMIsGlobalConstant(v))
		return NULL;
	init = LLVMGetInitializer(v);
	if (!init || !LLVMIsConstantString(init))
		return NULL;
	s = LLVMGetAsString(init, &len);
	if (!len || s[len - 1] != '\0' || strlen(s) != len - 1)
		return NULL;
	return s;
}

/* Make every function generate code for this CPU, not clang's default. */
static void retarget(struct jit *j, LLVMModuleRef m)
{
	LLVMValueRef f;

	for (f = LLVMGetFirstFunction(m); f; f = LLVMGetNextFunction(f)) {
		if (LLVMIsDeclaration(f))
			continue;
		LLVMRemoveStringAttributeAtIndex(f, LLVMAttributeFunctionIndex, "target-cpu", 10);
		LLVMRemoveStringAttributeAtIndex(f, LLVMAttributeFunctionIndex, "target-features",
						 15);
		LLVMRemoveStringAttributeAtIndex(f, LLVMAttributeFunctionIndex, "tune-cpu", 8);
		LLVMAddTargetDependentFunctionAttr(f, "target-cpu", j->cpu);
		LLVMAddTargetDependentFunctionAttr(f, "target-features", j->features);
	}
}

int jit_ir_load(struct jit *j, const char *path, char *err, size_t errsz)
{
	LLVMMemoryBufferRef buf;
	LLVMPassBuilderOptionsRef pbo;
	LLVMTargetDataRef td;
	LLVMErrorRef e;
	char *msg = NULL, *s;

	if (access(path, R_OK)) {
		int ret = -errno;

		snprintf(err, errsz, "%s: %s", path, strerror(errno));
		return ret;
	}
	if (LLVMCreateMemoryBufferWithContentsOfFile(path, &buf, &msg)) {
		snprintf(err, errsz, "%s: %s", path, msg);
		LLVMDisposeMessage(msg);
		return -EIO;
	}
	/* The parser owns buf from here on, whatever the outcome. */
	if (LLVMParseIRInContext(j->ctx, buf, &j->master, &msg)) {
		snprintf(err, errsz, "%s: not LLVM IR or bitcode: %s", path, msg);
		LLVMDisposeMessage(msg);
		j->master = NULL;
		return -EINVAL;
	}
	if (LLVMVerifyModule(j->master, LLVMReturnStatusAction, &msg)) {
		snprintf(err, errsz, "%s: invalid IR: %s", path, msg);
		LLVMDisposeMessage(msg);
		return -EINVAL;
	}
	LLVMDisposeMessage(msg);
	s = LLVMGetTargetMachineTriple(j->tm);
	LLVMSetTarget(j->master, s);
	LLVMDisposeMessage(s);
	td = LLVMCreateTargetDataLayout(j->tm);
	s = LLVMCopyStringRepOfTargetData(td);
	LLVMSetDataLayout(j->master, s);
	LLVMDisposeMessage(s);
	LLVMDisposeTargetData(td);
	retarget(j, j->master);

	/* Arguments live in allocas until mem2reg; after it a point's value
	 * shows whether it comes straight from the arguments (hoistable guard).
	 */
	pbo = LLVMCreatePassBuilderOptions();
	e = LLVMRunPasses(j->master, "function(mem2reg)", j->tm, pbo);
	LLVMDisposePassBuilderOptions(pbo);
	if (e) {
		jit_errmsg(e, "preparing IR", err, errsz);
		return -EINVAL;
	}
	return 0;
}

static int const_i64(LLVMValueRef v, int64_t *out)
{
	if (!v || !LLVMIsAConstantInt(v))
		return 0;
	*out = LLVMConstIntGetSExtValue(v);
	return 1;
}

/* The allowed values of a spec_enum: a constant global i64 array. */
static int enum_values(LLVMValueRef arr, LLVMValueRef count, int64_t **vals, size_t *n)
{
	LLVMValueRef init;
	int64_t cnt;
	size_t i;

	if (!const_i64(count, &cnt) || cnt <= 0 || !arr || !LLVMIsAGlobalVariable(arr) ||
	    !LLVMIsGlobalConstant(arr))
		return -EINVAL;
	init = LLVMGetInitializer(arr);
	if (!init)
		return -EINVAL;
	*vals = calloc((size_t)cnt, sizeof(**vals));
	if (!*vals)
		return -ENOMEM;
	for (i = 0; i < (size_t)cnt; i++) {
		if (!const_i64(LLVMGetAggregateElement(init, (unsigned int)i), &(*vals)[i])) {
			free(*vals);
			return -EINVAL;
		}
	}
	*n = (size_t)cnt;
	return 0;
}

/* A custom point's function: one integer argument, integer result. */
static int custom_fn_ok(LLVMValueRef fn)
{
	LLVMTypeRef ty;
	LLVMTypeRef param;

	if (!fn || !LLVMIsAFunction(fn))
		return 0;
	ty = LLVMGlobalGetValueType(fn);
	if (LLVMCountParamTypes(ty) != 1 || LLVMIsFunctionVarArg(ty))
		return 0;
	LLVMGetParamTypes(ty, &param);
	return LLVMGetTypeKind(param) == LLVMIntegerTypeKind &&
	       LLVMGetTypeKind(LLVMGetReturnType(ty)) == LLVMIntegerTypeKind;
}

static bool int_of(LLVMTypeRef t, unsigned int max_bits)
{
	return LLVMGetTypeKind(t) == LLVMIntegerTypeKind && LLVMGetIntTypeWidth(t) <= max_bits;
}

bool jit_ir_gen_split(LLVMTypeRef input, const LLVMTypeRef *params, unsigned int left)
{
	LLVMContextRef ctx = LLVMGetTypeContext(input);

	/* The x86-64 ABI passes an __int128 argument as two i64 halves. */
	return LLVMGetIntTypeWidth(input) == 128 && left >= 2 &&
	       params[0] == LLVMInt64TypeInContext(ctx) && params[1] == LLVMInt64TypeInContext(ctx);
}

/*
 * A spec_gen point's function: (pointer, one integer per input) returning
 * an integer of up to 64 bits; inputs of up to 128 bits.
 */
static const char *gen_shape_error(LLVMValueRef call)
{
	unsigned int i, k, np, n = (unsigned int)LLVMGetNumArgOperands(call) - JIT_GEN_FIRST_INPUT;
	LLVMValueRef fn = LLVMGetOperand(call, 3);
	LLVMTypeRef ty, params[1 + 2 * SPEC_GEN_MAX_INPUTS];

	for (i = 0; i < n; i++) {
		if (!int_of(LLVMTypeOf(LLVMGetOperand(call, JIT_GEN_FIRST_INPUT + i)), 128))
			return "inputs must be integers of at most 128 bits";
	}
	if (!fn || !LLVMIsAFunction(fn))
		return "the function must be named directly, not through a pointer";
	ty = LLVMGlobalGetValueType(fn);
	np = LLVMCountParamTypes(ty);
	if (LLVMIsFunctionVarArg(ty) || np < n + 1 || np > 1 + 2 * n)
		return "the function must take the data pointer and one argument per input";
	LLVMGetParamTypes(ty, params);
	if (LLVMGetTypeKind(params[0]) != LLVMPointerTypeKind)
		return "the function's first parameter must be the data pointer";
	for (i = 0, k = 1; i < n; i++) {
		LLVMTypeRef in = LLVMTypeOf(LLVMGetOperand(call, JIT_GEN_FIRST_INPUT + i));

		if (k >= np)
			return "the function must take the data pointer and one argument per input";
		if (jit_ir_gen_split(in, params + k, np - k))
			k += 2;
		else if (int_of(params[k], 128))
			k++;
		else
			return "the function's inputs must be integers of at most 128 bits";
	}
	if (k != np)
		return "the function must take the data pointer and one argument per input";
	if (!int_of(LLVMGetReturnType(ty), 64))
		return "the function must return an integer of at most 64 bits";
	return NULL;
}

static int scan_marker(struct jit *j, LLVMValueRef fn, LLVMValueRef call, enum spec_point_kind kind,
		       char *err, size_t errsz)
{
	const char *label = jit_ir_cstring(LLVMGetOperand(call, 0));
	const char *file = jit_ir_cstring(LLVMGetOperand(call, 1));
	struct spec_site site = {.function = (char *)LLVMGetValueName2(fn, &(size_t){0})};
	int64_t line = 0, lo = 0, hi = 0, *vals = NULL;
	size_t nvals = 0;
	struct guard_site gs;
	LLVMValueRef checked;
	int ret = 0;

	if (!file || !const_i64(LLVMGetOperand(call, 2), &line))
		file = "?";
	site.file = (char *)file;
	site.line = (int)line;
	if (!label) {
		snprintf(err, errsz, "%s:%d: %s in %s: label is not a string literal", file,
			 (int)line, "specialization point", site.function);
		return -EINVAL;
	}
	checked = LLVMGetOperand(call, kind == SPEC_POINT_CUSTOM ? 4 : 3);
	if (kind == SPEC_POINT_GEN && gen_shape_error(call)) {
		snprintf(err, errsz, "%s:%d: spec_gen '%s': %s", file, (int)line, label,
			 gen_shape_error(call));
		return -EINVAL;
	}
	if (kind == SPEC_POINT_ENUM) {
		ret = enum_values(LLVMGetOperand(call, 4), LLVMGetOperand(call, 5), &vals, &nvals);
		if (ret) {
			snprintf(err, errsz, "%s:%d: spec_enum '%s': values are not constants",
				 file, (int)line, label);
			return ret;
		}
	} else if (kind == SPEC_POINT_RANGE) {
		if (!const_i64(LLVMGetOperand(call, 4), &lo) ||
		    !const_i64(LLVMGetOperand(call, 5), &hi) || lo > hi) {
			snprintf(err, errsz,
				 "%s:%d: spec_range '%s': bounds must be constants with lo <= hi",
				 file, (int)line, label);
			return -EINVAL;
		}
	} else if (kind == SPEC_POINT_CUSTOM && !custom_fn_ok(LLVMGetOperand(call, 3))) {
		snprintf(err, errsz,
			 "%s:%d: spec_custom '%s': not a direct function of one integer "
			 "argument returning an integer",
			 file, (int)line, label);
		return -EINVAL;
	}
	ret = points_add_site(j->pts, label, kind, vals, nvals, lo, hi, &site, err, errsz);
	free(vals);
	if (ret)
		return ret;
	if (kind != SPEC_POINT_CUSTOM && kind != SPEC_POINT_GEN) {
		jit_guard_classify(fn, call, checked, &gs);
		if (!gs.hoistable && !gs.clean) {
			char why[512];

			snprintf(why, sizeof(why),
				 "%s:%d (in %s): the value is not computed from the arguments "
				 "alone and the point follows a store or call",
				 file, (int)line, site.function);
			points_set_unguardable(points_find(j->pts, label), why);
		}
	}
	return 0;
}

static int add_handler(struct jit *j, const char *name)
{
	char **nh = realloc(j->handlers, (j->nr_handlers + 1) * sizeof(*nh));

	if (!nh)
		return -ENOMEM;
	j->handlers = nh;
	nh[j->nr_handlers] = strdup(name);
	if (!nh[j->nr_handlers])
		return -ENOMEM;
	j->nr_handlers++;
	return 0;
}

int jit_ir_scan(struct jit *j, char *err, size_t errsz)
{
	LLVMValueRef fn, inst;
	LLVMBasicBlockRef bb;
	int ret;

	for (fn = LLVMGetFirstFunction(j->master); fn; fn = LLVMGetNextFunction(fn)) {
		const char *name = LLVMGetValueName2(fn, &(size_t){0});

		if (LLVMIsDeclaration(fn))
			continue;
		if (!strncmp(name, MARKER_PREFIX, strlen(MARKER_PREFIX))) {
			snprintf(err, errsz, "IR defines marker function %s", name);
			return -EINVAL;
		}
		if (LLVMGetLinkage(fn) == LLVMExternalLinkage) {
			ret = add_handler(j, name);
			if (ret) {
				snprintf(err, errsz, "out of memory");
				return ret;
			}
		}
		for (bb = LLVMGetFirstBasicBlock(fn); bb; bb = LLVMGetNextBasicBlock(bb)) {
			for (inst = LLVMGetFirstInstruction(bb); inst;
			     inst = LLVMGetNextInstruction(inst)) {
				enum spec_point_kind kind = jit_ir_marker_kind(inst);

				if (!kind)
					continue;
				ret = scan_marker(j, fn, inst, kind, err, errsz);
				if (ret)
					return ret;
			}
		}
	}
	return 0;
}
