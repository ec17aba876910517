// SPDX-License-Identifier: GPL-2.0
/*
 * /dev/hwtimer timing guarantees, after the kernel's timer kselftests
 * (tools/testing/selftests/timers): never early on any clock, relative or
 * absolute; one-shots fire once; fixed-rate overruns are exact; fixed-delay
 * spacing is right. And freshness: nothing from an earlier arming arrives
 * after CANCEL, MOD or close() returned, checked racing expiry.
 *
 * Time in a TCG guest is emulated and slow, so nothing here asserts an upper
 * bound on lateness: only orderings that must hold on any machine.
 */
#define _GNU_SOURCE
#include <poll.h>
#include <sched.h>
#include <stdlib.h>
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <sys/resource.h>

#include "kselftest_harness.h"
#include "helpers.h"

FIXTURE(timing) {
	int fd;
};

FIXTURE_VARIANT(timing) {
	clockid_t clk;
	bool abs;
};

FIXTURE_VARIANT_ADD(timing, monotonic_rel) { .clk = CLOCK_MONOTONIC, .abs = false };
FIXTURE_VARIANT_ADD(timing, monotonic_abs) { .clk = CLOCK_MONOTONIC, .abs = true };
FIXTURE_VARIANT_ADD(timing, boottime_rel) { .clk = CLOCK_BOOTTIME, .abs = false };
FIXTURE_VARIANT_ADD(timing, boottime_abs) { .clk = CLOCK_BOOTTIME, .abs = true };
FIXTURE_VARIANT_ADD(timing, realtime_rel) { .clk = CLOCK_REALTIME, .abs = false };
FIXTURE_VARIANT_ADD(timing, realtime_abs) { .clk = CLOCK_REALTIME, .abs = true };

FIXTURE_SETUP(timing)
{
	if (!hwt_device_present())
		SKIP(return, HWT_NO_DEVICE);
	self->fd = t_open();
	ASSERT_LE(0, self->fd);
}

FIXTURE_TEARDOWN(timing)
{
	close(self->fd);
}

/*
 * Timers with deadlines from 0 to ~40 ms, some off the tick grid: each
 * record's deadline is no earlier than asked, it fired no earlier than its
 * deadline, and userspace sees the record no earlier than the deadline on
 * its own clock.
 */
TEST_F(timing, never_early)
{
	enum { N = 64 };
	__u64 want[N + 1];
	int seen[N + 1] = { 0 };
	int i, got = 0;

	srand(1);
	for (i = 1; i <= N; i++) {
		__u64 delay = (__u64)(rand() % 40000) * 1000 + rand() % 1000;
		__u64 t0 = t_now_ns(variant->clk);
		struct hwtimer_op op = {
			.flags = (variant->abs ? HWTIMER_F_ABS : 0) |
				 HWT_CLOCK_FLAGS(variant->clk),
			.clockid = variant->clk,
			.expires = variant->abs ? t0 + delay : delay,
			.cookie = i,
		};

		want[i] = t0 + delay;
		ASSERT_EQ(0, t_ioctl(self->fd, HWTIMER_IOC_ADD, &op));
	}
	while (got < N) {
		struct hwtimer_record r[N];
		long n = t_read(self->fd, r, N);
		__u64 seen_at = t_now_ns(variant->clk);

		ASSERT_LT(0, n);
		for (i = 0; i < n; i++) {
			__u64 c = r[i].cookie;

			ASSERT_TRUE(c >= 1 && c <= N);
			EXPECT_EQ(0, seen[c]++);
			EXPECT_LE(want[c], r[i].deadline);
			EXPECT_LE(r[i].deadline, r[i].fired);
			EXPECT_LE(want[c], seen_at)
				TH_LOG("timer %llu seen %lld ns early", (unsigned long long)c,
				       (long long)(want[c] - seen_at));
			EXPECT_EQ((__u32)variant->clk, r[i].clockid);
		}
		got += n;
	}
}

