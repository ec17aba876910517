// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit suite for the wheel core's bounded work, driven by a fake clock:
 * budgets that cut cascades and unparking short, deletes and modifies of
 * nodes whose slot is half cascaded, O(1) set-backs of the clock, and
 * cascades ahead of big slots. wheel_model_kunit.c mixes all of those in a
 * randomised differential test. Like wheel_kunit.c it runs in the kernel
 * and natively.
 */
#include <kunit/test.h>
#include <linux/prandom.h>

#include "wheel_unit.h"
#include "wheel_test.h"

#define L1	(TICK << HWT_LVL_BITS)		/* a level-1 slot */
#define L2	(L1 << HWT_LVL_BITS)		/* a level-2 slot */

/* A spread of @count deadlines over [@start, @start + @len), shuffled. */
static u64 spread(unsigned int i, u64 start, u64 len)
{
	return start + 1 + (u64)i * 7919 * 104729 % (len - 1);
}

static void bound_cascade_respects_budget(struct kunit *test)
{
	const unsigned int count = 4096, budget = 16;
	struct hwt_wheel *w = new_wheel(test, SHIFT, 0, 0);
	struct hwt_node *n = new_nodes(test, count), *got;
	u64 start = 10 * L1, now = start + L1, prev = 0;
	unsigned int i, left = budget, fired = 0;

	for (i = 0; i < count; i++)
		add_at(w, &n[i], spread(i, start, L1));
	KUNIT_EXPECT_EQ(test, lvl_count(w, 1), count);

	/* the first call moves its budget's worth and keeps the clock there */
	KUNIT_EXPECT_NULL(test, hwt_wheel_pop(w, now, &left));
	KUNIT_EXPECT_EQ(test, left, 0U);
	KUNIT_EXPECT_EQ(test, w->cascaded, (u64)budget);
	KUNIT_EXPECT_EQ(test, w->clk, start);
	KUNIT_EXPECT_EQ(test, lvl_count(w, 1), count - budget);
	check_wheel(test, w);

	while ((got = pop_budget(test, w, now, budget))) {
		KUNIT_ASSERT_GE(test, hwt_wheel_key(w, got->expires), prev);
		KUNIT_ASSERT_LE(test, got->expires, now);
		prev = hwt_wheel_key(w, got->expires);
		if (!(++fired % 512))
			check_wheel(test, w);
	}
	KUNIT_EXPECT_EQ(test, fired, count);
	/* every node moved once, from level 1 to level 0 */
	KUNIT_EXPECT_EQ(test, w->cascaded, (u64)count);
	KUNIT_EXPECT_TRUE(test, hwt_wheel_empty(w));
}

/*
 * The node that makes a slot big says so. The wheel's next time stays the
 * slot's first key; its next time for cascading ahead becomes the start of
 * the slot before it, from which hwt_wheel_ahead() cascades it.
 */
static void bound_big_slot_is_due_a_slot_early(struct kunit *test)
{
	const unsigned int count = HWT_CASCADE_EARLY;
	struct hwt_wheel *w = new_wheel(test, SHIFT, 0, 0);
	struct hwt_node *n = new_nodes(test, count);
	u64 start = 10 * L2, when;
	unsigned int i, left;

	for (i = 0; i < count; i++) {
		add_at(w, &n[i], start + L2 / 2 + i * TICK);
		KUNIT_ASSERT_EQ(test, hwt_wheel_level_of(w, &n[i]), 2U);
		KUNIT_EXPECT_EQ(test, hwt_wheel_early(w, &n[i]), i == count - 1);
		KUNIT_ASSERT_TRUE(test, hwt_wheel_next(w, &when));
		KUNIT_EXPECT_EQ(test, when, start + L2 / 2);
		KUNIT_EXPECT_EQ(test, hwt_wheel_next_ahead(w, &when), i == count - 1);
	}
	KUNIT_EXPECT_EQ(test, when, start - L2);
	/* one less: no cascade ahead, and a lone timer's one wakeup */
	hwt_wheel_del(w, &n[0]);
	KUNIT_EXPECT_FALSE(test, hwt_wheel_next_ahead(w, &when));
	KUNIT_ASSERT_TRUE(test, hwt_wheel_next(w, &when));
	KUNIT_EXPECT_EQ(test, when, start + L2 / 2);
	add_at(w, &n[0], start + L2 / 2);
	KUNIT_EXPECT_TRUE(test, hwt_wheel_early(w, &n[0]));
	/* nothing is due then: a pop moves nothing, the ahead call all of it */
	KUNIT_EXPECT_NULL(test, pop(w, start - L2 + TICK));
	KUNIT_EXPECT_EQ(test, w->cascaded, 0ULL);
	left = UNLIMITED;
	KUNIT_EXPECT_FALSE(test, hwt_wheel_ahead(w, start - L2 + TICK, &left));
	KUNIT_EXPECT_EQ(test, w->clk, start - L2 + TICK);
	KUNIT_EXPECT_EQ(test, lvl_count(w, 2), 0U);
	KUNIT_EXPECT_EQ(test, lvl_count(w, 1), count);
	KUNIT_EXPECT_FALSE(test, hwt_wheel_next_ahead(w, &when));
	check_wheel(test, w);
}

