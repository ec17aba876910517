// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit suite for hwtimer's precision promise, through the real base and
 * its hrtimer, on simulated time: User-Mode Linux booted with
 * time-travel=inf-cpu (CONFIG_UML_TIME_TRAVEL_SUPPORT). There the clock
 * stands still while the CPU runs and jumps to the next timer event when it
 * idles, so an hrtimer fires at exactly its expiry and no pass takes time.
 * What a real-time guest can only bound loosely holds exactly here: a
 * timer without slack fires at its deadline (to the simulated clock's
 * step), not at the end of its wheel tick, through every level and cascade
 * and however many timers are due; timers with slack share wakeups.
 *
 * Elsewhere the cases skip; the time-travel run of tests/vm/check.sh loads
 * the module with time_travel=1, where a clock that moves fails them.
 */
#include <kunit/test.h>
#include <linux/atomic.h>
#include <linux/bottom_half.h>
#include <linux/completion.h>
#include <linux/delay.h>
#include <linux/hrtimer.h>
#include <linux/hwtimer.h>
#include <linux/module.h>
#include <linux/prandom.h>
#include <linux/slab.h>
#include <linux/timekeeping.h>
#include <linux/vmalloc.h>

#include "api_test.h"

static bool time_travel;
module_param(time_travel, bool, 0444);
MODULE_PARM_DESC(time_travel,
		 "The kernel runs with time-travel=inf-cpu: fail, not skip, if the clock moves");

/*
 * In time-travel mode a clock read from a task costs 256 ns of simulated
 * time (so that loops waiting for time to move end), and that time can
 * fire timers; with softirqs off it costs nothing. The cases arm their
 * timers between these two, so that nothing moves the clock but idleness.
 */
static void clock_hold(void)
{
	local_bh_disable();
}

static void clock_release(void)
{
	local_bh_enable();
}

/*
 * How far the clock moves while this CPU works, softirqs off: 0 only under
 * time-travel=inf-cpu, where a million turns of a loop take no time.
 */
static u64 clock_moved(void)
{
	u64 t0, t1;
	unsigned int i;

	clock_hold();
	t0 = ktime_get_ns();
	for (i = 0; i < 1000000; i++)
		barrier();
	t1 = ktime_get_ns();
	clock_release();
	return t1 - t0;
}

/*
 * The time-travel clocksource counts in steps of 256 ns (TIMER_MULTIPLIER
 * in arch/um): an hrtimer due between two steps runs at the next, and the
 * clock its callback reads may be a step on. That is all the hrtimer
 * latency there is here, and the wheel arms its hrtimer for the earliest
 * deadline, not for the end of its tick (4096 ns by default): a timer
 * without slack fires less than two steps after its deadline.
 */
#define TT_CLOCK_STEP	256

static u64 tt_bound(void)
{
	return 2 * TT_CLOCK_STEP;
}

/* the same timers on every run */
static struct rnd_state tt_rnd;

static u64 tt_random(void)
{
	return (u64)prandom_u32_state(&tt_rnd) << 32 | prandom_u32_state(&tt_rnd);
}

static int tt_init(struct kunit *test)
{
	unsigned int ms;

	prandom_seed_state(&tt_rnd, 4096);
	if (clock_moved()) {
		if (time_travel)
			KUNIT_FAIL(test, "the clock moves while the CPU works");
		else
			kunit_skip(test, "needs User-Mode Linux with time-travel=inf-cpu");
		return 0;
	}
	/* hrtimers switch to high resolution on a tick after boot */
	for (ms = 0; hrtimer_resolution != 1 && ms < 1000; ms += 20)
		msleep(20);
	KUNIT_ASSERT_EQ_MSG(test, hrtimer_resolution, 1,
			    "hrtimers stay in low-resolution mode");
	return 0;
}

