// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit suite for the in-kernel API and its per-CPU bases (kbase.c), on
 * the real hrtimer and clocks. It uses only the exported API of hwtimer.ko.
 *
 * Time in a TCG guest is emulated and a debug kernel is slow, so lateness is
 * only bounded generously here; "never early" is checked strictly. Exact
 * lateness and overrun arithmetic are in the fake-clock suite (hwtimer_wheel).
 */
#include <kunit/test.h>
#include <linux/atomic.h>
#include <linux/completion.h>
#include <linux/cpumask.h>
#include <linux/delay.h>
#include <linux/hwtimer.h>
#include <linux/mm.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/timekeeping.h>

#include "api_test.h"

#define MAX_LATE	(2 * SEC)	/* generous: emulated time, debug kernel */

/* new_probes() flag: a struct hwtimer_sleepable */
#define PROBE_SLEEPABLE	0x10000

struct probe {
	union {
		struct hwtimer t;
		struct hwtimer_sleepable st;	/* st.timer is t */
	};
	atomic_t fires;
	atomic_t early;
	u64 deadline;		/* of the last fire */
	u64 fired_at;		/* clock read in the last callback */
	u64 fired;		/* hwtimer_fired() in the last callback */
	/* for the tests that look inside a running callback */
	unsigned int delay_ms;
	atomic_t entered;
	atomic_t done;
	bool in_task;
	/* for periodic tests: stall fire number stall_at (1-based) */
	unsigned int stall_at;
	unsigned int stop_after;
	u64 deadlines[16];
	u64 fire_times[16];
	u64 overruns[16];
	/* the callback waits (up to 10 s) until this is set */
	atomic_t *hold;
};

static void probe_fn(struct hwtimer *t)
{
	struct probe *p = container_of(t, struct probe, t);
	u64 now = hwtimer_now(t);
	unsigned int n = atomic_read(&p->fires);

	if (now < hwtimer_expires(t) || hwtimer_fired(t) < hwtimer_expires(t))
		atomic_inc(&p->early);
	p->deadline = hwtimer_expires(t);
	p->fired_at = now;
	p->fired = hwtimer_fired(t);
	p->in_task = in_task();
	if (n < ARRAY_SIZE(p->deadlines)) {
		p->deadlines[n] = hwtimer_expires(t);
		p->fire_times[n] = hwtimer_fired(t);
		p->overruns[n] = hwtimer_overruns(t);
	}
	atomic_inc(&p->entered);
	if (p->stall_at && n + 1 == p->stall_at)
		spin_ms(35);
	if (p->delay_ms) {
		if (in_task())
			msleep(p->delay_ms);
		else
			spin_ms(p->delay_ms);
	}
	if (p->hold)
		spin_until(p->hold, 1, 10000);
	if (p->stop_after && n + 1 >= p->stop_after)
		hwtimer_cancel(t);
	atomic_inc(&p->done);
	atomic_inc(&p->fires);
}

static struct probe *new_probes(struct kunit *test, unsigned int n,
				unsigned int flags)
{
	struct probe *p = kunit_kcalloc(test, n, sizeof(*p), GFP_KERNEL);
	unsigned int i;

	KUNIT_ASSERT_NOT_NULL(test, p);
	for (i = 0; i < n; i++) {
		if (flags & PROBE_SLEEPABLE)
			hwtimer_init_sleepable(&p[i].st, probe_fn,
					       flags & ~PROBE_SLEEPABLE);
		else
			hwtimer_init(&p[i].t, probe_fn, flags);
	}
	return p;
}

static void stop_probes(struct probe *p, unsigned int n)
{
	unsigned int i;

	for (i = 0; i < n; i++)
		hwtimer_cancel_sync(&p[i].t);
}

static unsigned int total_fires(struct probe *p, unsigned int n)
{
	unsigned int i, sum = 0;

	for (i = 0; i < n; i++)
		sum += atomic_read(&p[i].fires);
	return sum;
}

