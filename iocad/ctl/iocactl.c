// SPDX-License-Identifier: GPL-2.0
/*
 * The command table drives both dispatch and usage, as iw's does: a
 * command is found by matching its name's words against argv, and the
 * usage text is the table printed.
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "iocactl.h"

const struct ctl_cmd ctl_cmds[] = {
	{"info", "[--json]", "module, sockets (DDIO masks) and sampler state", ctl_cmd_info},
	{"ddio set", "SOCKET mask MASK | SOCKET ways N",
	 "set a socket's DDIO ways (a contiguous mask, or the top N ways)", ctl_cmd_ddio_set},
	{"ddio restore", "", "put every socket's boot DDIO mask back", ctl_cmd_ddio_restore},
	{"ddio device", "ADDR on|off|full-off",
	 "DDIO for the PCIe root port above PCI device ADDR (DDDD:BB:DD.F)", ctl_cmd_ddio_device},
	{"sampler set",
	 "[--interval DUR] [--cpus LIST] [--event EV]... [--uncore TYPE:CONFIG[:CONFIG1]]... "
	 "[--ddio]",
	 "configure the sampler (stops it); --ddio adds the socket's DDIO hit/miss counters",
	 ctl_cmd_sampler_set},
	{"sampler start", "", "start periodic sampling", ctl_cmd_sampler_start},
	{"sampler stop", "", "stop periodic sampling", ctl_cmd_sampler_stop},
	{"sample", "", "collect and print one sample now", ctl_cmd_sample},
	{"monitor", "[--count N]", "print per-CPU deltas of each periodic sample", ctl_cmd_monitor},
	{NULL, NULL, NULL, NULL},
};

static const char notes[] = "DUR: 10ms, 500us, 2s; LIST: 0-3,8; EV: instructions, cycles, "
			    "llc-references,\nllc-misses, cpu-clock, task-clock or "
			    "raw:TYPE:CONFIG[:CONFIG1]\n"
			    "iocactl --help: this list; iocactl --version: the ioca release\n";

void ctl_print_usage(FILE *f, const struct ctl_cmd *cmd)
{
	const struct ctl_cmd *c;
	const char *lead = "usage:";

	for (c = cmd ? cmd : ctl_cmds; c->name; c++) {
		fprintf(f, "%-6s iocactl %s%s%s\n", lead, c->name, *c->args ? " " : "", c->args);
		if (!cmd)
			fprintf(f, "           %s\n", c->help);
		lead = "";
		if (cmd)
			return;
	}
	fputs(notes, f);
}

int ctl_usage(const struct ctl_ctx *x, const char *why, const char *fmt, ...)
{
	va_list ap;

	fputs("iocactl: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	if (why)
		fprintf(stderr, ": %s", why);
	fputc('\n', stderr);
	ctl_print_usage(stderr, x ? x->cmd : NULL);
	return IOCACTL_EXIT_USAGE;
}

/* How many leading words of argv spell @name ("ddio set" = 2), 0 if not. */
static int match(const char *name, int argc, char **argv)
{
	const char *p = name;
	int i;

	for (i = 0; i < argc; i++) {
		size_t n = strcspn(p, " ");

		if (strlen(argv[i]) != n || strncmp(argv[i], p, n))
			return 0;
		p += n;
		if (!*p)
			return i + 1;
		p++;
	}
	return 0;
}

/* No row matched: show the rows sharing the first word, or all of them. */
static int unknown(int argc, char **argv)
{
	const struct ctl_cmd *c;
	const char *lead = "usage:";
	size_t n = strlen(argv[0]);
	int i;

	fprintf(stderr, "iocactl: unknown command '");
	for (i = 0; i < argc && i < 2; i++)
		fprintf(stderr, "%s%s", i ? " " : "", argv[i]);
	fprintf(stderr, "'\n");
	for (c = ctl_cmds; c->name; c++) {
		if (strncmp(c->name, argv[0], n) || (c->name[n] && c->name[n] != ' '))
			continue;
		fprintf(stderr, "%-6s iocactl %s%s%s\n", lead, c->name, *c->args ? " " : "",
			c->args);
		lead = "";
	}
	if (*lead)
		ctl_print_usage(stderr, NULL);
	return IOCACTL_EXIT_USAGE;
}

int main(int argc, char **argv)
{
	const struct ctl_cmd *c;
	struct ctl_ctx x = {0};
	int words;

	if (argc < 2)
		return ctl_usage(NULL, NULL, "missing command");
	if (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help") || !strcmp(argv[1], "help")) {
		ctl_print_usage(stdout, NULL);
		return 0;
	}
	if (!strcmp(argv[1], "--version") || !strcmp(argv[1], "version")) {
		printf("iocactl %s\n", IOCA_VERSION);
		return 0;
	}
	for (c = ctl_cmds; c->name; c++) {
		words = match(c->name, argc - 1, argv + 1);
		if (!words)
			continue;
		x.cmd = c;
		return c->handler(&x, argc - 1 - words, argv + 1 + words);
	}
	return unknown(argc - 1, argv + 1);
}
