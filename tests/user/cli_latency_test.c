// SPDX-License-Identifier: GPL-2.0
/*
 * hwtimerctl latency end to end, in the guest: both modes and their exact
 * statistics, the periodic mode's cyclictest settings, --compare with
 * timerfd, the histogram file in cyclictest's format, --compare-histfile,
 * the progress line on a terminal (and not elsewhere), and the exit status
 * of each way its command line or its files can be bad. No assertion on
 * how late anything fired, nor how long a run took.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <poll.h>
#include <sys/mount.h>
#include <sys/stat.h>

#include "kselftest_harness.h"
#include "pace.h"
#include "cli_run.h"
#include "cyclictest_hist.h"

/* min <= p50 <= p90 <= p99 <= max, from the samples */
static void expect_ordered_stats(struct __test_metadata *_metadata, const char *obj)
{
	ASSERT_NE(NULL, obj);
	EXPECT_EQ(0, json_num(obj, "early"));
	EXPECT_LE(json_num(obj, "min_ns"), json_num(obj, "p50_ns"));
	EXPECT_LE(json_num(obj, "p50_ns"), json_num(obj, "p90_ns"));
	EXPECT_LE(json_num(obj, "p90_ns"), json_num(obj, "p99_ns"));
	EXPECT_LE(json_num(obj, "p99_ns"), json_num(obj, "p99_9_ns"));
	EXPECT_LE(json_num(obj, "p99_9_ns"), json_num(obj, "p99_99_ns"));
	EXPECT_LE(json_num(obj, "p99_99_ns"), json_num(obj, "max_ns"));
	EXPECT_LE(json_num(obj, "min_ns"), json_num(obj, "avg_ns"));
	EXPECT_LE(json_num(obj, "avg_ns"), json_num(obj, "max_ns"));
}

TEST(latency_histogram_and_plot)
{
	struct run r;
	char buf[65536] = "";
	size_t n;
	FILE *f;

	if (!hwt_device_present())
		SKIP(return, HWT_NO_DEVICE);
	unlink("/tmp/cli_latency_test.svg");
	run(&r, CTL " latency -n 200 -d 5ms --spread 20ms --json --plot /tmp/cli_latency_test.svg");
	ASSERT_EQ(0, r.status) TH_LOG("%s", r.err);
	EXPECT_EQ(1, json_lines(r.out)) TH_LOG("%s", r.out);
	EXPECT_EQ(0, strncmp(r.out, VERSION_KEY, strlen(VERSION_KEY)));
	EXPECT_NE(NULL, strstr(r.out, "\"mode\":\"oneshot\""));
	EXPECT_EQ(200, json_num(r.out, "timers"));
	EXPECT_EQ(200, json_num(json_obj(r.out, "fire"), "count"));
	expect_ordered_stats(_metadata, json_obj(r.out, "fire"));
	expect_ordered_stats(_metadata, json_obj(r.out, "wakeup"));
	f = fopen("/tmp/cli_latency_test.svg", "r");
	ASSERT_NE(NULL, f);
	n = fread(buf, 1, sizeof(buf) - 1, f);
	buf[n] = 0;
	fclose(f);
	EXPECT_EQ(0, strncmp(buf, "<?xml", 5));
	EXPECT_NE(NULL, strstr(buf, "(log scale)"));
	run(&r, CTL " latency -n 100");
	EXPECT_EQ(0, r.status);
	EXPECT_NE(NULL, strstr(r.out, "lateness at expiry"));
	EXPECT_NE(NULL, strstr(r.out, "  min ")) TH_LOG("%s", r.out);
	EXPECT_NE(NULL, strstr(r.out, ", p99.9 "));
}

TEST(latency_compares_with_timerfd_and_takes_slack)
{
	struct run r;

	if (!hwt_device_present())
		SKIP(return, HWT_NO_DEVICE);
	run(&r, CTL " latency -n 200 -d 5ms --spread 20ms --slack 1ms --compare --json");
	ASSERT_EQ(0, r.status) TH_LOG("%s", r.err);
	EXPECT_EQ(1, json_lines(r.out)) TH_LOG("%s", r.out);
	EXPECT_EQ(1000000, json_num(r.out, "slack_ns"));
	EXPECT_NE(NULL, strstr(r.out, "\"timerfd\":{\"count\":200,")) TH_LOG("%s", r.out);
	expect_ordered_stats(_metadata, json_obj(r.out, "timerfd"));
	run(&r, CTL " latency -n 100 -C");
	EXPECT_EQ(0, r.status);
	EXPECT_NE(NULL, strstr(r.out, "side by side, as each reader saw them"));
}

