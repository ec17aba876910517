// SPDX-License-Identifier: GPL-2.0
/*
 * hwtimer timer base: a wheel, its lock and the hrtimer that drives it.
 * See hwt.h for the design.
 */
#include <linux/bitops.h>
#include <linux/hrtimer.h>
#include <linux/slab.h>
#include <linux/timekeeping.h>

#include "compat/compat.h"
#include "hwt.h"

const clockid_t hwt_clockids[HWT_NR_CLOCKS] = {
	CLOCK_MONOTONIC, CLOCK_BOOTTIME, CLOCK_REALTIME,
};

/* Index of @clockid in hwt_clockids, or -EINVAL. */
int hwt_clock_index(clockid_t clockid)
{
	int i;

	for (i = 0; i < HWT_NR_CLOCKS; i++)
		if (hwt_clockids[i] == clockid)
			return i;
	return -EINVAL;
}

/**
 * hwt_base_init() - set up a base with an empty wheel
 * @b: the base
 * @lock: the lock to use, or NULL for the base's own
 * @clockid: the clock its timers run on
 * @fn: the owner's hrtimer callback
 * @gfp: for allocating the wheel
 *
 * Return: 0 or -ENOMEM.
 */
int hwt_base_init(struct hwt_base *b, spinlock_t *lock, clockid_t clockid,
		  enum hrtimer_restart (*fn)(struct hrtimer *), gfp_t gfp)
{
	int ret;

	b->wheel = kvzalloc(hwt_wheel_size(hwt_geo.levels), gfp);
	if (!b->wheel)
		return -ENOMEM;
	b->clockid = clockid;
	ret = hwt_wheel_init(b->wheel, hwt_geo.shift, hwt_geo.levels,
			     hwt_base_now(b));
	if (WARN_ON_ONCE(ret)) {
		kvfree(b->wheel);
		return ret;
	}
	spin_lock_init(&b->own_lock);
	b->lock = lock ?: &b->own_lock;
	b->armed = U64_MAX;
	memset(&b->stats, 0, sizeof(b->stats));
	hwt_hrtimer_setup(&b->hrt, fn, clockid, HRTIMER_MODE_ABS_SOFT);
	return 0;
}

/**
 * hwt_base_destroy() - tear down a base whose wheel is empty
 * @b: the base
 *
 * Waits for a running hrtimer callback. Must not be called with @b->lock
 * held.
 */
void hwt_base_destroy(struct hwt_base *b)
{
	hrtimer_cancel(&b->hrt);
	WARN_ON_ONCE(!hwt_wheel_empty(b->wheel));
	kvfree(b->wheel);
	b->wheel = NULL;
}

/**
 * hwt_base_now() - the current time on the base's clock
 * @b: the base
 *
 * Return: ns.
 */
u64 hwt_base_now(const struct hwt_base *b)
{
	switch (b->clockid) {
	case CLOCK_BOOTTIME:
		return ktime_get_boottime_ns();
	case CLOCK_REALTIME:
		return ktime_get_real_ns();
	default:
		return ktime_get_ns();
	}
}

/**
 * hwt_base_deadline() - validate a deadline and make it absolute
 * @b: the base
 * @now: the current time on its clock
 * @expires: a delay, or an absolute time if @abs
 * @abs: whether @expires is absolute
 * @deadline: set to the absolute deadline; a time already passed becomes @now
 *
 * Return: 0, or -ERANGE if the deadline lies beyond hwt_geo.max_delay or
 * beyond what the wheel can place right now.
 */
int hwt_base_deadline(const struct hwt_base *b, u64 now, u64 expires,
		      bool abs, u64 *deadline)
{
	u64 d;

	if (abs) {
		if (expires > KTIME_MAX)
			return -ERANGE;
		d = (s64)(expires - now) < 0 ? now : expires;
	} else {
		if (expires > hwt_geo.max_delay)
			return -ERANGE;
		d = now + expires;
	}
	if (d - now > hwt_geo.max_delay)
		return -ERANGE;
	/* the wheel places keys relative to its clock, which may lag now */
	if (hwt_wheel_key(b->wheel, d) - b->wheel->clk >=
	    hwt_wheel_horizon(b->wheel))
		return -ERANGE;
	*deadline = d;
	return 0;
}

