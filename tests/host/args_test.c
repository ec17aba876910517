// SPDX-License-Identifier: GPL-2.0
/*
 * hwtimerctl's command lines, on the host, without the device: each
 * command's options, in any order and under POSIXLY_CORRECT, with their
 * errors, help and version; one meaning per short option; latency's two
 * modes and their limits; and that the help, the man page and the bash
 * completion know every long option.
 */
#define _GNU_SOURCE
#include <stdlib.h>
#include <unistd.h>

#include "kselftest_harness.h"
#include "args.h"

#define MAN_PAGE	"userspace-tool/man/hwtimerctl.1"
#define COMPLETION	"userspace-tool/completion/hwtimerctl"
#define S		NSEC_PER_SEC

#define ARGV(...)	((char *[]){ __VA_ARGS__, NULL })
#define ARGC(v)		((int)(sizeof(v) / sizeof((v)[0])) - 1)

static char err[ARGS_ERR_LEN];

#define AFTER(o, ...) ({ char **v_ = ARGV(__VA_ARGS__); int n_ = 0; \
	while (v_[n_]) n_++; after_args(n_, v_, (o), err, sizeof(err)); })
#define LATENCY(o, ...) ({ char **v_ = ARGV(__VA_ARGS__); int n_ = 0; \
	while (v_[n_]) n_++; latency_args(n_, v_, (o), err, sizeof(err)); })

TEST(options_after_the_argument)
{
	struct after_opts o;

	ASSERT_EQ(ARGS_RUN, AFTER(&o, "after", "10ms", "-n", "3")) TH_LOG("%s", err);
	EXPECT_EQ(10 * NSEC_PER_MSEC, o.expires);
	EXPECT_EQ(3ULL, o.count);
	/* -n above 1 without --every repeats every DURATION */
	EXPECT_EQ(10 * NSEC_PER_MSEC, o.period);
	ASSERT_EQ(ARGS_RUN, AFTER(&o, "after", "1s", "--json", "--every", "250ms", "-s", "1ms"));
	EXPECT_EQ(250 * NSEC_PER_MSEC, o.period);
	EXPECT_EQ(NSEC_PER_MSEC, o.slack);
	EXPECT_TRUE(o.json);
	ASSERT_EQ(ARGS_RUN, AFTER(&o, "after", "-n", "2", "-e", "1s", "1h30m"));
	EXPECT_EQ(5400 * S, o.expires);
}

TEST(options_anywhere_even_under_posixly_correct)
{
	struct after_opts o;

	setenv("POSIXLY_CORRECT", "1", 1);
	ASSERT_EQ(ARGS_RUN, AFTER(&o, "after", "10ms", "-n", "3")) TH_LOG("%s", err);
	unsetenv("POSIXLY_CORRECT");
	EXPECT_EQ(3ULL, o.count);
}

TEST(exec_keeps_its_argument)
{
	struct after_opts o;

	ASSERT_EQ(ARGS_RUN, AFTER(&o, "after", "5ms", "-x", "echo -n hi --json", "-n", "2"));
	EXPECT_STREQ("echo -n hi --json", o.exec);
	EXPECT_FALSE(o.json);
	EXPECT_EQ(2ULL, o.count);
	ASSERT_EQ(ARGS_RUN, AFTER(&o, "after", "--exec=date -u", "5ms"));
	EXPECT_STREQ("date -u", o.exec);
}

TEST(double_dash_ends_options)
{
	struct after_opts o;

	ASSERT_EQ(ARGS_RUN, AFTER(&o, "after", "-J", "--", "10ms"));
	EXPECT_TRUE(o.json);
	/* after "--", "-5s" is the argument, and has a sign */
	EXPECT_EQ(ARGS_BAD, AFTER(&o, "after", "--", "-5s"));
	EXPECT_STREQ("invalid duration '-5s': a duration has no sign: write it without the '-'",
		     err);
}

TEST(unknown_options)
{
	struct after_opts o;

	EXPECT_EQ(ARGS_BAD, AFTER(&o, "after", "1s", "-z"));
	EXPECT_STREQ("unknown option '-z'", err);
	EXPECT_EQ(ARGS_BAD, AFTER(&o, "after", "1s", "-Jz"));
	EXPECT_STREQ("unknown option '-z'", err);
	EXPECT_EQ(ARGS_BAD, AFTER(&o, "after", "--frobnicate", "1s"));
	EXPECT_STREQ("unknown option '--frobnicate'", err);
	/* the old short options that now mean another thing, or nothing */
	EXPECT_EQ(ARGS_BAD, AFTER(&o, "after", "-D", "1s"));
	EXPECT_STREQ("unknown option '-D'", err);
}

