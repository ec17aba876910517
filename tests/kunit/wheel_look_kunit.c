// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit suite for how the wheel core finds its next event and places a
 * key, the two things every operation pays for: the level of a key in
 * every geometry, and the looks a pop saves (wheel_clock.c). A pop that
 * takes the earliest level's node looks at that level alone, and falls back
 * to a look at every level when it no longer has the earliest event, when
 * its new first slot is big, when it emptied, when something else changed,
 * when a slot is half cascaded; with nodes parked, pops take the long way.
 * Each case checks the events kept against a look from scratch, and counts
 * the looks (HWT_WHEEL_COUNT). Like wheel_kunit.c it runs in the kernel and
 * natively.
 */
#define HWT_WHEEL_COUNT
#include <kunit/test.h>

#include "wheel_unit.h"
#include "wheel_test.h"

unsigned long hwt_count_looks, hwt_count_combines;

#define L1	(TICK << HWT_LVL_BITS)		/* a level-1 slot */
#define L2	(L1 << HWT_LVL_BITS)		/* a level-2 slot */

/* Slots of level @lvl that @key is ahead of @clk, modulo the level's turn. */
static u64 slots_ahead(const struct hwt_wheel *w, unsigned int lvl, u64 key,
		       u64 clk)
{
	unsigned int s = w->lvl[lvl].shift;

	return ((key >> s) - (clk >> s)) & (U64_MAX >> s);
}

/* The keys of look_level_of_a_key_in_every_geometry(), in one geometry. */
static void look_levels_of_keys(struct kunit *test, struct hwt_wheel *w,
				unsigned int shift, unsigned int levels)
{
	u64 tick = 1ULL << shift, horizon, clk;
	unsigned int l, d;

	horizon = min(hwt_wheel_horizon(w), 1ULL << 62);
	clk = w->clk;
	for (l = 0; l <= levels; l++) {
		/* 64 slots of level l, if that fits */
		u64 edge = shift + HWT_LVL_BITS * (l + 1) + 1 < 63 ?
			   (HWT_LVL_SIZE * tick) << (l * HWT_LVL_BITS) :
			   horizon;

		for (d = 0; d < 6; d++) {
			static const s64 around[] = { 1, 63, -1, 0, 1, 2 };
			u64 ahead = d < 2 ? around[d] * tick :
				    edge + around[d] * (s64)tick;
			unsigned int lvl;
			u64 key;

			if (ahead >= horizon || (d >= 2 && edge >= horizon))
				ahead = horizon - tick;
			key = clk + (ahead & ~(tick - 1));
			lvl = hwt_level(w, key, clk);
			KUNIT_ASSERT_LT_MSG(test, lvl, levels,
					    "shift %u levels %u ahead %llu",
					    shift, levels,
					    (unsigned long long)ahead);
			KUNIT_ASSERT_LE(test, slots_ahead(w, lvl, key, clk),
					(u64)w->lvl[lvl].mask);
			if (lvl)
				KUNIT_ASSERT_GE(test,
						slots_ahead(w, lvl - 1, key, clk),
						(u64)HWT_LVL_SIZE);
		}
	}
}

/*
 * Every geometry, clocks anywhere (wrapping ones too), keys from a tick
 * ahead to the horizon and around every level's boundaries: hwt_level()
 * stays below the top, gives a slot fewer than 64 ahead, and the lowest
 * such level.
 */
static void look_level_of_a_key_in_every_geometry(struct kunit *test)
{
	static const u64 clocks[] = {
		0, (1ULL << 40) + 12345, (1ULL << 63) - 777777,
		U64_MAX - (1ULL << 35),
	};
	unsigned int shift, levels, c;
	struct hwt_wheel *w = new_wheel(test, HWT_SHIFT_MIN, 0, 0);

	for (shift = HWT_SHIFT_MIN; shift <= HWT_SHIFT_MAX; shift++) {
		unsigned int max = hwt_wheel_max_levels(shift);

		for (levels = 1; levels <= max; levels++) {
			for (c = 0; c < ARRAY_SIZE(clocks); c++) {
				KUNIT_ASSERT_EQ(test, hwt_wheel_init(w, shift, levels,
								     clocks[c]), 0);
				look_levels_of_keys(test, w, shift, levels);
			}
		}
	}
}

/*
 * The events kept match a look from scratch: the earliest event and its
 * level, the earliest of the other levels', when the wheel wakes, and
 * from when it may cascade ahead.
 */
