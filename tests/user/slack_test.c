// SPDX-License-Identifier: GPL-2.0
/*
 * /dev/hwtimer: slack, a timer's own and the file's default
 * (HWTIMER_IOC_SLACK). Every validation path has a test of its own.
 */
#define _GNU_SOURCE
#include <sched.h>
#include <sys/prctl.h>

#include "kselftest_harness.h"
#include "helpers.h"

FIXTURE(slack) {
	int fd;
};

FIXTURE_SETUP(slack)
{
	if (!hwt_device_present())
		SKIP(return, HWT_NO_DEVICE);
	self->fd = t_open();
	ASSERT_LE(0, self->fd)
		TH_LOG("open /dev/hwtimer: %s", strerror(errno));
}

FIXTURE_TEARDOWN(slack)
{
	close(self->fd);
}

/*
 * Slack is a window after the deadline, which GET and records report as
 * given. A timer with 100 ms of slack fires from its deadline on, and no
 * later than the run that fires a timer without slack 50 ms after it: the
 * hrtimer is armed to fire by the earliest window's end. (That both usually
 * fire in one run is the wheel's business: hwtimer_wheel_range counts the
 * wakeups; an unrelated interrupt inside the window may run it earlier.)
 */
TEST_F(slack, slack_is_a_window_after_the_deadline)
{
	__u64 t0 = t_now_ns(CLOCK_MONOTONIC) + 200 * MS;
	struct hwtimer_op a = {
		.flags = HWTIMER_F_ABS, .clockid = CLOCK_MONOTONIC,
		.expires = t0, .slack = 100 * MS, .cookie = 1,
	}, b = {
		.flags = HWTIMER_F_ABS, .clockid = CLOCK_MONOTONIC,
		.expires = t0 + 50 * MS, .cookie = 2,
	};
	struct hwtimer_record r[2], *ra, *rb;
	struct hwtimer_get g;

	ASSERT_EQ(0, t_ioctl(self->fd, HWTIMER_IOC_ADD, &a));
	ASSERT_EQ(0, t_ioctl(self->fd, HWTIMER_IOC_ADD, &b));
	ASSERT_EQ(0, t_get(self->fd, a.id, &g));
	EXPECT_EQ(t0, g.expires);
	ASSERT_EQ(1, t_read(self->fd, &r[0], 1));
	ASSERT_EQ(1, t_read(self->fd, &r[1], 1));
	ra = r[0].cookie == 1 ? &r[0] : &r[1];
	rb = r[0].cookie == 1 ? &r[1] : &r[0];
	EXPECT_EQ(t0, ra->deadline);
	EXPECT_LE(t0, ra->fired);
	EXPECT_LE(ra->fired, rb->fired);
	EXPECT_LE(t0 + 50 * MS, rb->fired);
}

/* SLACK: the file's default slack */

static long file_slack(int fd, __u32 flags, __u64 *slack)
{
	struct hwtimer_slack sl = { .slack = *slack, .flags = flags };
	long ret = t_ioctl(fd, HWTIMER_IOC_SLACK, &sl);

	*slack = sl.slack;
	return ret;
}

TEST_F(slack, slack_default_is_read_and_set)
{
	__u64 v = 0;

	ASSERT_EQ(0, file_slack(self->fd, 0, &v));
	EXPECT_EQ(0ULL, v);
	v = MS;
	ASSERT_EQ(0, file_slack(self->fd, HWTIMER_SLACK_SET, &v));
	EXPECT_EQ(0ULL, v);		/* the one before */
	v = 0;
	ASSERT_EQ(0, file_slack(self->fd, 0, &v));
	EXPECT_EQ(MS, v);
	EXPECT_EQ(MS, t_fdinfo_u64(self->fd, "slack"));
}

/* an ADD without slack takes the file's: here, too much for its period */
TEST_F(slack, slack_default_applies_to_adds_without_slack)
{
	struct hwtimer_info info;
	struct hwtimer_op op = { .clockid = CLOCK_MONOTONIC, .expires = MS };
	__u64 v;

	ASSERT_EQ(0, t_ioctl(self->fd, HWTIMER_IOC_INFO, &info));
	op.period = info.max_delay_ns / 2 + 1;
	EXPECT_EQ(0, t_ioctl(self->fd, HWTIMER_IOC_ADD, &op));
	v = info.max_delay_ns / 2 + 1;
	ASSERT_EQ(0, file_slack(self->fd, HWTIMER_SLACK_SET, &v));
	op.id = 0;
	op.gen = 0;
	EXPECT_EQ(-ERANGE, t_ioctl(self->fd, HWTIMER_IOC_ADD, &op));
	/* a slack of its own overrides the file's */
	op.slack = 1;
	EXPECT_EQ(0, t_ioctl(self->fd, HWTIMER_IOC_ADD, &op));
}