TEST(ambiguous_option)
{
	struct latency_opts o;

	EXPECT_EQ(ARGS_BAD, LATENCY(&o, "latency", "--s", "1ms"));
	EXPECT_NE(NULL, strstr(err, "option '--s' is ambiguous: ")) TH_LOG("%s", err);
	EXPECT_NE(NULL, strstr(err, "--slack"));
	EXPECT_NE(NULL, strstr(err, "--spread"));
	/* an unambiguous abbreviation is the option, as cyclictest's --prio */
	ASSERT_EQ(ARGS_RUN, LATENCY(&o, "latency", "--prio", "80"));
	EXPECT_EQ(80, o.priority);
}

TEST(missing_argument)
{
	struct after_opts o;

	EXPECT_EQ(ARGS_BAD, AFTER(&o, "after", "1s", "-n"));
	EXPECT_STREQ("option '-n' needs an argument", err);
	EXPECT_EQ(ARGS_BAD, AFTER(&o, "after", "1s", "--every"));
	EXPECT_STREQ("option '--every' needs an argument", err);
}

TEST(argument_to_a_flag)
{
	struct after_opts o;

	EXPECT_EQ(ARGS_BAD, AFTER(&o, "after", "1s", "--json=yes"));
	EXPECT_STREQ("option '--json' takes no argument", err);
}

TEST(after_argument_count)
{
	struct after_opts o;

	EXPECT_EQ(ARGS_BAD, AFTER(&o, "after"));
	EXPECT_EQ(0, strncmp(err, "'after' takes one DURATION", 26));
	EXPECT_EQ(ARGS_BAD, AFTER(&o, "after", "1s", "2s"));
	EXPECT_EQ(0, strncmp(err, "'after' takes one DURATION", 26));
}

TEST(after_bad_values)
{
	struct after_opts o;

	EXPECT_EQ(ARGS_BAD, AFTER(&o, "after", "1x"));
	EXPECT_EQ(0, strncmp(err, "invalid duration '1x': unknown unit 'x'", 39)) TH_LOG("%s", err);
	EXPECT_EQ(ARGS_BAD, AFTER(&o, "after", "-e", "0s", "1s"));
	EXPECT_STREQ("invalid --every '0s': the period must be longer than 0", err);
	EXPECT_EQ(ARGS_BAD, AFTER(&o, "after", "-n", "0", "1s"));
	EXPECT_EQ(0, strncmp(err, "invalid --count '0': expected a whole number from 1", 51));
	EXPECT_EQ(ARGS_BAD, AFTER(&o, "after", "-c", "tai", "1s"));
	EXPECT_STREQ("invalid --clock 'tai': expected monotonic, boottime or realtime", err);
	EXPECT_EQ(ARGS_BAD, AFTER(&o, "after", "-s", "10", "1s"));
	EXPECT_EQ(0, strncmp(err, "invalid --slack '10': '10' has no unit", 38));
}

TEST(after_needs_a_period)
{
	struct after_opts o;

	EXPECT_EQ(ARGS_BAD, AFTER(&o, "after", "--fixed-delay", "1s"));
	EXPECT_STREQ("--fixed-delay needs --every PERIOD", err);
	EXPECT_EQ(ARGS_BAD, AFTER(&o, "after", "-n", "2", "0s"));
	EXPECT_EQ(0, strncmp(err, "--count above 1 repeats every DURATION, and 0", 45));
	ASSERT_EQ(ARGS_RUN, AFTER(&o, "after", "-F", "-n", "2", "1s"));
	EXPECT_TRUE(o.fixed_delay);
}

TEST(at_takes_a_time_and_no_clock)
{
	struct after_opts o;

	ASSERT_EQ(ARGS_RUN, AFTER(&o, "at", "@1", "--json"));
	EXPECT_TRUE(o.absolute);
	EXPECT_EQ(S, o.expires);
	EXPECT_EQ(CLOCK_REALTIME, o.clock);
	/* TIME is on the realtime clock */
	EXPECT_EQ(ARGS_BAD, AFTER(&o, "at", "-c", "boottime", "@1"));
	EXPECT_STREQ("unknown option '-c'", err);
	EXPECT_EQ(ARGS_BAD, AFTER(&o, "at", "2030-02-30T00:00:00Z"));
	EXPECT_EQ(0, strncmp(err, "invalid time '2030-02-30T00:00:00Z'", 35));
	EXPECT_EQ(ARGS_BAD, AFTER(&o, "at", "1969-01-01T00:00:00Z"));
	EXPECT_EQ(0, strncmp(err, "time '1969-01-01T00:00:00Z' is out of range", 43));
	EXPECT_EQ(ARGS_BAD, AFTER(&o, "at", "-n", "3", "@1"));
	EXPECT_STREQ("--count above 1 needs --every PERIOD", err);
}

