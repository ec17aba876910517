/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the suites on the real in-kernel API (kbase_kunit.c, api_kunit.c,
 * api_cpu_kunit.c) share: time units, ways to wait for a callback, and
 * the CPUs a case runs on.
 */
#ifndef _HWT_API_TEST_H
#define _HWT_API_TEST_H

#include <kunit/test.h>
#include <linux/atomic.h>
#include <linux/completion.h>
#include <linux/cpumask.h>
#include <linux/delay.h>
#include <linux/sched.h>
#include <linux/timekeeping.h>

#define US		1000ULL
#define MS		(1000 * US)
#define SEC		(1000 * MS)

/*
 * Busy-wait until @v is at least @n, at most @ms; true if it got there. For
 * a test that must not sleep: the timer of its own sleep could have to
 * wait for the callback it is waiting for.
 */
static inline bool spin_until(atomic_t *v, int n, unsigned int ms)
{
	u64 end = ktime_get_ns() + ms * MS;

	while (atomic_read(v) < n) {
		if (ktime_get_ns() > end)
			return false;
		cpu_relax();
	}
	return true;
}

/*
 * Busy-wait @ms on CLOCK_MONOTONIC. Not mdelay(): a guest whose vCPU lost
 * the host's CPU while it calibrated its delay loop at boot ("failed to
 * get a good estimate for loops_per_jiffy") may wait a tenth as long.
 */
static inline void spin_ms(unsigned int ms)
{
	u64 end = ktime_get_ns() + ms * MS;

	while (ktime_get_ns() < end)
		cpu_relax();
}

/*
 * Wait for @c, which a thread or callback of the test completes: a failure
 * that says what was waited for once @secs have passed. It waits on, since
 * what it waits for uses the test's memory. It waits in slices of 10 s,
 * which the hung-task detector (60 s in the debug kernels) does not mind,
 * so that a machine slowed by other work fails the test at most, and never
 * splats.
 */
static inline void wait_done(struct kunit *test, struct completion *c,
			     unsigned int secs, const char *what)
{
	unsigned int waited = 0;

	while (!wait_for_completion_timeout(c, 10 * HZ)) {
		waited += 10;
		if (waited == DIV_ROUND_UP(secs, 10) * 10)
			KUNIT_FAIL(test, "%s: not done after %u s", what,
				   waited);
	}
}

/* Poll until @cond or @ms pass; the test then checks @cond itself. */
#define wait_until(cond, ms) ({						\
	unsigned int __left = (ms);					\
	bool __met;							\
									\
	while (!(__met = (cond)) && __left--)				\
		fsleep(1000);						\
	__met;								\
})

/* Two online CPUs, or skip. */
static inline void two_cpus(struct kunit *test, unsigned int *a,
			    unsigned int *b)
{
	*a = cpumask_first(cpu_online_mask);
	*b = cpumask_next(*a, cpu_online_mask);
	if (*b >= nr_cpu_ids)
		kunit_skip(test, "needs two CPUs");
}

/* Run the case on @cpu alone, until it moves again */
static inline void move_to(struct kunit *test, unsigned int cpu)
{
	KUNIT_ASSERT_EQ(test, set_cpus_allowed_ptr(current, cpumask_of(cpu)), 0);
}

#endif /* _HWT_API_TEST_H */