static void bound_del_and_mod_mid_cascade(struct kunit *test)
{
	const unsigned int count = 1000;
	struct hwt_wheel *w = new_wheel(test, SHIFT, 0, 0);
	struct hwt_node *n = new_nodes(test, count), *got;
	u64 *expect = kunit_kcalloc(test, count, sizeof(*expect), GFP_KERNEL);
	bool *gone = kunit_kcalloc(test, count, sizeof(*gone), GFP_KERNEL);
	u64 start = 3 * L2, now = start;
	unsigned int i, left = 100;

	KUNIT_ASSERT_NOT_NULL(test, expect);
	KUNIT_ASSERT_NOT_NULL(test, gone);
	for (i = 0; i < count; i++) {
		expect[i] = spread(i, start + TICK, L2 - TICK);
		add_at(w, &n[i], expect[i]);
	}
	KUNIT_EXPECT_EQ(test, lvl_count(w, 2), count);
	/* reach the slot, which nothing of is due yet, and cascade a tenth of it */
	KUNIT_EXPECT_NULL(test, hwt_wheel_pop(w, start, &left));
	KUNIT_EXPECT_EQ(test, w->clk, start);
	KUNIT_EXPECT_EQ(test, left, 100U);
	KUNIT_EXPECT_TRUE(test, lvl_half_cascaded(w, 2));
	KUNIT_EXPECT_TRUE(test, hwt_wheel_ahead(w, start, &left));
	KUNIT_EXPECT_EQ(test, left, 0U);
	KUNIT_EXPECT_EQ(test, lvl_count(w, 2), count - 100);
	check_wheel(test, w);

	/* delete and move nodes, both moved ones and ones still waiting */
	for (i = 0; i < count; i++) {
		if (i % 3 == 0) {
			hwt_wheel_del(w, &n[i]);
			gone[i] = true;
		} else if (i % 5 == 0) {
			expect[i] = spread(i * 13, start, 2 * L2);
			hwt_wheel_mod(w, &n[i], expect[i]);
		}
	}
	check_wheel(test, w);

	/* the rest fire once each, at their deadlines */
	while ((got = run_until_budget(test, w, &now, start + 3 * L2, NULL, 7))) {
		i = got - n;
		KUNIT_ASSERT_FALSE(test, gone[i]);
		gone[i] = true;
		KUNIT_ASSERT_GE(test, now, expect[i]);
		KUNIT_ASSERT_LT(test, now - expect[i], TICK);
	}
	for (i = 0; i < count; i++)
		KUNIT_EXPECT_TRUE(test, gone[i]);
	KUNIT_EXPECT_TRUE(test, hwt_wheel_empty(w));
}

