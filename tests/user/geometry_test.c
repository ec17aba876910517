// SPDX-License-Identifier: GPL-2.0
/*
 * Every geometry the module accepts delivers every timer once and never
 * early. Run with the default geometry in every guest, and again with the
 * smallest horizon the module accepts (tests/vm/init.sh loads it with
 * levels=2): timers spread over the whole of max_delay_ns, added while the
 * wheel is busy expiring earlier ones, so that its clock lags behind the
 * time they are armed at and keys beyond its horizon are parked and placed
 * again as the clock comes near them.
 */
#define _GNU_SOURCE
#include <stdlib.h>

#include "kselftest_harness.h"
#include "helpers.h"

#define N	20000U

FIXTURE(geometry) {
	int fd;
	struct hwtimer_op *ops;
	uint8_t *seen;
};

FIXTURE_SETUP(geometry)
{
	HWT_NEED_DEVICE();
	self->fd = t_open();
	ASSERT_LE(0, self->fd);
	self->ops = calloc(N, sizeof(*self->ops));
	self->seen = calloc(N, 1);
	ASSERT_NE(NULL, self->ops);
	ASSERT_NE(NULL, self->seen);
}

FIXTURE_TEARDOWN(geometry)
{
	free(self->ops);
	free(self->seen);
	close(self->fd);
}

static long batch(int fd, struct hwtimer_op *ops, uint32_t n)
{
	struct hwtimer_batch b = {
		.ops = (uintptr_t)ops, .count = n, .op_size = sizeof(*ops),
	};

	return t_ioctl(fd, HWTIMER_IOC_BATCH, &b);
}

TEST_F_TIMEOUT(geometry, every_timer_once_across_the_range, 600)
{
	struct hwtimer_info info = { 0 };
	struct hwtimer_record r[256];
	uint64_t range, t0, late_max = 0;
	uint32_t i, got = 0, early = 0;

	ASSERT_EQ(0, t_ioctl(self->fd, HWTIMER_IOC_INFO, &info));
	/* the whole range of a small geometry; 2 s of a large one */
	range = info.max_delay_ns < 2 * SEC ? info.max_delay_ns : 2 * SEC;
	TH_LOG("%u levels, max delay %llu ns: %u timers over %llu ns",
	       info.levels, (unsigned long long)info.max_delay_ns, N,
	       (unsigned long long)range);
	t0 = t_now_ns(CLOCK_MONOTONIC);
	for (i = 0; i < N; i++)
		self->ops[i] = (struct hwtimer_op){
			.op = HWTIMER_OP_ADD, .clockid = CLOCK_MONOTONIC,
			.flags = HWTIMER_F_ABS, .cookie = i,
			/* each batch of 256 reaches over the whole range */
			.expires = t0 + (uint64_t)(i % 256) * range / 256 +
				   (uint64_t)i * range / N,
		};
	for (i = 0; i < N; i += 256) {
		uint32_t k, n = N - i < 256 ? N - i : 256;
		uint64_t now = t_now_ns(CLOCK_MONOTONIC);

		/*
		 * a batch arms for a time past the last, as a busy user does,
		 * and within the range of now on a fast machine
		 */
		for (k = 0; k < n; k++) {
			__u64 *e = &self->ops[i + k].expires;

			if (*e < now)
				*e = now;
			if (*e > now + info.max_delay_ns - info.tick_ns)
				*e = now + info.max_delay_ns - info.tick_ns;
		}
		ASSERT_EQ((long)n, batch(self->fd, self->ops + i, n));
		for (k = 0; k < n; k++)
			ASSERT_EQ(0, self->ops[i + k].result);
	}
	ASSERT_EQ(0, t_set_nonblock(self->fd));
	while (got < N) {
		long n = t_read(self->fd, r, 256);

		if (n == -EAGAIN) {
			/* what is left must come within a minute of the range */
			ASSERT_GT(t0 + range + 60 * SEC, t_now_ns(CLOCK_MONOTONIC))
				TH_LOG("%u of %u records read", got, N);
			usleep(1000);
			continue;
		}
		ASSERT_LT(0, n);
		for (i = 0; i < (uint32_t)n; i++) {
			ASSERT_GT(N, r[i].cookie);
			ASSERT_EQ(0, self->seen[r[i].cookie]);
			self->seen[r[i].cookie] = 1;
			if (r[i].fired < r[i].deadline)
				early++;
			else if (r[i].fired - r[i].deadline > late_max)
				late_max = r[i].fired - r[i].deadline;
		}
		got += n;
	}
	TH_LOG("all %u delivered, the latest %llu us late, in %llu ms", N,
	       (unsigned long long)late_max / 1000,
	       (unsigned long long)(t_now_ns(CLOCK_MONOTONIC) - t0) / MS);
	EXPECT_EQ(0, early);
	EXPECT_EQ(0ULL, t_fdinfo_u64(self->fd, "pending"));
}

HWT_HARNESS_MAIN
