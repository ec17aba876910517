// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit suite for the wheel core against a model: a randomised
 * differential test of adds, deletes, modifies, passes cut short by their
 * budgets and clock set-backs, against a sorted array, on three
 * geometries. Like wheel_kunit.c it runs in the kernel and natively.
 */
#include <kunit/test.h>
#include <linux/prandom.h>

#include "wheel_unit.h"
#include "wheel_test.h"

/*
 * Randomised differential test against a sorted-array model: every pop must
 * be exactly what the model says is due, in key order, never early and less
 * than a tick late, and the wheel's next time never after the earliest
 * deadline. Time passes in passes of random budgets, some cut short
 * with work left half done while adds, deletes and modifies go on, and the
 * clock is set back now and then; the wheel's bookkeeping is walked every
 * few operations.
 */
#define MODEL_MAX 512

struct model {
	struct hwt_wheel *w;
	struct hwt_node *nodes;
	u64 key[MODEL_MAX];		/* per node, valid if queued */
	bool queued[MODEL_MAX];
	unsigned int sorted[MODEL_MAX];	/* queued node ids by (key, insertion) */
	unsigned int nsorted;
	u64 now;
	struct rnd_state rnd;
	unsigned long fired, rebases, partial;
	u64 reach;			/* longest delay to draw */
};

static u64 model_key(struct model *m, u64 expires)
{
	return (expires + hwt_wheel_tick(m->w) - 1) & ~(hwt_wheel_tick(m->w) - 1);
}

static void model_insert(struct model *m, unsigned int id)
{
	unsigned int i = m->nsorted;
	u64 rel = m->key[id] - m->w->clk;

	while (i && m->key[m->sorted[i - 1]] - m->w->clk > rel) {
		m->sorted[i] = m->sorted[i - 1];
		i--;
	}
	m->sorted[i] = id;
	m->nsorted++;
	m->queued[id] = true;
}

static void model_remove(struct model *m, unsigned int id)
{
	unsigned int i;

	for (i = 0; i < m->nsorted && m->sorted[i] != id; i++)
		;
	for (; i + 1 < m->nsorted; i++)
		m->sorted[i] = m->sorted[i + 1];
	m->nsorted--;
	m->queued[id] = false;
}

static u64 rand_delay(struct model *m, u64 horizon)
{
	u32 r = prandom_u32_state(&m->rnd);
	u64 tick = hwt_wheel_tick(m->w), d;

	switch (r % 8) {
	case 0: case 1: case 2:
		d = (u64)(r >> 3) % (200 * tick);	/* level 0-2 */
		break;
	case 3: case 4:
		d = (u64)(r >> 3) * tick % (1ULL << (m->w->shift + 18));
		break;
	case 5:
		d = ((u64)prandom_u32_state(&m->rnd) << 32 | r) %
		    (m->reach / 2);
		break;
	case 6:
		d = (r >> 3) % 3;			/* due at once */
		break;
	default:
		d = ((u64)(r >> 3) % 64) << (m->w->shift + 6 * (r % 5));
		break;
	}
	return min(d, m->reach);
}

/*
 * How far the clock may be set back: no key, nor the wheel's clock before
 * an earlier set-back, may end up more than m->reach ahead of it: at most
 * 2^62 ns, well inside what the modular clock can tell ahead from behind
 * (real clocks stay inside it: 2^62 ns is 146 years), and no further than
 * the final run drains.
 */
static u64 setback_room(struct model *m)
{
	u64 far = m->w->skewed ? m->w->high - m->w->clk : 0;
	u64 limit = min_t(u64, m->reach, 1ULL << 62);
	unsigned int i;

	for (i = 0; i < m->nsorted; i++)
		far = max(far, m->key[m->sorted[i]] - m->w->clk);
	return far < limit ? limit - far : 0;
}

static unsigned int rand_budget(struct model *m)
{
	static const unsigned int budgets[] = { 1, 2, 3, 7, 64, UNLIMITED };

	return budgets[prandom_u32_state(&m->rnd) % ARRAY_SIZE(budgets)];
}

/* A node the wheel returned at m->now: the model's head, on time. */
static void model_fired(struct kunit *test, struct model *m,
			struct hwt_node *n, u64 prev_key)
{
	unsigned int id = n - m->nodes, head;

	KUNIT_ASSERT_GT(test, m->nsorted, 0U);
	head = m->sorted[0];
	KUNIT_ASSERT_TRUE(test, m->queued[id]);
	/* the same key as the model's head: order by key holds */
	KUNIT_ASSERT_EQ(test, m->key[id], m->key[head]);
	KUNIT_ASSERT_GE(test, (s64)(m->now - n->expires), 0);
	KUNIT_ASSERT_LT(test, m->now - n->expires, hwt_wheel_tick(m->w));
	KUNIT_ASSERT_GE(test, (s64)(m->key[id] - prev_key), 0);
	model_remove(m, id);
	m->fired++;
}

static void model_advance(struct kunit *test, struct model *m, u64 span)
{
	u64 until = m->now + span, prev_key = m->now - hwt_wheel_tick(m->w);
	unsigned int budget = rand_budget(m), i;
	struct hwt_node *n;

	while ((n = run_until_budget(test, m->w, &m->now, until, NULL,
				     budget))) {
		model_fired(test, m, n, prev_key);
		prev_key = hwt_wheel_key(m->w, n->expires);
	}
	/* nothing the model holds is due: not even in the tick now is in */
	for (i = 0; i < m->nsorted &&
	     (s64)(m->key[m->sorted[i]] - m->now) < (s64)hwt_wheel_tick(m->w); i++)
		KUNIT_ASSERT_GT(test, (s64)(m->nodes[m->sorted[i]].expires - m->now), 0);
	KUNIT_ASSERT_EQ(test, hwt_wheel_pending(m->w), (unsigned long)m->nsorted);
}

