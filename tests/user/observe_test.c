// SPDX-License-Identifier: GPL-2.0
/*
 * Observability: the tracepoints in tracefs, /proc/PID/fdinfo and the sysfs
 * counters match a scripted scenario exactly, the lateness histogram adds
 * up, the geometry matches HWTIMER_IOC_INFO, and an idle module wakes up
 * not at all.
 */
#define _GNU_SOURCE
#include <stdlib.h>

#include "kselftest_harness.h"
#include "helpers.h"

/* Sum of the space-separated numbers in @s. */
static unsigned long long sum_of(const char *s)
{
	unsigned long long sum = 0;
	char *end;

	for (;;) {
		unsigned long long v = strtoull(s, &end, 10);

		if (end == s)
			return sum;
		sum += v;
		s = end;
	}
}

FIXTURE(observe) {
	int fd;
};

FIXTURE_SETUP(observe)
{
	if (!hwt_device_present())
		SKIP(return, HWT_NO_DEVICE);
	self->fd = t_open();
	ASSERT_LE(0, self->fd);
}

FIXTURE_TEARDOWN(observe)
{
	close(self->fd);
}

static const char *const counters[] = {
	"added", "cancelled", "fired", "records", "modified", "drained",
};

#define NCOUNTERS ARRAY_SIZE(counters)

static void global_counters(unsigned long long *v)
{
	char name[64];
	unsigned int i;

	for (i = 0; i < NCOUNTERS; i++) {
		snprintf(name, sizeof(name), "stats/%s", counters[i]);
		v[i] = t_sysfs_u64(name);
	}
}

/* 10 added, 3 cancelled, 7 fired and read: every counter says so exactly */
TEST_F(observe, counters_match_a_scripted_scenario)
{
	unsigned long long before[NCOUNTERS], after[NCOUNTERS], hist0, hist1;
	struct hwtimer_record r[16];
	char buf[1024];
	__u32 ids[10];
	int i, got = 0;

	global_counters(before);
	ASSERT_LT(0, t_read_file(SYSFS "/stats/lateness_hist", buf, sizeof(buf)));
	hist0 = sum_of(buf);
	for (i = 0; i < 10; i++)
		ASSERT_EQ(0, t_add(self->fd, 0, CLOCK_MONOTONIC,
				   i < 7 ? 5 * MS : 10 * SEC, 0, i, &ids[i]));
	for (i = 7; i < 10; i++)
		ASSERT_EQ(1, t_cancel(self->fd, ids[i]));
	while (got < 7) {
		long n = t_read(self->fd, r, 16);

		ASSERT_LT(0, n);
		got += n;
	}
	EXPECT_EQ(7, got);

	EXPECT_EQ(7ULL, t_fdinfo_u64(self->fd, "timers"));
	EXPECT_EQ(0ULL, t_fdinfo_u64(self->fd, "pending"));
	EXPECT_EQ(0ULL, t_fdinfo_u64(self->fd, "ready"));
	EXPECT_EQ(10ULL, t_fdinfo_u64(self->fd, "added"));
	EXPECT_EQ(3ULL, t_fdinfo_u64(self->fd, "cancelled"));
	EXPECT_EQ(7ULL, t_fdinfo_u64(self->fd, "fired"));
	EXPECT_EQ(7ULL, t_fdinfo_u64(self->fd, "records"));
	EXPECT_EQ(0ULL, t_fdinfo_u64(self->fd, "modified"));
	EXPECT_LE(1ULL, t_fdinfo_u64(self->fd, "max_ready"));
	ASSERT_EQ(0, t_fdinfo(self->fd, "lateness_hist", buf, sizeof(buf)));
	EXPECT_EQ(7ULL, sum_of(buf));

	global_counters(after);
	EXPECT_EQ(10ULL, after[0] - before[0]);	/* added */
	EXPECT_EQ(3ULL, after[1] - before[1]);	/* cancelled */
	EXPECT_EQ(7ULL, after[2] - before[2]);	/* fired */
	EXPECT_EQ(7ULL, after[3] - before[3]);	/* records */
	EXPECT_EQ(0ULL, after[4] - before[4]);	/* modified */
	EXPECT_EQ(0ULL, after[5] - before[5]);	/* drained */
	ASSERT_LT(0, t_read_file(SYSFS "/stats/lateness_hist", buf, sizeof(buf)));
	hist1 = sum_of(buf);
	EXPECT_EQ(7ULL, hist1 - hist0);
}

