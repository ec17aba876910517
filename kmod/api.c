// SPDX-License-Identifier: GPL-2.0
/*
 * hwtimer in-kernel API: struct hwtimer on per-CPU timer bases.
 * See include/linux/hwtimer.h for the contract and hwt.h for the design.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/bitops.h>
#include <linux/export.h>
#include <linux/hwtimer.h>
#include <linux/percpu.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/smp.h>
#include <linux/wait_bit.h>
#include <linux/workqueue.h>

#include "hwt.h"
#include "hwt_trace.h"

/* struct hwtimer state bits, under the base's lock */
#define HWT_PENDING	BIT(0)	/* queued on the wheel */
#define HWT_QUEUED	BIT(1)	/* expired, sleepable callback queued */
#define HWT_RUNNING	BIT(2)	/* callback running */
#define HWT_SHUTDOWN	BIT(3)	/* will not be armed again */
#define HWT_SYNC_WAIT	BIT(4)	/* someone waits for RUNNING to clear */

static DEFINE_PER_CPU(struct hwt_base *, hwt_kbases[HWT_NR_CLOCKS]);
static struct workqueue_struct *hwt_wq;

/* Called with the base locked; returns with it locked. */
static void hwt_run_callback(struct hwtimer *t, unsigned long *flags)
{
	struct hwt_base *b = t->base;
	u32 seq = t->seq;
	bool wake;

	t->state |= HWT_RUNNING;
	spin_unlock_irqrestore(b->lock, *flags);
	t->fn(t);
	spin_lock_irqsave(b->lock, *flags);

	/* re-arm a periodic timer the callback did not touch */
	if (t->period && t->seq == seq &&
	    !(t->state & (HWT_PENDING | HWT_SHUTDOWN))) {
		u64 now = hwt_base_now(b);

		t->node.expires = hwt_period_next(t->node.expires, t->fired,
						  now, t->period,
						  t->flags & HWTIMER_FIXED_DELAY,
						  &t->overruns);
		hwt_gstat_add(HWT_C_OVERRUNS, t->overruns);
		hwt_base_add(b, &t->node, now, 0);
		t->state |= HWT_PENDING;
	}
	wake = t->state & HWT_SYNC_WAIT;
	t->state &= ~(HWT_RUNNING | HWT_SYNC_WAIT);
	/* the waiter may free @t as soon as it sees RUNNING clear: use the
	 * address only
	 */
	if (wake)
		wake_up_var(&t->state);
}

static enum hrtimer_restart hwt_kbase_tick(struct hrtimer *hrt)
{
	struct hwt_base *b = container_of(hrt, struct hwt_base, hrt);
	struct hwt_expiry x;
	struct hwt_node *n;
	unsigned long flags;

	spin_lock_irqsave(b->lock, flags);
	hwt_base_expiry_begin(b, &x);
	while ((n = hwt_base_expire_next(b, &x))) {
		struct hwtimer *t = container_of(n, struct hwtimer, node);

		trace_hwt_expire(b->clockid, t, 0, n->expires, x.now);
		t->state &= ~HWT_PENDING;
		t->fired = x.now;
		if (t->flags & HWTIMER_SLEEPABLE) {
			t->state |= HWT_QUEUED;
			queue_work(hwt_wq, &t->work);
		} else {
			hwt_run_callback(t, &flags);
			hwt_base_expiry_relocked(b, &x);
		}
	}
	hwt_base_expiry_end(b, &x);
	spin_unlock_irqrestore(b->lock, flags);
	return HRTIMER_NORESTART;
}

static void hwt_work_fn(struct work_struct *work)
{
	struct hwtimer *t = container_of(work, struct hwtimer, work);
	struct hwt_base *b = t->base;
	unsigned long flags;

	spin_lock_irqsave(b->lock, flags);
	/* a cancel since the timer fired clears QUEUED */
	if (t->state & HWT_QUEUED) {
		t->state &= ~HWT_QUEUED;
		hwt_run_callback(t, &flags);
	}
	spin_unlock_irqrestore(b->lock, flags);
}

