// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit suite for cascading ahead (wheel.h): hwt_wheel_pop() returns due
 * nodes and does only the work they need, hwt_wheel_ahead() cascades big
 * slots before they must be, with a budget of its own, and
 * hwt_wheel_next_ahead() says when, which hwt_wheel_next() leaves out. An
 * owner that never cascades ahead loses nothing but the spreading: every
 * node still fires at its key. Like wheel_kunit.c it runs in the kernel
 * and natively.
 */
#include <kunit/test.h>
#include <linux/prandom.h>

#include "wheel_unit.h"
#include "wheel_test.h"

#define L1	(TICK << HWT_LVL_BITS)		/* a level-1 slot */
#define L2	(L1 << HWT_LVL_BITS)		/* a level-2 slot */

/* @count nodes in level-2 slot 10, from the middle of it on */
static void add_big_slot(struct kunit *test, struct hwt_wheel *w,
			 unsigned int count)
{
	struct hwt_node *n = new_nodes(test, count);
	unsigned int i;

	for (i = 0; i < count; i++) {
		add_at(w, &n[i], 10 * L2 + L2 / 2 + i * TICK);
		KUNIT_ASSERT_EQ(test, hwt_wheel_level_of(w, &n[i]), 2U);
	}
}

/*
 * A node due while a big slot may be cascaded ahead: the pop returns the
 * node, for one unit, and cascades nothing; the ahead call does nothing
 * while the node is due, and the cascade once it is popped.
 */
static void ahead_due_node_goes_first(struct kunit *test)
{
	struct hwt_wheel *w = new_wheel(test, SHIFT, 0, 0);
	u64 now = 9 * L2 + 5 * TICK, when;
	unsigned int left = 16;
	struct hwt_node d;

	add_big_slot(test, w, 2 * HWT_CASCADE_EARLY);
	/* the clock in the slot before the big one, and a node due there */
	KUNIT_ASSERT_NULL(test, pop(w, 9 * L2));
	add_at(w, &d, now);
	/* at once: from the start of the clock's tick, which ends at 9 * L2 */
	KUNIT_ASSERT_TRUE(test, hwt_wheel_next_ahead(w, &when));
	KUNIT_EXPECT_EQ(test, when, 9 * L2 - TICK + 1);
	KUNIT_ASSERT_TRUE(test, hwt_wheel_next(w, &when));
	KUNIT_EXPECT_EQ(test, when, now);

	/* asked first, the ahead call leaves the due node to the pop */
	KUNIT_EXPECT_FALSE(test, hwt_wheel_ahead(w, now, &left));
	KUNIT_EXPECT_EQ(test, left, 16U);
	KUNIT_EXPECT_EQ(test, w->cascaded, 0ULL);

	left = 1;
	KUNIT_EXPECT_PTR_EQ(test, hwt_wheel_pop(w, now, &left), &d);
	KUNIT_EXPECT_EQ(test, left, 0U);
	KUNIT_EXPECT_EQ(test, lvl_count(w, 2), 2U * HWT_CASCADE_EARLY);
	left = 1;
	KUNIT_EXPECT_NULL(test, hwt_wheel_pop(w, now, &left));
	KUNIT_EXPECT_EQ(test, left, 1U);
	KUNIT_EXPECT_EQ(test, w->cascaded, 0ULL);

	/* now the cascade, as far as its budget goes */
	left = 16;
	KUNIT_EXPECT_TRUE(test, hwt_wheel_ahead(w, now, &left));
	KUNIT_EXPECT_EQ(test, left, 0U);
	KUNIT_EXPECT_EQ(test, w->cascaded, 16ULL);
	KUNIT_EXPECT_EQ(test, lvl_count(w, 1), 16U);
	check_wheel(test, w);
}

/*
 * From the slot before a big one up to its first key, pops at every tick
 * spend nothing and move nothing, passing the slot's start included, and
 * hwt_wheel_next() stays at the first key; hwt_wheel_next_ahead() says the
 * work may be done, and hwt_wheel_ahead() does it, a budget at a time,
 * saying true while it is left.
 */
static void ahead_pop_spends_no_budget_on_it(struct kunit *test)
{
	struct hwt_wheel *w = new_wheel(test, SHIFT, 0, 0);
	u64 first = 10 * L2 + L2 / 2, now, when;
	unsigned int left, calls = 0;

	add_big_slot(test, w, HWT_CASCADE_EARLY);
	for (now = 9 * L2; now < first; now += TICK) {
		left = 5;
		KUNIT_ASSERT_NULL(test, hwt_wheel_pop(w, now, &left));
		KUNIT_ASSERT_EQ(test, left, 5U);
		KUNIT_ASSERT_EQ(test, w->cascaded, 0ULL);
		KUNIT_ASSERT_TRUE(test, hwt_wheel_next(w, &when));
		KUNIT_ASSERT_EQ(test, when, first);
		KUNIT_ASSERT_TRUE(test, hwt_wheel_next_ahead(w, &when));
		KUNIT_ASSERT_LE(test, when, now);
	}
	/* past the slot's start: it is the clock's own, left half cascaded */
	KUNIT_EXPECT_TRUE(test, lvl_half_cascaded(w, 2));
	now = first - TICK;
	do {
		left = 7;
		calls++;
	} while (hwt_wheel_ahead(w, now, &left) && !left);
	KUNIT_EXPECT_EQ(test, calls, (unsigned int)DIV_ROUND_UP(HWT_CASCADE_EARLY, 7));
	KUNIT_EXPECT_EQ(test, lvl_count(w, 2), 0U);
	KUNIT_EXPECT_FALSE(test, hwt_wheel_next_ahead(w, &when));
	KUNIT_ASSERT_TRUE(test, hwt_wheel_next(w, &when));
	KUNIT_EXPECT_EQ(test, when, first);
	check_wheel(test, w);
}