/* --ring: the same histogram, the records from an expiry ring */
TEST(latency_harvests_the_ring)
{
	struct run r;

	if (!hwt_device_present())
		SKIP(return, HWT_NO_DEVICE);
	/* a ring smaller than the timers: the rest waits and is flushed in */
	run(&r, CTL " latency -n 300 -d 5ms --spread 20ms --ring=64 --json");
	ASSERT_EQ(0, r.status) TH_LOG("%s", r.err);
	EXPECT_EQ(1, json_lines(r.out)) TH_LOG("%s", r.out);
	EXPECT_EQ(300, json_num(r.out, "timers"));
	EXPECT_EQ(0, json_num(r.out, "early"));
	EXPECT_NE(NULL, strstr(r.out, "\"delivery\":\"ring\""));
	run(&r, CTL " latency -n 100 --ring");
	EXPECT_EQ(0, r.status) TH_LOG("%s", r.err);
	EXPECT_NE(NULL, strstr(r.out, "ring harvest - deadline"));
}

/* expiries measured: records and their overruns, at least what was asked */
static void expect_periods(struct __test_metadata *_metadata, const char *out, long long n)
{
	const char *wake = json_obj(out, "wakeup");

	ASSERT_NE(NULL, wake) TH_LOG("%s", out);
	EXPECT_LE(n, json_num(out, "expiries"));
	EXPECT_EQ(json_num(out, "expiries"), json_num(wake, "count") + json_num(wake, "overruns"));
	EXPECT_LE(1, json_num(wake, "count"));
	expect_ordered_stats(_metadata, wake);
}

TEST(latency_periodic_loops)
{
	struct run r;

	if (!hwt_device_present())
		SKIP(return, HWT_NO_DEVICE);
	run(&r, CTL " latency -i 5ms -l 40 --json");
	ASSERT_EQ(0, r.status) TH_LOG("%s", r.err);
	EXPECT_EQ(1, json_lines(r.out)) TH_LOG("%s", r.out);
	EXPECT_NE(NULL, strstr(r.out, "\"mode\":\"periodic\",\"interval_ns\":5000000,\"loops\":40,"))
		TH_LOG("%s", r.out);
	expect_periods(_metadata, r.out, 40);
	run(&r, CTL " latency -i 5ms -l 20");
	ASSERT_EQ(0, r.status) TH_LOG("%s", r.err);
	EXPECT_EQ(0, strncmp(r.out, "periodic: every 5 ms, ", 22)) TH_LOG("%s", r.out);
}

TEST(latency_periodic_duration)
{
	struct run r;

	if (!hwt_device_present())
		SKIP(return, HWT_NO_DEVICE);
	run(&r, CTL " latency -i 10ms -D 200ms --json");
	ASSERT_EQ(0, r.status) TH_LOG("%s", r.err);
	EXPECT_EQ(200000000, json_num(r.out, "duration_ns"));
	expect_periods(_metadata, r.out, 20);
}

/* -p, -a and -m, as cyclictest's (the guest runs the tests as root) */
TEST(latency_periodic_priority_affinity_mlock)
{
	struct run r;

	if (!hwt_device_present())
		SKIP(return, HWT_NO_DEVICE);
	run(&r, CTL " latency -i 5ms -l 20 -p 10 -a 0 -m --json");
	ASSERT_EQ(0, r.status) TH_LOG("%s", r.err);
	EXPECT_EQ(10, json_num(r.out, "priority"));
	EXPECT_NE(NULL, strstr(r.out, "\"affinity\":\"0\",\"mlock\":true")) TH_LOG("%s", r.out);
	expect_periods(_metadata, r.out, 20);
	run(&r, CTL " latency -i 5ms -l 10 -p 10 -a 0 -m");
	ASSERT_EQ(0, r.status) TH_LOG("%s", r.err);
	EXPECT_NE(NULL, strstr(r.out, ", SCHED_FIFO 10, CPUs 0, memory locked\n"));
}

