/* SPDX-License-Identifier: GPL-2.0 */
/*
 * hwtimer internals: the timer base.
 *
 * A timer base is one wheel (wheel.h) on one clock, a spinlock, and a soft
 * hrtimer that drives the wheel. Two kinds of owner use it: the in-kernel
 * API (api.c) has one base per CPU and clock, and every open /dev/hwtimer
 * file has its own bases. Owners write their own hrtimer callback around
 * hwt_base_expiry_begin/expire_next/expiry_end, so the per-timer work of an
 * expiry is a direct call, not an indirect one.
 *
 * Tick: the hrtimer is armed only for the earliest time something can be due
 * (hwt_wheel_next()), so an empty base causes no wakeups and a lone timer
 * an hour away causes one. Adding a timer re-programs the hrtimer only when
 * it is due earlier than what is armed; deleting never does, except that a
 * base whose wheel becomes empty disarms.
 *
 * Expiry context: a soft hrtimer (HRTIMER_MODE_ABS_SOFT). Callbacks of the
 * in-kernel API then run in softirq context, as timer_list callbacks do,
 * which is what drivers expect, and never in hard interrupt context, where
 * an unbounded expiry would hurt every other interrupt. Each pass expires at
 * most HWT_EXPIRE_BATCH timers; if more are due, the hrtimer is re-armed for
 * "now", so a burst is spread over several softirq passes and other softirq
 * work (and, past its budget, ksoftirqd) gets to run in between. Every timer
 * of one pass records the same fire time, read once at the start, and the
 * per-timer work on the device's path is a list move; that is what keeps a
 * burst of 10^5 timers in one tick within about a tick.
 *
 * Locking: the base's spinlock, taken with interrupts disabled because the
 * in-kernel API may be called from hard interrupt context, guards the wheel,
 * the hrtimer's arming and the stats. It is never held while a callback
 * runs. Device files share one lock between their bases (the file's lock),
 * since their expiries also feed the file's record queue.
 *
 * Scaling: the in-kernel API shards by CPU. A timer binds to the base of the
 * CPU that initialised it, and operations on it take only that base's lock,
 * so timers set up on different CPUs never contend (the kernel's timer_list
 * does the same). A timer never migrates between bases, which keeps cancel
 * and modify free of the migration protocol timer_list needs. Each device
 * file has its own bases: one file's million timers never delay another
 * file's, and a process that wants parallelism opens one file per thread.
 */
#ifndef _HWT_H
#define _HWT_H

#include <linux/hrtimer.h>
#include <linux/spinlock.h>
#include <linux/time.h>

#include "wheel.h"

#define HWT_NR_CLOCKS		3	/* MONOTONIC, BOOTTIME, REALTIME */
#define HWT_EXPIRE_BATCH	256
#define HWT_HIST_BUCKETS	32

/**
 * struct hwt_geometry - the wheel geometry of every base, from module params
 * @shift: a tick is 1 << @shift ns
 * @levels: levels of every wheel
 * @tick_ns: 1 << @shift
 * @max_delay: the longest delay any timer may have, in ns
 */
struct hwt_geometry {
	unsigned int shift;
	unsigned int levels;
	u64 tick_ns;
	u64 max_delay;
};

extern struct hwt_geometry hwt_geo;

/**
 * struct hwt_stats - counters of one base, under its lock
 * @wakeups: runs of the hrtimer callback
 * @empty_wakeups: runs that found nothing due
 * @deferred: runs cut short by HWT_EXPIRE_BATCH
 * @arms: hrtimer programmings
 * @fired: timers expired
 * @rebases: wheel rebases after the clock was set back
 * @max_late: largest lateness seen, fire time - deadline, in ns
 * @late_hist: lateness histogram; bucket 0 is [0, 1024) ns, bucket k > 0 is
 *	       [2^(k+9), 2^(k+10)) ns, the last bucket is open-ended
 */
struct hwt_stats {
	u64 wakeups;
	u64 empty_wakeups;
	u64 deferred;
	u64 arms;
	u64 fired;
	u64 rebases;
	u64 max_late;
	u64 late_hist[HWT_HIST_BUCKETS];
};

/**
 * struct hwt_base - a wheel driven by an hrtimer on one clock
 * @lock: guards everything below; &@own_lock or the owner's
 * @wheel: the wheel
 * @hrt: drives the wheel, armed for @armed
 * @clockid: CLOCK_MONOTONIC, CLOCK_BOOTTIME or CLOCK_REALTIME
 * @armed: the time @hrt is armed for, or U64_MAX when it is not
 * @stats: counters
 * @owner: the object the base belongs to, for its hrtimer callback
 * @own_lock: the lock of a base that does not share its owner's
 */
struct hwt_base {
	spinlock_t *lock;		/* see @lock above */
	struct hwt_wheel *wheel;
	struct hrtimer hrt;
	clockid_t clockid;
	u64 armed;
	struct hwt_stats stats;
	void *owner;
	spinlock_t own_lock;		/* see @own_lock above */
};

/**
 * struct hwt_expiry - state of one run of a base's hrtimer callback
 * @now: the time the run started, which every timer of the run fired at
 * @left: how many more timers this run may expire
 * @fired: how many it expired
 */
struct hwt_expiry {
	u64 now;
	unsigned int left;
	unsigned int fired;
};

extern const clockid_t hwt_clockids[HWT_NR_CLOCKS];

int hwt_clock_index(clockid_t clockid);
int hwt_base_init(struct hwt_base *b, spinlock_t *lock, clockid_t clockid,
		  enum hrtimer_restart (*fn)(struct hrtimer *), gfp_t gfp);
void hwt_base_destroy(struct hwt_base *b);
u64 hwt_base_now(const struct hwt_base *b);
int hwt_base_deadline(const struct hwt_base *b, u64 now, u64 expires,
		      bool abs, u64 *deadline);
void hwt_base_add(struct hwt_base *b, struct hwt_node *n, u64 now);
bool hwt_base_mod(struct hwt_base *b, struct hwt_node *n, u64 deadline);
void hwt_base_del(struct hwt_base *b, struct hwt_node *n);
void hwt_base_expiry_begin(struct hwt_base *b, struct hwt_expiry *x);
struct hwt_node *hwt_base_expire_next(struct hwt_base *b,
				      struct hwt_expiry *x);
void hwt_base_expiry_end(struct hwt_base *b, struct hwt_expiry *x);

int hwt_api_init(void);
void hwt_api_exit(void);
int hwt_dev_init(void);
void hwt_dev_exit(void);

extern unsigned int hwt_max_timers_per_fd;
extern unsigned int hwt_max_timers_per_user;

#endif /* _HWT_H */
