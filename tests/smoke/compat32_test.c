// SPDX-License-Identifier: GPL-2.0
/*
 * /dev/hwtimer from a 32-bit process on a 64-bit kernel (built with -m32).
 * The uapi has one layout for both: pointers travel as __u64 and every
 * 64-bit field is 8-byte aligned, so the ioctl numbers, which carry the
 * struct sizes, are the same, and compat_ioctl needs no translation. Every
 * call that passes a pointer inside a struct (BATCH, DRAIN) is exercised,
 * as are records and the output fields the kernel writes back.
 */
#define _GNU_SOURCE
#include <stdlib.h>

#include "kselftest_harness.h"
#include "helpers.h"

/* the layout of the 64-bit build, which these numbers carry too */
_Static_assert(sizeof(struct hwtimer_op) == HWTIMER_OP_SIZE_VER0, "op");
_Static_assert(sizeof(struct hwtimer_info) == HWTIMER_INFO_SIZE_VER1, "info");
_Static_assert(sizeof(struct hwtimer_get) == HWTIMER_GET_SIZE_VER0, "get");
_Static_assert(sizeof(struct hwtimer_batch) == HWTIMER_BATCH_SIZE_VER0, "batch");
_Static_assert(sizeof(struct hwtimer_drain) == HWTIMER_DRAIN_SIZE_VER0, "drain");
_Static_assert(sizeof(struct hwtimer_record) == HWTIMER_RECORD_SIZE_VER0, "record");
_Static_assert(offsetof(struct hwtimer_op, expires) == 24, "op.expires");
_Static_assert(offsetof(struct hwtimer_record, cookie) == 8, "record.cookie");

TEST(a_32_bit_process_uses_the_same_abi)
{
	if (!hwt_device_present())
		SKIP(return, HWT_NO_DEVICE);
	EXPECT_EQ(4U, (unsigned int)sizeof(void *)) TH_LOG("not built with -m32");
	EXPECT_EQ(0xc040b901U, (unsigned int)HWTIMER_IOC_ADD);
	EXPECT_EQ(0xc018b905U, (unsigned int)HWTIMER_IOC_BATCH);
}

TEST(single_ops_and_records)
{
	struct hwtimer_op op = {
		.clockid = CLOCK_MONOTONIC, .expires = 2 * MS,
		.cookie = 0x1122334455667788ULL,
	};
	struct hwtimer_info info;
	struct hwtimer_record r;
	struct hwtimer_get g;
	int fd = t_open();

	if (!hwt_device_present())
		SKIP(return, HWT_NO_DEVICE);
	ASSERT_LE(0, fd) TH_LOG("open /dev/hwtimer: %s", strerror(errno));
	ASSERT_EQ(0, t_ioctl(fd, HWTIMER_IOC_INFO, &info));
	EXPECT_EQ(HWTIMER_API_VERSION, (int)info.api_version);
	EXPECT_LT(0ULL, info.max_delay_ns);
	ASSERT_EQ(0, t_ioctl(fd, HWTIMER_IOC_ADD, &op));
	EXPECT_EQ(1U, op.id);
	ASSERT_EQ(1, t_read(fd, &r, 1));
	EXPECT_EQ(op.id, r.id);
	EXPECT_EQ(op.gen, r.gen);
	EXPECT_EQ(0x1122334455667788ULL, r.cookie);
	EXPECT_LE(r.deadline, r.fired);
	EXPECT_EQ(0, t_mod(fd, op.id, 0, 10 * SEC, 0, NULL));
	ASSERT_EQ(0, t_get(fd, op.id, &g));
	EXPECT_EQ(HWTIMER_STATE_PENDING, g.state);
	EXPECT_LT(9 * SEC, g.remaining);
	memset(&op, 0, sizeof(op));
	op.id = 1;
	EXPECT_EQ(1, t_ioctl(fd, HWTIMER_IOC_CANCEL, &op));
	EXPECT_LT(9 * SEC, op.expires);
	close(fd);
}

TEST(batch_and_drain_pass_pointers_as_u64)
{
	struct hwtimer_op ops[100];
	struct hwtimer_batch b = {
		.ops = (uintptr_t)ops, .count = 100, .op_size = sizeof(ops[0]),
	};
	uint32_t ids[100];
	struct hwtimer_drain d = { .ids = (uintptr_t)ids, .max = 100 };
	int fd = t_open(), i;

	if (!hwt_device_present())
		SKIP(return, HWT_NO_DEVICE);
	ASSERT_LE(0, fd);
	memset(ops, 0, sizeof(ops));
	for (i = 0; i < 100; i++) {
		ops[i].op = HWTIMER_OP_ADD;
		ops[i].clockid = CLOCK_MONOTONIC;
		ops[i].expires = 10 * SEC;
	}
	ASSERT_EQ(100, t_ioctl(fd, HWTIMER_IOC_BATCH, &b));
	EXPECT_EQ(100U, b.done);
	for (i = 0; i < 100; i++) {
		EXPECT_EQ(0, ops[i].result);
		EXPECT_EQ((uint32_t)i + 1, ops[i].id);
	}
	ASSERT_EQ(0, t_ioctl(fd, HWTIMER_IOC_DRAIN, &d));
	EXPECT_EQ(100U, d.count);
	EXPECT_EQ(0U, d.remaining);
	for (i = 0; i < 100; i++)
		EXPECT_EQ((uint32_t)i + 1, ids[i]);
	close(fd);
}

HWT_HARNESS_MAIN
