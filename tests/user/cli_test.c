// SPDX-License-Identifier: GPL-2.0
/*
 * hwtimerctl end to end, in the guest: each command's output and exit
 * status, --json output that parses, and the documented error messages.
 * (hwtimerctl with the module absent is checked by tests/vm/init.sh, after
 * the module is unloaded.)
 */
#define _GNU_SOURCE
#include <ctype.h>
#include <stdlib.h>
#include <fcntl.h>
#include <sys/ioctl.h>
#include <sys/wait.h>

#include <linux/hwtimer.h>

#include "kselftest_harness.h"
#include "pace.h"

#define CTL	"hwtimerctl"

struct run {
	int status;		/* exit status, or -1 */
	char out[65536];
	char err[8192];
};

/* Run a shell command line; collect its stdout, stderr and exit status. */
static void run(struct run *r, const char *cmd)
{
	char line[1024];
	FILE *p;
	size_t n;

	snprintf(line, sizeof(line), "%s 2>/tmp/cli_test.err", cmd);
	memset(r, 0, sizeof(*r));
	p = popen(line, "r");
	if (!p) {
		r->status = -1;
		return;
	}
	n = fread(r->out, 1, sizeof(r->out) - 1, p);
	r->out[n] = 0;
	r->status = pclose(p);
	r->status = WIFEXITED(r->status) ? WEXITSTATUS(r->status) : -1;
	p = fopen("/tmp/cli_test.err", "r");
	if (p) {
		n = fread(r->err, 1, sizeof(r->err) - 1, p);
		r->err[n] = 0;
		fclose(p);
	}
}

/* A strict JSON validator (RFC 8259), enough to say "it parses". */
static const char *js_value(const char *p, int depth);

static const char *js_ws(const char *p)
{
	while (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r')
		p++;
	return p;
}

static const char *js_string(const char *p)
{
	if (*p++ != '"')
		return NULL;
	while (*p && *p != '"') {
		if ((unsigned char)*p < 0x20)
			return NULL;
		if (*p == '\\') {
			p++;
			if (*p == 'u') {
				for (int i = 1; i <= 4; i++)
					if (!isxdigit((unsigned char)p[i]))
						return NULL;
				p += 4;
			} else if (!strchr("\"\\/bfnrt", *p) || !*p) {
				return NULL;
			}
		}
		p++;
	}
	return *p == '"' ? p + 1 : NULL;
}

static const char *js_number(const char *p)
{
	if (*p == '-')
		p++;
	if (*p == '0')
		p++;
	else if (isdigit((unsigned char)*p))
		while (isdigit((unsigned char)*p))
			p++;
	else
		return NULL;
	if (*p == '.') {
		if (!isdigit((unsigned char)*++p))
			return NULL;
		while (isdigit((unsigned char)*p))
			p++;
	}
	if (*p == 'e' || *p == 'E') {
		p++;
		if (*p == '+' || *p == '-')
			p++;
		if (!isdigit((unsigned char)*p))
			return NULL;
		while (isdigit((unsigned char)*p))
			p++;
	}
	return p;
}

static const char *js_container(const char *p, int depth, char close, int obj)
{
	p = js_ws(p + 1);
	if (*p == close)
		return p + 1;
	for (;;) {
		if (obj) {
			p = js_string(js_ws(p));
			if (!p)
				return NULL;
			p = js_ws(p);
			if (*p++ != ':')
				return NULL;
		}
		p = js_value(p, depth + 1);
		if (!p)
			return NULL;
		p = js_ws(p);
		if (*p == close)
			return p + 1;
		if (*p++ != ',')
			return NULL;
	}
}

static const char *js_value(const char *p, int depth)
{
	if (depth > 64)
		return NULL;
	p = js_ws(p);
	switch (*p) {
	case '{': return js_container(p, depth, '}', 1);
	case '[': return js_container(p, depth, ']', 0);
	case '"': return js_string(p);
	case 't': return strncmp(p, "true", 4) ? NULL : p + 4;
	case 'f': return strncmp(p, "false", 5) ? NULL : p + 5;
	case 'n': return strncmp(p, "null", 4) ? NULL : p + 4;
	default: return js_number(p);
	}
}

/* Every non-empty line of @s is one JSON value. */
static int json_lines(const char *s)
{
	int n = 0;

	while (*(s = js_ws(s))) {
		const char *end = js_value(s, 0);

		if (!end || (*end && *end != '\n'))
			return -1;
		s = end;
		n++;
	}
	return n;
}

/* The number after "key": in a JSON text, or -1. */
static long long json_num(const char *s, const char *key)
{
	char k[64];
	const char *p;

	snprintf(k, sizeof(k), "\"%s\":", key);
	p = strstr(s, k);
	return p ? strtoll(p + strlen(k), NULL, 10) : -1;
}

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
	run(&r, CTL " -h");
	EXPECT_EQ(0, r.status);
	run(&r, CTL " -V");
	EXPECT_EQ(0, r.status);
	EXPECT_NE(NULL, strstr(r.out, "hwtimerctl from hwtimer "));
}