static void check_events(struct kunit *test, struct hwt_wheel *w)
{
	struct hwt_events kept = w->ev;
	bool early = w->ev.early & w->occupied;

	KUNIT_ASSERT_TRUE(test, w->fresh & HWT_FRESH_BEST);
	w->fresh = 0;
	hwt_events_refresh(w);
	KUNIT_EXPECT_EQ(test, kept.best_lvl, w->ev.best_lvl);
	KUNIT_EXPECT_EQ(test, kept.best, w->ev.best);
	KUNIT_EXPECT_EQ(test, kept.second, w->ev.second);
	KUNIT_EXPECT_EQ(test, kept.soonest, w->ev.soonest);
	if (hweight32(w->occupied) > 1)
		KUNIT_EXPECT_EQ(test, kept.others, w->ev.others);
	KUNIT_EXPECT_EQ(test, early, !!(w->ev.early & w->occupied));
	if (early)
		KUNIT_EXPECT_EQ(test, hwt_ahead(w, kept.may_min),
				hwt_ahead(w, w->ev.may_min));
}

/*
 * Pop @n at its key: it must come out, and the pop after it must find
 * nothing due. Return how many looks at every level that took; *@looks
 * gets how many levels were looked at.
 */
static unsigned long pop_at_key(struct kunit *test, struct hwt_wheel *w,
				struct hwt_node *n, unsigned long *looks)
{
	unsigned long combines = hwt_count_combines, looked = hwt_count_looks;
	u64 now = hwt_wheel_key(w, n->expires);

	KUNIT_ASSERT_PTR_EQ(test, pop(w, now), n);
	KUNIT_ASSERT_NULL(test, pop(w, now));
	combines = hwt_count_combines - combines;
	if (looks)
		*looks = hwt_count_looks - looked;
	check_events(test, w);
	return combines;
}

/* a wheel at 0 that has looked at everything once, with @n queued */
static struct hwt_wheel *looked_wheel(struct kunit *test, unsigned int levels,
				      struct hwt_node *n, const u64 *at,
				      unsigned int count)
{
	struct hwt_wheel *w = new_wheel(test, SHIFT, levels, 0);
	unsigned int i;
	u64 when;

	for (i = 0; i < count; i++)
		add_at(w, &n[i], at[i]);
	KUNIT_ASSERT_TRUE(test, hwt_wheel_next(w, &when));
	return w;
}

/*
 * A node alone in its level-1 slot, with another level-1 slot and a far
 * level-3 node after it: popping it looks at level 1 alone; the pop after
 * answers at its entry, and the next time is the other level-1 node's.
 */
static void look_pop_looks_at_its_level_alone(struct kunit *test)
{
	static const u64 at[] = { 3 * L1 + 5 * TICK, 9 * L1 + 2 * TICK, 100 * L2 };
	struct hwt_node n[3];
	struct hwt_wheel *w = looked_wheel(test, 0, n, at, 3);
	unsigned long looks;
	u64 when;

	KUNIT_ASSERT_EQ(test, hwt_wheel_level_of(w, &n[0]), 1U);
	KUNIT_ASSERT_EQ(test, hwt_wheel_level_of(w, &n[1]), 1U);
	KUNIT_ASSERT_EQ(test, hwt_wheel_level_of(w, &n[2]), 3U);
	KUNIT_EXPECT_EQ(test, pop_at_key(test, w, &n[0], &looks), 0UL);
	KUNIT_EXPECT_EQ(test, looks, 1UL);
	KUNIT_ASSERT_TRUE(test, hwt_wheel_next(w, &when));
	KUNIT_EXPECT_EQ(test, when, at[1]);
}

/*
 * Its level's next slot comes after another level's event (a level-2
 * slot that starts before it): a look at every level.
 */
static void look_fallback_no_longer_earliest(struct kunit *test)
{
	struct hwt_wheel *w = new_wheel(test, SHIFT, 0, 0);
	struct hwt_node a, b, d;
	u64 when;

	add_at(w, &b, 2 * L2 + 3 * TICK);
	KUNIT_ASSERT_NULL(test, pop(w, 1000 * TICK));
	add_at(w, &a, 1100 * TICK);
	add_at(w, &d, 2900 * TICK);
	KUNIT_ASSERT_EQ(test, hwt_wheel_level_of(w, &a), 1U);
	KUNIT_ASSERT_EQ(test, hwt_wheel_level_of(w, &b), 2U);
	KUNIT_ASSERT_EQ(test, hwt_wheel_level_of(w, &d), 1U);
	KUNIT_ASSERT_TRUE(test, hwt_wheel_next(w, &when));
	KUNIT_EXPECT_EQ(test, pop_at_key(test, w, &a, NULL), 1UL);
	KUNIT_EXPECT_EQ(test, w->ev.best_lvl, 2U);
}