TEST(latency_periodic_compares_with_timerfd)
{
	const char *tfd;
	struct run r;

	if (!hwt_device_present())
		SKIP(return, HWT_NO_DEVICE);
	run(&r, CTL " latency -i 5ms -l 40 --compare --json");
	ASSERT_EQ(0, r.status) TH_LOG("%s", r.err);
	EXPECT_EQ(1, json_lines(r.out)) TH_LOG("%s", r.out);
	expect_periods(_metadata, r.out, 40);
	tfd = json_obj(r.out, "timerfd");
	ASSERT_NE(NULL, tfd) TH_LOG("%s", r.out);
	EXPECT_LE(40, json_num(tfd, "count") + json_num(tfd, "overruns"));
	expect_ordered_stats(_metadata, tfd);
	run(&r, CTL " latency -i 5ms -l 20 -C");
	ASSERT_EQ(0, r.status) TH_LOG("%s", r.err);
	EXPECT_NE(NULL, strstr(r.out, "the same schedule on a timerfd"));
	EXPECT_NE(NULL, strstr(r.out, "hwtimer        timerfd")) TH_LOG("%s", r.out);
	EXPECT_NE(NULL, strstr(r.out, "\noverruns "));
}

/* the trailer line "# NAME: v0 v1 ...": value @col, or -1 */
static long long trailer(const char *text, const char *name, int col)
{
	const char *p = strstr(text, name);
	char *end;
	long long v = -1;

	if (!p)
		return -1;
	p += strlen(name);
	for (; col >= 0; col--) {
		v = strtoll(p, &end, 10);
		if (end == p)
			return -1;
		p = end;
	}
	return v;
}

TEST(latency_histfile_in_cyclictests_format)
{
	const char *text, *p;
	struct run r;
	long long wake, tfd;
	unsigned int b, c0, c1, i = 0;

	if (!hwt_device_present())
		SKIP(return, HWT_NO_DEVICE);
	unlink("/tmp/cli_latency_test.hist");
	run(&r, CTL " latency -i 5ms -l 40 -C --histfile /tmp/cli_latency_test.hist --histogram 400 --json");
	ASSERT_EQ(0, r.status) TH_LOG("%s", r.err);
	text = slurp("/tmp/cli_latency_test.hist");
	ASSERT_NE(NULL, text);
	ASSERT_EQ(0, strncmp(text, "# Histogram\n", 12));
	/* 400 lines "%06u %06lu\t%06lu", one per microsecond */
	for (p = text + 12; i < 400; i++) {
		char line[32];

		ASSERT_EQ(3, sscanf(p, "%u %u\t%u", &b, &c0, &c1)) TH_LOG("line %u", i);
		EXPECT_EQ(i, b);
		snprintf(line, sizeof(line), "%06u %06u\t%06u\n", b, c0, c1);
		EXPECT_EQ(0, strncmp(p, line, strlen(line))) TH_LOG("%.30s", p);
		p = strchr(p, '\n') + 1;
	}
	EXPECT_EQ(0, strncmp(p, "# Total: ", 9)) TH_LOG("%.40s", p);
	/* the trailer, in cyclictest's order */
	p = strstr(p, "# Min Latencies: ");
	ASSERT_NE(NULL, p);
	p = strstr(p, "# Avg Latencies: ");
	ASSERT_NE(NULL, p);
	p = strstr(p, "# Max Latencies: ");
	ASSERT_NE(NULL, p);
	p = strstr(p, "# Histogram Overflows: ");
	ASSERT_NE(NULL, p);
	p = strstr(p, "# Histogram Overflow at cycle number:\n# Thread 0:");
	ASSERT_NE(NULL, p);
	EXPECT_NE(NULL, strstr(p, "\n# Thread 1:"));
	/* every sample is in the buckets or an overflow */
	wake = json_num(json_obj(r.out, "wakeup"), "count");
	tfd = json_num(json_obj(r.out, "timerfd"), "count");
	EXPECT_EQ(wake, trailer(text, "# Total:", 0) + trailer(text, "# Histogram Overflows:", 0));
	EXPECT_EQ(tfd, trailer(text, "# Total:", 1) + trailer(text, "# Histogram Overflows:", 1));
	EXPECT_EQ(json_num(json_obj(r.out, "wakeup"), "max_ns") / 1000,
		  trailer(text, "# Max Latencies:", 0));
}

/* without --histogram, buckets up to the largest sample: no overflow */
TEST(latency_histfile_default_buckets)
{
	const char *text, *last;
	struct run r;
	long long max;

	if (!hwt_device_present())
		SKIP(return, HWT_NO_DEVICE);
	unlink("/tmp/cli_latency_test.hist");
	run(&r, CTL " latency -n 100 --histfile /tmp/cli_latency_test.hist");
	ASSERT_EQ(0, r.status) TH_LOG("%s", r.err);
	EXPECT_NE(NULL, strstr(r.out, "histogram written to /tmp/cli_latency_test.hist"));
	text = slurp("/tmp/cli_latency_test.hist");
	ASSERT_NE(NULL, text);
	EXPECT_EQ(0, trailer(text, "# Histogram Overflows:", 0));
	EXPECT_EQ(100, trailer(text, "# Total:", 0));
	max = trailer(text, "# Max Latencies:", 0);
	last = strstr(text, "# Total:");
	ASSERT_NE(NULL, last);
	while (last > text && last[-1] == '\n' && *--last == '\n')
		;
	while (last > text && last[-1] != '\n')
		last--;
	EXPECT_EQ(max, atoll(last)) TH_LOG("%.40s", last);
}