static void check_clock_never_early(struct kunit *test, unsigned int clock)
{
	const unsigned int n = 64;
	struct probe *p = new_probes(test, n, clock);
	unsigned int i;

	for (i = 0; i < n; i++) {
		u64 delay = i * 617 * 1000ULL;	/* 0 .. 39 ms */

		if (i & 1)
			KUNIT_EXPECT_EQ(test, hwtimer_start(&p[i].t,
							    hwtimer_now(&p[i].t) + delay,
							    0, HWTIMER_ABS), 0);
		else
			KUNIT_EXPECT_EQ(test, hwtimer_start(&p[i].t, delay, 0,
							    HWTIMER_REL), 0);
	}
	KUNIT_EXPECT_TRUE(test, wait_until(total_fires(p, n) == n, 20000));
	msleep(20);
	for (i = 0; i < n; i++) {
		KUNIT_EXPECT_EQ_MSG(test, atomic_read(&p[i].fires), 1,
				    "clock %u timer %u", clock, i);
		KUNIT_EXPECT_EQ(test, atomic_read(&p[i].early), 0);
		KUNIT_EXPECT_GE(test, p[i].fired_at, p[i].deadline);
		KUNIT_EXPECT_LT(test, p[i].fired_at - p[i].deadline, MAX_LATE);
		KUNIT_EXPECT_FALSE(test, hwtimer_pending(&p[i].t));
	}
	stop_probes(p, n);
}

static void kbase_never_early_monotonic(struct kunit *test)
{
	check_clock_never_early(test, HWTIMER_MONOTONIC);
}

static void kbase_never_early_boottime(struct kunit *test)
{
	check_clock_never_early(test, HWTIMER_BOOTTIME);
}

static void kbase_never_early_realtime(struct kunit *test)
{
	check_clock_never_early(test, HWTIMER_REALTIME);
}

static void kbase_cancel_reports_pending(struct kunit *test)
{
	struct probe *p = new_probes(test, 1, 0);

	KUNIT_EXPECT_FALSE(test, hwtimer_cancel(&p->t));
	/* a second away: pending whatever the host stalls */
	KUNIT_EXPECT_EQ(test, hwtimer_start(&p->t, SEC, 0, HWTIMER_REL), 0);
	KUNIT_EXPECT_TRUE(test, hwtimer_pending(&p->t));
	KUNIT_EXPECT_TRUE(test, hwtimer_cancel(&p->t));
	KUNIT_EXPECT_FALSE(test, hwtimer_pending(&p->t));
	KUNIT_EXPECT_FALSE(test, hwtimer_cancel(&p->t));
	msleep(80);
	KUNIT_EXPECT_EQ(test, atomic_read(&p->fires), 0);
	stop_probes(p, 1);
}

static void kbase_modify_moves_deadline(struct kunit *test)
{
	struct probe *p = new_probes(test, 1, 0);
	u64 start = hwtimer_now(&p->t);

	KUNIT_EXPECT_EQ(test, hwtimer_start(&p->t, 10 * SEC, 0, HWTIMER_REL), 0);
	/* earlier */
	KUNIT_EXPECT_EQ(test, hwtimer_modify(&p->t, 20 * MS, HWTIMER_REL), 1);
	KUNIT_EXPECT_TRUE(test, wait_until(atomic_read(&p->fires) == 1, 10000));
	KUNIT_EXPECT_GE(test, p->fired_at, start + 20 * MS);
	KUNIT_EXPECT_LT(test, p->fired_at, start + 10 * SEC);
	/* later; far enough that a host stall does not fire it first */
	KUNIT_EXPECT_EQ(test, hwtimer_start(&p->t, 500 * MS, 0, HWTIMER_REL), 0);
	KUNIT_EXPECT_EQ(test, hwtimer_modify(&p->t, 600 * MS, HWTIMER_REL), 1);
	start = hwtimer_now(&p->t);
	KUNIT_EXPECT_TRUE(test, wait_until(atomic_read(&p->fires) == 2, 10000));
	KUNIT_EXPECT_GE(test, p->fired_at + 600 * MS, start);
	KUNIT_EXPECT_EQ(test, atomic_read(&p->early), 0);
	stop_probes(p, 1);
}