TEST(help_and_version_on_every_command)
{
	const char *const *cmd;

	for (cmd = args_commands; *cmd; cmd++) {
		const struct option *lo = args_longopts(*cmd);
		char *help = NULL, head[64];
		size_t len = 0;
		FILE *f;

		ASSERT_NE(NULL, lo) TH_LOG("%s", *cmd);
		f = open_memstream(&help, &len);
		ASSERT_NE(NULL, f);
		ASSERT_EQ(0, usage_command(f, *cmd));
		fclose(f);
		snprintf(head, sizeof(head), "Usage:\n hwtimerctl %s ", *cmd);
		EXPECT_EQ(0, strncmp(help, head, strlen(head))) TH_LOG("%s", help);
		/* the help names every option */
		for (; lo->name; lo++) {
			char name[64];

			snprintf(name, sizeof(name), "--%s", lo->name);
			EXPECT_NE(NULL, strstr(help, name)) TH_LOG("%s: %s", *cmd, name);
		}
		free(help);
	}
	EXPECT_EQ(-1, usage_command(stdout, "frobnicate"));
}

/* every line of @help fits 80 columns; 0 if so */
static int fits_80_columns(const char *help, const char *what)
{
	const char *l, *nl;

	for (l = help; *l; l = nl + 1) {
		nl = strchrnul(l, '\n');
		if (nl - l >= 80) {
			fprintf(stderr, "%s: %d columns: %.*s\n", what, (int)(nl - l), (int)(nl - l), l);
			return -1;
		}
		if (!*nl)
			break;
	}
	return 0;
}

/*
 * The help fits a terminal of 80 columns, and says how to write durations
 * and times only to the commands that take them.
 */
TEST(help_fits_80_columns_and_explains_what_it_takes)
{
	static const char *const with_durations[] = { "after", "at", "latency", "top", NULL };
	const char *const *cmd, *const *d;
	char *help = NULL;
	size_t len = 0;
	FILE *f;

	f = open_memstream(&help, &len);
	ASSERT_NE(NULL, f);
	usage_main(f);
	fclose(f);
	EXPECT_EQ(0, fits_80_columns(help, "hwtimerctl --help"));
	EXPECT_NE(NULL, strstr(help, "\nDurations: "));
	EXPECT_NE(NULL, strstr(help, "\nTimes: "));
	free(help);
	for (cmd = args_commands; *cmd; cmd++) {
		int takes = 0;

		for (d = with_durations; *d; d++)
			takes |= !strcmp(*d, *cmd);
		help = NULL;
		f = open_memstream(&help, &len);
		ASSERT_NE(NULL, f);
		ASSERT_EQ(0, usage_command(f, *cmd));
		fclose(f);
		EXPECT_EQ(0, fits_80_columns(help, *cmd));
		EXPECT_EQ(takes, strstr(help, "\nDurations: ") != NULL) TH_LOG("%s", *cmd);
		EXPECT_EQ(!strcmp(*cmd, "at"), strstr(help, "\nTimes: ") != NULL) TH_LOG("%s", *cmd);
		free(help);
	}
}

/* each command's parser says -h, --help, -V and --version, after anything */
TEST(help_and_version_parse_on_every_command)
{
	struct after_opts a;
	struct latency_opts l;
	struct bench_opts b;
	struct top_opts t;
	bool j;

	EXPECT_EQ(ARGS_HELP, AFTER(&a, "after", "1s", "--help"));
	EXPECT_EQ(ARGS_HELP, AFTER(&a, "at", "-h"));
	EXPECT_EQ(ARGS_VERSION, AFTER(&a, "after", "-V"));
	EXPECT_EQ(ARGS_HELP, LATENCY(&l, "latency", "--help"));
	EXPECT_EQ(ARGS_VERSION, LATENCY(&l, "latency", "-n", "5", "--version"));
	EXPECT_EQ(ARGS_HELP, bench_args(2, ARGV("bench", "-h"), &b, err, sizeof(err)));
	EXPECT_EQ(ARGS_HELP, top_args(2, ARGV("top", "--help"), &t, err, sizeof(err)));
	EXPECT_EQ(ARGS_HELP, json_args(2, ARGV("info", "--help"), &j, err, sizeof(err)));
	EXPECT_EQ(ARGS_VERSION, json_args(2, ARGV("stats", "-V"), &j, err, sizeof(err)));
}

