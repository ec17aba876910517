// SPDX-License-Identifier: GPL-2.0
/*
 * /dev/hwtimer at scale: 10^5 timers on one file, added in batches and all
 * delivered exactly once through read() records and epoll, with eventfds
 * signalled along the way.
 * (10^6 pending timers, with the memory they take, are in the smoke test,
 * so the figure also comes from the stock kernels, without KASAN.)
 */
#define _GNU_SOURCE
#include <stdlib.h>
#include <sys/epoll.h>
#include <sys/eventfd.h>

#include "kselftest_harness.h"
#include "helpers.h"

#define N	100000U
#define SPREAD	(1000 * MS)

FIXTURE(scale) {
	int fd, efd_file, efd_timer, ep;
	struct hwtimer_op *ops;
	__u8 *seen;
};

FIXTURE_SETUP(scale)
{
	if (!hwt_device_present())
		SKIP(return, HWT_NO_DEVICE);
	self->fd = t_open();
	ASSERT_LE(0, self->fd);
	ASSERT_EQ(0, t_set_nonblock(self->fd));
	self->efd_file = eventfd(0, EFD_NONBLOCK);
	self->efd_timer = eventfd(0, EFD_NONBLOCK);
	ASSERT_LE(0, self->efd_file);
	ASSERT_LE(0, self->efd_timer);
	self->ep = epoll_create1(0);
	ASSERT_LE(0, self->ep);
	self->ops = calloc(N, sizeof(*self->ops));
	self->seen = calloc(N, 1);
	ASSERT_NE(NULL, self->ops);
	ASSERT_NE(NULL, self->seen);
}

FIXTURE_TEARDOWN(scale)
{
	free(self->ops);
	free(self->seen);
	close(self->ep);
	close(self->efd_timer);
	close(self->efd_file);
	close(self->fd);
}

static long batch(int fd, struct hwtimer_op *ops, __u32 n)
{
	struct hwtimer_batch b = {
		.ops = (uintptr_t)ops, .count = n, .op_size = sizeof(*ops),
	};

	return t_ioctl(fd, HWTIMER_IOC_BATCH, &b);
}

TEST_F_TIMEOUT(scale, hundred_thousand_delivered_exactly_once, 600)
{
	struct hwtimer_eventfd e = { .fd = self->efd_file };
	struct epoll_event ev = { .events = EPOLLIN };
	static struct hwtimer_record recs[4096];
	struct hwtimer_drain d = { 0 };
	__u64 t0, got = 0, timer_signals = 0, file_signals = 0, v;
	__u32 i, chunk = 10000;

	ASSERT_EQ(0, t_ioctl(self->fd, HWTIMER_IOC_SET_EVENTFD, &e));
	ev.data.fd = self->fd;
	ASSERT_EQ(0, epoll_ctl(self->ep, EPOLL_CTL_ADD, self->fd, &ev));
	ev.data.fd = self->efd_file;
	ASSERT_EQ(0, epoll_ctl(self->ep, EPOLL_CTL_ADD, self->efd_file, &ev));

	srand(4);
	for (i = 0; i < N; i++) {
		struct hwtimer_op *op = &self->ops[i];

		op->op = HWTIMER_OP_ADD;
		op->clockid = CLOCK_MONOTONIC;
		/* spread over a second, many sharing a tick */
		op->expires = (__u64)rand() % SPREAD;
		op->cookie = i;
		if (i % 2) {	/* half also signal their own eventfd */
			op->flags = HWTIMER_F_EVENTFD;
			op->eventfd = self->efd_timer;
		}
	}
	t0 = t_now_ns(CLOCK_MONOTONIC);
	for (i = 0; i < N; i += chunk) {
		__u32 j, n = N - i < chunk ? N - i : chunk;

		ASSERT_EQ(n, batch(self->fd, &self->ops[i], n));
		for (j = i; j < i + n; j++)
			ASSERT_EQ(0, self->ops[j].result) TH_LOG("op %u", j);
	}
	TH_LOG("added %u timers in %llu ms", N,
	       (unsigned long long)(t_now_ns(CLOCK_MONOTONIC) - t0) / MS);

	while (got < N) {
		struct epoll_event evs[2];
		int k, nev = epoll_wait(self->ep, evs, 2, t_ms(30000));

		ASSERT_LT(0, nev) TH_LOG("stalled after %llu records",
					 (unsigned long long)got);
		for (k = 0; k < nev; k++) {
			long n, r;

			if (evs[k].data.fd == self->efd_file) {
				if (read(self->efd_file, &v, 8) == 8)
					file_signals += v;
				continue;
			}
			n = t_read(self->fd, recs, 4096);
			if (n == -EAGAIN)
				continue;
			ASSERT_LT(0, n);
			for (r = 0; r < n; r++) {
				__u64 c = recs[r].cookie;

				ASSERT_GT(N, c);
				ASSERT_EQ(0, self->seen[c]) TH_LOG("cookie %llu twice",
								   (unsigned long long)c);
				self->seen[c] = 1;
				ASSERT_EQ(self->ops[c].id, recs[r].id);
				ASSERT_LE(t0 + self->ops[c].expires, recs[r].deadline);
				ASSERT_LE(recs[r].deadline, recs[r].fired);
			}
			got += n;
		}
	}
	/*
	 * the eventfd the eventfd timers share was signalled once per run
	 * that expired any of them: at least once, at most once per timer
	 */
	if (read(self->efd_timer, &v, 8) == 8)
		timer_signals = v;
	EXPECT_LE(1ULL, timer_signals);
	EXPECT_GE(N / 2, timer_signals);
	if (read(self->efd_file, &v, 8) == 8)
		file_signals += v;
	EXPECT_LT(0ULL, file_signals);
#define SCALE_FMT	"%llu records, file eventfd signalled %llu times, the timers' %llu, %llu ms after the first add"
	TH_LOG(SCALE_FMT,
	       (unsigned long long)got, (unsigned long long)file_signals,
	       (unsigned long long)timer_signals,
	       (unsigned long long)(t_now_ns(CLOCK_MONOTONIC) - t0) / MS);
#undef SCALE_FMT
	/*
	 * no record more comes, and nothing is left armed. The file's
	 * eventfd is not watched: a pass wakes readers first and may leave
	 * that eventfd's wake-up to the file's worker (hwtimer.rst,
	 * "Delivery"), so it can come after its records were read.
	 */
	ASSERT_EQ(0, epoll_ctl(self->ep, EPOLL_CTL_DEL, self->efd_file, NULL));
	EXPECT_EQ(0, epoll_wait(self->ep, &ev, 1, 50)) TH_LOG("fd %d ready", ev.data.fd);
	ASSERT_EQ(0, t_ioctl(self->fd, HWTIMER_IOC_DRAIN, &d));
	EXPECT_EQ(0U, d.count);
	EXPECT_EQ(0U, d.remaining);
}

HWT_HARNESS_MAIN