static void kbase_modify_conditions(struct kunit *test)
{
	struct probe *p = new_probes(test, 1, 0);
	u64 deadline;

	/* IF_PENDING does not arm an idle timer */
	KUNIT_EXPECT_EQ(test, hwtimer_modify(&p->t, MS, HWTIMER_IF_PENDING), 0);
	KUNIT_EXPECT_FALSE(test, hwtimer_pending(&p->t));
	/* IF_IDLE arms an idle timer, and leaves a pending one */
	KUNIT_EXPECT_EQ(test, hwtimer_start(&p->t, 5 * SEC, 0, HWTIMER_IF_IDLE), 0);
	deadline = hwtimer_expires(&p->t);
	KUNIT_EXPECT_EQ(test, hwtimer_start(&p->t, SEC, 0, HWTIMER_IF_IDLE), 1);
	KUNIT_EXPECT_EQ(test, hwtimer_expires(&p->t), deadline);
	/* IF_EARLIER ignores a later deadline and takes an earlier one */
	KUNIT_EXPECT_EQ(test, hwtimer_modify(&p->t, 9 * SEC, HWTIMER_IF_EARLIER), 1);
	KUNIT_EXPECT_EQ(test, hwtimer_expires(&p->t), deadline);
	KUNIT_EXPECT_EQ(test, hwtimer_modify(&p->t, SEC, HWTIMER_IF_EARLIER), 1);
	KUNIT_EXPECT_LT(test, hwtimer_expires(&p->t), deadline);
	stop_probes(p, 1);
}

static void kbase_rejects_bad_arguments(struct kunit *test)
{
	struct probe *p = new_probes(test, 1, 0);

	KUNIT_EXPECT_EQ(test, hwtimer_start(&p->t, MS, 0, 0x100), -EINVAL);
	KUNIT_EXPECT_EQ(test, hwtimer_start(&p->t, MS, 0,
					    HWTIMER_IF_EARLIER | HWTIMER_IF_IDLE), -EINVAL);
	KUNIT_EXPECT_EQ(test, hwtimer_start(&p->t, U64_MAX, 0, HWTIMER_REL), -ERANGE);
	KUNIT_EXPECT_EQ(test, hwtimer_start(&p->t, U64_MAX, 0, HWTIMER_ABS), -ERANGE);
	KUNIT_EXPECT_EQ(test, hwtimer_start(&p->t, MS, U64_MAX, HWTIMER_REL), -ERANGE);
	KUNIT_EXPECT_FALSE(test, hwtimer_pending(&p->t));
	/* a year is fine */
	KUNIT_EXPECT_EQ(test, hwtimer_start(&p->t, 365 * 24 * 3600 * SEC, 0,
					    HWTIMER_REL), 0);
	stop_probes(p, 1);
}

static void kbase_past_deadline_fires_at_once(struct kunit *test)
{
	struct probe *p = new_probes(test, 1, 0);
	u64 now = hwtimer_now(&p->t);

	/* a second ago, or boot if that was sooner (UML gets here in 1 s) */
	KUNIT_EXPECT_EQ(test, hwtimer_start(&p->t, now - min(now, SEC), 0,
					    HWTIMER_ABS), 0);
	/* the deadline becomes the time of arming */
	KUNIT_EXPECT_GE(test, hwtimer_expires(&p->t), now);
	KUNIT_EXPECT_TRUE(test, wait_until(atomic_read(&p->fires) == 1, 10000));
	KUNIT_EXPECT_EQ(test, atomic_read(&p->early), 0);
	stop_probes(p, 1);
}

/*
 * A periodic timer whose first deadline has passed fires at once, and its
 * grid starts at the time it was armed: no period counts as missed.
 */