/* A one-shot timer fires once: one record, one eventfd count, nothing more. */
TEST_F(timing, one_shot_fires_exactly_once)
{
	int efd = eventfd(0, EFD_NONBLOCK);
	struct hwtimer_op op = {
		.flags = HWTIMER_F_EVENTFD | HWT_CLOCK_FLAGS(variant->clk),
		.clockid = variant->clk,
		.expires = 2 * MS, .eventfd = efd,
	};
	struct hwtimer_record r[4];
	struct pollfd pfd = { .fd = self->fd, .events = POLLIN };
	__u64 cnt = 0;

	ASSERT_LE(0, efd);
	if (variant->abs) {
		op.flags |= HWTIMER_F_ABS;
		op.expires += t_now_ns(variant->clk);
	}
	ASSERT_EQ(0, t_ioctl(self->fd, HWTIMER_IOC_ADD, &op));
	ASSERT_EQ(1, t_read(self->fd, r, 4));
	EXPECT_EQ(op.id, r[0].id);
	EXPECT_EQ(0ULL, r[0].overruns);
	/* well past a tick more: nothing else comes */
	EXPECT_EQ(0, poll(&pfd, 1, 50));
	EXPECT_EQ(8, read(efd, &cnt, 8));
	EXPECT_EQ(1ULL, cnt);
	close(efd);
}

/*
 * Fixed rate: block the reader for several periods. The record counts every
 * period that ended before it was read, bracketed by the clock read before
 * and after read(); the next deadline stays on the grid.
 */
TEST_F(timing, fixed_rate_overruns_are_exact)
{
	const __u64 p = 10 * MS;
	__u64 d0 = t_now_ns(variant->clk) + p, before, after, lo, hi;
	struct hwtimer_op op = {
		.flags = HWTIMER_F_ABS | HWT_CLOCK_FLAGS(variant->clk),
		.clockid = variant->clk, .expires = d0, .period = p,
	};
	struct hwtimer_record r;
	struct hwtimer_get g;
	int round;

	ASSERT_EQ(0, t_ioctl(self->fd, HWTIMER_IOC_ADD, &op));
	for (round = 0; round < 3; round++) {
		__u64 d = round ? r.deadline + (r.overruns + 1) * p : d0;

		/* the reader is blocked for ~5.5 periods */
		usleep(55000);
		ASSERT_EQ(0, t_get(self->fd, op.id, &g));
		ASSERT_EQ(HWTIMER_STATE_FIRED, g.state);
		before = t_now_ns(variant->clk);
		ASSERT_EQ(1, t_read(self->fd, &r, 1));
		after = t_now_ns(variant->clk);
		EXPECT_EQ(d, r.deadline);
		EXPECT_EQ(0, (r.deadline - d0) % p);
		lo = (before - r.deadline) / p;
		hi = (after - r.deadline) / p;
		EXPECT_LE(lo, r.overruns);
		EXPECT_GE(hi, r.overruns);
		EXPECT_LE(4ULL, r.overruns);
		EXPECT_TRUE(r.flags & HWTIMER_REC_PERIODIC);
		EXPECT_LE(r.deadline, r.fired);
		/*
		 * re-armed for the first grid point after the read; that may
		 * already have passed (and fired) by the time GET runs
		 */
		ASSERT_EQ(0, t_get(self->fd, op.id, &g));
		EXPECT_NE(HWTIMER_STATE_IDLE, g.state);
		EXPECT_EQ(r.deadline + (r.overruns + 1) * p, g.expires);
	}
}

/*
 * Fixed delay: each deadline is the previous fire time plus the period,
 * whenever the reader keeps up; a late reader is counted in overruns.
 */
TEST_F(timing, fixed_delay_spacing)
{
	const __u64 p = 5 * MS;
	struct hwtimer_op op = {
		.flags = HWTIMER_F_FIXED_DELAY | (variant->abs ? HWTIMER_F_ABS : 0) |
			 HWT_CLOCK_FLAGS(variant->clk),
		.clockid = variant->clk,
		.expires = variant->abs ? t_now_ns(variant->clk) + p : p,
		.period = p,
	};
	struct hwtimer_record prev, r;
	int i;

	ASSERT_EQ(0, t_ioctl(self->fd, HWTIMER_IOC_ADD, &op));
	ASSERT_EQ(1, t_read(self->fd, &prev, 1));
	for (i = 0; i < 10; i++) {
		ASSERT_EQ(1, t_read(self->fd, &r, 1));
		/* the previous record's re-arm counted what it skipped */
		EXPECT_EQ(prev.fired + (prev.overruns + 1) * p, r.deadline)
			TH_LOG("record %d: deadline %llu, previous fired %llu", i,
			       (unsigned long long)r.deadline,
			       (unsigned long long)prev.fired);
		EXPECT_LE(r.deadline, r.fired);
		prev = r;
	}
	/* a reader blocked for several periods: missed periods are overruns */
	usleep(30000);
	ASSERT_EQ(1, t_read(self->fd, &r, 1));
	EXPECT_LE(4ULL, r.overruns);
}

