// SPDX-License-Identifier: GPL-2.0
/* The JIT engine: LLJIT for the host CPU, symbols, variants, stubs. */
#include <dlfcn.h>
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "clock.h"
#include "code_cache.h"
#include "jit/jit.h"
#include "jit/jit_cache.h"
#include "jit/jit_ir.h"
#include "jit/jit_spec.h"
#include "jit/jit_stub.h"
#include "jit/jit_perf.h"
#include "jit/jit_scope.h"
#include "sampler.h"

static pthread_once_t llvm_once = PTHREAD_ONCE_INIT;

static void llvm_init(void)
{
	LLVMInitializeNativeTarget();
	LLVMInitializeNativeAsmPrinter();
}

void jit_errmsg(LLVMErrorRef e, const char *what, char *err, size_t errsz)
{
	char *msg = LLVMGetErrorMessage(e); /* consumes e */

	snprintf(err, errsz, "%s: %s", what, msg);
	LLVMDisposeErrorMessage(msg);
}

static LLVMTargetMachineRef host_tm(struct jit *j, LLVMCodeGenOptLevel level, char *err,
				    size_t errsz)
{
	char *triple = LLVMGetDefaultTargetTriple(), *msg = NULL;
	LLVMTargetMachineRef tm = NULL;
	LLVMTargetRef t;

	if (LLVMGetTargetFromTriple(triple, &t, &msg)) {
		snprintf(err, errsz, "no LLVM target for %s: %s", triple, msg);
		LLVMDisposeMessage(msg);
	} else {
		tm = LLVMCreateTargetMachine(t, triple, j->cpu, j->features, level,
					     LLVMRelocDefault, LLVMCodeModelJITDefault);
		if (!tm)
			snprintf(err, errsz, "cannot create a target machine for %s", triple);
	}
	LLVMDisposeMessage(triple);
	return tm;
}

static int define_abs(struct jit *j, const char *name, uint64_t addr, char *err, size_t errsz)
{
	LLVMOrcCSymbolMapPair pair = {
		.Name = LLVMOrcLLJITMangleAndIntern(j->lljit, name),
		.Sym = {.Address = addr,
			.Flags = {.GenericFlags = LLVMJITSymbolGenericFlagsExported |
						  LLVMJITSymbolGenericFlagsCallable}},
	};
	/* The materialization unit takes the interned name. */
	LLVMOrcMaterializationUnitRef mu = LLVMOrcAbsoluteSymbols(&pair, 1);
	LLVMErrorRef e = LLVMOrcJITDylibDefine(j->jd, mu);

	if (e) {
		/* On failure the unit is still ours. */
		LLVMOrcDisposeMaterializationUnit(mu);
		jit_errmsg(e, name, err, errsz);
		return -EEXIST;
	}
	return 0;
}

static int jit_engine(struct jit *j, char *err, size_t errsz)
{
	LLVMOrcJITTargetMachineBuilderRef jtmb;
	LLVMOrcDefinitionGeneratorRef gen;
	LLVMOrcLLJITBuilderRef builder;
	LLVMTargetMachineRef tm;
	LLVMErrorRef e;
	static const struct {
		const char *name;
		void *addr;
	} helpers[] = {
		{"__spec_rt_enter", (void *)spec_rt_enter},
		{"__spec_rt_guard_fail", (void *)spec_rt_guard_fail},
		{"__spec_rt_sample", (void *)spec_rt_sample},
		{"__spec_rt_sample_io", (void *)spec_rt_sample_io},
	};
	size_t i;

	j->tm = host_tm(j, LLVMCodeGenLevelAggressive, err, errsz);
	tm = j->tm ? host_tm(j, LLVMCodeGenLevelAggressive, err, errsz) : NULL;
	if (!tm)
		return -EINVAL;
	/* The builder takes tm, the LLJIT builder takes jtmb, LLJIT the builder. */
	jtmb = LLVMOrcJITTargetMachineBuilderCreateFromTargetMachine(tm);
	builder = LLVMOrcCreateLLJITBuilder();
	LLVMOrcLLJITBuilderSetJITTargetMachineBuilder(builder, jtmb);
	e = LLVMOrcCreateLLJIT(&j->lljit, builder);
	if (e) {
		j->lljit = NULL;
		jit_errmsg(e, "creating the JIT", err, errsz);
		return -EINVAL;
	}
	j->jd = LLVMOrcLLJITGetMainJITDylib(j->lljit);
	e = LLVMOrcCreateDynamicLibrarySearchGeneratorForProcess(
		&gen, LLVMOrcLLJITGetGlobalPrefix(j->lljit), NULL, NULL);
	if (e) {
		jit_errmsg(e, "process symbols", err, errsz);
		return -EINVAL;
	}
	LLVMOrcJITDylibAddGenerator(j->jd, gen); /* the JITDylib owns gen */
	for (i = 0; i < sizeof(helpers) / sizeof(helpers[0]); i++) {
		int ret = define_abs(j, helpers[i].name, (uint64_t)(uintptr_t)helpers[i].addr, err,
				     errsz);

		if (ret)
			return ret;
	}
	j->tsctx = LLVMOrcCreateNewThreadSafeContext();
	j->ctx = LLVMOrcThreadSafeContextGetContext(j->tsctx);
	return 0;
}

