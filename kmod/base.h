/* SPDX-License-Identifier: GPL-2.0 */
/*
 * hwtimer internals: the timer base. The nouns of the module:
 *
 *   node    a timer as the wheel sees it (struct hwt_node, linux/hwt_node.h)
 *   wheel   the timing wheel of nodes; no locks, no clock (wheel.h)
 *   base    a wheel on one clock and the hrtimer that drives it (base.c)
 *   kbase   a base of the in-kernel API, per CPU and clock (kbase.h, kbase.c)
 *   file    an open /dev/hwtimer: its ids, bases and lock (dev.h)
 *   utimer  a timer of a file, a 40-byte entry of its table (struct
 *           hwt_utimer, dev.h)
 *   ext     what a utimer with a period, slack or an eventfd keeps
 *           beside its entry (struct hwt_uext, dev.h)
 *   pass    one bounded run of a base's expiry (below, pass.h)
 *   unit    what a pass counts: a timer expired or a node placed, or
 *           HWT_CHEAP_PER_UNIT nodes moved along with one (pass.h)
 *
 * A timer base is one wheel (wheel.h) on one clock, and an hrtimer that
 * drives it: a soft one for the in-kernel API, one that expires in hard
 * interrupt context (but on PREEMPT_RT) for a file. Its owner's lock guards
 * it (Locking, below). There are two kinds of owner. The in-kernel API
 * (api.c) has one base per CPU and clock. Every open /dev/hwtimer file has
 * bases of its own. Each owner writes its own hrtimer callback around
 * hwt_base_expiry_begin(), hwt_base_expire_next() and
 * hwt_base_expiry_end(): the per-timer work of an expiry is then a direct
 * call.
 *
 * Tick. The hrtimer is armed only when something can be due, for the
 * window hwt_wheel_next_range() gives. The window opens at the earliest
 * time a timer can be due. It closes when the earliest timers must fire
 * (deadline plus slack), as hrtimer_start_range_ns() takes it. An empty
 * base causes no wakeups; a lone timer an hour away causes one. A timer
 * without slack fires as <linux/hwtimer.h> promises (wheel.h has the
 * tick). Timers whose slack windows overlap share a wakeup. The hrtimer
 * fires at the end of the window, or within its last HWT_ARM_SLACK_NS if
 * the CPU is awake then anyway. Adding a timer re-programs the hrtimer
 * only if its window ends before the armed one. Deleting never does,
 * except that a base whose wheel becomes empty disarms.
 *
 * Expiry context: the owner's. The in-kernel API's bases run on a soft
 * hrtimer (HRTIMER_MODE_ABS_SOFT), and their callbacks in softirq
 * context, as timer_list's do, which is what drivers expect. A device
 * file's bases expire in the hrtimer's own interrupt (HRTIMER_MODE_ABS,
 * neither soft nor hard), as timerfd's do: a small pass there, and the
 * rest of the run in softirq context (struct hwt_file_run.more), as below.
 * On PREEMPT_RT hrtimer runs such hrtimers in the ktimers thread: soft ones
 * again.
 *
 * Bounded work. A run of the callback (a pass) has a budget of
 * HWT_PASS_BUDGET units. A unit is a timer expired or a node the wheel
 * places on the way: a slot cascaded, a parked node placed, a node placed
 * again after a clock set-back. HWT_CHEAP_PER_UNIT nodes moved along with
 * a node of the same deadline (a list splice, wheel.h) are one unit too.
 * So no pass does more than its budget, however the timers are spread.
 * The wheel leaves a cascade half done and takes it up in the next pass,
 * returning the nodes due meanwhile as it goes. A pass spends its budget
 * on what is due only: cascading a big slot ahead of its time (wheel.h)
 * gets a pass of its own, with a budget of its own, after a pass that left
 * nothing due. The in-kernel API's bases do it within the same HWT_PASS_NS,
 * with the hrtimer armed for the earlier of the next window and the next
 * such work, so it is done in the gaps between expiries; work ahead that
 * is left goes on as work due does (Going on, below). A file's bases do
 * it apart (struct hwt_expiry.apart): in a soft hrtimer of their own, in
 * passes of HWT_AHEAD_BUDGET units while nothing is due, with the hrtimer
 * armed for what is due meanwhile (dev_expiry.c).
 *
 * A pass also looks at the time, after HWT_PASS_MIN units and every
 * HWT_PASS_CHECK units after that. It stops once it has run HWT_PASS_NS.
 * Where units are cheap (the wheel in cache), a pass does its whole
 * budget. Where they are dear (a huge wheel that misses the cache on every
 * node, slow callbacks, emulation), it stops at about that time. It always
 * does HWT_PASS_MIN units, so that a pass never pays its start for a
 * handful of timers.
 *
 * Going on. A pass that stops with work left does not arm the hrtimer
 * again: an hrtimer programmed for "now" costs an interrupt and a softirq
 * entry per pass, most of a pass's time on a VM, and the wheel falls
 * behind. The owner starts the next pass at once instead, as
 * __do_softirq() and rcu_do_batch() do, after dropping the lock and
 * signalling. It goes on while nobody else wants the CPU and
 * the run has taken less than HWT_RUN_NS (hwt_run_more()).
 *
 * Past that, a device file hands the base to a worker: a per-CPU kworker
 * at nice -20, below every real-time task. It goes on pass by pass, with
 * cond_resched() in between, and arms the hrtimer again once caught up.
 * Its priority is high because the softirq it takes over from outranks
 * every task: at normal priority it would wait behind the very reader its
 * passes woke. The in-kernel API's bases promise their callbacks softirq
 * context, so they do not hand off. Past the window, they arm the hrtimer
 * for a fresh "now" (hwt_base_expiry_defer()). Other softirq work, a woken
 * task or ksoftirqd gets the CPU in between.
 *
 * Either way, a task that needs the CPU waits for one pass at most: its
 * wakeup sets need_resched(). On PREEMPT_RT the timer softirq runs in the
 * ktimers thread at SCHED_FIFO 1, above every task it would keep waiting.
 * There a run is one pass, and a device file's backlog goes to the worker
 * at once, where SCHED_FIFO tasks preempt it.
 *
 * Per unit, the device does a list move, and takes a reference on the
 * eventfd of a timer that has one. A periodic timer that queues no record
 * is re-armed, an O(1) insert. The in-kernel API runs each callback with
 * the lock dropped. The wake-ups are done once the lock is dropped:
 * readers and pollers first, then the file's eventfd and the timers'
 * (at most HWT_PASS_EFDS of them), each eventfd once per pass, which is
 * what its counter counts (hwtimer.rst). Each such wake-up walks a wait
 * queue as long as the user made it (epoll on dup()ed eventfds), which no
 * count of units bounds. So a pass does them while it has run less than
 * its bound (HWT_PASS_NS; in a hard interrupt, dev_expiry.c's
 * HWT_HARD_NS, counted from its first wake-up, since a hard pass's few
 * units read no clock), and at least one, and leaves the rest to the
 * file's worker (dev_signal.c), which owes each pass its own.
 *
 * A pass thus lasts at most HWT_PASS_NS plus one step of HWT_PASS_CHECK
 * cold units or one wake-up, as long as HWT_PASS_MIN cold units take less
 * than HWT_PASS_NS. bench/core_bench.c ("pass") measures it, and
 * BENCHMARKS.md has the measurements.
 *
 * Every lock hold outside a pass is O(1): one operation (add, modify,
 * cancel, a clock set-back included), or a fixed number of them (the
 * device's chunks of batch entries, records, and drained or freed timers).
 * Long system calls give the CPU up between chunks. None of this depends
 * on PREEMPT_RT. There the pass runs in the ktimers thread and the locks
 * are sleeping ones; the same budget bounds how long a boosted lock holder
 * runs.
 *
 * Locking. The owner serialises every call on a base with its own lock.
 * The lock guards the wheel, the hrtimer's arming and the stats, and is
 * never held while a callback runs. The in-kernel API may be called from
 * any context, hard interrupts and raw spinlocks on PREEMPT_RT included.
 * So its bases' locks are raw spinlocks, taken with interrupts off
 * (kbase.h); the bounded work above is what makes that acceptable on RT.
 * Device files share one lock between their bases (the file's lock), since
 * their expiries also feed the file's record queue. Their expiry takes it
 * in hard interrupt context, so it is held with interrupts off (dev.h).
 *
 * Scaling. The in-kernel API shards by CPU. As with timer_list, a timer is
 * queued on the base of the CPU that arms it (HWTIMER_PINNED: of the CPU
 * it was initialised for). It moves between bases under both locks. Those
 * bases keep their hrtimer on their CPU (hwt_base.cpu): timers armed on
 * different CPUs never contend, and fire where they were armed. Each device
 * file has its own bases, not bound to a CPU. One file's million timers
 * never delay another file's; a process that wants parallelism opens one
 * file per thread.
 */
