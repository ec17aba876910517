// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit suite for the wheel core, driven by a fake clock.
 *
 * The same file runs in the kernel (hwtimer_wheel_kunit.ko) and natively on
 * the host (tests/native, with a KUnit stand-in), so it includes the core's
 * source rather than linking against the module.
 */
#include <kunit/test.h>
#include <linux/prandom.h>

#include "wheel_unit.h"

#include "wheel_test.h"

/* Fire one timer @delay after @start and check it is never early nor late. */
static void check_lone_timer(struct kunit *test, unsigned int shift,
			     unsigned int levels, u64 start, u64 delay)
{
	struct hwt_wheel *w = new_wheel(test, shift, levels, start);
	u64 tick = 1ULL << shift, now = w->clk, deadline = w->clk + delay;
	unsigned int wakeups = 0, lvl;
	struct hwt_node n, *got;

	add_at(w, &n, deadline);
	lvl = hwt_wheel_level_of(w, &n);
	got = run_until(test, w, &now, deadline + 2 * tick, &wakeups);
	KUNIT_ASSERT_PTR_EQ(test, got, &n);
	KUNIT_EXPECT_GE_MSG(test, (s64)(now - deadline), 0,
			    "shift %u delay %llu fired early", shift,
			    (unsigned long long)delay);
	KUNIT_EXPECT_LT_MSG(test, now - deadline, tick,
			    "shift %u delay %llu late by a tick or more",
			    shift, (unsigned long long)delay);
	/* the slot bound lets a lone timer sleep through its cascades */
	KUNIT_EXPECT_EQ(test, wakeups, 1U);
	/* at most once per level passed; a key on a slot edge skips some */
	KUNIT_EXPECT_LE(test, w->cascaded, (u64)lvl);
	KUNIT_EXPECT_TRUE(test, hwt_wheel_empty(w));
}

static void wheel_init_checks_geometry(struct kunit *test)
{
	struct hwt_wheel *w = new_wheel(test, SHIFT, 0, 0);

	KUNIT_EXPECT_EQ(test, hwt_wheel_init(w, HWT_SHIFT_MIN - 1, 0, 0), -EINVAL);
	KUNIT_EXPECT_EQ(test, hwt_wheel_init(w, HWT_SHIFT_MAX + 1, 0, 0), -EINVAL);
	KUNIT_EXPECT_EQ(test, hwt_wheel_init(w, SHIFT, 10, 0), -EINVAL);
	KUNIT_EXPECT_EQ(test, hwt_wheel_max_levels(10), 11U);
	KUNIT_EXPECT_EQ(test, hwt_wheel_max_levels(12), 11U);
	KUNIT_EXPECT_EQ(test, hwt_wheel_max_levels(13), 10U);
	KUNIT_EXPECT_EQ(test, hwt_wheel_max_levels(20), 9U);
	KUNIT_EXPECT_EQ(test, hwt_wheel_max_levels(30), 7U);
	KUNIT_EXPECT_LE(test, hwt_wheel_max_levels(HWT_SHIFT_MIN),
			(unsigned int)HWT_LEVELS_MAX);

	KUNIT_ASSERT_EQ(test, hwt_wheel_init(w, SHIFT, 0, 5 * TICK + 7), 0);
	KUNIT_EXPECT_EQ(test, w->levels, 9U);
	KUNIT_EXPECT_EQ(test, w->top_bits, 4U);
	KUNIT_EXPECT_EQ(test, w->clk, 5 * TICK);
	KUNIT_EXPECT_EQ(test, hwt_wheel_horizon(w), 1ULL << 63);

	KUNIT_ASSERT_EQ(test, hwt_wheel_init(w, SHIFT, 3, 0), 0);
	KUNIT_EXPECT_EQ(test, w->top_bits, 6U);
	KUNIT_EXPECT_EQ(test, hwt_wheel_horizon(w), 63ULL << (SHIFT + 10));
}

static void wheel_idle_has_nothing_due(struct kunit *test)
{
	struct hwt_wheel *w = new_wheel(test, SHIFT, 0, 0);
	u64 when;

	KUNIT_EXPECT_FALSE(test, hwt_wheel_next(w, &when));
	KUNIT_EXPECT_NULL(test, pop(w, 100 * TICK + 3));
	/* an idle wheel's clock follows the caller's, to the tick it is in */
	KUNIT_EXPECT_EQ(test, w->clk, 101 * TICK);
	hwt_wheel_forward(w, 200 * TICK + 9);
	KUNIT_EXPECT_EQ(test, w->clk, 200 * TICK);
	/* and never goes backwards */
	KUNIT_EXPECT_NULL(test, pop(w, 50 * TICK));
	hwt_wheel_forward(w, 50 * TICK);
	KUNIT_EXPECT_EQ(test, w->clk, 200 * TICK);
}

