// SPDX-License-Identifier: GPL-2.0
/*
 * hwtimer in-kernel API: struct hwtimer on per-CPU timer bases.
 * See include/linux/hwtimer.h for the contract, kbase.h for the locking.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/bitops.h>
#include <linux/export.h>
#include <linux/lockdep.h>
#include <linux/percpu.h>
#include <linux/sched.h>
#include <linux/smp.h>
#include <linux/workqueue.h>

#include "kbase.h"

/*
 * The sizes include/linux/hwtimer.h promises on 64-bit, as api_kunit.c's
 * api_struct_sizes checks them: 64 bytes, plus the lockdep map that lockdep
 * adds, as it does to timer_list; a sleepable timer adds its work_struct.
 */
static_assert(!IS_ENABLED(CONFIG_64BIT) ||
	      sizeof(struct hwtimer) <= 64 + (IS_ENABLED(CONFIG_LOCKDEP) ?
					      sizeof(struct lockdep_map) : 0));
static_assert(!IS_ENABLED(CONFIG_64BIT) ||
	      sizeof(struct hwtimer_sleepable) <=
	      sizeof(struct hwtimer) + sizeof(struct work_struct) + 16);

/**
 * __hwtimer_init_on() - initialise a timer; use hwtimer_init_on()
 * @t: the timer
 * @fn: its callback
 * @flags: see hwtimer_init_on()
 * @cpu: see hwtimer_init_on()
 * @name: the lockdep class's name, or NULL without lockdep
 * @key: the lockdep class of hwtimer_init_on()'s call site, or NULL
 */
void __hwtimer_init_on(struct hwtimer *t, hwtimer_fn_t fn, unsigned int flags,
		       unsigned int cpu, const char *name,
		       struct lock_class_key *key)
{
	unsigned int clk = flags & HWTIMER_CLOCK_MASK;

	if (WARN_ON_ONCE((flags & ~HWTIMER_INIT_FLAGS) || clk >= HWT_NR_CLOCKS ||
			 cpu >= nr_cpu_ids || !cpu_possible(cpu))) {
		flags = 0;
		clk = 0;
		cpu = raw_smp_processor_id();
	}
	memset(t, 0, sizeof(*t));
	INIT_LIST_HEAD(&t->node.entry);
	t->fn = fn;
	t->flags = flags;
	/* a CPU that was never online has no bases: the caller's has */
	t->base = hwt_kbase_of(clk, cpu) ?:
		  hwt_kbase_of(clk, raw_smp_processor_id());
	lockdep_init_map(hwt_lockdep_map(t), name, key, 0);
}
EXPORT_SYMBOL_GPL(__hwtimer_init_on);

/**
 * __hwtimer_init_sleepable() - use hwtimer_init_sleepable()
 * @st: the timer
 * @fn: its callback
 * @flags: see hwtimer_init_sleepable()
 * @name: the lockdep class's name, or NULL without lockdep
 * @key: the lockdep class of the call site, or NULL
 */
void __hwtimer_init_sleepable(struct hwtimer_sleepable *st, hwtimer_fn_t fn,
			      unsigned int flags, const char *name,
			      struct lock_class_key *key)
{
	__hwtimer_init_on(&st->timer, fn, flags, raw_smp_processor_id(), name,
			  key);
	st->timer.flags |= HWT_F_SLEEPABLE;
	INIT_WORK(&st->work, hwt_kbase_work_fn);
	st->fired = 0;
	st->missed = 0;
}
EXPORT_SYMBOL_GPL(__hwtimer_init_sleepable);

/*
 * Lock the base @t is on and the one arming should put it on, the current
 * CPU's unless @t is pinned, with interrupts off. *@to is that base,
 * locked too if it is another; it is @t's own if @t's callback is running,
 * which never moves.
 */
