// SPDX-License-Identifier: GPL-2.0
/*
 * The wait of MOD and CANCEL for a run that signals eventfds (the uapi's
 * freshness promise) against real-time callers: a high-priority thread
 * that cancels a timer must not wait behind a lower-priority one that
 * preempted the run, whether the timer has no eventfd (nothing to wait for)
 * or one the run is signalling (the run is boosted, or cannot be
 * preempted while it signals). The trigger of review R1: a backlog of
 * 20,000 timers due at once, which the base's worker expires, the last of
 * them with eventfd E; a SCHED_FIFO 10 thread on the worker's CPU that
 * wakes on E and spins; and a SCHED_FIFO 50 thread on the other CPU that
 * wakes on E too and cancels. With full preemption (PREEMPT_RT, or
 * preempt=full) the cancel used to last as long as the spin. And the
 * bound on a pass's wake-ups, and whom they are charged to; and the bound
 * on the wake-ups a CANCEL does itself, and the worker's priority (F7).
 */
#define _GNU_SOURCE
#include <poll.h>
#include <pthread.h>
#include <sched.h>
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <sys/resource.h>

#include "kselftest_harness.h"
#include "helpers.h"

#define NTIMERS	20000
#define SPIN_MS	600	/* under RT throttling's 950 ms a second */

struct inv {
	int fd;			/* set, with @victim, before E can fire */
	int efd;		/* E */
	__u32 victim;		/* the timer the canceller cancels */
	__u64 cancel_ns;	/* how long its CANCEL took */
	__u64 cancel_end;	/* when it returned */
	__u64 spin_end;		/* when the hog stopped spinning */
	long cancel_ret;
};

static int pin_fifo(int cpu, int prio)
{
	struct sched_param sp = { .sched_priority = prio };

	if (t_pin_cpu(cpu))
		return -1;
	return prio ? pthread_setschedparam(pthread_self(), SCHED_FIFO, &sp) : 0;
}

static bool wait_for_e(struct inv *v)
{
	struct pollfd p = { .fd = v->efd, .events = POLLIN };

	return poll(&p, 1, -1) == 1 && v->fd >= 0;
}

/* on the worker's CPU, below the canceller: woken by E, then busy */
static void *hog(void *arg)
{
	struct inv *v = arg;
	__u64 t0;

	if (pin_fifo(0, 10) || !wait_for_e(v))
		return NULL;
	t0 = t_now_ns(CLOCK_MONOTONIC);
	while (t_now_ns(CLOCK_MONOTONIC) - t0 < SPIN_MS * MS)
		;
	v->spin_end = t_now_ns(CLOCK_MONOTONIC);
	return NULL;
}

/* on the other CPU: woken by E too, cancels at once */
static void *canceller(void *arg)
{
	struct inv *v = arg;
	struct hwtimer_op op = { 0 };
	__u64 t0;

	if (pin_fifo(1, 50) || !wait_for_e(v))
		return NULL;
	op.id = v->victim;
	t0 = t_now_ns(CLOCK_MONOTONIC);
	v->cancel_ret = t_ioctl(v->fd, HWTIMER_IOC_CANCEL, &op);
	v->cancel_end = t_now_ns(CLOCK_MONOTONIC);
	v->cancel_ns = v->cancel_end - t0;
	return NULL;
}

/*
 * Arm the backlog and, last, the timer with E, due 2 s ahead, on a file
 * with the victim in it. A machine too slow to arm them all in time gets
 * a new file and more time: E must not fire before the backlog is there.
 */
static bool arm_backlog(struct __test_metadata *_metadata, struct inv *v,
			bool victim_efd)
{
	__u64 margin, at;
	int fd, i;

	for (margin = 2 * SEC; margin <= 128 * SEC; margin *= 4) {
		fd = t_open();
		EXPECT_LE(0, fd);
		if (victim_efd) {
			EXPECT_EQ(0, t_add_efd(fd, 0, 3600 * SEC, 0, v->efd,
					       &v->victim));
		} else {
			EXPECT_EQ(0, t_add(fd, 0, CLOCK_MONOTONIC, 3600 * SEC,
					   0, 0, &v->victim));
		}
		at = t_now_ns(CLOCK_MONOTONIC) + margin;
		for (i = 0; i < NTIMERS; i++)
			EXPECT_EQ(0, t_add(fd, HWTIMER_F_ABS, CLOCK_MONOTONIC,
					   at, 0, 0, NULL));
		if (t_now_ns(CLOCK_MONOTONIC) + margin / 4 < at) {
			v->fd = fd;
			/* due with the rest, expired last */
			EXPECT_EQ(0, t_add_efd(fd, HWTIMER_F_ABS, at, 0,
					       v->efd, NULL));
			return true;
		}
		close(fd);
	}
	return false;
}