#ifndef _HWT_BASE_H
#define _HWT_BASE_H

#include <linux/hrtimer.h>
#include <linux/list.h>
#include <linux/percpu.h>
#include <linux/sched/clock.h>
#include <linux/smp.h>
#include <linux/spinlock.h>
#include <linux/time.h>
#include <linux/timekeeping.h>
#include <linux/workqueue.h>

#include "pass.h"
#include "wheel.h"

#define HWT_NR_CLOCKS		3	/* MONOTONIC, BOOTTIME, REALTIME */
#define HWT_HIST_BUCKETS	32

/**
 * struct hwt_geometry - the wheel geometry of every base, from module params
 * @shift: a tick is 1 << @shift ns
 * @levels: levels of every wheel: the levels parameter's, and the spare
 *	    ones hwt_wheel_levels_for() adds
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

/* Counters (hwt_counter_names[] has their sysfs and fdinfo names). */
enum hwt_counter {
	HWT_C_ADDED,		/* timers created, or armed while idle */
	HWT_C_MODIFIED,		/* timers re-armed in place (MOD) */
	HWT_C_MOD_SAME_SLOT,	/* pending ones whose move kept their slot */
	HWT_C_CANCELLED,	/* pending timers cancelled, or closed */
	HWT_C_DRAINED,		/* pending timers cancelled by DRAIN */
	HWT_C_OVERRUNS,		/* periods that passed without a fire */
	HWT_C_RECORDS,		/* expiry records read() */
	HWT_C_FIRED,		/* timers expired */
	HWT_C_CASCADED,		/* nodes the wheel moved down a level */
	HWT_C_WAKEUPS,		/* runs of a base's hrtimer callback */
	HWT_C_EMPTY_WAKEUPS,	/* runs that found nothing due */
	HWT_C_TICKS_SKIPPED,	/* wheel ticks that passed with no wakeup */
	HWT_C_DEFERRED,		/* runs cut short by their budget */
	HWT_C_ARMS,		/* hrtimer programmings */
	HWT_C_REBASES,		/* rebases after the clock was set back */
	HWT_C_CONTINUED,	/* passes a run went on with, not re-armed */
	HWT_C_HANDED_OFF,	/* passes run by the worker of a base */
	HWT_C_WAKEUPS_HANDED_OFF, /* wake-ups passes left to a worker */
	HWT_C_HARD_PASSES,	/* passes run in the hrtimer's interrupt */
	HWT_C_READER_CPU,	/* passes that woke a reader on its own CPU */
	HWT_C_OTHER_CPU,	/* passes that woke a reader on another CPU */
	HWT_NR_COUNTERS
};