TEST(after_fires_once_and_is_never_early)
{
	struct run r;
	char *late;

	run(&r, CTL " after 50ms");
	ASSERT_EQ(0, r.status) TH_LOG("%s%s", r.out, r.err);
	EXPECT_NE(NULL, strstr(r.out, "armed on monotonic: in 50 ms"));
	late = strstr(r.out, "fired: timer ");
	ASSERT_NE(NULL, late);
	EXPECT_EQ(NULL, strstr(late + 1, "fired: "));
	/* "fired: timer N, <duration> late": a duration is never negative */
	late = strchr(late, ',');
	ASSERT_NE(NULL, late);
	EXPECT_TRUE(isdigit((unsigned char)late[2]));
}

TEST(after_json_reports_lateness)
{
	struct run r;

	run(&r, CTL " after --json 20ms");
	ASSERT_EQ(0, r.status) TH_LOG("%s", r.err);
	EXPECT_EQ(1, json_lines(r.out)) TH_LOG("%s", r.out);
	EXPECT_LE(0, json_num(r.out, "late_ns"));
	EXPECT_LE(json_num(r.out, "deadline_ns"), json_num(r.out, "fired_ns"));
}

TEST(every_fires_n_times)
{
	struct run r;
	const char *p;
	int n = 0;

	run(&r, CTL " after --every 10ms --count 5 --json 10ms");
	ASSERT_EQ(0, r.status) TH_LOG("%s", r.err);
	EXPECT_LE(1, json_lines(r.out)) TH_LOG("%s", r.out);
	/* five expiries: one record each, or fewer with overruns */
	for (p = r.out; (p = strstr(p, "\"overruns\":")); p++)
		n += 1 + atoi(p + strlen("\"overruns\":"));
	EXPECT_EQ(5, n);
}

TEST(exec_runs_the_command_per_fire)
{
	struct run r;

	run(&r, CTL " after -e 5ms -n 2 -D -x 'echo ran $HWTIMER_ID' 5ms");
	ASSERT_EQ(0, r.status) TH_LOG("%s", r.err);
	EXPECT_NE(NULL, strstr(r.out, "ran 1"));
}

TEST(at_takes_a_wall_clock_time)
{
	struct run r;

	run(&r, CTL " at @1");	/* long past: fires at once */
	EXPECT_EQ(0, r.status) TH_LOG("%s", r.err);
	EXPECT_NE(NULL, strstr(r.out, "armed on realtime"));
	run(&r, CTL " at --clock boottime 2030-01-01T00:00:00Z");
	EXPECT_EQ(1, r.status);
	EXPECT_NE(NULL, strstr(r.err, "'at' takes a wall-clock time"));
	run(&r, CTL " at 2030-02-30T00:00:00Z");
	EXPECT_EQ(1, r.status);
	EXPECT_NE(NULL, strstr(r.err, "invalid time '2030-02-30T00:00:00Z'"));
}

