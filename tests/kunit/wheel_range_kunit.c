// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit suite for the wheel core's windows (hwt_wheel_next_range()): nodes
 * with slack, driven by a fake clock the way the timer base drives the
 * wheel with hrtimer_start_range_ns(). Each node must be returned no earlier
 * than its deadline and, when the owner wakes at the end of the window, no
 * later than its deadline plus slack (or its key, if that is later), and
 * bursts of nodes whose windows overlap must share wakeups. Like the other
 * wheel suites it runs in the kernel and natively.
 */
#include <kunit/test.h>
#include <linux/prandom.h>

#include "wheel_unit.h"
#include "wheel_test.h"

#define FINE	12				/* the module's default tick */

/* a node with the slack the wheel asks its owner for */
struct snode {
	struct hwt_node node;
	u64 slack;
};

static u64 snode_slack(const struct hwt_node *n)
{
	return container_of(n, struct snode, node)->slack;
}

static struct hwt_wheel *new_swheel(struct kunit *test, unsigned int shift,
				    u64 now)
{
	struct hwt_wheel *w = new_wheel(test, shift, 0, now);

	w->slack_of = snode_slack;
	return w;
}

static struct snode *new_snodes(struct kunit *test, unsigned int n)
{
	struct snode *s = kunit_kcalloc(test, n, sizeof(*s), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, s);
	return s;
}

static void add_slack(struct hwt_wheel *w, struct snode *s, u64 expires,
		      u64 slack)
{
	s->slack = slack;
	s->node.slack = !!slack;
	add_at(w, &s->node, expires);
}

/*
 * Wake at the end of each window until @count nodes fired, and check each
 * against its window. Returns the wakeups.
 */
static unsigned int drive(struct kunit *test, struct hwt_wheel *w, u64 *now,
			  unsigned int count)
{
	unsigned int wakeups = 0, fired = 0;
	struct hwt_node *n;
	u64 when, latest;

	while (fired < count && hwt_wheel_next_range(w, &when, &latest)) {
		KUNIT_ASSERT_GE(test, (s64)(latest - when), 0);
		if ((s64)(latest - *now) > 0)
			*now = latest;
		wakeups++;
		while ((n = pop(w, *now))) {
			KUNIT_ASSERT_GE(test, (s64)(*now - n->expires), 0);
			KUNIT_ASSERT_LE(test,
					(s64)(*now - hwt_wheel_late(w, n)), 0);
			fired++;
		}
	}
	KUNIT_EXPECT_EQ(test, fired, count);
	return wakeups;
}

static void range_without_slack_is_the_deadline(struct kunit *test)
{
	struct hwt_wheel *w = new_swheel(test, FINE, 0);
	struct snode *s = new_snodes(test, 1);
	u64 when, latest;

	add_slack(w, s, 5 * MS + 1, 0);
	KUNIT_ASSERT_TRUE(test, hwt_wheel_next_range(w, &when, &latest));
	KUNIT_EXPECT_EQ(test, when, 5 * MS + 1);
	KUNIT_EXPECT_EQ(test, latest, when);
}

static void range_ends_at_deadline_plus_slack(struct kunit *test)
{
	struct hwt_wheel *w = new_swheel(test, FINE, 0);
	struct snode *s = new_snodes(test, 1);
	u64 when, latest;

	add_slack(w, s, 5 * MS + 1, MS);
	KUNIT_ASSERT_TRUE(test, hwt_wheel_next_range(w, &when, &latest));
	KUNIT_EXPECT_EQ(test, when, 5 * MS + 1);
	KUNIT_EXPECT_EQ(test, latest, 6 * MS + 1);
}

/*
 * The wheel walks the slots' bounds only once a node with slack joined one,
 * until it is seen empty: a node with slack widens the window, and once
 * the wheel emptied, nodes without slack have windows of their deadlines.
 */