/* Maxima. */
enum hwt_maximum {
	HWT_M_LATE,		/* largest lateness, fire time - deadline, ns */
	HWT_M_READY,		/* longest a file's record queue has been */
	HWT_NR_MAXIMA
};

/**
 * struct hwt_stats - counters, maxima and the lateness histogram
 * @count: enum hwt_counter
 * @max: enum hwt_maximum
 * @late_hist: lateness histogram; bucket 0 is [0, 1024) ns, bucket k > 0 is
 *	       [2^(k+9), 2^(k+10)) ns, the last bucket is open-ended
 *
 * One struct serves a base (under its lock; it counts what happens on the
 * wheel), a device file (under its lock; what its ioctls and read() do) and
 * the global per-CPU counters that sysfs adds up (everything):
 * hwt_stat_add() and hwt_stat_max() count in the given struct and globally.
 */
struct hwt_stats {
	u64 count[HWT_NR_COUNTERS];
	u64 max[HWT_NR_MAXIMA];
	u64 late_hist[HWT_HIST_BUCKETS];
};

DECLARE_PER_CPU(struct hwt_stats, hwt_gstats);
extern const char * const hwt_counter_names[HWT_NR_COUNTERS];
extern const char * const hwt_maximum_names[HWT_NR_MAXIMA];

