// SPDX-License-Identifier: GPL-2.0
/*
 * hwtimerctl: the help texts, hwtimerctl --help and each command's --help.
 * args.c parses what they describe; hwtimerctl(1) says it at length.
 */
#include <stdio.h>
#include <string.h>

#include "args.h"

static const char after_help[] =
	" %s [options] DURATION\n\n"
	"Arm a timer DURATION from now, wait for it and print how late it fired.\n\n"
	"Options:\n"
	" -e, --every PERIOD    periodic: fire every PERIOD, on the grid of the first\n"
	"                       deadline (fixed rate)\n"
	" -F, --fixed-delay     count each period from the last fire, not the grid\n"
	" -n, --count N         stop after N expiries, overruns included; without\n"
	"                       --every, N above 1 repeats every DURATION\n"
	" -s, --slack D         the timer may fire up to D late, to share wakeups\n"
	" -c, --clock CLOCK     monotonic (default), boottime or realtime\n"
	" -x, --exec CMD        run CMD with sh -c at each fire (quote it: one argument)\n"
	" -J, --json            one JSON object per fire\n";

static const char at_help[] =
	" %s [options] TIME\n\n"
	"Arm a timer at a wall-clock TIME, on the realtime clock, wait for it and\n"
	"print how late it fired. A TIME in the past fires at once.\n\n"
	"Options:\n"
	" -e, --every PERIOD    periodic: fire every PERIOD from TIME (fixed rate)\n"
	" -F, --fixed-delay     count each period from the last fire, not the grid\n"
	" -n, --count N         stop after N expiries, overruns included (N above 1\n"
	"                       needs --every)\n"
	" -s, --slack D         the timer may fire up to D late, to share wakeups\n"
	" -x, --exec CMD        run CMD with sh -c at each fire (quote it: one argument)\n"
	" -J, --json            one JSON object per fire\n";

static const char latency_help[] =
	" %s [options]\n\n"
	"Measure how late timers fire: many one-shot timers (the default), or one\n"
	"periodic timer, as cyclictest does (with -i, -l or -D). Prints min, avg,\n"
	"max and exact percentiles from every sample, and lateness histograms.\n\n"
	"One-shot mode:\n"
	" -n, --count N         timers (default 1000, at most 10000000)\n"
	" -d, --delay D         the shortest delay (default 10ms)\n"
	"     --spread D        deadlines spread over D (default 100ms)\n"
	"     --ring[=N]        records from an expiry ring of N entries (4096)\n\n"
	"Periodic mode (cyclictest's -i, -l, -D):\n"
	" -i, --interval D      the period (default 1ms)\n"
	" -l, --loops N         periods to measure (default: until interrupted)\n"
	" -D, --duration D      stop after D\n\n"
	"Both modes:\n"
	" -s, --slack D         let each timer fire up to D late (default 0)\n"
	" -p, --priority PRIO   measure at SCHED_FIFO priority PRIO (1-99)\n"
	" -a, --affinity CPUS   run on CPUS, e.g. 0, 2-3 or 0,2-3\n"
	" -m, --mlockall        lock all memory, current and future\n"
	" -C, --compare         the same schedule on timerfd, in the same run\n"
	"     --compare-histfile FILE\n"
	"                       a cyclictest --histfile from this machine, beside\n"
	"     --histfile FILE   write the histogram in cyclictest's --histfile format\n"
	"     --histogram US    its buckets of 1 us (default: up to the largest sample)\n"
	" -P, --plot FILE       draw the lateness at expiry as SVG (log count axis)\n"
	" -J, --json            one JSON object\n"
	" -q, --quiet           no progress line on a terminal\n";

static const char bench_help[] =
	" %s [options]\n\n"
	"Measure the cost of arming and cancelling a timer, against timerfd (and\n"
	"io_uring, where built with liburing), on this machine.\n\n"
	"Options:\n"
	" -n, --count N         timers per method (default 20000)\n"
	" -J, --json            one JSON object\n"
	" -q, --quiet           no progress line on a terminal\n";

