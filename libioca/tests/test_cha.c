// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/*
 * CHA presets against a fake /sys/bus/event_source/devices tree: discovery
 * of every uncore_cha_N, the per-model encodings placed by each
 * generation's format attributes (tests/fixtures), ItoMCacheNear beside
 * ItoM while it fits, the emulated kinds, the "not available" answers and
 * the sum over CHAs.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include <cmocka.h>
#include "cha.h"
#include "msgs.h"
#include "sysfs_tree.h"

struct fx {
	char root[64];
	struct t_log tl;
};

static void mkpmu(const struct fx *f, const char *name, const char *type)
{
	char path[256];
	FILE *fp;

	snprintf(path, sizeof(path), "%s/%s", f->root, name);
	assert_int_equal(mkdir(path, 0755), 0);
	if (!type)
		return;
	snprintf(path, sizeof(path), "%s/%s/type", f->root, name);
	fp = fopen(path, "w");
	assert_non_null(fp);
	fputs(type, fp);
	fclose(fp);
}

/* uncore_cha_0's format/ as fixture @gen's (skx, icx, spr) gives it. */
static void cha_format(struct fx *f, const char *gen)
{
	char scratch[128], cmd[400];

	snprintf(scratch, sizeof(scratch), "%s/.fx-%s", f->root, gen);
	t_tree_load(scratch, gen);
	snprintf(cmd, sizeof(cmd), "cp -r '%s/ev/uncore_cha_0/format' '%s/uncore_cha_0/'", scratch,
		 f->root);
	assert_int_equal(system(cmd), 0);
}

/*
 * @n CHAs (types 40 + 2 * N, to see the order) with @gen's format, and
 * PMUs that are not CHAs.
 */
static void make_tree(struct fx *f, int n, const char *gen)
{
	char name[32], type[16];
	int i;

	/* Created out of order: discovery must sort by N, not by readdir. */
	for (i = n - 1; i >= 0; i--) {
		snprintf(name, sizeof(name), "uncore_cha_%d", i);
		snprintf(type, sizeof(type), "%d\n", 40 + 2 * i);
		mkpmu(f, name, type);
	}
	mkpmu(f, "uncore_imc_0", "13\n");
	mkpmu(f, "cpu", "4\n");
	mkpmu(f, "uncore_cha_x", "99\n");
	if (n)
		cha_format(f, gen);
}

static int rm_entry(const char *path)
{
	char cmd[128];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", path);
	return system(cmd);
}

static int setup(void **state)
{
	struct fx *f = calloc(1, sizeof(*f));

	snprintf(f->root, sizeof(f->root), "/tmp/libioca-cha-XXXXXX");
	if (!mkdtemp(f->root)) {
		free(f);
		return -1;
	}
	*state = f;
	return 0;
}

static int teardown(void **state)
{
	struct fx *f = *state;
	int rc = rm_entry(f->root);

	free(f);
	return rc;
}

static struct ioca_cha_preset *preset(struct fx *f, uint32_t model, unsigned int flows)
{
	struct ioca_info info = {.backend = IOCA_BACKEND_MSR, .cpu_family = 6, .cpu_model = model};
	IOCA_OPTS(ioca_cha_opts, o, .sysfs_root = f->root, .flows = flows, .print = t_print,
		  .print_ctx = &f->tl);

	return ioca_cha_preset__new(&info, &o);
}

static void test_cha_skylake_sp_events_for_every_cha(void **state)
{
	struct fx *f = *state;
	struct ioca_cha_preset *p;
	const struct ioca_event *ev;
	size_t n, i;

	make_tree(f, 3, "skx");
	p = preset(f, 0x55, 0);
	assert_non_null(p);
	assert_int_equal(ioca_cha_preset__nr_chas(p), 3);
	ev = ioca_cha_preset__events(p, &n);
	assert_int_equal(n, 6);
	for (i = 0; i < n; i++) {
		assert_int_equal(ev[i].kind, IOCA_EVENT_KIND_RAW);
		assert_int_equal(ev[i].type, 40 + 2 * (i / 2));
		assert_true(ev[i].has_type);
		/* ItoM opcode filter in FILTER1 (config1 bits 32-63). */
		assert_int_equal(ev[i].config1, 0x49033ull << 32);
	}
	assert_int_equal(ev[0].config, 0x1435);
	assert_int_equal(ev[1].config, 0x2435);
	ioca_cha_preset__free(p);
}

#define UMASK_EXT(v) (0x0435ull | (uint64_t)(v) << 32)

