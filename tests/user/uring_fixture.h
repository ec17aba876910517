/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the io_uring suites share: the fixture of uring_test,
 * uring_submit_test and uring_batch_test, one open /dev/hwtimer and a
 * 64-entry ring, named after each suite; a way to submit one SQE and take
 * its CQE, and a short ADD so submitted; and a way to reap many CQEs
 * (uring_sqe_test and uring_order_test use those). Include it once, after
 * kselftest_harness.h, helpers.h, liburing.h and libhwtimer.h.
 */
#ifndef _HWT_URING_FIXTURE_H
#define _HWT_URING_FIXTURE_H

/* submit one SQE as prepared by @prep and return its CQE's res */
static inline int submit_one(struct io_uring *ring, uint64_t *user_data)
{
	struct io_uring_cqe *cqe;
	int ret;

	ret = io_uring_submit(ring);
	if (ret != 1)
		return ret < 0 ? ret : -EIO;
	ret = io_uring_wait_cqe(ring, &cqe);
	if (ret)
		return ret;
	ret = cqe->res;
	if (user_data)
		*user_data = cqe->user_data;
	io_uring_cqe_seen(ring, cqe);
	return ret;
}

/* a short ADD on CLOCK_MONOTONIC, submitted alone: its id, or an errno */
static inline int uring_add(struct io_uring *ring, int fd, uint64_t expires,
			    unsigned int flags, uint64_t cookie)
{
	hwtimer_uring_prep_add(io_uring_get_sqe(ring), fd, CLOCK_MONOTONIC,
			       expires, flags, cookie);
	return submit_one(ring, NULL);
}

/* reap @n CQEs of @ring into @res, indexed by user_data (< @n) */
static inline int reap(struct io_uring *ring, int *res, unsigned int n)
{
	struct io_uring_cqe *cqe;
	unsigned int i;
	int ret;

	for (i = 0; i < n; i++) {
		ret = io_uring_wait_cqe(ring, &cqe);
		if (ret)
			return ret;
		if (cqe->user_data >= n)
			return -ERANGE;
		res[cqe->user_data] = cqe->res;
		io_uring_cqe_seen(ring, cqe);
	}
	return 0;
}

/* The fixture, named after the suite that uses it: HWT_URING_FIXTURE(uring). */
#define HWT_URING_FIXTURE(name)						\
FIXTURE(name) {								\
	int fd;								\
	struct io_uring ring;						\
};									\
									\
FIXTURE_SETUP(name)							\
{									\
	int ret;							\
									\
	if (!hwt_device_present())							\
		SKIP(return, HWT_NO_DEVICE);						\
	self->fd = t_open();						\
	ASSERT_LE(0, self->fd);						\
	ret = io_uring_queue_init(64, &self->ring, 0);			\
	if (ret == -EPERM || ret == -ENOSYS)				\
		SKIP(return, "io_uring is not available here (%s)",	\
		     strerror(-ret));					\
	ASSERT_EQ(0, ret);						\
}									\
									\
FIXTURE_TEARDOWN(name)							\
{									\
	io_uring_queue_exit(&self->ring);				\
	close(self->fd);						\
}

#endif /* _HWT_URING_FIXTURE_H */
