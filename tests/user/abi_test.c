// SPDX-License-Identifier: GPL-2.0
/*
 * /dev/hwtimer: what the ABI promises of its structs. INFO; ioctl numbers
 * and the struct sizes they carry; structs that are shorter, longer, or
 * straddle pages; user memory that faults; and the fields the kernel
 * writes back, which it does not read. Each validation path has a test of
 * its own, and errors leave the file as it was.
 */
#define _GNU_SOURCE
#include <sys/mman.h>

#include "kselftest_harness.h"
#include "helpers.h"

FIXTURE(abi) {
	int fd;
};

FIXTURE_SETUP(abi)
{
	if (!hwt_device_present())
		SKIP(return, HWT_NO_DEVICE);
	self->fd = t_open();
	ASSERT_LE(0, self->fd)
		TH_LOG("open /dev/hwtimer: %s", strerror(errno));
}

FIXTURE_TEARDOWN(abi)
{
	close(self->fd);
}

/* ioctl numbers with another size than ours, for the size tests */
#define ADD_SIZED(sz)	_IOC(_IOC_READ | _IOC_WRITE, HWTIMER_IOC_MAGIC, 0x01, sz)
#define INFO_SIZED(sz)	_IOC(_IOC_READ, HWTIMER_IOC_MAGIC, 0x00, sz)

TEST_F(abi, info_reports_geometry_and_features)
{
	struct hwtimer_info info;
	FILE *f = fopen("/sys/module/hwtimer/parameters/tick_ns", "r");
	unsigned long long tick = 0;

	ASSERT_NE(NULL, f);
	ASSERT_EQ(1, fscanf(f, "%llu", &tick));
	fclose(f);
	memset(&info, 0xff, sizeof(info));
	ASSERT_EQ(0, t_ioctl(self->fd, HWTIMER_IOC_INFO, &info));
	EXPECT_EQ(HWTIMER_API_VERSION, info.api_version);
	EXPECT_EQ(tick, info.tick_ns);
	EXPECT_EQ(0ULL, info.tick_ns & (info.tick_ns - 1));
	EXPECT_LE(1U, info.levels);
	EXPECT_EQ(64U, info.slots_per_level);
	/* a level spans two slots of the level above */
	EXPECT_EQ(info.slots_per_level, 2U << info.level_shift);
	EXPECT_LE(1U, info.cascade_early);
	EXPECT_EQ(sizeof(struct hwtimer_record), info.record_size);
	EXPECT_LE(365 * 24 * 3600 * SEC, info.max_delay_ns);
	EXPECT_NE(0ULL, info.features & HWTIMER_FEAT_BATCH);
	EXPECT_NE(0ULL, info.features & HWTIMER_FEAT_CLOCK_REALTIME);
	EXPECT_LE(1U, info.max_batch);
	EXPECT_LT(0U, info.max_files_per_user);
}

TEST_F(abi, info_zeroes_a_longer_struct)
{
	unsigned char buf[sizeof(struct hwtimer_info) + 16];

	memset(buf, 0xff, sizeof(buf));
	ASSERT_EQ(0, t_ioctl(self->fd, INFO_SIZED(sizeof(buf)), buf));
	for (size_t i = sizeof(struct hwtimer_info); i < sizeof(buf); i++)
		EXPECT_EQ(0, buf[i]);
}

TEST_F(abi, info_rejects_a_short_struct)
{
	unsigned char buf[16];

	EXPECT_EQ(-EINVAL, t_ioctl(self->fd, INFO_SIZED(sizeof(buf)), buf));
}

TEST_F(abi, unknown_ioctl_is_enotty)
{
	char buf[64] = { 0 };

	EXPECT_EQ(-ENOTTY, t_ioctl(self->fd, _IO(HWTIMER_IOC_MAGIC, 0x3f), NULL));
	EXPECT_EQ(-ENOTTY, t_ioctl(self->fd, _IOWR('x', 0x01, struct hwtimer_op), buf));
	/* right number, wrong direction: CANCEL was _IOW before ABI v1 */
	EXPECT_EQ(-ENOTTY, t_ioctl(self->fd, _IOR(HWTIMER_IOC_MAGIC, 0x01, struct hwtimer_op),
				   buf));
	EXPECT_EQ(-ENOTTY, t_ioctl(self->fd, _IOW(HWTIMER_IOC_MAGIC, 0x03, struct hwtimer_op),
				   buf));
	EXPECT_TRUE(t_file_is_empty(self->fd));
}

