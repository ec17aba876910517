// SPDX-License-Identifier: GPL-2.0
/*
 * The per-user limits and user namespaces. Out of tree the limits are
 * module parameters, and a user in a namespace is charged to the user who
 * created the outermost one; in the kernel's tree they are counted in the
 * ucounts, with the user namespace sysctls user.max_hwtimer_files and
 * user.max_hwtimer_timers, which each namespace has its own of, and a user
 * counts in its namespace and in every one above it, as inotify's
 * instances do. Either way, a namespace does not multiply its creator's
 * limits; in the tree, a namespace's own limits hold in it too.
 */
#define _GNU_SOURCE
#include <sched.h>
#include <stdio.h>

#include "kselftest_harness.h"
#include "helpers.h"
#include "as_user.h"

#define NS_FILES	"/proc/sys/user/max_hwtimer_files"
#define NS_TIMERS	"/proc/sys/user/max_hwtimer_timers"

FIXTURE(userns) {
	long long old_files;
	long long old_timers;
};

FIXTURE_SETUP(userns)
{
	if (!hwt_device_present())
		SKIP(return, HWT_NO_DEVICE);
	if (geteuid())
		SKIP(return, "needs root to set the limits and run as other uids");
	self->old_files = t_param_set("max_files_per_user", 4096);
	self->old_timers = t_param_set("max_timers_per_user", 1 << 23);
	ASSERT_NE(-1, self->old_files);
	ASSERT_NE(-1, self->old_timers);
}

FIXTURE_TEARDOWN(userns)
{
	if (self->old_files > 0)
		t_param_set("max_files_per_user", self->old_files);
	if (self->old_timers > 0)
		t_param_set("max_timers_per_user", self->old_timers);
}

/* Files of /dev/hwtimer opened until one fails: how many, and its errno. */
static int open_until_refused(int *err)
{
	int fd[64], n = 0, i;

	*err = 0;
	while (n < 64) {
		fd[n] = t_open();
		if (fd[n] < 0) {
			*err = errno;
			break;
		}
		n++;
	}
	for (i = 0; i < n; i++)
		close(fd[i]);
	return n;
}

/* A new user namespace, for the calling child; 0, or -1 if there is none. */
static int new_userns(void)
{
	return unshare(CLONE_NEWUSER) ? -1 : 0;
}

/*
 * As A, one file open, and then in a namespace of its own: 2 more files,
 * the next refused with EMFILE.
 */
static int files_in_a_namespace(void *arg)
{
	int fd = t_open(), err, n;

	if (fd < 0)
		return 1;
	if (new_userns())
		return 10;
	n = open_until_refused(&err);
	close(fd);
	if (n != 2)
		return 2;
	return err == EMFILE ? 0 : 3;
}

/*
 * max_files_per_user is A's however many namespaces A creates: files
 * opened in a namespace A created count with A's others (out of tree, as
 * its creator's; in the tree, in A's ucounts of the initial namespace
 * too).
 */
TEST_F(userns, a_namespace_does_not_multiply_the_files_limit)
{
	int ret;

	ASSERT_NE(-1, t_param_set("max_files_per_user", 3));
	ret = as_user(UID_A, files_in_a_namespace, NULL);
	if (ret == 10)
		SKIP(return, "no user namespace for an ordinary user here");
	EXPECT_EQ(0, ret);
}

/* As A, in a namespace of its own: open() refused for the timers' limit. */
static int timers_in_a_namespace(void *arg)
{
	int fd;

	if (new_userns())
		return 10;
	fd = t_open();
	if (fd >= 0) {
		close(fd);
		return 1;
	}
	return errno == EDQUOT ? 0 : 2;
}

/*
 * The same for max_timers_per_user: with a limit below what a file counts
 * as, A's open() in its namespace is refused with EDQUOT.
 */
TEST_F(userns, a_namespace_does_not_multiply_the_timers_limit)
{
	int ret;

	ASSERT_NE(-1, t_param_set("max_timers_per_user", 1));
	ret = as_user(UID_A, timers_in_a_namespace, NULL);
	if (ret == 10)
		SKIP(return, "no user namespace for an ordinary user here");
	EXPECT_EQ(0, ret);
}

/* Write @v to @path, a sysctl of the caller's user namespace. */
static int ns_limit_set(const char *path, long long v)
{
	char buf[32];

	snprintf(buf, sizeof(buf), "%lld", v);
	return t_write_file(path, buf);
}

/*
 * In a new namespace, root (of the initial namespace, whose creator it
 * is) sets the namespace's own files limit to 2: HWTIMER_INFO reports it,
 * the third open() is refused, and the initial namespace's limit is
 * unchanged.
 */
static int own_files_limit(void *arg)
{
	struct hwtimer_info info;
	int fd, err, ret = 0;

	if (new_userns())
		return 10;
	if (ns_limit_set(NS_FILES, 2))
		return 11;
	fd = t_open();
	if (fd < 0)
		return 1;
	if (t_ioctl(fd, HWTIMER_IOC_INFO, &info) || info.max_files_per_user != 2)
		ret = 2;
	else if (open_until_refused(&err) != 1 || err != EMFILE)
		ret = 3;
	close(fd);
	return ret;
}

TEST_F(userns, a_namespace_has_its_own_files_limit)
{
	char buf[32];
	int ret;

	if (access(NS_FILES, F_OK))
		SKIP(return, "the limits are the module's, not the namespaces'");
	ret = as_user(0, own_files_limit, NULL);
	if (ret == 10)
		SKIP(return, "no user namespaces here");
	EXPECT_EQ(0, ret);
	/* the initial namespace's limit is the fixture's */
	ASSERT_LT(0, t_read_file(NS_FILES, buf, sizeof(buf)));
	EXPECT_EQ(4096, atoll(buf));
}

/*
 * The same for the timers: a namespace whose own limit is below what a
 * file counts as refuses open() with EDQUOT, and HWTIMER_INFO in it
 * reports that limit.
 */
static int own_timers_limit(void *arg)
{
	struct hwtimer_info info;
	int fd, fd2, ret = 0;

	if (new_userns())
		return 10;
	fd = t_open();
	if (fd < 0)
		return 1;
	if (ns_limit_set(NS_TIMERS, 1))
		ret = 11;
	else if (t_ioctl(fd, HWTIMER_IOC_INFO, &info) ||
		 info.max_timers_per_user != 1)
		ret = 2;
	fd2 = t_open();
	if (!ret && (fd2 >= 0 || errno != EDQUOT))
		ret = 3;
	if (fd2 >= 0)
		close(fd2);
	close(fd);
	return ret;
}

TEST_F(userns, a_namespace_has_its_own_timers_limit)
{
	int ret;

	if (access(NS_TIMERS, F_OK))
		SKIP(return, "the limits are the module's, not the namespaces'");
	ret = as_user(0, own_timers_limit, NULL);
	if (ret == 10)
		SKIP(return, "no user namespaces here");
	EXPECT_EQ(0, ret);
}

TEST_HARNESS_MAIN
