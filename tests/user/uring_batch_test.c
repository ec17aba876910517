// SPDX-License-Identifier: GPL-2.0
/*
 * /dev/hwtimer through io_uring, many operations in one SQE
 * (HWTIMER_URING_BATCH): from user memory and from a registered buffer,
 * each validation path of the command, an array that faults half way or
 * starts misaligned, and HWTIMER_BATCH_STOP_ON_ERROR.
 */
#define _GNU_SOURCE
#include <liburing.h>
#include <sys/mman.h>

#include "kselftest_harness.h"
#include "helpers.h"
#include "libhwtimer.h"
#include "uring_fixture.h"

HWT_URING_FIXTURE(uring_batch)

static int batch_res(struct io_uring *ring)
{
	return submit_one(ring, NULL);
}

/* @n ADDs at @ops, a minute from now, their cookies their indexes */
static void batch_adds(struct hwtimer_op *ops, unsigned int n)
{
	unsigned int i;

	memset(ops, 0, n * sizeof(*ops));
	for (i = 0; i < n; i++)
		ops[i] = (struct hwtimer_op){
			.op = HWTIMER_OP_ADD, .clockid = CLOCK_MONOTONIC,
			.expires = 60 * SEC, .cookie = i,
		};
}

/*
 * 256 ADDs in one SQE, then CANCELs of the same timers in another: each
 * entry gets its result (an ADD's id, a CANCEL's 1) and the CQE counts
 * them all.
 */
TEST_F(uring_batch, a_batch_in_one_sqe)
{
	enum { N = 256 };
	static struct hwtimer_op ops[N];
	unsigned int i;

	batch_adds(ops, N);
	hwtimer_uring_prep_batch(io_uring_get_sqe(&self->ring), self->fd, ops,
				 N, 0, 7);
	ASSERT_EQ(N, batch_res(&self->ring));
	EXPECT_EQ(N, t_fdinfo_u64(self->fd, "timers"));
	for (i = 0; i < N; i++) {
		ASSERT_EQ(0, ops[i].result);
		EXPECT_EQ(i + 1, ops[i].id);
		ops[i].op = HWTIMER_OP_CANCEL;
		ops[i].clockid = 0;
		ops[i].expires = 0;
		ops[i].cookie = 0;
	}
	hwtimer_uring_prep_batch(io_uring_get_sqe(&self->ring), self->fd, ops,
				 N, 0, 8);
	ASSERT_EQ(N, batch_res(&self->ring));
	for (i = 0; i < N; i++)
		EXPECT_EQ(1, ops[i].result);
	EXPECT_TRUE(t_file_is_empty(self->fd));
}

/*
 * The same from a buffer registered with the ring: the kernel reads and
 * writes the entries through io_uring's pinned pages. An array that runs
 * past the buffer is refused.
 */
