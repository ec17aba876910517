// SPDX-License-Identifier: GPL-2.0
/*
 * What an io_uring command does not use must be zero (review F3), so that a
 * later version can give it a meaning: each field of the SQE that no
 * command reads (EINVAL), a registered buffer for a command other than
 * HWTIMER_URING_BATCH (EINVAL), and on an SQE128 ring the 64 command bytes
 * after a short command's or a batch's 16 (E2BIG, as for any struct that
 * grew). A refused command changes nothing. And the library's prep helpers
 * clear a whole SQE128 slot when told it is one (HWTIMER_URING_SQE128).
 */
#define _GNU_SOURCE
#include <liburing.h>
#include <stddef.h>

#include "kselftest_harness.h"
#include "helpers.h"
#include "libhwtimer.h"
#include "uring_fixture.h"

FIXTURE(uring_sqe) {
	int fd;
	struct io_uring ring;		/* 64-byte SQEs */
	struct io_uring ring128;	/* IORING_SETUP_SQE128 */
	struct hwtimer_op ops[2];
};

FIXTURE_SETUP(uring_sqe)
{
	int ret;

	if (!hwt_device_present())
		SKIP(return, HWT_NO_DEVICE);
	self->fd = t_open();
	ASSERT_LE(0, self->fd);
	ret = io_uring_queue_init(8, &self->ring, 0);
	if (ret == -EPERM || ret == -ENOSYS)
		SKIP(return, "io_uring is not available here (%s)", strerror(-ret));
	ASSERT_EQ(0, ret);
	ASSERT_EQ(0, io_uring_queue_init(8, &self->ring128, IORING_SETUP_SQE128));
	self->ops[0] = self->ops[1] = (struct hwtimer_op){
		.op = HWTIMER_OP_ADD, .clockid = CLOCK_MONOTONIC,
		.expires = 60 * SEC,
	};
}

FIXTURE_TEARDOWN(uring_sqe)
{
	io_uring_queue_exit(&self->ring128);
	io_uring_queue_exit(&self->ring);
	close(self->fd);
}

/* the SQE fields no command reads, each set on its own */
enum sqe_field { F_IOPRIO, F_ADDR, F_LEN, F_BUF_INDEX, F_FILE_INDEX, F_NR };

static void sqe_set(struct io_uring_sqe *sqe, enum sqe_field f)
{
	switch (f) {
	case F_IOPRIO:
		sqe->ioprio = 1;
		break;
	case F_ADDR:
		sqe->addr = 0x1000;
		break;
	case F_LEN:
		sqe->len = 1;
		break;
	case F_BUF_INDEX:
		sqe->buf_index = 1;
		break;
	case F_FILE_INDEX:
		sqe->file_index = 1;
		break;
	default:
		break;
	}
}

/* each field set on a short ADD, a BATCH of two ADDs, and an OP: EINVAL */
static void expect_field_einval(struct __test_metadata *_metadata,
				FIXTURE_DATA(uring_sqe) *self, enum sqe_field f)
{
	struct io_uring_sqe *sqe;

	sqe = io_uring_get_sqe(&self->ring);
	hwtimer_uring_prep_add(sqe, self->fd, CLOCK_MONOTONIC, 60 * SEC, 0, 1);
	sqe_set(sqe, f);
	EXPECT_EQ(-EINVAL, submit_one(&self->ring, NULL)) TH_LOG("ADD, field %d", f);

	sqe = io_uring_get_sqe(&self->ring);
	hwtimer_uring_prep_batch(sqe, self->fd, self->ops, 2, 0, 2);
	sqe_set(sqe, f);
	EXPECT_EQ(-EINVAL, submit_one(&self->ring, NULL)) TH_LOG("BATCH, field %d", f);

	sqe = io_uring_get_sqe(&self->ring128);
	hwtimer_uring_prep_op(sqe, self->fd, &self->ops[0], 3);
	sqe_set(sqe, f);
	EXPECT_EQ(-EINVAL, submit_one(&self->ring128, NULL)) TH_LOG("OP, field %d", f);

	EXPECT_TRUE(t_file_is_empty(self->fd));
}

TEST_F(uring_sqe, ioprio_is_einval)
{
	expect_field_einval(_metadata, self, F_IOPRIO);
}

TEST_F(uring_sqe, addr_is_einval)
{
	expect_field_einval(_metadata, self, F_ADDR);
}

TEST_F(uring_sqe, len_is_einval)
{
	expect_field_einval(_metadata, self, F_LEN);
}

/* without IORING_URING_CMD_FIXED, @buf_index names nothing */
TEST_F(uring_sqe, buf_index_is_einval)
{
	expect_field_einval(_metadata, self, F_BUF_INDEX);
}

TEST_F(uring_sqe, file_index_is_einval)
{
	expect_field_einval(_metadata, self, F_FILE_INDEX);
}

