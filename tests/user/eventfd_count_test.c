// SPDX-License-Identifier: GPL-2.0
/*
 * What an eventfd's counter counts (hwtimer.rst, "Delivery"): each expiry
 * pass adds 1 to every eventfd it signals, once, however many timers,
 * entries or roles stand for it. Counts, never timings:
 *  - herds of 32 to 100 timers due together on one shared eventfd, with
 *    the file's eventfd set: both count the passes that expired timers
 *    (fdinfo), and agree, whether the pass's wake-ups were done at once
 *    or left to the worker (review G1, G3);
 *  - one eventfd behind two entries and the file's eventfd: 1 per pass,
 *    never 2 (review G3);
 *  - a herd that spends a pass's budget exactly starts no pass that finds
 *    nothing (review G6);
 *  - HWTIMER_F_NO_RECORD periodic timers whose wake-ups are slow, on a
 *    host with a busy loop on every CPU, so that passes leave wake-ups to
 *    a worker that falls behind: each timer's eventfd counts its expiries,
 *    none merged away (review G3).
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <stdatomic.h>
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <sys/resource.h>

#include "kselftest_harness.h"
#include "helpers.h"

FIXTURE(efdcount) {
	int fd;
};

FIXTURE_SETUP(efdcount)
{
	if (!hwt_device_present())
		SKIP(return, HWT_NO_DEVICE);
	self->fd = t_open();
	ASSERT_LE(0, self->fd);
}

FIXTURE_TEARDOWN(efdcount)
{
	close(self->fd);
}

static long batch(int fd, struct hwtimer_op *ops, __u32 n)
{
	struct hwtimer_batch b = {
		.ops = (uintptr_t)ops, .count = n, .op_size = sizeof(*ops),
	};

	return t_ioctl(fd, HWTIMER_IOC_BATCH, &b);
}

static long set_file_eventfd(int fd, int efd)
{
	struct hwtimer_eventfd e = { .fd = efd };

	return t_ioctl(fd, HWTIMER_IOC_SET_EVENTFD, &e);
}

/* an eventfd's counter, 0 if nothing was added (EFD_NONBLOCK) */
static __u64 take(int efd)
{
	__u64 v = 0;

	if (read(efd, &v, sizeof(v)) != sizeof(v))
		return 0;
	return v;
}

/* the file's passes that expired timers: the ones that signal */
static unsigned long long passes_that_fired(int fd)
{
	return t_fdinfo_u64(fd, "wakeups") + t_fdinfo_u64(fd, "continued") +
	       t_fdinfo_u64(fd, "handed_off") -
	       t_fdinfo_u64(fd, "empty_wakeups");
}

/*
 * CANCEL ids 1..@n: a CANCEL of a timer whose eventfd a pass took and has
 * not signalled yet waits for it, the wake-ups left to the worker
 * included, so the counters are final after it.
 */
static long cancel_all(int fd, __u32 n)
{
	static struct hwtimer_op ops[256];
	__u32 i;

	for (i = 0; i < n; i++)
		ops[i] = (struct hwtimer_op){ .op = HWTIMER_OP_CANCEL,
					      .id = i + 1 };
	return batch(fd, ops, n);
}

/* Read @n records, blocking. */
static long read_all(int fd, long n)
{
	static struct hwtimer_record recs[256];
	long got = 0, r;

	while (got < n) {
		r = t_read(fd, recs, n - got);
		if (r <= 0)
			return r < 0 ? r : -EIO;
		got += r;
	}
	return got;
}

/*
 * A herd of @n timers due together on one eventfd, 10 ms ahead (on level
 * 1, so cascading may take units of the passes), with the file's eventfd
 * set. Both count the passes that expired them, and so agree.
 */
static void herd(struct __test_metadata *_metadata, __u32 n)
{
	static struct hwtimer_op ops[256];
	int fd = t_open(), efd = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
	int ffd = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
	__u64 at = t_now_ns(CLOCK_MONOTONIC) + 10 * MS, shared, file;
	unsigned long long passes;
	__u32 i;

	ASSERT_LE(0, fd);
	ASSERT_LE(0, efd);
	ASSERT_LE(0, ffd);
	ASSERT_EQ(0, set_file_eventfd(fd, ffd));
	for (i = 0; i < n; i++)
		ops[i] = (struct hwtimer_op){
			.op = HWTIMER_OP_ADD, .clockid = CLOCK_MONOTONIC,
			.flags = HWTIMER_F_ABS | HWTIMER_F_EVENTFD,
			.eventfd = efd, .expires = at, .cookie = i,
		};
	ASSERT_EQ(n, batch(fd, ops, n));
	ASSERT_EQ(n, read_all(fd, n));
	ASSERT_EQ(n, cancel_all(fd, n));
	shared = take(efd);
	file = take(ffd);
	passes = passes_that_fired(fd);
#define HERD_FMT	"%u timers: %llu passes that fired (%llu in the interrupt, %llu continued, %llu handed off, %llu wake-ups left), shared eventfd %llu, file's %llu"
	TH_LOG(HERD_FMT,
	       n, passes, t_fdinfo_u64(fd, "hard_passes"),
	       t_fdinfo_u64(fd, "continued"), t_fdinfo_u64(fd, "handed_off"),
	       t_fdinfo_u64(fd, "wakeups_handed_off"),
	       (unsigned long long)shared, (unsigned long long)file);
#undef HERD_FMT
	EXPECT_EQ((unsigned long long)n, t_fdinfo_u64(fd, "fired"));
	EXPECT_LE(1ULL, passes);
	EXPECT_EQ(passes, shared);
	EXPECT_EQ(passes, file);
	close(ffd);
	close(efd);
	close(fd);
}