int jit_open(struct jit **out, const char *path, struct point_table *pts, struct epoch_domain *dom,
	     const struct libspec_log *log, bool perf_map, char *err, size_t errsz)
{
	struct jit *j = calloc(1, sizeof(*j));
	char *cpu, *features;
	int ret;

	*out = NULL;
	if (!j) {
		snprintf(err, errsz, "out of memory");
		return -ENOMEM;
	}
	pthread_once(&llvm_once, llvm_init);
	j->pts = pts;
	j->dom = dom;
	j->log = log;
	cpu = LLVMGetHostCPUName();
	features = LLVMGetHostCPUFeatures();
	j->cpu = strdup(cpu);
	j->features = strdup(features);
	LLVMDisposeMessage(cpu);
	LLVMDisposeMessage(features);
	if (!j->cpu || !j->features) {
		ret = -ENOMEM;
		goto fail;
	}
	j->tls_ok = epoch_tls_layout(&j->tls);
	ret = jit_engine(j, err, errsz);
	if (!ret)
		ret = jit_ir_load(j, path, err, errsz);
	if (!ret)
		ret = jit_ir_scan(j, err, errsz);
	if (ret)
		goto fail;
	if (perf_map)
		jit_perf_open(j);
	*out = j;
	return 0;
fail:
	jit_close(j);
	return ret;
}

void jit_close(struct jit *j)
{
	size_t i;

	if (!j)
		return;
	/* Reverse order: modules and trackers go with the JIT, then the IR. */
	if (j->lljit) {
		LLVMErrorRef e = LLVMOrcDisposeLLJIT(j->lljit);

		if (e)
			LLVMConsumeError(e);
	}
	if (j->master)
		LLVMDisposeModule(j->master);
	if (j->tsctx)
		LLVMOrcDisposeThreadSafeContext(j->tsctx);
	if (j->tm)
		LLVMDisposeTargetMachine(j->tm);
	if (j->tm_fast)
		LLVMDisposeTargetMachine(j->tm_fast);
	jit_perf_close(j);
	code_cache_close(j->cache);
	free(j->cache_key);
	for (i = 0; i < j->nr_handlers; i++)
		free(j->handlers[i]);
	free(j->handlers);
	for (i = 0; i < j->nr_defined; i++)
		free(j->defined[i]);
	free(j->defined);
	free(j->cpu);
	free(j->features);
	free(j);
}

size_t jit_nr_handlers(const struct jit *j)
{
	return j->nr_handlers;
}

const char *jit_handler_name(const struct jit *j, size_t i)
{
	return i < j->nr_handlers ? j->handlers[i] : NULL;
}

int jit_handler_index(const struct jit *j, const char *name)
{
	size_t i;

	for (i = 0; i < j->nr_handlers; i++) {
		if (!strcmp(j->handlers[i], name))
			return (int)i;
	}
	return -ENOENT;
}

int jit_define_symbol(struct jit *j, const char *name, uint64_t addr, char *err, size_t errsz)
{
	char **nd = realloc(j->defined, (j->nr_defined + 1) * sizeof(*nd));
	int ret;

	if (!nd)
		return -ENOMEM;
	j->defined = nd;
	ret = define_abs(j, name, addr, err, errsz);
	if (ret)
		return ret;
	nd[j->nr_defined] = strdup(name);
	if (nd[j->nr_defined])
		j->nr_defined++;
	return 0;
}

