// SPDX-License-Identifier: GPL-2.0
/*
 * hwtimerctl end to end, in the guest: each command's output and exit
 * status (2 for a bad command line, each way it can be bad), --help on
 * every command, options after the arguments, --json output that parses,
 * with its version and string timestamps. cli_latency_test has latency.
 * (hwtimerctl with the module absent is checked by tests/vm/init.sh, after
 * the module is unloaded.)
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <sys/ioctl.h>

#include <linux/hwtimer.h>

#include "kselftest_harness.h"
#include "pace.h"
#include "cli_run.h"

TEST(validator_knows_json)
{
	EXPECT_EQ(1, json_lines("{\"a\":[1,2.5e3,-0,\"x\\n\",true,null,{}]}\n"));
	EXPECT_EQ(2, json_lines("{}\n[]\n"));
	EXPECT_EQ(-1, json_lines("{\"a\":[1,2,]}"));
	EXPECT_EQ(-1, json_lines("{\"a\" 1}"));
	EXPECT_EQ(-1, json_lines("[01]"));
}

TEST(help_and_version)
{
	struct run r;

	run(&r, CTL " --help");
	EXPECT_EQ(0, r.status);
	EXPECT_EQ(0, strncmp(r.out, "Usage:", 6));
	EXPECT_NE(NULL, strstr(r.out, "2 bad command line, 3 a timer"));
	run(&r, CTL " -h");
	EXPECT_EQ(0, r.status);
	run(&r, CTL " -V");
	EXPECT_EQ(0, r.status);
	EXPECT_STREQ("hwtimerctl from hwtimer " LIBHWTIMER_VERSION "\n", r.out);
}

/* every command has -h and --help, exits 0, and prints its own usage */
TEST(help_on_every_command)
{
	static const char *const cmds[] = {
		"after", "at", "latency", "bench", "info", "stats", "top",
	};
	char line[128], head[64];
	struct run r;
	size_t i;

	for (i = 0; i < sizeof(cmds) / sizeof(cmds[0]); i++) {
		snprintf(line, sizeof(line), CTL " %s --help", cmds[i]);
		run(&r, line);
		EXPECT_EQ(0, r.status) TH_LOG("%s: %s", cmds[i], r.err);
		snprintf(head, sizeof(head), "Usage:\n hwtimerctl %s ", cmds[i]);
		EXPECT_EQ(0, strncmp(r.out, head, strlen(head))) TH_LOG("%s", r.out);
		snprintf(line, sizeof(line), CTL " %s -h", cmds[i]);
		run(&r, line);
		EXPECT_EQ(0, r.status);
		snprintf(line, sizeof(line), CTL " %s -V", cmds[i]);
		run(&r, line);
		EXPECT_EQ(0, r.status);
		EXPECT_NE(NULL, strstr(r.out, "hwtimerctl from hwtimer "));
	}
	/* --help wins, wherever it stands */
	run(&r, CTL " latency -n 5 --help");
	EXPECT_EQ(0, r.status);
	EXPECT_NE(NULL, strstr(r.out, "--compare-histfile"));
}

TEST(after_fires_once_and_is_never_early)
{
	struct run r;
	char *late;

	if (!hwt_device_present())
		SKIP(return, HWT_NO_DEVICE);
	run(&r, CTL " after 50ms");
	ASSERT_EQ(0, r.status) TH_LOG("%s%s", r.out, r.err);
	EXPECT_NE(NULL, strstr(r.out, "armed on monotonic: in 50 ms"));
	late = strstr(r.out, "fired: timer ");
	ASSERT_NE(NULL, late);
	EXPECT_EQ(NULL, strstr(late + 1, "fired: "));
	EXPECT_EQ(NULL, strstr(r.out, "EARLY"));
	/* "fired: timer N, <duration> late": a duration is never negative */
	late = strchr(late, ',');
	ASSERT_NE(NULL, late);
	EXPECT_TRUE(isdigit((unsigned char)late[2]));
}

