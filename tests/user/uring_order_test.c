// SPDX-License-Identifier: GPL-2.0
/*
 * What io_uring's kinds of ring and SQE flags do to the commands (review
 * F6), as the uapi says: a ring set up with IORING_SETUP_IOPOLL takes none
 * (EOPNOTSUPP, and nothing changes), and a command submitted with
 * IOSQE_ASYNC runs in io-wq, where IOSQE_IO_LINK orders it before the next.
 */
#define _GNU_SOURCE
#include <liburing.h>

#include "kselftest_harness.h"
#include "helpers.h"
#include "libhwtimer.h"
#include "uring_fixture.h"

FIXTURE(uring_order) {
	int fd;
};

FIXTURE_SETUP(uring_order)
{
	if (!hwt_device_present())
		SKIP(return, HWT_NO_DEVICE);
	self->fd = t_open();
	ASSERT_LE(0, self->fd);
}

FIXTURE_TEARDOWN(uring_order)
{
	close(self->fd);
}

/* an IOPOLL ring: every command fails with EOPNOTSUPP, having done nothing */
TEST_F(uring_order, an_iopoll_ring_is_refused_eopnotsupp)
{
	struct hwtimer_op op = {
		.op = HWTIMER_OP_ADD, .clockid = CLOCK_MONOTONIC,
		.expires = 60 * SEC,
	};
	struct io_uring r;
	int res[3], ret;

	ret = io_uring_queue_init(8, &r, IORING_SETUP_IOPOLL);
	if (ret == -EPERM || ret == -ENOSYS || ret == -EINVAL)
		SKIP(return, "no IOPOLL ring here (%s)", strerror(-ret));
	ASSERT_EQ(0, ret);
	hwtimer_uring_prep_add(io_uring_get_sqe(&r), self->fd, CLOCK_MONOTONIC,
			       60 * SEC, 0, 0);
	hwtimer_uring_prep_cancel(io_uring_get_sqe(&r), self->fd, 1, 1);
	hwtimer_uring_prep_batch(io_uring_get_sqe(&r), self->fd, &op, 1, 0, 2);
	ASSERT_EQ(3, io_uring_submit(&r));
	ASSERT_EQ(0, reap(&r, res, 3));
	EXPECT_EQ(-EOPNOTSUPP, res[0]);
	EXPECT_EQ(-EOPNOTSUPP, res[1]);
	EXPECT_EQ(-EOPNOTSUPP, res[2]);
	EXPECT_EQ(0, op.result);
	EXPECT_TRUE(t_file_is_empty(self->fd));
	io_uring_queue_exit(&r);
}

/*
 * IOSQE_ASYNC sends a command to io-wq; linked to the next, it still runs
 * first: one chain of pairs of an ADD and a CANCEL of the id it gets, all
 * async, each CANCEL finding its timer, and every ADD getting the id the
 * CANCEL before it freed.
 */
TEST_F(uring_order, an_async_command_linked_to_the_next_runs_first)
{
	enum { PAIRS = 16 };
	struct io_uring r;
	int res[2 * PAIRS], i;
	uint32_t id;

	ASSERT_EQ(0, io_uring_queue_init(2 * PAIRS, &r, 0));
	ASSERT_EQ(0, t_add(self->fd, 0, CLOCK_MONOTONIC, 60 * SEC, 0, 0, &id));
	ASSERT_EQ(1, t_cancel(self->fd, id));
	for (i = 0; i < PAIRS; i++) {
		struct io_uring_sqe *sqe = io_uring_get_sqe(&r);

		hwtimer_uring_prep_add(sqe, self->fd, CLOCK_MONOTONIC, 60 * SEC,
				       0, 2 * i);
		sqe->flags |= IOSQE_ASYNC | IOSQE_IO_LINK;
		sqe = io_uring_get_sqe(&r);
		hwtimer_uring_prep_cancel(sqe, self->fd, id, 2 * i + 1);
		sqe->flags |= IOSQE_ASYNC;
		if (i < PAIRS - 1)
			sqe->flags |= IOSQE_IO_LINK;
	}
	ASSERT_EQ(2 * PAIRS, io_uring_submit(&r));
	ASSERT_EQ(0, reap(&r, res, 2 * PAIRS));
	for (i = 0; i < PAIRS; i++) {
		EXPECT_EQ((int)id, res[2 * i]) TH_LOG("ADD %d", i);
		EXPECT_EQ(1, res[2 * i + 1]) TH_LOG("CANCEL %d", i);
	}
	EXPECT_TRUE(t_file_is_empty(self->fd));
	io_uring_queue_exit(&r);
}

HWT_HARNESS_MAIN
