// SPDX-License-Identifier: GPL-2.0
/*
 * hwtimerctl: schedule timers on /dev/hwtimer from the shell, measure them,
 * and look inside the module. See hwtimerctl(1). The commands live in
 * cmd_*.c, the helpers they share in cli.c.
 */
#define _GNU_SOURCE
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

/* main */

static void __attribute__((noreturn)) usage(void)
{
	printf("Usage:\n"
	       " %s [options] <command> [command options]\n\n"
	       "Schedule timers on /dev/hwtimer, measure them, and look inside\n"
	       "the hwtimer kernel module.\n\n"
	       "Commands:\n"
	       " after DURATION    arm a timer, wait for it and print its lateness\n"
	       "   -e, --every PERIOD   periodic: fire every PERIOD (fixed rate)\n"
	       "   -D, --fixed-delay    period counts from each fire, not the grid\n"
	       "   -n, --count N        stop after N expiries (overruns included)\n"
	       "   -s, --slack DURATION may fire up to DURATION late, to share wakeups\n"
	       "   -c, --clock CLOCK    monotonic (default), boottime or realtime\n"
	       "   -x, --exec CMD       run CMD with sh -c at each fire\n"
	       "   -J, --json           one JSON object per fire\n"
	       " at TIME           like after, at a wall-clock time (ISO 8601),\n"
	       "                   on the realtime clock; takes the same options\n"
	       "                   but --clock\n"
	       " latency           many timers, then a lateness histogram\n"
	       "   -n, --count N        timers (default 1000)\n"
	       "   -d, --delay D        shortest delay (default 10ms)\n"
	       "   -s, --spread D       delays spread over D (default 100ms)\n"
	       "   -p, --plot FILE      write the histogram as SVG\n"
	       "   -S, --slack D        let each timer fire up to D late, to share\n"
	       "                        wakeups (default 0: at its deadline)\n"
	       "   -c, --compare        the same deadlines on timerfds, same run\n"
	       "   --ring[=N]           records from an expiry ring of N (4096)\n"
	       "   -J, --json           JSON output\n"
	       " bench             arm+cancel cost against timerfd on this machine\n"
	       "   -n, --count N        timers per method (default 20000)\n"
	       "   -J, --json           JSON output\n"
	       " info              module version, tick, geometry table, limits\n"
	       "   -J, --json           JSON output\n"
	       " stats             global and per-file counters\n"
	       "   -J, --json           JSON output\n"
	       " top               live wheel occupancy and counters\n"
	       "   -d, --delay D        refresh interval (default 1s)\n"
	       "   -n, --iterations N   stop after N screens\n\n"
	       "Options:\n"
	       " -h, --help        display this help\n"
	       " -V, --version     display version\n\n"
	       "Durations: %s.\n"
	       "Times: %s.\n\n"
	       "For more details see hwtimerctl(1).\n",
	       prog, DURATION_FORMS, TIME_FORMS);
	exit(EXIT_SUCCESS);
}

int main(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, 'V' },
		{ NULL, 0, NULL, 0 },
	};
	const char *cmd;
	int c, json = 0;

	atexit(close_stdout);
	while ((c = getopt_long(argc, argv, "+hV", longopts, NULL)) != -1) {
		switch (c) {
		case 'h':
			usage();
		case 'V':
			printf("%s from hwtimer %s\n", prog, LIBHWTIMER_VERSION);
			return 0;
		default:
			errtryhelp();
		}
	}
	if (optind >= argc)
		usage_error("no command given");
	cmd = argv[optind];
	/* each command parses its own options from its own argv */
	argc -= optind;
	argv += optind;
	optind = 1;

	if (!strcmp(cmd, "after"))
		return cmd_after(argc, argv, false);
	if (!strcmp(cmd, "at"))
		return cmd_after(argc, argv, true);
	if (!strcmp(cmd, "latency"))
		return cmd_latency(argc, argv);
	if (!strcmp(cmd, "bench"))
		return cmd_bench(argc, argv);
	if (!strcmp(cmd, "stats"))
		return cmd_stats(argc, argv);
	if (!strcmp(cmd, "top"))
		return cmd_top(argc, argv);
	if (!strcmp(cmd, "info")) {
		static const struct option o[] = {
			{ "json", no_argument, NULL, 'J' }, { NULL, 0, NULL, 0 },
		};

		while ((c = getopt_long(argc, argv, "J", o, NULL)) != -1) {
			if (c != 'J')
				errtryhelp();
			json = 1;
		}
		if (optind != argc)
			usage_error("'info' takes no arguments");
		cmd_info(json);
		return 0;
	}
	usage_error("unknown command '%s'", cmd);
}
