// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit suite for the wheel core's clock against the time it is given
 * (wheel_clock.c): nodes beyond the horizon wait parked, and are placed
 * once they come within it; a clock set back moves the wheel back with it
 * (hwt_wheel_rebase()), parking what that pushed beyond the horizon; and
 * hwt_wheel_forward() moves an idle wheel's clock on, but never past a
 * node that is due. Like wheel_kunit.c it runs in the kernel and
 * natively.
 */
#include <kunit/test.h>

#include "wheel_unit.h"
#include "wheel_test.h"

static void wheel_parks_beyond_the_horizon(struct kunit *test)
{
	/* 2 levels: the horizon is 63 * 32 ticks */
	struct hwt_wheel *w = new_wheel(test, SHIFT, 2, 7 * TICK + 3);
	u64 horizon = hwt_wheel_horizon(w), now = w->clk;
	u64 far = w->clk + 3 * horizon + 5 * TICK + 17;
	unsigned int wakeups = 0;
	struct hwt_node n, *got;

	add_at(w, &n, far);
	KUNIT_EXPECT_EQ(test, hwt_wheel_level_of(w, &n), 2U);
	KUNIT_EXPECT_EQ(test, w->nparked, 1UL);
	got = run_until(test, w, &now, far + 2 * TICK, &wakeups);
	KUNIT_ASSERT_PTR_EQ(test, got, &n);
	KUNIT_EXPECT_GE(test, (s64)(now - far), 0);
	KUNIT_EXPECT_LT(test, now - far, TICK);
	/* one wakeup at the deadline: placing it needs none of its own */
	KUNIT_EXPECT_EQ(test, wakeups, 1U);
	KUNIT_EXPECT_TRUE(test, hwt_wheel_empty(w));
}

static void wheel_del_and_mod_of_parked_node(struct kunit *test)
{
	struct hwt_wheel *w = new_wheel(test, SHIFT, 1, 0);
	u64 horizon = hwt_wheel_horizon(w), now = 0;
	struct hwt_node a, b;

	add_at(w, &a, 2 * horizon);
	add_at(w, &b, 3 * horizon);
	KUNIT_EXPECT_EQ(test, w->nparked, 2UL);
	hwt_wheel_del(w, &a);
	KUNIT_EXPECT_EQ(test, w->nparked, 1UL);
	KUNIT_EXPECT_EQ(test, hwt_wheel_pending(w), 1UL);
	/* parked to parked stays put; parked to near is placed at once */
	KUNIT_EXPECT_TRUE(test, hwt_wheel_mod(w, &b, 4 * horizon));
	KUNIT_EXPECT_FALSE(test, hwt_wheel_mod(w, &b, 10 * TICK));
	KUNIT_EXPECT_EQ(test, w->nparked, 0UL);
	KUNIT_ASSERT_PTR_EQ(test, run_until(test, w, &now, 5 * horizon, NULL), &b);
	KUNIT_EXPECT_EQ(test, now, 10 * TICK);
	KUNIT_EXPECT_NULL(test, run_until(test, w, &now, 5 * horizon, NULL));
}

static void wheel_rebase_follows_clock_set_back(struct kunit *test)
{
	struct hwt_wheel *w = new_wheel(test, SHIFT, 0, 1000 * SEC);
	struct hwt_node a, b;
	u64 now;

	add_at(w, &a, 1005 * SEC);
	KUNIT_EXPECT_NULL(test, pop(w, 1001 * SEC));
	/* the clock is set back by 500 s */
	hwt_wheel_rebase(w, 501 * SEC);
	/* to the tick the time set is in */
	KUNIT_EXPECT_EQ(test, w->clk, hwt_wheel_key(w, 501 * SEC));
	add_at(w, &b, 600 * SEC);
	KUNIT_EXPECT_EQ(test, b.expires, 600 * SEC);
	now = w->clk;
	KUNIT_ASSERT_PTR_EQ(test, run_until(test, w, &now, 2000 * SEC, NULL), &b);
	KUNIT_EXPECT_LT(test, now - 600 * SEC, TICK);
	KUNIT_ASSERT_PTR_EQ(test, run_until(test, w, &now, 2000 * SEC, NULL), &a);
	KUNIT_EXPECT_LT(test, now - 1005 * SEC, TICK);
}