TEST_F(uring_batch, a_batch_in_a_registered_buffer)
{
	enum { N = 300 };
	struct hwtimer_op *ops;
	struct iovec iov;
	unsigned int i;

	ops = mmap(NULL, N * sizeof(*ops), PROT_READ | PROT_WRITE,
		   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	ASSERT_NE(MAP_FAILED, ops);
	iov = (struct iovec){ .iov_base = ops, .iov_len = N * sizeof(*ops) };
	ASSERT_EQ(0, io_uring_register_buffers(&self->ring, &iov, 1));
	batch_adds(ops, N);
	hwtimer_uring_prep_batch_fixed(io_uring_get_sqe(&self->ring), self->fd,
				       ops, N, 0, 0, 1);
	ASSERT_EQ(N, batch_res(&self->ring));
	for (i = 0; i < N; i++) {
		ASSERT_EQ(0, ops[i].result);
		EXPECT_EQ(HWTIMER_STATE_PENDING,
			  t_get_state(self->fd, ops[i].id));
	}
	EXPECT_EQ(N, t_fdinfo_u64(self->fd, "timers"));
	/* one entry past the buffer: nothing runs */
	batch_adds(ops, N);
	hwtimer_uring_prep_batch_fixed(io_uring_get_sqe(&self->ring), self->fd,
				       ops + 1, N, 0, 0, 2);
	EXPECT_EQ(-EFAULT, batch_res(&self->ring));
	EXPECT_EQ(N, t_fdinfo_u64(self->fd, "timers"));
	/* an index that names no buffer, nor fits the SQE's field: the same */
	hwtimer_uring_prep_batch_fixed(io_uring_get_sqe(&self->ring), self->fd,
				       ops, N, 0, 1, 3);
	EXPECT_EQ(-EFAULT, batch_res(&self->ring));
	hwtimer_uring_prep_batch_fixed(io_uring_get_sqe(&self->ring), self->fd,
				       ops, N, 0, 65536, 4);
	EXPECT_EQ(-EFAULT, batch_res(&self->ring));
	EXPECT_EQ(N, t_fdinfo_u64(self->fd, "timers"));
	ASSERT_EQ(0, io_uring_unregister_buffers(&self->ring));
	munmap(ops, N * sizeof(*ops));
}

/* Each way to get the command itself wrong fails it, and runs nothing. */
TEST_F(uring_batch, a_batch_is_checked_first)
{
	static struct hwtimer_op ops[4];
	struct io_uring_sqe *sqe;
	struct hwtimer_uring_batch *b;

	batch_adds(ops, 4);
	/* flags it does not know */
	hwtimer_uring_prep_batch(io_uring_get_sqe(&self->ring), self->fd, ops,
				 4, 0x80, 0);
	EXPECT_EQ(-EINVAL, batch_res(&self->ring));
	/* and flags the command's 16 bits cannot hold: not dropped */
	hwtimer_uring_prep_batch(io_uring_get_sqe(&self->ring), self->fd, ops,
				 4, 0x10000 | HWTIMER_BATCH_STOP_ON_ERROR, 0);
	EXPECT_EQ(-EINVAL, batch_res(&self->ring));
	/* over the limit */
	hwtimer_uring_prep_batch(io_uring_get_sqe(&self->ring), self->fd, ops,
				 65537, 0, 0);
	EXPECT_EQ(-E2BIG, batch_res(&self->ring));
	/* entries smaller than the first struct, or not 8-byte multiples */
	sqe = io_uring_get_sqe(&self->ring);
	hwtimer_uring_prep_batch(sqe, self->fd, ops, 4, 0, 0);
	b = (struct hwtimer_uring_batch *)sqe->cmd;
	b->op_size = 56;
	EXPECT_EQ(-EINVAL, batch_res(&self->ring));
	sqe = io_uring_get_sqe(&self->ring);
	hwtimer_uring_prep_batch(sqe, self->fd, ops, 4, 0, 0);
	((struct hwtimer_uring_batch *)sqe->cmd)->op_size = 68;
	EXPECT_EQ(-EINVAL, batch_res(&self->ring));
	/* entries larger than a page */
	sqe = io_uring_get_sqe(&self->ring);
	hwtimer_uring_prep_batch(sqe, self->fd, ops, 4, 0, 0);
	((struct hwtimer_uring_batch *)sqe->cmd)->op_size = 4096 + 8;
	EXPECT_EQ(-E2BIG, batch_res(&self->ring));
	/* no memory there */
	hwtimer_uring_prep_batch(io_uring_get_sqe(&self->ring), self->fd,
				 (struct hwtimer_op *)8, 4, 0, 0);
	EXPECT_EQ(-EFAULT, batch_res(&self->ring));
	/* none of it ran */
	EXPECT_TRUE(t_file_is_empty(self->fd));
	/* and an empty one is fine */
	hwtimer_uring_prep_batch(io_uring_get_sqe(&self->ring), self->fd, ops,
				 0, 0, 0);
	EXPECT_EQ(0, batch_res(&self->ring));
}

/*
 * An array whose second page is not there: the entries of the first run,
 * their results written back, and the CQE counts them; nothing of the rest
 * ran, so nothing is lost.
 */
TEST_F(uring_batch, a_batch_that_faults_half_way_loses_nothing)
{
	long page = sysconf(_SC_PAGESIZE);
	unsigned int per = page / sizeof(struct hwtimer_op), i;
	struct hwtimer_op *ops;
	int res;

	ops = mmap(NULL, 2 * page, PROT_READ | PROT_WRITE,
		   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	ASSERT_NE(MAP_FAILED, ops);
	batch_adds(ops, per);
	ASSERT_EQ(0, munmap((char *)ops + page, page));
	hwtimer_uring_prep_batch(io_uring_get_sqe(&self->ring), self->fd, ops,
				 2 * per, 0, 0);
	res = batch_res(&self->ring);
	/* chunks of 64: the whole first page ran */
	EXPECT_EQ((int)per, res);
	EXPECT_EQ(per, t_fdinfo_u64(self->fd, "timers"));
	for (i = 0; i < per; i++) {
		EXPECT_EQ(0, ops[i].result);
		EXPECT_EQ(HWTIMER_STATE_PENDING,
			  t_get_state(self->fd, ops[i].id));
	}
	munmap(ops, page);
}

/*
 * An array at an address that is no multiple of 8, across a page
 * boundary: the kernel reads and writes it a byte at a time where it must,
 * in user memory and in a registered buffer alike.
 */
TEST_F(uring_batch, a_batch_from_a_misaligned_array)
{
	long page = sysconf(_SC_PAGESIZE);
	struct hwtimer_op *ops;
	struct iovec iov;
	unsigned int i, fixed;
	char *mem;

	mem = mmap(NULL, 2 * page, PROT_READ | PROT_WRITE,
		   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	ASSERT_NE(MAP_FAILED, mem);
	iov = (struct iovec){ .iov_base = mem, .iov_len = 2 * page };
	ASSERT_EQ(0, io_uring_register_buffers(&self->ring, &iov, 1));
	/* 20 entries, the 10th across the boundary */
	ops = (struct hwtimer_op *)(mem + page - 9 * sizeof(*ops) - 3);
	for (fixed = 0; fixed < 2; fixed++) {
		struct io_uring_sqe *sqe = io_uring_get_sqe(&self->ring);

		batch_adds(ops, 20);
		if (fixed)
			hwtimer_uring_prep_batch_fixed(sqe, self->fd, ops, 20,
						       0, 0, 0);
		else
			hwtimer_uring_prep_batch(sqe, self->fd, ops, 20, 0, 0);
		ASSERT_EQ(20, batch_res(&self->ring));
		for (i = 0; i < 20; i++) {
			EXPECT_EQ(0, ops[i].result);
			EXPECT_EQ(i + 1 + 20 * fixed, ops[i].id);
		}
	}
	EXPECT_EQ(40, t_fdinfo_u64(self->fd, "timers"));
	ASSERT_EQ(0, io_uring_unregister_buffers(&self->ring));
	munmap(mem, 2 * page);
}

/* HWTIMER_BATCH_STOP_ON_ERROR: the failing entry is the last to run. */
TEST_F(uring_batch, a_batch_stops_at_an_error_if_asked)
{
	static struct hwtimer_op ops[8];

	batch_adds(ops, 8);
	ops[3].clockid = 1234;
	hwtimer_uring_prep_batch(io_uring_get_sqe(&self->ring), self->fd, ops,
				 8, HWTIMER_BATCH_STOP_ON_ERROR, 0);
	EXPECT_EQ(4, batch_res(&self->ring));
	EXPECT_EQ(-EINVAL, ops[3].result);
	EXPECT_EQ(3, t_fdinfo_u64(self->fd, "timers"));
	/* without it each entry fails alone */
	batch_adds(ops, 8);
	ops[3].clockid = 1234;
	hwtimer_uring_prep_batch(io_uring_get_sqe(&self->ring), self->fd, ops,
				 8, 0, 0);
	EXPECT_EQ(8, batch_res(&self->ring));
	EXPECT_EQ(-EINVAL, ops[3].result);
	EXPECT_EQ(0, ops[4].result);
	EXPECT_EQ(10, t_fdinfo_u64(self->fd, "timers"));
}

HWT_HARNESS_MAIN