/* Freshness */

FIXTURE(timing_fresh) {
	int fd;
	int efd;
};

FIXTURE_SETUP(timing_fresh)
{
	if (!hwt_device_present())
		SKIP(return, HWT_NO_DEVICE);
	self->fd = t_open();
	ASSERT_LE(0, self->fd);
	self->efd = eventfd(0, EFD_NONBLOCK);
	ASSERT_LE(0, self->efd);
	ASSERT_EQ(0, t_set_nonblock(self->fd));
}

FIXTURE_TEARDOWN(timing_fresh)
{
	close(self->efd);
	close(self->fd);
}

static __u64 efd_take(int efd)
{
	__u64 v = 0;

	return read(efd, &v, 8) == 8 ? v : 0;
}

/* Spin for about @ns, so the racing operation lands anywhere near expiry. */
static void spin(__u64 ns)
{
	__u64 end = t_now_ns(CLOCK_MONOTONIC) + ns;

	while (t_now_ns(CLOCK_MONOTONIC) < end)
		;
}

/*
 * Cancel a timer around its expiry, many times: once CANCEL returns, its
 * eventfd is never signalled again and no record of it is read. Records and
 * signals from before CANCEL are fine; both outcomes must be seen.
 */
TEST_F(timing_fresh, nothing_after_cancel)
{
	struct hwtimer_record r[8];
	int i, fired_first = 0, cancelled_first = 0;

	srand(2);
	for (i = 0; i < 1000; i++) {
		__u32 id;
		long ret;

		ASSERT_EQ(0, t_add_efd(self->fd, 0, 1 * MS, 0, self->efd, &id));
		spin((__u64)(rand() % 2000) * 1000);
		ret = t_cancel(self->fd, id);
		ASSERT_LE(0, ret);
		if (ret == 1)	/* 2: it fired first, its record dropped */
			cancelled_first++;
		else
			fired_first++;
		efd_take(self->efd);
		spin(3 * MS);
		EXPECT_EQ(0ULL, efd_take(self->efd)) TH_LOG("iteration %d", i);
		EXPECT_EQ(-EAGAIN, t_read(self->fd, r, 8)) TH_LOG("iteration %d", i);
	}
	TH_LOG("cancelled while pending %d, after firing %d", cancelled_first,
	       fired_first);
	EXPECT_LT(0, cancelled_first + fired_first);
}

/*
 * The review's recipe for a late signal: seven timers whose eventfds have
 * 3,000 epoll waiters each expire in the same pass just before the victim,
 * so the pass spends long signalling them, the victim's last, with the
 * file's lock dropped. Another CPU cancels the victim as soon as it has
 * fired. Its eventfd may have been signalled before CANCEL returned, but
 * never after.
 */