/*
 * ioctl numbers carry the caller's struct size; HWTIMER_IOC_BASE() masks
 * it, so that a filter matching it accepts every version, and the kernel
 * dispatches on what it keeps.
 */
TEST_F(abi, ioc_base_is_the_same_for_every_struct_size)
{
	struct hwtimer_op op[2];

	EXPECT_EQ(HWTIMER_IOC_BASE(HWTIMER_IOC_ADD), HWTIMER_IOC_BASE(ADD_SIZED(128)));
	EXPECT_NE(HWTIMER_IOC_ADD, ADD_SIZED(128));
	EXPECT_NE(HWTIMER_IOC_BASE(HWTIMER_IOC_ADD), HWTIMER_IOC_BASE(HWTIMER_IOC_MOD));
	memset(op, 0, sizeof(op));
	op[0].clockid = CLOCK_MONOTONIC;
	op[0].expires = SEC;
	EXPECT_EQ(0, t_ioctl(self->fd, ADD_SIZED(sizeof(op)), op));
	EXPECT_EQ(1U, op[0].id);
}

/* a zeroed op would be CLOCK_REALTIME, POSIX's clock 0: it is refused */
TEST_F(abi, add_zeroed_op_einval)
{
	struct hwtimer_op op;

	memset(&op, 0, sizeof(op));
	EXPECT_EQ(-EINVAL, t_ioctl(self->fd, HWTIMER_IOC_ADD, &op));
	op.flags = HWTIMER_F_REALTIME;
	EXPECT_EQ(0, t_ioctl(self->fd, HWTIMER_IOC_ADD, &op));
	EXPECT_EQ(1U, op.id);
}

/* what ADD writes back is not read: an op can be submitted again as is */
TEST_F(abi, add_ignores_its_output_fields)
{
	struct hwtimer_op op = {
		.clockid = CLOCK_MONOTONIC, .expires = SEC,
		.id = 77, .gen = 77, .result = -5,
	};
	__u32 first;

	ASSERT_EQ(0, t_ioctl(self->fd, HWTIMER_IOC_ADD, &op));
	first = op.id;
	EXPECT_NE(77U, first);
	EXPECT_EQ(0, op.result);
	ASSERT_EQ(0, t_ioctl(self->fd, HWTIMER_IOC_ADD, &op));
	EXPECT_EQ(first + 1, op.id);
}

