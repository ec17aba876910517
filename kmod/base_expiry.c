// SPDX-License-Identifier: GPL-2.0
/*
 * hwtimer timer base: expiry. A pass over a base (begin, the next due node,
 * end), what cascading ahead does within a run or apart from it, and when a
 * run goes on. See base.h for the design.
 */
#include <linux/sched.h>
#include <linux/timekeeping.h>

#include "base.h"
#include "base_impl.h"
#include "hwt_trace.h"

/**
 * hwt_base_expiry_begin() - start a pass
 * @b: the base, locked
 * @x: the pass's state
 * @kind: what started it
 * @start: hwt_cpu_clock() as the pass begins, which bounds its time (struct
 *	   hwt_pass); or 0 for a pass that cannot outgrow its time, whose
 *	   budget is at most HWT_PASS_MIN units and whose owner cascades
 *	   ahead apart (struct hwt_expiry): it is then never read
 */
void hwt_base_expiry_begin(struct hwt_base *b, struct hwt_expiry *x,
			   enum hwt_pass_kind kind, u64 start)
{
	static const enum hwt_counter counter[] = {
		[HWT_PASS_WAKEUP] = HWT_C_WAKEUPS,
		[HWT_PASS_CONTINUED] = HWT_C_CONTINUED,
		[HWT_PASS_HANDED_OFF] = HWT_C_HANDED_OFF,
	};

	hwt_pass_init(&x->pass, start);
	x->now = hwt_base_now(b);
	x->fired = 0;
	x->apart = false;
	if (kind == HWT_PASS_WAKEUP)
		b->armed = U64_MAX;
	b->running = true;
	hwt_stat_add(&b->stats, counter[kind], 1);
	trace_hwt_pass(b->clockid, b, kind, x->now);
	hwt_base_sync(b, x->now);
	x->clk = b->wheel->clk;
	x->cascaded = b->wheel->cascaded;
	x->moves = hwt_wheel_work_units(b->wheel);
}

/**
 * hwt_base_expire_next() - take the next due node of this pass
 * @b: the base, locked
 * @x: the pass's state
 *
 * The lock may be dropped between calls, if the owner then calls
 * hwt_base_expiry_relocked(). The pass is bounded as hwt_pass_pop() says.
 *
 * Return: a due node, no longer queued, or NULL when nothing more is due or
 * the pass has spent its budget (@x->pass.left is then 0).
 */
struct hwt_node *hwt_base_expire_next(struct hwt_base *b,
				      struct hwt_expiry *x)
{
	struct hwt_node *n;
	unsigned int bucket;
	u64 late;

	n = hwt_pass_pop(&x->pass, b->wheel, x->now, hwt_cpu_clock);
	if (!n)
		return NULL;
	x->fired++;
	late = x->now - n->expires;
	hwt_stat_add(&b->stats, HWT_C_FIRED, 1);
	hwt_stat_max(&b->stats, HWT_M_LATE, late);
	bucket = min_t(unsigned int, fls64(late >> 10), HWT_HIST_BUCKETS - 1);
	b->stats.late_hist[bucket]++;
	this_cpu_inc(hwt_gstats.late_hist[bucket]);
	return n;
}

/**
 * hwt_base_expiry_relocked() - go on with a run after dropping the lock
 * @b: the base, locked again
 * @x: the run's state
 *
 * The in-kernel API runs each callback with the lock dropped. CLOCK_REALTIME
 * may have been set back meanwhile: then the run goes on at the time it is
 * now, and the wheel is rebased if it is ahead of that too, so that no timer
 * of the run fires early on the clock as it is now. The other clocks never
 * go back.
 */
void hwt_base_expiry_relocked(struct hwt_base *b, struct hwt_expiry *x)
{
	u64 now;

	if (b->clockid != CLOCK_REALTIME)
		return;
	now = hwt_base_now(b);
	if ((s64)(now - x->now) < 0) {
		x->now = now;
		hwt_base_sync(b, now);
	}
}