static inline void hwt_gstat_add(enum hwt_counter c, u64 n)
{
	this_cpu_add(hwt_gstats.count[c], n);
}

static inline void hwt_stat_add(struct hwt_stats *s, enum hwt_counter c, u64 n)
{
	s->count[c] += n;
	hwt_gstat_add(c, n);
}

static inline void hwt_stat_max(struct hwt_stats *s, enum hwt_maximum m,
				u64 v)
{
	if (v > s->max[m])
		s->max[m] = v;
	if (v > this_cpu_read(hwt_gstats.max[m]))
		this_cpu_write(hwt_gstats.max[m], v);
}

/**
 * struct hwt_base - a wheel driven by an hrtimer on one clock
 * @wheel: the wheel
 * @hrt: drives the wheel, armed to fire by @armed
 * @mode: @hrt's mode: HRTIMER_MODE_ABS_SOFT, or HRTIMER_MODE_ABS (hard
 *	  interrupt context but on PREEMPT_RT, as timerfd's)
 * @clockid: CLOCK_MONOTONIC, CLOCK_BOOTTIME or CLOCK_REALTIME
 * @cpu: the CPU the base is bound to, or -1; a bound base's hrtimer is
 *	 always programmed on @cpu while it is online (through @arm_csd
 *	 from other CPUs), so that its timers fire there
 * @cpu_online: whether @cpu is online, kept by the owner under its lock
 * @armed: the end of the window @hrt is armed for (its hard expiry), or
 *	   U64_MAX when it is not armed
 * @running: a run of passes owns the base, from its first pass until one
 *	     ends caught up or the run defers the rest: the run arms @hrt
 *	     when it ends, so nothing arms it meanwhile (an arm then, for
 *	     what is already due, would fire at once, behind the run's back)
 * @in_callback: set by an owner whose pass runs in @hrt's own callback
 *		 (a base bound to no CPU), under its lock: an arm then only
 *		 sets @hrt's expiry and @restart, and the callback returns
 *		 HRTIMER_RESTART, which hrtimer enqueues without the
 *		 locking and re-programming of hrtimer_start_range_ns()
 * @restart: an arm made while @in_callback was set
 * @stats: counters
 * @owner: the object the base belongs to, for its hrtimer callback
 * @arm_csd: set up by the owner of a bound base: an IPI to @cpu that takes
 *	     the owner's lock and calls hwt_base_rearm()
 *
 * The owner serialises every call on a base with a lock of its own. What
 * its runs need besides (a file's: struct hwt_file_run, dev.h) it keeps
 * beside the base.
 */
struct hwt_base {
	struct hwt_wheel *wheel;
	struct hrtimer hrt;
	enum hrtimer_mode mode;
	clockid_t clockid;
	int cpu;
	bool cpu_online;
	bool running;
	bool in_callback;
	bool restart;
	u64 armed;
	struct hwt_stats stats;
	void *owner;
	call_single_data_t arm_csd;
};

/* What started a pass, for the counters. */
enum hwt_pass_kind {
	HWT_PASS_WAKEUP,	/* the hrtimer fired */
	HWT_PASS_CONTINUED,	/* the same run, after a pass with work left */
	HWT_PASS_HANDED_OFF,	/* the base's worker */
};