static struct hwt_kbase *hwt_lock_arm(struct hwtimer *t,
				      struct hwt_kbase **to,
				      unsigned long *flags)
	__acquires(&t->base->lock) __acquires(&(*to)->lock)
{
	local_irq_save(*flags);
	for (;;) {
		struct hwt_kbase *kb = READ_ONCE(t->base), *nb = kb;

		if (!(t->flags & HWTIMER_PINNED))
			nb = hwt_kbase_of(t->flags & HWTIMER_CLOCK_MASK,
					  smp_processor_id());
		if (nb == kb) {
			raw_spin_lock(&kb->lock);
			__acquire(&nb->lock);	/* the same lock, for sparse */
		} else if (kb < nb) {
			raw_spin_lock(&kb->lock);
			raw_spin_lock_nested(&nb->lock, SINGLE_DEPTH_NESTING);
		} else {
			raw_spin_lock(&nb->lock);
			raw_spin_lock_nested(&kb->lock, SINGLE_DEPTH_NESTING);
		}
		if (likely(kb == t->base)) {
			if (nb != kb && kb->running == t) {
				raw_spin_unlock(&nb->lock);
				nb = kb;
				__acquire(&nb->lock);
			}
			*to = nb;
			return kb;
		}
		if (nb != kb)
			raw_spin_unlock(&nb->lock);
		else
			__release(&nb->lock);
		raw_spin_unlock(&kb->lock);
	}
}

static void hwt_unlock_arm(struct hwt_kbase *kb, struct hwt_kbase *nb,
			   unsigned long flags)
	__releases(&kb->lock) __releases(&nb->lock)
{
	if (nb != kb)
		raw_spin_unlock(&nb->lock);
	else
		__release(&nb->lock);
	raw_spin_unlock(&kb->lock);
	local_irq_restore(flags);
}

/*
 * Drop the queued run of a sleepable timer's callback, with its base
 * locked: the timer was cancelled or re-armed before the run started.
 */
static bool hwt_unqueue(struct hwtimer *t)
{
	struct hwtimer_sleepable *st;

	lockdep_assert_held(&t->base->lock);
	if (!(t->state & HWT_QUEUED))
		return false;
	st = hwt_sleepable(t);
	/* if the work already started, it sees QUEUED clear */
	cancel_work(&st->work);
	st->missed = 0;
	t->state &= ~HWT_QUEUED;
	return true;
}

static int hwt_api_arm(struct hwtimer *t, u64 expires, u64 delta,
		       u64 period, bool start, unsigned int mode)
{
	unsigned int cond = mode & (HWTIMER_IF_EARLIER | HWTIMER_IF_PENDING |
				    HWTIMER_IF_IDLE);
	struct hwt_kbase *kb, *nb;
	unsigned long flags;
	u64 now, deadline;
	bool on_wheel;
	int ret;

	if ((mode & ~HWTIMER_MODE_FLAGS) || (cond & (cond - 1)))
		return -EINVAL;
	if (period > hwt_geo.max_delay || delta > hwt_geo.max_delay)
		return -ERANGE;

	kb = hwt_lock_arm(t, &nb, &flags);
	if (t->state & HWT_SHUTDOWN) {
		ret = -ESHUTDOWN;
		goto out;
	}
	/*
	 * an absolute one-shot deadline is placed against the coarse clock;
	 * a periodic timer's grid starts at the exact time if it has passed
	 */
	if ((mode & HWTIMER_ABS) && !(start ? period : t->period))
		now = hwt_base_abs_now(&nb->base, expires);
	else
		now = hwt_base_now(&nb->base);
	ret = hwt_base_deadline(&nb->base, now, expires, mode & HWTIMER_ABS,
				&deadline);
	if (ret)
		goto out;
	/* pending as hwtimer_pending() says: on the wheel, or its callback due */
	on_wheel = t->state & HWT_PENDING;
	ret = !!(t->state & (HWT_PENDING | HWT_QUEUED));
	if ((cond == HWTIMER_IF_PENDING && !ret) ||
	    (cond == HWTIMER_IF_IDLE && ret) ||
	    (cond == HWTIMER_IF_EARLIER && (t->state & HWT_QUEUED)) ||
	    (cond == HWTIMER_IF_EARLIER && on_wheel &&
	     (s64)(deadline - t->node.expires) >= 0))
		goto out;
	/* the new arming replaces a callback that has not started */
	hwt_unqueue(t);
	if (start) {
		t->period = period;
		t->node.owner = min(delta, HWT_SLACK_MAX);
		t->node.slack = !!delta;
	}
	/* the pass must not re-arm a running periodic timer after this */
	if (kb->running == t)
		kb->rearm = false;
	if (on_wheel && nb == kb) {
		hwt_base_mod(&kb->base, &t->node, deadline, now, 0);
		hwt_gstat_add(HWT_C_MODIFIED, 1);
		goto out;
	}
	if (on_wheel)
		hwt_base_del(&kb->base, &t->node, 0);
	if (nb != kb)
		WRITE_ONCE(t->base, nb);
	t->node.expires = deadline;
	hwt_base_add(&nb->base, &t->node, now, 0);
	t->state |= HWT_PENDING;
	hwt_gstat_add(on_wheel ? HWT_C_MODIFIED : HWT_C_ADDED, 1);
out:
	hwt_unlock_arm(kb, nb, flags);
	return ret;
}