/**
 * hwtimer_init() - initialise a timer
 * @t: the timer
 * @fn: its callback
 * @flags: HWTIMER_MONOTONIC (default), HWTIMER_BOOTTIME or HWTIMER_REALTIME,
 *	   optionally ORed with HWTIMER_SLEEPABLE and HWTIMER_FIXED_DELAY
 *
 * The timer is bound to the base of the current CPU for its clock. Call this
 * once, before any other function, on a timer that is not on the stack.
 */
void hwtimer_init(struct hwtimer *t, hwtimer_fn_t fn, unsigned int flags)
{
	unsigned int clk = flags & HWTIMER_CLOCK_MASK;

	if (WARN_ON_ONCE((flags & ~HWTIMER_INIT_FLAGS) || clk >= HWT_NR_CLOCKS)) {
		flags = 0;
		clk = 0;
	}
	memset(t, 0, sizeof(*t));
	INIT_LIST_HEAD(&t->node.entry);
	t->fn = fn;
	t->flags = flags;
	t->base = per_cpu(hwt_kbases[clk], raw_smp_processor_id());
	INIT_WORK(&t->work, hwt_work_fn);
}
EXPORT_SYMBOL_GPL(hwtimer_init);

static int hwt_arm(struct hwtimer *t, u64 expires, u64 delta, u64 period,
		   bool start, unsigned int mode)
{
	unsigned int cond = mode & (HWTIMER_IF_EARLIER | HWTIMER_IF_PENDING |
				    HWTIMER_IF_IDLE);
	struct hwt_base *b = t->base;
	unsigned long flags;
	u64 now, deadline;
	int ret;

	if ((mode & ~HWTIMER_MODE_FLAGS) || hweight32(cond) > 1)
		return -EINVAL;
	if (period > hwt_geo.max_delay || delta > hwt_geo.max_delay)
		return -ERANGE;

	spin_lock_irqsave(b->lock, flags);
	if (t->state & HWT_SHUTDOWN) {
		ret = -ESHUTDOWN;
		goto out;
	}
	now = hwt_base_now(b);
	ret = hwt_base_deadline(b, now, expires, mode & HWTIMER_ABS, &deadline);
	if (ret)
		goto out;
	ret = !!(t->state & HWT_PENDING);
	if ((cond == HWTIMER_IF_PENDING && !ret) ||
	    (cond == HWTIMER_IF_IDLE && ret) ||
	    (cond == HWTIMER_IF_EARLIER && ret &&
	     (s64)(deadline - t->node.expires) >= 0))
		goto out;
	if (start) {
		t->period = period;
		t->slack = delta;
		t->node.slack = !!delta;
	}
	t->seq++;
	if (ret) {
		hwt_base_mod(b, &t->node, deadline, now, 0);
		hwt_gstat_add(HWT_C_MODIFIED, 1);
	} else {
		t->node.expires = deadline;
		hwt_base_add(b, &t->node, now, 0);
		t->state |= HWT_PENDING;
		hwt_gstat_add(HWT_C_ADDED, 1);
	}
out:
	spin_unlock_irqrestore(b->lock, flags);
	return ret;
}

/**
 * hwtimer_start_range() - arm a timer to fire within a window
 * @t: the timer
 * @expires: the delay in ns, or with HWTIMER_ABS the deadline on the
 *	     timer's clock; a deadline already passed fires at the next tick
 * @delta: slack: the timer may fire up to @delta ns after its deadline, so
 *	   that timers whose windows overlap share a wakeup, as with
 *	   hrtimer_start_range_ns(); it applies to every period
 * @period: 0 for a one-shot timer, else the period in ns
 * @mode: HWTIMER_REL or HWTIMER_ABS, optionally ORed with one of
 *	  HWTIMER_IF_EARLIER, HWTIMER_IF_PENDING or HWTIMER_IF_IDLE
 *
 * Re-arms the timer if it is pending.
 *
 * Context: any; takes the base's lock with interrupts disabled.
 * Return: 1 if the timer was pending, 0 if not, -EINVAL for bad @mode,
 * -ERANGE for a deadline, slack or period beyond the wheel's range,
 * -ESHUTDOWN after hwtimer_shutdown_sync(). With a condition that does not
 * hold, the timer is left alone and 1 or 0 still says whether it is pending.
 */