/* -s is slack wherever it is taken, -c a clock, -p a priority: one meaning */
TEST(short_options_mean_one_thing)
{
	const char *meaning[128] = { 0 };
	const char *const *cmd;

	for (cmd = args_commands; *cmd; cmd++) {
		const struct option *lo;

		for (lo = args_longopts(*cmd); lo->name; lo++) {
			if (lo->val <= 0 || lo->val >= 128)
				continue;
			if (!meaning[lo->val])
				meaning[lo->val] = lo->name;
			/* top's -n counts screens: "how many", as everywhere */
			if (lo->val == 'n' || lo->val == 'd')
				continue;
			EXPECT_STREQ(meaning[lo->val], lo->name) TH_LOG("-%c in %s", lo->val, *cmd);
		}
	}
	EXPECT_STREQ("slack", meaning['s']);
	EXPECT_STREQ("clock", meaning['c']);
	EXPECT_STREQ("priority", meaning['p']);
	EXPECT_STREQ("duration", meaning['D']);
	EXPECT_STREQ("fixed-delay", meaning['F']);
	EXPECT_STREQ("compare", meaning['C']);
	EXPECT_STREQ("plot", meaning['P']);
}

TEST(other_commands_take_no_arguments)
{
	struct bench_opts b;
	struct top_opts t;
	bool j;

	EXPECT_EQ(ARGS_BAD, bench_args(2, ARGV("bench", "x"), &b, err, sizeof(err)));
	EXPECT_STREQ("'bench' takes no arguments, only options", err);
	EXPECT_EQ(ARGS_BAD, top_args(2, ARGV("top", "x"), &t, err, sizeof(err)));
	EXPECT_EQ(ARGS_BAD, json_args(2, ARGV("info", "x"), &j, err, sizeof(err)));
	EXPECT_STREQ("'info' takes no arguments, only options", err);
	ASSERT_EQ(ARGS_RUN, bench_args(4, ARGV("bench", "-q", "-n", "500"), &b, err, sizeof(err)));
	EXPECT_EQ(500ULL, b.count);
	EXPECT_TRUE(b.quiet);
	EXPECT_EQ(ARGS_BAD, top_args(3, ARGV("top", "-d", "1ms"), &t, err, sizeof(err)));
	EXPECT_STREQ("invalid --delay '1ms': it must be at least 10ms", err);
}

TEST(latency_oneshot_defaults)
{
	struct latency_opts o;

	ASSERT_EQ(ARGS_RUN, LATENCY(&o, "latency"));
	EXPECT_FALSE(o.periodic);
	EXPECT_EQ(1000ULL, o.count);
	EXPECT_EQ(10 * NSEC_PER_MSEC, o.delay);
	EXPECT_EQ(100 * NSEC_PER_MSEC, o.spread);
	ASSERT_EQ(ARGS_RUN, LATENCY(&o, "latency", "-n", "100", "-d", "5ms", "--spread", "0s",
				    "--ring=64", "-C"));
	EXPECT_EQ(100ULL, o.count);
	EXPECT_EQ(0ULL, o.spread);
	EXPECT_EQ(64U, o.ring);
	EXPECT_TRUE(o.compare);
	ASSERT_EQ(ARGS_RUN, LATENCY(&o, "latency", "--ring"));
	EXPECT_EQ(4096U, o.ring);
}

TEST(latency_periodic_from_interval_loops_or_duration)
{
	struct latency_opts o;

	ASSERT_EQ(ARGS_RUN, LATENCY(&o, "latency", "-i", "200us"));
	EXPECT_TRUE(o.periodic);
	EXPECT_EQ(200 * NSEC_PER_USEC, o.interval);
	EXPECT_EQ(0ULL, o.expiries);	/* until interrupted */
	ASSERT_EQ(ARGS_RUN, LATENCY(&o, "latency", "-l", "100"));
	EXPECT_EQ(LAT_DEFAULT_INTERVAL, o.interval);
	EXPECT_EQ(100ULL, o.expiries);
	ASSERT_EQ(ARGS_RUN, LATENCY(&o, "latency", "-D", "1s", "-i", "10ms"));
	EXPECT_EQ(100ULL, o.expiries);
	/* both: whichever ends first, as cyclictest */
	ASSERT_EQ(ARGS_RUN, LATENCY(&o, "latency", "-D", "1s", "-i", "10ms", "-l", "50"));
	EXPECT_EQ(50ULL, o.expiries);
	ASSERT_EQ(ARGS_RUN, LATENCY(&o, "latency", "-D", "1s", "-i", "10ms", "-l", "500"));
	EXPECT_EQ(100ULL, o.expiries);
}