/**
 * struct hwt_expiry - state of one pass over a base
 * @now: the time the pass started, which every timer of the pass fired at
 *	(unless CLOCK_REALTIME was set back during the pass: then the time
 *	it was found set back at)
 * @clk: the wheel's clock when the pass started
 * @cascaded: the wheel's cascade count when the pass started
 * @moves: the budget units the wheel had charged for moves then
 *	   (hwt_wheel_work_units())
 * @pass: its bound (pass.h), on hwt_cpu_clock()
 * @fired: how many timers it expired
 * @apart: its owner cascades ahead apart from expiry, with
 *	   hwt_base_ahead_pass(), and sets this after hwt_base_expiry_begin():
 *	   the pass does none, and ends the run with the hrtimer armed for
 *	   what is due even when some is left to do (HWT_END_AHEAD)
 */
struct hwt_expiry {
	u64 now;
	u64 clk;
	u64 cascaded;
	u64 moves;
	struct hwt_pass pass;
	unsigned int fired;
	bool apart;
};

/* What a pass left, from hwt_base_expiry_end(). */
enum hwt_end {
	HWT_END_DONE,	/* nothing due: the hrtimer is armed */
	HWT_END_DUE,	/* work may be left due: the run goes on (base.h) */
	HWT_END_AHEAD,	/* nothing due, the hrtimer armed for what will be;
			 * cascading ahead is left to do now, apart
			 */
};

/**
 * struct hwt_occupancy - what the wheels of every base hold, per level
 * @timers: timers on each level
 * @slots: occupied slots of each level
 * @parked: timers parked beyond the horizon
 * @bases: bases counted
 */
struct hwt_occupancy {
	long timers[HWT_LEVELS_MAX];
	long slots[HWT_LEVELS_MAX];
	long parked;
	unsigned int bases;
};

extern const clockid_t hwt_clockids[HWT_NR_CLOCKS];

int hwt_clock_index(clockid_t clockid);
int hwt_base_init(struct hwt_base *b, clockid_t clockid,
		  enum hrtimer_restart (*fn)(struct hrtimer *),
		  enum hrtimer_mode mode,
		  u64 (*slack_of)(const struct hwt_node *n), gfp_t gfp);
void hwt_base_destroy(struct hwt_base *b);
void hwt_base_destroy_freed(struct hwt_base *b);
/*
 * The per-operation helpers are inline: every ADD and every hwtimer_start()
 * goes through them.
 */
/* Timers on the base's wheel, parked ones included; with its lock held. */
static inline unsigned int hwt_base_pending(const struct hwt_base *b)
{
	return hwt_wheel_pending(b->wheel);
}

/**
 * hwt_cpu_clock() - the clock that bounds a pass, and a run of passes
 *
 * Each is timed on the one CPU it runs on, in a hard interrupt, softirq
 * context or a bound worker: sched_clock(), not local_clock(). Where the
 * kernel takes the sched clock for unstable (a TSC it marked so, as it
 * often does in virtual machines), local_clock() keeps within a tick of the
 * last one the CPU took; with interrupts off, as a pass runs, it stops
 * there, and a bound measured on it is never reached: a pass then did
 * every wake-up it had, however long each took.
 *
 * Return: ns, to compare with other reads on the same CPU only.
 */
static inline u64 hwt_cpu_clock(void)
{
	return sched_clock();
}

/**
 * hwt_base_now() - the current time on the base's clock
 * @b: the base
 *
 * Return: ns.
 */
static inline u64 hwt_base_now(const struct hwt_base *b)
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
 * hwt_base_floor() - a time no later than now on the base's clock, cheaply
 * @b: the base
 *
 * The coarse clock: the time of the last tick, without reading the
 * clocksource. CLOCK_REALTIME is read exactly: behind the wheel, a coarse
 * read could not tell lag from the clock being set back (hwt_base_sync()).
 *
 * Return: ns, at or before what hwt_base_now() would return.
 */
static inline u64 hwt_base_floor(const struct hwt_base *b)
{
	switch (b->clockid) {
	case CLOCK_BOOTTIME:
		return ktime_get_coarse_boottime_ns();
	case CLOCK_REALTIME:
		return ktime_get_real_ns();
	default:
		return ktime_get_coarse_ns();
	}
}