static void kbase_past_first_deadline_starts_the_grid(struct kunit *test)
{
	struct probe *p = new_probes(test, 1, 0);
	const u64 period = 10 * MS;
	u64 now = hwtimer_now(&p->t), first;
	unsigned int i;

	p->stop_after = 4;
	KUNIT_EXPECT_EQ(test, hwtimer_start(&p->t, now - 25 * MS, period,
					    HWTIMER_ABS), 0);
	KUNIT_EXPECT_TRUE(test, wait_until(atomic_read(&p->fires) == 4, 10000));
	KUNIT_EXPECT_EQ(test, atomic_read(&p->early), 0);
	/* the time it was armed at, not the deadline asked for */
	first = p->deadlines[0];
	KUNIT_EXPECT_GE(test, first, now);
	KUNIT_EXPECT_EQ(test, p->overruns[0], 0ULL);
	for (i = 1; i < 4; i++)
		KUNIT_EXPECT_EQ_MSG(test, (p->deadlines[i] - first) % period,
				    0ULL, "fire %u", i);
	stop_probes(p, 1);
}

/*
 * A sleepable timer that fired while its callback still runs has its next
 * callback queued: hwtimer_pending() says so, and so does the 1 that
 * hwtimer_start() returns for it, whose new arming replaces the queued
 * run, as mod_delayed_work() replaces pending work: one callback follows
 * a return of 1, not two.
 */
static void kbase_queued_callback_counts_as_pending(struct kunit *test)
{
	struct probe *p = new_probes(test, 1, PROBE_SLEEPABLE);
	struct hwtimer_sleepable *st = &p->st;
	atomic_t release = ATOMIC_INIT(0);
	u64 fired;

	if (num_online_cpus() < 2)
		kunit_skip(test, "needs two CPUs: the callback holds one");
	p->hold = &release;
	KUNIT_EXPECT_EQ(test, hwtimer_start(&p->t, MS, 0, HWTIMER_REL), 0);
	KUNIT_ASSERT_TRUE(test, wait_until(atomic_read(&p->entered) == 1, 10000));
	/* the callback holds its worker: the next expiry queues another run */
	fired = READ_ONCE(st->fired);
	KUNIT_EXPECT_EQ(test, hwtimer_start(&p->t, MS, 0, HWTIMER_REL), 0);
	KUNIT_ASSERT_TRUE(test, wait_until(READ_ONCE(st->fired) != fired, 10000));
	KUNIT_EXPECT_TRUE(test, hwtimer_pending(&p->t));
	/* a kick leaves it alone: the queued callback is due already */
	KUNIT_EXPECT_EQ(test, hwtimer_start(&p->t, 3600 * SEC, 0,
					    HWTIMER_REL | HWTIMER_IF_EARLIER), 1);
	KUNIT_EXPECT_EQ(test, hwtimer_start(&p->t, 3600 * SEC, 0,
					    HWTIMER_REL), 1);
	atomic_set(&release, 1);
	KUNIT_ASSERT_TRUE(test, wait_until(atomic_read(&p->done) == 1, 10000));
	msleep(50);
	/* the queued run went with the re-arm; the new arming waits */
	KUNIT_EXPECT_EQ(test, atomic_read(&p->fires), 1);
	KUNIT_EXPECT_TRUE(test, hwtimer_pending(&p->t));
	KUNIT_EXPECT_TRUE(test, hwtimer_cancel(&p->t));
	KUNIT_EXPECT_FALSE(test, hwtimer_pending(&p->t));
	stop_probes(p, 1);
	KUNIT_EXPECT_EQ(test, atomic_read(&p->fires), 1);
}

static void rearm_fn(struct hwtimer *t)
{
	struct probe *p = container_of(t, struct probe, t);

	if (atomic_inc_return(&p->fires) < 5)
		hwtimer_start(t, MS, 0, HWTIMER_REL);
}

static void kbase_callback_rearms_itself(struct kunit *test)
{
	struct probe *p = kunit_kzalloc(test, sizeof(*p), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, p);
	hwtimer_init(&p->t, rearm_fn, 0);
	KUNIT_EXPECT_EQ(test, hwtimer_start(&p->t, MS, 0, HWTIMER_REL), 0);
	KUNIT_EXPECT_TRUE(test, wait_until(atomic_read(&p->fires) == 5, 10000));
	msleep(30);
	KUNIT_EXPECT_EQ(test, atomic_read(&p->fires), 5);
	KUNIT_EXPECT_FALSE(test, hwtimer_pending(&p->t));
	hwtimer_cancel_sync(&p->t);
}