/* every object opens with "version"; timestamps are strings of digits */
TEST(json_has_version_and_string_timestamps)
{
	struct run r;

	if (!hwt_device_present())
		SKIP(return, HWT_NO_DEVICE);
	run(&r, CTL " after --json 20ms");
	ASSERT_EQ(0, r.status) TH_LOG("%s", r.err);
	EXPECT_EQ(1, json_lines(r.out)) TH_LOG("%s", r.out);
	EXPECT_EQ(0, strncmp(r.out, VERSION_KEY, strlen(VERSION_KEY))) TH_LOG("%s", r.out);
	EXPECT_TRUE(json_digits(r.out, "deadline_ns")) TH_LOG("%s", r.out);
	EXPECT_TRUE(json_digits(r.out, "fired_ns"));
	EXPECT_LE(0, json_num(r.out, "late_ns"));
	/* realtime ns pass 2^53: as a string they survive a double-based parser */
	run(&r, CTL " at @1 --json");
	ASSERT_EQ(0, r.status) TH_LOG("%s", r.err);
	EXPECT_TRUE(json_digits(r.out, "fired_ns")) TH_LOG("%s", r.out);
	EXPECT_LT(9007199254740992.0 /* 2^53 */,
		  strtod(strstr(r.out, "\"fired_ns\":\"") + 12, NULL));
}

/*
 * Whether the records of a "--count @count --json" run cover @count
 * expiries, overruns included, and stop at the one that reached it: a
 * reader late by more than a period gets the last expiries as overruns of
 * one record, which may take the sum past @count.
 */
static bool stopped_at_count(const char *out, int count)
{
	int n = 0, last = 0;
	const char *p;

	for (p = out; (p = strstr(p, "\"overruns\":")); p++) {
		last = 1 + atoi(p + strlen("\"overruns\":"));
		n += last;
	}
	return n >= count && n - last < count;
}

TEST(every_fires_n_times)
{
	struct run r;

	if (!hwt_device_present())
		SKIP(return, HWT_NO_DEVICE);
	run(&r, CTL " after --every 10ms --count 5 --json 10ms");
	ASSERT_EQ(0, r.status) TH_LOG("%s", r.err);
	EXPECT_LE(1, json_lines(r.out)) TH_LOG("%s", r.out);
	/* five expiries: one record each, or fewer with overruns */
	EXPECT_TRUE(stopped_at_count(r.out, 5)) TH_LOG("%s", r.out);
}

/* "after 10ms -n 3": the options after the duration, and -n alone repeats */
TEST(options_after_the_argument)
{
	struct run r;

	if (!hwt_device_present())
		SKIP(return, HWT_NO_DEVICE);
	run(&r, CTL " after 10ms -n 3 --json");
	ASSERT_EQ(0, r.status) TH_LOG("%s", r.err);
	EXPECT_TRUE(stopped_at_count(r.out, 3)) TH_LOG("%s", r.out);
	run(&r, "POSIXLY_CORRECT=1 " CTL " after 10ms --count 1");
	EXPECT_EQ(0, r.status) TH_LOG("%s", r.err);
	EXPECT_NE(NULL, strstr(r.out, "fired: timer "));
}

TEST(exec_runs_the_command_per_fire)
{
	struct run r;

	if (!hwt_device_present())
		SKIP(return, HWT_NO_DEVICE);
	/* -x takes one argument: the -n inside it is echo's */
	run(&r, CTL " after 5ms -e 5ms -n 2 -F -x 'echo -n ran $HWTIMER_ID; echo'");
	ASSERT_EQ(0, r.status) TH_LOG("%s", r.err);
	EXPECT_NE(NULL, strstr(r.out, "ran 1\n"));
}

TEST(at_takes_a_wall_clock_time)
{
	struct run r;

	if (!hwt_device_present())
		SKIP(return, HWT_NO_DEVICE);
	run(&r, CTL " at @1");	/* long past: fires at once */
	EXPECT_EQ(0, r.status) TH_LOG("%s", r.err);
	EXPECT_NE(NULL, strstr(r.out, "armed on realtime"));
}

TEST(info_text_and_json)
{
	struct run r;

	if (!hwt_device_present())
		SKIP(return, HWT_NO_DEVICE);
	run(&r, CTL " info");
	ASSERT_EQ(0, r.status) TH_LOG("%s", r.err);
	EXPECT_NE(NULL, strstr(r.out, "Level  Granularity   Range"));
	run(&r, CTL " info --json");
	ASSERT_EQ(0, r.status);
	EXPECT_EQ(1, json_lines(r.out)) TH_LOG("%s", r.out);
	EXPECT_EQ(0, strncmp(r.out, VERSION_KEY, strlen(VERSION_KEY)));
	EXPECT_LT(0, json_num(r.out, "tick_ns"));
	/* ns that may pass 2^53 are strings */
	EXPECT_TRUE(json_digits(r.out, "max_delay_ns")) TH_LOG("%s", r.out);
	EXPECT_TRUE(json_digits(r.out, "to_ns"));
	EXPECT_NE(NULL, strstr(r.out, "\"geometry\":[{\"level\":0,"));
}