static void range_forgets_slack_once_empty(struct kunit *test)
{
	struct hwt_wheel *w = new_swheel(test, FINE, 0);
	struct snode *s = new_snodes(test, 2);
	u64 when, latest, now = 0;

	KUNIT_EXPECT_FALSE(test, w->slack_seen);
	add_slack(w, &s[0], 5 * MS + 1, MS);
	KUNIT_EXPECT_TRUE(test, w->slack_seen);
	KUNIT_ASSERT_TRUE(test, hwt_wheel_next_range(w, &when, &latest));
	KUNIT_EXPECT_EQ(test, latest, 6 * MS + 1);
	KUNIT_EXPECT_EQ(test, drive(test, w, &now, 1), 1U);
	/* the next look finds the wheel empty */
	KUNIT_EXPECT_FALSE(test, hwt_wheel_next_range(w, &when, &latest));
	KUNIT_EXPECT_FALSE(test, w->slack_seen);
	add_slack(w, &s[1], 9 * MS + 1, 0);
	KUNIT_ASSERT_TRUE(test, hwt_wheel_next_range(w, &when, &latest));
	KUNIT_EXPECT_EQ(test, when, 9 * MS + 1);
	KUNIT_EXPECT_EQ(test, latest, when);
	KUNIT_EXPECT_EQ(test, drive(test, w, &now, 1), 1U);
}

/* a slack shorter than a tick is a window shorter than a tick */
static void range_slack_under_a_tick(struct kunit *test)
{
	struct hwt_wheel *w = new_swheel(test, SHIFT, 0);
	struct snode *s = new_snodes(test, 1);
	u64 when, latest;

	add_slack(w, s, 5 * TICK + 1, 10);
	KUNIT_ASSERT_TRUE(test, hwt_wheel_next_range(w, &when, &latest));
	KUNIT_EXPECT_EQ(test, when, 5 * TICK + 1);
	KUNIT_EXPECT_EQ(test, latest, 5 * TICK + 11);
}

/* a later node with less slack ends the window before an earlier one does */
static void range_ends_at_the_tightest_window(struct kunit *test)
{
	struct hwt_wheel *w = new_swheel(test, FINE, 0);
	struct snode *s = new_snodes(test, 3);
	u64 when, latest;

	add_slack(w, &s[0], 1 * MS, 3600 * SEC);
	add_slack(w, &s[1], 300 * MS, 3600 * SEC);	/* another level */
	add_slack(w, &s[2], 2 * MS, 0);
	KUNIT_ASSERT_TRUE(test, hwt_wheel_next_range(w, &when, &latest));
	KUNIT_EXPECT_EQ(test, when, 1 * MS);
	KUNIT_EXPECT_EQ(test, latest, 2 * MS);
}

/* a node's slack survives the cascades that bring it down the levels */
static void range_survives_cascades(struct kunit *test)
{
	struct hwt_wheel *w = new_swheel(test, FINE, 0);
	struct snode *s = new_snodes(test, 2);
	u64 now = 0, d = 3 * SEC + 12345;

	add_slack(w, &s[0], d, 10 * MS);
	add_slack(w, &s[1], d + 5 * MS, 0);
	KUNIT_EXPECT_GT(test, hwt_wheel_level_of(w, &s[0].node), 1U);
	/* woken at the end of each window: both fire in one wakeup */
	KUNIT_EXPECT_EQ(test, drive(test, w, &now, 2), 1U);
	KUNIT_EXPECT_EQ(test, now, d + 5 * MS);
	KUNIT_EXPECT_GT(test, w->cascaded, 0ULL);
}

/* a modify within the slot narrows the window */
static void range_mod_in_slot_narrows_window(struct kunit *test)
{
	struct hwt_wheel *w = new_swheel(test, SHIFT, 0);
	struct snode *s = new_snodes(test, 1);
	u64 when, latest;

	add_slack(w, s, 100 * TICK + 1, 50 * TICK);
	s->slack = TICK;
	KUNIT_EXPECT_TRUE(test, hwt_wheel_mod(w, &s->node, 100 * TICK + 2));
	KUNIT_ASSERT_TRUE(test, hwt_wheel_next_range(w, &when, &latest));
	KUNIT_EXPECT_EQ(test, latest, 101 * TICK + 2);
}