static void wheel_fires_on_tick_boundary(struct kunit *test)
{
	struct hwt_wheel *w = new_wheel(test, SHIFT, 0, 0);
	struct hwt_node n;
	u64 when;

	add_at(w, &n, 5 * TICK);
	KUNIT_ASSERT_TRUE(test, hwt_wheel_next(w, &when));
	KUNIT_EXPECT_EQ(test, when, 5 * TICK);
	KUNIT_EXPECT_NULL(test, pop(w, 5 * TICK - 1));
	KUNIT_EXPECT_PTR_EQ(test, pop(w, 5 * TICK), &n);
	KUNIT_EXPECT_EQ(test, n.expires, 5 * TICK);
	KUNIT_EXPECT_TRUE(test, list_empty(&n.entry));
}

/* a deadline inside a tick is due at itself, not at the tick's end */
static void wheel_fires_at_deadline_within_tick(struct kunit *test)
{
	struct hwt_wheel *w = new_wheel(test, SHIFT, 0, 0);
	struct hwt_node n;
	u64 when;

	add_at(w, &n, 5 * TICK + 1);
	KUNIT_ASSERT_TRUE(test, hwt_wheel_next(w, &when));
	KUNIT_EXPECT_EQ(test, when, 5 * TICK + 1);
	KUNIT_EXPECT_NULL(test, pop(w, 5 * TICK));
	KUNIT_EXPECT_PTR_EQ(test, pop(w, 5 * TICK + 1), &n);
}

/*
 * Deadlines in one tick, in no order: each is returned once it has come,
 * not before, and the wheel's next time is the earliest of those left.
 */
static void wheel_tick_returns_each_deadline_as_it_comes(struct kunit *test)
{
	static const u64 off[] = { 900, 100, 4000, 100, 2500, 1 };
	struct hwt_wheel *w = new_wheel(test, SHIFT, 0, 0);
	struct hwt_node *n = new_nodes(test, ARRAY_SIZE(off));
	unsigned int i, fired = 0;
	u64 when, now;

	for (i = 0; i < ARRAY_SIZE(off); i++)
		add_at(w, &n[i], 7 * TICK + off[i]);
	while (hwt_wheel_next(w, &when)) {
		struct hwt_node *got;
		unsigned int at = 0;

		/* never early: a moment before, nothing */
		KUNIT_EXPECT_NULL(test, pop(w, when - 1));
		now = when;
		while ((got = pop(w, now))) {
			KUNIT_EXPECT_EQ(test, got->expires, now);
			at++;
		}
		KUNIT_EXPECT_GT(test, at, 0U);
		fired += at;
	}
	KUNIT_EXPECT_EQ(test, fired, (unsigned int)ARRAY_SIZE(off));
	KUNIT_EXPECT_TRUE(test, hwt_wheel_empty(w));
}

/* Around every level boundary, for ticks from 1 us to 1 s. */
static void wheel_exact_at_every_level_boundary(struct kunit *test)
{
	static const unsigned int shifts[] = { 10, 14, 20, 30 };
	unsigned int i, lvl;

	for (i = 0; i < ARRAY_SIZE(shifts); i++) {
		unsigned int shift = shifts[i];
		u64 tick = 1ULL << shift;
		unsigned int levels = hwt_wheel_max_levels(shift);

		for (lvl = 0; lvl < levels; lvl++) {
			unsigned int b = shift + HWT_LVL_BITS * lvl;
			u64 edge = b < 63 ? 1ULL << b : 1ULL << 62;
			u64 delays[] = { edge - tick, edge - 1, edge, edge + 1,
					 edge + tick, 3 * edge - 1 };
			unsigned int d;

			for (d = 0; d < ARRAY_SIZE(delays); d++) {
				if (!delays[d] || delays[d] >= 1ULL << 62)
					continue;
				/* from a tick-aligned and an odd start */
				check_lone_timer(test, shift, 0, 0, delays[d]);
				check_lone_timer(test, shift, 0,
						 0x123456789abULL << shift,
						 delays[d]);
			}
		}
	}
}

