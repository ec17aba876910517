// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit suite of where hwtimer's in-kernel API runs a callback: a timer
 * fires on the CPU that armed it, a pinned one on its own whoever arms
 * it, and one initialised for an offline CPU on the initialiser's, on
 * every clock. make check runs it once more with CPU 1 offline from
 * before the module loaded (tests/vm/init.sh).
 */
#include <kunit/test.h>
#include <linux/atomic.h>
#include <linux/cpumask.h>
#include <linux/hwtimer.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/smp.h>

#include "api_test.h"

/* A callback that notes where it ran */
struct where {
	struct hwtimer t;
	atomic_t fired;
	int cpu;
};

static void where_fn(struct hwtimer *t)
{
	struct where *w = container_of(t, struct where, t);

	w->cpu = smp_processor_id();
	atomic_inc(&w->fired);
}

/*
 * Two timers initialised on CPU @a, one armed from @a, one from @b, due at
 * once: each fires on the CPU that armed it, so a driver's probe on one
 * CPU does not put all its timers on one base and one lock.
 */
static void api_timer_fires_on_arming_cpu(struct kunit *test)
{
	struct where *w = kunit_kcalloc(test, 2, sizeof(*w), GFP_KERNEL);
	unsigned int a, b;
	u64 deadline;

	KUNIT_ASSERT_NOT_NULL(test, w);
	two_cpus(test, &a, &b);
	hwtimer_init_on(&w[0].t, where_fn, 0, a);
	hwtimer_init_on(&w[1].t, where_fn, 0, a);
	deadline = hwtimer_now(&w[0].t) + 20 * MS;
	move_to(test, a);
	KUNIT_EXPECT_EQ(test, hwtimer_start(&w[0].t, deadline, 0, HWTIMER_ABS), 0);
	move_to(test, b);
	KUNIT_EXPECT_EQ(test, hwtimer_start(&w[1].t, deadline, 0, HWTIMER_ABS), 0);
	set_cpus_allowed_ptr(current, cpu_possible_mask);
	KUNIT_EXPECT_TRUE(test, wait_until(atomic_read(&w[0].fired) &&
					   atomic_read(&w[1].fired), 10000));
	KUNIT_EXPECT_EQ(test, w[0].cpu, a);
	KUNIT_EXPECT_EQ(test, w[1].cpu, b);
	hwtimer_cancel_sync(&w[0].t);
	hwtimer_cancel_sync(&w[1].t);
}

/* A pinned timer armed from another CPU still fires on its own. */
static void api_pinned_timer_stays_on_its_cpu(struct kunit *test)
{
	struct where *w = kunit_kzalloc(test, sizeof(*w), GFP_KERNEL);
	unsigned int a, b, i;

	KUNIT_ASSERT_NOT_NULL(test, w);
	two_cpus(test, &a, &b);
	hwtimer_init_on(&w->t, where_fn, HWTIMER_PINNED, a);
	move_to(test, b);
	for (i = 1; i <= 3; i++) {
		w->cpu = -1;
		KUNIT_EXPECT_EQ(test, hwtimer_start(&w->t, 2 * MS, 0,
						    HWTIMER_REL), 0);
		KUNIT_EXPECT_TRUE(test, wait_until(atomic_read(&w->fired) == i,
						   10000));
		KUNIT_EXPECT_EQ(test, w->cpu, a);
	}
	set_cpus_allowed_ptr(current, cpu_possible_mask);
	hwtimer_cancel_sync(&w->t);
}

/*
 * A CPU that is offline: a possible one that was never online has no
 * bases, which hwtimer makes for a CPU as it first comes online (make
 * check loads hwtimer with CPU 1 offline and runs this suite then,
 * tests/vm/init.sh), and a timer initialised for it, pinned even, starts on
 * the initialising CPU's bases and fires there, on every clock. One that
 * was online once keeps its bases, whose hrtimer fires where it is armed.
 */
static void api_timer_of_an_offline_cpu(struct kunit *test)
{
	static const unsigned int clocks[] = {
		HWTIMER_MONOTONIC, HWTIMER_BOOTTIME, HWTIMER_REALTIME,
	};
	struct where *w = kunit_kcalloc(test, ARRAY_SIZE(clocks), sizeof(*w),
					GFP_KERNEL);
	unsigned int absent = nr_cpu_ids, cpu, here, i;

	KUNIT_ASSERT_NOT_NULL(test, w);
	for_each_possible_cpu(cpu) {
		if (!cpu_online(cpu)) {
			absent = cpu;
			break;
		}
	}
	if (absent >= nr_cpu_ids)
		kunit_skip(test, "every possible CPU is online");
	here = cpumask_first(cpu_online_mask);
	move_to(test, here);
	for (i = 0; i < ARRAY_SIZE(clocks); i++) {
		hwtimer_init_on(&w[i].t, where_fn, clocks[i] | HWTIMER_PINNED,
				absent);
		w[i].cpu = -1;
		KUNIT_EXPECT_EQ(test, hwtimer_start(&w[i].t, 2 * MS, 0,
						    HWTIMER_REL), 0);
	}
	set_cpus_allowed_ptr(current, cpu_possible_mask);
	for (i = 0; i < ARRAY_SIZE(clocks); i++) {
		KUNIT_EXPECT_TRUE(test, wait_until(atomic_read(&w[i].fired) == 1,
						   10000));
		KUNIT_EXPECT_EQ(test, w[i].cpu, here);
		hwtimer_cancel_sync(&w[i].t);
	}
}

static struct kunit_case hwtimer_api_cpu_cases[] = {
	KUNIT_CASE(api_timer_fires_on_arming_cpu),
	KUNIT_CASE(api_pinned_timer_stays_on_its_cpu),
	KUNIT_CASE(api_timer_of_an_offline_cpu),
	{}
};

static struct kunit_suite hwtimer_api_cpu_suite = {
	.name = "hwtimer_api_cpu",
	.test_cases = hwtimer_api_cpu_cases,
};

kunit_test_suite(hwtimer_api_cpu_suite);

MODULE_DESCRIPTION("KUnit suite of where hwtimer's API runs callbacks");
MODULE_LICENSE("GPL");
