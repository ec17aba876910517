/* SPDX-License-Identifier: GPL-2.0 */
/*
 * hwtimer: timers on a hashed hierarchical timing wheel, for drivers.
 *
 * Build against it with ccflags-y += -I<hwtimer>/kmod/include and load
 * hwtimer.ko first; a module that uses these symbols holds a reference on
 * hwtimer.ko, so hwtimer cannot be unloaded under it.
 *
 * A struct hwtimer is embedded in the caller's object and initialised once
 * with hwtimer_init(). It is then started, modified and cancelled any number
 * of times, from any context (interrupts included) except where a function
 * says it may sleep. Before the object is freed, the timer must be idle:
 * hwtimer_cancel_sync() or, when nothing may re-arm it any more,
 * hwtimer_shutdown_sync().
 *
 * Precision: a timer never fires before its deadline. With no slack it fires
 * within one wheel tick (hwtimer_tick_ns(), 4.096 us by default) after it,
 * at any delay, plus the latency of the hrtimer that drives the wheel. A
 * timer started with hwtimer_start_range() may fire up to its slack later,
 * so that timers whose windows overlap share one wakeup.
 *
 * Clocks: a HWTIMER_REALTIME timer's deadline is a time on CLOCK_REALTIME,
 * relative or not: setting the clock moves it, as it moves an hrtimer
 * started with HRTIMER_MODE_ABS on CLOCK_REALTIME. Unlike hrtimer and
 * /dev/hwtimer, a relative delay is not turned into elapsed time: for
 * that, use a HWTIMER_MONOTONIC timer.
 *
 * Callbacks run in softirq context (HRTIMER_SOFTIRQ; a thread on PREEMPT_RT),
 * with interrupts enabled and no hwtimer lock held, like timer_list
 * callbacks: they must not sleep, and may start, modify or cancel any timer,
 * their own included. A timer initialised with HWTIMER_SLEEPABLE runs its
 * callback from a workqueue instead, in process context, where it may sleep;
 * a slow sleepable callback never delays the wheel or other timers.
 *
 * Periodic timers: a timer started with a period is re-armed after each
 * callback unless the callback re-armed or cancelled it. Fixed-rate (the
 * default) keeps the deadlines on the grid deadline + k * period; with
 * HWTIMER_FIXED_DELAY the next deadline is the time the timer fired plus the
 * period. Periods that end before the timer could be re-armed are not
 * replayed: they are counted, and hwtimer_overruns() tells the next callback
 * how many it missed.
 */
#ifndef _LINUX_HWTIMER_H
#define _LINUX_HWTIMER_H

#include <linux/hwt_node.h>
#include <linux/types.h>
#include <linux/workqueue.h>

struct hwtimer;
struct hwt_base;

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
#define HWTIMER_SLEEPABLE	0x4	/* callback in process context */
#define HWTIMER_FIXED_DELAY	0x8	/* period counts from the fire time */
#define HWTIMER_INIT_FLAGS	0xf

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
 * @node: the wheel's part: list link and deadline (ns on the timer's clock)
 * @fn: the callback
 * @base: the timer base the timer lives on, fixed by hwtimer_init()
 * @period: 0 for a one-shot timer
 * @slack: how late after its deadline it may fire
 * @fired: when the timer last fired
 * @overruns: periods missed before the current callback
 * @seq: bumped by every start, modify and cancel
 * @flags: hwtimer_init() flags
 * @state: HWT_* state bits, under the base's lock
 * @work: runs the callback of a HWTIMER_SLEEPABLE timer
 */
struct hwtimer {
	struct hwt_node node;
	hwtimer_fn_t fn;
	struct hwt_base *base;
	u64 period;
	u64 slack;
	u64 fired;
	u64 overruns;
	u32 seq;
	u16 flags;
	u8 state;
	struct work_struct work;
};

void hwtimer_init(struct hwtimer *t, hwtimer_fn_t fn, unsigned int flags);
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
