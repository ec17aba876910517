// SPDX-License-Identifier: GPL-2.0
/*
 * hwtimerctl: each command's command line, parsed into its options struct.
 * See args.h.
 *
 * Short options have one meaning across the commands: -n how many, -d a
 * delay, -s slack, -c a clock, -e/-i a period, -p a priority, -J JSON,
 * -q no progress line, -h help, -V version.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include <linux/hwtimer.h>

#include "args.h"

/* long options without a short one */
enum {
	OPT_SPREAD = 256,
	OPT_RING,
	OPT_HISTFILE,
	OPT_HISTOGRAM,
	OPT_COMPARE_HISTFILE,
};

#define COMMON_LONGOPTS \
	{ "help", no_argument, NULL, 'h' }, \
	{ "version", no_argument, NULL, 'V' }, \
	{ NULL, 0, NULL, 0 }

/*
 * Each command's short options begin with "-": every argument comes back
 * in order, options and the others alike, whatever POSIXLY_CORRECT says;
 * then ":": no message from getopt, ':' for a missing argument.
 *
 * after and at: 'at' takes no --clock, as TIME is on the realtime clock.
 */
#define TIMER_LONGOPTS \
	{ "every", required_argument, NULL, 'e' }, \
	{ "count", required_argument, NULL, 'n' }, \
	{ "fixed-delay", no_argument, NULL, 'F' }, \
	{ "slack", required_argument, NULL, 's' }, \
	{ "exec", required_argument, NULL, 'x' }, \
	{ "json", no_argument, NULL, 'J' }

static const char after_shorts[] = "-:e:n:Fs:c:x:JhV";
static const struct option after_longopts[] = {
	TIMER_LONGOPTS,
	{ "clock", required_argument, NULL, 'c' },
	COMMON_LONGOPTS,
};

static const char at_shorts[] = "-:e:n:Fs:x:JhV";
static const struct option at_longopts[] = {
	TIMER_LONGOPTS,
	COMMON_LONGOPTS,
};

static const char latency_shorts[] = "-:n:d:s:i:l:D:p:a:mCP:JqhV";
static const struct option latency_longopts[] = {
	{ "count", required_argument, NULL, 'n' },
	{ "delay", required_argument, NULL, 'd' },
	{ "spread", required_argument, NULL, OPT_SPREAD },
	{ "ring", optional_argument, NULL, OPT_RING },
	{ "interval", required_argument, NULL, 'i' },
	{ "loops", required_argument, NULL, 'l' },
	{ "duration", required_argument, NULL, 'D' },
	{ "slack", required_argument, NULL, 's' },
	{ "priority", required_argument, NULL, 'p' },
	{ "affinity", required_argument, NULL, 'a' },
	{ "mlockall", no_argument, NULL, 'm' },
	{ "compare", no_argument, NULL, 'C' },
	{ "compare-histfile", required_argument, NULL, OPT_COMPARE_HISTFILE },
	{ "histfile", required_argument, NULL, OPT_HISTFILE },
	{ "histogram", required_argument, NULL, OPT_HISTOGRAM },
	{ "plot", required_argument, NULL, 'P' },
	{ "json", no_argument, NULL, 'J' },
	{ "quiet", no_argument, NULL, 'q' },
	COMMON_LONGOPTS,
};

static const char bench_shorts[] = "-:n:JqhV";
static const struct option bench_longopts[] = {
	{ "count", required_argument, NULL, 'n' },
	{ "json", no_argument, NULL, 'J' },
	{ "quiet", no_argument, NULL, 'q' },
	COMMON_LONGOPTS,
};

static const char top_shorts[] = "-:d:n:hV";
static const struct option top_longopts[] = {
	{ "delay", required_argument, NULL, 'd' },
	{ "iterations", required_argument, NULL, 'n' },
	COMMON_LONGOPTS,
};

static const char json_shorts[] = "-:JhV";
static const struct option json_longopts[] = {
	{ "json", no_argument, NULL, 'J' },
	COMMON_LONGOPTS,
};

