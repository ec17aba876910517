// SPDX-License-Identifier: GPL-2.0
/*
 * hwtimer timer base: a wheel, its lock and the hrtimer that drives it:
 * setting a base up, queueing nodes, arming the hrtimer, and the counters.
 * A base's expiry is in base_expiry.c. See base.h for the design.
 */
#include <linux/bitops.h>
#include <linux/hrtimer.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/smp.h>
#include <linux/timekeeping.h>

#include "base.h"
#include "base_impl.h"
#include "compat/compat.h"
#include "wheel_hooks.h"

#define CREATE_TRACE_POINTS
#include "hwt_trace.h"

DEFINE_PER_CPU(struct hwt_stats, hwt_gstats);

const char * const hwt_counter_names[HWT_NR_COUNTERS] = {
	[HWT_C_ADDED] = "added",
	[HWT_C_MODIFIED] = "modified",
	[HWT_C_MOD_SAME_SLOT] = "mod_same_slot",
	[HWT_C_CANCELLED] = "cancelled",
	[HWT_C_DRAINED] = "drained",
	[HWT_C_OVERRUNS] = "overruns",
	[HWT_C_RECORDS] = "records",
	[HWT_C_FIRED] = "fired",
	[HWT_C_CASCADED] = "cascaded",
	[HWT_C_WAKEUPS] = "wakeups",
	[HWT_C_EMPTY_WAKEUPS] = "empty_wakeups",
	[HWT_C_TICKS_SKIPPED] = "ticks_skipped",
	[HWT_C_DEFERRED] = "deferred",
	[HWT_C_ARMS] = "arms",
	[HWT_C_REBASES] = "rebases",
	[HWT_C_CONTINUED] = "continued",
	[HWT_C_HANDED_OFF] = "handed_off",
	[HWT_C_WAKEUPS_HANDED_OFF] = "wakeups_handed_off",
	[HWT_C_HARD_PASSES] = "hard_passes",
	[HWT_C_READER_CPU] = "passes_on_reader_cpu",
	[HWT_C_OTHER_CPU] = "passes_elsewhere",
};

const char * const hwt_maximum_names[HWT_NR_MAXIMA] = {
	[HWT_M_LATE] = "max_late_ns",
	[HWT_M_READY] = "max_ready",
};

/* What every wheel holds, for sysfs: see wheel_hooks.h */
DEFINE_PER_CPU(struct hwt_occ, hwt_occ);
static atomic_t hwt_nbases = ATOMIC_INIT(0);

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
 * @clockid: the clock its timers run on
 * @fn: the owner's hrtimer callback
 * @mode: HRTIMER_MODE_ABS_SOFT, or HRTIMER_MODE_ABS for an owner whose @fn
 *	  runs in hard interrupt context but on PREEMPT_RT (it then keeps a
 *	  soft hrtimer of its own to go on with, dev.h's struct
 *	  hwt_file_run)
 * @slack_of: the owner's: the slack of a node with hwt_node.slack set (see
 *	      struct hwt_wheel), or NULL if it never sets it
 * @gfp: for allocating the wheel
 *
 * The base is not bound to a CPU (@b->cpu is -1): its hrtimer fires where
 * hrtimer puts it. An owner that binds it sets @b->cpu and @b->arm_csd
 * afterwards (see struct hwt_base).
 *
 * Return: 0 or -ENOMEM.
 */
int hwt_base_init(struct hwt_base *b, clockid_t clockid,
		  enum hrtimer_restart (*fn)(struct hrtimer *),
		  enum hrtimer_mode mode,
		  u64 (*slack_of)(const struct hwt_node *n), gfp_t gfp)
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
	b->wheel->slack_of = slack_of;
	b->armed = U64_MAX;
	b->running = false;
	b->cpu = -1;
	b->cpu_online = false;
	memset(&b->stats, 0, sizeof(b->stats));
	b->mode = mode;
	hwt_hrtimer_setup(&b->hrt, fn, clockid, mode);
	atomic_inc(&hwt_nbases);
	return 0;
}

/**
 * hwt_base_destroy() - tear down a base whose wheel is empty
 * @b: the base
 *
 * Waits for a running hrtimer callback. Must not be called with the base's
 * lock held.
 */
void hwt_base_destroy(struct hwt_base *b)
{
	atomic_dec(&hwt_nbases);
	hrtimer_cancel(&b->hrt);
	WARN_ON_ONCE(!hwt_wheel_empty(b->wheel));
	kvfree(b->wheel);
	b->wheel = NULL;
}

/**
 * hwt_base_destroy_freed() - tear down a base whose owner freed its timers
 * @b: the base, whose hrtimer can no longer run
 *
 * The nodes still on the wheel are forgotten, never touched: their owner
 * freed them wholesale, as a closing file does.
 */
