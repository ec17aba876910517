/* SPDX-License-Identifier: GPL-2.0 */
/*
 * hwtimer: timers on a hashed hierarchical timing wheel, for drivers.
 *
 * Build against it with ccflags-y += -I<hwtimer>/kmod/include and load
 * hwtimer.ko first; a module that uses these symbols holds a reference on
 * hwtimer.ko, so hwtimer cannot be unloaded under it.
 *
 * A struct hwtimer is embedded in the caller's object and initialised once
 * with hwtimer_init(), or, for a callback that may sleep, a struct
 * hwtimer_sleepable with hwtimer_init_sleepable(). It is then started,
 * modified and cancelled any number of times.
 *
 * Contexts. hwtimer_start(), hwtimer_start_range(), hwtimer_modify() and
 * hwtimer_cancel() may be called from any context: task, softirq, hard
 * interrupt (a HARD hrtimer callback, an IRQF_NO_THREAD handler) and under
 * a raw spinlock, on PREEMPT_RT too, as for timer_list and hrtimer. The
 * bases' locks are raw spinlocks, and the work done under them is bounded
 * (O(1) per call; an expiry pass drops the lock around every callback and
 * after every 32 sleepable timers it queues). hwtimer_cancel_sync() and
 * hwtimer_shutdown_sync() may sleep: they call might_sleep(), and with
 * lockdep they take the timer's lockdep map, which its callback runs under
 * (a class per hwtimer_init() call site), so calling them with a lock the
 * callback takes is reported as the deadlock it is, as for
 * timer_delete_sync(). Neither may be called from the timer's own callback.
 *
 * Freeing. Before the object is freed, the timer must be idle: neither
 * pending, nor waiting for its callback, nor running it. hwtimer_cancel_sync()
 * leaves it so: it cancels, waits for a running callback, and cancels again
 * until the callback did not re-arm it (the loop of timer_delete_sync() and
 * hrtimer_cancel()). hwtimer_shutdown_sync() does the same and makes every
 * later arm fail, so that other code still trying to arm it cannot bring it
 * back. A callback may free its own timer: the expiry path does not touch a
 * timer after its callback returns, unless it is a periodic timer the
 * callback neither cancelled nor re-armed (it is re-armed then). So a
 * one-shot timer may be freed in its callback, and a periodic one after
 * hwtimer_cancel() in its callback. A pending timer must never be freed.
 *
 * Placement. Each CPU has a base (a wheel, its lock and the hrtimer that
 * drives it) per clock, from the first time it comes online (a possible
 * CPU that never has costs nothing) until hwtimer is unloaded. Like
 * timer_list, a timer is queued on the base of the
 * CPU that arms it, and moves there if it was on another, unless its
 * callback is running (then it stays where it is, so that it never runs on
 * two CPUs at once). A move holds both bases' locks, so cancel, modify and
 * pending see the timer on one base or the other, never in between. A
 * timer initialised with HWTIMER_PINNED never moves: it stays on the CPU
 * given to hwtimer_init_on() (or that ran hwtimer_init()), and its callback
 * runs there while that CPU is online (if it goes offline, the base's
 * timers fire on another CPU, as hrtimers do).
 *
 * Precision: a timer never fires before its deadline. With no slack it fires
 * at it, at any delay, plus the latency of the hrtimer that drives the
 * wheel: the wheel's slots are a tick (hwtimer_tick_ns(), 4.096 us by
 * default), but it arms its hrtimer for the earliest deadline in them. A
 * timer started with hwtimer_start_range() may fire up to its slack later,
 * so that timers whose windows overlap share one wakeup.
 *
 * Clocks: a HWTIMER_REALTIME timer's deadline is a time on CLOCK_REALTIME,
 * relative or not: setting the clock moves it, as it moves an hrtimer
 * started with HRTIMER_MODE_ABS on CLOCK_REALTIME. Unlike hrtimer and
 * /dev/hwtimer, a relative delay is not turned into elapsed time: for
 * that, use a HWTIMER_MONOTONIC timer.
 *
 * Callbacks run in softirq context (HRTIMER_SOFTIRQ; the ktimers thread on
 * PREEMPT_RT), with interrupts enabled and no hwtimer lock held, like
 * timer_list callbacks: they must not sleep, and may start, modify or cancel
 * any timer, their own included. When more are due than one bounded pass
 * runs, the next pass follows in the same softirq run while the CPU is
 * otherwise free, for up to a millisecond, then in a later softirq run:
 * callbacks never move to a thread. On PREEMPT_RT, hwtimer_cancel_sync() waits
 * for a running callback on a lock the expiry pass holds, so the waiter
 * boosts the thread running it (priority inheritance, as
 * hrtimer_cancel_wait_running() does). The callback of a
 * struct hwtimer_sleepable runs from a workqueue instead, in process
 * context, where it may sleep; a slow one never delays the wheel or other
 * timers.
 *
 * Periodic timers: a timer started with a period is re-armed after each
 * callback unless the callback re-armed or cancelled it; a sleepable one is
 * re-armed when it fires, before its callback runs. Fixed-rate (the
 * default) keeps the deadlines on the grid deadline + k * period, where
 * deadline is the first one the timer fires at: the one it was armed for,
 * or the time it was armed if that had already passed (the timer then
 * fires at once, and no period counts as missed); with
 * HWTIMER_FIXED_DELAY the next deadline is the time the timer fired plus the
 * period. Periods that end before the timer could be re-armed, or while a
 * sleepable callback is still waiting to run, are not replayed: they are
 * counted, and hwtimer_overruns() tells the next callback how many it
 * missed.
 *
 * Size: struct hwtimer is 64 bytes on 64-bit kernels (timer_list: 40,
 * hrtimer: 64), plus a lockdep map with lockdep; struct hwtimer_sleepable
 * adds a work_struct.
 */
