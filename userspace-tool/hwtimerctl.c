// SPDX-License-Identifier: GPL-2.0
/*
 * hwtimerctl: schedule timers on /dev/hwtimer from the shell, measure them,
 * and look inside the module. See hwtimerctl(1). The commands live in
 * cmd_*.c, their command lines in args.c and usage.c, the helpers they
 * share in cli.c.
 */
#define _GNU_SOURCE
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

static const struct {
	const char *name;
	int (*run)(int argc, char **argv);
} cmds[] = {
	{ "after", cmd_after }, { "at", cmd_after }, { "latency", cmd_latency },
	{ "bench", cmd_bench }, { "info", cmd_info }, { "stats", cmd_stats },
	{ "top", cmd_top },
};

int main(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, 'V' },
		{ NULL, 0, NULL, 0 },
	};
	const char *cmd;
	size_t i;
	int c;

	atexit(close_stdout);
	opterr = 0;
	/* "+": the options before the command; the command parses the rest */
	while ((c = getopt_long(argc, argv, "+hV", longopts, NULL)) != -1) {
		switch (c) {
		case 'h':
			usage_main(stdout);
			return EXIT_SUCCESS;
		case 'V':
			print_version();
			return EXIT_SUCCESS;
		default:
			if (optopt)
				usage_error("unknown option '-%c' (a command's options come "
					    "after the command)", optopt);
			usage_error("unknown option '%s' (a command's options come after "
				    "the command)", argv[optind - 1]);
		}
	}
	if (optind >= argc)
		usage_error("no command given");
	cmd = argv[optind];
	argc -= optind;
	argv += optind;

	for (i = 0; i < sizeof(cmds) / sizeof(cmds[0]); i++) {
		if (strcmp(cmd, cmds[i].name))
			continue;
		cmd_name = cmd;
		return cmds[i].run(argc, argv);
	}
	usage_error("unknown command '%s'", cmd);
}