/*
 * A lone node of level 2 popped: its level's next slot starts first, but
 * its first deadline comes after level 1's: the other levels' events
 * stand (no look at every level), and the wheel still wakes for level 1's
 * node first, from the earliest wake of the other levels kept.
 */
static void look_kept_wakes_after_another(struct kunit *test)
{
	struct hwt_wheel *w = new_wheel(test, SHIFT, 0, 0);
	struct hwt_node a, d, e;
	u64 when;

	add_at(w, &a, 2058 * TICK);
	add_at(w, &d, 3572 * TICK);
	KUNIT_ASSERT_NULL(test, pop(w, 2000 * TICK));
	add_at(w, &e, 3200 * TICK);
	KUNIT_ASSERT_EQ(test, hwt_wheel_level_of(w, &a), 2U);
	KUNIT_ASSERT_EQ(test, hwt_wheel_level_of(w, &d), 2U);
	KUNIT_ASSERT_EQ(test, hwt_wheel_level_of(w, &e), 1U);
	KUNIT_ASSERT_TRUE(test, hwt_wheel_next(w, &when));
	KUNIT_EXPECT_EQ(test, pop_at_key(test, w, &a, NULL), 0UL);
	KUNIT_EXPECT_EQ(test, w->ev.best_lvl, 2U);
	KUNIT_ASSERT_TRUE(test, hwt_wheel_next(w, &when));
	KUNIT_EXPECT_EQ(test, when, 3200 * TICK);
}

/* The level emptied: a look at every level. */
static void look_fallback_level_emptied(struct kunit *test)
{
	static const u64 at[] = { 3 * L1 + 5 * TICK, 100 * L2 };
	struct hwt_node n[2];
	struct hwt_wheel *w = looked_wheel(test, 0, n, at, 2);

	KUNIT_ASSERT_EQ(test, hwt_wheel_level_of(w, &n[1]), 3U);
	KUNIT_EXPECT_EQ(test, pop_at_key(test, w, &n[0], NULL), 1UL);
	KUNIT_EXPECT_EQ(test, w->ev.best_lvl, 3U);
}

/* Its new first slot is big, to be cascaded ahead: a look at every level. */
static void look_fallback_next_slot_big(struct kunit *test)
{
	struct hwt_node *n = new_nodes(test, HWT_CASCADE_EARLY + 2);
	u64 *at = kunit_kcalloc(test, HWT_CASCADE_EARLY + 2, sizeof(*at),
				GFP_KERNEL);
	struct hwt_wheel *w;
	unsigned int i;

	KUNIT_ASSERT_NOT_NULL(test, at);
	at[0] = 3 * L1 + 5 * TICK;
	at[1] = 40 * L2;
	for (i = 2; i < HWT_CASCADE_EARLY + 2; i++)
		at[i] = 9 * L1 + (i % 30) * TICK;
	w = looked_wheel(test, 0, n, at, HWT_CASCADE_EARLY + 2);
	KUNIT_EXPECT_EQ(test, pop_at_key(test, w, &n[0], NULL), 1UL);
	KUNIT_EXPECT_TRUE(test, w->ev.early & BIT(1));
}

/*
 * Another level changed too (a node added to level 2 after the look): a
 * look at every level.
 */
static void look_fallback_another_level_changed(struct kunit *test)
{
	static const u64 at[] = { 3 * L1 + 5 * TICK, 9 * L1, 100 * L2 };
	struct hwt_node n[3], x;
	struct hwt_wheel *w = looked_wheel(test, 0, n, at, 3);

	/* up to the first key's slot of level 1, not into it */
	KUNIT_ASSERT_NULL(test, pop(w, 3 * L1 - TICK));
	add_at(w, &x, 5 * L2);
	KUNIT_ASSERT_EQ(test, hwt_wheel_level_of(w, &x), 2U);
	KUNIT_EXPECT_EQ(test, pop_at_key(test, w, &n[0], NULL), 1UL);
}

/*
 * The popped level's slot is the clock's own, left half cascaded: it is
 * cascaded ahead, so a look at every level; what is left is returned at
 * its keys all the same.
 */