/*
 * info names every feature the module reports, each by the name the uapi's
 * bit has in hwtimerctl: a bit it does not know shows as "bit-N", which
 * fails here, so that a new HWTIMER_FEAT_ bit needs a name.
 */
TEST(info_names_every_feature)
{
	struct hwtimer_info in = { 0 };
	const char *p;
	struct run r;
	int fd, n = 0;

	if (!hwt_device_present())
		SKIP(return, HWT_NO_DEVICE);
	fd = open("/dev/hwtimer", O_RDWR | O_CLOEXEC);
	ASSERT_LE(0, fd);
	ASSERT_EQ(0, ioctl(fd, HWTIMER_IOC_INFO, &in));
	close(fd);
	run(&r, CTL " info --json");
	ASSERT_EQ(0, r.status) TH_LOG("%s", r.err);
	p = strstr(r.out, "\"features\":[");
	ASSERT_NE(NULL, p);
	for (p += strlen("\"features\":["); *p && *p != ']'; p++)
		n += *p == '"';
	EXPECT_EQ(2 * __builtin_popcountll(in.features), n) TH_LOG("%s", r.out);
	EXPECT_EQ(NULL, strstr(r.out, "\"bit-")) TH_LOG("%s", r.out);
	EXPECT_NE(NULL, strstr(r.out, "\"ring\""));
	EXPECT_NE(NULL, strstr(r.out, "\"io_uring-commands\""));
}

TEST(stats_text_and_json)
{
	struct run r;

	if (!hwt_device_present())
		SKIP(return, HWT_NO_DEVICE);
	run(&r, CTL " stats");
	ASSERT_EQ(0, r.status) TH_LOG("%s", r.err);
	EXPECT_NE(NULL, strstr(r.out, "fired"));
	run(&r, CTL " stats --json");
	ASSERT_EQ(0, r.status);
	EXPECT_EQ(1, json_lines(r.out)) TH_LOG("%s", r.out);
	EXPECT_EQ(0, strncmp(r.out, VERSION_KEY, strlen(VERSION_KEY)));
	EXPECT_LE(0, json_num(r.out, "fired"));
	EXPECT_NE(NULL, strstr(r.out, "\"lateness_hist\":["));
}

TEST(bench_compares_with_timerfd)
{
	struct run r;

	if (!hwt_device_present())
		SKIP(return, HWT_NO_DEVICE);
	run(&r, CTL " bench -n 500 --json");
	ASSERT_EQ(0, r.status) TH_LOG("%s", r.err);
	EXPECT_EQ(1, json_lines(r.out)) TH_LOG("%s", r.out);
	EXPECT_EQ(0, strncmp(r.out, VERSION_KEY, strlen(VERSION_KEY)));
	EXPECT_NE(NULL, strstr(r.out, "timerfd create+settime+close"));
	EXPECT_NE(NULL, strstr(r.out, "\"speedup_vs_timerfd\":"));
	/* built with liburing: io_uring rows beside */
	EXPECT_NE(NULL, strstr(r.out, "hwtimer ADD+CANCEL, io_uring, 256 SQEs")) TH_LOG("%s", r.out);
	EXPECT_NE(NULL, strstr(r.out, "hwtimer ADD+CANCEL, io_uring, 256 per SQE"));
	EXPECT_NE(NULL, strstr(r.out, "io_uring TIMEOUT+REMOVE, 256 SQEs"));
}

TEST(top_shows_levels)
{
	struct run r;

	if (!hwt_device_present())
		SKIP(return, HWT_NO_DEVICE);
	run(&r, CTL " top -n 2 -d 10ms");
	ASSERT_EQ(0, r.status) TH_LOG("%s", r.err);
	EXPECT_NE(NULL, strstr(r.out, "level"));
	EXPECT_NE(NULL, strstr(r.out, "wakeups"));
}

TEST(bad_option_exits_2)
{
	struct run r;

	run(&r, CTL " after 1s --frobnicate");
	EXPECT_USAGE(r, "unknown option '--frobnicate'", " after");
	run(&r, CTL " --frobnicate");
	EXPECT_USAGE(r, "unknown option '--frobnicate'", "");
	run(&r, CTL " after 1s -D");
	EXPECT_USAGE(r, "unknown option '-D'", " after");
}