/* the walk stops at the first slot that starts after the window's end */
static void range_walk_stops_past_the_window(struct kunit *test)
{
	struct hwt_wheel *w = new_swheel(test, SHIFT, 0);
	struct snode *s = new_snodes(test, 11);
	u64 when, latest;
	unsigned int i;

	for (i = 0; i < 9; i++)
		add_slack(w, &s[i], (i + 1) * TICK, 3 * TICK);
	add_slack(w, &s[9], 20 * TICK, 0);
	KUNIT_ASSERT_TRUE(test, hwt_wheel_next_range(w, &when, &latest));
	KUNIT_EXPECT_EQ(test, when, TICK);
	KUNIT_EXPECT_EQ(test, latest, 4 * TICK);
	/* a node further on with less slack than the first ends it sooner */
	add_slack(w, &s[10], 2 * TICK + 1, TICK / 2);
	KUNIT_ASSERT_TRUE(test, hwt_wheel_next_range(w, &when, &latest));
	KUNIT_EXPECT_EQ(test, latest, 2 * TICK + 1 + TICK / 2);
}

/* after a set-back, or with nodes parked, windows are points */
static void range_is_a_point_after_set_back(struct kunit *test)
{
	struct hwt_wheel *w = new_swheel(test, FINE, 10 * SEC);
	struct snode *s = new_snodes(test, 1);
	u64 when, latest;

	add_slack(w, s, 11 * SEC, MS);
	hwt_wheel_rebase(w, 5 * SEC);
	KUNIT_ASSERT_TRUE(test, hwt_wheel_next_range(w, &when, &latest));
	KUNIT_EXPECT_EQ(test, latest, when);
}

/*
 * A slot big enough to be cascaded ahead may be cascaded from the start of
 * the slot before: hwt_wheel_next_ahead() says so, and the window leaves it
 * out. It is the nodes' own, from the first key to the end of its slack,
 * big slot or not, so an owner that does no work ahead wakes only for them.
 */
static void range_leaves_out_cascades_ahead(struct kunit *test)
{
	const u64 l2 = 1ULL << (SHIFT + 2 * HWT_LVL_BITS), start = 10 * l2;
	struct hwt_wheel *w = new_swheel(test, SHIFT, 0);
	struct snode *s = new_snodes(test, HWT_CASCADE_EARLY);
	u64 when, latest, ahead;
	unsigned int i;

	for (i = 0; i < HWT_CASCADE_EARLY; i++) {
		add_slack(w, &s[i], start + l2 / 2 + i * TICK, 3600 * SEC);
		KUNIT_ASSERT_EQ(test, hwt_wheel_level_of(w, &s[i].node), 2U);
	}
	KUNIT_ASSERT_TRUE(test, hwt_wheel_early(w, &s[i - 1].node));
	KUNIT_ASSERT_TRUE(test, hwt_wheel_next_ahead(w, &ahead));
	KUNIT_EXPECT_EQ(test, ahead, start - l2);
	KUNIT_ASSERT_TRUE(test, hwt_wheel_next_range(w, &when, &latest));
	KUNIT_EXPECT_EQ(test, when, start + l2 / 2);
	KUNIT_EXPECT_EQ(test, latest, start + l2 / 2 + 3600 * SEC);
	/* one node less: nothing to do ahead, the same window */
	hwt_wheel_del(w, &s[HWT_CASCADE_EARLY - 1].node);
	KUNIT_EXPECT_FALSE(test, hwt_wheel_next_ahead(w, &ahead));
	KUNIT_ASSERT_TRUE(test, hwt_wheel_next_range(w, &when, &latest));
	KUNIT_EXPECT_EQ(test, when, start + l2 / 2);
	KUNIT_EXPECT_EQ(test, latest, start + l2 / 2 + 3600 * SEC);
}

/*
 * 10^4 nodes due within one second with 1 ms of slack share wakeups: about
 * one per millisecond, against one per tick without slack.
 */