static void test_cha_ice_lake_uses_extended_umasks(void **state)
{
	struct fx *f = *state;
	struct ioca_cha_preset *p;
	const struct ioca_event *ev;
	size_t n;

	make_tree(f, 2, "icx");
	p = preset(f, 0x6A, IOCA_CHA_FLOW_WRITES | IOCA_CHA_FLOW_READS);
	assert_non_null(p);
	ev = ioca_cha_preset__events(p, &n);
	/* per CHA: ItoM, ItoMCacheNear, PCIRdCur, each hit and miss */
	assert_int_equal(n, 12);
	assert_int_equal(ev[0].config, UMASK_EXT(0xCC43FD));
	assert_int_equal(ev[1].config, UMASK_EXT(0xCC43FE));
	assert_int_equal(ev[2].config, UMASK_EXT(0xCD43FD));
	assert_int_equal(ev[3].config, UMASK_EXT(0xCD43FE));
	assert_int_equal(ev[4].config, UMASK_EXT(0xC8F3FD));
	assert_int_equal(ev[5].config, UMASK_EXT(0xC8F3FE));
	assert_int_equal(ev[0].config1, 0);
	assert_int_equal(ev[6].type, 42);
	ioca_cha_preset__free(p);
}

static void test_cha_sapphire_rapids_and_granite_rapids_d(void **state)
{
	struct fx *f = *state;
	static const uint32_t models[] = {0x8F, 0xCF, 0xAD, 0xAE};
	struct ioca_cha_preset *p;
	const struct ioca_event *ev;
	size_t n;

	make_tree(f, 2, "spr");
	for (size_t m = 0; m < sizeof(models) / sizeof(models[0]); m++) {
		p = preset(f, models[m], 0);
		assert_non_null(p);
		ev = ioca_cha_preset__events(p, &n);
		assert_int_equal(n, 8);
		assert_int_equal(ev[0].config, UMASK_EXT(0xCC43FD));
		assert_int_equal(ev[3].config, UMASK_EXT(0xCD43FE));
		ioca_cha_preset__free(p);
	}
	p = preset(f, 0x8F, IOCA_CHA_FLOW_READS);
	assert_non_null(p);
	ev = ioca_cha_preset__events(p, &n);
	assert_int_equal(n, 4);
	assert_int_equal(ev[0].config, UMASK_EXT(0xC8F3FD));
	ioca_cha_preset__free(p);
}

static void test_cha_itom_cache_near_left_out_when_it_does_not_fit(void **state)
{
	struct fx *f = *state;
	struct ioca_cha_preset *p;
	const struct ioca_event *ev;
	size_t n;

	/* 40 CHAs x (ItoM + ItoMCacheNear) x 2 = 160 > 128: ItoM only */
	make_tree(f, 40, "icx");
	p = preset(f, 0x6A, 0);
	assert_non_null(p);
	ev = ioca_cha_preset__events(p, &n);
	assert_int_equal(n, 80);
	assert_int_equal(ev[2].config, UMASK_EXT(0xCC43FD));
	assert_non_null(strstr(f->tl.last, "ItoMCacheNear writes not counted"));
	ioca_cha_preset__free(p);
}

static void test_cha_field_missing_from_format_names_pmu_and_field(void **state)
{
	struct fx *f = *state;
	char rel[64];

	make_tree(f, 2, "icx");
	snprintf(rel, sizeof(rel), "uncore_cha_0/format/umask");
	t_tree_rm(f->root, rel);
	assert_null(preset(f, 0x6A, 0));
	assert_int_equal(errno, ENOENT);
	assert_non_null(strstr(f->tl.last, "uncore_cha_0"));
	assert_non_null(strstr(f->tl.last, "\"umask\""));
}

static void test_cha_value_wider_than_the_published_field(void **state)
{
	struct fx *f = *state;

	/* Skylake-SP's umask (config:8-15) cannot hold Ice Lake's extension */
	make_tree(f, 1, "skx");
	assert_null(preset(f, 0x6A, 0));
	assert_int_equal(errno, ERANGE);
	assert_non_null(strstr(f->tl.last, "uncore_cha_0"));
	assert_non_null(strstr(f->tl.last, "wider than its 8 bits"));
}

static void test_cha_without_pmus_is_not_available(void **state)
{
	struct fx *f = *state;

	mkpmu(f, "cpu", "4\n");
	errno = 0;
	assert_null(preset(f, 0x55, 0));
	assert_int_equal(errno, ENODEV);
	assert_non_null(strstr(f->tl.last, "not available"));
	assert_non_null(strstr(f->tl.last, f->root));
}

static void test_cha_missing_root_is_not_available(void **state)
{
	struct fx *f = *state;
	char missing[96];
	struct ioca_info info = {.cpu_family = 6, .cpu_model = 0x55};

	snprintf(missing, sizeof(missing), "%s/nope", f->root);
	IOCA_OPTS(ioca_cha_opts, o, .sysfs_root = missing, .print = t_print, .print_ctx = &f->tl);
	assert_null(ioca_cha_preset__new(&info, &o));
	assert_int_equal(errno, ENODEV);
}