static bool resolvable(struct jit *j, const char *name)
{
	size_t i, len = strlen(name);

	if (!strncmp(name, "llvm.", 5) || !strncmp(name, "__spec_rt_", 10))
		return true;
	if (len > 3 && !strcmp(name + len - 3, ".v0"))
		return true;
	for (i = 0; i < j->nr_defined; i++) {
		if (!strcmp(j->defined[i], name))
			return true;
	}
	return dlsym(RTLD_DEFAULT, name) != NULL;
}

/* Name the first symbol the JIT could not resolve, before linking fails
 * with a less specific message.
 */
int jit_check_unresolved(struct jit *j, LLVMModuleRef m, char *err, size_t errsz)
{
	LLVMValueRef v;

	for (v = LLVMGetFirstFunction(m); v; v = LLVMGetNextFunction(v)) {
		const char *name = LLVMGetValueName2(v, &(size_t){0});

		if (LLVMIsDeclaration(v) && LLVMGetFirstUse(v) && !resolvable(j, name))
			goto unresolved;
	}
	for (v = LLVMGetFirstGlobal(m); v; v = LLVMGetNextGlobal(v)) {
		const char *name = LLVMGetValueName2(v, &(size_t){0});

		if (LLVMIsDeclaration(v) && LLVMGetFirstUse(v) && !resolvable(j, name))
			goto unresolved;
	}
	return 0;
unresolved:
	snprintf(err, errsz,
		 "unresolved symbol '%s': not exported by the process (link it with "
		 "-rdynamic) and not given to spec_runtime__define_symbol()",
		 LLVMGetValueName2(v, &(size_t){0}));
	return -ENOENT;
}

/* @m's machine code by @tm into *@obj (m is consumed). */
LLVMErrorRef jit_emit_object(LLVMTargetMachineRef tm, LLVMModuleRef m, LLVMMemoryBufferRef *obj)
{
	char *msg = NULL;
	int failed;

	*obj = NULL;
	failed = LLVMTargetMachineEmitToMemoryBuffer(tm, m, LLVMObjectFile, &msg, obj);
	LLVMDisposeModule(m);
	if (failed) {
		LLVMErrorRef e = LLVMCreateStringError(msg ? msg : "object emission failed");

		LLVMDisposeMessage(msg);
		return e;
	}
	return NULL;
}

LLVMTargetMachineRef jit_codegen_tm(struct jit *j, bool fast, char *err, size_t errsz)
{
	if (!fast)
		return j->tm;
	if (!j->tm_fast)
		j->tm_fast = host_tm(j, LLVMCodeGenLevelNone, err, errsz);
	return j->tm_fast;
}

/*
 * Fast codegen (LLVM's -O0: FastISel, the fast register allocator) for a
 * first tier: the module is compiled here with a target machine of that
 * level and handed to the JIT as an object, since the LLJIT's own compile
 * layer has one level for everything.
 */
static LLVMErrorRef add_fast_object(struct jit *j, LLVMOrcResourceTrackerRef rt, LLVMModuleRef m,
				    char *err, size_t errsz)
{
	LLVMTargetMachineRef tm = jit_codegen_tm(j, true, err, errsz);
	LLVMMemoryBufferRef obj;
	LLVMErrorRef e;

	if (!tm) {
		LLVMDisposeModule(m);
		return LLVMCreateStringError(err);
	}
	e = jit_emit_object(tm, m, &obj);
	/* The JIT owns obj from here on. */
	return e ? e : LLVMOrcLLJITAddObjectFileWithRT(j->lljit, rt, obj);
}