static void run_inversion(struct __test_metadata *_metadata, bool victim_efd)
{
	struct inv v = { .fd = -1, .cancel_ns = ~0ULL, .cancel_ret = -1 };
	pthread_t h, c;
	bool armed;

	if (geteuid())
		SKIP(return, "needs root for SCHED_FIFO");
	if (sysconf(_SC_NPROCESSORS_ONLN) < 2)
		SKIP(return, "needs two CPUs");
	v.efd = eventfd(0, EFD_CLOEXEC);
	ASSERT_LE(0, v.efd);
	ASSERT_EQ(0, pthread_create(&h, NULL, hog, &v));
	ASSERT_EQ(0, pthread_create(&c, NULL, canceller, &v));
	/* armed from CPU 0: the hrtimer, its runs and their worker are there */
	ASSERT_EQ(0, pin_fifo(0, 0));
	armed = arm_backlog(_metadata, &v, victim_efd);
	if (!armed)
		ASSERT_EQ(sizeof(__u64), write(v.efd, &(__u64){ 1 }, 8));
	pthread_join(c, NULL);
	pthread_join(h, NULL);
	if (!armed)
		SKIP(return, "could not arm %d timers within 128 s", NTIMERS);
	TH_LOG("CANCEL of a timer %s an eventfd took %.3f ms, beside a %d ms spin",
	       victim_efd ? "with" : "without", v.cancel_ns / 1e6, SPIN_MS);
	EXPECT_EQ(1, v.cancel_ret);
	/*
	 * A few ms under emulation. Inverted, it returned once the spin had
	 * ended: judged by that order, not by a duration that a host stall
	 * of the canceller's vCPU would stretch.
	 */
	EXPECT_GT(v.spin_end, v.cancel_end);
	close(v.efd);
	close(v.fd);
}

FIXTURE(signal) {};

FIXTURE_SETUP(signal)
{
	if (!hwt_device_present())
		SKIP(return, HWT_NO_DEVICE);
}

FIXTURE_TEARDOWN(signal) {}

/* the arming can take minutes on a loaded machine (arm_backlog()) */
TEST_F_TIMEOUT(signal, cancel_of_a_plain_timer_never_waits_for_a_run, 600)
{
	run_inversion(_metadata, false);
}

TEST_F_TIMEOUT(signal, cancel_waits_for_its_eventfd_without_inversion, 600)
{
	run_inversion(_metadata, true);
}

/* The file's counters of passes and wake-ups, from its fdinfo, into the log */
static void log_fdinfo(struct __test_metadata *_metadata, int fd)
{
	char path[64], line[256];
	FILE *f;

	snprintf(path, sizeof(path), "/proc/self/fdinfo/%d", fd);
	f = fopen(path, "re");
	while (f && fgets(line, sizeof(line), f))
		if (strstr(line, "pass") || strstr(line, "wake") ||
		    strstr(line, "continued") || strstr(line, "handed") ||
		    strstr(line, "deferred") || strstr(line, "fired"))
			TH_LOG("fdinfo %.*s", (int)strcspn(line, "\n"), line);
	if (f)
		fclose(f);
}

/*
 * @n eventfds (with @flags), each watched by @watchers epoll entries (dup()s
 * in one epoll instance), so that each wake-up is slow: the epoll instance,
 * or -1.
 */
static int watched_eventfds(int *efd, int n, int watchers, int flags)
{
	struct rlimit rl = { n * watchers + 256, n * watchers + 256 };
	int ep, i, k;

	if (setrlimit(RLIMIT_NOFILE, &rl))
		return -1;
	ep = epoll_create1(EPOLL_CLOEXEC);
	for (i = 0; ep >= 0 && i < n; i++) {
		efd[i] = eventfd(0, EFD_CLOEXEC | flags);
		if (efd[i] < 0)
			return -1;
		for (k = 0; k < watchers; k++) {
			struct epoll_event ev = { .events = EPOLLIN };
			int d = dup(efd[i]);

			if (d < 0 || epoll_ctl(ep, EPOLL_CTL_ADD, d, &ev))
				return -1;
		}
	}
	return ep;
}