static void wheel_one_year_at_10us_and_1s_ticks(struct kunit *test)
{
	check_lone_timer(test, 13, 0, 0, YEAR);
	check_lone_timer(test, 13, 0, 7 * SEC, YEAR + 12345);
	check_lone_timer(test, 30, 0, 0, YEAR);
	check_lone_timer(test, 20, 6, 0, YEAR);
}

static void wheel_far_timer_wakes_once(struct kunit *test)
{
	struct hwt_wheel *w = new_wheel(test, SHIFT, 0, 0);
	struct hwt_node n;
	u64 when;

	add_at(w, &n, 10 * SEC);
	KUNIT_EXPECT_EQ(test, hwt_wheel_level_of(w, &n), 2U);
	KUNIT_ASSERT_TRUE(test, hwt_wheel_next(w, &when));
	/* not the start of its level-2 slot: the timer's own deadline */
	KUNIT_EXPECT_EQ(test, when, 10 * SEC);
	KUNIT_EXPECT_PTR_EQ(test, pop(w, when), &n);
	/* alone and due before anything else, it is returned from its slot */
	KUNIT_EXPECT_EQ(test, w->cascaded, 0ULL);
}

static void wheel_del_unlinks_at_once(struct kunit *test)
{
	struct hwt_wheel *w = new_wheel(test, SHIFT, 0, 0);
	struct hwt_node *n = new_nodes(test, 3);
	u64 when;

	add_at(w, &n[0], 9 * TICK);
	add_at(w, &n[1], 9 * TICK);
	add_at(w, &n[2], 9 * TICK);
	hwt_wheel_del(w, &n[1]);
	KUNIT_EXPECT_TRUE(test, list_empty(&n[1].entry));
	KUNIT_EXPECT_EQ(test, hwt_wheel_pending(w), 2UL);
	KUNIT_EXPECT_PTR_EQ(test, pop(w, 9 * TICK), &n[0]);
	hwt_wheel_del(w, &n[2]);
	KUNIT_EXPECT_EQ(test, hwt_wheel_pending(w), 0UL);
	KUNIT_EXPECT_EQ(test, w->lvl[0].occupied, 0ULL);
	KUNIT_EXPECT_FALSE(test, hwt_wheel_next(w, &when));
	KUNIT_EXPECT_NULL(test, pop(w, 100 * TICK));
}

static void wheel_del_of_first_leaves_lower_bound(struct kunit *test)
{
	struct hwt_wheel *w = new_wheel(test, SHIFT, 0, 0);
	struct hwt_node a, b;
	u64 when, now;

	/* both on level 2, in the same slot */
	add_at(w, &a, 10 * SEC);
	add_at(w, &b, 10 * SEC + 100 * TICK);
	KUNIT_ASSERT_EQ(test, hwt_wheel_level_of(w, &b), 2U);
	hwt_wheel_del(w, &a);
	KUNIT_ASSERT_TRUE(test, hwt_wheel_next(w, &when));
	KUNIT_EXPECT_EQ(test, when, 10 * SEC);
	/* the early wakeup finds nothing, and learns the true time */
	now = when + TICK;
	KUNIT_EXPECT_NULL(test, pop(w, now));
	KUNIT_ASSERT_TRUE(test, hwt_wheel_next(w, &when));
	KUNIT_EXPECT_EQ(test, when, 10 * SEC + 100 * TICK);
	KUNIT_EXPECT_PTR_EQ(test, pop(w, when), &b);
}

static void wheel_mod_within_slot_is_fast(struct kunit *test)
{
	struct hwt_wheel *w = new_wheel(test, SHIFT, 0, 0);
	struct hwt_node n;
	u64 when;

	add_at(w, &n, 7 * TICK + 5);
	KUNIT_EXPECT_TRUE(test, hwt_wheel_mod(w, &n, 7 * TICK + 9));
	KUNIT_EXPECT_EQ(test, n.expires, 7 * TICK + 9);
	KUNIT_EXPECT_FALSE(test, hwt_wheel_mod(w, &n, 8 * TICK + 9));

	/* a level-1 slot spans 64 ticks; moving earlier in it updates next */
	KUNIT_EXPECT_FALSE(test, hwt_wheel_mod(w, &n, 130 * TICK));
	KUNIT_EXPECT_EQ(test, hwt_wheel_level_of(w, &n), 1U);
	KUNIT_EXPECT_TRUE(test, hwt_wheel_mod(w, &n, 129 * TICK));
	KUNIT_ASSERT_TRUE(test, hwt_wheel_next(w, &when));
	KUNIT_EXPECT_EQ(test, when, 129 * TICK);
	KUNIT_EXPECT_EQ(test, hwt_wheel_pending(w), 1UL);
	KUNIT_EXPECT_NULL(test, pop(w, 129 * TICK - 1));
	KUNIT_EXPECT_PTR_EQ(test, pop(w, 129 * TICK), &n);
}