int hwtimer_start_range(struct hwtimer *t, u64 expires, u64 delta,
			u64 period, unsigned int mode)
{
	return hwt_arm(t, expires, delta, period, true, mode);
}
EXPORT_SYMBOL_GPL(hwtimer_start_range);

/**
 * hwtimer_start() - arm a timer with no slack, or re-arm it if it is pending
 * @t: the timer
 * @expires: as for hwtimer_start_range()
 * @period: as for hwtimer_start_range()
 * @mode: as for hwtimer_start_range()
 *
 * The timer fires at its deadline, rounded up to the wheel's tick, plus the
 * latency of the hrtimer that drives the wheel.
 *
 * Context: any; takes the base's lock with interrupts disabled.
 * Return: as for hwtimer_start_range().
 */
int hwtimer_start(struct hwtimer *t, u64 expires, u64 period,
		  unsigned int mode)
{
	return hwt_arm(t, expires, 0, period, true, mode);
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
 * Context: any.
 * Return: as for hwtimer_start().
 */
int hwtimer_modify(struct hwtimer *t, u64 expires, unsigned int mode)
{
	return hwt_arm(t, expires, 0, 0, false, mode);
}
EXPORT_SYMBOL_GPL(hwtimer_modify);

/* Called with the base locked. */
static bool __hwtimer_cancel(struct hwtimer *t)
{
	bool was = false;

	t->seq++;
	if (t->state & HWT_PENDING) {
		hwt_base_del(t->base, &t->node, 0);
		t->state &= ~HWT_PENDING;
		hwt_gstat_add(HWT_C_CANCELLED, 1);
		was = true;
	}
	if (t->state & HWT_QUEUED) {
		/* if the work already started, it sees QUEUED clear */
		cancel_work(&t->work);
		t->state &= ~HWT_QUEUED;
		was = true;
	}
	return was;
}

/**
 * hwtimer_cancel() - disarm a timer
 * @t: the timer
 *
 * Does not wait for a callback that is running; a periodic timer whose
 * callback is running is not re-armed after it.
 *
 * Context: any.
 * Return: true if the timer was pending (its callback would have run).
 */
bool hwtimer_cancel(struct hwtimer *t)
{
	unsigned long flags;
	bool was;

	spin_lock_irqsave(t->base->lock, flags);
	was = __hwtimer_cancel(t);
	spin_unlock_irqrestore(t->base->lock, flags);
	return was;
}
EXPORT_SYMBOL_GPL(hwtimer_cancel);

/* Flag that we wait for the callback; false if none is running. */
static bool hwt_sync_wait_prepare(struct hwtimer *t)
{
	unsigned long flags;
	bool running;

	spin_lock_irqsave(t->base->lock, flags);
	running = t->state & HWT_RUNNING;
	if (running)
		t->state |= HWT_SYNC_WAIT;
	spin_unlock_irqrestore(t->base->lock, flags);
	return running;
}

/**
 * hwtimer_cancel_sync() - disarm a timer and wait for its callback
 * @t: the timer
 *
 * On return the callback is not running, and will not run unless something
 * re-arms the timer. It must not be called from the timer's own callback,
 * nor while holding a lock the callback takes.
 *
 * Context: process context; may sleep.
 * Return: true if the timer was pending.
 */
bool hwtimer_cancel_sync(struct hwtimer *t)
{
	bool was;

	might_sleep();
	was = hwtimer_cancel(t);
	if (t->flags & HWTIMER_SLEEPABLE)
		cancel_work_sync(&t->work);
	else
		while (hwt_sync_wait_prepare(t))
			wait_var_event(&t->state,
				       !(READ_ONCE(t->state) & HWT_RUNNING));
	return was;
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
	unsigned long flags;

	spin_lock_irqsave(t->base->lock, flags);
	t->state |= HWT_SHUTDOWN;
	spin_unlock_irqrestore(t->base->lock, flags);
	hwtimer_cancel_sync(t);
}
EXPORT_SYMBOL_GPL(hwtimer_shutdown_sync);

/**
 * hwtimer_pending() - whether a timer is armed
 * @t: the timer
 *
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
 * Inside the callback this is the deadline that fired, unless other code
 * re-armed the timer meanwhile.
 *
 * Return: the deadline it was last armed for, in ns on its clock.
 */
u64 hwtimer_expires(const struct hwtimer *t)
{
	return READ_ONCE(t->node.expires);
}
EXPORT_SYMBOL_GPL(hwtimer_expires);

/**
 * hwtimer_fired() - when a timer last fired
 * @t: the timer
 *
 * Inside the callback, hwtimer_fired() - hwtimer_expires() is the timer's
 * lateness (for a periodic timer, until the callback returns).
 *
 * Return: the time the wheel expired it, in ns on its clock.
 */
u64 hwtimer_fired(const struct hwtimer *t)
{
	return READ_ONCE(t->fired);
}
EXPORT_SYMBOL_GPL(hwtimer_fired);

/**
 * hwtimer_overruns() - periods a periodic timer missed
 * @t: the timer
 *
 * Return: the number of whole periods that ended before the timer could be
 * re-armed the last time; they were skipped, not replayed.
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
 * Return: ns, comparable with hwtimer_expires().
 */
u64 hwtimer_now(const struct hwtimer *t)
{
	return hwt_base_now(t->base);
}
EXPORT_SYMBOL_GPL(hwtimer_now);

/**
 * hwtimer_tick_ns() - the wheel's tick
 *
 * Return: the tick in ns; a timer fires less than one tick after its
 * deadline, plus hrtimer latency.
 */
u64 hwtimer_tick_ns(void)
{
	return hwt_geo.tick_ns;
}
EXPORT_SYMBOL_GPL(hwtimer_tick_ns);

static void hwt_api_free_bases(void)
{
	unsigned int cpu, clk;

	for_each_possible_cpu(cpu) {
		for (clk = 0; clk < HWT_NR_CLOCKS; clk++) {
			struct hwt_base *b = per_cpu(hwt_kbases[clk], cpu);

			if (!b)
				continue;
			hwt_base_destroy(b);
			kfree(b);
			per_cpu(hwt_kbases[clk], cpu) = NULL;
		}
	}
}

/* The wheel's struct hwt_wheel.slack_of for the in-kernel bases. */
static u64 hwt_kslack(const struct hwt_node *n)
{
	return container_of(n, struct hwtimer, node)->slack;
}

int hwt_api_init(void)
{
	unsigned int cpu, clk;
	int ret;

	hwt_wq = alloc_workqueue("hwtimer", WQ_UNBOUND, 0);
	if (!hwt_wq)
		return -ENOMEM;
	for_each_possible_cpu(cpu) {
		for (clk = 0; clk < HWT_NR_CLOCKS; clk++) {
			struct hwt_base *b = kzalloc(sizeof(*b), GFP_KERNEL);

			if (!b) {
				ret = -ENOMEM;
				goto fail;
			}
			ret = hwt_base_init(b, NULL, hwt_clockids[clk],
					    hwt_kbase_tick, hwt_kslack,
					    GFP_KERNEL);
			if (ret) {
				kfree(b);
				goto fail;
			}
			per_cpu(hwt_kbases[clk], cpu) = b;
		}
	}
	return 0;
fail:
	hwt_api_free_bases();
	destroy_workqueue(hwt_wq);
	return ret;
}

void hwt_api_exit(void)
{
	/* clients hold module references, so every timer is gone */
	hwt_api_free_bases();
	destroy_workqueue(hwt_wq);
}