/* Whether a node may be due at @now (or parked nodes are to be placed). */
static bool hwt_base_due(struct hwt_base *b, u64 now)
{
	u64 next;

	return hwt_wheel_next(b->wheel, &next) && (s64)(next - now) <= 0;
}

/* Whether cascading ahead may be done at @now. */
static bool hwt_base_ahead_now(struct hwt_base *b, u64 now)
{
	u64 ahead;

	return hwt_wheel_next_ahead(b->wheel, &ahead) &&
	       (s64)(ahead - now) <= 0;
}

/*
 * After a pass that left nothing due: cascade ahead (wheel.h) in a pass of
 * its own, with a budget of its own (at most @budget units), in what is
 * left of the pass's time. Return true if some is left to do at the pass's
 * time.
 */
static bool hwt_base_ahead(struct hwt_base *b, struct hwt_expiry *x,
			   unsigned int budget)
{
	struct hwt_wheel *w = b->wheel;
	u64 cascaded = w->cascaded, moves = hwt_wheel_work_units(w);
	struct hwt_pass p;
	bool more;

	if (likely(!hwt_base_ahead_now(b, x->now)))
		return false;
	hwt_pass_init(&p, x->pass.start);
	p.left = min(p.left, budget);
	if (hwt_cpu_clock() - p.start > HWT_PASS_NS)
		p.left = 0;	/* a pass of its own, next */
	more = hwt_pass_ahead(&p, w, x->now, hwt_cpu_clock);
	cascaded = w->cascaded - cascaded;
	if (cascaded) {
		hwt_stat_add(&b->stats, HWT_C_CASCADED, cascaded);
		trace_hwt_tick(b->clockid, b, 0, cascaded,
			       hwt_wheel_work_units(w) - moves, 0,
			       hwt_cpu_clock() - p.start);
	}
	return more;
}

/* Program the hrtimer for the wheel's next window, not for work ahead. */
static void hwt_base_arm_due(struct hwt_base *b)
{
	u64 next, latest;

	if (hwt_wheel_next_range(b->wheel, &next, &latest))
		hwt_base_arm(b, next, latest);
}

/**
 * hwt_base_expiry_end() - finish a pass: arm the hrtimer for what is left
 * @b: the base, locked
 * @x: the pass's state; its owner sets @x->pass.left to 0 if it stopped the
 *     pass early with work left
 *
 * A pass that left nothing due is followed by one that cascades ahead
 * (hwt_base_ahead()), which never delays a due timer nor spends the
 * expiry's budget; unless its owner cascades ahead apart (@x->apart), in
 * a context of its own that never holds up the hrtimer: then the run ends,
 * the hrtimer is armed for what is due, and the owner is told to.
 *
 * Return: HWT_END_DUE if the pass spent its budget and work may be left
 * due, or cascading ahead is left to do now within the run: the hrtimer is
 * then not armed, and the owner goes on with another pass, hands the base
 * to its worker, or calls hwt_base_expiry_defer() (see base.h). Until one
 * of those ends the run, nothing arms the hrtimer. HWT_END_AHEAD (with
 * @x->apart only): the run is over, and the owner is to call
 * hwt_base_ahead_pass(). HWT_END_DONE: the run is over.
 */
enum hwt_end hwt_base_expiry_end(struct hwt_base *b, struct hwt_expiry *x)
{
	struct hwt_wheel *w = b->wheel;
	s64 moved = w->clk - x->clk;	/* back, if the clock was set back */
	u64 ticks = moved > 0 ? (u64)moved >> w->shift : 0;
	u64 cascaded = w->cascaded - x->cascaded;

