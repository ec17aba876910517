// SPDX-License-Identifier: GPL-2.0
/*
 * /dev/hwtimer: the bulk ioctls, BATCH and DRAIN, and what happens when
 * their user memory faults. Every validation path has a test of its own.
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <stdatomic.h>
#include <sys/mman.h>

#include "kselftest_harness.h"
#include "helpers.h"

FIXTURE(batch) {
	int fd;
};

FIXTURE_SETUP(batch)
{
	if (!hwt_device_present())
		SKIP(return, HWT_NO_DEVICE);
	self->fd = t_open();
	ASSERT_LE(0, self->fd)
		TH_LOG("open /dev/hwtimer: %s", strerror(errno));
}

FIXTURE_TEARDOWN(batch)
{
	close(self->fd);
}

/* BATCH */

static long batch(int fd, struct hwtimer_op *ops, __u32 n, __u32 flags,
		  __u32 *done)
{
	struct hwtimer_batch b = {
		.ops = (uintptr_t)ops, .count = n,
		.op_size = sizeof(*ops), .flags = flags,
	};
	long ret = t_ioctl(fd, HWTIMER_IOC_BATCH, &b);

	if (done)
		*done = b.done;
	return ret;
}

TEST_F(batch, batch_gives_each_op_its_result)
{
	struct hwtimer_op ops[4] = {
		{ .op = HWTIMER_OP_ADD, .clockid = CLOCK_MONOTONIC, .expires = SEC },
		{ .op = HWTIMER_OP_ADD, .clockid = 12345, .expires = SEC },
		{ .op = HWTIMER_OP_CANCEL, .id = 99999 },
		{ .op = HWTIMER_OP_ADD, .flags = HWTIMER_F_REALTIME,
		  .clockid = CLOCK_REALTIME, .expires = SEC },
	};
	__u32 done;

	EXPECT_EQ(4, batch(self->fd, ops, 4, 0, &done));
	EXPECT_EQ(4U, done);
	EXPECT_EQ(0, ops[0].result);
	EXPECT_NE(0U, ops[0].id);
	EXPECT_EQ(-EINVAL, ops[1].result);
	EXPECT_EQ(-ENOENT, ops[2].result);
	EXPECT_EQ(0, ops[3].result);
	EXPECT_NE(ops[0].id, ops[3].id);
}

TEST_F(batch, batch_stop_on_error_stops)
{
	struct hwtimer_op ops[3] = {
		{ .op = HWTIMER_OP_ADD, .clockid = CLOCK_MONOTONIC, .expires = SEC },
		{ .op = HWTIMER_OP_CANCEL, .id = 99999 },
		{ .op = HWTIMER_OP_ADD, .clockid = CLOCK_MONOTONIC, .expires = SEC },
	};
	__u32 done;

	EXPECT_EQ(2, batch(self->fd, ops, 3, HWTIMER_BATCH_STOP_ON_ERROR, &done));
	EXPECT_EQ(2U, done);
	EXPECT_EQ(-ENOENT, ops[1].result);
	EXPECT_EQ(0U, ops[2].id);
}

/* a failure on the last entry of a kernel-side chunk still stops the batch */
TEST_F(batch, batch_stop_on_error_at_every_position)
{
	const __u32 n = 200;
	struct hwtimer_op *ops = calloc(n, sizeof(*ops));
	__u32 bad, i, done;

	ASSERT_NE(NULL, ops);
	for (bad = 60; bad < 132; bad++) {
		for (i = 0; i < n; i++)
			ops[i] = (struct hwtimer_op){
				.op = HWTIMER_OP_ADD, .clockid = CLOCK_MONOTONIC,
				.expires = 10 * SEC,
			};
		ops[bad].clockid = 12345;
		EXPECT_EQ((long)bad + 1, batch(self->fd, ops, n,
					       HWTIMER_BATCH_STOP_ON_ERROR, &done));
		EXPECT_EQ(bad + 1, done);
		EXPECT_EQ(-EINVAL, ops[bad].result);
		EXPECT_EQ(0U, ops[bad + 1].id);
		ASSERT_EQ(0, t_ioctl(self->fd, HWTIMER_IOC_DRAIN,
				     &(struct hwtimer_drain){ 0 }));
	}
	free(ops);
}