/* where the tests put cyclictest_hist */
#define CT_FILE "/tmp/cli_latency_test.ct"

TEST(latency_compare_histfile_beside)
{
	const char *ct;
	struct run r;

	if (!hwt_device_present())
		SKIP(return, HWT_NO_DEVICE);
	write_file(CT_FILE, cyclictest_hist);
	run(&r, CTL " latency -i 5ms -l 20 --compare-histfile " CT_FILE " --json");
	ASSERT_EQ(0, r.status) TH_LOG("%s", r.err);
	EXPECT_EQ(1, json_lines(r.out)) TH_LOG("%s", r.out);
	ct = strstr(r.out, "\"cyclictest\":{\"file\":\"" CT_FILE "\",\"threads\":2,\"buckets\":4,");
	ASSERT_NE(NULL, ct) TH_LOG("%s", r.out);
	EXPECT_EQ(14, json_num(ct, "samples"));
	EXPECT_EQ(515, json_num(ct, "max_us"));
	EXPECT_NE(NULL, strstr(ct, "\"p99_us\":null"));
	run(&r, CTL " latency -i 5ms -l 20 --compare-histfile " CT_FILE);
	ASSERT_EQ(0, r.status) TH_LOG("%s", r.err);
	EXPECT_NE(NULL, strstr(r.out, "hwtimer     cyclictest")) TH_LOG("%s", r.out);
	EXPECT_NE(NULL, strstr(r.out, "2 threads together"));
	EXPECT_NE(NULL, strstr(r.out, ">= 4 us"));
	EXPECT_NE(NULL, strstr(r.out, "515 us\n"));
	/* the file's buckets are the default of --histfile */
	run(&r, CTL " latency -i 5ms -l 10 --compare-histfile " CT_FILE
	    " --histfile /tmp/cli_latency_test.hist -q");
	ASSERT_EQ(0, r.status) TH_LOG("%s", r.err);
	EXPECT_NE(NULL, strstr(slurp("/tmp/cli_latency_test.hist"), "\n000003 ")) TH_LOG("%s", r.out);
	EXPECT_EQ(NULL, strstr(slurp("/tmp/cli_latency_test.hist"), "\n000004 "));
}

/* the progress line: on a terminal only, not with -q */

#define NO_PTY	-2

/*
 * Run @cmd with stderr on a new pseudo-terminal; what it wrote there, and
 * its exit status, or NO_PTY. The guests' init mounts no devpts: mount it.
 */