static void check_cancel_sync_waits(struct kunit *test, unsigned int flags)
{
	struct probe *p = new_probes(test, 1, flags);

	p->delay_ms = 50;
	KUNIT_EXPECT_EQ(test, hwtimer_start(&p->t, MS, 0, HWTIMER_REL), 0);
	KUNIT_ASSERT_TRUE(test, wait_until(atomic_read(&p->entered), 10000));
	/* the callback is running, so the timer is no longer pending */
	KUNIT_EXPECT_FALSE(test, hwtimer_cancel_sync(&p->t));
	KUNIT_EXPECT_EQ(test, atomic_read(&p->done), 1);
}

static void kbase_cancel_sync_waits_for_callback(struct kunit *test)
{
	check_cancel_sync_waits(test, 0);
}

static void kbase_sleepable_callback_may_sleep(struct kunit *test)
{
	struct probe *p = new_probes(test, 1, PROBE_SLEEPABLE);

	p->delay_ms = 5;	/* msleep() */
	KUNIT_EXPECT_EQ(test, hwtimer_start(&p->t, 2 * MS, 0, HWTIMER_REL), 0);
	KUNIT_EXPECT_TRUE(test, wait_until(atomic_read(&p->fires) == 1, 10000));
	KUNIT_EXPECT_TRUE(test, p->in_task);
	KUNIT_EXPECT_EQ(test, atomic_read(&p->early), 0);
	stop_probes(p, 1);
	check_cancel_sync_waits(test, PROBE_SLEEPABLE);
}

static void kbase_shutdown_stops_for_good(struct kunit *test)
{
	struct probe *p = new_probes(test, 1, 0);
	int fires;

	KUNIT_EXPECT_EQ(test, hwtimer_start(&p->t, MS, 5 * MS, HWTIMER_REL), 0);
	KUNIT_EXPECT_TRUE(test, wait_until(atomic_read(&p->fires) >= 3, 10000));
	hwtimer_shutdown_sync(&p->t);
	fires = atomic_read(&p->fires);
	KUNIT_EXPECT_FALSE(test, hwtimer_pending(&p->t));
	KUNIT_EXPECT_EQ(test, hwtimer_start(&p->t, MS, 0, HWTIMER_REL), -ESHUTDOWN);
	KUNIT_EXPECT_EQ(test, hwtimer_modify(&p->t, MS, HWTIMER_REL), -ESHUTDOWN);
	msleep(40);
	KUNIT_EXPECT_EQ(test, atomic_read(&p->fires), fires);
}

static void kbase_fixed_rate_stays_on_grid(struct kunit *test)
{
	struct probe *p = new_probes(test, 1, 0);
	const u64 period = 10 * MS;
	unsigned int i;

	p->stop_after = 8;
	p->stall_at = 3;	/* the third callback takes 3.5 periods */
	KUNIT_EXPECT_EQ(test, hwtimer_start(&p->t, period, period, HWTIMER_REL), 0);
	KUNIT_EXPECT_TRUE(test, wait_until(atomic_read(&p->fires) == 8, 10000));
	msleep(30);
	KUNIT_EXPECT_EQ(test, atomic_read(&p->fires), 8);
	KUNIT_EXPECT_EQ(test, atomic_read(&p->early), 0);
	for (i = 1; i < 8; i++) {
		u64 step = p->deadlines[i] - p->deadlines[i - 1];

		KUNIT_EXPECT_EQ_MSG(test, step % period, 0ULL, "fire %u", i);
		/* a step of k periods means k - 1 were missed, never replayed */
		KUNIT_EXPECT_EQ_MSG(test, step / period - 1, p->overruns[i],
				    "fire %u", i);
	}
	/* the 35 ms stall cost at least 3 whole periods */
	for (i = 0; i < 8 && p->overruns[i] < 3; i++)
		;
	KUNIT_EXPECT_LT(test, i, 8U);
	stop_probes(p, 1);
}