static void bound_rebase_moves_nothing(struct kunit *test)
{
	const unsigned int count = 2000;
	struct hwt_wheel *w = new_wheel(test, SHIFT, 0, 1000 * SEC);
	struct hwt_node *n = new_nodes(test, count), b, *got;
	u64 *expect = kunit_kcalloc(test, count, sizeof(*expect), GFP_KERNEL);
	u64 now, moved, prev = 0;
	unsigned int i, fired = 0;

	KUNIT_ASSERT_NOT_NULL(test, expect);
	for (i = 0; i < count; i++) {
		expect[i] = spread(i, 1000 * SEC, 600 * SEC);
		add_at(w, &n[i], expect[i]);
	}
	moved = w->cascaded;
	/* set back by ten minutes */
	hwt_wheel_rebase(w, 400 * SEC);
	KUNIT_EXPECT_EQ(test, w->cascaded, moved);
	KUNIT_EXPECT_EQ(test, hwt_wheel_pending(w), (unsigned long)count);
	KUNIT_EXPECT_EQ(test, w->clk, hwt_wheel_key(w, 400 * SEC));
	check_wheel(test, w);

	/* a timer armed now fires first, on the new scale */
	add_at(w, &b, 405 * SEC);
	now = w->clk;
	got = run_until_budget(test, w, &now, 2000 * SEC, NULL, 8);
	KUNIT_ASSERT_PTR_EQ(test, got, &b);
	KUNIT_EXPECT_GE(test, now, 405 * SEC);
	KUNIT_EXPECT_LT(test, now - 405 * SEC, TICK);
	/* the others at their deadlines, never early */
	while ((got = run_until_budget(test, w, &now, 2000 * SEC, NULL, 8))) {
		i = got - n;
		KUNIT_ASSERT_GE(test, now, expect[i]);
		KUNIT_ASSERT_LT(test, now - expect[i], TICK);
		KUNIT_ASSERT_GE(test, expect[i], prev);
		prev = expect[i] & ~(TICK - 1);
		if (!(++fired % 256))
			check_wheel(test, w);
	}
	KUNIT_EXPECT_EQ(test, fired, count);
	/* placing them again cost a few moves each, spread over the passes */
	KUNIT_EXPECT_LE(test, w->cascaded - moved, (u64)count * (w->levels + 1));
}

/*
 * After a set-back, a slot's bound may belong to a later turn: a level-1
 * slot holding only a node of the next level-2 turn must not hide a node
 * of this turn in a slot after it.
 */
static void bound_next_after_rebase_is_not_late(struct kunit *test)
{
	struct hwt_wheel *w = new_wheel(test, SHIFT, 0, 10 * L2);
	u64 x_at = 10 * L2 + 3 * L1 + 5 * TICK, y_at, now;
	struct hwt_node x, y;

	add_at(w, &x, x_at);
	KUNIT_EXPECT_EQ(test, hwt_wheel_level_of(w, &x), 1U);
	hwt_wheel_rebase(w, 9 * L2);
	y_at = 9 * L2 + 5 * L1 + TICK;
	add_at(w, &y, y_at);
	KUNIT_EXPECT_EQ(test, hwt_wheel_level_of(w, &y), 1U);
	now = w->clk;
	KUNIT_ASSERT_PTR_EQ(test, run_until(test, w, &now, 11 * L2, NULL), &y);
	KUNIT_EXPECT_EQ(test, now, y_at);
	KUNIT_ASSERT_PTR_EQ(test, run_until(test, w, &now, 11 * L2, NULL), &x);
	KUNIT_EXPECT_EQ(test, now, x_at);
}

/*
 * Set back into the middle of a slot that holds a node of that slot's next
 * turn: the slot is due a whole turn later, not at its start, now behind.
 */
static void bound_rebase_into_own_slot_waits_a_turn(struct kunit *test)
{
	struct hwt_wheel *w = new_wheel(test, SHIFT, 0, 10 * L2 + 3 * L1 + 2 * TICK);
	u64 x_at = 10 * L2 + 5 * L1 + 7 * TICK, now;
	unsigned int wakeups = 0;
	struct hwt_node x;

	add_at(w, &x, x_at);
	KUNIT_EXPECT_EQ(test, hwt_wheel_level_of(w, &x), 1U);
	hwt_wheel_rebase(w, 9 * L2 + 5 * L1 + 10 * TICK);
	now = w->clk;
	KUNIT_ASSERT_PTR_EQ(test, run_until(test, w, &now, 11 * L2, &wakeups), &x);
	KUNIT_EXPECT_EQ(test, now, x_at);
	KUNIT_EXPECT_LE(test, wakeups, 4U);
}