/**
 * struct tt_timer - a timer that notes when it fired
 * @t: the timer
 * @deadline: its deadline (for a periodic one, the first)
 * @fired_at: the clock in its last callback
 * @fires: callbacks so far
 * @late: for a periodic timer, the worst fire time minus its grid point
 * @early: fires before their deadline
 * @stop_after: a periodic timer cancels itself after this many fires
 * @period: its period
 * @done: completed by the last callback
 * @left: callbacks still to come, of all the timers sharing @done
 */
struct tt_timer {
	struct hwtimer t;
	u64 deadline;
	u64 fired_at;
	unsigned int fires;
	u64 late;
	unsigned int early;
	unsigned int stop_after;
	u64 period;
	struct completion *done;
	atomic_t *left;
};

static void tt_fn(struct hwtimer *t)
{
	struct tt_timer *x = container_of(t, struct tt_timer, t);

	x->fired_at = ktime_get_ns();
	x->fires++;
	if (atomic_dec_and_test(x->left))
		complete(x->done);
}

/* A delay from @min to @max ns, spread evenly over its powers of two. */
static u64 log_uniform(u64 min, u64 max)
{
	unsigned int lo = ilog2(min), hi = ilog2(max);
	u64 span, v;

	span = 1ULL << (lo + tt_random() % (hi - lo + 1));
	v = span + tt_random() % span;
	return clamp(v, min, max);
}

/*
 * The worst lateness of @n fired timers, and how many fired early; a
 * deadline of U64_MAX marks a cancelled timer, which is left out.
 */
static u64 tt_worst(struct tt_timer *x, unsigned int n, unsigned int *early)
{
	u64 worst = 0;
	unsigned int i;

	*early = 0;
	for (i = 0; i < n; i++) {
		if (x[i].deadline == U64_MAX)
			continue;
		if (x[i].fired_at < x[i].deadline)
			(*early)++;
		else
			worst = max(worst, x[i].fired_at - x[i].deadline);
	}
	return worst;
}

/*
 * One timer at a time, from a microsecond to ten seconds away: each goes
 * to the level its delay picks and is cascaded down to level 0 on its way.
 * (A failed start returns before anything is armed.)
 */
#define TT_ONE	100

static void tt_one_timer_fires_at_its_deadline(struct kunit *test)
{
	DECLARE_COMPLETION_ONSTACK(done);
	struct tt_timer *x = kunit_kcalloc(test, TT_ONE, sizeof(*x), GFP_KERNEL);
	atomic_t left;
	unsigned int i, early;
	u64 worst;
	int ret;

	KUNIT_ASSERT_NOT_NULL(test, x);
	for (i = 0; i < TT_ONE; i++) {
		hwtimer_init(&x[i].t, tt_fn, 0);
		x[i].done = &done;
		x[i].left = &left;
		atomic_set(&left, 1);
		reinit_completion(&done);
		clock_hold();
		x[i].deadline = ktime_get_ns() + log_uniform(US, 10 * SEC);
		ret = hwtimer_start(&x[i].t, x[i].deadline, 0, HWTIMER_ABS);
		clock_release();
		KUNIT_ASSERT_EQ(test, ret, 0);
		wait_done(test, &done, 60, "a timer due within 10 s");
		hwtimer_shutdown_sync(&x[i].t);
	}
	worst = tt_worst(x, TT_ONE, &early);
	KUNIT_EXPECT_EQ(test, early, 0);
	KUNIT_EXPECT_LT(test, worst, tt_bound());
}

#define TT_MANY	20000

/*
 * Twenty thousand timers pending at once, a microsecond to ten seconds
 * away, then a third of them moved and a sixth cancelled: the slots of
 * every level fill up and are cascaded ahead of their start, and passes
 * follow each other without an interrupt. Every timer that stays armed
 * still fires at its last deadline, and no cancelled one fires.
 */