TEST(latency_cyclictest_settings)
{
	struct latency_opts o;

	ASSERT_EQ(ARGS_RUN, LATENCY(&o, "latency", "-l", "10", "-p", "80", "-a", "0-1", "-m",
				    "--histfile", "/tmp/h", "--histogram", "400", "-q", "-J",
				    "-P", "/tmp/p.svg", "--compare-histfile", "/tmp/c"));
	EXPECT_EQ(80, o.priority);
	EXPECT_TRUE(o.affinity);
	EXPECT_EQ(2, CPU_COUNT(&o.cpus));
	EXPECT_STREQ("0-1", o.cpulist);
	EXPECT_TRUE(o.mlock);
	EXPECT_STREQ("/tmp/h", o.histfile);
	EXPECT_EQ(400U, o.hist_buckets);
	EXPECT_TRUE(o.quiet);
	EXPECT_TRUE(o.json);
	EXPECT_STREQ("/tmp/p.svg", o.plot);
	EXPECT_STREQ("/tmp/c", o.compare_histfile);
}

TEST(latency_modes_do_not_mix)
{
	struct latency_opts o;

	EXPECT_EQ(ARGS_BAD, LATENCY(&o, "latency", "-i", "1ms", "-n", "5"));
	EXPECT_EQ(0, strncmp(err, "--count is for the one-shot mode, and --interval makes "
			     "the run periodic", 70)) TH_LOG("%s", err);
	EXPECT_EQ(ARGS_BAD, LATENCY(&o, "latency", "--ring", "-l", "5"));
	EXPECT_EQ(0, strncmp(err, "--ring is for the one-shot mode, and --loops", 44));
	EXPECT_EQ(ARGS_BAD, LATENCY(&o, "latency", "-D", "1s", "--spread", "1s"));
	EXPECT_EQ(0, strncmp(err, "--spread is for the one-shot mode, and --duration", 49));
}

TEST(latency_duration_against_interval)
{
	struct latency_opts o;

	EXPECT_EQ(ARGS_BAD, LATENCY(&o, "latency", "-D", "5ms", "-i", "10ms"));
	EXPECT_STREQ("--duration 5 ms is shorter than one --interval (10 ms): nothing to "
		     "measure", err);
	EXPECT_EQ(ARGS_BAD, LATENCY(&o, "latency", "-D", "2d", "-i", "1ms"));
	EXPECT_NE(NULL, strstr(err, "172800000 samples, and latency keeps at most 100000000"))
		TH_LOG("%s", err);
}

TEST(latency_bad_values)
{
	struct latency_opts o;

	EXPECT_EQ(ARGS_BAD, LATENCY(&o, "latency", "-n", "0"));
	EXPECT_STREQ("invalid --count '0': expected a whole number from 1 to 10000000", err);
	EXPECT_EQ(ARGS_BAD, LATENCY(&o, "latency", "-i", "0ns"));
	EXPECT_STREQ("invalid --interval '0ns': the interval must be longer than 0", err);
	EXPECT_EQ(ARGS_BAD, LATENCY(&o, "latency", "-D", "0s"));
	EXPECT_STREQ("invalid --duration '0s': it must be longer than 0", err);
	EXPECT_EQ(ARGS_BAD, LATENCY(&o, "latency", "-l", "0"));
	EXPECT_EQ(ARGS_BAD, LATENCY(&o, "latency", "-p", "100"));
	EXPECT_STREQ("invalid --priority '100': expected a SCHED_FIFO priority from 1 to 99", err);
	EXPECT_EQ(ARGS_BAD, LATENCY(&o, "latency", "-a", "x"));
	EXPECT_EQ(0, strncmp(err, "invalid --affinity 'x': unexpected 'x'", 38));
	EXPECT_EQ(ARGS_BAD, LATENCY(&o, "latency", "--ring=100"));
	EXPECT_STREQ("invalid --ring '100': the ring's entries must be a power of two, "
		     "such as 64", err);
	EXPECT_EQ(ARGS_BAD, LATENCY(&o, "latency", "--histogram", "0", "--histfile", "h"));
	EXPECT_EQ(ARGS_BAD, LATENCY(&o, "latency", "--histogram", "400"));
	EXPECT_STREQ("--histogram sets the buckets of --histfile: give --histfile FILE too", err);
	EXPECT_EQ(ARGS_BAD, LATENCY(&o, "latency", "x"));
	EXPECT_STREQ("'latency' takes no arguments, only options", err);
	/* -p was --plot, -c --compare and -S --slack: now -P, -C and -s */
	EXPECT_EQ(ARGS_BAD, LATENCY(&o, "latency", "-p", "x.svg"));
	EXPECT_EQ(ARGS_BAD, LATENCY(&o, "latency", "-c"));
	EXPECT_EQ(ARGS_BAD, LATENCY(&o, "latency", "-S", "1ms"));
}

