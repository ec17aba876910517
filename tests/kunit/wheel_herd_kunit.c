// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit suite for herds: many nodes due at one instant, or within a few
 * ticks. The cascade of their slot cannot finish before the first of them
 * is due, so the clock goes into the half-cascaded slot up to its first key
 * and nodes are returned as the cascade reaches them (wheel.h). Driven by a
 * fake clock on which every pass takes time, as passes do in the kernel;
 * then a randomised stress of herds against a model, with deletes,
 * modifies, budgets and set-backs mid-cascade, in every geometry. Like
 * wheel_kunit.c it runs in the kernel and natively.
 */
#include <kunit/test.h>
#include <linux/prandom.h>

#include "wheel_unit.h"
#include "wheel_test.h"

#define L1	(TICK << HWT_LVL_BITS)		/* a level-1 slot */
#define L2	(L1 << HWT_LVL_BITS)		/* a level-2 slot */

/*
 * A pass as the timer base runs it at @now: pops of at most @budget units
 * each, until one comes back with budget left (nothing more due); then, if
 * it was not cut short, a pass of cascading ahead with a budget of its own.
 * Returns the nodes it popped into @out (at most @max), and whether it
 * left work: due, or ahead at @now.
 */
static bool herd_pass(struct kunit *test, struct hwt_wheel *w, u64 now,
		      unsigned int budget, struct hwt_node **out,
		      unsigned int max, unsigned int *got)
{
	unsigned int left = budget;
	struct hwt_node *n;
	u64 units;
	bool more;

	*got = 0;
	while (left) {
		unsigned int before = left;

		units = hwt_wheel_work_units(w);
		n = hwt_wheel_pop(w, now, &left);
		KUNIT_ASSERT_EQ(test, hwt_wheel_work_units(w) - units + !!n,
				(u64)(before - left));
		if (!n)
			break;
		KUNIT_ASSERT_GE(test, (s64)(now - n->expires), 0);
		if (*got < max)
			out[*got] = n;
		(*got)++;
	}
	if (!left)
		return true;
	left = budget;
	units = hwt_wheel_work_units(w);
	more = hwt_wheel_ahead(w, now, &left);
	KUNIT_ASSERT_EQ(test, hwt_wheel_work_units(w) - units, (u64)(budget - left));
	KUNIT_ASSERT_TRUE(test, !more || !left);
	return more;
}

/* Where the timer base wakes: the next due time, or the next work ahead. */
static u64 herd_wake(struct hwt_wheel *w, u64 now)
{
	u64 when, ahead;
	bool any = hwt_wheel_next(w, &when);

	if (hwt_wheel_next_ahead(w, &ahead) &&
	    (!any || (s64)(ahead - when) < 0))
		when = ahead;
	return (s64)(when - now) > 0 ? when : now;
}

/*
 * 10^4 nodes at one key in the middle of a level-1 slot, armed early
 * enough to start out on level 2. Passes of 64 units each take two ticks
 * of the fake clock, so the level-1 slot's cascade, begun a slot ahead,
 * is far from done when the key comes: the first pass at or after the key
 * returns a node, and every node comes out at its key or later, none
 * before, each once.
 */
