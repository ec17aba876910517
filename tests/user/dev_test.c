// SPDX-License-Identifier: GPL-2.0
/*
 * /dev/hwtimer: every operation's behaviour. Its validation paths, each
 * with a test of its own, are validate_test's; struct sizes, ioctl
 * numbers and faulting user memory abi_test's; records record_test's,
 * slack slack_test's, BATCH and DRAIN batch_test's.
 */
#define _GNU_SOURCE
#include <sys/wait.h>

#include "kselftest_harness.h"
#include "helpers.h"

FIXTURE(dev) {
	int fd;
};

FIXTURE_SETUP(dev)
{
	if (!hwt_device_present())
		SKIP(return, HWT_NO_DEVICE);
	self->fd = t_open();
	ASSERT_LE(0, self->fd)
		TH_LOG("open /dev/hwtimer: %s", strerror(errno));
}

FIXTURE_TEARDOWN(dev)
{
	close(self->fd);
}

/* ADD and its records */

TEST_F(dev, add_fires_once_with_a_full_record)
{
	struct hwtimer_op op = {
		.clockid = CLOCK_MONOTONIC, .expires = 10 * MS, .cookie = 0xc0ffee,
	};
	struct hwtimer_record r[4];
	struct hwtimer_get g;
	__u64 before = t_now_ns(CLOCK_MONOTONIC), after;

	ASSERT_EQ(0, t_ioctl(self->fd, HWTIMER_IOC_ADD, &op));
	EXPECT_NE(0U, op.id);
	EXPECT_NE(0U, op.gen);
	EXPECT_EQ(0U, op.op);
	ASSERT_EQ(1, t_read(self->fd, r, 4));
	after = t_now_ns(CLOCK_MONOTONIC);
	EXPECT_EQ(op.id, r[0].id);
	EXPECT_EQ(op.gen, r[0].gen);
	EXPECT_EQ(0xc0ffeeULL, r[0].cookie);
	EXPECT_LE(before + 10 * MS, r[0].deadline);
	EXPECT_LE(r[0].deadline, r[0].fired);
	EXPECT_LE(r[0].fired, after);
	EXPECT_EQ(0ULL, r[0].overruns);
	EXPECT_EQ(0U, r[0].flags);
	EXPECT_EQ((__u32)CLOCK_MONOTONIC, r[0].clockid);
	ASSERT_EQ(0, t_get(self->fd, op.id, &g));
	EXPECT_EQ(HWTIMER_STATE_IDLE, g.state);
	ASSERT_EQ(0, t_set_nonblock(self->fd));
	EXPECT_EQ(-EAGAIN, t_read(self->fd, r, 4));
}

TEST_F(dev, add_accepts_zero_op_or_its_own)
{
	struct hwtimer_op op = {
		.op = HWTIMER_OP_ADD, .clockid = CLOCK_MONOTONIC, .expires = SEC,
	};

	EXPECT_EQ(0, t_ioctl(self->fd, HWTIMER_IOC_ADD, &op));
	EXPECT_EQ((__u32)HWTIMER_OP_ADD, op.op);
	op.op = HWTIMER_OP_MOD;
	op.id = 0;
	op.gen = 0;
	EXPECT_EQ(-EINVAL, t_ioctl(self->fd, HWTIMER_IOC_ADD, &op));
}

/* ids stay dense: the one freed last is handed out next */
TEST_F(dev, ids_are_reused_last_freed_first)
{
	__u32 id[4];
	int i;

	for (i = 0; i < 4; i++) {
		ASSERT_EQ(0, t_add(self->fd, 0, CLOCK_MONOTONIC, SEC, 0, 0, &id[i]));
		EXPECT_EQ((__u32)i + 1, id[i]);
	}
	EXPECT_EQ(1, t_cancel(self->fd, id[1]));
	EXPECT_EQ(1, t_cancel(self->fd, id[0]));
	ASSERT_EQ(0, t_add(self->fd, 0, CLOCK_MONOTONIC, SEC, 0, 0, &id[0]));
	EXPECT_EQ(1U, id[0]);
	ASSERT_EQ(0, t_add(self->fd, 0, CLOCK_MONOTONIC, SEC, 0, 0, &id[1]));
	EXPECT_EQ(2U, id[1]);
	ASSERT_EQ(0, t_add(self->fd, 0, CLOCK_MONOTONIC, SEC, 0, 0, &id[1]));
	EXPECT_EQ(5U, id[1]);
}