TEST_F(observe, histogram_total_equals_fired)
{
	char buf[1024];

	/* over the module's whole life, not just this test */
	ASSERT_LT(0, t_read_file(SYSFS "/stats/lateness_hist", buf, sizeof(buf)));
	EXPECT_EQ(t_sysfs_u64("stats/fired"), sum_of(buf));
}

TEST_F(observe, drain_and_close_are_counted)
{
	unsigned long long before[NCOUNTERS], after[NCOUNTERS];
	int i, other = t_open();

	ASSERT_LE(0, other);
	global_counters(before);
	for (i = 0; i < 4; i++)
		ASSERT_EQ(0, t_add(self->fd, 0, CLOCK_BOOTTIME, 10 * SEC, 0, 0, NULL));
	for (i = 0; i < 5; i++)
		ASSERT_EQ(0, t_add(other, 0, CLOCK_MONOTONIC, 10 * SEC, 0, 0, NULL));
	ASSERT_EQ(0, t_ioctl(self->fd, HWTIMER_IOC_DRAIN,
			     &(struct hwtimer_drain){ 0 }));
	EXPECT_EQ(4ULL, t_fdinfo_u64(self->fd, "drained"));
	close(other);	/* its pending timers count as cancelled */
	global_counters(after);
	EXPECT_EQ(9ULL, after[0] - before[0]);
	EXPECT_EQ(4ULL, after[5] - before[5]);
	EXPECT_EQ(5ULL, after[1] - before[1]);
}

TEST_F(observe, geometry_matches_info)
{
	struct hwtimer_info info;
	char path[128];
	unsigned int l;

	ASSERT_EQ(0, t_ioctl(self->fd, HWTIMER_IOC_INFO, &info));
	EXPECT_EQ(info.tick_ns, t_sysfs_u64("wheel/tick_ns"));
	EXPECT_EQ(info.levels, t_sysfs_u64("wheel/levels"));
	EXPECT_EQ(info.slots_per_level, t_sysfs_u64("wheel/slots_per_level"));
	EXPECT_EQ(info.max_delay_ns, t_sysfs_u64("wheel/max_delay_ns"));
	for (l = 0; l < info.levels; l++) {
		unsigned int bits = info.level_shift * l;
		unsigned long long gran = info.tick_ns << bits;

		snprintf(path, sizeof(path), "level%u/granularity_ns", l);
		if (bits + __builtin_ctzll(info.tick_ns) < 63) {
			EXPECT_EQ(gran, t_sysfs_u64(path));
			snprintf(path, sizeof(path), "level%u/range_from_ns", l);
			/* keys two slots ahead and more: wheel.h */
			EXPECT_EQ(l ? 2 * gran : 0, t_sysfs_u64(path));
		}
	}
	/* no directory for a level the wheels do not have */
	snprintf(path, sizeof(path), SYSFS "/level%u", info.levels);
	EXPECT_NE(0, access(path, F_OK));
}

/* Timers on levels @from and up, and their occupied slots, from sysfs. */
static void levels_from(unsigned int from, unsigned int levels,
			unsigned long long *timers, unsigned long long *slots)
{
	char path[128];
	unsigned int l;

	*timers = *slots = 0;
	for (l = from; l < levels; l++) {
		snprintf(path, sizeof(path), "level%u/timers", l);
		*timers += t_sysfs_u64(path);
		snprintf(path, sizeof(path), "level%u/occupied_slots", l);
		*slots += t_sysfs_u64(path);
	}
}