static void wheel_rebase_parks_what_the_set_back_pushed_out(struct kunit *test)
{
	struct hwt_wheel *w = new_wheel(test, SHIFT, 2, 1000 * SEC);
	u64 horizon = hwt_wheel_horizon(w), deadline = 1010 * SEC, now;
	struct hwt_node a;

	add_at(w, &a, deadline);
	/* set back by twice the horizon: the deadline is now beyond it */
	hwt_wheel_rebase(w, 1000 * SEC - 2 * horizon);
	KUNIT_EXPECT_EQ(test, w->nparked, 1UL);
	now = w->clk;
	KUNIT_ASSERT_PTR_EQ(test, run_until(test, w, &now, deadline + SEC, NULL), &a);
	KUNIT_EXPECT_GE(test, (s64)(now - deadline), 0);
	KUNIT_EXPECT_LT(test, now - deadline, TICK);
}

static void wheel_forward_stops_at_due_nodes(struct kunit *test)
{
	struct hwt_wheel *w = new_wheel(test, SHIFT, 0, 0);
	struct hwt_node n;

	add_at(w, &n, 10 * TICK);
	hwt_wheel_forward(w, 5 * TICK);
	KUNIT_EXPECT_EQ(test, w->clk, 5 * TICK);
	hwt_wheel_forward(w, 50 * TICK);
	KUNIT_EXPECT_EQ(test, w->clk, 5 * TICK);
	KUNIT_EXPECT_PTR_EQ(test, pop(w, 50 * TICK), &n);
}

/*
 * A forward that found something due stays put only while that is so:
 * once the node is deleted and the wheel is empty, the clock follows the
 * caller again, so that later nodes are placed low, not parked.
 */
static void wheel_forward_after_the_due_node_went(struct kunit *test)
{
	struct hwt_wheel *w = new_wheel(test, SHIFT, 2, 0);
	struct hwt_node a, b;

	add_at(w, &a, 1 * MS);
	hwt_wheel_forward(w, 2 * MS);
	KUNIT_EXPECT_EQ(test, w->clk, 0ULL);
	hwt_wheel_del(w, &a);
	hwt_wheel_forward(w, SEC);
	KUNIT_EXPECT_EQ(test, w->clk, SEC & ~(TICK - 1));
	add_at(w, &b, SEC + MS);
	KUNIT_EXPECT_LT(test, hwt_wheel_level_of(w, &b), w->levels);
	KUNIT_EXPECT_EQ(test, w->nparked, 0UL);
}

/*
 * A forward that found something due stays put, without looking again,
 * until the clock moves another way; then it moves the clock again.
 */
static void wheel_forward_retries_after_the_clock_moved(struct kunit *test)
{
	struct hwt_wheel *w = new_wheel(test, SHIFT, 0, 0);
	struct hwt_node n, m;

	add_at(w, &n, 10 * TICK);
	hwt_wheel_forward(w, 50 * TICK);
	KUNIT_EXPECT_EQ(test, w->clk, 0ULL);
	KUNIT_EXPECT_EQ(test, w->stuck, w->clk);
	hwt_wheel_forward(w, 60 * TICK);
	KUNIT_EXPECT_EQ(test, w->clk, 0ULL);
	KUNIT_EXPECT_PTR_EQ(test, pop(w, 50 * TICK), &n);
	add_at(w, &m, 500 * TICK);
	hwt_wheel_forward(w, 100 * TICK);
	KUNIT_EXPECT_EQ(test, w->clk, 100 * TICK);
	KUNIT_EXPECT_PTR_EQ(test, pop(w, 500 * TICK), &m);
}

static struct kunit_case hwtimer_wheel_clock_cases[] = {
	KUNIT_CASE(wheel_parks_beyond_the_horizon),
	KUNIT_CASE(wheel_del_and_mod_of_parked_node),
	KUNIT_CASE(wheel_rebase_follows_clock_set_back),
	KUNIT_CASE(wheel_rebase_parks_what_the_set_back_pushed_out),
	KUNIT_CASE(wheel_forward_stops_at_due_nodes),
	KUNIT_CASE(wheel_forward_after_the_due_node_went),
	KUNIT_CASE(wheel_forward_retries_after_the_clock_moved),
	{}
};

static struct kunit_suite hwtimer_wheel_clock_suite = {
	.name = "hwtimer_wheel_clock",
	.test_cases = hwtimer_wheel_clock_cases,
};

kunit_test_suite(hwtimer_wheel_clock_suite);

MODULE_DESCRIPTION("KUnit tests for the hwtimer wheel core's clock");
MODULE_LICENSE("GPL");