TEST_F(abi, add_bad_pointer_efault)
{
	struct hwtimer_op *ro = mmap(NULL, 4096, PROT_READ | PROT_WRITE,
				     MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	ASSERT_NE(MAP_FAILED, ro);
	EXPECT_EQ(-EFAULT, t_ioctl(self->fd, HWTIMER_IOC_ADD, NULL));
	EXPECT_EQ(-EFAULT, t_ioctl(self->fd, HWTIMER_IOC_ADD, (void *)1));
	/*
	 * readable but not writable: the new id cannot be returned, so the
	 * ADD is undone, and neither MOD nor CANCEL runs
	 */
	ro->clockid = CLOCK_MONOTONIC;
	ro->expires = SEC;
	ASSERT_EQ(0, mprotect(ro, 4096, PROT_READ));
	EXPECT_EQ(-EFAULT, t_ioctl(self->fd, HWTIMER_IOC_ADD, ro));
	EXPECT_TRUE(t_file_is_empty(self->fd));
	ASSERT_EQ(0, t_add(self->fd, 0, CLOCK_MONOTONIC, SEC, 0, 0, NULL));
	ASSERT_EQ(0, mprotect(ro, 4096, PROT_READ | PROT_WRITE));
	ro->id = 1;
	ro->clockid = 0;
	ASSERT_EQ(0, mprotect(ro, 4096, PROT_READ));
	EXPECT_EQ(-EFAULT, t_ioctl(self->fd, HWTIMER_IOC_MOD, ro));
	ro = mmap(ro, 4096, PROT_READ | PROT_WRITE, MAP_FIXED | MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	ASSERT_NE(MAP_FAILED, ro);
	ro->id = 1;
	ASSERT_EQ(0, mprotect(ro, 4096, PROT_READ));
	EXPECT_EQ(-EFAULT, t_ioctl(self->fd, HWTIMER_IOC_CANCEL, ro));
	EXPECT_EQ(1, t_cancel(self->fd, 1));
	munmap(ro, 4096);
	EXPECT_TRUE(t_file_is_empty(self->fd));
}

/*
 * The kernel must not write the struct before it has read it: an op that
 * straddles a page boundary keeps every field (a fault-in that stores zeroes
 * into each page would corrupt the byte at the boundary).
 */
/* an ADD in two fresh pages, @cookie starting exactly on the second */
static struct hwtimer_op *op_across_pages(char *map)
{
	struct hwtimer_op *op;

	op = (struct hwtimer_op *)(map + 4096 - offsetof(struct hwtimer_op, cookie));
	memset(op, 0, sizeof(*op));
	op->op = HWTIMER_OP_ADD;
	op->clockid = CLOCK_MONOTONIC;
	op->expires = SEC;
	op->cookie = 0x1122334455667788ULL;
	return op;
}

TEST_F(abi, add_struct_across_pages_is_read_intact)
{
	char *map = mmap(NULL, 8192, PROT_READ | PROT_WRITE,
			 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	struct hwtimer_op *op;
	struct hwtimer_get g;

	ASSERT_NE(MAP_FAILED, map);
	op = op_across_pages(map);
	ASSERT_EQ(0, t_ioctl(self->fd, HWTIMER_IOC_ADD, op));
	EXPECT_EQ((__u32)HWTIMER_OP_ADD, op->op);
	ASSERT_EQ(0, t_get(self->fd, op->id, &g));
	EXPECT_EQ(0x1122334455667788ULL, g.cookie);
	munmap(map, 8192);
}

TEST_F(abi, batch_entry_across_pages_is_read_intact)
{
	char *map = mmap(NULL, 8192, PROT_READ | PROT_WRITE,
			 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	struct hwtimer_batch b = { .count = 1, .op_size = sizeof(struct hwtimer_op) };
	struct hwtimer_op *op;
	struct hwtimer_get g;

	ASSERT_NE(MAP_FAILED, map);
	op = op_across_pages(map);
	b.ops = (uintptr_t)op;
	ASSERT_EQ(1, t_ioctl(self->fd, HWTIMER_IOC_BATCH, &b));
	ASSERT_EQ(0, op->result);
	ASSERT_EQ(0, t_get(self->fd, op->id, &g));
	EXPECT_EQ(0x1122334455667788ULL, g.cookie);
	munmap(map, 8192);
}

TEST_F(abi, add_short_struct_einval)
{
	struct hwtimer_op op = { .clockid = CLOCK_MONOTONIC, .expires = MS };

	EXPECT_EQ(-EINVAL, t_ioctl(self->fd, ADD_SIZED(32), &op));
	EXPECT_TRUE(t_file_is_empty(self->fd));
}

TEST_F(abi, add_longer_struct_with_zero_tail_works)
{
	struct { struct hwtimer_op op; __u64 future[2]; } big = {
		.op = { .clockid = CLOCK_MONOTONIC, .expires = SEC },
	};

	EXPECT_EQ(0, t_ioctl(self->fd, ADD_SIZED(sizeof(big)), &big));
	EXPECT_NE(0U, big.op.id);
	EXPECT_EQ(0ULL, big.future[0]);
}

TEST_F(abi, add_longer_struct_with_unknown_field_e2big)
{
	struct { struct hwtimer_op op; __u64 future[2]; } big = {
		.op = { .clockid = CLOCK_MONOTONIC, .expires = SEC },
		.future = { 0, 1 },
	};

	EXPECT_EQ(-E2BIG, t_ioctl(self->fd, ADD_SIZED(sizeof(big)), &big));
	EXPECT_TRUE(t_file_is_empty(self->fd));
}

/* GET's out fields are not read: the struct can be passed again as is */
TEST_F(abi, get_ignores_its_output_fields)
{
	struct hwtimer_get g;
	__u32 id;

	ASSERT_EQ(0, t_add(self->fd, 0, CLOCK_MONOTONIC, SEC, 0, 5, &id));
	ASSERT_EQ(0, t_get(self->fd, id, &g));
	EXPECT_EQ(0, t_ioctl(self->fd, HWTIMER_IOC_GET, &g));
	EXPECT_EQ(5ULL, g.cookie);
}

HWT_HARNESS_MAIN