TEST(unknown_command_exits_2)
{
	struct run r;

	run(&r, CTL " frobnicate");
	EXPECT_USAGE(r, "unknown command 'frobnicate'", "");
}

TEST(no_command_exits_2)
{
	struct run r;

	run(&r, CTL);
	EXPECT_USAGE(r, "no command given", "");
}

TEST(missing_argument_exits_2)
{
	struct run r;

	run(&r, CTL " after");
	EXPECT_USAGE(r, "'after' takes one DURATION", " after");
	run(&r, CTL " after 1s --every");
	EXPECT_USAGE(r, "option '--every' needs an argument", " after");
}

TEST(bad_duration_exits_2)
{
	struct run r;

	run(&r, CTL " after 1x");
	EXPECT_USAGE(r, "invalid duration '1x': unknown unit 'x'", " after");
	run(&r, CTL " after 10");
	EXPECT_USAGE(r, "'10' has no unit: add one, e.g. 10ms or 10s", " after");
	run(&r, CTL " latency -i 1000");
	EXPECT_USAGE(r, "invalid --interval '1000': '1000' has no unit", " latency");
	run(&r, CTL " after 100000000d");
	EXPECT_USAGE(r, "longer than 2^64 ns", " after");
}

TEST(systemd_durations_are_taken)
{
	struct run r;

	if (!hwt_device_present())
		SKIP(return, HWT_NO_DEVICE);
	run(&r, CTL " after '10msec 500usec' --json");
	EXPECT_EQ(0, r.status) TH_LOG("%s", r.err);
	run(&r, BG_UNTIL(CTL " after 1h30m -s 1sec", "armed", "TERM"));
	EXPECT_EQ(128 + SIGTERM, r.status);
	EXPECT_NE(NULL, strstr(r.out, "armed on monotonic: in 1.5 h")) TH_LOG("%s", r.out);
}

TEST(bad_time_exits_2)
{
	struct run r;

	run(&r, CTL " at 2030-02-30T00:00:00Z");
	EXPECT_USAGE(r, "invalid time '2030-02-30T00:00:00Z'", " at");
	run(&r, CTL " at --clock boottime 2030-01-01T00:00:00Z");
	EXPECT_USAGE(r, "unknown option '--clock'", " at");
}

TEST(value_out_of_range_exits_2)
{
	struct run r;

	run(&r, CTL " latency -n 0");
	EXPECT_USAGE(r, "invalid --count '0'", " latency");
	run(&r, CTL " latency -p 100 -l 5");
	EXPECT_USAGE(r, "invalid --priority '100'", " latency");
	run(&r, CTL " after --clock tai 1s");
	EXPECT_USAGE(r, "invalid --clock 'tai'", " after");
}

TEST(conflicting_options_exit_2)
{
	struct run r;

	run(&r, CTL " after --fixed-delay 1s");
	EXPECT_USAGE(r, "--fixed-delay needs --every", " after");
	run(&r, CTL " latency -i 1ms -n 5");
	EXPECT_USAGE(r, "--count is for the one-shot mode", " latency");
	run(&r, CTL " latency -D 5ms -i 10ms");
	EXPECT_USAGE(r, "shorter than one --interval", " latency");
}

/* what the module takes decides, before anything is armed */
TEST(beyond_the_module_exits_2)
{
	struct run r;

	if (!hwt_device_present())
		SKIP(return, HWT_NO_DEVICE);
	run(&r, CTL " after 200000d");	/* parses, but beyond the wheel */
	EXPECT_USAGE(r, "hwtimerctl info", " after");
	run(&r, CTL " latency --slack 2000000h");
	EXPECT_USAGE(r, "--slack", " latency");
	run(&r, CTL " latency -n 5000000");
	EXPECT_USAGE(r, "more than a file may hold", " latency");
}

TEST(write_errors_are_caught)
{
	struct run r;

	if (!hwt_device_present())
		SKIP(return, HWT_NO_DEVICE);
	run(&r, CTL " info > /dev/full");
	EXPECT_EQ(1, r.status);
	EXPECT_NE(NULL, strstr(r.err, "write error"));
}

TEST(signal_stops_a_periodic_timer)
{
	struct run r;

	if (!hwt_device_present())
		SKIP(return, HWT_NO_DEVICE);
	run(&r, BG_UNTIL(CTL " after --every 10ms 10ms", "^fired: ", "TERM"));
	EXPECT_EQ(128 + SIGTERM, r.status);
	EXPECT_NE(NULL, strstr(r.out, "fired: "));
}

HWT_HARNESS_MAIN