/**
 * hwtimer_start_range() - arm a timer to fire within a window
 * @t: the timer
 * @expires: the delay in ns, or with HWTIMER_ABS the deadline on the
 *	     timer's clock; a deadline already passed fires at once
 * @delta: slack: the timer may fire up to @delta ns after its deadline, so
 *	   that timers whose windows overlap share a wakeup, as with
 *	   hrtimer_start_range_ns(); it applies to every period
 * @period: 0 for a one-shot timer, else the period in ns
 * @mode: HWTIMER_REL or HWTIMER_ABS, optionally ORed with one of
 *	  HWTIMER_IF_EARLIER, HWTIMER_IF_PENDING or HWTIMER_IF_IDLE
 *
 * Re-arms the timer if it is pending. A sleepable timer's callback that is
 * queued and has not started is replaced by the new arming, as
 * mod_delayed_work() replaces pending work: one callback follows a return
 * of 1, as one would have followed without the call. The timer moves to
 * the current CPU unless it is pinned or its callback is running.
 *
 * Context: any, hard interrupts and raw spinlocks included.
 * Return: 1 if the timer was pending as hwtimer_pending() says (on the
 * wheel, or a sleepable timer whose callback is queued and has not
 * started), 0 if not, -EINVAL for bad @mode,
 * -ERANGE for a deadline, slack or period beyond the wheel's range,
 * -ESHUTDOWN after hwtimer_shutdown_sync(). With a condition that does not
 * hold, the timer is left alone and 1 or 0 still says whether it is pending.
 * HWTIMER_IF_EARLIER leaves a timer whose callback is queued alone: that
 * callback is due already.
 */
int hwtimer_start_range(struct hwtimer *t, u64 expires, u64 delta,
			u64 period, unsigned int mode)
{
	return hwt_api_arm(t, expires, delta, period, true, mode);
}
EXPORT_SYMBOL_GPL(hwtimer_start_range);

/**
 * hwtimer_start() - arm a timer with no slack, or re-arm it if it is pending
 * @t: the timer
 * @expires: as for hwtimer_start_range()
 * @period: as for hwtimer_start_range()
 * @mode: as for hwtimer_start_range()
 *
 * The timer fires at its deadline, plus the latency of the hrtimer that
 * drives the wheel.
 *
 * Context: any, hard interrupts and raw spinlocks included.
 * Return: as for hwtimer_start_range().
 */
int hwtimer_start(struct hwtimer *t, u64 expires, u64 period,
		  unsigned int mode)
{
	return hwt_api_arm(t, expires, 0, period, true, mode);
}
EXPORT_SYMBOL_GPL(hwtimer_start);