/* Whether the clock's own slot of a level >= 1 is a big one being cascaded. */
static bool big_slot_at_clock(const struct hwt_wheel *w)
{
	unsigned int lvl;

	for (lvl = 1; lvl < w->levels; lvl++)
		if (w->lvl[lvl].slot[lvl_idx(&w->lvl[lvl], w->clk)].size >=
		    HWT_CASCADE_EARLY)
			return true;
	return false;
}

/*
 * 60,000 timeouts of 1 ms .. 60 s (4.096 us ticks), expired by pops of 256
 * units at hwt_wheel_next() alone, never cascading ahead: the big slots of
 * levels 3 and 4 are cascaded when their time comes, and every timer fires
 * once, in order, at its key, never early, less than a tick late.
 */
static void ahead_never_called_nothing_late(struct kunit *test)
{
	const unsigned int shift = 12, count = 60000;
	struct hwt_wheel *w = new_wheel(test, shift, 0, 0);
	struct hwt_node *n = new_nodes(test, count), *got;
	u64 now = 0, prev = 0, tick = 1ULL << shift;
	unsigned int i, fired = 0, big = 0;
	struct rnd_state rnd;

	prandom_seed_state(&rnd, 39);
	for (i = 0; i < count; i++)
		add_at(w, &n[i], 1000000 +
		       prandom_u32_state(&rnd) % (59 * SEC / 1000) * 1000);
	while ((got = run_until_budget(test, w, &now, 61 * SEC, NULL, 256))) {
		KUNIT_ASSERT_GE(test, now, got->expires);
		KUNIT_ASSERT_LT(test, now - got->expires, tick);
		KUNIT_ASSERT_GE(test, hwt_wheel_key(w, got->expires), prev);
		prev = hwt_wheel_key(w, got->expires);
		big += big_slot_at_clock(w);
		fired++;
	}
	KUNIT_EXPECT_EQ(test, fired, count);
	KUNIT_EXPECT_GT(test, big, 0U);
	KUNIT_EXPECT_TRUE(test, hwt_wheel_empty(w));
	kunit_info(test, "%u fired, %llu moved, %u pops with a big slot at the clock\n",
		   fired, (unsigned long long)w->cascaded, big);
}

/*
 * A herd of 10^4 at one key in the middle of a level-1 slot, never
 * cascaded ahead: the first pop at the key begins the cascade, and within
 * one pass (pops of 64 units, as the base's first step) a node comes out.
 */
static void ahead_never_called_herd_first_at_key(struct kunit *test)
{
	const unsigned int count = 10000;
	struct hwt_wheel *w = new_wheel(test, SHIFT, 0, 0);
	struct hwt_node *n = new_nodes(test, count), *got;
	u64 key = 40 * L2 + 7 * L1 + 16 * TICK, now = 0;
	unsigned int i, pops = 0, fired = 0;

	for (i = 0; i < count; i++)
		add_at(w, &n[i], key);
	KUNIT_ASSERT_TRUE(test, hwt_wheel_next(w, &now));
	KUNIT_EXPECT_EQ(test, now, key);
	do {
		unsigned int left = 64;

		got = hwt_wheel_pop(w, now, &left);
		pops++;
	} while (!got && pops < 4);	/* a pass: 256 units */
	KUNIT_ASSERT_NOT_NULL(test, got);
	KUNIT_EXPECT_EQ(test, got->expires, key);
	for (fired = 1; pop(w, now); fired++)
		;
	KUNIT_EXPECT_EQ(test, fired, count);
	KUNIT_EXPECT_TRUE(test, hwt_wheel_empty(w));
}

static struct kunit_case hwtimer_wheel_ahead_cases[] = {
	KUNIT_CASE(ahead_due_node_goes_first),
	KUNIT_CASE(ahead_pop_spends_no_budget_on_it),
	KUNIT_CASE_SLOW(ahead_never_called_nothing_late),
	KUNIT_CASE(ahead_never_called_herd_first_at_key),
	{}
};

static struct kunit_suite hwtimer_wheel_ahead_suite = {
	.name = "hwtimer_wheel_ahead",
	.test_cases = hwtimer_wheel_ahead_cases,
};

kunit_test_suite(hwtimer_wheel_ahead_suite);

MODULE_DESCRIPTION("KUnit tests for the hwtimer wheel core's cascading ahead");
MODULE_LICENSE("GPL");