TEST_F_TIMEOUT(efdcount, herds_count_passes_on_shared_and_file_eventfd, 300)
{
	static const __u32 sizes[] = { 32, 40, 48, 56, 63, 64, 65, 100 };
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(sizes); i++)
		herd(_metadata, sizes[i]);
}

/*
 * Eventfd X behind two entries (ADDs with X, Y, X make three) and as the
 * file's eventfd too, Y behind one; 48 timers of each entry due together.
 * Each pass that expires them adds 1 to X and 1 to Y, never 2 or 3 to X,
 * whichever of its wake-ups it had time for.
 */
TEST_F_TIMEOUT(efdcount, an_eventfd_counts_once_per_pass_in_every_role, 300)
{
	static struct hwtimer_op ops[144];
	int x = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
	int y = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
	__u64 at = t_now_ns(CLOCK_MONOTONIC) + 10 * MS, vx, vy;
	unsigned long long passes;
	__u32 i;

	ASSERT_LE(0, x);
	ASSERT_LE(0, y);
	ASSERT_EQ(0, set_file_eventfd(self->fd, x));
	for (i = 0; i < 144; i++)
		ops[i] = (struct hwtimer_op){
			.op = HWTIMER_OP_ADD, .clockid = CLOCK_MONOTONIC,
			.flags = HWTIMER_F_ABS | HWTIMER_F_EVENTFD,
			.eventfd = i / 48 == 1 ? y : x, .expires = at,
		};
	ASSERT_EQ(144, batch(self->fd, ops, 144));
	ASSERT_EQ(144, read_all(self->fd, 144));
	ASSERT_EQ(144, cancel_all(self->fd, 144));
	vx = take(x);
	vy = take(y);
	passes = passes_that_fired(self->fd);
	TH_LOG("%llu passes that fired, %llu wake-ups left to the worker: X %llu, Y %llu",
	       passes, t_fdinfo_u64(self->fd, "wakeups_handed_off"),
	       (unsigned long long)vx, (unsigned long long)vy);
	EXPECT_LE(1ULL, passes);
	EXPECT_EQ(passes, vx);
	/* Y's timers are all in the passes that expire any: each does some */
	EXPECT_LE(1ULL, vy);
	EXPECT_GE(passes, vy);
	close(x);
	close(y);
}

/*
 * Review G6: 64 timers due at once, on level 0 (deadlines already past
 * are due at the tick the wheel is in), added under one hold of the lock
 * (one BATCH chunk): the pass in the hrtimer's interrupt spends its budget
 * of 64 on exactly them, or (PREEMPT_RT) its look at the time after 64
 * units ends it. Nothing is left due, and no pass goes on to find nothing
 * (empty_wakeups). Whether the first pass takes all 64 is the host's to
 * say: once, on the debug kernel under multi-threaded TCG, a second pass
 * went on with some of them, which is allowed; one that finds none is not.
 */
TEST_F_TIMEOUT(efdcount, a_budget_spent_on_exactly_what_was_due_ends_the_run, 120)
{
	static struct hwtimer_op ops[64];
	__u64 now = t_now_ns(CLOCK_MONOTONIC);
	__u32 i;

	for (i = 0; i < 64; i++)
		ops[i] = (struct hwtimer_op){
			.op = HWTIMER_OP_ADD, .clockid = CLOCK_MONOTONIC,
			.flags = HWTIMER_F_ABS, .expires = now - MS,
		};
	ASSERT_EQ(64, batch(self->fd, ops, 64));
	ASSERT_EQ(64, read_all(self->fd, 64));
	TH_LOG("%llu passes: %llu woken, %llu continued, %llu handed off, %llu empty",
	       passes_that_fired(self->fd) + t_fdinfo_u64(self->fd, "empty_wakeups"),
	       t_fdinfo_u64(self->fd, "wakeups"), t_fdinfo_u64(self->fd, "continued"),
	       t_fdinfo_u64(self->fd, "handed_off"),
	       t_fdinfo_u64(self->fd, "empty_wakeups"));
	EXPECT_EQ(64ULL, t_fdinfo_u64(self->fd, "fired"));
	EXPECT_EQ(1ULL, t_fdinfo_u64(self->fd, "wakeups"));
	EXPECT_EQ(0ULL, t_fdinfo_u64(self->fd, "empty_wakeups"));
}