static void look_fallback_half_cascaded(struct kunit *test)
{
	struct hwt_node *n = new_nodes(test, 40);
	struct hwt_wheel *w = new_wheel(test, SHIFT, 0, 0);
	u64 key = 20 * L2 + 5 * L1, now;
	unsigned int i, left = 4, fired = 0;
	struct hwt_node *got;

	for (i = 0; i < 40; i++)
		add_at(w, &n[i], key + (i % 2) * TICK);
	/* into the slot, which nothing of is due yet, and a part of it on */
	KUNIT_ASSERT_NULL(test, hwt_wheel_pop(w, key - TICK, &left));
	KUNIT_ASSERT_TRUE(test, lvl_half_cascaded(w, 2));
	left = 4;
	KUNIT_ASSERT_TRUE(test, hwt_wheel_ahead(w, key - TICK, &left));
	check_events(test, w);
	KUNIT_EXPECT_TRUE(test, w->ev.early & BIT(2));
	now = key;
	while ((got = run_until(test, w, &now, key + L2, NULL))) {
		KUNIT_ASSERT_EQ(test, now, hwt_wheel_key(w, got->expires));
		fired++;
	}
	KUNIT_EXPECT_EQ(test, fired, 40U);
}

/*
 * Nodes parked beyond the horizon of a wheel of two levels: pops go the
 * long way, which places them half a horizon ahead of their keys, and the
 * node popped before them is on time; so are they.
 */
static void look_fallback_parked(struct kunit *test)
{
	struct hwt_wheel *w = new_wheel(test, SHIFT, 2, 0);
	u64 horizon = hwt_wheel_horizon(w), now = 0;
	struct hwt_node a, p[3], *got;
	unsigned int i, fired = 0;

	add_at(w, &a, 5 * TICK);
	for (i = 0; i < 3; i++)
		add_at(w, &p[i], horizon + (i + 1) * L1);
	KUNIT_ASSERT_EQ(test, w->nparked, 3UL);
	KUNIT_ASSERT_PTR_EQ(test, run_until(test, w, &now, 3 * horizon, NULL), &a);
	KUNIT_EXPECT_EQ(test, now, 5 * TICK);
	KUNIT_EXPECT_NULL(test, pop(w, now));
	while ((got = run_until(test, w, &now, 3 * horizon, NULL))) {
		KUNIT_ASSERT_EQ(test, now, got->expires);
		fired++;
	}
	KUNIT_EXPECT_EQ(test, fired, 3U);
}

/*
 * With the events looked at, a pop before the earliest answers "nothing
 * due" at its entry, without a look, and moves the clock there.
 */
static void look_nothing_due_at_entry(struct kunit *test)
{
	static const u64 at[] = { 3 * L1 + 5 * TICK, 100 * L2 };
	struct hwt_node n[2];
	struct hwt_wheel *w = looked_wheel(test, 0, n, at, 2);
	unsigned long looks = hwt_count_looks, combines = hwt_count_combines;
	u64 now;

	/* before the first key's slot: pops there move nothing */
	for (now = TICK; now < 3 * L1; now += 7 * TICK) {
		KUNIT_ASSERT_NULL(test, pop(w, now));
		KUNIT_ASSERT_EQ(test, w->clk, now & ~(TICK - 1));
	}
	KUNIT_EXPECT_EQ(test, hwt_count_looks, looks);
	KUNIT_EXPECT_EQ(test, hwt_count_combines, combines);
	KUNIT_EXPECT_PTR_EQ(test, pop(w, at[0]), &n[0]);
}

static struct kunit_case hwtimer_wheel_look_cases[] = {
	KUNIT_CASE_SLOW(look_level_of_a_key_in_every_geometry),
	KUNIT_CASE(look_pop_looks_at_its_level_alone),
	KUNIT_CASE(look_fallback_no_longer_earliest),
	KUNIT_CASE(look_kept_wakes_after_another),
	KUNIT_CASE(look_fallback_level_emptied),
	KUNIT_CASE(look_fallback_next_slot_big),
	KUNIT_CASE(look_fallback_another_level_changed),
	KUNIT_CASE(look_fallback_half_cascaded),
	KUNIT_CASE(look_fallback_parked),
	KUNIT_CASE(look_nothing_due_at_entry),
	{}
};

static struct kunit_suite hwtimer_wheel_look_suite = {
	.name = "hwtimer_wheel_look",
	.test_cases = hwtimer_wheel_look_cases,
};

kunit_test_suite(hwtimer_wheel_look_suite);

MODULE_DESCRIPTION("KUnit tests for how the hwtimer wheel core looks and places");
MODULE_LICENSE("GPL");