const char *const args_commands[] = {
	"after", "at", "latency", "bench", "info", "stats", "top", NULL,
};

const struct option *args_longopts(const char *cmd)
{
	if (!strcmp(cmd, "after"))
		return after_longopts;
	if (!strcmp(cmd, "at"))
		return at_longopts;
	if (!strcmp(cmd, "latency"))
		return latency_longopts;
	if (!strcmp(cmd, "bench"))
		return bench_longopts;
	if (!strcmp(cmd, "top"))
		return top_longopts;
	if (!strcmp(cmd, "info") || !strcmp(cmd, "stats"))
		return json_longopts;
	return NULL;
}

static int __attribute__((format(printf, 3, 4)))
fail(char *err, size_t len, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(err, len, fmt, ap);
	va_end(ap);
	return ARGS_BAD;
}

/* the long option whose value is @val, for messages */
static const char *long_name(const struct option *longs, int val)
{
	for (; longs->name; longs++)
		if (longs->val == val)
			return longs->name;
	return "?";
}

/*
 * What getopt_long() refused in @arg (the element it was reading): an
 * unknown or ambiguous option, a missing argument (@c ':'), or an
 * argument given to a long option that takes none.
 */
static int bad_option(int c, const char *arg, const struct option *longs,
		      char *err, size_t len)
{
	size_t n, matches = 0;
	const struct option *o;
	char names[128] = "";

	if (strncmp(arg, "--", 2)) {
		if (c == ':')
			return fail(err, len, "option '-%c' needs an argument", optopt);
		return fail(err, len, "unknown option '-%c'", optopt);
	}
	n = strcspn(arg + 2, "=");
	if (c == ':')
		return fail(err, len, "option '--%.*s' needs an argument", (int)n, arg + 2);
	if (optopt)
		return fail(err, len, "option '--%s' takes no argument", long_name(longs, optopt));
	for (o = longs; o->name; o++) {
		if (strncmp(o->name, arg + 2, n))
			continue;
		snprintf(names + strlen(names), sizeof(names) - strlen(names), "%s--%s",
			 matches++ ? " or " : "", o->name);
	}
	if (matches > 1)
		return fail(err, len, "option '--%.*s' is ambiguous: %s?", (int)n, arg + 2, names);
	return fail(err, len, "unknown option '--%.*s'", (int)n, arg + 2);
}

/* A command's parser: one option (@c, its argument @arg) into @o. */
typedef int (*opt_fn)(int c, const char *arg, void *o, char *err, size_t len);

#define MAX_ARGS	4

/*
 * Parse argv[1..] with getopt_long(): options go to @fn; the other
 * arguments, wherever they stand, go to @pos (*@npos of them, at most
 * MAX_ARGS; the rest counted but not kept).
 */
static int parse(int argc, char **argv, const char *shorts, const struct option *longs,
		 opt_fn fn, void *o, const char **pos, int *npos, char *err, size_t len)
{
	int c, ret, before;

	*npos = 0;
	optind = 0;	/* glibc: start afresh */
	opterr = 0;
	for (;;) {
		before = optind ? optind : 1;
		c = getopt_long(argc, argv, shorts, longs, NULL);
		if (c == -1)
			break;
		if (c == 1) {
			if (*npos < MAX_ARGS)
				pos[*npos] = optarg;
			++*npos;
			continue;
		}
		if (c == 'h')
			return ARGS_HELP;
		if (c == 'V')
			return ARGS_VERSION;
		if (c == '?' || c == ':')
			return bad_option(c, argv[before], longs, err, len);
		ret = fn(c, optarg, o, err, len);
		if (ret)
			return ret;
	}
	/* after "--" */
	for (; optind < argc; optind++) {
		if (*npos < MAX_ARGS)
			pos[*npos] = argv[optind];
		++*npos;
	}
	return ARGS_RUN;
}

/* parse(), for a command that takes options only */
static int parse_options(int argc, char **argv, const char *shorts,
			 const struct option *longs, opt_fn fn, void *o, char *err, size_t len)
{
	const char *pos[MAX_ARGS];
	int npos, ret = parse(argc, argv, shorts, longs, fn, o, pos, &npos, err, len);

	if (!ret && npos)
		return fail(err, len, "'%s' takes no arguments, only options", argv[0]);
	return ret;
}