static void bound_unpark_respects_budget(struct kunit *test)
{
	const unsigned int count = 300;
	struct hwt_wheel *w = new_wheel(test, SHIFT, 1, 0);
	struct hwt_node *n = new_nodes(test, count), *got;
	u64 *expect = kunit_kcalloc(test, count, sizeof(*expect), GFP_KERNEL);
	u64 horizon = hwt_wheel_horizon(w), now = 0;
	unsigned int i, fired = 0;

	KUNIT_ASSERT_NOT_NULL(test, expect);
	for (i = 0; i < count; i++) {
		expect[i] = spread(i, 2 * horizon, 3 * horizon);
		add_at(w, &n[i], expect[i]);
	}
	KUNIT_EXPECT_EQ(test, w->nparked, (unsigned long)count);
	while ((got = run_until_budget(test, w, &now, 6 * horizon, NULL, 4))) {
		i = got - n;
		KUNIT_ASSERT_GE(test, now, expect[i]);
		KUNIT_ASSERT_LT(test, now - expect[i], TICK);
		if (!(++fired % 64))
			check_wheel(test, w);
	}
	KUNIT_EXPECT_EQ(test, fired, count);
	KUNIT_EXPECT_TRUE(test, hwt_wheel_empty(w));
}

/*
 * A small geometry with keys spread beyond its horizon, as when an owner's
 * clock lags behind the time it arms for: every parked node is placed and
 * returned on time, and each is walked a few times, not once per tick the
 * clock moves (which made catching up quadratic).
 */
static void bound_parked_spread_is_placed_in_linear_work(struct kunit *test)
{
	const unsigned int count = 5000;
	struct hwt_wheel *w = new_wheel(test, SHIFT, 2, 0);
	struct hwt_node *n = new_nodes(test, count), *got;
	u64 *expect = kunit_kcalloc(test, count, sizeof(*expect), GFP_KERNEL);
	u64 horizon = hwt_wheel_horizon(w), now = 0;
	unsigned int i, fired = 0;

	KUNIT_ASSERT_NOT_NULL(test, expect);
	for (i = 0; i < count; i++) {
		expect[i] = spread(i, TICK, 3 * horizon);
		add_at(w, &n[i], expect[i]);
	}
	KUNIT_EXPECT_LT(test, count / 2, w->nparked);
	while ((got = run_until_budget(test, w, &now, 4 * horizon, NULL, 256))) {
		i = got - n;
		KUNIT_ASSERT_GE(test, now, expect[i]);
		KUNIT_ASSERT_LT(test, now - expect[i], TICK);
		fired++;
	}
	KUNIT_EXPECT_EQ(test, fired, count);
	KUNIT_EXPECT_TRUE(test, hwt_wheel_empty(w));
	/* placed from parking at most ~6 times, then cascaded once */
	kunit_info(test, "%llu moves for %u nodes\n",
		   (unsigned long long)w->cascaded, count);
	KUNIT_EXPECT_LE(test, w->cascaded, 8ULL * count);
}

/*
 * An owner whose passes trail the time it arms for by @lag_h horizons
 * (issue 47's recipe): 5,000 nodes, with delays up to the horizon of the
 * geometry the owner accepts (two levels of 4.096 us ticks), added while
 * each pass pops at the time @lag_h horizons back, 64 units a call. The
 * wheel is built as the module builds it, with hwt_wheel_levels_for()'s
 * spare levels: every node fires, none early nor twice, and catching up
 * moves each a few times, not once per half horizon of lag.
 */
static void lag_catches_up(struct kunit *test, u64 lag_h)
{
	const unsigned int count = 5000, shift = 12;
	struct hwt_wheel *w = new_wheel(test, shift,
					hwt_wheel_levels_for(shift, 2), 0);
	struct hwt_node *n = new_nodes(test, count), *got;
	bool *fired = kunit_kcalloc(test, count, sizeof(*fired), GFP_KERNEL);
	u64 h = hwt_wheel_horizon_of(shift, 2), now = 0, lag = lag_h * h;
	unsigned int i, total = 0;

	KUNIT_ASSERT_NOT_NULL(test, fired);
	for (i = 0; i < count; i++) {
		now += h / 64;
		add_at(w, &n[i], now + 1 + (u64)i * 7919 % (h - 4096));
		if (now <= lag)
			continue;
		while ((got = pop_budget(test, w, now - lag, 64))) {
			KUNIT_ASSERT_GE(test, (s64)(now - lag - got->expires), 0);
			KUNIT_ASSERT_FALSE(test, fired[got - n]);
			fired[got - n] = true;
			total++;
		}
	}
	while ((got = pop_budget(test, w, now + 2 * h, 64))) {
		KUNIT_ASSERT_FALSE(test, fired[got - n]);
		fired[got - n] = true;
		total++;
	}
	KUNIT_EXPECT_EQ(test, total, count);
	KUNIT_EXPECT_EQ(test, w->nparked, 0UL);
	kunit_info(test, "a lag of %llu horizons: %llu moves for %u nodes\n",
		   (unsigned long long)lag_h, (unsigned long long)w->cascaded,
		   count);
	KUNIT_EXPECT_LE(test, w->cascaded, 8ULL * count);
}