static const char info_help[] =
	" %s [options]\n\n"
	"Print the module's version, tick, geometry table and limits.\n\n"
	"Options:\n"
	" -J, --json            one JSON object\n";

static const char stats_help[] =
	" %s [options]\n\n"
	"Print the module's global counters and those of every open file.\n\n"
	"Options:\n"
	" -J, --json            one JSON object\n";

static const char top_help[] =
	" %s [options]\n\n"
	"Show the wheels' occupancy per level and the counters, live.\n\n"
	"Options:\n"
	" -d, --delay D         refresh every D (default 1s, at least 10ms)\n"
	" -n, --iterations N    stop after N screens\n";

/*
 * What DURATION_FORMS and TIME_FORMS (parse.h) say in error messages,
 * wrapped to fit 80 columns, as every line of the help does.
 */
static const char durations_help[] =
	"Durations: numbers with units: ns, us, ms, s, min, h, d or w, or\n"
	"systemd.time(7)'s spellings (usec, msec, sec, minutes, hours, days,\n"
	"weeks, ...), e.g. 250ms, 1.5s, 1h30m, '2min 30s'.\n";

static const char times_help[] =
	"Times: ISO 8601: YYYY-MM-DDTHH:MM:SS[.frac][Z|+HH:MM|-HH:MM] (local\n"
	"time without a zone), or @SECONDS since the epoch.\n";

/* the forms a command's help explains: those its arguments take */
#define TAKES_DURATIONS	1
#define TAKES_TIMES	2

static const struct {
	const char *cmd;
	const char *text;
	int takes;
} helps[] = {
	{ "after", after_help, TAKES_DURATIONS },
	{ "at", at_help, TAKES_DURATIONS | TAKES_TIMES },
	{ "latency", latency_help, TAKES_DURATIONS },
	{ "bench", bench_help, 0 },
	{ "info", info_help, 0 },
	{ "stats", stats_help, 0 },
	{ "top", top_help, TAKES_DURATIONS },
};

void usage_main(FILE *f)
{
	fprintf(f, "Usage:\n"
		" hwtimerctl [options] COMMAND [command options and arguments]\n\n"
		"Schedule timers on /dev/hwtimer, measure them, and look inside\n"
		"the hwtimer kernel module.\n\n"
		"Commands:\n"
		" after DURATION    arm a timer, wait for it and print its lateness\n"
		" at TIME           the same at a wall-clock time\n"
		" latency           lateness statistics and histograms, one-shot or\n"
		"                   periodic (as cyclictest), against timerfd\n"
		" bench             arm+cancel cost against timerfd\n"
		" info              module version, tick, geometry table, limits\n"
		" stats             global and per-file counters\n"
		" top               live wheel occupancy and counters\n\n"
		"Options:\n"
		" -h, --help        display this help\n"
		" -V, --version     display version\n\n"
		"'hwtimerctl COMMAND --help' lists the options of COMMAND; they may\n"
		"come before or after its arguments.\n\n"
		"%s%s\n"
		"Exit status: 0 success, 1 failure, 2 bad command line, 3 a timer\n"
		"fired early, 128+N stopped by signal N.\n\n"
		"For more details see hwtimerctl(1).\n", durations_help, times_help);
}

/**
 * usage_command() - print the help of one command
 * @f: where
 * @cmd: the command's name
 *
 * Return: 0, or -1 for a command that does not exist.
 */
int usage_command(FILE *f, const char *cmd)
{
	char name[32];
	size_t i;

	for (i = 0; i < sizeof(helps) / sizeof(helps[0]); i++) {
		if (strcmp(helps[i].cmd, cmd))
			continue;
		snprintf(name, sizeof(name), "hwtimerctl %s", cmd);
		fprintf(f, "Usage:\n");
		fprintf(f, helps[i].text, name);
		fprintf(f, " -h, --help            display this help\n"
			" -V, --version         display version\n\n%s%s%s"
			"For more details see hwtimerctl(1).\n",
			helps[i].takes & TAKES_DURATIONS ? durations_help : "",
			helps[i].takes & TAKES_TIMES ? times_help : "",
			helps[i].takes ? "\n" : "");
		return 0;
	}
	return -1;
}