/*
 * A pass's wake-ups are bounded by time, not only by count (review R5):
 * eight timers due at once, each with an eventfd that 500 epoll entries
 * watch (dup()s in one epoll instance), so that one wake-up takes longer
 * than a pass may run. The pass does the first (a hard one, the first
 * two) and leaves the rest to the file's worker, which fdinfo counts; every
 * eventfd is signalled once. The debug guest's sched clock is unstable,
 * where local_clock() would stop during the pass (hwt_cpu_clock()).
 * The eight go in with one BATCH, under one hold of the file's lock, so
 * that one pass expires them whatever the host stalls: added one at a
 * time, a stall past their deadline would split them across passes.
 */
TEST_F_TIMEOUT(signal, a_pass_leaves_slow_wakeups_to_the_worker, 300)
{
	enum { NEFD = 8, WATCHERS = 500 };
	struct hwtimer_op op[NEFD];
	struct hwtimer_batch b = {
		.ops = (uintptr_t)op, .count = NEFD, .op_size = sizeof(op[0]),
	};
	int efd[NEFD], ep, fd, i;
	unsigned long long left;
	__u64 at, v;

	if (geteuid())
		SKIP(return, "needs root for %d files", NEFD * WATCHERS);
	ep = watched_eventfds(efd, NEFD, WATCHERS, 0);
	ASSERT_LE(0, ep);
	fd = t_open();
	ASSERT_LE(0, fd);
	at = t_now_ns(CLOCK_MONOTONIC) + 100 * MS;
	for (i = 0; i < NEFD; i++)
		op[i] = (struct hwtimer_op){
			.op = HWTIMER_OP_ADD, .clockid = CLOCK_MONOTONIC,
			.flags = HWTIMER_F_ABS | HWTIMER_F_NO_RECORD |
				 HWTIMER_F_AUTOREMOVE | HWTIMER_F_EVENTFD,
			.expires = at, .eventfd = efd[i],
		};
	ASSERT_EQ(NEFD, t_ioctl(fd, HWTIMER_IOC_BATCH, &b));
	for (i = 0; i < NEFD; i++)
		ASSERT_EQ(0, op[i].result);
	for (i = 0; i < NEFD; i++) {
		/* blocks until signalled: the harness's timeout bounds it */
		ASSERT_EQ(sizeof(v), read(efd[i], &v, sizeof(v)));
		EXPECT_EQ(1, v);
	}
	left = t_fdinfo_u64(fd, "wakeups_handed_off");
	TH_LOG("%d eventfds of %d waiters each: %llu wake-ups handed off",
	       NEFD, WATCHERS, left);
	EXPECT_LE(1ULL, left);
	EXPECT_GE((unsigned long long)NEFD - 1, left);
	if (_metadata->exit_code == KSFT_FAIL)
		log_fdinfo(_metadata, fd);
	close(fd);
	close(ep);
}

#define WQ_START	TRACEFS "/events/workqueue/workqueue_execute_start/"

/*
 * The file's wake-up worker's runs in the trace: how many, and how many of
 * them on a nice -20 worker (kworker/N:MH).
 */
static void worker_runs(unsigned int *runs, unsigned int *highpri)
{
	char line[512];
	FILE *f = fopen(TRACEFS "/trace", "r");

	*runs = *highpri = 0;
	while (f && fgets(line, sizeof(line), f)) {
		char *comm = line + strspn(line, " "), *dash;

		if (!strstr(line, "function hwt_signals_left"))
			continue;
		(*runs)++;
		dash = strchr(comm, '-');
		if (dash && dash > comm && dash[-1] == 'H' &&
		    !strncmp(comm, "kworker/", 8))
			(*highpri)++;
	}
	if (f)
		fclose(f);
}

/*
 * Review F7: the wake-ups passes leave are done in bounded flushes, by a
 * normal-priority worker. Eight NO_RECORD timers, each with an eventfd
 * that 1,000 epoll entries watch, all periodic at 1 ms on one grid: each
 * pass does one slow wake-up and leaves the others, as fast as they can be
 * done or faster. A CANCEL of one of them, which waits for the wake-ups
 * left before it, returns though passes keep leaving more (it used to
 * flush until none were left); and the worker that does them is not a
 * nice -20 one.
 */