static void bound_lag_of_4_horizons_catches_up_in_linear_work(struct kunit *test)
{
	lag_catches_up(test, 4);
}

static void bound_lag_of_40_horizons_catches_up_in_linear_work(struct kunit *test)
{
	lag_catches_up(test, 40);
}

/*
 * A round of placing parked nodes cut short by its budget goes on after
 * the nodes due before its own, not in front of them: 200 nodes parked 3
 * horizons out, and a node due a few ticks after their round begins.
 */
static void bound_unparking_waits_for_due_nodes(struct kunit *test)
{
	const unsigned int count = 200;
	struct hwt_wheel *w = new_wheel(test, SHIFT, 2, 0);
	struct hwt_node *n = new_nodes(test, count), d, *got;
	u64 h = hwt_wheel_horizon(w), at, moved;
	unsigned int i;

	for (i = 0; i < count; i++)
		add_at(w, &n[i], 3 * h + i * TICK);
	KUNIT_ASSERT_EQ(test, w->nparked, (unsigned long)count);
	/* the round begins half a horizon before the earliest parked key */
	at = 3 * h - ((h / 2) & ~(TICK - 1)) + 10 * TICK;
	KUNIT_ASSERT_NULL(test, pop(w, at - 20 * TICK));
	add_at(w, &d, at);
	moved = w->cascaded;
	got = pop_budget(test, w, at, 8);
	KUNIT_EXPECT_PTR_EQ(test, got, &d);
	/* one chunk of the round at most went before it */
	KUNIT_EXPECT_LE(test, w->cascaded - moved, 8ULL);
	KUNIT_EXPECT_GT(test, w->nparked, 0UL);
	while (run_until(test, w, &at, 4 * h + count * TICK, NULL))
		;
	KUNIT_EXPECT_TRUE(test, hwt_wheel_empty(w));
}

/*
 * The clock never enters a slot of level >= 1 that holds
 * HWT_CASCADE_EARLY nodes or more: such a slot is cascaded while it is the
 * next one, so no boundary has more than that left to cascade in front of
 * the timers due just after it.
 */
static void check_no_big_slot_at_clock(struct kunit *test,
				       const struct hwt_wheel *w)
{
	unsigned int lvl;

	for (lvl = 1; lvl < w->levels; lvl++) {
		unsigned int idx = lvl_idx(&w->lvl[lvl], w->clk);

		KUNIT_ASSERT_LE_MSG(test, w->lvl[lvl].slot[idx].size,
				    (u32)HWT_CASCADE_EARLY - 1,
				    "level %u slot %u at clock %llu", lvl, idx,
				    (unsigned long long)w->clk);
	}
}

/*
 * A stream of timeouts of 1 ms .. 60 s (4.096 us ticks, 4,000 a second)
 * for 12 s: across about 90 level-3 boundaries and two level-4 ones, where
 * placement by the highest differing bit put every pending timer due after
 * the boundary into one slot. Passes of 256 units, every 100 us.
 */