static int run_on_pty(const char *cmd, char *out, size_t len)
{
	int master, slave, status;
	struct stat st;
	size_t n = 0;
	pid_t pid;

	if (stat("/dev/pts/ptmx", &st)) {
		mkdir("/dev/pts", 0755);
		mount("devpts", "/dev/pts", "devpts", 0, "ptmxmode=0666");
	}
	master = posix_openpt(O_RDWR | O_NOCTTY);
	if (master < 0 || grantpt(master) || unlockpt(master))
		return NO_PTY;
	slave = open(ptsname(master), O_RDWR | O_NOCTTY);
	if (slave < 0) {
		close(master);
		return NO_PTY;
	}
	pid = fork();
	if (!pid) {
		dup2(slave, STDERR_FILENO);
		if (!freopen("/dev/null", "w", stdout))
			_exit(126);
		execl("/bin/sh", "sh", "-c", cmd, (char *)NULL);
		_exit(127);
	}
	close(slave);
	for (;;) {
		struct pollfd p = { .fd = master, .events = POLLIN };
		ssize_t k;

		if (poll(&p, 1, 100) > 0 && n < len - 1) {
			k = read(master, out + n, len - 1 - n);
			if (k > 0)
				n += (size_t)k;
		}
		if (waitpid(pid, &status, WNOHANG) == pid)
			break;
	}
	out[n] = 0;
	close(master);
	return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

TEST(progress_on_a_terminal)
{
	static char out[65536];

	if (!hwt_device_present())
		SKIP(return, HWT_NO_DEVICE);
	int ret;

	/* 150 periods of 10 ms: longer than a second, whatever the machine */
	ret = run_on_pty(CTL " latency -i 10ms -l 150", out, sizeof(out));
	if (ret == NO_PTY)
		SKIP(return, "no pseudo-terminal");
	ASSERT_EQ(0, ret) TH_LOG("%s", out);
	EXPECT_NE(NULL, strstr(out, "\rlatency: periods: ")) TH_LOG("%s", out);
	EXPECT_NE(NULL, strstr(out, " of 150 (")) TH_LOG("%s", out);
	/* erased at the end */
	EXPECT_NE(NULL, strstr(out, "\r\033[K"));
}

TEST(progress_silenced_by_quiet)
{
	static char out[65536];

	if (!hwt_device_present())
		SKIP(return, HWT_NO_DEVICE);
	int ret = run_on_pty(CTL " latency -i 10ms -l 150 -q", out, sizeof(out));

	if (ret == NO_PTY)
		SKIP(return, "no pseudo-terminal");
	ASSERT_EQ(0, ret) TH_LOG("%s", out);
	EXPECT_STREQ("", out);
}

TEST(progress_not_on_a_pipe)
{
	struct run r;

	if (!hwt_device_present())
		SKIP(return, HWT_NO_DEVICE);
	run(&r, CTL " latency -i 10ms -l 150");
	ASSERT_EQ(0, r.status) TH_LOG("%s", r.err);
	EXPECT_STREQ("", r.err);
}

TEST(too_few_descriptors_exits_2)
{
	struct run r;

	if (!hwt_device_present())
		SKIP(return, HWT_NO_DEVICE);
	run(&r, "ulimit -n 100; " CTL " latency -n 1000 --compare");
	EXPECT_USAGE(r, "ulimit -n", " latency");
}

TEST(no_such_cpu_exits_2)
{
	struct run r;

	if (!hwt_device_present())
		SKIP(return, HWT_NO_DEVICE);
	run(&r, CTL " latency -l 5 -a 1000");
	EXPECT_USAGE(r, "--affinity 1000: none of these CPUs", " latency");
	run(&r, CTL " latency -l 5 -a 3-1");
	EXPECT_USAGE(r, "the range 3-1 runs backwards", " latency");
}

TEST(ring_not_a_power_of_two_exits_2)
{
	struct run r;

	if (!hwt_device_present())
		SKIP(return, HWT_NO_DEVICE);
	run(&r, CTL " latency -n 10 --ring=100");
	EXPECT_USAGE(r, "power of two, such as 64", " latency");
}

TEST(bad_compare_histfile_exits_2)
{
	struct run r;

	if (!hwt_device_present())
		SKIP(return, HWT_NO_DEVICE);
	unlink("/tmp/cli_latency_test.none");
	run(&r, CTL " latency -l 5 --compare-histfile /tmp/cli_latency_test.none");
	EXPECT_USAGE(r, "cannot open --compare-histfile /tmp/cli_latency_test.none", " latency");
	write_file("/tmp/cli_latency_test.bad", "hello\n");
	run(&r, CTL " latency -l 5 --compare-histfile /tmp/cli_latency_test.bad");
	EXPECT_USAGE(r, "line 1: 'hello' is not a line of cyclictest's histogram", " latency");
}

/* a file that cannot be written is a failure of the run, not of its line */
TEST(unwritable_histfile_exits_1)
{
	struct run r;

	if (!hwt_device_present())
		SKIP(return, HWT_NO_DEVICE);
	run(&r, CTL " latency -n 10 --histfile /nonexistent/dir/h");
	EXPECT_EQ(1, r.status);
	EXPECT_NE(NULL, strstr(r.err, "cannot write --histfile /nonexistent/dir/h"));
	run(&r, CTL " latency -n 10 -P /nonexistent/dir/p.svg");
	EXPECT_EQ(1, r.status);
	EXPECT_NE(NULL, strstr(r.err, "cannot write --plot /nonexistent/dir/p.svg"));
}

/* interrupted, latency still reports what it measured */
TEST(signal_stops_a_periodic_latency)
{
	struct run r;

	if (!hwt_device_present())
		SKIP(return, HWT_NO_DEVICE);
	run(&r, CTL " latency -i 10ms -q --json & p=$!; sleep 1; kill -INT $p; wait $p");
	EXPECT_EQ(128 + SIGINT, r.status);
	EXPECT_EQ(1, json_lines(r.out)) TH_LOG("%s", r.out);
	EXPECT_EQ(0, json_num(r.out, "loops"));
	EXPECT_LE(1, json_num(r.out, "expiries"));
}

HWT_HARNESS_MAIN