/**
 * hwtimer_modify() - change a timer's deadline, keeping its period and slack
 * @t: the timer
 * @expires: as for hwtimer_start()
 * @mode: as for hwtimer_start(); HWTIMER_IF_EARLIER makes this a "kick"
 *	  like timer_reduce(), HWTIMER_IF_PENDING is mod_timer_pending()
 *
 * A new deadline in the timer's current wheel slot only updates the timer,
 * as mod_timer() does.
 *
 * Context: any, hard interrupts and raw spinlocks included.
 * Return: as for hwtimer_start().
 */
int hwtimer_modify(struct hwtimer *t, u64 expires, unsigned int mode)
{
	return hwt_api_arm(t, expires, 0, 0, false, mode);
}
EXPORT_SYMBOL_GPL(hwtimer_modify);

/* Called with @t's base @kb locked. */
static bool __hwtimer_cancel(struct hwt_kbase *kb, struct hwtimer *t)
{
	bool was = false;

	lockdep_assert_held(&kb->lock);
	if (kb->running == t)
		kb->rearm = false;
	if (t->state & HWT_PENDING) {
		hwt_base_del(&kb->base, &t->node, 0);
		t->state &= ~HWT_PENDING;
		hwt_gstat_add(HWT_C_CANCELLED, 1);
		was = true;
	}
	if (hwt_unqueue(t))
		was = true;
	return was;
}

/**
 * hwtimer_cancel() - disarm a timer
 * @t: the timer
 *
 * Does not wait for a callback that is running; a periodic timer whose
 * callback is running is not re-armed after it.
 *
 * Context: any, hard interrupts and raw spinlocks included.
 * Return: true if the timer was pending (its callback would have run).
 */
bool hwtimer_cancel(struct hwtimer *t)
{
	struct hwt_kbase *kb;
	unsigned long flags;
	bool was;

	kb = hwt_kbase_lock_timer(t, &flags);
	was = __hwtimer_cancel(kb, t);
	raw_spin_unlock_irqrestore(&kb->lock, flags);
	return was;
}
EXPORT_SYMBOL_GPL(hwtimer_cancel);

/*
 * Tell lockdep we may wait for @t's callback, running or not, as
 * timer_delete_sync() does: a lock held here that the callback takes is a
 * deadlock whether or not this call happens to wait.
 */
static void hwt_sync_annotate(struct hwtimer *t)
{
	unsigned long flags;

	local_irq_save(flags);
	lock_map_acquire(hwt_lockdep_map(t));
	lock_map_release(hwt_lockdep_map(t));
	local_irq_restore(flags);
}

/*
 * Cancel until the timer is neither pending, nor queued, nor running: a
 * callback that was running may have re-armed it.
 */
static bool hwt_cancel_sync(struct hwtimer *t, bool shutdown)
{
	bool was = false;

	might_sleep();
	hwt_sync_annotate(t);
	for (;;) {
		struct hwt_kbase *kb;
		unsigned long flags;
		bool running;

		kb = hwt_kbase_lock_timer(t, &flags);
		if (shutdown)
			t->state |= HWT_SHUTDOWN;
		was |= __hwtimer_cancel(kb, t);
		running = kb->running == t;
		if (running)
			atomic_inc(&kb->waiters);
		raw_spin_unlock_irqrestore(&kb->lock, flags);
		if (running) {
			hwt_kbase_wait_running(kb);
			continue;
		}
		/* flush_work() is true if it waited: the callback ran */
		if (!(t->flags & HWT_F_SLEEPABLE) ||
		    !flush_work(&hwt_sleepable(t)->work))
			return was;
	}
}

/**
 * hwtimer_cancel_sync() - disarm a timer and wait for its callback
 * @t: the timer
 *
 * On return the timer is not pending and its callback is not running, even
 * if the callback re-armed it meanwhile (it is cancelled again), so the
 * timer can be freed unless other code arms it again; see
 * hwtimer_shutdown_sync() for that. It must not be called from the timer's
 * own callback, nor while holding a lock the callback takes (lockdep says
 * so).
 *
 * Context: process context; may sleep.
 * Return: true if the timer was pending.
 */