	if (!x->fired)
		hwt_stat_add(&b->stats, HWT_C_EMPTY_WAKEUPS, 1);
	if (ticks > 1)
		hwt_stat_add(&b->stats, HWT_C_TICKS_SKIPPED, ticks - 1);
	if (cascaded)
		hwt_stat_add(&b->stats, HWT_C_CASCADED, cascaded);
	/* its arguments read the clock: only when someone listens */
	if (trace_hwt_tick_enabled())
		trace_hwt_tick(b->clockid, b, x->fired, cascaded,
			       x->fired + hwt_wheel_work_units(w) - x->moves,
			       ticks, x->pass.start ?
			       hwt_cpu_clock() - x->pass.start : 0);
	/*
	 * A pass that spent its budget goes on, unless the wheel says that
	 * nothing is due: a budget spent on exactly what was due needs no
	 * pass that would find nothing (review G6).
	 */
	if (!x->pass.left && hwt_base_due(b, x->now)) {
		hwt_stat_add(&b->stats, HWT_C_DEFERRED, 1);
		return HWT_END_DUE;
	}
	if (x->apart && hwt_base_ahead_now(b, x->now)) {
		b->running = false;
		hwt_base_arm_due(b);
		return HWT_END_AHEAD;
	}
	if (!x->apart && hwt_base_ahead(b, x, HWT_PASS_BUDGET))
		return HWT_END_DUE;
	b->running = false;
	hwt_base_arm_next(b);
	return HWT_END_DONE;
}

/**
 * hwt_base_ahead_pass() - cascade ahead, apart from expiry
 * @b: the base, locked, whose owner cascades ahead apart (struct
 *     hwt_expiry.apart) and was told to (HWT_END_AHEAD)
 *
 * A pass of cascading ahead (wheel.h) with a budget of its own, which no
 * due timer waits behind: the hrtimer stays armed for what is due, and the
 * pass is short, HWT_AHEAD_BUDGET units, so that an expiry that wants the
 * lock meanwhile waits for little. While a
 * run owns the base, or anything is due, it does nothing: the run, or the
 * hrtimer's pass, ends with HWT_END_AHEAD again once the due work is done.
 * Once nothing is left to do now, the hrtimer is armed for the next work
 * ahead too, if that comes before what is due.
 *
 * Return: true if more is left to do now: the owner calls it again, when
 * other work has had the CPU.
 */
bool hwt_base_ahead_pass(struct hwt_base *b)
{
	struct hwt_expiry x;
	u64 next, latest;
	bool more;

	if (b->running)
		return false;
	x.now = hwt_base_now(b);
	hwt_base_sync(b, x.now);
	if (hwt_wheel_next_range(b->wheel, &next, &latest) &&
	    (s64)(next - x.now) <= 0)
		return false;
	hwt_pass_init(&x.pass, hwt_cpu_clock());
	more = hwt_base_ahead(b, &x, HWT_AHEAD_BUDGET);
	if (!more)
		hwt_base_arm_next(b);
	return more;
}

/**
 * hwt_base_expiry_defer() - leave what a pass left to a later softirq run
 * @b: the base, locked, whose pass returned HWT_END_DUE from
 *     hwt_base_expiry_end()
 *
 * Arms the hrtimer for a fresh time, after the one the hrtimer softirq runs
 * timers up to, so that the rest is done in another softirq run and
 * whatever else waits for the CPU gets it in between.
 */
void hwt_base_expiry_defer(struct hwt_base *b)
{
	u64 next = hwt_base_now(b) + 1;

	b->running = false;
	b->armed = U64_MAX;
	hwt_base_arm(b, next, next);
}

/**
 * hwt_run_more() - whether a run goes on with another pass at once
 * @start: hwt_cpu_clock() when the run's first pass began
 *
 * After a pass that left work due, with the base's lock dropped: yes while
 * no task waits for this CPU and the run has taken less than HWT_RUN_NS,
 * as __do_softirq() goes on; never on PREEMPT_RT, where the pass runs in
 * the ktimers thread above every SCHED_OTHER task (see base.h).
 *
 * Return: true to start the next pass now.
 */
bool hwt_run_more(u64 start)
{
	if (IS_ENABLED(CONFIG_PREEMPT_RT) || need_resched())
		return false;
	return hwt_cpu_clock() - start < HWT_RUN_NS;
}