TEST_F_TIMEOUT(signal, a_cancel_waits_only_for_the_wakeups_left_before_it, 300)
{
	enum { NEFD = 8, WATCHERS = 1000 };
	unsigned int runs, highpri;
	struct hwtimer_drain dr = { 0 };
	int efd[NEFD], ep, fd, i, k, traced;
	__u32 id[NEFD];
	__u64 at, t0;

	if (geteuid())
		SKIP(return, "needs root for %d files", NEFD * WATCHERS);
	ep = watched_eventfds(efd, NEFD, WATCHERS, EFD_NONBLOCK);
	ASSERT_LE(0, ep);
	traced = !access(WQ_START "enable", W_OK) &&
		 !t_write_file(TRACEFS "/trace", "") &&
		 !t_write_file(WQ_START "enable", "1");
	fd = t_open();
	ASSERT_LE(0, fd);
	at = t_now_ns(CLOCK_MONOTONIC) + 50 * MS;
	for (i = 0; i < NEFD; i++)
		ASSERT_EQ(0, t_add_efd(fd, HWTIMER_F_ABS | HWTIMER_F_NO_RECORD,
				       at, MS, efd[i], &id[i]));
	/* until the passes leave wake-ups to the worker */
	for (k = 0; k < 20000 && t_fdinfo_u64(fd, "wakeups_handed_off") < 50; k++)
		usleep(1000);
	/* the last of a pass's timers, whose wake-up is the likeliest left */
	t0 = t_now_ns(CLOCK_MONOTONIC);
	EXPECT_EQ(1, t_cancel(fd, id[NEFD - 1]));
	TH_LOG("the CANCEL took %.1f ms, %llu wake-ups handed off so far",
	       (t_now_ns(CLOCK_MONOTONIC) - t0) / 1e6,
	       t_fdinfo_u64(fd, "wakeups_handed_off"));
	EXPECT_EQ(0, t_ioctl(fd, HWTIMER_IOC_DRAIN, &dr));
	EXPECT_EQ(0U, dr.remaining);
	if (traced) {
		t_write_file(WQ_START "enable", "0");
		worker_runs(&runs, &highpri);
		TH_LOG("the wake-up worker ran %u times, %u of them at nice -20",
		       runs, highpri);
		EXPECT_LE(1U, runs);
		EXPECT_EQ(0U, highpri);
	}
	close(fd);
	close(ep);
}

static __u64 cpu_ns(int who)
{
	struct rusage ru;

	getrusage(who, &ru);
	return (ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) * SEC +
	       (ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) * 1000ULL;
}

/*
 * Review S2, suspected: the CPU that eventfd wake-ups cost is charged to
 * nobody. Confirmed, and kept, as timerfd's expiry wakes its waiters from
 * a hard interrupt (dev_signal.c says why): an eventfd that 1,000 epoll
 * entries watch costs the test C per write() it does itself, charged to
 * it; signalled by a periodic timer while the test sleeps, its wake-ups
 * cost the test nothing, though they cost the kernel C each.
 */
TEST_F_TIMEOUT(signal, wakeups_of_a_timer_are_not_charged_to_its_owner, 300)
{
	enum { WATCHERS = 1000, WRITES = 200 };
	__u64 t0, per_wakeup, owner, n, one = 1;
	int efd, ep, fd, k;
	__u32 id;

	if (geteuid())
		SKIP(return, "needs root for %d files", WATCHERS);
	ep = watched_eventfds(&efd, 1, WATCHERS, EFD_NONBLOCK);
	ASSERT_LE(0, ep);
	t0 = cpu_ns(RUSAGE_THREAD);
	for (k = 0; k < WRITES; k++)
		ASSERT_EQ(sizeof(one), write(efd, &one, sizeof(one)));
	per_wakeup = (cpu_ns(RUSAGE_THREAD) - t0) / WRITES;
	ASSERT_EQ(sizeof(n), read(efd, &n, sizeof(n)));

	fd = t_open();
	ASSERT_LE(0, fd);
	t0 = cpu_ns(RUSAGE_SELF);
	ASSERT_EQ(0, t_add_efd(fd, HWTIMER_F_NO_RECORD, 2 * MS, 2 * MS, efd,
			       &id));
	usleep(500 * 1000);
	ASSERT_EQ(1, t_cancel(fd, id));
	owner = cpu_ns(RUSAGE_SELF) - t0;
	ASSERT_EQ(sizeof(n), read(efd, &n, sizeof(n)));
#define WAKEUPS_FMT	"%llu wake-ups of %d waiters, %llu us each when written: the owner was charged %llu us"
	TH_LOG(WAKEUPS_FMT,
	       (unsigned long long)n, WATCHERS,
	       (unsigned long long)per_wakeup / 1000,
	       (unsigned long long)owner / 1000);
#undef WAKEUPS_FMT
	EXPECT_LE(20ULL, n);
	EXPECT_GT(n * per_wakeup / 4, owner);
	close(fd);
	close(ep);
}

HWT_HARNESS_MAIN