void hwt_base_destroy_freed(struct hwt_base *b)
{
	hwt_wheel_clear(b->wheel);
	hwt_base_destroy(b);
}

/*
 * How early in a window the hrtimer may run if its CPU is awake anyway. A
 * run at the start of a window collects only what is due then; one at its
 * end collects every timer whose window has begun by then, so a window of
 * a millisecond is one run, not one per interrupt that comes along during
 * it. The last HWT_ARM_SLACK_NS of a window are as good as its end (the
 * timer slack of a task, as nanosleep() gets it by default).
 */
#define HWT_ARM_SLACK_NS	(50 * NSEC_PER_USEC)

/*
 * Program the hrtimer to fire by @latest, and no earlier than @when, if that
 * ends before the armed window. Otherwise the armed window is already right:
 * it ends no later than @latest, and if it fires before @when the run finds
 * nothing due yet and arms again. While a run owns the base, it arms the
 * hrtimer when it ends (struct hwt_base), so this does nothing.
 */
void hwt_base_arm(struct hwt_base *b, u64 when, u64 latest)
{
	u64 range;

	if (b->running)
		return;
	/*
	 * The wheel's time is modular u64; an hrtimer's is a positive s64.
	 * A deadline near KTIME_MAX plus its slack (or its key) would wrap
	 * to a time long past, and the hrtimer would fire at once, again
	 * and again.
	 */
	latest = min_t(u64, latest, KTIME_MAX);
	when = min(when, latest);
	range = min_t(u64, latest - when, HWT_ARM_SLACK_NS);
	if (b->armed != U64_MAX && (s64)(latest - b->armed) >= 0)
		return;
	b->armed = latest;
	hwt_stat_add(&b->stats, HWT_C_ARMS, 1);
	if (b->in_callback) {
		/* not enqueued while it runs: the callback's return does it */
		hrtimer_set_expires_range_ns(&b->hrt,
					     ns_to_ktime(latest - range), range);
		b->restart = true;
		return;
	}
	if (b->cpu < 0) {
		hrtimer_start_range_ns(&b->hrt, ns_to_ktime(latest - range),
				       range, b->mode);
		return;
	}
	/*
	 * A base bound to a CPU keeps its hrtimer there, so its timers fire
	 * there: an hrtimer started from another CPU would move to it. Its
	 * owner's arm_csd programs it from its CPU, with hwt_base_rearm(). If
	 * one is in flight already, it reads the wheel after this change.
	 */
	if (b->cpu == smp_processor_id() || !b->cpu_online ||
	    smp_call_function_single_async(b->cpu, &b->arm_csd) == -ENXIO)
		hrtimer_start_range_ns(&b->hrt, ns_to_ktime(latest - range),
				       range, b->mode | HRTIMER_MODE_PINNED);
}

/*
 * Program the hrtimer for the wheel's next window, or for its next work
 * ahead (hwt_wheel_next_ahead()) if that comes first: big slots are then
 * cascaded in the gaps between expiries, by a pass of their own, not in
 * front of the timers due after them.
 */
void hwt_base_arm_next(struct hwt_base *b)
{
	u64 next, latest, ahead;
	bool due = hwt_wheel_next_range(b->wheel, &next, &latest);

	if (hwt_wheel_next_ahead(b->wheel, &ahead)) {
		if (!due || (s64)(ahead - next) < 0)
			next = ahead;
		if (!due || (s64)(ahead + HWT_ARM_SLACK_NS - latest) < 0)
			latest = ahead + HWT_ARM_SLACK_NS;
		due = true;
	}
	if (due)
		hwt_base_arm(b, next, latest);
}

/**
 * hwt_base_rearm() - program the hrtimer for the wheel's next window
 * @b: the base, locked
 *
 * For the owner of a base bound to a CPU, on that CPU: from its arm_csd,
 * and when the CPU comes online.
 */
void hwt_base_rearm(struct hwt_base *b)
{
	b->armed = U64_MAX;
	hwt_base_arm_next(b);
}

/*
 * Arm for a node just queued: the window from its deadline to its slack's
 * end, or the wheel's next if the node made its slot big enough to be
 * cascaded ahead of its start (@early, hwt_wheel_early()). Most nodes end
 * after the armed window, which then stands: that is looked at here, as
 * hwt_base_arm() would, without the call.
 */
static inline void hwt_base_arm_node(struct hwt_base *b,
				     const struct hwt_node *n, bool early)
{
	u64 latest;

	if (unlikely(early)) {
		hwt_base_arm_next(b);
		return;
	}
	latest = hwt_wheel_late(b->wheel, n);
	if (likely(b->armed != U64_MAX) && (s64)(latest - b->armed) >= 0)
		return;
	hwt_base_arm(b, n->expires, latest);
}

