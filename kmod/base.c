// SPDX-License-Identifier: GPL-2.0
/*
 * hwtimer timer base: a wheel, its lock and the hrtimer that drives it.
 * See base.h for the design.
 */
#include <linux/bitops.h>
#include <linux/hrtimer.h>
#include <linux/sched.h>
#include <linux/sched/clock.h>
#include <linux/slab.h>
#include <linux/smp.h>
#include <linux/timekeeping.h>

#include "base.h"
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
 *	  runs in hard interrupt context but on PREEMPT_RT (it then sets up
 *	  @b->more)
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
static void hwt_base_arm(struct hwt_base *b, u64 when, u64 latest)
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
static void hwt_base_arm_next(struct hwt_base *b)
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
 * Arm for a node just queued: the window from its key to its slack's end,
 * or the wheel's next if the node made its slot big enough to be cascaded
 * ahead of its start (@early, hwt_wheel_early()).
 */
static void hwt_base_arm_node(struct hwt_base *b, const struct hwt_node *n,
			      bool early)
{
	u64 key = hwt_wheel_key(b->wheel, n->expires);

	if (unlikely(early)) {
		hwt_base_arm_next(b);
		return;
	}
	hwt_base_arm(b, key, hwt_wheel_late(b->wheel, n, key));
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
 * hwt_base_expiry_begin() - start a pass
 * @b: the base, locked
 * @x: the pass's state
 * @kind: what started it
 */
void hwt_base_expiry_begin(struct hwt_base *b, struct hwt_expiry *x,
			   enum hwt_pass_kind kind)
{
	static const enum hwt_counter counter[] = {
		[HWT_PASS_WAKEUP] = HWT_C_WAKEUPS,
		[HWT_PASS_CONTINUED] = HWT_C_CONTINUED,
		[HWT_PASS_HANDED_OFF] = HWT_C_HANDED_OFF,
	};

	hwt_pass_init(&x->pass, local_clock());
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
}

static u64 hwt_pass_clock(void)
{
	return local_clock();
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

	n = hwt_pass_pop(&x->pass, b->wheel, x->now, hwt_pass_clock);
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

/*
 * After a pass that left nothing due: cascade ahead (wheel.h) in a pass of
 * its own, with a budget of its own, in what is left of the pass's time.
 * Return true if some is left to do at the pass's time.
 */
static bool hwt_base_ahead(struct hwt_base *b, struct hwt_expiry *x)
{
	struct hwt_wheel *w = b->wheel;
	u64 cascaded = w->cascaded, ahead;
	struct hwt_pass p;
	bool more;

	if (likely(!hwt_wheel_next_ahead(w, &ahead)) ||
	    (s64)(ahead - x->now) > 0)
		return false;
	hwt_pass_init(&p, x->pass.start);
	if (local_clock() - p.start > HWT_PASS_NS)
		p.left = 0;	/* a pass of its own, next */
	more = hwt_pass_ahead(&p, w, x->now, hwt_pass_clock);
	cascaded = w->cascaded - cascaded;
	if (cascaded) {
		hwt_stat_add(&b->stats, HWT_C_CASCADED, cascaded);
		trace_hwt_tick(b->clockid, b, 0, cascaded, 0,
			       local_clock() - p.start);
	}
	return more;
}

/* Whether cascading ahead may be done at @now. */
static bool hwt_base_ahead_now(struct hwt_base *b, u64 now)
{
	u64 ahead;

	return hwt_wheel_next_ahead(b->wheel, &ahead) &&
	       (s64)(ahead - now) <= 0;
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
	trace_hwt_tick(b->clockid, b, x->fired, cascaded, ticks,
		       local_clock() - x->pass.start);
	if (!x->pass.left) {
		hwt_stat_add(&b->stats, HWT_C_DEFERRED, 1);
		return HWT_END_DUE;
	}
	if (x->apart && hwt_base_ahead_now(b, x->now)) {
		b->running = false;
		hwt_base_arm_due(b);
		return HWT_END_AHEAD;
	}
	if (!x->apart && hwt_base_ahead(b, x))
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
 * due timer waits behind: the hrtimer stays armed for what is due. While a
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
	hwt_pass_init(&x.pass, local_clock());
	more = hwt_base_ahead(b, &x);
	if (!more)
		hwt_base_arm_next(b);
	return more;
}

/**
 * hwt_base_expiry_defer() - leave what a pass left to a later softirq run
 * @b: the base, locked, whose pass returned true from hwt_base_expiry_end()
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
 * @start: local_clock() when the run's first pass began
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
	return local_clock() - start < HWT_RUN_NS;
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