/*
 * A deadline near the end of ktime plus a long slack lies beyond what an
 * hrtimer can be armed for. It wrapped to a soft expiry long past: the next
 * time that CPU ran its soft hrtimers (here, for another timer of the same
 * file on another clock), the file's hrtimer fired, re-armed for the same
 * time and fired again, for ever.
 */
TEST_F(slack, slack_past_the_end_of_ktime_does_not_spin)
{
	struct hwtimer_info info;
	struct hwtimer_op op = {
		.flags = HWTIMER_F_ABS, .clockid = CLOCK_MONOTONIC,
	};
	struct hwtimer_record r;
	cpu_set_t one;

	/* both hrtimers on one CPU: the one that arms them */
	CPU_ZERO(&one);
	CPU_SET(sched_getcpu(), &one);
	ASSERT_EQ(0, sched_setaffinity(0, sizeof(one), &one));
	ASSERT_EQ(0, t_ioctl(self->fd, HWTIMER_IOC_INFO, &info));
	op.slack = info.max_delay_ns;
	op.expires = t_now_ns(CLOCK_MONOTONIC) + info.max_delay_ns;
	ASSERT_EQ(0, t_ioctl(self->fd, HWTIMER_IOC_ADD, &op));
	ASSERT_EQ(0, t_add(self->fd, 0, CLOCK_BOOTTIME, 10 * MS, 0, 0, NULL));
	ASSERT_EQ(1, t_read(self->fd, &r, 1));
	EXPECT_EQ(CLOCK_BOOTTIME, (int)r.clockid);
	usleep(100000);
	/* a wakeup or two, not one per microsecond */
	EXPECT_GE(4ULL, t_fdinfo_u64(self->fd, "wakeups"));
}

TEST_F(slack, slack_unknown_flag_einval)
{
	__u64 v = 0;

	EXPECT_EQ(-EINVAL, file_slack(self->fd, 2, &v));
}

/* without HWTIMER_SLACK_SET the value is an out field: not read */
TEST_F(slack, slack_value_without_set_is_not_read)
{
	__u64 v = MS;

	EXPECT_EQ(0, file_slack(self->fd, 0, &v));
	EXPECT_EQ(0ULL, v);
	v = MS;
	EXPECT_EQ(0, file_slack(self->fd, 0, &v));
	EXPECT_EQ(0ULL, v);
}

TEST_F(slack, slack_nonzero_padding_einval)
{
	struct hwtimer_slack sl = { .padding = 1 };

	EXPECT_EQ(-EINVAL, t_ioctl(self->fd, HWTIMER_IOC_SLACK, &sl));
}

TEST_F(slack, slack_out_of_range_erange)
{
	__u64 v = ~0ULL;

	EXPECT_EQ(-ERANGE, file_slack(self->fd, HWTIMER_SLACK_SET, &v));
	v = 0;
	ASSERT_EQ(0, file_slack(self->fd, 0, &v));
	EXPECT_EQ(0ULL, v);
}

TEST_F(slack, slack_short_struct_einval)
{
	struct hwtimer_slack sl = { 0 };
	unsigned long cmd = _IOC(_IOC_READ | _IOC_WRITE, HWTIMER_IOC_MAGIC,
				 _IOC_NR(HWTIMER_IOC_SLACK), 8);

	EXPECT_EQ(-EINVAL, t_ioctl(self->fd, cmd, &sl));
}

TEST_F(slack, slack_bad_pointer_efault)
{
	EXPECT_EQ(-EFAULT, t_ioctl(self->fd, HWTIMER_IOC_SLACK, NULL));
}

/* a file takes its opener's prctl(PR_SET_TIMERSLACK), as nanosleep() does */
TEST(slack_default_from_the_openers_timer_slack)
{
	int before = t_open(), after;
	__u64 v = 0;

	if (!hwt_device_present())
		SKIP(return, HWT_NO_DEVICE);
	ASSERT_LE(0, before);
	ASSERT_EQ(0, prctl(PR_SET_TIMERSLACK, 5 * MS, 0, 0, 0));
	after = t_open();
	ASSERT_LE(0, after);
	ASSERT_EQ(0, file_slack(after, 0, &v));
	EXPECT_EQ(5 * MS, v);
	v = 0;
	ASSERT_EQ(0, file_slack(before, 0, &v));
	EXPECT_EQ(0ULL, v);
	close(after);
	/* 0 restores the task's default slack */
	ASSERT_EQ(0, prctl(PR_SET_TIMERSLACK, 0, 0, 0, 0));
	after = t_open();
	ASSERT_EQ(0, file_slack(after, 0, &v));
	EXPECT_EQ(0ULL, v);
	close(after);
	close(before);
}

HWT_HARNESS_MAIN