static void tt_many_pending_fire_at_their_deadlines(struct kunit *test)
{
	DECLARE_COMPLETION_ONSTACK(done);
	struct tt_timer *x = vzalloc(array_size(TT_MANY, sizeof(*x)));
	unsigned int i, early, cancelled = 0, stray = 0, refused = 0, bad_mod = 0;
	atomic_t left;
	u64 now, worst;

	KUNIT_ASSERT_NOT_NULL(test, x);
	atomic_set(&left, TT_MANY);
	/* no assertion from here on: it would leave armed timers behind */
	clock_hold();
	now = ktime_get_ns();
	for (i = 0; i < TT_MANY; i++) {
		hwtimer_init(&x[i].t, tt_fn, 0);
		x[i].done = &done;
		x[i].left = &left;
		x[i].deadline = now + log_uniform(US, 10 * SEC);
		if (hwtimer_start(&x[i].t, x[i].deadline, 0, HWTIMER_ABS)) {
			x[i].deadline = U64_MAX;
			refused++;
		}
	}
	/* 1: it was pending, as nothing fires while the clock is held */
	for (i = 0; i < TT_MANY; i += 3) {
		if (x[i].deadline == U64_MAX)
			continue;
		x[i].deadline = now + log_uniform(US, 10 * SEC);
		bad_mod += hwtimer_modify(&x[i].t, x[i].deadline,
					  HWTIMER_ABS) != 1;
	}
	for (i = 1; i < TT_MANY; i += 6) {
		if (x[i].deadline != U64_MAX && hwtimer_cancel(&x[i].t)) {
			cancelled++;
			x[i].deadline = U64_MAX;
		}
	}
	clock_release();
	/* those not armed count as done; complete() if they were the last */
	if (atomic_sub_and_test(cancelled + refused, &left))
		complete(&done);
	wait_done(test, &done, 60, "timers due within 10 s");
	for (i = 0; i < TT_MANY; i++) {
		if (x[i].deadline == U64_MAX)
			stray += x[i].fires;
		hwtimer_shutdown_sync(&x[i].t);
	}
	worst = tt_worst(x, TT_MANY, &early);
	KUNIT_EXPECT_EQ(test, refused, 0);
	KUNIT_EXPECT_EQ(test, bad_mod, 0);
	KUNIT_EXPECT_EQ(test, cancelled, (TT_MANY + 4) / 6);
	KUNIT_EXPECT_EQ(test, stray, 0);
	KUNIT_EXPECT_EQ(test, early, 0);
	KUNIT_EXPECT_LT(test, worst, tt_bound());
	vfree(x);
}

static void tt_periodic_fn(struct hwtimer *t)
{
	struct tt_timer *x = container_of(t, struct tt_timer, t);
	u64 now = ktime_get_ns();
	u64 grid = x->deadline + x->fires * x->period;

	if (now < grid)
		x->early++;
	else
		x->late = max(x->late, now - grid);
	if (++x->fires == x->stop_after) {
		hwtimer_cancel(t);
		complete(x->done);
	}
}

/*
 * A fixed-rate periodic timer whose period is no multiple of the tick
 * fires at each point of its grid, for a thousand periods: nothing adds
 * up.
 */
static void tt_periodic_stays_on_its_grid(struct kunit *test)
{
	DECLARE_COMPLETION_ONSTACK(done);
	struct tt_timer x = { .done = &done, .stop_after = 1000,
			      .period = MS + 333 };
	int ret;

	hwtimer_init(&x.t, tt_periodic_fn, 0);
	clock_hold();
	x.deadline = ktime_get_ns() + 5 * MS + 77;
	ret = hwtimer_start(&x.t, x.deadline, x.period, HWTIMER_ABS);
	clock_release();
	KUNIT_ASSERT_EQ(test, ret, 0);
	wait_done(test, &done, 60, "1000 periods of 1 ms");
	hwtimer_shutdown_sync(&x.t);
	KUNIT_EXPECT_EQ(test, x.fires, 1000);
	KUNIT_EXPECT_EQ(test, x.early, 0);
	KUNIT_EXPECT_LT(test, x.late, tt_bound());
}

#define TT_SLACK_N	1000
#define TT_SLACK	MS
#define TT_SLACK_SPAN	(100 * MS)