TEST_F_TIMEOUT(timing_fresh, nothing_after_cancel_behind_slow_signals, 300)
{
	enum { DECOYS = 7, WAITERS = 3000, ROUNDS = 20 };
	struct rlimit rl = { DECOYS * WAITERS + 256, DECOYS * WAITERS + 256 };
	int efd[DECOYS], *dups, ep, i, k, late = 0, fired = 0;
	cpu_set_t cpus;

	if (sysconf(_SC_NPROCESSORS_ONLN) < 2)
		SKIP(return, "needs two CPUs");
	ASSERT_EQ(0, setrlimit(RLIMIT_NOFILE, &rl));
	dups = calloc(DECOYS * WAITERS, sizeof(*dups));
	ASSERT_NE(NULL, dups);
	ep = epoll_create1(EPOLL_CLOEXEC);
	ASSERT_LE(0, ep);
	for (i = 0; i < DECOYS; i++) {
		efd[i] = eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
		ASSERT_LE(0, efd[i]);
		for (k = 0; k < WAITERS; k++) {
			struct epoll_event ev = { .events = EPOLLIN };
			int d = dup(efd[i]);

			ASSERT_LE(0, d);
			ASSERT_EQ(0, epoll_ctl(ep, EPOLL_CTL_ADD, d, &ev));
			dups[i * WAITERS + k] = d;
		}
	}
	for (i = 0; i < ROUNDS; i++) {
		__u64 at;
		__u32 id;
		long ret;

		/* armed from CPU 0, so the pass runs there */
		CPU_ZERO(&cpus);
		CPU_SET(0, &cpus);
		ASSERT_EQ(0, sched_setaffinity(0, sizeof(cpus), &cpus));
		at = t_now_ns(CLOCK_MONOTONIC) + 20 * MS;
		for (k = 0; k < DECOYS; k++)
			ASSERT_EQ(0, t_add_efd(self->fd, HWTIMER_F_ABS |
						 HWTIMER_F_NO_RECORD |
						 HWTIMER_F_AUTOREMOVE, at, 0,
						 efd[k], NULL));
		ASSERT_EQ(0, t_add_efd(self->fd, HWTIMER_F_ABS, at, 0,
				       self->efd, &id));
		CPU_ZERO(&cpus);
		CPU_SET(1, &cpus);
		ASSERT_EQ(0, sched_setaffinity(0, sizeof(cpus), &cpus));
		while (t_get_state(self->fd, id) == HWTIMER_STATE_PENDING)
			;
		ret = t_cancel(self->fd, id);
		ASSERT_EQ(2, ret);
		fired += efd_take(self->efd) != 0;
		usleep(200 * 1000);
		if (efd_take(self->efd))
			late++;
		for (k = 0; k < DECOYS; k++)
			efd_take(efd[k]);
	}
	TH_LOG("%d rounds: signalled before CANCEL returned %d, after %d",
	       ROUNDS, fired, late);
	EXPECT_EQ(0, late);
	EXPECT_EQ(ROUNDS, fired);
	for (i = 0; i < DECOYS * WAITERS; i++)
		close(dups[i]);
	for (i = 0; i < DECOYS; i++)
		close(efd[i]);
	close(ep);
	free(dups);
}

/*
 * MOD a timer around its expiry to a far deadline: once MOD returns, no
 * record of the earlier generation is read and its eventfd stays quiet.
 */
TEST_F(timing_fresh, nothing_from_an_earlier_arming_after_mod)
{
	struct hwtimer_record r[8];
	__u32 id, gen;
	int i;

	ASSERT_EQ(0, t_add_efd(self->fd, 0, 1 * MS, 0, self->efd, &id));
	srand(3);
	for (i = 0; i < 1000; i++) {
		long n;

		spin((__u64)(rand() % 2000) * 1000);
		ASSERT_LE(0, t_mod(self->fd, id, 0, 60 * SEC, 0, &gen));
		efd_take(self->efd);
		spin(2 * MS);
		EXPECT_EQ(0ULL, efd_take(self->efd));
		n = t_read(self->fd, r, 8);
		EXPECT_EQ(-EAGAIN, n) TH_LOG("iteration %d: record of gen %u after MOD to gen %u",
					     i, r[0].gen, gen);
		/* and arm it again, to fire soon */
		ASSERT_LE(0, t_mod(self->fd, id, 0, 1 * MS, 0, &gen));
	}
}

/* close() with timers firing: the eventfd is not signalled afterwards. */
TEST_F(timing_fresh, nothing_after_close)
{
	int i, j;

	for (i = 0; i < 300; i++) {
		int fd = t_open();

		ASSERT_LE(0, fd);
		for (j = 0; j < 16; j++)
			ASSERT_EQ(0, t_add_efd(fd, 0, (__u64)j * 100000, 0,
					       self->efd, NULL));
		spin((__u64)(i % 20) * 100000);
		close(fd);
		efd_take(self->efd);
		spin(2 * MS);
		EXPECT_EQ(0ULL, efd_take(self->efd)) TH_LOG("iteration %d", i);
	}
}

HWT_HARNESS_MAIN
