// SPDX-License-Identifier: GPL-2.0
/*
 * /dev/hwtimer: every validation path of ADD, MOD, CANCEL and GET with a
 * test of its own (botching-up-ioctls.rst): the precise errno, and the
 * file exactly as it was. The operations' behaviour is dev_test's; struct
 * sizes, ioctl numbers and faulting user memory are abi_test's, BATCH's
 * validation batch_test's.
 */
#define _GNU_SOURCE
#include <sys/eventfd.h>

#include "kselftest_harness.h"
#include "helpers.h"

FIXTURE(validate) {
	int fd;
};

FIXTURE_SETUP(validate)
{
	if (!hwt_device_present())
		SKIP(return, HWT_NO_DEVICE);
	self->fd = t_open();
	ASSERT_LE(0, self->fd)
		TH_LOG("open /dev/hwtimer: %s", strerror(errno));
}

FIXTURE_TEARDOWN(validate)
{
	close(self->fd);
}

/* ADD */

TEST_F(validate, add_unknown_flag_einval)
{
	struct hwtimer_op op = {
		.clockid = CLOCK_MONOTONIC, .expires = MS,
	};

	op.flags = 1U << 31;
	EXPECT_EQ(-EINVAL, t_ioctl(self->fd, HWTIMER_IOC_ADD, &op));
	EXPECT_TRUE(t_file_is_empty(self->fd));
}

TEST_F(validate, add_mod_only_flag_einval)
{
	struct hwtimer_op op = {
		.clockid = CLOCK_MONOTONIC, .expires = MS,
	};

	op.flags = HWTIMER_F_IF_EARLIER;
	EXPECT_EQ(-EINVAL, t_ioctl(self->fd, HWTIMER_IOC_ADD, &op));
	EXPECT_TRUE(t_file_is_empty(self->fd));
}

TEST_F(validate, add_nonzero_padding_einval)
{
	struct hwtimer_op op = {
		.clockid = CLOCK_MONOTONIC, .expires = MS,
	};

	op.padding = 1;
	EXPECT_EQ(-EINVAL, t_ioctl(self->fd, HWTIMER_IOC_ADD, &op));
	EXPECT_TRUE(t_file_is_empty(self->fd));
}

TEST_F(validate, add_realtime_without_its_flag_einval)
{
	struct hwtimer_op op = {
		.clockid = CLOCK_MONOTONIC, .expires = MS,
	};

	op.clockid = CLOCK_REALTIME;
	EXPECT_EQ(-EINVAL, t_ioctl(self->fd, HWTIMER_IOC_ADD, &op));
	EXPECT_TRUE(t_file_is_empty(self->fd));
}

TEST_F(validate, add_realtime_flag_on_another_clock_einval)
{
	struct hwtimer_op op = {
		.clockid = CLOCK_MONOTONIC, .expires = MS,
	};

	op.flags = HWTIMER_F_REALTIME;
	EXPECT_EQ(-EINVAL, t_ioctl(self->fd, HWTIMER_IOC_ADD, &op));
	EXPECT_TRUE(t_file_is_empty(self->fd));
}

TEST_F(validate, add_gen_flag_einval)
{
	struct hwtimer_op op = {
		.clockid = CLOCK_MONOTONIC, .expires = MS,
	};

	op.flags = HWTIMER_F_GEN;
	EXPECT_EQ(-EINVAL, t_ioctl(self->fd, HWTIMER_IOC_ADD, &op));
	EXPECT_TRUE(t_file_is_empty(self->fd));
}

TEST_F(validate, add_eventfd_without_flag_einval)
{
	struct hwtimer_op op = {
		.clockid = CLOCK_MONOTONIC, .expires = MS,
	};

	op.eventfd = 3;
	EXPECT_EQ(-EINVAL, t_ioctl(self->fd, HWTIMER_IOC_ADD, &op));
	EXPECT_TRUE(t_file_is_empty(self->fd));
}

TEST_F(validate, add_bad_clock_einval)
{
	struct hwtimer_op op = {
		.clockid = CLOCK_MONOTONIC, .expires = MS,
	};

	op.clockid = CLOCK_PROCESS_CPUTIME_ID;
	EXPECT_EQ(-EINVAL, t_ioctl(self->fd, HWTIMER_IOC_ADD, &op));
	EXPECT_TRUE(t_file_is_empty(self->fd));
}

TEST_F(validate, add_fixed_delay_without_period_einval)
{
	struct hwtimer_op op = {
		.clockid = CLOCK_MONOTONIC, .expires = MS,
	};

	op.flags = HWTIMER_F_FIXED_DELAY;
	EXPECT_EQ(-EINVAL, t_ioctl(self->fd, HWTIMER_IOC_ADD, &op));
	EXPECT_TRUE(t_file_is_empty(self->fd));
}

