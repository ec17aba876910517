// SPDX-License-Identifier: GPL-2.0
/*
 * /dev/hwtimer on every kernel of the matrix: INFO, a timer that fires
 * through its eventfd and a record, a batch, and a million pending timers
 * on one file, with the kernel memory they take per timer.
 */
#define _GNU_SOURCE
#include <poll.h>
#include <stdlib.h>
#include <sys/eventfd.h>
#include <sys/utsname.h>

#include "kselftest_harness.h"
#include "helpers.h"

TEST(info_and_a_timer_firing_through_eventfd_and_read)
{
	struct hwtimer_info info;
	struct hwtimer_record r;
	int fd = t_open(), efd = eventfd(0, 0);
	struct pollfd pfd = { .fd = efd, .events = POLLIN };
	uint64_t t0, cnt = 0;
	uint32_t id;

	if (!hwt_device_present())
		SKIP(return, HWT_NO_DEVICE);
	ASSERT_LE(0, fd) TH_LOG("open /dev/hwtimer: %s", strerror(errno));
	ASSERT_LE(0, efd);
	ASSERT_EQ(0, t_ioctl(fd, HWTIMER_IOC_INFO, &info));
	EXPECT_EQ(HWTIMER_API_VERSION, (int)info.api_version);
	EXPECT_EQ(sizeof(r), info.record_size);

	t0 = t_now_ns(CLOCK_MONOTONIC);
	ASSERT_EQ(0, t_add_efd(fd, 0, 5 * MS, 0, efd, &id));
	ASSERT_EQ(1, poll(&pfd, 1, t_ms(10000)));
	ASSERT_EQ(8, read(efd, &cnt, 8));
	EXPECT_EQ(1ULL, cnt);
	EXPECT_LE(t0 + 5 * MS, t_now_ns(CLOCK_MONOTONIC));
	ASSERT_EQ(1, t_read(fd, &r, 1));
	EXPECT_EQ(id, r.id);
	EXPECT_LE(t0 + 5 * MS, r.deadline);
	EXPECT_LE(r.deadline, r.fired);
	close(efd);
	close(fd);
}

TEST(batch_add_then_cancel)
{
	struct hwtimer_op ops[8];
	struct hwtimer_batch b = {
		.ops = (uintptr_t)ops, .count = 8, .op_size = sizeof(ops[0]),
	};
	int fd = t_open(), i;

	if (!hwt_device_present())
		SKIP(return, HWT_NO_DEVICE);
	ASSERT_LE(0, fd);
	memset(ops, 0, sizeof(ops));
	for (i = 0; i < 8; i++) {
		ops[i].op = HWTIMER_OP_ADD;
		ops[i].clockid = CLOCK_MONOTONIC;
		ops[i].expires = 10 * SEC;
	}
	ASSERT_EQ(8, t_ioctl(fd, HWTIMER_IOC_BATCH, &b));
	for (i = 0; i < 8; i++) {
		uint32_t id = ops[i].id;

		ASSERT_EQ(0, ops[i].result);
		memset(&ops[i], 0, sizeof(ops[i]));
		ops[i].op = HWTIMER_OP_CANCEL;
		ops[i].id = id;
	}
	b.done = 0;
	ASSERT_EQ(8, t_ioctl(fd, HWTIMER_IOC_BATCH, &b));
	for (i = 0; i < 8; i++)
		EXPECT_EQ(1, ops[i].result);
	close(fd);
}

/* Slab memory of the system, in bytes, from /proc/meminfo. */
static long long slab_bytes(void)
{
	char line[128];
	long long kb = -1;
	FILE *f = fopen("/proc/meminfo", "r");

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "Slab: %lld kB", &kb) == 1)
			break;
	fclose(f);
	return kb * 1024;
}

/*
 * A million one-shot timers pending on one file. Reports the slab memory
 * they take per timer (the timer objects and the xarray's nodes; the wheel
 * itself is a fixed array per clock), then drains them all.
 */
FIXTURE(matrix) {
	int fd;
};

FIXTURE_SETUP(matrix)
{
	if (!hwt_device_present())
		SKIP(return, HWT_NO_DEVICE);
	self->fd = t_open();
	ASSERT_LE(0, self->fd);
}

FIXTURE_TEARDOWN(matrix)
{
	close(self->fd);
}

TEST_F_TIMEOUT(matrix, million_pending_timers, 900)
{
	const uint32_t n = 1000000, chunk = 50000;
	struct hwtimer_op *ops = calloc(chunk, sizeof(*ops));
	struct hwtimer_batch b = { .ops = (uintptr_t)ops, .op_size = sizeof(*ops) };
	struct hwtimer_drain d = { 0 };
	long long before, after;
	struct utsname u;
	uint32_t i, j, *ids;
	uint8_t *seen;
	int fd = self->fd;

	ASSERT_NE(NULL, ops);
	uname(&u);
	before = slab_bytes();
	for (i = 0; i < n; i += chunk) {
		memset(ops, 0, chunk * sizeof(*ops));
		for (j = 0; j < chunk; j++) {
			ops[j].op = HWTIMER_OP_ADD;
			ops[j].clockid = CLOCK_MONOTONIC;
			/* an hour out, spread over a minute: all stay pending */
			ops[j].expires = 3600 * SEC + (uint64_t)(i + j) * 60000;
		}
		b.count = chunk;
		b.done = 0;
		ASSERT_EQ(chunk, t_ioctl(fd, HWTIMER_IOC_BATCH, &b));
		for (j = 0; j < chunk; j++)
			ASSERT_EQ(0, ops[j].result) TH_LOG("timer %u", i + j);
	}
	after = slab_bytes();
	ASSERT_LT(0, before);
	ksft_print_msg("memory: kernel %s: %u pending timers, slab +%lld kB, %lld bytes/timer\n",
		       u.release, n, (after - before) / 1024, (after - before) / n);

	/* every one of them is pending, once */
	ids = calloc(n, sizeof(*ids));
	seen = calloc(n + 1, 1);
	ASSERT_NE(NULL, ids);
	ASSERT_NE(NULL, seen);
	d.ids = (uintptr_t)ids;
	d.max = n;
	ASSERT_EQ(0, t_ioctl(fd, HWTIMER_IOC_DRAIN, &d));
	EXPECT_EQ(n, d.count);
	EXPECT_EQ(0U, d.remaining);
	for (i = 0; i < d.count; i++) {
		ASSERT_TRUE(ids[i] >= 1 && ids[i] <= n);
		ASSERT_EQ(0, seen[ids[i]]++);
	}
	free(seen);
	free(ids);
	free(ops);
}

HWT_HARNESS_MAIN