#ifndef _LINUX_HWTIMER_H
#define _LINUX_HWTIMER_H

#include <linux/hwt_node.h>
#include <linux/lockdep_types.h>
#include <linux/smp.h>
#include <linux/types.h>
#include <linux/workqueue.h>

struct hwtimer;
struct hwt_kbase;

/**
 * typedef hwtimer_fn_t - a timer's callback
 * @t: the timer that fired
 */
typedef void (*hwtimer_fn_t)(struct hwtimer *t);

/* hwtimer_init() flags */
#define HWTIMER_MONOTONIC	0x0	/* CLOCK_MONOTONIC (default) */
#define HWTIMER_BOOTTIME	0x1	/* CLOCK_BOOTTIME: counts suspend */
#define HWTIMER_REALTIME	0x2	/* CLOCK_REALTIME: follows clock changes */
#define HWTIMER_CLOCK_MASK	0x3
#define HWTIMER_FIXED_DELAY	0x8	/* period counts from the fire time */
#define HWTIMER_PINNED		0x10	/* never moves off its CPU */
#define HWTIMER_INIT_FLAGS	(HWTIMER_CLOCK_MASK | HWTIMER_FIXED_DELAY | \
				 HWTIMER_PINNED)

/* hwtimer_start() and hwtimer_modify() mode bits */
#define HWTIMER_REL		0x0	/* @expires is a delay from now */
#define HWTIMER_ABS		0x1	/* @expires is a time on the timer's clock */
#define HWTIMER_IF_EARLIER	0x2	/* only arm if idle, or earlier than now */
#define HWTIMER_IF_PENDING	0x4	/* only re-arm a pending timer */
#define HWTIMER_IF_IDLE		0x8	/* only arm a timer that is not pending */
#define HWTIMER_MODE_FLAGS	0xf

/**
 * struct hwtimer - a timer on hwtimer's wheel
 *
 * All fields are private to hwtimer; use the accessors below.
 *
 * @node: the wheel's part: list link and deadline (ns on the timer's
 *	  clock); its owner bits hold the timer's slack, in ns
 * @fn: the callback
 * @base: the per-CPU base the timer is on; changes only with both bases'
 *	  locks held
 * @period: 0 for a one-shot timer
 * @overruns: periods missed before the current callback (saturating)
 * @flags: hwtimer_init() flags, and an internal bit for sleepable timers
 * @state: state bits, under the base's lock
 * @lockdep_map: with lockdep, held while the callback runs and taken by
 *		 hwtimer_cancel_sync(), one class per hwtimer_init() call site,
 *		 as timer_list's
 */