static int opt_duration(const char *opt, const char *s, uint64_t *ns, char *err, size_t len)
{
	char why[PARSE_WHY_LEN];

	if (parse_duration(s, ns, why, sizeof(why)))
		return fail(err, len, "invalid %s '%s': %s", opt, s, why);
	return 0;
}

static int opt_count(const char *opt, const char *s, uint64_t min, uint64_t max,
		     uint64_t *v, char *err, size_t len)
{
	if (parse_count(s, min, max, v))
		return fail(err, len, "invalid %s '%s': expected a whole number from %llu to %llu",
			    opt, s, (unsigned long long)min, (unsigned long long)max);
	return 0;
}

static int opt_clock(const char *s, clockid_t *clk, char *err, size_t len)
{
	if (!strcmp(s, "monotonic"))
		*clk = CLOCK_MONOTONIC;
	else if (!strcmp(s, "boottime"))
		*clk = CLOCK_BOOTTIME;
	else if (!strcmp(s, "realtime"))
		*clk = CLOCK_REALTIME;
	else
		return fail(err, len, "invalid --clock '%s': expected monotonic, boottime or "
			    "realtime", s);
	return 0;
}

/* after, at */

static int after_opt(int c, const char *arg, void *data, char *err, size_t len)
{
	struct after_opts *o = data;

	switch (c) {
	case 'e':
		if (opt_duration("--every", arg, &o->period, err, len))
			return ARGS_BAD;
		if (!o->period)
			return fail(err, len, "invalid --every '%s': the period must be "
				    "longer than 0", arg);
		return 0;
	case 'n':
		return opt_count("--count", arg, 1, UINT64_MAX, &o->count, err, len);
	case 'F':
		o->fixed_delay = true;
		return 0;
	case 's':
		return opt_duration("--slack", arg, &o->slack, err, len);
	case 'c':
		return opt_clock(arg, &o->clock, err, len);
	case 'x':
		o->exec = arg;
		return 0;
	case 'J':
		o->json = true;
		return 0;
	}
	return fail(err, len, "option '-%c' is not handled", c);
}

int after_args(int argc, char **argv, struct after_opts *o, char *err, size_t len)
{
	const char *pos[MAX_ARGS];
	bool at = !strcmp(argv[0], "at");
	char why[PARSE_WHY_LEN];
	int npos, ret;

	*o = (struct after_opts){ .clock = CLOCK_MONOTONIC, .absolute = at };
	ret = parse(argc, argv, at ? at_shorts : after_shorts, at ? at_longopts : after_longopts,
		    after_opt, o, pos, &npos, err, len);
	if (ret)
		return ret;
	if (npos != 1)
		return fail(err, len, at ? "'at' takes one TIME (%s)" :
			    "'after' takes one DURATION (%s)", at ? TIME_FORMS : DURATION_FORMS);
	if (at) {
		ret = parse_time(pos[0], &o->expires);
		if (ret == -ERANGE)
			return fail(err, len, "time '%s' is out of range (before 1970 or "
				    "after 2554)", pos[0]);
		if (ret)
			return fail(err, len, "invalid time '%s': expected %s", pos[0], TIME_FORMS);
		o->clock = CLOCK_REALTIME;
	} else {
		ret = parse_duration(pos[0], &o->expires, why, sizeof(why));
		if (ret)
			return fail(err, len, "invalid duration '%s': %s", pos[0], why);
	}
	/* "after 10ms -n 3": three expiries, 10 ms apart */
	if (o->count > 1 && !o->period && !at && o->expires)
		o->period = o->expires;
	if (o->count > 1 && !o->period)
		return fail(err, len, at ? "--count above 1 needs --every PERIOD" :
			    "--count above 1 repeats every DURATION, and 0 is no period: "
			    "give --every PERIOD");
	if (o->fixed_delay && !o->period)
		return fail(err, len, "--fixed-delay needs --every PERIOD");
	return ARGS_RUN;
}