/*
 * A fixed-rate grid starts at the first deadline as given, even one that has
 * passed: the timer fires at once, and its record reports that deadline and
 * counts the periods since as overruns (the grid did not move to the time
 * of the ADD).
 */
TEST_F(dev, fixed_rate_grid_starts_at_a_past_first_deadline)
{
	const __u64 p = 10 * MS;
	__u64 d0 = t_now_ns(CLOCK_MONOTONIC) - 25 * MS;
	struct hwtimer_record r;

	ASSERT_EQ(0, t_add(self->fd, HWTIMER_F_ABS, CLOCK_MONOTONIC, d0, p, 0, NULL));
	ASSERT_EQ(1, t_read(self->fd, &r, 1));
	EXPECT_EQ(d0, r.deadline);
	EXPECT_LE(2ULL, r.overruns);
	EXPECT_LE(r.deadline, r.fired);
	ASSERT_EQ(1, t_read(self->fd, &r, 1));
	EXPECT_EQ(0ULL, (r.deadline - d0) % p);
}

TEST_F(dev, add_past_deadline_fires_at_once)
{
	__u64 now = t_now_ns(CLOCK_MONOTONIC);
	struct hwtimer_record r;
	__u32 id;

	ASSERT_EQ(0, t_add(self->fd, HWTIMER_F_ABS, CLOCK_MONOTONIC,
			   now - SEC, 0, 0, &id));
	ASSERT_EQ(1, t_read(self->fd, &r, 1));
	/* the deadline was raised to the time of arming */
	EXPECT_LE(now, r.deadline);
	EXPECT_LE(r.deadline, r.fired);
}

/* MOD */

TEST_F(dev, mod_rearms_with_a_new_generation)
{
	struct hwtimer_get g;
	__u32 id, gen;

	ASSERT_EQ(0, t_add(self->fd, 0, CLOCK_MONOTONIC, 10 * SEC, 0, 0, &id));
	ASSERT_EQ(0, t_get(self->fd, id, &g));
	EXPECT_EQ(1, t_mod(self->fd, id, 0, 20 * SEC, 0, &gen));
	EXPECT_NE(g.gen, gen);
	ASSERT_EQ(0, t_get(self->fd, id, &g));
	EXPECT_EQ(gen, g.gen);
	EXPECT_EQ(HWTIMER_STATE_PENDING, g.state);
	EXPECT_LT(10 * SEC, g.remaining);
}

TEST_F(dev, mod_of_a_fired_timer_drops_its_record)
{
	struct hwtimer_record r;
	struct hwtimer_get g;
	__u32 id;

	ASSERT_EQ(0, t_add(self->fd, 0, CLOCK_MONOTONIC, MS, 0, 0, &id));
	do {
		ASSERT_EQ(0, t_get(self->fd, id, &g));
	} while (g.state != HWTIMER_STATE_FIRED);
	/* 2: it had fired, and its unread record went with the arming */
	EXPECT_EQ(2, t_mod(self->fd, id, 0, 10 * SEC, 0, NULL));
	ASSERT_EQ(0, t_set_nonblock(self->fd));
	EXPECT_EQ(-EAGAIN, t_read(self->fd, &r, 1));
}

TEST_F(dev, mod_if_earlier_is_a_kick)
{
	struct hwtimer_get g;
	__u64 deadline;
	__u32 id;

	ASSERT_EQ(0, t_add(self->fd, 0, CLOCK_MONOTONIC, 10 * SEC, 0, 0, &id));
	ASSERT_EQ(0, t_get(self->fd, id, &g));
	deadline = g.expires;
	EXPECT_EQ(1, t_mod(self->fd, id, HWTIMER_F_IF_EARLIER, 20 * SEC, 0, NULL));
	ASSERT_EQ(0, t_get(self->fd, id, &g));
	EXPECT_EQ(deadline, g.expires);
	EXPECT_EQ(1, t_mod(self->fd, id, HWTIMER_F_IF_EARLIER, SEC, 0, NULL));
	ASSERT_EQ(0, t_get(self->fd, id, &g));
	EXPECT_GT(deadline, g.expires);
}