static void herd_first_pop_within_one_pass(struct kunit *test)
{
	const unsigned int count = 10000, budget = 64;
	struct hwt_wheel *w = new_wheel(test, SHIFT, 0, 0);
	struct hwt_node *n = new_nodes(test, count), *got[1];
	u64 key = 40 * L2 + 7 * L1 + 16 * TICK, now = 0;
	unsigned int i, popped = 0, passes_at_key = 0, k;
	bool more = false;

	for (i = 0; i < count; i++)
		add_at(w, &n[i], key);
	KUNIT_ASSERT_GE(test, hwt_wheel_level_of(w, &n[0]), 2U);
	while (popped < count) {
		if (!more)
			now = herd_wake(w, now);
		more = herd_pass(test, w, now, budget, got, 1, &k);
		if ((s64)(now - key) >= 0)
			passes_at_key++;
		if (k && !popped) {
			KUNIT_EXPECT_EQ(test, now, key);
			KUNIT_EXPECT_EQ(test, passes_at_key, 1U);
		}
		popped += k;
		now += 2 * TICK;	/* a pass takes time */
	}
	KUNIT_EXPECT_EQ(test, popped, count);
	KUNIT_EXPECT_TRUE(test, hwt_wheel_empty(w));
	/* the memo moved most of them for a quarter of a unit each */
	KUNIT_EXPECT_GT(test, w->cheap, (u64)count);
	kunit_info(test, "%u passes at or after the key, %llu moves, %llu cheap\n",
		   passes_at_key, (unsigned long long)w->cascaded,
		   (unsigned long long)w->cheap);
}

/*
 * A herd whose level-1 slot is left half cascaded with the clock inside
 * it: the clock is set back within that slot, which stays half cascaded,
 * then before it, which makes it an ordinary slot again. Every node still
 * fires at its key, never early, and the bookkeeping holds throughout.
 */
static void herd_setback_into_half_cascaded_slot(struct kunit *test)
{
	const unsigned int count = 2000;
	struct hwt_wheel *w = new_wheel(test, SHIFT, 0, 100 * L2);
	struct hwt_node *n = new_nodes(test, count), *got;
	u64 base = 100 * L2 + 9 * L1, key = base + 10 * TICK, now;
	unsigned int i, left, fired = 0;

	for (i = 0; i < count; i++)
		add_at(w, &n[i], key + (i % 3) * TICK);
	/*
	 * to the key in two small passes: the first leaves the slot half
	 * cascaded at its start, the second takes the clock into it
	 */
	now = key;
	left = 8;
	KUNIT_ASSERT_NULL(test, hwt_wheel_pop(w, now, &left));
	KUNIT_ASSERT_EQ(test, w->clk, base);
	left = 8;
	got = hwt_wheel_pop(w, now, &left);
	KUNIT_ASSERT_NOT_NULL(test, got);
	KUNIT_ASSERT_EQ(test, got->expires, key);
	KUNIT_ASSERT_EQ(test, w->clk, key);
	KUNIT_ASSERT_TRUE(test, w->cascading & BIT(1));
	KUNIT_ASSERT_EQ(test, lvl_start(&w->lvl[1], w->clk), base);
	check_wheel(test, w);
	/* back within the slot: still half cascaded */
	hwt_wheel_rebase(w, base + 3 * TICK);
	KUNIT_EXPECT_TRUE(test, lvl_half_cascaded(w, 1));
	check_wheel(test, w);
	/* back before it: an ordinary slot of this turn */
	hwt_wheel_rebase(w, base - 5 * L1);
	KUNIT_EXPECT_FALSE(test, w->cascading & BIT(1));
	check_wheel(test, w);
	now = w->clk;
	if (got)
		fired++;
	while ((got = run_until_budget(test, w, &now, key + L2, NULL, 16))) {
		i = got - n;
		KUNIT_ASSERT_EQ(test, now, key + (i % 3) * TICK);
		if (!(++fired % 256))
			check_wheel(test, w);
	}
	KUNIT_EXPECT_EQ(test, fired, count);
	KUNIT_EXPECT_TRUE(test, hwt_wheel_empty(w));
}

/*
 * Nodes of a half-cascaded slot that were not moved yet are deleted and
 * modified, earlier and later: the rest of the herd comes out at its key,
 * the modified ones at their new deadlines, the deleted ones never.
 */