TEST_F(validate, add_no_record_without_eventfd_einval)
{
	struct hwtimer_op op = {
		.clockid = CLOCK_MONOTONIC, .expires = MS,
	};

	op.flags = HWTIMER_F_NO_RECORD;
	EXPECT_EQ(-EINVAL, t_ioctl(self->fd, HWTIMER_IOC_ADD, &op));
	EXPECT_TRUE(t_file_is_empty(self->fd));
}

TEST_F(validate, add_autoremove_periodic_einval)
{
	EXPECT_EQ(-EINVAL, t_add(self->fd, HWTIMER_F_AUTOREMOVE,
				 CLOCK_MONOTONIC, MS, MS, 0, NULL));
	EXPECT_TRUE(t_file_is_empty(self->fd));
}

TEST_F(validate, add_bad_eventfd_ebadf)
{
	EXPECT_EQ(-EBADF, t_add_efd(self->fd, 0, MS, 0, 999, NULL));
	EXPECT_EQ(-EBADF, t_add_efd(self->fd, 0, MS, 0, -1, NULL));
	EXPECT_TRUE(t_file_is_empty(self->fd));
}

TEST_F(validate, add_non_eventfd_fd_einval)
{
	int p[2];

	ASSERT_EQ(0, pipe(p));
	EXPECT_EQ(-EINVAL, t_add_efd(self->fd, 0, MS, 0, p[0], NULL));
	close(p[0]);
	close(p[1]);
	EXPECT_TRUE(t_file_is_empty(self->fd));
}

TEST_F(validate, add_out_of_range_erange)
{
	struct hwtimer_info info;

	ASSERT_EQ(0, t_ioctl(self->fd, HWTIMER_IOC_INFO, &info));
	EXPECT_EQ(-ERANGE, t_add(self->fd, 0, CLOCK_MONOTONIC, ~0ULL, 0, 0, NULL));
	EXPECT_EQ(-ERANGE, t_add(self->fd, 0, CLOCK_MONOTONIC,
				 info.max_delay_ns + 1, 0, 0, NULL));
	EXPECT_EQ(-ERANGE, t_add(self->fd, HWTIMER_F_ABS, CLOCK_MONOTONIC,
				 1ULL << 63, 0, 0, NULL));
	EXPECT_EQ(-ERANGE, t_add(self->fd, 0, CLOCK_MONOTONIC, MS,
				 info.max_delay_ns + 1, 0, NULL));
	EXPECT_TRUE(t_file_is_empty(self->fd));
	/* the limit itself is fine */
	EXPECT_EQ(0, t_add(self->fd, 0, CLOCK_MONOTONIC, info.max_delay_ns,
			   0, 0, NULL));
}

TEST_F(validate, add_period_plus_slack_out_of_range_erange)
{
	struct hwtimer_info info;
	struct hwtimer_op op = { .clockid = CLOCK_MONOTONIC, .expires = MS };

	ASSERT_EQ(0, t_ioctl(self->fd, HWTIMER_IOC_INFO, &info));
	/* each alone is in range; a re-arm would land beyond the limit */
	op.period = info.max_delay_ns / 2 + 1;
	op.slack = info.max_delay_ns / 2 + 1;
	EXPECT_EQ(-ERANGE, t_ioctl(self->fd, HWTIMER_IOC_ADD, &op));
	EXPECT_TRUE(t_file_is_empty(self->fd));
}

TEST_F(validate, add_slack_out_of_range_erange)
{
	struct hwtimer_op op = {
		.clockid = CLOCK_MONOTONIC, .expires = MS, .slack = ~0ULL,
	};

	EXPECT_EQ(-ERANGE, t_ioctl(self->fd, HWTIMER_IOC_ADD, &op));
	EXPECT_TRUE(t_file_is_empty(self->fd));
}

/* MOD */

TEST_F(validate, mod_unknown_id_enoent)
{
	EXPECT_EQ(-ENOENT, t_mod(self->fd, 12345, 0, MS, 0, NULL));
	EXPECT_EQ(-ENOENT, t_mod(self->fd, 0, 0, MS, 0, NULL));
}

TEST_F(validate, mod_period_on_autoremove_einval)
{
	struct hwtimer_get g;
	__u32 id;

	ASSERT_EQ(0, t_add(self->fd, HWTIMER_F_AUTOREMOVE, CLOCK_MONOTONIC,
			   10 * SEC, 0, 0, &id));
	EXPECT_EQ(-EINVAL, t_mod(self->fd, id, HWTIMER_F_PERIOD, SEC, SEC, NULL));
	ASSERT_EQ(0, t_get(self->fd, id, &g));
	EXPECT_EQ(0ULL, g.period);
	/* a period of 0 keeps it one-shot: fine */
	EXPECT_EQ(1, t_mod(self->fd, id, HWTIMER_F_PERIOD, SEC, 0, NULL));
}

