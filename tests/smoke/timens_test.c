// SPDX-License-Identifier: GPL-2.0
/*
 * Time namespaces, on every kernel of the matrix: in a child of
 * unshare(CLONE_NEWTIME) whose CLOCK_MONOTONIC and CLOCK_BOOTTIME are
 * shifted, an absolute deadline of "the namespace's now + 50 ms" fires
 * 50 ms later, as a timerfd armed the same way in the same child does, and
 * GET and records report times in the namespace's view.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/timerfd.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "kselftest_harness.h"
#include "helpers.h"

#ifndef CLONE_NEWTIME
#define CLONE_NEWTIME	0x00000080
#endif

#define DELAY	(50 * MS)
#define LATE	(2 * SEC)	/* emulated time: generous, but not an hour */

/* exit codes of the child: which check failed */
enum { OK, E_OPEN, E_ADD, E_GET, E_READ, E_EARLY, E_LATE, E_VIEW, E_TFD };

/* In the namespace: one hwtimer and one timerfd, both at now + DELAY. */
static int child_checks(clockid_t clk)
{
	struct itimerspec its = { 0 };
	struct hwtimer_get g = { 0 };
	struct hwtimer_record r;
	uint64_t deadline, after, ticks;
	int fd = t_open(), tfd = timerfd_create(clk, 0);
	uint32_t id;

	if (fd < 0 || tfd < 0)
		return E_OPEN;
	deadline = t_now_ns(clk) + DELAY;
	if (t_add(fd, HWTIMER_F_ABS, clk, deadline, 0, 0, &id))
		return E_ADD;
	its.it_value.tv_sec = deadline / SEC;
	its.it_value.tv_nsec = deadline % SEC;
	if (timerfd_settime(tfd, TFD_TIMER_ABSTIME, &its, NULL))
		return E_TFD;
	g.id = id;
	if (t_ioctl(fd, HWTIMER_IOC_GET, &g) || g.expires != deadline)
		return E_GET;
	if (t_read(fd, &r, 1) != 1)
		return E_READ;
	after = t_now_ns(clk);
	if (after < deadline || r.fired < deadline)
		return E_EARLY;
	if (after > deadline + LATE)
		return E_LATE;
	/* the record is in this view: its times are this clock's */
	if (r.deadline != deadline || r.fired > after)
		return E_VIEW;
	if (read(tfd, &ticks, sizeof(ticks)) != sizeof(ticks) || ticks != 1 ||
	    t_now_ns(clk) > deadline + LATE)
		return E_TFD;
	return OK;
}

/*
 * Enter a new time namespace with both offsets set to @offset_s seconds and
 * run the checks on @clk in a child born into it. Returns the child's exit
 * code, or -1 with errno if the namespace cannot be made (skip).
 */
static int in_timens(long long offset_s, clockid_t clk)
{
	char buf[128];
	int fd, len, status;
	pid_t pid;

	if (unshare(CLONE_NEWTIME))
		return -1;
	len = snprintf(buf, sizeof(buf), "monotonic %lld 0\nboottime %lld 0\n",
		       offset_s, offset_s);
	fd = open("/proc/self/timens_offsets", O_WRONLY);
	if (fd < 0 || write(fd, buf, len) != len)
		return -1;
	close(fd);
	pid = fork();
	if (pid < 0)
		return -1;
	if (!pid)
		_exit(child_checks(clk));
	if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status))
		return -1;
	return WEXITSTATUS(status);
}

/* A negative offset must leave the namespace's clocks positive. */
static long long negative_offset(void)
{
	return -(long long)(t_now_ns(CLOCK_MONOTONIC) / SEC / 2);
}

#define TIMENS_TEST(name, offset, clk)					\
TEST(name)								\
{									\
	long long off = (offset);					\
	int ret;							\
									\
	if (!hwt_device_present())							\
		SKIP(return, HWT_NO_DEVICE);						\
	if (!off)							\
		SKIP(return, "the guest has not been up for 2 s");	\
	ret = in_timens(off, clk);					\
	if (ret < 0)							\
		SKIP(return, "no time namespace: %s", strerror(errno));	\
	EXPECT_EQ(OK, ret) TH_LOG("offset %lld s: check %d failed",	\
				  off, ret);				\
}

TIMENS_TEST(monotonic_ahead_one_hour, 3600, CLOCK_MONOTONIC)
TIMENS_TEST(monotonic_behind, negative_offset(), CLOCK_MONOTONIC)
TIMENS_TEST(boottime_ahead_one_hour, 3600, CLOCK_BOOTTIME)
TIMENS_TEST(boottime_behind, negative_offset(), CLOCK_BOOTTIME)

HWT_HARNESS_MAIN