static char *slurp(const char *path)
{
	FILE *f = fopen(path, "r");
	char *text = NULL;
	size_t cap = 0;
	ssize_t n;

	if (!f)
		return NULL;
	n = getdelim(&text, &cap, 0, f);
	fclose(f);
	if (n < 0) {
		free(text);
		return NULL;
	}
	return text;
}

/* the man page and the bash completion know every long option */

static bool documented(const char *text, const char *name)
{
	char man[80];
	const char *p;

	/* roff writes "--x-y" as "\-\-x\-y" */
	snprintf(man, sizeof(man), "\\-\\-");
	for (p = name; *p && strlen(man) < sizeof(man) - 3; p++) {
		if (*p == '-')
			strcat(man, "\\-");
		else
			strncat(man, p, 1);
	}
	return strstr(text, man);
}

TEST(man_page_documents_every_option)
{
	const char *const *cmd;
	char *man = slurp(MAN_PAGE);

	if (!man)
		SKIP(return, "%s not found: run from the top of the tree", MAN_PAGE);
	for (cmd = args_commands; *cmd; cmd++) {
		const struct option *lo;

		for (lo = args_longopts(*cmd); lo->name; lo++) {
			EXPECT_TRUE(documented(man, lo->name)) TH_LOG("--%s", lo->name);
		}
	}
	EXPECT_NE(NULL, strstr(man, ".SH EXIT STATUS"));
	free(man);
}

/* what bash completes after the words of @line (the last one being typed) */
static char *complete(const char *line)
{
	char cmd[1024], *out = NULL;
	size_t cap = 0;
	FILE *p;

	snprintf(cmd, sizeof(cmd), "bash --norc -c 'source %s; COMP_WORDS=(%s); "
		 "COMP_CWORD=$((${#COMP_WORDS[@]} - 1)); _hwtimerctl; "
		 "echo \"${COMPREPLY[*]}\"' 2>&1", COMPLETION, line);
	p = popen(cmd, "r");
	if (!p)
		return NULL;
	if (getline(&out, &cap, p) < 0) {
		free(out);
		out = NULL;
	}
	pclose(p);
	return out;
}

TEST(completion_offers_commands_and_options)
{
	const char *const *cmd;
	char *out;

	if (access(COMPLETION, R_OK) || system("bash -c true 2>/dev/null"))
		SKIP(return, "no %s or no bash", COMPLETION);
	out = complete("hwtimerctl l");
	ASSERT_NE(NULL, out);
	EXPECT_STREQ("latency\n", out);
	free(out);
	out = complete("hwtimerctl latency --hist");
	ASSERT_NE(NULL, out);
	EXPECT_STREQ("--histfile --histogram\n", out);
	free(out);
	out = complete("hwtimerctl after 1s --clock \"\"");
	ASSERT_NE(NULL, out);
	EXPECT_STREQ("monotonic boottime realtime\n", out);
	free(out);
	for (cmd = args_commands; *cmd; cmd++) {
		const struct option *lo;
		char line[64];

		snprintf(line, sizeof(line), "hwtimerctl %s --", *cmd);
		out = complete(line);
		ASSERT_NE(NULL, out);
		for (lo = args_longopts(*cmd); lo->name; lo++) {
			char name[64];

			snprintf(name, sizeof(name), "--%s", lo->name);
			EXPECT_NE(NULL, strstr(out, name)) TH_LOG("%s: %s", *cmd, name);
		}
		free(out);
	}
}

TEST_HARNESS_MAIN
