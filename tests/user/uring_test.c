// SPDX-License-Identifier: GPL-2.0
/*
 * /dev/hwtimer through io_uring: ADD, MOD and CANCEL as
 * IORING_OP_URING_CMD, each errno path on its own, the whole-op form on an
 * SQE128 ring, a bad fd and a bad cmd_op, a batch of commands, and
 * io_uring switched off by sysctl. Long submissions are
 * uring_submit_test's.
 */
#define _GNU_SOURCE
#include <liburing.h>
#include <poll.h>
#include <sys/eventfd.h>

#include "kselftest_harness.h"
#include "helpers.h"
#include "libhwtimer.h"
#include "uring_fixture.h"

HWT_URING_FIXTURE(uring)

/* a short command with its 16 bytes as given */
static int uring_raw(struct io_uring *ring, int fd, uint32_t cmd_op,
		     const struct hwtimer_uring_cmd *c)
{
	struct io_uring_sqe *sqe = io_uring_get_sqe(ring);

	hwtimer_uring_prep_cancel(sqe, fd, 0, 0);
	sqe->cmd_op = cmd_op;
	memcpy(sqe->cmd, c, sizeof(*c));
	return submit_one(ring, NULL);
}

TEST_F(uring, info_says_so)
{
	struct hwtimer_info info;

	ASSERT_EQ(0, t_ioctl(self->fd, HWTIMER_IOC_INFO, &info));
	EXPECT_TRUE(info.features & HWTIMER_FEAT_URING_CMD);
}

/* ADD: the CQE carries the id, and the timer's cookie is the user_data */
TEST_F(uring, add_returns_the_id_and_keeps_user_data)
{
	struct hwtimer_get g;
	int id;

	id = uring_add(&self->ring, self->fd, SEC, 0, 0xfeedULL << 32);
	ASSERT_LT(0, id);
	ASSERT_EQ(0, t_get(self->fd, id, &g));
	EXPECT_EQ(HWTIMER_STATE_PENDING, g.state);
	EXPECT_EQ(0xfeedULL << 32, g.cookie);
	EXPECT_EQ(CLOCK_MONOTONIC, g.clockid);
	/* ids stay dense across both paths */
	EXPECT_EQ(id + 1, uring_add(&self->ring, self->fd, SEC, 0, 1));
}

/* MOD and CANCEL give what their ioctls return */
TEST_F(uring, mod_and_cancel_report_the_arming)
{
	struct io_uring_sqe *sqe;
	uint64_t ud = 0;
	int id;

	id = uring_add(&self->ring, self->fd, SEC, 0, 1);
	ASSERT_LT(0, id);
	sqe = io_uring_get_sqe(&self->ring);
	hwtimer_uring_prep_mod(sqe, self->fd, id, 2 * SEC, 0, 77);
	EXPECT_EQ(1, submit_one(&self->ring, &ud));	/* was pending */
	EXPECT_EQ(77, ud);
	sqe = io_uring_get_sqe(&self->ring);
	hwtimer_uring_prep_cancel(sqe, self->fd, id, 78);
	EXPECT_EQ(1, submit_one(&self->ring, &ud));
	EXPECT_EQ(78, ud);
	/* CANCEL deletes the timer */
	EXPECT_EQ(-ENOENT, t_get_state(self->fd, id));
	/* a MOD of a fired timer whose record waits reports 2 */
	id = uring_add(&self->ring, self->fd, MS, 0, 1);
	ASSERT_LT(0, id);
	while (t_get_state(self->fd, id) != HWTIMER_STATE_FIRED)
		usleep(1000);
	sqe = io_uring_get_sqe(&self->ring);
	hwtimer_uring_prep_mod(sqe, self->fd, id, SEC, 0, 0);
	EXPECT_EQ(2, submit_one(&self->ring, NULL));
}

/* the timer fires and its record reads as any other */
TEST_F(uring, an_added_timer_fires)
{
	struct hwtimer_record rec;
	int id;

	id = uring_add(&self->ring, self->fd, MS, 0, 4242);
	ASSERT_LT(0, id);
	ASSERT_EQ(1, t_read(self->fd, &rec, 1));
	EXPECT_EQ(id, rec.id);
	EXPECT_EQ(4242, rec.cookie);
}

TEST_F(uring, unknown_ids_are_enoent)
{
	struct io_uring_sqe *sqe = io_uring_get_sqe(&self->ring);

	hwtimer_uring_prep_mod(sqe, self->fd, 999, SEC, 0, 0);
	EXPECT_EQ(-ENOENT, submit_one(&self->ring, NULL));
	sqe = io_uring_get_sqe(&self->ring);
	hwtimer_uring_prep_cancel(sqe, self->fd, 999, 0);
	EXPECT_EQ(-ENOENT, submit_one(&self->ring, NULL));
}