TEST_F(observe, occupancy_follows_the_timers)
{
	struct hwtimer_info info;
	unsigned long long t0, t1, slots, below0, below1, total0, unused;
	unsigned int l;
	int i;

	ASSERT_EQ(0, t_ioctl(self->fd, HWTIMER_IOC_INFO, &info));
	/*
	 * A node goes to the lowest level whose slot of its key is fewer than
	 * slots_per_level slots ahead of the clock's: for a 10 s delay, the
	 * first level whose slots_per_level - 1 slots span more than 10 s.
	 * Never a lower one.
	 */
	for (l = 0; l < info.levels; l++)
		if ((info.tick_ns << (info.level_shift * l)) *
		    (info.slots_per_level - 1) > 10 * SEC)
			break;
	levels_from(l, info.levels, &t0, &unused);
	levels_from(0, l, &below0, &unused);
	total0 = t_sysfs_u64("wheel/timers");
	for (i = 0; i < 100; i++)
		ASSERT_EQ(0, t_add(self->fd, 0, CLOCK_MONOTONIC, 10 * SEC, 0, 0, NULL));
	levels_from(l, info.levels, &t1, &slots);
	EXPECT_EQ(100ULL, t1 - t0);
	EXPECT_EQ(100ULL, t_sysfs_u64("wheel/timers") - total0);
	levels_from(0, l, &below1, &unused);
	EXPECT_EQ(below0, below1);
	EXPECT_LE(1ULL, slots);
	ASSERT_EQ(0, t_ioctl(self->fd, HWTIMER_IOC_DRAIN,
			     &(struct hwtimer_drain){ 0 }));
	EXPECT_EQ(total0, t_sysfs_u64("wheel/timers"));
}

TEST_F(observe, idle_module_never_wakes_up)
{
	unsigned long long w0, w1;

	/* nothing pending anywhere (the tests before closed their files) */
	ASSERT_EQ(0ULL, t_sysfs_u64("wheel/timers"));
	w0 = t_sysfs_u64("stats/wakeups");
	sleep(1);
	w1 = t_sysfs_u64("stats/wakeups");
	EXPECT_EQ(w0, w1);
}

TEST_F(observe, one_far_timer_wakes_up_once)
{
	unsigned long long w0, w1;
	struct hwtimer_record r;

	w0 = t_sysfs_u64("stats/wakeups");
	/* 300 ms: two levels up at the default tick, yet a single wakeup */
	ASSERT_EQ(0, t_add(self->fd, 0, CLOCK_MONOTONIC, 300 * MS, 0, 0, NULL));
	ASSERT_EQ(1, t_read(self->fd, &r, 1));
	w1 = t_sysfs_u64("stats/wakeups");
	EXPECT_GE(2ULL, w1 - w0);
	EXPECT_LE(1ULL, w1 - w0);
}

/* Closing a file cancels its pending timers, and each shows in the trace. */
TEST_F(observe, close_traces_each_cancel)
{
	char *trace = malloc(1 << 20), *p, want[64];
	__u32 id[3], fired;
	int fd, i, n;

	ASSERT_NE(NULL, trace);
	if (access(TRACEFS "/events/hwtimer/hwt_cancel/enable", W_OK))
		SKIP(free(trace); return, "no tracefs with hwtimer events");
	fd = open("/dev/hwtimer", O_RDWR | O_CLOEXEC);
	ASSERT_LE(0, fd);
	for (i = 0; i < 3; i++)
		ASSERT_EQ(0, t_add(fd, 0, CLOCK_MONOTONIC, 60 * SEC, 0, 0,
				   &id[i]));
	/* a timer that already fired is not cancelled by the close */
	ASSERT_EQ(0, t_add(fd, 0, CLOCK_MONOTONIC, 1 * MS, 0, 0, &fired));
	usleep(50000);
	ASSERT_EQ(0, t_write_file(TRACEFS "/trace", ""));
	ASSERT_EQ(0, t_write_file(TRACEFS "/events/hwtimer/hwt_cancel/enable", "1"));
	ASSERT_EQ(0, close(fd));
	ASSERT_EQ(0, t_write_file(TRACEFS "/events/hwtimer/hwt_cancel/enable", "0"));
	ASSERT_LT(0, t_read_file(TRACEFS "/trace", trace, 1 << 20));

	for (n = 0, p = trace; (p = strstr(p, "hwt_cancel: ")); p++)
		n++;
	EXPECT_EQ(3, n);
	for (i = 0; i < 3; i++) {
		snprintf(want, sizeof(want), " id=%u expires=", id[i]);
		EXPECT_NE(NULL, strstr(trace, want));
	}
	snprintf(want, sizeof(want), " id=%u expires=", fired);
	EXPECT_EQ(NULL, strstr(trace, want));
	if (_metadata->exit_code == KSFT_FAIL)
		TH_LOG("trace:\n%.4000s", trace);
	free(trace);
}