TEST(info_text_and_json)
{
	struct run r;

	run(&r, CTL " info");
	ASSERT_EQ(0, r.status) TH_LOG("%s", r.err);
	EXPECT_NE(NULL, strstr(r.out, "Level  Granularity   Range"));
	run(&r, CTL " info --json");
	ASSERT_EQ(0, r.status);
	EXPECT_EQ(1, json_lines(r.out)) TH_LOG("%s", r.out);
	EXPECT_LT(0, json_num(r.out, "tick_ns"));
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

	run(&r, CTL " stats");
	ASSERT_EQ(0, r.status) TH_LOG("%s", r.err);
	EXPECT_NE(NULL, strstr(r.out, "fired"));
	run(&r, CTL " stats --json");
	ASSERT_EQ(0, r.status);
	EXPECT_EQ(1, json_lines(r.out)) TH_LOG("%s", r.out);
	EXPECT_LE(0, json_num(r.out, "fired"));
	EXPECT_NE(NULL, strstr(r.out, "\"lateness_hist\":["));
}

TEST(latency_histogram_and_plot)
{
	struct run r;
	char buf[16] = "";
	FILE *f;

	unlink("/tmp/cli_test.svg");
	run(&r, CTL " latency -n 200 -d 5ms -s 20ms --json --plot /tmp/cli_test.svg");
	ASSERT_EQ(0, r.status) TH_LOG("%s", r.err);
	EXPECT_EQ(1, json_lines(r.out)) TH_LOG("%s", r.out);
	EXPECT_EQ(200, json_num(r.out, "timers"));
	EXPECT_EQ(0, json_num(r.out, "early"));
	f = fopen("/tmp/cli_test.svg", "r");
	ASSERT_NE(NULL, f);
	EXPECT_NE(NULL, fgets(buf, sizeof(buf), f));
	fclose(f);
	EXPECT_EQ(0, strncmp(buf, "<?xml", 5));
	run(&r, CTL " latency -n 100");
	EXPECT_EQ(0, r.status);
	EXPECT_NE(NULL, strstr(r.out, "lateness at expiry"));
}

TEST(latency_compares_with_timerfd_and_takes_slack)
{
	struct run r;

	run(&r, CTL " latency -n 200 -d 5ms -s 20ms --slack 1ms --compare --json");
	ASSERT_EQ(0, r.status) TH_LOG("%s", r.err);
	EXPECT_EQ(1, json_lines(r.out)) TH_LOG("%s", r.out);
	EXPECT_EQ(1000000, json_num(r.out, "slack_ns"));
	EXPECT_NE(NULL, strstr(r.out, "\"timerfd\":{\"count\":200,")) TH_LOG("%s", r.out);
	run(&r, CTL " latency -n 100 --compare");
	EXPECT_EQ(0, r.status);
	EXPECT_NE(NULL, strstr(r.out, "hwtimer / timerfd, as this reader saw them"));
}

/* --ring: the same histogram, the records from an expiry ring */
TEST(latency_harvests_the_ring)
{
	struct run r;

	/* a ring smaller than the timers: the rest waits and is flushed in */
	run(&r, CTL " latency -n 300 -d 5ms -s 20ms --ring=64 --json");
	ASSERT_EQ(0, r.status) TH_LOG("%s", r.err);
	EXPECT_EQ(1, json_lines(r.out)) TH_LOG("%s", r.out);
	EXPECT_EQ(300, json_num(r.out, "timers"));
	EXPECT_EQ(0, json_num(r.out, "early"));
	EXPECT_NE(NULL, strstr(r.out, "\"delivery\":\"ring\""));
	run(&r, CTL " latency -n 100 --ring");
	EXPECT_EQ(0, r.status) TH_LOG("%s", r.err);
	EXPECT_NE(NULL, strstr(r.out, "ring harvest - deadline"));
	run(&r, CTL " latency -n 10 --ring=100");
	EXPECT_EQ(1, r.status);
	EXPECT_NE(NULL, strstr(r.err, "power of two, such as 64")) TH_LOG("%s", r.err);
}

