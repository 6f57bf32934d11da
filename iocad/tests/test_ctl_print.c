// SPDX-License-Identifier: GPL-2.0
/*
 * iocactl's printers over libioca's decoded structs: the readable info and
 * sample lines scripts match, info --json, and monitor's deltas (none across
 * a counter generation change, a gap line for lost samples). The printers
 * live in the iocactl binary, so their sources are built in, with
 * libioca's kind names (util.c, pure).
 */
#include "../ctl/ctl_irdt.c"
#include "../ctl/ctl_json.c"
#include "../ctl/ctl_print.c"
#include "../../libioca/src/util.c"
#include "../../libioca/src/ddio_control.c"

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <setjmp.h>
#include <cmocka.h>

static char *text;
static size_t text_len;

static FILE *open_out(void)
{
	FILE *f;

	free(text);
	text = NULL;
	f = open_memstream(&text, &text_len);
	assert_non_null(f);
	return f;
}

static struct ioca_info *make_info(void)
{
	struct ioca_info *in = calloc(1, sizeof(*in));

	in->backend = IOCA_BACKEND_EMULATED;
	snprintf(in->backend_name, sizeof(in->backend_name), "emulated");
	in->cpu_family = 6;
	in->cpu_model = 0x55;
	snprintf(in->cpu_model_name, sizeof(in->cpu_model_name), "Xeon \"Gold\"");
	in->min_ways = 2;
	in->nsockets = 1;
	in->sockets[0] = (struct ioca_socket_info){.id = 0,
						   .llc_ways = 11,
						   .ddio_mask = 0x600,
						   .ddio_ways = 2,
						   .boot_mask = 0x600,
						   .valid_mask = 0x7ff,
						   .cpu_count = 2};
	in->has_sampler = true;
	in->sampler.state = IOCA_SAMPLER_STATE_RUNNING;
	in->sampler.interval_us = 10000;
	in->sampler.ncpus = 2;
	in->sampler.cpus[1] = 1;
	in->sampler.nevents = 1;
	in->sampler.events[0] = (struct ioca_event_info){
		.kind = IOCA_EVENT_KIND_INSTRUCTIONS, .effective_kind = IOCA_EVENT_KIND_CPU_CLOCK};
	return in;
}

static void test_ctl_print_info_lines(void **state)
{
	struct ioca_info *in = make_info();
	FILE *f = open_out();

	(void)state;
	ctl_print_info(f, in);
	fclose(f);
	assert_non_null(strstr(text, "backend: emulated\n"));
	assert_non_null(strstr(text, "  ddio-mask 0x600 ways 2\n"));
	assert_non_null(strstr(text, "sampler: running\n"));
	assert_non_null(strstr(text, "  cpus 0,1\n"));
	assert_non_null(strstr(text, "  event 0: instructions (counted as cpu-clock)\n"));
	assert_null(strstr(text, "owner-pid"));
	/* An older module: no DDIO control lines */
	assert_null(strstr(text, "ddio-control"));
	free(in);
}

static void test_ctl_print_info_ddio_control(void **state)
{
	struct ioca_info *in = make_info();
	FILE *f;

	(void)state;
	in->ddio[0] = (struct ioca_ddio_control){
		.reported = true, .available = true, .writable = false, .field = 0x7ff};
	f = open_out();
	ctl_print_info(f, in);
	fclose(f);
	assert_non_null(strstr(text, "  ddio-field 0x7ff\n"));
	assert_non_null(strstr(text, "  ddio-control available yes writable no verified no\n"));
	assert_non_null(strstr(text, "  ddio-not-controllable: DDIO writes do not stick"));
	f = open_out();
	ctl_json_info(f, in, NULL);
	fclose(f);
	assert_non_null(strstr(text, ",\"owner_pid\":0,\"ddio_field\":2047,\"ddio_available\":true,"
				     "\"ddio_writable\":false,\"ddio_verified\":false}"));
	in->ddio[0].writable = in->ddio[0].verified = true;
	f = open_out();
	ctl_print_info(f, in);
	fclose(f);
	assert_non_null(strstr(text, "  ddio-control available yes writable yes verified yes\n"));
	assert_null(strstr(text, "ddio-not-controllable"));
	free(in);
}