/*
 * The wheel's next time is never after a queued node's deadline: without
 * slack a node fires at its deadline, not at its tick's end. After a
 * set-back, slots ahead wake at their starts instead, up to a tick late.
 */
static void model_check_next(struct kunit *test, struct model *m)
{
	u64 when, soonest;
	unsigned int i;

	if (!m->nsorted || m->w->skewed)
		return;
	soonest = m->nodes[m->sorted[0]].expires;
	for (i = 1; i < m->nsorted &&
	     m->key[m->sorted[i]] == m->key[m->sorted[0]]; i++)
		soonest = hwt_sooner(soonest, m->nodes[m->sorted[i]].expires);
	KUNIT_ASSERT_TRUE(test, hwt_wheel_next(m->w, &when));
	KUNIT_ASSERT_LE(test, (s64)(when - soonest), 0);
}

static void run_differential(struct kunit *test, unsigned int shift,
			     unsigned int levels, u64 start, unsigned int ops,
			     u64 seed)
{
	struct model *m = kunit_kzalloc(test, sizeof(*m), GFP_KERNEL);
	u64 horizon;
	unsigned int op;

	KUNIT_ASSERT_NOT_NULL(test, m);
	m->w = new_wheel(test, shift, levels, start);
	m->nodes = new_nodes(test, MODEL_MAX);
	m->now = m->w->clk;
	prandom_seed_state(&m->rnd, seed);
	horizon = min(hwt_wheel_horizon(m->w), 1ULL << 62);
	/* with few levels, reach past the horizon: those nodes are parked */
	m->reach = levels && levels < hwt_wheel_max_levels(shift) ?
		   3 * horizon : horizon / 2;

	for (op = 0; op < ops; op++) {
		u32 r = prandom_u32_state(&m->rnd);
		unsigned int id = (r >> 8) % MODEL_MAX, budget = 1 + r % 3;
		struct hwt_node *n;
		u64 expires;

		switch (r % 16) {
		case 0 ... 6:			/* add */
			if (m->queued[id])
				break;
			hwt_wheel_forward(m->w, m->now);
			expires = m->now + rand_delay(m, horizon);
			add_at(m->w, &m->nodes[id], expires);
			m->key[id] = model_key(m, m->nodes[id].expires);
			/* in the clock's own tick at the earliest */
			KUNIT_ASSERT_GE(test, (s64)(m->key[id] - m->w->clk), 0);
			model_insert(m, id);
			break;
		case 7 ... 9:			/* delete */
			if (!m->queued[id])
				break;
			hwt_wheel_del(m->w, &m->nodes[id]);
			model_remove(m, id);
			break;
		case 10 ... 12:			/* modify */
			if (!m->queued[id])
				break;
			expires = m->now + rand_delay(m, horizon);
			hwt_wheel_mod(m->w, &m->nodes[id], expires);
			model_remove(m, id);
			m->key[id] = model_key(m, m->nodes[id].expires);
			model_insert(m, id);
			break;
		case 13:			/* a pass cut short */
			n = hwt_wheel_pop(m->w, m->now, &budget);
			if (n)
				model_fired(test, m, n, m->now - hwt_wheel_tick(m->w));
			m->partial++;
			break;
		case 14:			/* the clock is set back */
			if (r & 0xf000)
				goto advance;
			m->now -= rand_delay(m, horizon) % (setback_room(m) + 1);
			hwt_wheel_rebase(m->w, m->now);
			m->rebases++;
			break;
		default:			/* let time pass */
advance:
			model_advance(test, m, rand_delay(m, horizon / 8));
			break;
		}
		model_check_next(test, m);
		if (!(op % 512))
			check_wheel(test, m->w);
#ifdef MODEL_DEBUG
		printf("op %u r%%16=%u now=%llu clk=%llu high=%llu pending=%lu\n", op, r % 16,
		       (unsigned long long)m->now, (unsigned long long)m->w->clk,
		       (unsigned long long)m->w->high, hwt_wheel_pending(m->w));
#endif
	}
	model_advance(test, m, 2 * m->reach);
	KUNIT_EXPECT_EQ(test, m->nsorted, 0U);
	KUNIT_EXPECT_GT(test, m->fired, ops / 20UL);
	check_wheel(test, m->w);
	kunit_info(test, "%u ops, %lu fired, %llu moved, %lu passes cut short, %lu set-backs\n",
		   ops, m->fired, (unsigned long long)m->w->cascaded, m->partial,
		   m->rebases);
}

static void model_random_differential(struct kunit *test)
{
	run_differential(test, SHIFT, 0, 0, 100000, 0x5eed);
}

static void model_random_differential_fine_tick_wrapping(struct kunit *test)
{
	run_differential(test, 13, 0, U64_MAX - (1ULL << 40), 30000, 42);
}

static void model_random_differential_few_levels(struct kunit *test)
{
	run_differential(test, SHIFT, 3, 1ULL << 50, 30000, 7);
}

static struct kunit_case hwtimer_wheel_model_cases[] = {
	KUNIT_CASE_SLOW(model_random_differential),
	KUNIT_CASE_SLOW(model_random_differential_fine_tick_wrapping),
	KUNIT_CASE_SLOW(model_random_differential_few_levels),
	{}
};

static struct kunit_suite hwtimer_wheel_model_suite = {
	.name = "hwtimer_wheel_model",
	.test_cases = hwtimer_wheel_model_cases,
};

kunit_test_suite(hwtimer_wheel_model_suite);

MODULE_DESCRIPTION("KUnit tests for the hwtimer wheel core against a model");
MODULE_LICENSE("GPL");