static void test_cha_unknown_model_is_refused(void **state)
{
	struct fx *f = *state;

	make_tree(f, 1, "skx");
	assert_null(preset(f, 0x3F, 0));
	assert_int_equal(errno, EOPNOTSUPP);
	assert_non_null(strstr(f->tl.last, "model 0x3f"));
}

static void test_cha_bad_type_file_names_the_file(void **state)
{
	struct fx *f = *state;

	mkpmu(f, "uncore_cha_0", "forty\n");
	assert_null(preset(f, 0x55, 0));
	assert_int_equal(errno, EINVAL);
	assert_non_null(strstr(f->tl.last, "uncore_cha_0/type"));
	assert_non_null(strstr(f->tl.last, "forty"));
}

static void test_cha_too_many_chas_for_the_abi(void **state)
{
	struct fx *f = *state;

	make_tree(f, 33, "skx");
	/* 33 CHAs x 2 flows x 2 events = 132 > IOCA_MAX_UNCORE_EVENTS. */
	assert_null(preset(f, 0x55, IOCA_CHA_FLOW_WRITES | IOCA_CHA_FLOW_READS));
	assert_int_equal(errno, E2BIG);
	assert_non_null(strstr(f->tl.last, "IOCA_MAX_UNCORE_EVENTS"));
}

static void test_cha_emulated_backend_uses_the_module_kinds(void **state)
{
	struct fx *f = *state;
	struct ioca_info info = {
		.backend = IOCA_BACKEND_EMULATED, .cpu_family = 6, .cpu_model = 0x3F};
	struct ioca_cha_preset *p = ioca_cha_preset__new(&info, NULL);
	const struct ioca_event *ev;
	size_t n;

	(void)f;
	assert_non_null(p);
	ev = ioca_cha_preset__events(p, &n);
	assert_int_equal(n, 2);
	assert_int_equal(ev[0].kind, IOCA_EVENT_KIND_DDIO_HIT_EMULATED);
	assert_int_equal(ev[1].kind, IOCA_EVENT_KIND_DDIO_MISS_EMULATED);
	assert_int_equal(ioca_cha_preset__nr_chas(p), 0);
	ioca_cha_preset__free(p);
}

static void test_cha_sum_adds_hits_and_misses_over_chas(void **state)
{
	struct fx *f = *state;
	struct ioca_socket_sample s = {.id = 0};
	struct ioca_cha_preset *p;
	uint64_t hit = 0, miss = 0;
	uint32_t i;

	make_tree(f, 4, "skx");
	p = preset(f, 0x55, 0);
	assert_non_null(p);
	/* Two unrelated uncore events first, then the preset's eight. */
	for (i = 0; i < 10; i++)
		s.counters[s.ncounters++] = (struct ioca_counter){.index = i, .value = 1u << i};
	assert_int_equal(ioca_cha_preset__sum(p, &s, 2, &hit, &miss), 0);
	assert_int_equal(hit, (1u << 2) + (1u << 4) + (1u << 6) + (1u << 8));
	assert_int_equal(miss, (1u << 3) + (1u << 5) + (1u << 7) + (1u << 9));
	/* Counters out of order are found by index. */
	s.counters[2].index = 9;
	s.counters[9].index = 2;
	assert_int_equal(ioca_cha_preset__sum(p, &s, 2, &hit, &miss), 0);
	assert_int_equal(hit, (1u << 9) + (1u << 4) + (1u << 6) + (1u << 8));
	s.ncounters = 9;
	assert_int_equal(ioca_cha_preset__sum(p, &s, 2, &hit, &miss), -ENODATA);
	assert_int_equal(errno, ENODATA);
	ioca_cha_preset__free(p);
}

int main(void)
{
#define T(name) cmocka_unit_test_setup_teardown(name, setup, teardown)
	const struct CMUnitTest tests[] = {
		T(test_cha_skylake_sp_events_for_every_cha),
		T(test_cha_ice_lake_uses_extended_umasks),
		T(test_cha_sapphire_rapids_and_granite_rapids_d),
		T(test_cha_itom_cache_near_left_out_when_it_does_not_fit),
		T(test_cha_field_missing_from_format_names_pmu_and_field),
		T(test_cha_value_wider_than_the_published_field),
		T(test_cha_without_pmus_is_not_available),
		T(test_cha_missing_root_is_not_available),
		T(test_cha_unknown_model_is_refused),
		T(test_cha_bad_type_file_names_the_file),
		T(test_cha_too_many_chas_for_the_abi),
		T(test_cha_emulated_backend_uses_the_module_kinds),
		T(test_cha_sum_adds_hits_and_misses_over_chas),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