static void herd_del_and_mod_of_unmoved_nodes(struct kunit *test)
{
	const unsigned int count = 3000;
	struct hwt_wheel *w = new_wheel(test, SHIFT, 0, 0);
	struct hwt_node *n = new_nodes(test, count), *got;
	u64 *expect = kunit_kcalloc(test, count, sizeof(*expect), GFP_KERNEL);
	bool *gone = kunit_kcalloc(test, count, sizeof(*gone), GFP_KERNEL);
	u64 key = 20 * L2 + 5 * L1 + 20 * TICK, now;
	unsigned int i, left = 100, fired = 0;

	KUNIT_ASSERT_NOT_NULL(test, expect);
	KUNIT_ASSERT_NOT_NULL(test, gone);
	for (i = 0; i < count; i++) {
		expect[i] = key;
		add_at(w, &n[i], key);
	}
	/*
	 * almost up to the key, into the slot, which nothing of is due yet:
	 * nothing moves; then cascading ahead with too little budget to
	 * finish
	 */
	now = key;
	KUNIT_ASSERT_NULL(test, hwt_wheel_pop(w, now - 15 * TICK, &left));
	KUNIT_ASSERT_EQ(test, w->cascaded, 0ULL);
	KUNIT_ASSERT_TRUE(test, lvl_half_cascaded(w, 2));
	KUNIT_ASSERT_TRUE(test, hwt_wheel_ahead(w, now - 15 * TICK, &left));
	KUNIT_ASSERT_GT(test, w->cascaded, (u64)0);
	check_wheel(test, w);
	for (i = 0; i < count; i++) {
		if (n[i].lvl != 2)
			continue;	/* moved already */
		if (i % 4 == 0) {
			hwt_wheel_del(w, &n[i]);
			gone[i] = true;
		} else if (i % 4 == 1) {
			expect[i] = key - 3 * TICK;
			hwt_wheel_mod(w, &n[i], expect[i]);
		} else if (i % 4 == 2) {
			expect[i] = key + 2 * L1;
			hwt_wheel_mod(w, &n[i], expect[i]);
		}
	}
	check_wheel(test, w);
	now = w->clk;
	while ((got = run_until_budget(test, w, &now, key + L2, NULL, 64))) {
		i = got - n;
		KUNIT_ASSERT_FALSE(test, gone[i]);
		gone[i] = true;
		KUNIT_ASSERT_GE(test, now, expect[i]);
		KUNIT_ASSERT_LT(test, now - expect[i], TICK);
		if (!(++fired % 512))
			check_wheel(test, w);
	}
	for (i = 0; i < count; i++)
		KUNIT_EXPECT_TRUE(test, gone[i]);
	KUNIT_EXPECT_TRUE(test, hwt_wheel_empty(w));
}

/*
 * Randomised stress: herds of tens to hundreds of nodes at one key or a
 * few ticks apart, mixed with single timers, while passes of 1..70 units
 * run, nodes are deleted and modified mid-cascade and the clock is set
 * back, in every geometry. Every pop is a node whose key is the earliest
 * the model holds (order within a tick is free), never early and less
 * than a tick late; after each drain nothing due is left; the wheel's
 * bookkeeping is walked every few steps.
 */
#define HERD_NODES	1024

struct herd_model {
	struct hwt_wheel *w;
	struct hwt_node *n;
	u64 key[HERD_NODES];
	bool queued[HERD_NODES];
	unsigned int nqueued;
	u64 now;
	struct rnd_state rnd;
	unsigned long fired, herds, setbacks;
};

static bool herd_head(struct herd_model *m, u64 *key)
{
	bool any = false;
	unsigned int i;

	for (i = 0; i < HERD_NODES; i++) {
		if (!m->queued[i])
			continue;
		if (!any || m->key[i] - m->w->clk < *key - m->w->clk)
			*key = m->key[i];
		any = true;
	}
	return any;
}

static void herd_add(struct herd_model *m, unsigned int id, u64 expires)
{
	if (m->queued[id]) {
		hwt_wheel_mod(m->w, &m->n[id], expires);
	} else {
		hwt_wheel_forward(m->w, m->now);
		add_at(m->w, &m->n[id], expires);
		m->queued[id] = true;
		m->nqueued++;
	}
	m->key[id] = hwt_wheel_key(m->w, m->n[id].expires);
}