TEST_F(dev, mod_if_idle_leaves_a_pending_timer)
{
	struct hwtimer_record r;
	struct hwtimer_get g;
	__u64 deadline;
	__u32 id;

	/* an hour away: pending whatever the host stalls */
	ASSERT_EQ(0, t_add(self->fd, 0, CLOCK_MONOTONIC, 3600 * SEC, 0, 0,
			   &id));
	ASSERT_EQ(0, t_get(self->fd, id, &g));
	deadline = g.expires;
	EXPECT_EQ(1, t_mod(self->fd, id, HWTIMER_F_IF_IDLE, 10 * SEC, 0, NULL));
	ASSERT_EQ(0, t_get(self->fd, id, &g));
	EXPECT_EQ(deadline, g.expires);
	ASSERT_EQ(1, t_mod(self->fd, id, 0, 10 * MS, 0, NULL));
	ASSERT_EQ(1, t_read(self->fd, &r, 1));
	/* now idle: it arms */
	EXPECT_EQ(0, t_mod(self->fd, id, HWTIMER_F_IF_IDLE, 10 * MS, 0, NULL));
	ASSERT_EQ(1, t_read(self->fd, &r, 1));
	EXPECT_EQ(id, r.id);
}

TEST_F(dev, mod_adds_a_period)
{
	struct hwtimer_record r;
	__u32 id;
	int i;

	ASSERT_EQ(0, t_add(self->fd, 0, CLOCK_MONOTONIC, 10 * SEC, 0, 0, &id));
	EXPECT_EQ(1, t_mod(self->fd, id, HWTIMER_F_PERIOD, 5 * MS, 5 * MS, NULL));
	for (i = 0; i < 3; i++) {
		ASSERT_EQ(1, t_read(self->fd, &r, 1));
		EXPECT_EQ(id, r.id);
		EXPECT_EQ((__u32)HWTIMER_REC_PERIODIC, r.flags);
	}
}

/* HWTIMER_F_GEN: a MOD for an arming that is gone does nothing */
TEST_F(dev, mod_of_a_stale_generation_estale)
{
	struct hwtimer_op op = {
		.clockid = CLOCK_MONOTONIC, .expires = 10 * SEC,
	};
	struct hwtimer_get g;
	__u32 gen;

	ASSERT_EQ(0, t_ioctl(self->fd, HWTIMER_IOC_ADD, &op));
	gen = op.gen;
	ASSERT_EQ(1, t_mod(self->fd, op.id, 0, 20 * SEC, 0, NULL));
	op.op = 0;
	op.clockid = 0;
	op.flags = HWTIMER_F_GEN;
	op.expires = SEC;
	op.gen = gen;
	EXPECT_EQ(-ESTALE, t_ioctl(self->fd, HWTIMER_IOC_MOD, &op));
	ASSERT_EQ(0, t_get(self->fd, op.id, &g));
	EXPECT_LT(10 * SEC, g.remaining);
	/* the current one, and without the flag @gen is not read */
	op.gen = g.gen;
	EXPECT_EQ(1, t_ioctl(self->fd, HWTIMER_IOC_MOD, &op));
	EXPECT_NE(g.gen, op.gen);
	op.flags = 0;
	op.gen = 12345;
	EXPECT_EQ(1, t_ioctl(self->fd, HWTIMER_IOC_MOD, &op));
}

/* CANCEL and GET */

TEST_F(dev, cancel_reports_pending_and_deletes)
{
	struct hwtimer_get g;
	__u32 a, b;

	ASSERT_EQ(0, t_add(self->fd, 0, CLOCK_MONOTONIC, 10 * SEC, 0, 0, &a));
	ASSERT_EQ(0, t_add(self->fd, 0, CLOCK_MONOTONIC, MS, 0, 0, &b));
	EXPECT_EQ(1, t_cancel(self->fd, a));
	EXPECT_EQ(-ENOENT, t_get(self->fd, a, &g));
	EXPECT_EQ(-ENOENT, t_cancel(self->fd, a));
	do {
		ASSERT_EQ(0, t_get(self->fd, b, &g));
	} while (g.state != HWTIMER_STATE_FIRED);
	/* fired: not pending, and its unread record goes with it */
	EXPECT_EQ(2, t_cancel(self->fd, b));
	EXPECT_TRUE(t_file_is_empty(self->fd));
}

