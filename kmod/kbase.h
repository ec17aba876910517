/* SPDX-License-Identifier: GPL-2.0 */
/*
 * hwtimer in-kernel API internals: the per-CPU bases of struct hwtimer.
 *
 * api.c has the exported functions, kbase.c the bases: their expiry
 * pass, sleepable callbacks, and keeping each base's hrtimer on its CPU.
 *
 * Locking. A base's lock is a raw spinlock, taken with interrupts off, so
 * that the API may be called from any context on PREEMPT_RT too; every
 * hold is O(1), or a bounded step of an expiry pass. A timer is on one base
 * at a time (struct hwtimer.base); moving it holds both bases' locks, taken
 * in address order, so whoever locks the base it read from the timer and
 * finds it unchanged has the timer (hrtimer's and timer_list's rule). The
 * expiry lock is held by a pass for its whole run, callbacks included, and
 * dropped between callbacks when someone waits: hwtimer_cancel_sync() waits
 * for a running callback by taking it, which on PREEMPT_RT boosts the task
 * running the pass (the softirq expiry lock of hrtimer and timer_list).
 */
#ifndef _HWT_KBASE_H
#define _HWT_KBASE_H

#include <linux/atomic.h>
#include <linux/percpu.h>
#include <linux/hwtimer.h>
#include <linux/lockdep.h>
#include <linux/spinlock.h>

#include "base.h"

/* struct hwtimer.state bits, under the base's lock */
#define HWT_PENDING	BIT(0)	/* queued on the wheel */
#define HWT_QUEUED	BIT(1)	/* fired, sleepable callback not started */
#define HWT_SHUTDOWN	BIT(2)	/* will not be armed again */

/* struct hwtimer.flags bit of hwtimer_init_sleepable() timers */
#define HWT_F_SLEEPABLE	0x8000

/* the largest slack a timer keeps in its node's owner bits */
#define HWT_SLACK_MAX	((1ULL << HWT_NODE_OWNER_BITS) - 1)

/**
 * struct hwt_kbase - a per-CPU base of the in-kernel API
 * @base: the wheel and its hrtimer, bound to the CPU
 * @lock: guards @base, the state of the timers on it, and the fields below
 * @expiry_lock: held by an expiry pass while it runs
 * @running: the timer whose callback the pass is running, or NULL
 * @fired: the time the pass fired @running at
 * @rearm: @running is periodic and nobody has touched it since it fired:
 *	   the pass re-arms it after the callback. Anything that starts,
 *	   modifies or cancels @running clears it, so a timer the callback
 *	   cancelled or re-armed (and may then have freed) is never touched.
 * @waiters: tasks waiting for @running in hwtimer_cancel_sync()
 */
struct hwt_kbase {
	struct hwt_base base;
	raw_spinlock_t lock;
	spinlock_t expiry_lock;	/* see @expiry_lock above */
	struct hwtimer *running;
	u64 fired;
	bool rearm;
	atomic_t waiters;
};

static inline struct hwtimer_sleepable *hwt_sleepable(struct hwtimer *t)
{
	return container_of(t, struct hwtimer_sleepable, timer);
}

/*
 * The bases of each CPU, made the first time it comes online (kbase.c,
 * hwt_cpu_prepare()): NULL for a possible CPU that never was. A CPU that
 * runs code has its own.
 */
DECLARE_PER_CPU(struct hwt_kbase *, hwt_kbases[HWT_NR_CLOCKS]);

/* The base of @cpu for clock index @clk, or NULL if it has none (yet). */
static inline struct hwt_kbase *hwt_kbase_of(unsigned int clk, unsigned int cpu)
{
	/*
	 * Pairs with the release in hwt_kbase_create(): what is read through
	 * the pointer depends on it, which READ_ONCE() orders everywhere.
	 */
	return READ_ONCE(per_cpu(hwt_kbases[clk], cpu));
}

/* The timer's lockdep map, or NULL without lockdep (the annotations are
 * then empty macros that never look at it).
 */
static inline struct lockdep_map *hwt_lockdep_map(struct hwtimer *t)
{
#ifdef CONFIG_LOCKDEP
	return &t->lockdep_map;
#else
	return NULL;
#endif
}

struct hwt_kbase *hwt_kbase_lock_timer(struct hwtimer *t, unsigned long *flags)
	__acquires(&t->base->lock);
void hwt_kbase_wait_running(struct hwt_kbase *kb);
void hwt_kbase_work_fn(struct work_struct *work);
int hwt_kbase_init(void);
void hwt_kbase_exit(void);

#endif /* _HWT_KBASE_H */