static void range_burst_shares_wakeups(struct kunit *test)
{
	const unsigned int count = 10000;
	struct hwt_wheel *w = new_swheel(test, FINE, 0);
	struct snode *s = new_snodes(test, count);
	struct rnd_state rnd;
	unsigned int i, slack_wakeups, exact_wakeups;
	u64 now = 0;

	prandom_seed_state(&rnd, 14);
	for (i = 0; i < count; i++)
		add_slack(w, &s[i], MS + prandom_u32_state(&rnd) % SEC, MS);
	slack_wakeups = drive(test, w, &now, count);
	KUNIT_EXPECT_LE(test, slack_wakeups, 1100U);

	now = 0;
	w = new_swheel(test, FINE, 0);
	for (i = 0; i < count; i++)
		add_slack(w, &s[i], s[i].node.expires, 0);
	exact_wakeups = drive(test, w, &now, count);
	kunit_info(test, "%u nodes in 1 s: %u wakeups with 1 ms of slack, %u without\n",
		   count, slack_wakeups, exact_wakeups);
	KUNIT_EXPECT_GT(test, exact_wakeups, 5 * slack_wakeups);
}

/*
 * Random adds, deletes and modifies with random slack, woken at random
 * points of each window: no node early, and none late when woken at the end.
 */
static void range_random_windows(struct kunit *test)
{
	const unsigned int count = 2000;
	struct hwt_wheel *w = new_swheel(test, FINE, 0);
	struct snode *s = new_snodes(test, count);
	bool *queued = kunit_kcalloc(test, count, sizeof(*queued), GFP_KERNEL);
	unsigned int op, wakeups = 0;
	struct rnd_state rnd;
	u64 now = 0;

	KUNIT_ASSERT_NOT_NULL(test, queued);
	prandom_seed_state(&rnd, 1414);
	for (op = 0; op < 40000; op++) {
		unsigned int i = prandom_u32_state(&rnd) % count;
		u64 slack = prandom_u32_state(&rnd) % 4 ? 0 :
			    (u64)prandom_u32_state(&rnd) % (20 * MS);
		u64 d = now + (u64)prandom_u32_state(&rnd) % (2 * SEC);
		struct hwt_node *n;
		u64 when, latest;

		if (!queued[i]) {
			add_slack(w, &s[i], d, slack);
			queued[i] = true;
		} else if (prandom_u32_state(&rnd) % 2) {
			hwt_wheel_del(w, &s[i].node);
			queued[i] = false;
		} else {
			s[i].slack = slack;
			s[i].node.slack = !!slack;
			hwt_wheel_mod(w, &s[i].node, d);
		}
		if (op % 8 || !hwt_wheel_next_range(w, &when, &latest))
			continue;
		/* wake anywhere in the window; at its end one time in two */
		now = prandom_u32_state(&rnd) % 2 ? latest :
		      when + (latest - when) / 2;
		wakeups++;
		while ((n = pop(w, now))) {
			struct snode *sn = container_of(n, struct snode, node);
			u64 late = hwt_wheel_late(w, n);

			KUNIT_ASSERT_GE(test, (s64)(now - n->expires), 0);
			KUNIT_ASSERT_LE(test, (s64)(now - late), 0);
			queued[sn - s] = false;
		}
	}
	check_wheel(test, w);
	kunit_info(test, "40000 ops, %u wakeups, %lu pending\n", wakeups,
		   hwt_wheel_pending(w));
}

static struct kunit_case hwtimer_wheel_range_cases[] = {
	KUNIT_CASE(range_without_slack_is_the_deadline),
	KUNIT_CASE(range_ends_at_deadline_plus_slack),
	KUNIT_CASE(range_forgets_slack_once_empty),
	KUNIT_CASE(range_slack_under_a_tick),
	KUNIT_CASE(range_ends_at_the_tightest_window),
	KUNIT_CASE(range_survives_cascades),
	KUNIT_CASE(range_mod_in_slot_narrows_window),
	KUNIT_CASE(range_walk_stops_past_the_window),
	KUNIT_CASE(range_is_a_point_after_set_back),
	KUNIT_CASE(range_leaves_out_cascades_ahead),
	KUNIT_CASE(range_burst_shares_wakeups),
	KUNIT_CASE_SLOW(range_random_windows),
	{}
};

static struct kunit_suite hwtimer_wheel_range_suite = {
	.name = "hwtimer_wheel_range",
	.test_cases = hwtimer_wheel_range_cases,
};

kunit_test_suite(hwtimer_wheel_range_suite);

MODULE_DESCRIPTION("KUnit tests for the hwtimer wheel core's slack windows");
MODULE_LICENSE("GPL");