static void bound_stream_cascades_ahead_of_boundaries(struct kunit *test)
{
	const unsigned int shift = 12, count = 48000, budget = 256;
	const u64 step = 100000, end = 12 * SEC;
	struct hwt_wheel *w = new_wheel(test, shift, 0, 0);
	struct hwt_node *n = new_nodes(test, count), *got;
	struct rnd_state rnd;
	unsigned int added = 0, fired = 0, slots4 = 0;
	u64 now;

	prandom_seed_state(&rnd, 24);
	for (now = 0; now < end; now += step) {
		for (; added < count && added * (end / count) <= now; added++)
			add_at(w, &n[added], now + 1000000 +
			       prandom_u32_state(&rnd) % (59 * SEC / 1000) * 1000);
		for (;;) {
			unsigned int left = budget;

			got = hwt_wheel_pop(w, now, &left);
			check_no_big_slot_at_clock(test, w);
			if (got) {
				KUNIT_ASSERT_GE(test, now, got->expires);
				fired++;
			} else if (left) {
				/* nothing due: cascade ahead, a budget of its own */
				left = budget;
				if (!hwt_wheel_ahead(w, now, &left))
					break;
			}
		}
		if (w->lvl[4].occupied)
			slots4 = max_t(unsigned int, slots4,
				       hweight64(w->lvl[4].occupied));
	}
	check_wheel(test, w);
	KUNIT_EXPECT_GT(test, fired, count / 20);
	KUNIT_EXPECT_GT(test, slots4, 0U);
	kunit_info(test, "%u fired, %llu moved, %u level-4 slots at most\n",
		   fired, (unsigned long long)w->cascaded, slots4);
}

/*
 * 60,000 timeouts of 1 ms .. 60 s (4.096 us ticks), expired the way the
 * base does: sleep to hwt_wheel_next(), pop what is due, 256 units a pass.
 * Big slots of several levels wait to be cascaded ahead at once; the time
 * hwt_wheel_next() gives must always find something to do (else the base
 * would wake there again and again), and every timer fires once, in order,
 * never early.
 */
static void bound_early_cascades_of_several_levels_progress(struct kunit *test)
{
	const unsigned int shift = 12, count = 60000;
	struct hwt_wheel *w = new_wheel(test, shift, 0, 0);
	struct hwt_node *n = new_nodes(test, count), *got;
	u64 now = 0, prev = 0, end = 61 * SEC;
	unsigned int i, fired = 0;
	struct rnd_state rnd;

	prandom_seed_state(&rnd, 60);
	for (i = 0; i < count; i++)
		add_at(w, &n[i], 1000000 +
		       prandom_u32_state(&rnd) % (59 * SEC / 1000) * 1000);
	while ((got = run_until_budget(test, w, &now, end, NULL, 256))) {
		KUNIT_ASSERT_GE(test, now, got->expires);
		KUNIT_ASSERT_GE(test, hwt_wheel_key(w, got->expires), prev);
		prev = hwt_wheel_key(w, got->expires);
		fired++;
	}
	KUNIT_EXPECT_EQ(test, fired, count);
	KUNIT_EXPECT_TRUE(test, hwt_wheel_empty(w));
}

static struct kunit_case hwtimer_wheel_bound_cases[] = {
	KUNIT_CASE(bound_cascade_respects_budget),
	KUNIT_CASE(bound_big_slot_is_due_a_slot_early),
	KUNIT_CASE(bound_del_and_mod_mid_cascade),
	KUNIT_CASE(bound_rebase_moves_nothing),
	KUNIT_CASE(bound_next_after_rebase_is_not_late),
	KUNIT_CASE(bound_rebase_into_own_slot_waits_a_turn),
	KUNIT_CASE(bound_unpark_respects_budget),
	KUNIT_CASE(bound_parked_spread_is_placed_in_linear_work),
	KUNIT_CASE(bound_lag_of_4_horizons_catches_up_in_linear_work),
	KUNIT_CASE(bound_lag_of_40_horizons_catches_up_in_linear_work),
	KUNIT_CASE(bound_unparking_waits_for_due_nodes),
	KUNIT_CASE_SLOW(bound_stream_cascades_ahead_of_boundaries),
	KUNIT_CASE_SLOW(bound_early_cascades_of_several_levels_progress),
	{}
};

static struct kunit_suite hwtimer_wheel_bound_suite = {
	.name = "hwtimer_wheel_bound",
	.test_cases = hwtimer_wheel_bound_cases,
};

kunit_test_suite(hwtimer_wheel_bound_suite);

MODULE_DESCRIPTION("KUnit tests for the hwtimer wheel core's bounded work");
MODULE_LICENSE("GPL");