static void kbase_fixed_delay_counts_from_fire(struct kunit *test)
{
	struct probe *p = new_probes(test, 1, HWTIMER_FIXED_DELAY);
	const u64 period = 7 * MS;
	unsigned int i;

	p->stop_after = 6;
	KUNIT_EXPECT_EQ(test, hwtimer_start(&p->t, period, period, HWTIMER_REL), 0);
	KUNIT_EXPECT_TRUE(test, wait_until(atomic_read(&p->fires) == 6, 10000));
	for (i = 1; i < 6; i++) {
		if (p->overruns[i])
			continue;	/* the guest stalled a whole period */
		KUNIT_EXPECT_EQ_MSG(test, p->deadlines[i],
				    p->fire_times[i - 1] + period, "fire %u", i);
	}
	KUNIT_EXPECT_EQ(test, atomic_read(&p->early), 0);
	stop_probes(p, 1);
}

static void kbase_burst_in_one_tick(struct kunit *test)
{
	const unsigned int n = 20000;
	struct probe *p = kvcalloc(n, sizeof(*p), GFP_KERNEL);
	unsigned int i, early = 0, twice = 0;
	u64 start, deadline, arming, max_late;

	KUNIT_ASSERT_NOT_NULL(test, p);
	for (i = 0; i < n; i++)
		hwtimer_init(&p[i].t, probe_fn, 0);
	start = hwtimer_now(&p[0].t);
	deadline = start + 100 * MS;
	for (i = 0; i < n; i++)
		KUNIT_EXPECT_EQ(test, hwtimer_start(&p[i].t, deadline, 0,
						    HWTIMER_ABS), 0);
	/*
	 * The last of them fires after n expiries, each about an arming's
	 * work (the last came 1.5-2.6x the arming's time late in debug
	 * guests, idle and beside two CPU-bound jobs): the bound grows with
	 * what arming them took on this machine, as busy as it is now.
	 */
	arming = hwtimer_now(&p[0].t) - start;
	max_late = MAX_LATE + 8 * arming;
	KUNIT_EXPECT_TRUE(test, wait_until(total_fires(p, n) == n, 60000));
	for (i = 0; i < n; i++) {
		early += atomic_read(&p[i].early);
		twice += atomic_read(&p[i].fires) != 1;
		/* one fire time for the whole batch it fired in */
		KUNIT_EXPECT_LT_MSG(test, p[i].fired - deadline, max_late,
				    "arming %u took %llu ns", n, arming);
	}
	KUNIT_EXPECT_EQ(test, early, 0U);
	KUNIT_EXPECT_EQ(test, twice, 0U);
	stop_probes(p, n);
	kvfree(p);
}

/* Step CLOCK_REALTIME by @delta ns, from process context. */
static int step_realtime(s64 delta)
{
	struct timespec64 ts;

	ktime_get_real_ts64(&ts);
	ts = timespec64_add(ts, ns_to_timespec64(delta));
	return do_settimeofday64(&ts);
}

/*
 * A run drops the base's lock around each callback. If CLOCK_REALTIME is
 * set back while one runs, the timers after it in the same run are no
 * longer due on the clock as it is: the run must not fire them with the
 * time it started at. The first callback holds the run until the test,
 * on another CPU, has stepped the clock back 10 s; the test checks that
 * the second timer waits, and steps the clock forward again.
 */