/* a busy loop per CPU, until told to stop */
struct hogs {
	atomic_int stop;
	int n;
	pthread_t t[64];
};

static void *hog(void *arg)
{
	struct hogs *h = arg;

	while (!atomic_load_explicit(&h->stop, memory_order_relaxed))
		;
	return NULL;
}

static int hogs_start(struct hogs *h)
{
	long cpus = sysconf(_SC_NPROCESSORS_ONLN);

	atomic_init(&h->stop, 0);
	for (h->n = 0; h->n < cpus && h->n < 64; h->n++)
		if (pthread_create(&h->t[h->n], NULL, hog, h))
			return -1;
	return 0;
}

static void hogs_stop(struct hogs *h)
{
	int i;

	atomic_store(&h->stop, 1);
	for (i = 0; i < h->n; i++)
		pthread_join(h->t[i], NULL);
}

/*
 * Review G3: eight NO_RECORD timers, periodic at 1 ms on one grid, each
 * with its own eventfd, which 500 epoll entries watch (dup()s in one epoll
 * instance), and a busy loop on every CPU: each pass does one slow
 * wake-up and leaves the others to the file's worker, which they keep
 * busy, so that passes leave an eventfd again while its last wake-up
 * waits. Once a hundred wake-ups were left, CANCEL (which waits for what
 * is left): each eventfd counts its timer's expiries, and together they
 * count every expiry of the file (fdinfo).
 */
TEST_F_TIMEOUT(efdcount, norecord_periodic_eventfds_count_every_expiry_when_busy, 600)
{
	enum { NEFD = 8, WATCHERS = 500, LEFT = 100 };
	struct rlimit rl = { NEFD * WATCHERS + 256, NEFD * WATCHERS + 256 };
	static struct hwtimer_op ops[NEFD];
	unsigned long long fired, left, sum = 0;
	int efd[NEFD], ep, i, k;
	__u64 v[NEFD], at;
	struct hogs h;

	if (geteuid())
		SKIP(return, "needs root for %d files", NEFD * WATCHERS);
	ASSERT_EQ(0, setrlimit(RLIMIT_NOFILE, &rl));
	ep = epoll_create1(EPOLL_CLOEXEC);
	ASSERT_LE(0, ep);
	for (i = 0; i < NEFD; i++) {
		efd[i] = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
		ASSERT_LE(0, efd[i]);
		for (k = 0; k < WATCHERS; k++) {
			struct epoll_event ev = { .events = EPOLLIN };
			int d = dup(efd[i]);

			ASSERT_LE(0, d);
			ASSERT_EQ(0, epoll_ctl(ep, EPOLL_CTL_ADD, d, &ev));
		}
	}
	at = t_now_ns(CLOCK_MONOTONIC) + 50 * MS;
	for (i = 0; i < NEFD; i++)
		ops[i] = (struct hwtimer_op){
			.op = HWTIMER_OP_ADD, .clockid = CLOCK_MONOTONIC,
			.flags = HWTIMER_F_ABS | HWTIMER_F_EVENTFD |
				 HWTIMER_F_NO_RECORD,
			.eventfd = efd[i], .expires = at, .period = MS,
		};
	ASSERT_EQ(0, hogs_start(&h));
	ASSERT_EQ(NEFD, batch(self->fd, ops, NEFD));
	for (k = 0; k < 20 * t_ms(1000) &&
	     t_fdinfo_u64(self->fd, "wakeups_handed_off") < LEFT; k++)
		usleep(1000);
	ASSERT_EQ(NEFD, cancel_all(self->fd, NEFD));
	hogs_stop(&h);
	fired = t_fdinfo_u64(self->fd, "fired");
	left = t_fdinfo_u64(self->fd, "wakeups_handed_off");
	for (i = 0; i < NEFD; i++) {
		v[i] = take(efd[i]);
		sum += v[i];
	}
#define COUNT_FMT	"%llu expiries, %llu wake-ups left to the worker; eventfds %llu %llu %llu %llu %llu %llu %llu %llu"
	TH_LOG(COUNT_FMT,
	       fired, left, (unsigned long long)v[0], (unsigned long long)v[1],
	       (unsigned long long)v[2], (unsigned long long)v[3],
	       (unsigned long long)v[4], (unsigned long long)v[5],
	       (unsigned long long)v[6], (unsigned long long)v[7]);
#undef COUNT_FMT
	EXPECT_LE((unsigned long long)LEFT, left);
	EXPECT_EQ(fired, sum);
	/* on one grid, the eight expire in the same passes */
	for (i = 0; i < NEFD; i++)
		EXPECT_EQ(fired / NEFD, v[i]);
	close(ep);
}

HWT_HARNESS_MAIN