/*
 * The base lets its hrtimer run up to 50 us before a window's end when the
 * CPU wakes anyway (HWT_ARM_SLACK_NS in kmod/base.c), as the tick may make it.
 */
#define TT_WINDOW_MIN	(TT_SLACK - 50 * US)

/*
 * A thousand timers due over 100 ms with 1 ms of slack each: every one
 * fires inside its window (never before its deadline, nor after its slack
 * ends), and timers whose windows overlap share wakeups. A
 * wakeup takes every timer whose window has begun, so the next one is at
 * least a window later: there are at most as many distinct fire times as
 * such spacings fit in the span (106), not one per timer.
 */
static void tt_slack_windows_share_wakeups(struct kunit *test)
{
	DECLARE_COMPLETION_ONSTACK(done);
	struct tt_timer *x = kunit_kcalloc(test, TT_SLACK_N, sizeof(*x),
					   GFP_KERNEL);
	u64 *times = kunit_kcalloc(test, TT_SLACK_N, sizeof(*times),
				   GFP_KERNEL);
	unsigned int i, early = 0, wakeups = 0, outside = 0, refused = 0;
	atomic_t left;
	u64 now;

	KUNIT_ASSERT_NOT_NULL(test, x);
	KUNIT_ASSERT_NOT_NULL(test, times);
	atomic_set(&left, TT_SLACK_N);
	clock_hold();
	now = ktime_get_ns() + SEC;
	for (i = 0; i < TT_SLACK_N; i++) {
		hwtimer_init(&x[i].t, tt_fn, 0);
		x[i].done = &done;
		x[i].left = &left;
		x[i].deadline = now + tt_random() % TT_SLACK_SPAN;
		refused += hwtimer_start_range(&x[i].t, x[i].deadline, TT_SLACK,
					       0, HWTIMER_ABS) != 0;
	}
	clock_release();
	/* all armed, or none waited for: the test must not hang */
	if (refused) {
		for (i = 0; i < TT_SLACK_N; i++)
			hwtimer_shutdown_sync(&x[i].t);
		KUNIT_FAIL(test, "%u of %d starts refused", refused, TT_SLACK_N);
		return;
	}
	wait_done(test, &done, 60, "timers of slack windows");
	for (i = 0; i < TT_SLACK_N; i++) {
		hwtimer_shutdown_sync(&x[i].t);
		if (x[i].fired_at < x[i].deadline)
			early++;
		else if (x[i].fired_at - x[i].deadline >= TT_SLACK + tt_bound())
			outside++;
		times[i] = x[i].fired_at;
	}
	/* distinct fire times: the clock stands still during a pass */
	for (i = 0; i < TT_SLACK_N; i++) {
		unsigned int j;

		for (j = 0; j < i && times[j] != times[i]; j++)
			;
		wakeups += j == i;
	}
	KUNIT_EXPECT_EQ(test, early, 0);
	KUNIT_EXPECT_EQ(test, outside, 0);
	KUNIT_EXPECT_LE(test, wakeups, TT_SLACK_SPAN / TT_WINDOW_MIN + 1);
}

static struct kunit_case tt_cases[] = {
	/* slow in simulated time only: they take a second of real time */
	KUNIT_CASE_SLOW(tt_one_timer_fires_at_its_deadline),
	KUNIT_CASE_SLOW(tt_many_pending_fire_at_their_deadlines),
	KUNIT_CASE(tt_periodic_stays_on_its_grid),
	KUNIT_CASE(tt_slack_windows_share_wakeups),
	{}
};

static struct kunit_suite hwtimer_timetravel_suite = {
	.name = "hwtimer_timetravel",
	.init = tt_init,
	.test_cases = tt_cases,
};

kunit_test_suite(hwtimer_timetravel_suite);

MODULE_DESCRIPTION("hwtimer: exact precision on User-Mode Linux's simulated time");
MODULE_LICENSE("GPL");