static void herd_popped(struct kunit *test, struct herd_model *m,
			struct hwt_node *n)
{
	unsigned int id = n - m->n;
	u64 head;

	KUNIT_ASSERT_LT(test, id, (unsigned int)HERD_NODES);
	KUNIT_ASSERT_TRUE(test, m->queued[id]);
	KUNIT_ASSERT_TRUE(test, herd_head(m, &head));
	KUNIT_ASSERT_EQ(test, m->key[id], head);
	KUNIT_ASSERT_GE(test, (s64)(m->now - n->expires), 0);
	KUNIT_ASSERT_LT(test, m->now - n->expires, hwt_wheel_tick(m->w));
	m->queued[id] = false;
	m->nqueued--;
	m->fired++;
}

/* Passes of @budget at m->now until one ends with nothing due. */
static void herd_drain(struct kunit *test, struct herd_model *m,
		       unsigned int budget)
{
	struct hwt_node *n;
	u64 head;

	while ((n = pop_budget(test, m->w, m->now, budget)))
		herd_popped(test, m, n);
	if (herd_head(m, &head))
		KUNIT_ASSERT_GT(test, (s64)(head - m->now), 0);
}

/* Let time pass by @span, waking where the wheel says. */
static void herd_advance(struct kunit *test, struct herd_model *m, u64 span,
			 unsigned int budget)
{
	u64 until = m->now + span, when;

	for (;;) {
		herd_drain(test, m, budget);
		if (!hwt_wheel_next(m->w, &when) || (s64)(when - until) > 0)
			break;
		KUNIT_ASSERT_GT(test, (s64)(when - m->now), 0);
		m->now = when;
	}
	m->now = until;
	herd_drain(test, m, budget);
}

