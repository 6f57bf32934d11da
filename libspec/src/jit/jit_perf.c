// SPDX-License-Identifier: GPL-2.0
/*
 * perf(1) map for JIT code. perf reads "start size name" lines from
 * /tmp/perf-<pid>.map. Addresses come from lookups; sizes are not in the C
 * API's symbol results, so the object layer is hooked to read them from
 * each object file before it is linked.
 */
#include <llvm-c/Object.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "jit/jit_perf.h"

static void sizes_clear(struct jit *j)
{
	size_t i;

	for (i = 0; i < j->nr_sizes; i++)
		free(j->sizes[i].name);
	free(j->sizes);
	j->sizes = NULL;
	j->nr_sizes = 0;
}

static void sizes_add(struct jit *j, const char *name, uint64_t size)
{
	struct jit_sym_size *ns = realloc(j->sizes, (j->nr_sizes + 1) * sizeof(*ns));

	if (!ns)
		return;
	j->sizes = ns;
	ns[j->nr_sizes].name = strdup(name);
	ns[j->nr_sizes].size = size;
	if (ns[j->nr_sizes].name)
		j->nr_sizes++;
}

/* Runs while an object is linked (inside a lookup, under the JIT lock). */
static LLVMErrorRef read_sizes(void *ctx, LLVMMemoryBufferRef *obj)
{
	struct jit *j = ctx;
	LLVMSymbolIteratorRef it;
	LLVMBinaryRef bin;
	char *msg = NULL;

	/* The binary only views *obj, which stays the layer's. */
	bin = LLVMCreateBinary(*obj, NULL, &msg);
	if (!bin) {
		LLVMDisposeMessage(msg);
		return NULL; /* sizes are a nicety: never fail the link */
	}
	sizes_clear(j);
	it = LLVMObjectFileCopySymbolIterator(bin);
	for (; it && !LLVMObjectFileIsSymbolIteratorAtEnd(bin, it); LLVMMoveToNextSymbol(it)) {
		const char *name = LLVMGetSymbolName(it);

		if (name && *name && LLVMGetSymbolSize(it))
			sizes_add(j, name, LLVMGetSymbolSize(it));
	}
	if (it)
		LLVMDisposeSymbolIterator(it);
	LLVMDisposeBinary(bin);
	return NULL;
}

void jit_perf_open(struct jit *j)
{
	char name[64];

	snprintf(name, sizeof(name), "/tmp/perf-%d.map", (int)getpid());
	j->perf_map = fopen(name, "a");
	if (j->perf_map)
		LLVMOrcObjectTransformLayerSetTransform(LLVMOrcLLJITGetObjTransformLayer(j->lljit),
							read_sizes, j);
}

void jit_perf_close(struct jit *j)
{
	if (j->perf_map)
		fclose(j->perf_map);
	j->perf_map = NULL;
	sizes_clear(j);
}

void jit_perf_note(struct jit *j, const char *name, uint64_t addr)
{
	uint64_t size = 0;
	size_t i;

	if (!j->perf_map)
		return;
	for (i = 0; i < j->nr_sizes; i++) {
		if (!strcmp(j->sizes[i].name, name))
			size = j->sizes[i].size;
	}
	fprintf(j->perf_map, "%llx %llx %s\n", (unsigned long long)addr,
		(unsigned long long)(size ? size : 1), name);
	fflush(j->perf_map);
}
