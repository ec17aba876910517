/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Helpers of the wheel core's KUnit suites (tests/kunit/wheel_*_kunit.c),
 * which include the core's source (wheel*.c) before this file, in the
 * kernel and natively alike.
 */
#ifndef _HWT_WHEEL_TEST_H
#define _HWT_WHEEL_TEST_H

#define SHIFT	20
#define TICK	BIT_ULL(SHIFT)
#define SEC	1000000000ULL
#define MS	1000000ULL
#define YEAR	(365ULL * 24 * 3600 * SEC)
#define UNLIMITED	(~0U)

static struct hwt_wheel *new_wheel(struct kunit *test, unsigned int shift,
				   unsigned int levels, u64 now)
{
	unsigned int n = levels ? levels : hwt_wheel_max_levels(shift);
	struct hwt_wheel *w = kunit_kzalloc(test, hwt_wheel_size(n), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, w);
	KUNIT_ASSERT_EQ(test, hwt_wheel_init(w, shift, levels, now), 0);
	return w;
}

static __maybe_unused struct hwt_node *new_nodes(struct kunit *test, unsigned int n)
{
	struct hwt_node *nodes = kunit_kcalloc(test, n, sizeof(*nodes),
					       GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, nodes);
	return nodes;
}

/*
 * hwt_wheel_pop() with a budget of @budget per call, called again while it
 * runs out of budget with nothing to return. Each call must spend exactly
 * one unit per node it returned or placed and one per HWT_CHEAP_PER_UNIT
 * nodes it moved without placing them, and no more than it was given.
 */
static struct hwt_node *pop_budget(struct kunit *test, struct hwt_wheel *w,
				   u64 now, unsigned int budget)
{
	for (;;) {
		unsigned int left = budget;
		u64 units = hwt_wheel_work_units(w);
		struct hwt_node *n = hwt_wheel_pop(w, now, &left);

		if (test)
			KUNIT_ASSERT_EQ(test, hwt_wheel_work_units(w) - units + !!n,
					(u64)(budget - left));
		if (n || left)
			return n;
	}
}

/* hwt_wheel_pop() with a budget that does not run out */
static __maybe_unused struct hwt_node *pop(struct hwt_wheel *w, u64 now)
{
	return pop_budget(NULL, w, now, UNLIMITED);
}

static void add_at(struct hwt_wheel *w, struct hwt_node *n, u64 expires)
{
	n->expires = expires;
	hwt_wheel_add(w, n);
}

/*
 * Drive the wheel the way the timer base drives it from its hrtimer: sleep
 * until hwt_wheel_next(), pop what is due (@budget nodes per pass), repeat.
 * Returns the next node due no later than @until, with *@now set to when it
 * was popped, or NULL with *@now = @until. Counts the wakeups that found the
 * wheel's next time.
 */
static struct hwt_node *run_until_budget(struct kunit *test,
					 struct hwt_wheel *w, u64 *now,
					 u64 until, unsigned int *wakeups,
					 unsigned int budget)
{
	struct hwt_node *n;
	u64 when;

	for (;;) {
		n = pop_budget(test, w, *now, budget);
		if (n)
			return n;
		if (!hwt_wheel_next(w, &when) || (s64)(when - until) > 0)
			break;
		/* nothing due now, so the next time must lie ahead */
		KUNIT_ASSERT_GT(test, (s64)(when - *now), 0);
		*now = when;
		if (wakeups)
			(*wakeups)++;
	}
	*now = until;
	return pop_budget(test, w, until, budget);
}

static __maybe_unused struct hwt_node *run_until(struct kunit *test, struct hwt_wheel *w,
						 u64 *now, u64 until, unsigned int *wakeups)
{
	return run_until_budget(test, w, now, until, wakeups, UNLIMITED);
}

/* Nodes on level @lvl, counted on its lists. */
static __maybe_unused unsigned int lvl_count(const struct hwt_wheel *w,
					     unsigned int lvl)
{
	const struct hwt_node *n;
	unsigned int i, count = 0;

	for (i = 0; i < HWT_LVL_SIZE; i++)
		list_for_each_entry(n, &w->lvl[lvl].slot[i].head, entry)
			count++;
	return count;
}

/*
 * Walk the whole wheel and check its bookkeeping: every node is in the slot
 * its recorded level and its key name, occupancy bits and sizes match the
 * lists, each slot's bound is at or before its deadlines, parked nodes are
 * on the parked lists, nothing queued is due before the clock, and a slot
 * left half cascaded holds the clock before its first key.
 */
static __maybe_unused void check_wheel(struct kunit *test,
				       const struct hwt_wheel *w)
{
	unsigned long total = 0, parked = 0;
	const struct hwt_node *n;
	unsigned int lvl, i;

	for (lvl = 0; lvl < w->levels; lvl++) {
		const struct hwt_level *l = &w->lvl[lvl];
		u32 count = 0;

		for (i = 0; i < HWT_LVL_SIZE; i++) {
			const struct hwt_slot *s = &l->slot[i];
			u32 size = 0;

			list_for_each_entry(n, &s->head, entry) {
				u64 key = hwt_wheel_key(w, n->expires);

				/* passed over in the clock's tick: in its slot */
				if (n->lvl == HWT_LVL_LATER && !lvl &&
				    i == w->later_idx)
					KUNIT_ASSERT_EQ(test, key, w->clk);
				else
					KUNIT_ASSERT_EQ(test, (unsigned int)n->lvl, lvl);
				KUNIT_ASSERT_EQ(test, lvl_idx(l, key), i);
				KUNIT_ASSERT_GE(test, (s64)(key - w->clk), 0);
				/* a lower bound of the slot's deadlines */
				KUNIT_ASSERT_GE(test,
						(s64)(n->expires - s->first), 0);
				size++;
			}
			if (!lvl && i == w->later_idx) {
				list_for_each_entry(n, &w->later, entry) {
					KUNIT_ASSERT_EQ(test, (unsigned int)n->lvl,
							(unsigned int)HWT_LVL_LATER);
					KUNIT_ASSERT_GE(test,
							(s64)(n->expires - s->first), 0);
					size++;
				}
			}
			KUNIT_ASSERT_EQ(test, s->size, size);
			KUNIT_ASSERT_EQ(test, !!(l->occupied & BIT_ULL(i)), !!size);
			count += size;
		}
		KUNIT_ASSERT_EQ(test, !!(w->occupied & BIT(lvl)), !!count);
		if (lvl && lvl_half_cascaded(w, lvl) &&
		    l->slot[lvl_idx(l, w->clk)].size)
			KUNIT_ASSERT_GE(test,
					(s64)(hwt_wheel_key(w, l->slot[lvl_idx(l, w->clk)].first) -
					      w->clk), 0);
		total += count;
	}
	list_for_each_entry(n, &w->parked, entry) {
		KUNIT_ASSERT_EQ(test, (unsigned int)n->lvl, w->levels);
		KUNIT_ASSERT_GE(test, (s64)(n->expires - w->parked_min), 0);
		parked++;
	}
	list_for_each_entry(n, &w->unparking, entry) {
		KUNIT_ASSERT_EQ(test, (unsigned int)n->lvl, w->levels);
		parked++;
	}
	KUNIT_ASSERT_EQ(test, w->nparked, parked);
	KUNIT_ASSERT_EQ(test, hwt_wheel_pending(w), total + parked);
}

#endif /* _HWT_WHEEL_TEST_H */