/* Program the hrtimer for @when if that is earlier than what is armed. */
static void hwt_base_arm(struct hwt_base *b, u64 when)
{
	if (b->armed != U64_MAX && (s64)(when - b->armed) >= 0)
		return;
	b->armed = when;
	b->stats.arms++;
	hrtimer_start(&b->hrt, ns_to_ktime(when), HRTIMER_MODE_ABS_SOFT);
}

/* A clock that was set back (CLOCK_REALTIME) leaves the wheel ahead of it. */
static void hwt_base_sync(struct hwt_base *b, u64 now)
{
	struct hwt_wheel *w = b->wheel;

	if (unlikely((s64)(now - w->clk) < 0)) {
		hwt_wheel_rebase(w, now);
		b->stats.rebases++;
	} else if (now - w->clk >= hwt_wheel_tick(w) << HWT_LVL_BITS) {
		/* place new timers against a fresh clock, on low levels */
		hwt_wheel_forward(w, now);
	}
}

/**
 * hwt_base_add() - queue a node and arm the hrtimer if it is now the earliest
 * @b: the base, locked
 * @n: a node with its deadline set by hwt_base_deadline()
 * @now: the current time
 */
void hwt_base_add(struct hwt_base *b, struct hwt_node *n, u64 now)
{
	hwt_base_sync(b, now);
	hwt_wheel_add(b->wheel, n);
	hwt_base_arm(b, hwt_wheel_key(b->wheel, n->expires));
}

/**
 * hwt_base_mod() - move a queued node to a new deadline
 * @b: the base, locked
 * @n: a node queued on @b
 * @deadline: from hwt_base_deadline()
 *
 * Return: true if the node stayed in its slot.
 */
bool hwt_base_mod(struct hwt_base *b, struct hwt_node *n, u64 deadline)
{
	bool same = hwt_wheel_mod(b->wheel, n, deadline);

	hwt_base_arm(b, hwt_wheel_key(b->wheel, n->expires));
	return same;
}

/**
 * hwt_base_del() - unlink a queued node
 * @b: the base, locked
 * @n: a node queued on @b
 *
 * An emptied base disarms its hrtimer, so that it causes no wakeup at all.
 */
void hwt_base_del(struct hwt_base *b, struct hwt_node *n)
{
	hwt_wheel_del(b->wheel, n);
	if (hwt_wheel_empty(b->wheel) && b->armed != U64_MAX &&
	    hrtimer_try_to_cancel(&b->hrt) >= 0)
		b->armed = U64_MAX;
}

/**
 * hwt_base_expiry_begin() - start a run of the base's hrtimer callback
 * @b: the base, locked
 * @x: the run's state
 */
void hwt_base_expiry_begin(struct hwt_base *b, struct hwt_expiry *x)
{
	x->now = hwt_base_now(b);
	x->left = HWT_EXPIRE_BATCH;
	x->fired = 0;
	b->armed = U64_MAX;
	b->stats.wakeups++;
	hwt_base_sync(b, x->now);
}

/**
 * hwt_base_expire_next() - take the next due node of this run
 * @b: the base, locked
 * @x: the run's state
 *
 * The lock may be dropped between calls; the run's time stays @x->now.
 *
 * Return: a due node, no longer queued, or NULL when nothing more is due or
 * the run has expired HWT_EXPIRE_BATCH nodes.
 */
struct hwt_node *hwt_base_expire_next(struct hwt_base *b,
				      struct hwt_expiry *x)
{
	struct hwt_node *n;
	u64 late;

	if (!x->left)
		return NULL;
	n = hwt_wheel_pop(b->wheel, x->now);
	if (!n)
		return NULL;
	x->left--;
	x->fired++;
	late = x->now - n->expires;
	b->stats.fired++;
	b->stats.max_late = max(b->stats.max_late, late);
	b->stats.late_hist[min_t(unsigned int, fls64(late >> 10),
				 HWT_HIST_BUCKETS - 1)]++;
	return n;
}

/**
 * hwt_base_expiry_end() - finish a run: arm the hrtimer for what is left
 * @b: the base, locked
 * @x: the run's state
 */
void hwt_base_expiry_end(struct hwt_base *b, struct hwt_expiry *x)
{
	u64 next;

	if (!x->fired)
		b->stats.empty_wakeups++;
	if (!x->left) {
		/* more may be due: let other softirq work run, then go on */
		b->stats.deferred++;
		hwt_base_arm(b, x->now);
	} else if (hwt_wheel_next(b->wheel, &next)) {
		hwt_base_arm(b, next);
	}
}