TEST_F(validate, mod_clockid_einval)
{
	struct hwtimer_op op = { .expires = MS };
	__u32 id;

	ASSERT_EQ(0, t_add(self->fd, 0, CLOCK_MONOTONIC, SEC, 0, 0, &id));
	op.id = id;
	op.clockid = CLOCK_MONOTONIC;
	EXPECT_EQ(-EINVAL, t_ioctl(self->fd, HWTIMER_IOC_MOD, &op));
}

TEST_F(validate, mod_cookie_einval)
{
	struct hwtimer_op op = { .expires = MS };
	__u32 id;

	ASSERT_EQ(0, t_add(self->fd, 0, CLOCK_MONOTONIC, SEC, 0, 0, &id));
	op.id = id;
	op.cookie = 1;
	EXPECT_EQ(-EINVAL, t_ioctl(self->fd, HWTIMER_IOC_MOD, &op));
}

TEST_F(validate, mod_eventfd_einval)
{
	struct hwtimer_op op = { .expires = MS };
	__u32 id;

	ASSERT_EQ(0, t_add(self->fd, 0, CLOCK_MONOTONIC, SEC, 0, 0, &id));
	op.id = id;
	op.eventfd = 1;
	EXPECT_EQ(-EINVAL, t_ioctl(self->fd, HWTIMER_IOC_MOD, &op));
}

TEST_F(validate, mod_period_without_flag_einval)
{
	struct hwtimer_op op = { .expires = MS };
	__u32 id;

	ASSERT_EQ(0, t_add(self->fd, 0, CLOCK_MONOTONIC, SEC, 0, 0, &id));
	op.id = id;
	op.period = MS;
	EXPECT_EQ(-EINVAL, t_ioctl(self->fd, HWTIMER_IOC_MOD, &op));
}

TEST_F(validate, mod_add_only_flag_einval)
{
	struct hwtimer_op op = { .expires = MS };
	__u32 id;

	ASSERT_EQ(0, t_add(self->fd, 0, CLOCK_MONOTONIC, SEC, 0, 0, &id));
	op.id = id;
	op.flags = HWTIMER_F_NO_RECORD;
	EXPECT_EQ(-EINVAL, t_ioctl(self->fd, HWTIMER_IOC_MOD, &op));
}

TEST_F(validate, mod_earlier_and_idle_einval)
{
	struct hwtimer_op op = { .expires = MS };
	__u32 id;

	ASSERT_EQ(0, t_add(self->fd, 0, CLOCK_MONOTONIC, SEC, 0, 0, &id));
	op.id = id;
	op.flags = HWTIMER_F_IF_EARLIER | HWTIMER_F_IF_IDLE;
	EXPECT_EQ(-EINVAL, t_ioctl(self->fd, HWTIMER_IOC_MOD, &op));
}

TEST_F(validate, mod_realtime_flag_einval)
{
	struct hwtimer_op op = { .expires = MS };
	__u32 id;

	ASSERT_EQ(0, t_add(self->fd, 0, CLOCK_MONOTONIC, SEC, 0, 0, &id));
	op.id = id;
	op.flags = HWTIMER_F_REALTIME;
	EXPECT_EQ(-EINVAL, t_ioctl(self->fd, HWTIMER_IOC_MOD, &op));
}

/* CANCEL and GET */

TEST_F(validate, cancel_reserved_field_einval)
{
	struct hwtimer_op op = { .period = 1 };
	__u32 id;

	ASSERT_EQ(0, t_add(self->fd, 0, CLOCK_MONOTONIC, SEC, 0, 0, &id));
	op.id = id;
	EXPECT_EQ(-EINVAL, t_ioctl(self->fd, HWTIMER_IOC_CANCEL, &op));
	op.period = 0;
	op.flags = HWTIMER_F_ABS;
	EXPECT_EQ(-EINVAL, t_ioctl(self->fd, HWTIMER_IOC_CANCEL, &op));
	op.flags = 0;
	EXPECT_EQ(1, t_ioctl(self->fd, HWTIMER_IOC_CANCEL, &op));
}

TEST_F(validate, get_unknown_id_enoent)
{
	struct hwtimer_get g;

	EXPECT_EQ(-ENOENT, t_get(self->fd, 777, &g));
}

TEST_F(validate, get_reserved_field_einval)
{
	struct hwtimer_get g = { .flags = 1 };
	__u32 id;

	ASSERT_EQ(0, t_add(self->fd, 0, CLOCK_MONOTONIC, SEC, 0, 0, &id));
	g.id = id;
	EXPECT_EQ(-EINVAL, t_ioctl(self->fd, HWTIMER_IOC_GET, &g));
}

TEST_HARNESS_MAIN