/*
 * The wheel keeps what each level has to do next until the level changes:
 * a move within a slot, to an earlier key, is such a change.
 */
static void wheel_mod_earlier_in_slot_wakes_earlier(struct kunit *test)
{
	struct hwt_wheel *w = new_wheel(test, SHIFT, 0, 0);
	struct hwt_node n, far;
	u64 when;

	add_at(w, &n, 5000 * TICK);
	add_at(w, &far, 90000 * TICK);
	KUNIT_ASSERT_TRUE(test, hwt_wheel_next(w, &when));
	KUNIT_EXPECT_EQ(test, when, 5000 * TICK);
	KUNIT_EXPECT_TRUE(test, hwt_wheel_mod(w, &n, 4990 * TICK));
	KUNIT_ASSERT_TRUE(test, hwt_wheel_next(w, &when));
	KUNIT_EXPECT_EQ(test, when, 4990 * TICK);
	KUNIT_EXPECT_PTR_EQ(test, pop(w, when), &n);
}

/*
 * A top level of fewer than 64 slots: a timer in one of its later slots
 * is found, for every tick, and fires on time with one wakeup.
 */
static void wheel_top_level_of_fewer_slots(struct kunit *test)
{
	unsigned int shift;

	for (shift = HWT_SHIFT_MIN; shift <= HWT_SHIFT_MAX; shift++) {
		unsigned int levels = hwt_wheel_max_levels(shift);
		unsigned int top = 64 - shift - HWT_LVL_BITS * (levels - 1);
		unsigned int b = shift + HWT_LVL_BITS * (levels - 1);
		u64 slot = 1ULL << b, delay;

		if (top >= 6 || top < 2)
			continue;
		/* a slot past the sixth, within 2^62 ns */
		delay = min_t(u64, ((1ULL << top) - 2) * slot, 1ULL << 62) - 12345;
		check_lone_timer(test, shift, 0, 0, delay);
		check_lone_timer(test, shift, 0, 3 * slot + 77, delay);
	}
}

static void wheel_mod_earlier_fires_earlier(struct kunit *test)
{
	struct hwt_wheel *w = new_wheel(test, SHIFT, 0, 0);
	struct hwt_node n;
	u64 now = 0;

	add_at(w, &n, 3600 * SEC);
	hwt_wheel_mod(w, &n, 2 * SEC);
	KUNIT_EXPECT_PTR_EQ(test, run_until(test, w, &now, 3600 * SEC, NULL), &n);
	KUNIT_EXPECT_GE(test, now, 2 * SEC);
	KUNIT_EXPECT_LT(test, now, 2 * SEC + TICK);
}

static void wheel_mod_later_fires_later(struct kunit *test)
{
	struct hwt_wheel *w = new_wheel(test, SHIFT, 0, 0);
	struct hwt_node n;
	u64 now = 0;

	add_at(w, &n, 2 * SEC);
	KUNIT_EXPECT_NULL(test, run_until(test, w, &now, SEC, NULL));
	hwt_wheel_mod(w, &n, 3600 * SEC + 3);
	KUNIT_EXPECT_PTR_EQ(test, run_until(test, w, &now, 7200 * SEC, NULL), &n);
	KUNIT_EXPECT_GE(test, now, 3600 * SEC + 3);
	KUNIT_EXPECT_LT(test, now, 3600 * SEC + 3 + TICK);
}

/*
 * A deadline before the clock's tick is raised into it, and due at once:
 * the clock's tick (100) began at 99 ticks + 1 ns.
 */