static void test_ctl_print_info_devices(void **state)
{
	struct ioca_info *in = make_info();
	FILE *f;

	(void)state;
	in->ndevices = 2;
	in->devices[0] = (struct ioca_device_info){.addr = "0000:01:00.0",
						   .root_port = "0000:00:1c.0",
						   .mode = IOCA_DDIO_DEVICE_MODE_FULL_OFF,
						   .perfctrlsts1 = 0x100,
						   .emulated = true,
						   .owner_pid = 42};
	in->devices[1] = (struct ioca_device_info){.addr = "0000:3a:00.0",
						   .root_port = "0000:3a:00.0",
						   .mode = IOCA_DDIO_DEVICE_MODE_ON,
						   .perfctrlsts0 = 0x80};
	f = open_out();
	ctl_print_info(f, in);
	fclose(f);
	assert_non_null(strstr(text, "device 0000:01:00.0: root-port 0000:00:1c.0 ddio full-off "
				     "perfctrlsts 0x0 0x100 emulated owner-pid 42\n"));
	assert_non_null(strstr(text, "device 0000:3a:00.0: root-port 0000:3a:00.0 ddio on "
				     "perfctrlsts 0x80 0x0\n"));
	f = open_out();
	ctl_json_info(f, in, NULL);
	fclose(f);
	assert_non_null(strstr(text, ",\"devices\":[{\"addr\":\"0000:01:00.0\",\"root_port\":"
				     "\"0000:00:1c.0\",\"ddio\":\"full-off\",\"perfctrlsts0\":0,"
				     "\"perfctrlsts1\":256,\"owner_pid\":42,\"emulated\":true},{"));
	free(in);
}

static void test_ctl_print_info_json(void **state)
{
	struct ioca_info *in = make_info();
	FILE *f = open_out();

	(void)state;
	ctl_json_info(f, in, NULL);
	fclose(f);
	assert_true(strncmp(text, "{\"backend\":\"emulated\",", 22) == 0);
	assert_non_null(strstr(text, "\"sockets\":[{\"id\":0,\"llc_ways\":11,\"ddio_mask\":1536,"));
	assert_non_null(strstr(text, "\"cpu_model_name\":\"Xeon \\\"Gold\\\"\""));
	assert_non_null(strstr(text, "\"effective_kind\":\"cpu-clock\""));
	assert_string_equal(text + strlen(text) - 2, "}\n");
	free(in);
}

static void cpu(struct ioca_sample *s, uint32_t id, uint32_t gen, uint64_t v)
{
	struct ioca_cpu_sample *c = &s->cpus[s->ncpus++];

	*c = (struct ioca_cpu_sample){.id = id, .online = true, .generation = gen, .ncounters = 1};
	c->counters[0] = (struct ioca_counter){.index = 0, .value = v};
}

static void test_ctl_print_monitor_deltas_and_generations(void **state)
{
	struct ctl_monitor *m = calloc(1, sizeof(*m));
	struct ioca_sample *s = calloc(1, sizeof(*s));

	(void)state;
	m->out = open_out();
	s->seq = 1;
	cpu(s, 0, 1, 100);
	cpu(s, 1, 1, 50);
	ctl_print_monitor(m, s);
	s->ncpus = 0;
	s->seq = 2;
	cpu(s, 0, 1, 130);
	cpu(s, 1, 1, 90);
	ctl_print_monitor(m, s);
	/* CPU 1 came back: new counters from 5, no delta against 90. */
	s->ncpus = 0;
	s->seq = 5;
	s->lost = 2;
	cpu(s, 0, 1, 200);
	cpu(s, 1, 2, 5);
	ctl_print_monitor(m, s);
	fclose(m->out);
	assert_non_null(strstr(text, "seq 1 time 0.000000 collect-ns 0 | cpu0 - | cpu1 -\n"));
	assert_non_null(strstr(text, "seq 2 time 0.000000 collect-ns 0 | cpu0 30 | cpu1 40\n"));
	assert_non_null(strstr(text, "gap: 2 sample(s) lost (seq 3..4)\n"));
	assert_non_null(strstr(text, "seq 5 time 0.000000 collect-ns 0 | cpu0 70 | cpu1 -\n"));
	assert_int_equal(m->lost, 2);
	assert_int_equal(m->seen, 3);
	free(s);
	free(m);
}

static void test_ctl_print_sample_lines(void **state)
{
	struct ioca_sample *s = calloc(1, sizeof(*s));
	FILE *f = open_out();

	(void)state;
	s->seq = 7;
	s->on_demand = true;
	cpu(s, 0, 3, 11);
	s->nsockets = 1;
	s->sockets[0].ncounters = 1;
	s->sockets[0].counters[0].value = 99;
	ctl_print_sample(f, s);
	fclose(f);
	assert_non_null(strstr(text, " on-demand\n"));
	/* Scripts match "cpu N socket S [0]": the generation comes last. */
	assert_non_null(
		strstr(text, "cpu 0 socket 0 [0] 11 (enabled 0 running 0 ns) generation 3\n"));
	assert_non_null(strstr(text, "uncore socket 0 [0] 99"));
	free(s);
	free(text);
	text = NULL;
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_ctl_print_info_lines),
		cmocka_unit_test(test_ctl_print_info_json),
		cmocka_unit_test(test_ctl_print_info_ddio_control),
		cmocka_unit_test(test_ctl_print_info_devices),
		cmocka_unit_test(test_ctl_print_monitor_deltas_and_generations),
		cmocka_unit_test(test_ctl_print_sample_lines),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