static void herd_stress(struct kunit *test, unsigned int shift,
			unsigned int levels, u64 start, unsigned int steps,
			u64 seed)
{
	struct herd_model *m = kunit_kzalloc(test, sizeof(*m), GFP_KERNEL);
	u64 tick, horizon, reach, far;
	unsigned int step, i;

	KUNIT_ASSERT_NOT_NULL(test, m);
	m->w = new_wheel(test, shift, levels, start);
	m->n = new_nodes(test, HERD_NODES);
	m->now = m->w->clk;
	prandom_seed_state(&m->rnd, seed);
	tick = hwt_wheel_tick(m->w);
	horizon = min(hwt_wheel_horizon(m->w), 1ULL << 62);
	/* herds a few level-2 slots ahead cascade through two levels */
	reach = min_t(u64, horizon / 2, tick << (3 * HWT_LVL_BITS + 2));
	far = m->w->levels > 3 ? reach : horizon / 4;

	for (step = 0; step < steps; step++) {
		u32 r = prandom_u32_state(&m->rnd);
		unsigned int budget = 1 + prandom_u32_state(&m->rnd) % 70;
		unsigned int id = (r >> 8) % HERD_NODES;
		u64 d;

		switch (r % 10) {
		case 0: case 1: {		/* a herd */
			unsigned int size = 16 + prandom_u32_state(&m->rnd) % 400;
			unsigned int spread = r & 0x100 ? 1 + (r >> 20) % 4 : 1;
			u64 at = m->now + tick + (u64)prandom_u32_state(&m->rnd) *
				 prandom_u32_state(&m->rnd) % far;

			for (i = 0; i < size; i++, id = (id + 1) % HERD_NODES)
				herd_add(m, id, at + (i % spread) * tick +
					 prandom_u32_state(&m->rnd) % tick);
			m->herds++;
			break;
		}
		case 2:				/* a single timer */
			herd_add(m, id, m->now + prandom_u32_state(&m->rnd) %
				 (u32)min_t(u64, far, U32_MAX));
			break;
		case 3:				/* deletes, anywhere */
			for (i = 0; i < 32; i++, id = (id + 7) % HERD_NODES) {
				if (!m->queued[id])
					continue;
				hwt_wheel_del(m->w, &m->n[id]);
				m->queued[id] = false;
				m->nqueued--;
			}
			break;
		case 4:				/* modifies, anywhere */
			for (i = 0; i < 32; i++, id = (id + 5) % HERD_NODES)
				if (m->queued[id])
					herd_add(m, id, m->now + tick +
						 prandom_u32_state(&m->rnd) % (64 * tick));
			break;
		case 5: {			/* one pass cut short */
			unsigned int left = budget;
			struct hwt_node *n = hwt_wheel_pop(m->w, m->now, &left);

			if (n)
				herd_popped(test, m, n);
			break;
		}
		case 6:				/* the clock is set back */
			if (r & 0xc000)
				goto advance;
			d = prandom_u32_state(&m->rnd) %
			    (u32)min_t(u64, 4 * (tick << HWT_LVL_BITS), U32_MAX);
			m->now -= d;
			hwt_wheel_rebase(m->w, m->now);
			m->setbacks++;
			break;
		default:			/* time passes */
advance:
			d = (u64)prandom_u32_state(&m->rnd) * tick % (far / 4 + 1);
			herd_advance(test, m, d, budget);
			break;
		}
		if (!(step % 64))
			check_wheel(test, m->w);
		KUNIT_ASSERT_EQ(test, hwt_wheel_pending(m->w),
				(unsigned long)m->nqueued);
	}
	for (i = 0; i < 8 && m->nqueued; i++)
		herd_advance(test, m, 2 * far + horizon / 8, 70);
	KUNIT_EXPECT_EQ(test, m->nqueued, 0U);
	KUNIT_EXPECT_TRUE(test, hwt_wheel_empty(m->w));
	check_wheel(test, m->w);
	kunit_info(test, "shift %u levels %u: %u steps, %lu herds, %lu fired, %llu moved (%llu cheap), %lu set-backs\n",
		   shift, m->w->levels, steps, m->herds, m->fired,
		   (unsigned long long)m->w->cascaded,
		   (unsigned long long)m->w->cheap, m->setbacks);
}

static void herd_stress_default_geometry(struct kunit *test)
{
	herd_stress(test, 12, 0, 1ULL << 40, 3000, 0x4e4d);
}

static void herd_stress_every_geometry(struct kunit *test)
{
	static const unsigned int shifts[] = { 10, 12, 17, 20, 30 };
	unsigned int s, levels;

	for (s = 0; s < ARRAY_SIZE(shifts); s++) {
		unsigned int max = hwt_wheel_max_levels(shifts[s]);

		for (levels = 2; levels <= max; levels += max > 6 ? 3 : 1)
			herd_stress(test, shifts[s], levels,
				    U64_MAX - (1ULL << 36) * levels, 400,
				    shifts[s] * 100 + levels);
	}
}

static struct kunit_case hwtimer_wheel_herd_cases[] = {
	KUNIT_CASE(herd_first_pop_within_one_pass),
	KUNIT_CASE(herd_setback_into_half_cascaded_slot),
	KUNIT_CASE(herd_del_and_mod_of_unmoved_nodes),
	KUNIT_CASE_SLOW(herd_stress_default_geometry),
	KUNIT_CASE_SLOW(herd_stress_every_geometry),
	{}
};

static struct kunit_suite hwtimer_wheel_herd_suite = {
	.name = "hwtimer_wheel_herd",
	.test_cases = hwtimer_wheel_herd_cases,
};

kunit_test_suite(hwtimer_wheel_herd_suite);

MODULE_DESCRIPTION("KUnit tests for the hwtimer wheel core's herds");
MODULE_LICENSE("GPL");