static void kbase_realtime_set_back_mid_run_not_early(struct kunit *test)
{
	unsigned int cpu = cpumask_first(cpu_online_mask);
	unsigned int other = cpumask_next(cpu, cpu_online_mask);
	/* static: a failed assertion must not leave the callback a dead stack */
	static atomic_t stepped;
	struct probe *p;
	u64 deadline, set_back_at;

	if (other >= nr_cpu_ids)
		kunit_skip(test, "needs two CPUs: the callback holds one");
	/*
	 * The timers are armed from @cpu, so they go to @cpu's base, whose
	 * hrtimer runs there; this thread then steps the clock from @other.
	 */
	KUNIT_ASSERT_EQ(test, set_cpus_allowed_ptr(current, cpumask_of(cpu)), 0);
	p = new_probes(test, 2, HWTIMER_REALTIME);
	atomic_set(&stepped, 0);
	p[0].hold = &stepped;
	/* a second ahead: no host stall lets @p[0] fire before @p[1] is armed */
	deadline = hwtimer_now(&p[0].t) + SEC;
	/* both due at once, @p[0] first in the run */
	KUNIT_ASSERT_EQ(test, hwtimer_start(&p[0].t, deadline, 0, HWTIMER_ABS), 0);
	KUNIT_ASSERT_EQ(test, hwtimer_start(&p[1].t, deadline, 0, HWTIMER_ABS), 0);
	KUNIT_ASSERT_EQ(test, set_cpus_allowed_ptr(current, cpumask_of(other)), 0);
	/*
	 * Spin, do not sleep: with timer migration, the timer of a sleep here
	 * may be expired by the CPU the callback holds.
	 */
	KUNIT_ASSERT_TRUE(test, spin_until(&p[0].entered, 1, 20000));
	KUNIT_ASSERT_EQ(test, step_realtime(-10 * (s64)SEC), 0);
	set_back_at = hwtimer_now(&p[1].t);
	atomic_set(&stepped, 1);
	KUNIT_EXPECT_TRUE(test, wait_until(atomic_read(&p[0].done), 20000));
	msleep(200);
	KUNIT_EXPECT_EQ_MSG(test, atomic_read(&p[1].fires), 0,
			    "deadline %llu, set back to %llu, fired at %llu (now %llu)",
			    deadline, set_back_at, p[1].fired_at,
			    hwtimer_now(&p[1].t));
	KUNIT_EXPECT_TRUE(test, hwtimer_pending(&p[1].t));
	KUNIT_ASSERT_EQ(test, step_realtime(10 * (s64)SEC), 0);
	KUNIT_EXPECT_TRUE(test, wait_until(atomic_read(&p[1].fires) == 1, 20000));
	KUNIT_EXPECT_EQ(test, atomic_read(&p[0].early), 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&p[1].early), 0);
	stop_probes(p, 2);
	set_cpus_allowed_ptr(current, cpu_possible_mask);
}

static struct kunit_case hwtimer_kbase_cases[] = {
	KUNIT_CASE(kbase_never_early_monotonic),
	KUNIT_CASE(kbase_never_early_boottime),
	KUNIT_CASE(kbase_never_early_realtime),
	KUNIT_CASE(kbase_cancel_reports_pending),
	KUNIT_CASE(kbase_modify_moves_deadline),
	KUNIT_CASE(kbase_modify_conditions),
	KUNIT_CASE(kbase_rejects_bad_arguments),
	KUNIT_CASE(kbase_past_deadline_fires_at_once),
	KUNIT_CASE(kbase_past_first_deadline_starts_the_grid),
	KUNIT_CASE(kbase_queued_callback_counts_as_pending),
	KUNIT_CASE(kbase_callback_rearms_itself),
	KUNIT_CASE(kbase_cancel_sync_waits_for_callback),
	KUNIT_CASE(kbase_sleepable_callback_may_sleep),
	KUNIT_CASE(kbase_shutdown_stops_for_good),
	KUNIT_CASE(kbase_fixed_rate_stays_on_grid),
	KUNIT_CASE(kbase_fixed_delay_counts_from_fire),
	KUNIT_CASE(kbase_realtime_set_back_mid_run_not_early),
	KUNIT_CASE_SLOW(kbase_burst_in_one_tick),
	{}
};

static struct kunit_suite hwtimer_kbase_suite = {
	.name = "hwtimer_kbase",
	.test_cases = hwtimer_kbase_cases,
};

kunit_test_suite(hwtimer_kbase_suite);

MODULE_DESCRIPTION("KUnit tests for hwtimer's in-kernel API and its per-CPU bases");
MODULE_LICENSE("GPL");