TEST_F(observe, tracepoints_carry_their_fields)
{
	char *trace = malloc(1 << 20), want[128];
	struct hwtimer_info info = { 0 };
	struct hwtimer_record r;
	__u32 a, b, b2, c;
	__u64 l2, at;

	ASSERT_NE(NULL, trace);
	if (access(TRACEFS "/events/hwtimer/enable", W_OK))
		SKIP(free(trace); return, "no tracefs with hwtimer events");
	ASSERT_EQ(0, t_ioctl(self->fd, HWTIMER_IOC_INFO, &info));
	l2 = info.tick_ns << (2 * info.level_shift);
	ASSERT_EQ(0, t_write_file(TRACEFS "/trace", ""));
	ASSERT_EQ(0, t_write_file(TRACEFS "/events/hwtimer/enable", "1"));
	ASSERT_EQ(0, t_add(self->fd, 0, CLOCK_MONOTONIC, 5 * MS, 0, 0, &a));
	/*
	 * two timers in one level-2 slot 100 ms ahead, a tick apart: their
	 * slot cascades (a lone timer is taken from where it is). Placed
	 * where they are only if the host did not stall the test to within
	 * a level-1 span of them: else they go, and two more are placed.
	 */
	for (;;) {
		at = (t_now_ns(CLOCK_MONOTONIC) + 100 * MS) / l2 * l2 + l2 / 4;
		ASSERT_EQ(0, t_add(self->fd, HWTIMER_F_ABS, CLOCK_MONOTONIC,
				   at, 0, 0, &b));
		ASSERT_EQ(0, t_add(self->fd, HWTIMER_F_ABS, CLOCK_MONOTONIC,
				   at + info.tick_ns, 0, 0, &b2));
		if (t_now_ns(CLOCK_MONOTONIC) + 2 * l2 < at)
			break;
		ASSERT_LE(0, t_cancel(self->fd, b));
		ASSERT_LE(0, t_cancel(self->fd, b2));
	}
	ASSERT_EQ(0, t_add(self->fd, 0, CLOCK_MONOTONIC, 10 * SEC, 0, 0, &c));
	ASSERT_EQ(1, t_mod(self->fd, c, 0, 20 * SEC, 0, NULL));
	ASSERT_EQ(1, t_cancel(self->fd, c));
	ASSERT_EQ(1, t_read(self->fd, &r, 1));
	ASSERT_EQ(1, t_read(self->fd, &r, 1));
	ASSERT_EQ(1, t_read(self->fd, &r, 1));
	ASSERT_EQ(0, t_write_file(TRACEFS "/events/hwtimer/enable", "0"));
	ASSERT_LT(0, t_read_file(TRACEFS "/trace", trace, 1 << 20));

	snprintf(want, sizeof(want), "hwt_add: clock=1 timer=");
	EXPECT_NE(NULL, strstr(trace, want));
	snprintf(want, sizeof(want), "id=%u expires=", a);
	EXPECT_NE(NULL, strstr(trace, want));
	EXPECT_NE(NULL, strstr(trace, "hwt_modify: "));
	snprintf(want, sizeof(want), "hwt_cancel: clock=1");
	EXPECT_NE(NULL, strstr(trace, want));
	EXPECT_NE(NULL, strstr(trace, "hwt_expire: "));
	EXPECT_NE(NULL, strstr(trace, " lateness="));
	EXPECT_NE(NULL, strstr(trace, " level="));
	EXPECT_NE(NULL, strstr(trace, "hwt_tick: "));
	EXPECT_NE(NULL, strstr(trace, " fired=1"));
	EXPECT_NE(NULL, strstr(trace, "hwt_cascade: "));
	if (_metadata->exit_code == KSFT_FAIL)
		TH_LOG("trace:\n%.4000s", trace);
	free(trace);
}

HWT_HARNESS_MAIN