TEST_F(uring, a_bad_cmd_op_is_enotty)
{
	struct hwtimer_uring_cmd c = { 0 };

	EXPECT_EQ(-ENOTTY, uring_raw(&self->ring, self->fd, 0, &c));
	EXPECT_EQ(-ENOTTY, uring_raw(&self->ring, self->fd, HWTIMER_IOC_ADD, &c));
	EXPECT_EQ(-ENOTTY, uring_raw(&self->ring, self->fd,
				     HWTIMER_URING_ADD + 0x10, &c));
}

TEST_F(uring, padding_is_einval)
{
	struct hwtimer_uring_cmd c = { .expires = SEC, .padding = 1 };

	EXPECT_EQ(-EINVAL, uring_raw(&self->ring, self->fd, HWTIMER_URING_ADD, &c));
}

TEST_F(uring, an_add_with_an_id_is_einval)
{
	struct hwtimer_uring_cmd c = { .expires = SEC, .id = 3,
				       .clockid = CLOCK_MONOTONIC };

	EXPECT_EQ(-EINVAL, uring_raw(&self->ring, self->fd, HWTIMER_URING_ADD, &c));
}

TEST_F(uring, a_cancel_with_a_deadline_is_einval)
{
	struct hwtimer_uring_cmd c = { .clockid = CLOCK_MONOTONIC };
	int id = uring_add(&self->ring, self->fd, SEC, 0, 0);

	ASSERT_LT(0, id);
	c.id = id;
	c.expires = 5;
	EXPECT_EQ(-EINVAL, uring_raw(&self->ring, self->fd, HWTIMER_URING_CANCEL, &c));
	EXPECT_EQ(HWTIMER_STATE_PENDING, t_get_state(self->fd, id));
}

/* flags whose fields the short form lacks */
TEST_F(uring, long_form_flags_are_einval)
{
	const unsigned int flags[] = { HWTIMER_F_EVENTFD, HWTIMER_F_PERIOD,
				       HWTIMER_F_GEN };
	unsigned int i;

	for (i = 0; i < 3; i++) {
		struct hwtimer_uring_cmd c = { .expires = SEC, .flags = flags[i],
					       .clockid = CLOCK_MONOTONIC };

		EXPECT_EQ(-EINVAL, uring_raw(&self->ring, self->fd,
					     HWTIMER_URING_ADD, &c));
	}
}

/* the ioctl's own checks apply: a bad clock, CLOCK_REALTIME unasked */
TEST_F(uring, the_ops_checks_apply)
{
	struct hwtimer_uring_cmd c = { .expires = SEC, .clockid = 42 };

	EXPECT_EQ(-EINVAL, uring_raw(&self->ring, self->fd, HWTIMER_URING_ADD, &c));
	c.clockid = CLOCK_REALTIME;
	EXPECT_EQ(-EINVAL, uring_raw(&self->ring, self->fd, HWTIMER_URING_ADD, &c));
	c.flags = HWTIMER_F_REALTIME;
	EXPECT_LT(0, uring_raw(&self->ring, self->fd, HWTIMER_URING_ADD, &c));
	c.clockid = CLOCK_MONOTONIC;
	c.flags = 0;
	c.expires = ~0ULL;
	EXPECT_EQ(-ERANGE, uring_raw(&self->ring, self->fd, HWTIMER_URING_ADD, &c));
}

/* the whole-op form needs an SQE128 ring */
TEST_F(uring, the_op_form_needs_sqe128)
{
	struct hwtimer_op op = { .op = HWTIMER_OP_ADD, .clockid = CLOCK_MONOTONIC,
				 .expires = SEC };
	struct io_uring_sqe *sqe = io_uring_get_sqe(&self->ring);

	/* on a 64-byte ring, only the first 16 bytes are the command's */
	hwtimer_uring_prep_cancel(sqe, self->fd, 0, 0);
	sqe->cmd_op = HWTIMER_URING_OP;
	memcpy(sqe->cmd, &op, 16);
	EXPECT_EQ(-EINVAL, submit_one(&self->ring, NULL));
}