bool hwtimer_cancel_sync(struct hwtimer *t)
{
	return hwt_cancel_sync(t, false);
}
EXPORT_SYMBOL_GPL(hwtimer_cancel_sync);

/**
 * hwtimer_shutdown_sync() - cancel a timer for good
 * @t: the timer
 *
 * Like hwtimer_cancel_sync(), and afterwards every attempt to arm the timer,
 * a periodic re-arm or the callback's own included, fails with -ESHUTDOWN.
 * This is the teardown order of timer_shutdown_sync(): the timer can then
 * be freed even if other code still tries to arm it.
 *
 * Context: process context; may sleep.
 */
void hwtimer_shutdown_sync(struct hwtimer *t)
{
	hwt_cancel_sync(t, true);
}
EXPORT_SYMBOL_GPL(hwtimer_shutdown_sync);

/**
 * hwtimer_pending() - whether a timer is armed
 * @t: the timer
 *
 * Context: any.
 * Return: true if the timer is on the wheel, or has fired and waits for
 * its sleepable callback to start.
 */
bool hwtimer_pending(const struct hwtimer *t)
{
	return READ_ONCE(t->state) & (HWT_PENDING | HWT_QUEUED);
}
EXPORT_SYMBOL_GPL(hwtimer_pending);

/**
 * hwtimer_expires() - a timer's deadline
 * @t: the timer
 *
 * Inside the callback this is the deadline that fired, unless the timer was
 * re-armed meanwhile: by other code, or, for a periodic sleepable timer,
 * when it fired.
 *
 * Context: any.
 * Return: the deadline it was last armed for, in ns on its clock.
 */
u64 hwtimer_expires(const struct hwtimer *t)
{
	return READ_ONCE(t->node.expires);
}
EXPORT_SYMBOL_GPL(hwtimer_expires);

/**
 * hwtimer_fired() - when a timer fired
 * @t: the timer
 *
 * Inside the callback, hwtimer_fired() - hwtimer_expires() is the timer's
 * lateness. The time is kept by the base for a softirq callback (it is
 * the time of the base's current pass) and by the timer for a sleepable
 * one (the time it last fired), so outside its callback a softirq timer's
 * answer is the time of its base's last pass.
 *
 * Context: the timer's callback.
 * Return: the time the wheel expired it, in ns on its clock.
 */
u64 hwtimer_fired(const struct hwtimer *t)
{
	if (t->flags & HWT_F_SLEEPABLE)
		return READ_ONCE(container_of(t, struct hwtimer_sleepable,
					      timer)->fired);
	return READ_ONCE(READ_ONCE(t->base)->fired);
}
EXPORT_SYMBOL_GPL(hwtimer_fired);

/**
 * hwtimer_overruns() - periods a periodic timer missed
 * @t: the timer
 *
 * Context: the timer's callback.
 * Return: the number of whole periods that ended before the timer could be
 * re-armed the last time (for a sleepable timer: since its callback last
 * started); they were skipped, not replayed.
 */
u64 hwtimer_overruns(const struct hwtimer *t)
{
	return READ_ONCE(t->overruns);
}
EXPORT_SYMBOL_GPL(hwtimer_overruns);

/**
 * hwtimer_now() - the current time on a timer's clock
 * @t: an initialised timer
 *
 * Context: any.
 * Return: ns, comparable with hwtimer_expires().
 */
u64 hwtimer_now(const struct hwtimer *t)
{
	return hwt_base_now(&READ_ONCE(t->base)->base);
}
EXPORT_SYMBOL_GPL(hwtimer_now);

/**
 * hwtimer_tick_ns() - the wheel's tick
 *
 * Context: any.
 * Return: the tick in ns: the lateness bound of the precision promise in
 * <linux/hwtimer.h>.
 */
u64 hwtimer_tick_ns(void)
{
	return hwt_geo.tick_ns;
}
EXPORT_SYMBOL_GPL(hwtimer_tick_ns);