/**
 * hwt_base_abs_now() - the time to arm an absolute deadline against
 * @b: the base
 * @expires: the deadline, on the base's clock
 *
 * Placement needs only a time no later than now, and an absolute deadline
 * is the caller's, so a timer is never early whatever time it is placed
 * against: a deadline ahead of the coarse clock (hwt_base_floor()), and
 * within the wheel's range of it, needs no exact read. One that has
 * passed by it is raised to the exact time, and one beyond the range of it
 * is checked against the exact time, which may be closer.
 *
 * Return: ns, at or before now.
 */
static inline u64 hwt_base_abs_now(const struct hwt_base *b, u64 expires)
{
	u64 floor = hwt_base_floor(b);

	if ((s64)(expires - floor) > 0 && expires - floor <= hwt_geo.max_delay)
		return floor;
	return hwt_base_now(b);
}

/*
 * Bring the wheel's clock to @now, a clock read made under the base's lock.
 * Only CLOCK_REALTIME can be set back and leave the wheel ahead of a fresh
 * read: then the wheel follows it back (an O(1) rebase). The other clocks
 * never go back, and a wheel ahead of them is ahead of a read made before
 * the lock was taken, which is not a reason to move anything.
 */
static inline void hwt_base_sync(struct hwt_base *b, u64 now)
{
	struct hwt_wheel *w = b->wheel;
	s64 ahead = now - w->clk;

	/* the wheel's clock is at the tick it last ran in, which may not have ended */
	if (unlikely(ahead + (s64)w->tmask < 0)) {
		if (b->clockid == CLOCK_REALTIME) {
			hwt_wheel_rebase(w, now);
			hwt_stat_add(&b->stats, HWT_C_REBASES, 1);
		}
	} else if (ahead >= (s64)hwt_wheel_tick(w) << HWT_LVL_BITS &&
		   w->clk != w->stuck) {
		/*
		 * place new timers against a fresh clock, on low levels;
		 * not while the wheel knows something is due first (@stuck)
		 */
		hwt_wheel_forward(w, now);
	}
}

/**
 * hwt_base_deadline() - validate a deadline and make it absolute
 * @b: the base, locked
 * @now: the current time on its clock, or for an absolute @expires a time
 *	 at or before it (hwt_base_abs_now())
 * @expires: a delay, or an absolute time if @abs
 * @abs: whether @expires is absolute
 * @deadline: set to the absolute deadline; a time already passed becomes @now
 *
 * Brings the wheel's clock up to @now first (or back, if the clock was set
 * back), so that what the caller does next is placed against it.
 *
 * Return: 0, or -ERANGE if the deadline lies more than hwt_geo.max_delay
 * ahead of @now.
 */
static inline int hwt_base_deadline(struct hwt_base *b, u64 now, u64 expires,
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
	hwt_base_sync(b, now);
	*deadline = d;
	return 0;
}

unsigned int hwt_base_add(struct hwt_base *b, struct hwt_node *n, u64 now,
			  u32 id);
unsigned int hwt_base_mod(struct hwt_base *b, struct hwt_node *n,
			  u64 deadline, u64 now, u32 id);
void hwt_base_del(struct hwt_base *b, struct hwt_node *n, u32 id);
void hwt_base_rearm(struct hwt_base *b);
void hwt_occupancy(struct hwt_occupancy *o);
void hwt_stats_fold(struct hwt_stats *sum, const struct hwt_stats *s);
void hwt_stats_sum(struct hwt_stats *sum);
void hwt_base_expiry_begin(struct hwt_base *b, struct hwt_expiry *x,
			   enum hwt_pass_kind kind, u64 start);
struct hwt_node *hwt_base_expire_next(struct hwt_base *b,
				      struct hwt_expiry *x);
void hwt_base_expiry_relocked(struct hwt_base *b, struct hwt_expiry *x);
enum hwt_end hwt_base_expiry_end(struct hwt_base *b, struct hwt_expiry *x);
bool hwt_base_ahead_pass(struct hwt_base *b);
void hwt_base_expiry_defer(struct hwt_base *b);
bool hwt_run_more(u64 start);

#endif /* _HWT_BASE_H */