/* with SQE128, every field: a periodic timer with an eventfd */
TEST_F(uring, the_op_form_carries_everything)
{
	struct hwtimer_op op = { .op = HWTIMER_OP_ADD, .clockid = CLOCK_MONOTONIC,
				 .expires = 2 * MS, .period = 2 * MS,
				 .cookie = 31 };
	struct pollfd pfd = { .events = POLLIN };
	struct io_uring big;
	struct hwtimer_get g;
	uint64_t count = 0;
	int id;

	pfd.fd = eventfd(0, EFD_CLOEXEC);
	ASSERT_LE(0, pfd.fd);
	op.flags = HWTIMER_F_EVENTFD;
	op.eventfd = pfd.fd;
	ASSERT_EQ(0, io_uring_queue_init(8, &big, IORING_SETUP_SQE128));
	hwtimer_uring_prep_op(io_uring_get_sqe(&big), self->fd, &op, 5);
	id = submit_one(&big, NULL);
	ASSERT_LT(0, id);
	ASSERT_EQ(0, t_get(self->fd, id, &g));
	EXPECT_EQ(2 * MS, g.period);
	EXPECT_EQ(31, g.cookie);
	EXPECT_TRUE(g.timer_flags & HWTIMER_F_EVENTFD);
	/* and its eventfd is signalled when it fires */
	ASSERT_EQ(1, poll(&pfd, 1, t_ms(5000)));
	ASSERT_EQ(sizeof(count), read(pfd.fd, &count, sizeof(count)));
	EXPECT_LE(1, count);
	close(pfd.fd);
	/* MOD and CANCEL in the long form report as the ioctls do */
	memset(&op, 0, sizeof(op));
	op.op = HWTIMER_OP_CANCEL;
	op.id = id;
	hwtimer_uring_prep_op(io_uring_get_sqe(&big), self->fd, &op, 6);
	EXPECT_LE(0, submit_one(&big, NULL));
	/* and an op the ioctl refuses is refused here */
	op.op = 9;
	hwtimer_uring_prep_op(io_uring_get_sqe(&big), self->fd, &op, 7);
	EXPECT_EQ(-EINVAL, submit_one(&big, NULL));
	io_uring_queue_exit(&big);
}

/* bytes after the op in SQE128 are a newer, larger op's: E2BIG, none added */
TEST_F(uring, the_op_form_refuses_a_larger_op)
{
	struct hwtimer_op op = { .op = HWTIMER_OP_ADD, .clockid = CLOCK_MONOTONIC,
				 .expires = SEC };
	struct io_uring_sqe *sqe;
	struct io_uring big;

	ASSERT_EQ(0, io_uring_queue_init(8, &big, IORING_SETUP_SQE128));
	sqe = io_uring_get_sqe(&big);
	hwtimer_uring_prep_op(sqe, self->fd, &op, 5);
	((uint8_t *)sqe->cmd)[sizeof(op) + 15] = 1;
	EXPECT_EQ(-E2BIG, submit_one(&big, NULL));
	EXPECT_EQ(-ENOENT, t_get_state(self->fd, 1));
	/* zeroes there are what an op of this size has: it runs */
	hwtimer_uring_prep_op(io_uring_get_sqe(&big), self->fd, &op, 6);
	EXPECT_LT(0, submit_one(&big, NULL));
	io_uring_queue_exit(&big);
}

/* a command on an fd that is not /dev/hwtimer, or no fd at all */
TEST_F(uring, a_bad_fd_fails)
{
	int p[2];

	hwtimer_uring_prep_cancel(io_uring_get_sqe(&self->ring), 1000, 1, 0);
	EXPECT_EQ(-EBADF, submit_one(&self->ring, NULL));
	ASSERT_EQ(0, pipe(p));
	hwtimer_uring_prep_cancel(io_uring_get_sqe(&self->ring), p[0], 1, 0);
	EXPECT_EQ(-EOPNOTSUPP, submit_one(&self->ring, NULL));
	close(p[0]);
	close(p[1]);
}

/* many commands in one submission: one CQE each, in any order */
TEST_F(uring, a_batch_of_commands)
{
	struct io_uring_cqe *cqe;
	unsigned int i, seen = 0;

	for (i = 0; i < 32; i++)
		hwtimer_uring_prep_add(io_uring_get_sqe(&self->ring), self->fd,
				       CLOCK_MONOTONIC, SEC, 0, i);
	ASSERT_EQ(32, io_uring_submit(&self->ring));
	for (i = 0; i < 32; i++) {
		ASSERT_EQ(0, io_uring_wait_cqe(&self->ring, &cqe));
		EXPECT_LT(0, cqe->res);
		seen |= 1U << cqe->user_data;
		io_uring_cqe_seen(&self->ring, cqe);
	}
	EXPECT_EQ(0xffffffffu, seen);
}

/* kernel.io_uring_disabled (6.6+): io_uring fails cleanly; ioctls stay */
TEST(io_uring_disabled_by_sysctl)
{
	const char *knob = "/proc/sys/kernel/io_uring_disabled";
	struct io_uring ring;
	char old[16] = "0";
	uint32_t id;
	int fd, ret;

	if (!hwt_device_present())
		SKIP(return, HWT_NO_DEVICE);
	if (access(knob, W_OK))
		SKIP(return, "no %s on this kernel", knob);
	ASSERT_LT(0, t_read_file(knob, old, sizeof(old)));
	ASSERT_EQ(0, t_write_file(knob, "2"));
	ret = io_uring_queue_init(8, &ring, 0);
	t_write_file(knob, old);
	EXPECT_EQ(-EPERM, ret);
	if (!ret)
		io_uring_queue_exit(&ring);
	fd = t_open();
	ASSERT_LE(0, fd);
	EXPECT_EQ(0, t_add(fd, 0, CLOCK_MONOTONIC, SEC, 0, 0, &id));
	close(fd);
}

HWT_HARNESS_MAIN