/* a registered buffer is a batch's array: no other command has one */
TEST_F(uring_sqe, a_registered_buffer_is_for_a_batch_only)
{
	struct io_uring_sqe *sqe;
	struct iovec iov = { self->ops, sizeof(self->ops) };

	ASSERT_EQ(0, io_uring_register_buffers(&self->ring, &iov, 1));
	ASSERT_EQ(0, io_uring_register_buffers(&self->ring128, &iov, 1));
	sqe = io_uring_get_sqe(&self->ring);
	hwtimer_uring_prep_add(sqe, self->fd, CLOCK_MONOTONIC, 60 * SEC, 0, 1);
	sqe->uring_cmd_flags = IORING_URING_CMD_FIXED;
	EXPECT_EQ(-EINVAL, submit_one(&self->ring, NULL));
	sqe = io_uring_get_sqe(&self->ring128);
	hwtimer_uring_prep_op(sqe, self->fd, &self->ops[0], 3);
	sqe->uring_cmd_flags = IORING_URING_CMD_FIXED;
	EXPECT_EQ(-EINVAL, submit_one(&self->ring128, NULL));
	EXPECT_TRUE(t_file_is_empty(self->fd));
	/* the batch takes it, @buf_index 0 */
	sqe = io_uring_get_sqe(&self->ring);
	hwtimer_uring_prep_batch_fixed(sqe, self->fd, self->ops, 2, 0, 0, 4);
	EXPECT_EQ(2, submit_one(&self->ring, NULL));
}

/*
 * A short command on an SQE128 ring, the byte at @at of its 80 command
 * bytes set: at 16 or past, E2BIG.
 */
static int short_with_byte(FIXTURE_DATA(uring_sqe) *self, uint32_t cmd_op,
			   uint32_t id, unsigned int at)
{
	struct io_uring_sqe *sqe = io_uring_get_sqe(&self->ring128);

	hwtimer_uring_prep_mod(sqe, self->fd, id, 60 * SEC,
			       HWTIMER_URING_SQE128, 5);
	sqe->cmd_op = cmd_op;
	if (cmd_op == HWTIMER_URING_CANCEL)
		((struct hwtimer_uring_cmd *)sqe->cmd)->expires = 0;
	if (cmd_op == HWTIMER_URING_ADD)
		((struct hwtimer_uring_cmd *)sqe->cmd)->id = 0;
	sqe->cmd[at] = 1;
	return submit_one(&self->ring128, NULL);
}

TEST_F(uring_sqe, spare_bytes_of_a_short_command_are_e2big)
{
	static const uint32_t cmd[] = {
		HWTIMER_URING_ADD, HWTIMER_URING_MOD, HWTIMER_URING_CANCEL,
	};
	uint32_t id;
	unsigned int i;

	ASSERT_EQ(0, t_add(self->fd, 0, CLOCK_MONOTONIC, 60 * SEC, 0, 0, &id));
	for (i = 0; i < 3; i++) {
		EXPECT_EQ(-E2BIG, short_with_byte(self, cmd[i], id, 16));
		EXPECT_EQ(-E2BIG, short_with_byte(self, cmd[i], id, 79));
	}
	EXPECT_EQ(HWTIMER_STATE_PENDING, t_get_state(self->fd, id));
	EXPECT_EQ(1, t_fdinfo_u64(self->fd, "timers"));
}

TEST_F(uring_sqe, spare_bytes_of_a_batch_are_e2big)
{
	struct io_uring_sqe *sqe;
	unsigned int at;

	for (at = 16; at < 80; at += 63) {
		sqe = io_uring_get_sqe(&self->ring128);
		hwtimer_uring_prep_batch(sqe, self->fd, self->ops, 2,
					 HWTIMER_URING_SQE128, 6);
		sqe->cmd[at] = 1;
		EXPECT_EQ(-E2BIG, submit_one(&self->ring128, NULL)) TH_LOG("byte %u", at);
	}
	EXPECT_TRUE(t_file_is_empty(self->fd));
}

/*
 * The helpers, told the slot is an SQE128 one, clear all 128 bytes of it,
 * whatever it held: the commands then run.
 */
TEST_F(uring_sqe, helpers_clear_a_whole_sqe128_slot)
{
	static const unsigned char zero[64];
	struct io_uring_sqe *sqe;
	uint32_t id;
	int res;

	sqe = io_uring_get_sqe(&self->ring128);
	memset(sqe, 0xff, 2 * sizeof(*sqe));
	hwtimer_uring_prep_add(sqe, self->fd, CLOCK_MONOTONIC, 60 * SEC,
			       HWTIMER_URING_SQE128, 1);
	EXPECT_EQ(0, memcmp(sqe + 1, zero, sizeof(zero)));
	EXPECT_EQ(0, ((struct hwtimer_uring_cmd *)sqe->cmd)->flags);
	res = submit_one(&self->ring128, NULL);
	ASSERT_LT(0, res);
	id = res;

	sqe = io_uring_get_sqe(&self->ring128);
	memset(sqe, 0xff, 2 * sizeof(*sqe));
	hwtimer_uring_prep_mod(sqe, self->fd, id, 60 * SEC,
			       HWTIMER_URING_SQE128, 2);
	EXPECT_EQ(0, memcmp(sqe + 1, zero, sizeof(zero)));
	EXPECT_EQ(1, submit_one(&self->ring128, NULL));

	sqe = io_uring_get_sqe(&self->ring128);
	memset(sqe, 0xff, 2 * sizeof(*sqe));
	hwtimer_uring_prep_batch(sqe, self->fd, self->ops, 2,
				 HWTIMER_URING_SQE128, 3);
	EXPECT_EQ(0, memcmp(sqe + 1, zero, sizeof(zero)));
	EXPECT_EQ(0, ((struct hwtimer_uring_batch *)sqe->cmd)->flags);
	EXPECT_EQ(2, submit_one(&self->ring128, NULL));
	EXPECT_EQ(3, t_fdinfo_u64(self->fd, "timers"));
}

HWT_HARNESS_MAIN