TEST_F(batch, batch_of_thousands)
{
	const __u32 n = 4096;
	struct hwtimer_op *ops = calloc(n, sizeof(*ops));
	__u32 i;

	ASSERT_NE(NULL, ops);
	for (i = 0; i < n; i++) {
		ops[i].op = HWTIMER_OP_ADD;
		ops[i].clockid = CLOCK_MONOTONIC;
		ops[i].expires = 10 * SEC + i;
	}
	ASSERT_EQ((long)n, batch(self->fd, ops, n, 0, NULL));
	for (i = 0; i < n; i++) {
		ASSERT_EQ(0, ops[i].result);
		if (i)
			ASSERT_NE(ops[i - 1].id, ops[i].id);
		ops[i] = (struct hwtimer_op){ .op = HWTIMER_OP_CANCEL,
					      .id = ops[i].id };
	}
	ASSERT_EQ((long)n, batch(self->fd, ops, n, 0, NULL));
	for (i = 0; i < n; i++)
		ASSERT_EQ(1, ops[i].result);
	EXPECT_TRUE(t_file_is_empty(self->fd));
	free(ops);
}

TEST_F(batch, batch_too_many_e2big)
{
	struct hwtimer_info info;
	struct hwtimer_op op = { .op = HWTIMER_OP_ADD };

	ASSERT_EQ(0, t_ioctl(self->fd, HWTIMER_IOC_INFO, &info));
	EXPECT_EQ(-E2BIG, batch(self->fd, &op, info.max_batch + 1, 0, NULL));
}

TEST_F(batch, batch_bad_header_einval)
{
	struct hwtimer_op op = { .op = HWTIMER_OP_ADD, .clockid = CLOCK_MONOTONIC };
	struct hwtimer_batch b = {
		.ops = (uintptr_t)&op, .count = 1, .op_size = 32,
	};

	EXPECT_EQ(-EINVAL, t_ioctl(self->fd, HWTIMER_IOC_BATCH, &b));
	b.op_size = sizeof(op) + 4;	/* not a multiple of 8 */
	EXPECT_EQ(-EINVAL, t_ioctl(self->fd, HWTIMER_IOC_BATCH, &b));
	b.op_size = sizeof(op);
	b.flags = 1U << 7;
	EXPECT_EQ(-EINVAL, t_ioctl(self->fd, HWTIMER_IOC_BATCH, &b));
	EXPECT_TRUE(t_file_is_empty(self->fd));
}

/*
 * What a batch writes back (@done, each entry's @result, an ADD's @id and
 * @gen) is not read: the array can be submitted again as it came back.
 */
TEST_F(batch, batch_resubmits_as_it_came_back)
{
	struct hwtimer_op ops[3];
	struct hwtimer_batch b = {
		.ops = (uintptr_t)ops, .count = 3, .op_size = sizeof(ops[0]),
	};
	int i;

	memset(ops, 0, sizeof(ops));
	for (i = 0; i < 3; i++) {
		ops[i].op = HWTIMER_OP_ADD;
		ops[i].clockid = CLOCK_MONOTONIC;
		ops[i].expires = SEC;
	}
	ASSERT_EQ(3, t_ioctl(self->fd, HWTIMER_IOC_BATCH, &b));
	ASSERT_EQ(3U, b.done);
	/* the same ADDs again: three more timers */
	ASSERT_EQ(3, t_ioctl(self->fd, HWTIMER_IOC_BATCH, &b));
	for (i = 0; i < 3; i++) {
		EXPECT_EQ(0, ops[i].result);
		EXPECT_EQ((__u32)i + 4, ops[i].id);
		/* now CANCEL them: the ids and generations are in place */
		ops[i].op = HWTIMER_OP_CANCEL;
		ops[i].flags = HWTIMER_F_GEN;
		ops[i].clockid = 0;
	}
	ASSERT_EQ(3, t_ioctl(self->fd, HWTIMER_IOC_BATCH, &b));
	for (i = 0; i < 3; i++) {
		EXPECT_EQ(1, ops[i].result);
		EXPECT_LT(0ULL, ops[i].expires);
	}
	/*
	 * and once more, as they came back (@expires is CANCEL's out
	 * field): those armings are over, the timers gone
	 */
	ASSERT_EQ(3, t_ioctl(self->fd, HWTIMER_IOC_BATCH, &b));
	for (i = 0; i < 3; i++)
		EXPECT_EQ(-ESTALE, ops[i].result);
}