static void wheel_past_deadline_is_raised(struct kunit *test)
{
	struct hwt_wheel *w = new_wheel(test, SHIFT, 0, 100 * TICK);
	struct hwt_node n;
	u64 when;

	add_at(w, &n, 3 * TICK);
	KUNIT_EXPECT_EQ(test, n.expires, 99 * TICK + 1);
	KUNIT_ASSERT_TRUE(test, hwt_wheel_next(w, &when));
	KUNIT_EXPECT_EQ(test, when, 99 * TICK + 1);
	KUNIT_EXPECT_PTR_EQ(test, pop(w, 99 * TICK + 1), &n);
}

static void wheel_survives_clock_wraparound(struct kunit *test)
{
	u64 start = (U64_MAX - 10 * TICK) & ~(TICK - 1);
	struct hwt_wheel *w = new_wheel(test, SHIFT, 0, start);
	struct hwt_node *n = new_nodes(test, 4);
	u64 now = start, end = start + 300 * SEC;
	unsigned int i;

	add_at(w, &n[0], start + 5 * TICK);		/* before the wrap */
	add_at(w, &n[1], start + 20 * TICK);		/* just after it */
	add_at(w, &n[2], start + 100 * SEC + 77);	/* well after it */
	add_at(w, &n[3], start + 200 * SEC);
	for (i = 0; i < 4; i++) {
		struct hwt_node *got = run_until(test, w, &now, end, NULL);

		KUNIT_ASSERT_PTR_EQ(test, got, &n[i]);
		KUNIT_EXPECT_GE(test, (s64)(now - n[i].expires), 0);
		KUNIT_EXPECT_LT(test, now - n[i].expires, TICK);
	}
	KUNIT_EXPECT_TRUE(test, hwt_wheel_empty(w));
	check_lone_timer(test, SHIFT, 0, start, YEAR);
	check_lone_timer(test, SHIFT, 3, start, 10 * SEC);
}

static void wheel_del_of_expiring_node(struct kunit *test)
{
	struct hwt_wheel *w = new_wheel(test, SHIFT, 0, 0);
	struct hwt_node a, b;

	add_at(w, &a, 4 * TICK);
	add_at(w, &b, 4 * TICK);
	KUNIT_ASSERT_PTR_EQ(test, pop(w, 4 * TICK), &a);
	/* b is due and queued in the slot being expired */
	hwt_wheel_del(w, &b);
	KUNIT_EXPECT_TRUE(test, hwt_wheel_empty(w));
	KUNIT_EXPECT_NULL(test, pop(w, 4 * TICK));
}

static void wheel_mod_of_expiring_node(struct kunit *test)
{
	struct hwt_wheel *w = new_wheel(test, SHIFT, 0, 0);
	struct hwt_node a, b;

	add_at(w, &a, 4 * TICK);
	add_at(w, &b, 4 * TICK);
	KUNIT_ASSERT_PTR_EQ(test, pop(w, 4 * TICK), &a);
	KUNIT_EXPECT_FALSE(test, hwt_wheel_mod(w, &b, 9 * TICK));
	KUNIT_EXPECT_NULL(test, pop(w, 8 * TICK));
	KUNIT_EXPECT_PTR_EQ(test, pop(w, 9 * TICK), &b);
}

/*
 * A callback re-arming for "now" during a pass reads a time after the
 * pass's: the pass does not return the node again, the next one does.
 */
static void wheel_readd_during_expiry_waits_for_its_time(struct kunit *test)
{
	struct hwt_wheel *w = new_wheel(test, SHIFT, 0, 0);
	struct hwt_node a;

	add_at(w, &a, 4 * TICK - 100);
	KUNIT_ASSERT_PTR_EQ(test, pop(w, 4 * TICK - 50), &a);
	add_at(w, &a, 4 * TICK - 20);
	KUNIT_EXPECT_NULL(test, pop(w, 4 * TICK - 50));
	KUNIT_EXPECT_PTR_EQ(test, pop(w, 4 * TICK - 20), &a);
}

static void wheel_same_tick_pops_in_order(struct kunit *test)
{
	struct hwt_wheel *w = new_wheel(test, SHIFT, 0, 0);
	struct hwt_node *n = new_nodes(test, 8);
	unsigned int i;

	for (i = 0; i < 8; i++)
		add_at(w, &n[i], 40 * TICK - i);
	for (i = 0; i < 8; i++)
		KUNIT_EXPECT_PTR_EQ(test, pop(w, 40 * TICK), &n[i]);
	KUNIT_EXPECT_NULL(test, pop(w, 40 * TICK));
}