/**
 * hwt_base_add() - queue a node and arm the hrtimer if it is now the earliest
 * @b: the base, locked
 * @n: a node with its deadline set by hwt_base_deadline()
 * @now: the current time, read under the lock
 * @id: the timer's id on its file, for tracing; 0 for in-kernel timers
 *
 * Return: the wheel level the node went to.
 */
unsigned int hwt_base_add(struct hwt_base *b, struct hwt_node *n, u64 now,
			  u32 id)
{
	unsigned int lvl;
	bool early;

	hwt_base_sync(b, now);
	early = hwt_wheel_add(b->wheel, n);
	lvl = hwt_wheel_level_of(b->wheel, n);
	trace_hwt_add(b->clockid, n, id, n->expires, now, lvl);
	hwt_base_arm_node(b, n, early);
	return lvl;
}

/**
 * hwt_base_mod() - move a queued node to a new deadline
 * @b: the base, locked
 * @n: a node queued on @b
 * @deadline: from hwt_base_deadline()
 * @now: the current time
 * @id: the timer's id on its file, for tracing; 0 for in-kernel timers
 *
 * Return: the wheel level the node is on now.
 */
unsigned int hwt_base_mod(struct hwt_base *b, struct hwt_node *n,
			  u64 deadline, u64 now, u32 id)
{
	unsigned int lvl;
	bool early = false;

	/* a node that stayed in its slot left its size as it was */
	if (hwt_wheel_mod(b->wheel, n, deadline))
		hwt_stat_add(&b->stats, HWT_C_MOD_SAME_SLOT, 1);
	else
		early = hwt_wheel_early(b->wheel, n);
	lvl = hwt_wheel_level_of(b->wheel, n);
	trace_hwt_modify(b->clockid, n, id, n->expires, now, lvl);
	hwt_base_arm_node(b, n, early);
	return lvl;
}

/**
 * hwt_base_del() - unlink a queued node
 * @b: the base, locked
 * @n: a node queued on @b
 * @id: the timer's id on its file, for tracing; 0 for in-kernel timers
 *
 * An emptied base disarms its hrtimer, so that it causes no wakeup at all.
 */
void hwt_base_del(struct hwt_base *b, struct hwt_node *n, u32 id)
{
	trace_hwt_cancel(b->clockid, n, id, n->expires);
	hwt_wheel_del(b->wheel, n);
	if (hwt_wheel_empty(b->wheel) && b->armed != U64_MAX &&
	    hrtimer_try_to_cancel(&b->hrt) >= 0)
		b->armed = U64_MAX;
}

/**
 * hwt_occupancy() - add up what the wheels of every base hold
 * @o: the result
 *
 * Sums the per-CPU rows the wheels keep (wheel_hooks.h): no wheel is
 * looked at and no lock taken, so any number of readers cost the timers
 * nothing. A snapshot, as per-CPU statistics are.
 */
void hwt_occupancy(struct hwt_occupancy *o)
{
	unsigned int cpu, l;

	memset(o, 0, sizeof(*o));
	for_each_possible_cpu(cpu) {
		const struct hwt_occ *c = per_cpu_ptr(&hwt_occ, cpu);

		for (l = 0; l < hwt_geo.levels; l++) {
			o->timers[l] += READ_ONCE(c->timers[l]);
			o->slots[l] += READ_ONCE(c->slots[l]);
		}
		o->parked += READ_ONCE(c->timers[hwt_geo.levels]);
	}
	/* a row read while a node moves between CPUs' rows can dip below 0 */
	for (l = 0; l < hwt_geo.levels; l++) {
		o->timers[l] = max(o->timers[l], 0L);
		o->slots[l] = max(o->slots[l], 0L);
	}
	o->parked = max(o->parked, 0L);
	o->bases = atomic_read(&hwt_nbases);
}

/**
 * hwt_stats_fold() - add counters into a sum
 * @sum: the sum
 * @s: counters to add; maxima are merged as maxima
 *
 * @s may be another CPU's counters, changing under us: each is read once,
 * and the sum is a snapshot, as other per-CPU statistics are.
 */
void hwt_stats_fold(struct hwt_stats *sum, const struct hwt_stats *s)
{
	unsigned int i;

	for (i = 0; i < HWT_NR_COUNTERS; i++)
		sum->count[i] += READ_ONCE(s->count[i]);
	for (i = 0; i < HWT_NR_MAXIMA; i++)
		sum->max[i] = max(sum->max[i], READ_ONCE(s->max[i]));
	for (i = 0; i < HWT_HIST_BUCKETS; i++)
		sum->late_hist[i] += READ_ONCE(s->late_hist[i]);
}

/**
 * hwt_stats_sum() - add up the global counters of every CPU
 * @sum: the result
 */
void hwt_stats_sum(struct hwt_stats *sum)
{
	unsigned int cpu;

	memset(sum, 0, sizeof(*sum));
	for_each_possible_cpu(cpu)
		hwt_stats_fold(sum, per_cpu_ptr(&hwt_gstats, cpu));
}