/* CANCEL writes back the generation it ended and the time that was left */
TEST_F(dev, cancel_reports_what_it_ended)
{
	struct hwtimer_op add = {
		.clockid = CLOCK_MONOTONIC, .expires = 10 * SEC,
	};
	struct hwtimer_op op = { .expires = 99 };
	struct hwtimer_record r;

	ASSERT_EQ(0, t_ioctl(self->fd, HWTIMER_IOC_ADD, &add));
	op.id = add.id;
	EXPECT_EQ(1, t_ioctl(self->fd, HWTIMER_IOC_CANCEL, &op));
	EXPECT_EQ(add.gen, op.gen);
	EXPECT_LT(9 * SEC, op.expires);
	EXPECT_GE(10 * SEC, op.expires);
	/* one that fired and was read: nothing was left, nothing dropped */
	ASSERT_EQ(0, t_add(self->fd, 0, CLOCK_MONOTONIC, MS, 0, 0, &op.id));
	ASSERT_EQ(1, t_read(self->fd, &r, 1));
	op.op = 0;
	op.expires = 99;
	EXPECT_EQ(0, t_ioctl(self->fd, HWTIMER_IOC_CANCEL, &op));
	EXPECT_EQ(r.gen, op.gen);
	EXPECT_EQ(0ULL, op.expires);
}

/* HWTIMER_F_GEN: a stale CANCEL cannot take a newer timer on the same id */
TEST_F(dev, cancel_of_a_reused_id_estale)
{
	struct hwtimer_op old = {
		.clockid = CLOCK_MONOTONIC, .expires = 10 * SEC,
	};
	struct hwtimer_op op = { .flags = HWTIMER_F_GEN };
	__u32 id;

	ASSERT_EQ(0, t_ioctl(self->fd, HWTIMER_IOC_ADD, &old));
	ASSERT_EQ(1, t_cancel(self->fd, old.id));
	ASSERT_EQ(0, t_add(self->fd, 0, CLOCK_MONOTONIC, 10 * SEC, 0, 0, &id));
	ASSERT_EQ(old.id, id);
	op.id = old.id;
	op.gen = old.gen;
	EXPECT_EQ(-ESTALE, t_ioctl(self->fd, HWTIMER_IOC_CANCEL, &op));
	EXPECT_EQ(1, t_cancel(self->fd, id));
}

TEST_F(dev, get_reports_a_periodic_timer)
{
	struct hwtimer_op op = {
		.flags = HWTIMER_F_FIXED_DELAY, .clockid = CLOCK_BOOTTIME,
		.expires = SEC, .period = 2 * SEC, .cookie = 42,
	};
	struct hwtimer_get g;

	ASSERT_EQ(0, t_ioctl(self->fd, HWTIMER_IOC_ADD, &op));
	ASSERT_EQ(0, t_get(self->fd, op.id, &g));
	EXPECT_EQ(HWTIMER_STATE_PENDING, g.state);
	EXPECT_EQ((__u32)HWTIMER_F_FIXED_DELAY, g.timer_flags);
	EXPECT_EQ((__u32)CLOCK_BOOTTIME, g.clockid);
	EXPECT_EQ(op.gen, g.gen);
	EXPECT_EQ(2 * SEC, g.period);
	EXPECT_EQ(42ULL, g.cookie);
	EXPECT_GE(SEC, g.remaining);
	EXPECT_LT(0ULL, g.remaining);
}

/* read() and poll() */

/* CLOCK_REALTIME set back: the wheel follows it, nothing is refused */
TEST_F(dev, realtime_set_back_keeps_working)
{
	struct timespec ts;
	struct hwtimer_record r;
	__u32 id;

	if (geteuid())
		SKIP(return, "setting the clock needs root");
	ASSERT_EQ(0, t_add(self->fd, 0, CLOCK_REALTIME, 20 * MS, 0, 0, NULL));
	ASSERT_EQ(1, t_read(self->fd, &r, 1));
	ASSERT_EQ(0, clock_gettime(CLOCK_REALTIME, &ts));
	ts.tv_sec -= 3600;
	ASSERT_EQ(0, clock_settime(CLOCK_REALTIME, &ts));
	EXPECT_EQ(0, t_add(self->fd, 0, CLOCK_REALTIME, 20 * MS, 0, 7, &id));
	EXPECT_EQ(1, t_read(self->fd, &r, 1));
	EXPECT_EQ(7ULL, r.cookie);
	EXPECT_LE(r.deadline, r.fired);
	clock_gettime(CLOCK_REALTIME, &ts);
	ts.tv_sec += 3600;
	ASSERT_EQ(0, clock_settime(CLOCK_REALTIME, &ts));
}