static void wheel_few_levels_wrap_within_horizon(struct kunit *test)
{
	/* 2 levels: the top one turns over every 4096 ticks */
	u64 start = 4096 * TICK * 5 + 4000 * TICK;
	struct hwt_wheel *w = new_wheel(test, SHIFT, 2, start);
	u64 horizon = hwt_wheel_horizon(w);

	KUNIT_EXPECT_EQ(test, horizon, 63 * 32 * TICK);
	check_lone_timer(test, SHIFT, 2, start, horizon - 1);
	check_lone_timer(test, SHIFT, 2, start, 200 * TICK);
	check_lone_timer(test, SHIFT, 1, start, 62 * TICK + 5);
}

static void wheel_fixed_rate_counts_overruns(struct kunit *test)
{
	const u64 p = 100, d = 1000;
	u64 over;

	/* on time: the next grid point */
	KUNIT_EXPECT_EQ(test, hwt_period_next(d, d + 3, d + 5, p, false, &over), d + p);
	KUNIT_EXPECT_EQ(test, over, 0ULL);
	/* a grid point at "now" counts as missed */
	KUNIT_EXPECT_EQ(test, hwt_period_next(d, d, d + 2 * p, p, false, &over), d + 3 * p);
	KUNIT_EXPECT_EQ(test, over, 2ULL);
	/* blocked for 9.5 periods: 9 overruns, back on the grid */
	KUNIT_EXPECT_EQ(test, hwt_period_next(d, d + 1, d + 950, p, false, &over), d + 10 * p);
	KUNIT_EXPECT_EQ(test, over, 9ULL);
}

static void wheel_fixed_delay_spaces_from_fire(struct kunit *test)
{
	const u64 p = 100, d = 1000;
	u64 over;

	KUNIT_EXPECT_EQ(test, hwt_period_next(d, d + 7, d + 8, p, true, &over), d + 7 + p);
	KUNIT_EXPECT_EQ(test, over, 0ULL);
	/* re-armed late: skip whole periods from the fire time, no burst */
	KUNIT_EXPECT_EQ(test, hwt_period_next(d, d + 7, d + 7 + 250, p, true, &over),
			d + 7 + 3 * p);
	KUNIT_EXPECT_EQ(test, over, 2ULL);
}

static struct kunit_case hwtimer_wheel_cases[] = {
	KUNIT_CASE(wheel_init_checks_geometry),
	KUNIT_CASE(wheel_idle_has_nothing_due),
	KUNIT_CASE(wheel_fires_on_tick_boundary),
	KUNIT_CASE(wheel_fires_at_deadline_within_tick),
	KUNIT_CASE(wheel_tick_returns_each_deadline_as_it_comes),
	KUNIT_CASE(wheel_exact_at_every_level_boundary),
	KUNIT_CASE(wheel_one_year_at_10us_and_1s_ticks),
	KUNIT_CASE(wheel_far_timer_wakes_once),
	KUNIT_CASE(wheel_del_unlinks_at_once),
	KUNIT_CASE(wheel_del_of_first_leaves_lower_bound),
	KUNIT_CASE(wheel_mod_within_slot_is_fast),
	KUNIT_CASE(wheel_mod_earlier_in_slot_wakes_earlier),
	KUNIT_CASE(wheel_top_level_of_fewer_slots),
	KUNIT_CASE(wheel_mod_earlier_fires_earlier),
	KUNIT_CASE(wheel_mod_later_fires_later),
	KUNIT_CASE(wheel_past_deadline_is_raised),
	KUNIT_CASE(wheel_survives_clock_wraparound),
	KUNIT_CASE(wheel_del_of_expiring_node),
	KUNIT_CASE(wheel_mod_of_expiring_node),
	KUNIT_CASE(wheel_readd_during_expiry_waits_for_its_time),
	KUNIT_CASE(wheel_same_tick_pops_in_order),
	KUNIT_CASE(wheel_few_levels_wrap_within_horizon),
	KUNIT_CASE(wheel_fixed_rate_counts_overruns),
	KUNIT_CASE(wheel_fixed_delay_spaces_from_fire),
	{}
};

static struct kunit_suite hwtimer_wheel_suite = {
	.name = "hwtimer_wheel",
	.test_cases = hwtimer_wheel_cases,
};

kunit_test_suite(hwtimer_wheel_suite);

MODULE_DESCRIPTION("KUnit tests for the hwtimer wheel core");
MODULE_LICENSE("GPL");
