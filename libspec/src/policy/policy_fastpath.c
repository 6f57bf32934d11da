// SPDX-License-Identifier: GPL-2.0
/*
 * The fast-path policy (<libspec/policy.h>): a sample-built fast path is
 * judged by how much of what is sampled now it holds, and rebuilt from fresh
 * samples when the hot set moved. Two states: WATCH (judge the coverage),
 * COLLECT (old samples forgotten; rebuild once enough fresh ones came).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "libspec/policy.h"
#include "log.h"
#include "runtime.h"
#include "runtime_ref.h"
#include "sampler.h"

struct spec_policy_fastpath {
	struct spec_runtime *rt;
	struct libspec_log log; /* opts.print, else the runtime's */
	char *label;
	double min_coverage, coverage;
	uint64_t min_samples;
	uint32_t hot;
	bool collecting;
	int64_t *compiled, *compiled_hi; /* [hot]: the hot set built in */
	size_t nr_compiled;
};

/* Total sampled inputs of the point; its top values into the hot set. */
static int observe(struct spec_policy_fastpath *fp, bool take, uint64_t *all, uint64_t *hit)
{
	struct spec_space *sp = spec_runtime__space(fp->rt);
	const struct spec_point_info *pi = sp ? spec_space__find(sp, fp->label) : NULL;
	size_t i, k;

	if (!pi) {
		spec_space__free(sp);
		return sp ? -ENOENT : -errno;
	}
	*all = *hit = 0;
	/* Observed values come by count, descending. */
	if (take)
		fp->nr_compiled = 0;
	for (i = 0; i < pi->nr_observed; i++) {
		const struct spec_observed *o = spec_point_info__observed(pi, i);

		*all += o->count;
		if (take && fp->nr_compiled < fp->hot) {
			fp->compiled[fp->nr_compiled] = o->value;
			fp->compiled_hi[fp->nr_compiled++] = o->value_hi;
		}
		for (k = 0; !take && k < fp->nr_compiled; k++) {
			if (fp->compiled[k] == o->value && fp->compiled_hi[k] == o->value_hi)
				*hit += o->count;
		}
	}
	spec_space__free(sp);
	return 0;
}

struct spec_policy_fastpath *spec_policy_fastpath__new(struct spec_runtime *rt, const char *label,
						       const struct spec_policy_fastpath_opts *opts)
{
	struct spec_policy_fastpath *fp;
	struct libspec_log log;
	uint64_t all, hit;
	int ret;

	if (!rt || !label)
		return libspec_err_ptr(-EINVAL);
	log = libspec_log_or(LIBSPEC_LOG_OPTS(opts), &rt->log);
	if (!OPTS_VALID(&log, opts, spec_policy_fastpath_opts))
		return libspec_err_ptr(-EINVAL);
	fp = calloc(1, sizeof(*fp));
	if (!fp)
		return libspec_err_ptr(-ENOMEM);
	rt_get(rt);
	fp->rt = rt;
	fp->log = log;
	fp->min_coverage = OPTS_GET(opts, min_coverage, 0) ?: 0.5;
	fp->min_samples = OPTS_GET(opts, min_samples, 0) ?: 64;
	fp->hot = OPTS_GET(opts, hot, 0) ?: 8;
	fp->coverage = NAN;
	fp->label = strdup(label);
	fp->compiled = calloc(fp->hot, sizeof(*fp->compiled));
	fp->compiled_hi = calloc(fp->hot, sizeof(*fp->compiled_hi));
	ret = fp->label && fp->compiled && fp->compiled_hi ? 0 : -ENOMEM;
	if (!ret && !(fp->min_coverage > 0 && fp->min_coverage <= 1)) {
		pr_warn(&fp->log, "fastpath policy '%s': min_coverage %g outside (0, 1]", label,
			fp->min_coverage);
		ret = -EINVAL;
	}
	if (!ret)
		ret = observe(fp, true, &all, &hit);
	if (ret) {
		if (ret == -ENOENT)
			pr_warn(&fp->log, "fastpath policy: no point '%s'", label);
		spec_policy_fastpath__free(fp);
		return libspec_err_ptr(ret);
	}
	return fp;
}

/* The installed configuration again, compiled afresh from the samples. */
static int rebuild(struct spec_policy_fastpath *fp)
{
	LIBSPEC_OPTS(spec_invalidate_opts, keep, .keep_current = true);
	struct spec_config *cfg;
	char text[RT_MSG_MAX];
	uint64_t all, hit;
	int ret;

	ret = spec_runtime__current(fp->rt, text, sizeof(text));
	if (ret < 0)
		return ret;
	if ((size_t)ret >= sizeof(text))
		return -ENAMETOOLONG;
	ret = observe(fp, true, &all, &hit);
	if (ret)
		return ret;
	/* A new data version: the cached variant of this text is stale. */
	ret = spec_runtime__invalidate(fp->rt, fp->label, &keep);
	if (ret)
		return ret;
	cfg = config_parse(text, &fp->log);
	if (!cfg)
		return -errno;
	ret = spec_runtime__specialize_sync(fp->rt, cfg, NULL);
	spec_config__free(cfg);
	return ret;
}

/*
 * Forget the samples and guard failures of this policy's point only: the
 * other points (another policy's, the service's own readings) keep theirs.
 */
static int reset_point(struct spec_policy_fastpath *fp)
{
	struct spec_point *p = points_find(&fp->rt->pts, fp->label);

	if (!p)
		return -ENOENT;
	atomic_store(&p->failures, 0);
	sampler_reset_point(&fp->rt->dom, p->idx);
	return 0;
}

int spec_policy_fastpath__step(struct spec_policy_fastpath *fp)
{
	uint64_t all, hit;
	int ret;

	if (!fp)
		return libspec_err(-EINVAL);
	ret = observe(fp, false, &all, &hit);
	if (ret || all < fp->min_samples)
		return libspec_err(ret);
	if (fp->collecting) {
		fp->collecting = false;
		ret = rebuild(fp);
		if (ret) {
			pr_warn(&fp->log, "fastpath policy '%s': rebuild failed: %s", fp->label,
				strerror(-ret));
			return libspec_err(ret);
		}
		pr_debug(&fp->log, "fastpath policy '%s': rebuilt from %llu fresh samples",
			 fp->label, (unsigned long long)all);
		return 1;
	}
	fp->coverage = (double)hit / (double)all;
	if (fp->coverage >= fp->min_coverage)
		return 0;
	pr_debug(&fp->log,
		 "fastpath policy '%s': the hot set covers %.0f%% of %llu samples: "
		 "re-instrumenting",
		 fp->label, 100 * fp->coverage, (unsigned long long)all);
	fp->collecting = true;
	return libspec_err(reset_point(fp));
}

double spec_policy_fastpath__coverage(const struct spec_policy_fastpath *fp)
{
	return fp ? fp->coverage : NAN;
}

void spec_policy_fastpath__free(struct spec_policy_fastpath *fp)
{
	if (!fp)
		return;
	free(fp->label);
	free(fp->compiled);
	free(fp->compiled_hi);
	spec_runtime__close(fp->rt);
	free(fp);
}