TEST(bench_compares_with_timerfd)
{
	struct run r;

	run(&r, CTL " bench -n 500 --json");
	ASSERT_EQ(0, r.status) TH_LOG("%s", r.err);
	EXPECT_EQ(1, json_lines(r.out)) TH_LOG("%s", r.out);
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

	run(&r, CTL " top -n 2 -d 10ms");
	ASSERT_EQ(0, r.status) TH_LOG("%s", r.err);
	EXPECT_NE(NULL, strstr(r.out, "level"));
	EXPECT_NE(NULL, strstr(r.out, "wakeups"));
}

/* Usage errors: exit 1, say what was wrong and how to get help. */
TEST(errors_say_what_to_do)
{
	struct run r;

	run(&r, CTL " after 1x");
	EXPECT_EQ(1, r.status);
	EXPECT_NE(NULL, strstr(r.err, "invalid duration '1x': expected a number with a unit"));
	EXPECT_NE(NULL, strstr(r.err, "Try 'hwtimerctl --help'"));
	run(&r, CTL " after 10");
	EXPECT_EQ(1, r.status);
	EXPECT_NE(NULL, strstr(r.err, "invalid duration '10'"));
	run(&r, CTL " after 100000000d");
	EXPECT_EQ(1, r.status);
	EXPECT_NE(NULL, strstr(r.err, "too long"));
	run(&r, CTL " after 200000d");	/* parses, but beyond the wheel */
	EXPECT_EQ(1, r.status);
	EXPECT_NE(NULL, strstr(r.err, "hwtimerctl info")) TH_LOG("%s", r.err);
	run(&r, CTL " --frobnicate");
	EXPECT_EQ(1, r.status);
	EXPECT_NE(NULL, strstr(r.err, "Try 'hwtimerctl --help'"));
	run(&r, CTL " frobnicate");
	EXPECT_EQ(1, r.status);
	EXPECT_NE(NULL, strstr(r.err, "unknown command 'frobnicate'"));
	run(&r, CTL);
	EXPECT_EQ(1, r.status);
	EXPECT_NE(NULL, strstr(r.err, "no command given"));
	run(&r, CTL " after --fixed-delay 1s");
	EXPECT_EQ(1, r.status);
	EXPECT_NE(NULL, strstr(r.err, "--fixed-delay needs --every"));
	run(&r, CTL " after --clock tai 1s");
	EXPECT_EQ(1, r.status);
	EXPECT_NE(NULL, strstr(r.err, "invalid clock 'tai'"));
	run(&r, CTL " latency -n 0");
	EXPECT_EQ(1, r.status);
	EXPECT_NE(NULL, strstr(r.err, "invalid count '0'"));
	run(&r, CTL " latency --slack 2000000h");
	EXPECT_EQ(1, r.status);
	EXPECT_NE(NULL, strstr(r.err, "--slack")) TH_LOG("%s", r.err);
	run(&r, "ulimit -n 100; " CTL " latency -n 1000 --compare");
	EXPECT_EQ(1, r.status);
	EXPECT_NE(NULL, strstr(r.err, "ulimit -n")) TH_LOG("%s", r.err);
}

TEST(write_errors_are_caught)
{
	struct run r;

	run(&r, CTL " info > /dev/full");
	EXPECT_EQ(1, r.status);
	EXPECT_NE(NULL, strstr(r.err, "write error"));
}

TEST(signal_stops_a_periodic_timer)
{
	struct run r;

	run(&r, CTL " after --every 10ms 10ms & p=$!; sleep 1; kill -TERM $p; wait $p");
	EXPECT_EQ(128 + SIGTERM, r.status);
	EXPECT_NE(NULL, strstr(r.out, "fired: "));
}

HWT_HARNESS_MAIN