/* Add @m or else @obj (consumed) under a new tracker, resolve @names. */
static int add_and_lookup(struct jit *j, LLVMModuleRef m, LLVMMemoryBufferRef obj, bool fast,
			  char **names, size_t n, uint64_t *addrs, struct jit_code **code,
			  char *err, size_t errsz)
{
	LLVMOrcResourceTrackerRef rt = LLVMOrcJITDylibCreateResourceTracker(j->jd);
	LLVMErrorRef e;
	size_t i;

	/* LLJIT owns m from here on, even on failure. */
	if (obj)
		e = LLVMOrcLLJITAddObjectFileWithRT(j->lljit, rt, obj);
	else if (fast)
		e = add_fast_object(j, rt, m, err, errsz);
	else
		e = LLVMOrcLLJITAddLLVMIRModuleWithRT(
			j->lljit, rt, LLVMOrcCreateNewThreadSafeModule(m, j->tsctx));
	if (e) {
		jit_errmsg(e, "adding module", err, errsz);
		goto fail;
	}
	for (i = 0; i < n; i++) {
		LLVMOrcExecutorAddress a;

		e = LLVMOrcLLJITLookup(j->lljit, &a, names[i]);
		if (e) {
			jit_errmsg(e, "linking", err, errsz);
			goto fail;
		}
		addrs[i] = a;
		jit_perf_note(j, names[i], a);
	}
	*code = calloc(1, sizeof(**code));
	if (!*code) {
		snprintf(err, errsz, "out of memory");
		goto fail;
	}
	(*code)->rt = rt;
	return 0;
fail:
	e = LLVMOrcResourceTrackerRemove(rt);
	if (e)
		LLVMConsumeError(e); /* the first error is the one reported */
	LLVMOrcReleaseResourceTracker(rt);
	return -EINVAL;
}

static char **variant_names(struct jit *j, unsigned int id, const bool *dirty)
{
	char **names = calloc(j->nr_handlers + 1, sizeof(*names));
	size_t i;

	if (!names)
		return NULL;
	for (i = 0; i < j->nr_handlers; i++) {
		size_t len = strlen(j->handlers[i]) + 16;

		names[i] = malloc(len);
		if (!names[i])
			break;
		snprintf(names[i], len, "%s.v%u", j->handlers[i], dirty[i] ? id : 0);
	}
	return names;
}

void jit_free_names(char **names)
{
	size_t i;

	for (i = 0; names && names[i]; i++)
		free(names[i]);
	free(names);
}

/* LIBSPEC_DUMP_IR=<dir>: keep each variant's optimized IR for inspection. */
/*
 * LIBSPEC_DUMP_IR=<dir> keeps each variant's optimized module; with
 * LIBSPEC_DUMP_IR_PRE=1 also the module before the pipeline (@pre), so
 * `opt -passes=... -time-passes` can replay where the pipeline's time goes.
 */
void jit_dump_ir(LLVMModuleRef m, unsigned int id, bool pre)
{
	const char *dir = getenv("LIBSPEC_DUMP_IR"), *want_pre = getenv("LIBSPEC_DUMP_IR_PRE");
	char path[512], *msg = NULL;

	if (!dir || !*dir || (pre && (!want_pre || strcmp(want_pre, "1"))))
		return;
	snprintf(path, sizeof(path), "%s/variant-%d-%u%s.ll", dir, (int)getpid(), id,
		 pre ? ".pre" : "");
	if (LLVMPrintModuleToFile(m, path, &msg))
		LLVMDisposeMessage(msg);
}

int jit_optimize(struct jit *j, LLVMModuleRef m, const struct jit_variant_req *req, char *err,
		 size_t errsz)
{
	LLVMPassBuilderOptionsRef pbo = LLVMCreatePassBuilderOptions();
	LLVMErrorRef e;

	/* Unchanged code nothing compiled here calls: not optimized again. */
	e = req->id ? LLVMRunPasses(m, "globaldce", j->tm, pbo) : NULL;
	if (!e)
		e = LLVMRunPasses(m, req->pipeline, j->tm, pbo);
	LLVMDisposePassBuilderOptions(pbo);
	if (e) {
		char what[300];

		snprintf(what, sizeof(what), "pipeline \"%s\"", req->pipeline);
		jit_errmsg(e, what, err, errsz);
		return -EINVAL;
	}
	return 0;
}