/* latency */

struct latency_parse {
	struct latency_opts *o;
	const char *oneshot;	/* an option of the one-shot mode given */
	const char *periodic;	/* and of the periodic mode */
	bool count, delay, spread;
};

static int ring_entries(const char *arg, uint32_t *ring, char *err, size_t len)
{
	uint64_t n = 4096;

	if (arg && opt_count("--ring", arg, 1, HWTIMER_RING_MAX_ENTRIES, &n, err, len))
		return ARGS_BAD;
	if (n & (n - 1))
		return fail(err, len, "invalid --ring '%s': the ring's entries must be a power "
			    "of two, such as %llu", arg,
			    (unsigned long long)(1ULL << (63 - __builtin_clzll(n))));
	*ring = (uint32_t)n;
	return 0;
}

static int latency_opt(int c, const char *arg, void *data, char *err, size_t len)
{
	struct latency_parse *l = data;
	struct latency_opts *o = l->o;
	char why[PARSE_WHY_LEN];
	uint64_t v;

	switch (c) {
	case 'n':
		l->oneshot = "--count";
		l->count = true;
		return opt_count("--count", arg, 1, LAT_MAX_TIMERS, &o->count, err, len);
	case 'd':
		l->oneshot = "--delay";
		l->delay = true;
		return opt_duration("--delay", arg, &o->delay, err, len);
	case OPT_SPREAD:
		l->oneshot = "--spread";
		l->spread = true;
		return opt_duration("--spread", arg, &o->spread, err, len);
	case OPT_RING:
		l->oneshot = "--ring";
		return ring_entries(arg, &o->ring, err, len);
	case 'i':
		l->periodic = "--interval";
		if (opt_duration("--interval", arg, &o->interval, err, len))
			return ARGS_BAD;
		if (!o->interval)
			return fail(err, len, "invalid --interval '%s': the interval must be "
				    "longer than 0", arg);
		return 0;
	case 'l':
		l->periodic = "--loops";
		return opt_count("--loops", arg, 1, LAT_MAX_SAMPLES, &o->loops, err, len);
	case 'D':
		l->periodic = "--duration";
		if (opt_duration("--duration", arg, &o->duration, err, len))
			return ARGS_BAD;
		if (!o->duration)
			return fail(err, len, "invalid --duration '%s': it must be longer than 0",
				    arg);
		return 0;
	case 's':
		return opt_duration("--slack", arg, &o->slack, err, len);
	case 'p':
		if (opt_count("--priority", arg, 1, 99, &v, err, len))
			return fail(err, len, "invalid --priority '%s': expected a SCHED_FIFO "
				    "priority from 1 to 99", arg);
		o->priority = (int)v;
		return 0;
	case 'a':
		if (parse_cpulist(arg, &o->cpus, why, sizeof(why)))
			return fail(err, len, "invalid --affinity '%s': %s", arg, why);
		o->affinity = true;
		o->cpulist = arg;
		return 0;
	case 'm':
		o->mlock = true;
		return 0;
	case 'C':
		o->compare = true;
		return 0;
	case OPT_COMPARE_HISTFILE:
		o->compare_histfile = arg;
		return 0;
	case OPT_HISTFILE:
		o->histfile = arg;
		return 0;
	case OPT_HISTOGRAM:
		if (opt_count("--histogram", arg, 1, LAT_MAX_BUCKETS, &v, err, len))
			return ARGS_BAD;
		o->hist_buckets = (uint32_t)v;
		return 0;
	case 'P':
		o->plot = arg;
		return 0;
	case 'J':
		o->json = true;
		return 0;
	case 'q':
		o->quiet = true;
		return 0;
	}
	return fail(err, len, "option '-%c' is not handled", c);
}

