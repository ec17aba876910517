// SPDX-License-Identifier: GPL-2.0
/*
 * Unprivileged users: any user may use /dev/hwtimer (mode 0666, as anyone
 * may create a timerfd), within the per-user limit, which gives EDQUOT past
 * it; one user's limit is not another's; no user reaches another's timers;
 * and only root may change the limits. Each case forks a child that drops
 * to an unprivileged uid; the parent (root) sets the limit around it.
 */
#define _GNU_SOURCE
#include <grp.h>
#include <stdlib.h>
#include <sys/wait.h>

#include "kselftest_harness.h"
#include "hwt_test.h"

#define UID_A	1000
#define UID_B	1001

static int become(uid_t uid)
{
	return setgroups(0, NULL) || setresgid(uid, uid, uid) || setresuid(uid, uid, uid);
}

/* Run @fn as @uid in a child; its exit status (0 is success). */
static int as_user(uid_t uid, int (*fn)(void *), void *arg)
{
	int status;
	pid_t pid = fork();

	if (pid < 0)
		return -1;
	if (!pid)
		_exit(become(uid) ? 100 : fn(arg));
	if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status))
		return -1;
	return WEXITSTATUS(status);
}

FIXTURE(unpriv) {
	long long old_limit;
};

FIXTURE_SETUP(unpriv)
{
	if (geteuid())
		SKIP(return, "needs root to switch users");
	self->old_limit = hwt_param_set("max_timers_per_user", 5);
	ASSERT_NE(-1, self->old_limit);
}

FIXTURE_TEARDOWN(unpriv)
{
	if (!geteuid())
		hwt_param_set("max_timers_per_user", self->old_limit);
}

/* 5 timers, then EDQUOT, over two files of the same user */
static int use_within_limit(void *arg)
{
	int a = hwt_open(), b = hwt_open(), i;
	struct hwtimer_record r;

	if (a < 0 || b < 0)
		return 1;
	for (i = 0; i < 3; i++)
		if (hwt_add(a, 0, CLOCK_MONOTONIC, 10 * SEC, 0, 0, NULL))
			return 2;
	for (i = 0; i < 2; i++)
		if (hwt_add(b, 0, CLOCK_MONOTONIC, 10 * SEC, 0, 0, NULL))
			return 3;
	if (hwt_add(a, 0, CLOCK_MONOTONIC, 10 * SEC, 0, 0, NULL) != -EDQUOT ||
	    hwt_add(b, 0, CLOCK_MONOTONIC, 10 * SEC, 0, 0, NULL) != -EDQUOT)
		return 4;
	/* a cancel gives one back, and the timer it allows fires */
	if (hwt_ioctl(b, HWTIMER_IOC_DRAIN, &(struct hwtimer_drain){ 0 }))
		return 5;
	if (hwt_add(b, 0, CLOCK_MONOTONIC, MS, 0, 0, NULL) || hwt_read(b, &r, 1) != 1)
		return 6;
	return 0;
}

TEST_F(unpriv, user_works_within_its_limit_and_gets_edquot_past_it)
{
	EXPECT_EQ(0, as_user(UID_A, use_within_limit, NULL));
}

/* holds 5 timers, then waits for the parent's word on a pipe */
static int hold_five(void *arg)
{
	int *p = arg, fd = hwt_open(), i;
	char c;

	for (i = 0; i < 5; i++)
		if (hwt_add(fd, 0, CLOCK_MONOTONIC, 10 * SEC, 0, 0, NULL))
			return 1;
	if (write(p[1], "x", 1) != 1 || read(p[0], &c, 1) != 1)
		return 2;
	return 0;
}

static int five_more(void *arg)
{
	int fd = hwt_open(), i;

	for (i = 0; i < 5; i++)
		if (hwt_add(fd, 0, CLOCK_MONOTONIC, 10 * SEC, 0, 0, NULL))
			return 1;
	return 0;
}

TEST_F(unpriv, one_users_limit_is_not_anothers)
{
	int up[2], down[2], status;
	pid_t pid;
	char c;

	ASSERT_EQ(0, pipe(up));
	ASSERT_EQ(0, pipe(down));
	pid = fork();
	ASSERT_LE(0, pid);
	if (!pid) {
		int p[2] = { down[0], up[1] };

		_exit(become(UID_A) ? 100 : hold_five(p));
	}
	/* our ends only: a child that dies early gives EOF, not a hang */
	close(up[1]);
	close(down[0]);
	ASSERT_EQ(1, read(up[0], &c, 1));
	/* A is at its limit; B still has all of its own */
	EXPECT_EQ(0, as_user(UID_B, five_more, NULL));
	ASSERT_EQ(1, write(down[1], "x", 1));
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	EXPECT_EQ(0, WEXITSTATUS(status));
}

/* the ids another user's file holds mean nothing on this user's file */
static int touch_ids(void *arg)
{
	uint32_t id = *(uint32_t *)arg;
	struct hwtimer_get g;
	int fd = hwt_open();

	if (fd < 0)
		return 1;
	if (hwt_get(fd, id, &g) != -ENOENT || hwt_cancel(fd, id) != -ENOENT ||
	    hwt_mod(fd, id, 0, MS, 0, NULL) != -ENOENT)
		return 2;
	return 0;
}

TEST_F(unpriv, no_user_reaches_anothers_timers)
{
	struct hwtimer_get g;
	uint32_t id;
	int fd = hwt_open();

	ASSERT_LE(0, fd);
	ASSERT_EQ(0, hwt_add(fd, 0, CLOCK_MONOTONIC, 10 * SEC, 0, 0, &id));
	EXPECT_EQ(0, as_user(UID_A, touch_ids, &id));
	EXPECT_EQ(0, hwt_get(fd, id, &g));
	EXPECT_EQ(HWTIMER_STATE_PENDING, g.state);
	close(fd);
}

static int change_limit(void *arg)
{
	FILE *f = fopen("/sys/module/hwtimer/parameters/max_timers_per_user", "w");

	/* sysfs checks the mode at open: 0644 is root's to write */
	if (f) {
		fclose(f);
		return 1;
	}
	return errno == EACCES ? 0 : 2;
}

static int read_stats(void *arg)
{
	FILE *f = fopen("/sys/class/misc/hwtimer/stats/fired", "r");
	char buf[32];

	if (!f || !fgets(buf, sizeof(buf), f))
		return 1;
	fclose(f);
	return 0;
}

TEST_F(unpriv, only_root_changes_limits_anyone_reads_stats)
{
	EXPECT_EQ(0, as_user(UID_A, change_limit, NULL));
	EXPECT_EQ(0, as_user(UID_A, read_stats, NULL));
}

TEST_HARNESS_MAIN