int jit_build_variant(struct jit *j, const struct jit_variant_req *req, struct jit_code **code,
		      uint64_t *addrs, struct jit_phases *ph, char *err, size_t errsz)
{
	uint64_t t0 = clock_mono_ns(), t1, t2;
	LLVMModuleRef m = LLVMCloneModule(j->master);
	bool *dirty = calloc(j->nr_handlers ? j->nr_handlers : 1, sizeof(*dirty));
	char *msg = NULL, **names;
	int ret;

	ret = dirty ? jit_spec_apply(j, m, req, dirty, err, errsz) : -ENOMEM;
	if (!ret && LLVMVerifyModule(m, LLVMReturnStatusAction, &msg)) {
		snprintf(err, errsz, "verifier: %s", msg);
		ret = -EINVAL;
	}
	LLVMDisposeMessage(msg);
	if (ret)
		goto out_module;
	t1 = clock_mono_ns();
	ph->specialize_ns = t1 - t0;
	if (j->cache) {
		/* Served from or stored into the disk cache, unless it passes. */
		ret = jit_cache_build(j, m, req, dirty, code, addrs, ph, err, errsz);
		if (ret != JIT_CACHE_PASS) {
			free(dirty);
			return ret;
		}
	}
	jit_dump_ir(m, req->id, true);
	ret = jit_optimize(j, m, req, err, errsz);
	if (ret)
		goto out_module;
	t2 = clock_mono_ns();
	ph->optimize_ns = t2 - t1;
	jit_dump_ir(m, req->id, false);
	ret = jit_check_unresolved(j, m, err, errsz);
	if (ret)
		goto out_module;
	names = variant_names(j, req->id, dirty);
	if (!names) {
		ret = -ENOMEM;
		goto out_module;
	}
	/* Code is generated when the lookup materializes the module. */
	ret = add_and_lookup(j, m, NULL, req->fast_codegen, names, j->nr_handlers, addrs, code, err,
			     errsz);
	jit_free_names(names);
	free(dirty);
	ph->codegen_ns = clock_mono_ns() - t2;
	return ret;
out_module:
	free(dirty);
	LLVMDisposeModule(m);
	return ret;
}

int jit_build_stub(struct jit *j, size_t h, void *const *slot, struct epoch_domain *dom,
		   uint64_t *addr, char *err, size_t errsz)
{
	LLVMModuleRef m;
	char name[300], *names[1] = {name};
	struct jit_code *code;
	int ret;

	ret = jit_stub_module(j, h, slot, dom, &m, name, sizeof(name));
	if (ret) {
		snprintf(err, errsz, "handler '%s': %s", j->handlers[h],
			 ret == -EINVAL ? "variadic functions cannot have an entry stub"
					: "not found");
		return ret;
	}
	ret = add_and_lookup(j, m, NULL, false, names, 1, addr, &code, err, errsz);
	if (!ret) {
		/* Stubs live as long as the JIT: dropping our reference hands
		 * the code to the JITDylib's default tracker.
		 */
		LLVMOrcReleaseResourceTracker(code->rt);
		free(code);
	}
	return ret;
}

int jit_changed_handlers(struct jit *j, const struct jit_setting *settings, bool *changed)
{
	/* Any id but the generic one's: only what the settings touch. */
	struct jit_variant_req req = {.id = 1, .settings = settings};
	struct jit_scope sc;
	size_t i;
	int ret = jit_scope_compute(j, j->master, &req, &sc);

	if (ret)
		return ret;
	for (i = 0; i < j->nr_handlers; i++)
		changed[i] = jit_scope_dirty(&sc, LLVMGetNamedFunction(j->master, j->handlers[i]));
	jit_scope_free(&sc);
	return 0;
}

int jit_set_cache(struct jit *j, struct code_cache *cc, char *err, size_t errsz)
{
	j->cache = cc;
	return jit_cache_key(j, err, errsz);
}

void jit_free_code(struct jit *j, struct jit_code *code)
{
	LLVMErrorRef e;

	(void)j; /* the tracker knows its JIT */
	if (!code)
		return;
	e = LLVMOrcResourceTrackerRemove(code->rt);
	if (e)
		LLVMConsumeError(e);
	LLVMOrcReleaseResourceTracker(code->rt);
	free(code);
}

/* For the merged event handlers (jit_event.c), which link their own modules. */
int jit_add_and_lookup(struct jit *j, LLVMModuleRef m, char **names, size_t n, uint64_t *addrs,
		       struct jit_code **code, char *err, size_t errsz)
{
	return add_and_lookup(j, m, NULL, false, names, n, addrs, code, err, errsz);
}

/* For cached variants (jit_cache.c): an object instead of a module. */
int jit_add_object(struct jit *j, LLVMMemoryBufferRef obj, char **names, size_t n, uint64_t *addrs,
		   struct jit_code **code, char *err, size_t errsz)
{
	return add_and_lookup(j, NULL, obj, false, names, n, addrs, code, err, errsz);
}