/* the periodic mode's expiries, from --loops and --duration */
static int latency_expiries(struct latency_opts *o, char *err, size_t len)
{
	char a[32], b[32];
	uint64_t e = o->loops;

	if (o->duration && o->duration < o->interval)
		return fail(err, len, "--duration %s is shorter than one --interval (%s): "
			    "nothing to measure", format_duration(a, sizeof(a), o->duration),
			    format_duration(b, sizeof(b), o->interval));
	if (o->duration && (!e || o->duration / o->interval < e))
		e = o->duration / o->interval;
	if (e > LAT_MAX_SAMPLES)
		return fail(err, len, "--duration %s at --interval %s is %llu samples, and "
			    "latency keeps at most %llu (4 bytes each, for exact percentiles): "
			    "use a longer interval or a shorter duration",
			    format_duration(a, sizeof(a), o->duration),
			    format_duration(b, sizeof(b), o->interval), (unsigned long long)e,
			    LAT_MAX_SAMPLES);
	o->expiries = e;
	return 0;
}

int latency_args(int argc, char **argv, struct latency_opts *o, char *err, size_t len)
{
	struct latency_parse l = { .o = o };
	int ret;

	*o = (struct latency_opts){ 0 };
	ret = parse_options(argc, argv, latency_shorts, latency_longopts, latency_opt, &l,
			    err, len);
	if (ret)
		return ret;
	if (l.oneshot && l.periodic)
		return fail(err, len, "%s is for the one-shot mode, and %s makes the run "
			    "periodic: leave one out (-l/--loops counts the periodic "
			    "mode's samples)", l.oneshot, l.periodic);
	if (o->hist_buckets && !o->histfile)
		return fail(err, len, "--histogram sets the buckets of --histfile: give "
			    "--histfile FILE too");
	o->periodic = l.periodic != NULL;
	if (o->periodic) {
		if (!o->interval)
			o->interval = LAT_DEFAULT_INTERVAL;
		return latency_expiries(o, err, len) ? ARGS_BAD : ARGS_RUN;
	}
	if (!l.count)
		o->count = 1000;
	if (!l.delay)
		o->delay = 10 * NSEC_PER_MSEC;
	if (!l.spread)
		o->spread = 100 * NSEC_PER_MSEC;
	return ARGS_RUN;
}

/* bench, top, info, stats */

static int bench_opt(int c, const char *arg, void *data, char *err, size_t len)
{
	struct bench_opts *o = data;

	switch (c) {
	case 'n':
		return opt_count("--count", arg, 1, 100000000, &o->count, err, len);
	case 'J':
		o->json = true;
		return 0;
	case 'q':
		o->quiet = true;
		return 0;
	}
	return fail(err, len, "option '-%c' is not handled", c);
}

int bench_args(int argc, char **argv, struct bench_opts *o, char *err, size_t len)
{
	*o = (struct bench_opts){ .count = 20000 };
	return parse_options(argc, argv, bench_shorts, bench_longopts, bench_opt, o, err, len);
}

static int top_opt(int c, const char *arg, void *data, char *err, size_t len)
{
	struct top_opts *o = data;

	switch (c) {
	case 'd':
		if (opt_duration("--delay", arg, &o->delay, err, len))
			return ARGS_BAD;
		if (o->delay < 10 * NSEC_PER_MSEC)
			return fail(err, len, "invalid --delay '%s': it must be at least 10ms", arg);
		return 0;
	case 'n':
		return opt_count("--iterations", arg, 1, UINT64_MAX, &o->iterations, err, len);
	}
	return fail(err, len, "option '-%c' is not handled", c);
}

int top_args(int argc, char **argv, struct top_opts *o, char *err, size_t len)
{
	*o = (struct top_opts){ .delay = NSEC_PER_SEC };
	return parse_options(argc, argv, top_shorts, top_longopts, top_opt, o, err, len);
}

static int json_opt(int c, const char *arg, void *data, char *err, size_t len)
{
	if (c != 'J')
		return fail(err, len, "option '-%c' is not handled", c);
	*(bool *)data = true;
	return 0;
}

int json_args(int argc, char **argv, bool *json, char *err, size_t len)
{
	*json = false;
	return parse_options(argc, argv, json_shorts, json_longopts, json_opt, json, err, len);
}