/* Faults: nothing takes effect that the caller does not hear of */

/* @n ADDs at @ops, for an hour from now. */
static void fill_adds(struct hwtimer_op *ops, unsigned int n)
{
	unsigned int i;

	memset(ops, 0, n * sizeof(*ops));
	for (i = 0; i < n; i++) {
		ops[i].op = HWTIMER_OP_ADD;
		ops[i].clockid = CLOCK_MONOTONIC;
		ops[i].expires = 3600 * SEC;
	}
}

/* How many timers the file holds: DRAIN counts the pending ones. */
static __u32 drain_count(int fd)
{
	struct hwtimer_drain d = { 0 };

	if (t_ioctl(fd, HWTIMER_IOC_DRAIN, &d))
		return UINT32_MAX;
	return d.count;
}

/* an array the kernel cannot write back to: nothing runs */
TEST_F(batch, batch_read_only_array_efault_runs_nothing)
{
	long page = sysconf(_SC_PAGESIZE);
	struct hwtimer_op *ops;

	ops = mmap(NULL, page, PROT_READ | PROT_WRITE,
		   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	ASSERT_NE(MAP_FAILED, ops);
	fill_adds(ops, 8);
	ASSERT_EQ(0, mprotect(ops, page, PROT_READ));
	EXPECT_EQ(-EFAULT, batch(self->fd, ops, 8, 0, NULL));
	EXPECT_TRUE(t_file_is_empty(self->fd));
	munmap(ops, page);
}

/*
 * 128 entries, the second half on a read-only page: the first chunk of 64
 * runs and reports, the rest does not run, and the file holds exactly the
 * timers whose ids came back.
 */
TEST_F(batch, batch_stops_before_a_read_only_chunk)
{
	long page = sysconf(_SC_PAGESIZE);
	unsigned int per = page / sizeof(struct hwtimer_op), i;
	struct hwtimer_op *ops;
	__u32 done = 0;
	char *map;

	ASSERT_LE(64U, per);
	map = mmap(NULL, 2 * page, PROT_READ | PROT_WRITE,
		   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	ASSERT_NE(MAP_FAILED, map);
	/* chunk one fills the first page; chunk two starts on the second */
	ops = (struct hwtimer_op *)(map + page) - 64;
	fill_adds(ops, 128);
	ASSERT_EQ(0, mprotect(map + page, page, PROT_READ));
	EXPECT_EQ(64, batch(self->fd, ops, 128, 0, &done));
	EXPECT_EQ(64U, done);
	for (i = 0; i < 64; i++) {
		EXPECT_EQ(0, ops[i].result);
		EXPECT_EQ(i + 1, ops[i].id);
	}
	EXPECT_EQ(0, ops[64].result);
	EXPECT_EQ(0U, ops[64].id);
	EXPECT_EQ(64U, drain_count(self->fd));
	munmap(map, 2 * page);
}

struct flipper {
	void *page;
	long size;
	atomic_int stop;
	atomic_int go;		/* a batch runs: flip now */
	atomic_int busy;	/* a flip may be under way */
};

/* Make the page read-only for a moment, only while a batch runs. */
static void *flip_protection(void *arg)
{
	struct flipper *f = arg;
	unsigned int seed = 1, i = 0;

	while (!atomic_load(&f->stop)) {
		atomic_store(&f->busy, 1);
		if (!atomic_load(&f->go)) {
			atomic_store(&f->busy, 0);
			continue;
		}
		/* now and then, a moment into the batch */
		for (i = rand_r(&seed) % 200000; i; i--)
			__asm__ volatile("" ::: "memory");
		mprotect(f->page, f->size, PROT_READ);
		usleep(rand_r(&seed) % 50);
		mprotect(f->page, f->size, PROT_READ | PROT_WRITE);
		atomic_store(&f->busy, 0);
		usleep(rand_r(&seed) % 50);
	}
	return NULL;
}

/*
 * Another thread makes the array (four pages, four chunks) read-only, and
 * writable again, while batches of ADDs run: whatever each batch returns, the file holds exactly
 * the timers whose ids reached the array. Before results were written
 * through pinned pages, a write-back that faulted after the ADDs ran left
 * timers nobody knew the id of.
 */
TEST_F(batch, batch_results_survive_a_racing_mprotect)
{
	struct flipper f = { .size = 4 * sysconf(_SC_PAGESIZE) };
	unsigned int n = f.size / sizeof(struct hwtimer_op), round, i;
	unsigned int faulted = 0, partial = 0;
	__u64 reported = 0;
	struct hwtimer_op *ops;
	pthread_t th;

	f.page = mmap(NULL, f.size, PROT_READ | PROT_WRITE,
		      MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	ASSERT_NE(MAP_FAILED, f.page);
	ops = f.page;
	ASSERT_EQ(0, pthread_create(&th, NULL, flip_protection, &f));
	for (round = 0; round < 300; round++) {
		long ret;

		fill_adds(ops, n);
		atomic_store(&f.go, 1);
		ret = batch(self->fd, ops, n, 0, NULL);
		atomic_store(&f.go, 0);
		while (atomic_load(&f.busy))
			;
		if (ret < 0) {
			ASSERT_EQ(-EFAULT, ret);
			faulted++;
			continue;
		}
		partial += ret < n;
		for (i = 0; i < (unsigned int)ret; i++)
			if (!ops[i].result && ops[i].id)
				reported++;
	}
	atomic_store(&f.stop, 1);
	pthread_join(th, NULL);
	TH_LOG("of 300 batches, %u met a read-only array first, %u part way",
	       faulted, partial);
	EXPECT_EQ(reported, drain_count(self->fd));
	munmap(f.page, f.size);
}

/*
 * DRAIN with a read-only array: it takes nothing it could not report. With
 * 300 timers and room for 300 ids whose last 44 lie on a read-only page,
 * the first chunk of 256 is taken and reported, the rest stays.
 */
TEST_F(batch, drain_stops_before_a_read_only_chunk)
{
	long page = sysconf(_SC_PAGESIZE);
	struct hwtimer_drain d = { .max = 300 };
	__u32 *ids;
	char *map;
	int i;

	map = mmap(NULL, 2 * page, PROT_READ | PROT_WRITE,
		   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	ASSERT_NE(MAP_FAILED, map);
	ids = (__u32 *)(map + page) - 256;
	d.ids = (uintptr_t)ids;
	for (i = 0; i < 300; i++)
		ASSERT_EQ(0, t_add(self->fd, 0, CLOCK_MONOTONIC, 10 * SEC, 0, 0, NULL));
	ASSERT_EQ(0, mprotect(map + page, page, PROT_READ));
	EXPECT_EQ(0, t_ioctl(self->fd, HWTIMER_IOC_DRAIN, &d));
	EXPECT_EQ(256U, d.count);
	EXPECT_EQ(44U, d.remaining);
	for (i = 0; i < 256; i++)
		EXPECT_NE(0U, ids[i]);
	/* all of them read-only: EFAULT, and nothing taken */
	ASSERT_EQ(0, mprotect(map, 2 * page, PROT_READ));
	d.count = 0;
	EXPECT_EQ(-EFAULT, t_ioctl(self->fd, HWTIMER_IOC_DRAIN, &d));
	EXPECT_EQ(44U, drain_count(self->fd));
	munmap(map, 2 * page);
}

/*
 * A file that held many timers and now holds a few at its highest ids:
 * DRAIN walks the table a bounded stretch per hold of the lock, and
 * still finds every one.
 */
TEST_F(batch, drain_finds_the_few_left_among_many_freed_ids)
{
	struct hwtimer_op *ops = calloc(10000, sizeof(*ops));
	__u32 ids[16], i;
	struct hwtimer_drain d = { .ids = (uintptr_t)ids, .max = 16 };

	ASSERT_NE(NULL, ops);
	fill_adds(ops, 10000);
	ASSERT_EQ(10000, batch(self->fd, ops, 10000, 0, NULL));
	for (i = 0; i < 9990; i++) {
		ops[i].op = HWTIMER_OP_CANCEL;
		ops[i].clockid = 0;
	}
	ASSERT_EQ(9990, batch(self->fd, ops, 9990, 0, NULL));
	ASSERT_EQ(0, t_ioctl(self->fd, HWTIMER_IOC_DRAIN, &d));
	EXPECT_EQ(10U, d.count);
	EXPECT_EQ(0U, d.remaining);
	for (i = 0; i < 10; i++)
		EXPECT_EQ(9991 + i, ids[i]);
	EXPECT_TRUE(t_file_is_empty(self->fd));
	free(ops);
}

/*
 * A file keeps the table its busiest moment needed while it has timers;
 * once a DRAIN or a CANCEL leaves it with none, the table goes, and ids
 * start from 1 again.
 */
TEST_F(batch, an_empty_file_gives_its_table_back)
{
	struct hwtimer_op *ops = calloc(10000, sizeof(*ops));
	struct hwtimer_drain d = { 0 };
	__u32 i, id;

	ASSERT_NE(NULL, ops);
	fill_adds(ops, 10000);
	ASSERT_EQ(10000, batch(self->fd, ops, 10000, 0, NULL));
	EXPECT_LE(10000ULL, t_fdinfo_u64(self->fd, "id_slots"));
	ASSERT_EQ(0, t_ioctl(self->fd, HWTIMER_IOC_DRAIN, &d));
	EXPECT_EQ(0ULL, t_fdinfo_u64(self->fd, "id_slots"));
	ASSERT_EQ(0, t_add(self->fd, 0, CLOCK_MONOTONIC, 10 * SEC, 0, 0, &id));
	EXPECT_EQ(1U, id);
	EXPECT_EQ(1, t_cancel(self->fd, id));

	fill_adds(ops, 10000);
	ASSERT_EQ(10000, batch(self->fd, ops, 10000, 0, NULL));
	EXPECT_LE(10000ULL, t_fdinfo_u64(self->fd, "id_slots"));
	for (i = 0; i < 10000; i++) {
		ops[i].op = HWTIMER_OP_CANCEL;
		ops[i].clockid = 0;
	}
	ASSERT_EQ(10000, batch(self->fd, ops, 10000, 0, NULL));
	EXPECT_EQ(0ULL, t_fdinfo_u64(self->fd, "id_slots"));
	EXPECT_TRUE(t_file_is_empty(self->fd));
	free(ops);
}

TEST_F(batch, drain_bad_array_efault_cancels_nothing)
{
	struct hwtimer_drain d = { .ids = 8, .max = 4 };
	__u32 id;

	ASSERT_EQ(0, t_add(self->fd, 0, CLOCK_MONOTONIC, 10 * SEC, 0, 0, &id));
	EXPECT_EQ(-EFAULT, t_ioctl(self->fd, HWTIMER_IOC_DRAIN, &d));
	EXPECT_EQ(1, t_cancel(self->fd, id));
}

HWT_HARNESS_MAIN