struct hwtimer {
	struct hwt_node node;
	hwtimer_fn_t fn;
	struct hwt_kbase *base;
	u64 period;
	u32 overruns;
	u16 flags;
	u16 state;
#ifdef CONFIG_LOCKDEP
	struct lockdep_map lockdep_map;
#endif
};

/**
 * struct hwtimer_sleepable - a timer whose callback runs in process context
 * @timer: the timer, which every other function takes
 * @work: runs the callback, on an unbound workqueue
 * @fired: when the timer last fired
 * @missed: periods missed since the callback last started
 */
struct hwtimer_sleepable {
	struct hwtimer timer;
	struct work_struct work;
	u64 fired;
	u32 missed;
};

void __hwtimer_init_on(struct hwtimer *t, hwtimer_fn_t fn, unsigned int flags,
		       unsigned int cpu, const char *name,
		       struct lock_class_key *key);
void __hwtimer_init_sleepable(struct hwtimer_sleepable *st, hwtimer_fn_t fn,
			      unsigned int flags, const char *name,
			      struct lock_class_key *key);

#ifdef CONFIG_LOCKDEP
#define __hwtimer_key(_init, _t, ...)					\
	do {								\
		static struct lock_class_key __key;			\
		_init((_t), __VA_ARGS__, #_t, &__key);			\
	} while (0)
#else
#define __hwtimer_key(_init, _t, ...)	_init((_t), __VA_ARGS__, NULL, NULL)
#endif

/**
 * hwtimer_init_on() - initialise a timer on a given CPU
 * @t: the timer
 * @fn: its callback, run in softirq context
 * @flags: HWTIMER_MONOTONIC (default), HWTIMER_BOOTTIME or HWTIMER_REALTIME,
 *	   optionally ORed with HWTIMER_FIXED_DELAY and HWTIMER_PINNED
 * @cpu: a possible CPU: the timer's CPU until it is armed from another (for
 *	 ever with HWTIMER_PINNED). A CPU that has never been online has no
 *	 bases: the timer then starts on the calling CPU's instead.
 *
 * Call this once, before any other function, on a timer that is not on the
 * stack. With lockdep, each call site is a lock class of its own, as for
 * timer_setup().
 *
 * Context: any.
 */
#define hwtimer_init_on(t, fn, flags, cpu)				\
	__hwtimer_key(__hwtimer_init_on, t, fn, flags, cpu)

/**
 * hwtimer_init() - initialise a timer
 * @t: the timer
 * @fn: its callback, run in softirq context
 * @flags: as for hwtimer_init_on()
 *
 * The timer starts on the current CPU: see hwtimer_init_on().
 *
 * Context: any.
 */
#define hwtimer_init(t, fn, flags)					\
	hwtimer_init_on(t, fn, flags, raw_smp_processor_id())

/**
 * hwtimer_init_sleepable() - initialise a timer whose callback may sleep
 * @st: the struct hwtimer_sleepable; every other function takes
 *	&@st->timer
 * @fn: its callback, run from a workqueue in process context
 * @flags: as for hwtimer_init()
 *
 * Context: any.
 */
#define hwtimer_init_sleepable(st, fn, flags)				\
	__hwtimer_key(__hwtimer_init_sleepable, st, fn, flags)

int hwtimer_start(struct hwtimer *t, u64 expires, u64 period,
		  unsigned int mode);
int hwtimer_start_range(struct hwtimer *t, u64 expires, u64 delta,
			u64 period, unsigned int mode);
int hwtimer_modify(struct hwtimer *t, u64 expires, unsigned int mode);
bool hwtimer_cancel(struct hwtimer *t);
bool hwtimer_cancel_sync(struct hwtimer *t);
void hwtimer_shutdown_sync(struct hwtimer *t);
bool hwtimer_pending(const struct hwtimer *t);
u64 hwtimer_expires(const struct hwtimer *t);
u64 hwtimer_fired(const struct hwtimer *t);
u64 hwtimer_overruns(const struct hwtimer *t);
u64 hwtimer_now(const struct hwtimer *t);
u64 hwtimer_tick_ns(void);

#endif /* _LINUX_HWTIMER_H */
