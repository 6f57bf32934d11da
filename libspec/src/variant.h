/* SPDX-License-Identifier: GPL-2.0 */
/* Compiled variants: cache, installation, retirement, reclamation. */
#ifndef LIBSPEC_VARIANT_H
#define LIBSPEC_VARIANT_H

#include "runtime_state.h"

/* Lock held unless noted. */
struct variant *variant_find(struct spec_runtime *rt, const char *key);
void variant_install(struct spec_runtime *rt, struct variant *v);
/* Publish handler @i's direct entry for the installed variant (lock held). */
void variant_entry_update(struct spec_runtime *rt, size_t i);
void variant_add(struct spec_runtime *rt, struct variant *v);
/* Move variants beyond the cache size (least recently used first) to the
 * retired list.
 */
void variant_evict(struct spec_runtime *rt);
/* Take @v (neither current nor generic) out of the cache, to be freed once
 * no thread can be running it.
 */
void variant_retire(struct spec_runtime *rt, struct variant *v);
/* Free retired variants no thread can be running; takes lock, then (not
 * nested) jit_lock itself.
 */
void variant_reclaim(struct spec_runtime *rt);
/* Build a variant for @settings (NULL: the generic one); takes jit_lock,
 * and lock for the counters if @lock_stats.
 */
int variant_build(struct spec_runtime *rt, const struct jit_setting *settings, const char *pipeline,
		  bool fast_codegen, bool lock_stats, struct variant **out, char *err,
		  size_t errsz);
void variant_free(struct spec_runtime *rt, struct variant *v);

#endif /* LIBSPEC_VARIANT_H */