/* Ownership and limits */

TEST_F(dev, files_cannot_see_each_others_timers)
{
	int other = t_open();
	struct hwtimer_get g;
	__u32 id;

	ASSERT_LE(0, other);
	ASSERT_EQ(0, t_add(self->fd, 0, CLOCK_MONOTONIC, 10 * SEC, 0, 0, &id));
	EXPECT_EQ(-ENOENT, t_get(other, id, &g));
	EXPECT_EQ(-ENOENT, t_cancel(other, id));
	EXPECT_EQ(-ENOENT, t_mod(other, id, 0, MS, 0, NULL));
	EXPECT_EQ(0, t_get(self->fd, id, &g));
	close(other);
}

TEST_F(dev, fork_and_dup_share_the_timers)
{
	int dupfd = dup(self->fd);
	struct hwtimer_get g;
	__u32 id;
	pid_t pid;
	int status;

	ASSERT_LE(0, dupfd);
	ASSERT_EQ(0, t_add(self->fd, 0, CLOCK_MONOTONIC, 10 * SEC, 0, 0, &id));
	EXPECT_EQ(0, t_get(dupfd, id, &g));
	pid = fork();
	ASSERT_LE(0, pid);
	if (!pid)
		_exit(t_cancel(self->fd, id) == 1 ? 0 : 1);
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	EXPECT_EQ(0, WEXITSTATUS(status));
	EXPECT_EQ(-ENOENT, t_get(dupfd, id, &g));
	close(dupfd);
}

TEST_F(dev, close_cancels_everything)
{
	int i, fd = t_open();

	ASSERT_LE(0, fd);
	for (i = 0; i < 1000; i++)
		ASSERT_EQ(0, t_add(fd, 0, CLOCK_MONOTONIC, i * 100000ULL, 0, 0, NULL));
	usleep(20 * 1000);	/* some fired, some are queued, most pending */
	close(fd);
}

TEST_F(dev, per_file_limit_enospc)
{
	long long old = t_param_set("max_timers_per_fd", 3);
	int i;

	ASSERT_NE(-1, old);
	for (i = 0; i < 3; i++)
		EXPECT_EQ(0, t_add(self->fd, 0, CLOCK_MONOTONIC, SEC, 0, 0, NULL));
	EXPECT_EQ(-ENOSPC, t_add(self->fd, 0, CLOCK_MONOTONIC, SEC, 0, 0, NULL));
	t_param_set("max_timers_per_fd", old);
	EXPECT_EQ(0, t_add(self->fd, 0, CLOCK_MONOTONIC, SEC, 0, 0, NULL));
}

/* 3 timers over two files, each with its file and its base besides */
TEST_F(dev, per_user_limit_edquot)
{
	long long old = t_param_set("max_timers_per_user", t_budget(2, 2, 3));
	int other = t_open();

	ASSERT_NE(-1, old);
	ASSERT_LE(0, other);
	EXPECT_EQ(0, t_add(self->fd, 0, CLOCK_MONOTONIC, SEC, 0, 0, NULL));
	EXPECT_EQ(0, t_add(self->fd, 0, CLOCK_MONOTONIC, SEC, 0, 0, NULL));
	EXPECT_EQ(0, t_add(other, 0, CLOCK_MONOTONIC, SEC, 0, 0, NULL));
	/* the limit spans the user's files */
	EXPECT_EQ(-EDQUOT, t_add(other, 0, CLOCK_MONOTONIC, SEC, 0, 0, NULL));
	EXPECT_EQ(-EDQUOT, t_add(self->fd, 0, CLOCK_MONOTONIC, SEC, 0, 0, NULL));
	close(other);
	/* closing a file gives its timers back */
	EXPECT_EQ(0, t_add(self->fd, 0, CLOCK_MONOTONIC, SEC, 0, 0, NULL));
	t_param_set("max_timers_per_user", old);
}

HWT_HARNESS_MAIN
