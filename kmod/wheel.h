/* SPDX-License-Identifier: GPL-2.0 */
/*
 * hwtimer wheel core: a hierarchical hashed timing wheel.
 *
 * This is a pure data structure. It takes no locks, reads no clock and
 * allocates nothing. The caller owns the wheel's storage and every node's,
 * serialises all calls, and says what time it is. The same source builds
 * in the kernel module and in userspace (tests/native/include holds the
 * few kernel headers it needs). There it is unit-tested with a fake clock,
 * fuzzed and benchmarked.
 *
 * Design
 * ------
 * Time is u64 nanoseconds on the caller's clock, compared modulo 2^64, so
 * the wheel keeps working when the clock wraps. A tick is 2^shift ns. A
 * node with deadline D is placed by its key K: D rounded up to a tick
 * boundary. It is due at D itself: the wheel never returns it before "now"
 * reaches D, and returns it as soon as the caller pops at a time >= D. So
 * a node is never early, and never late whatever its delay (but within its
 * slack; see below): the wheel's next time (hwt_wheel_next()) is a lower
 * bound of the deadlines, not of the keys, and an owner that arms its
 * hrtimer for it fires at the deadline, as timerfd's does.
 *
 * The clock's own tick. A pop takes the clock to the tick "now" is in, the
 * first boundary at or after it: every earlier tick is done, and the
 * clock's level-0 slot holds that tick's deadlines, some of which may not
 * have come. A pop looks at its first node; when that one is not due, it
 * looks through the slot (hwt_pop_sub()), a unit per HWT_CHEAP_PER_UNIT
 * nodes passed over. Nodes passed over wait on @later, so that a pass cut
 * short goes on where it stopped, and once the slot was looked at whole
 * its bound is its earliest deadline, exact: the owner's next wakeup is
 * that deadline. FreeBSD's callout_process() keeps exact times in coarse
 * buckets the same way. A tick of deadlines that do not come in order
 * costs a look per node per wakeup, and at most one wakeup per distinct
 * deadline, as with a timerfd each.
 *
 * Level L (0 <= L < levels) has 64 slots of 32^L ticks each, and an
 * occupancy bitmap: the next occupied slot of a level is one ffs away. A
 * level spans two steps of the level above it (64 slots where 32 would
 * tile). A node is placed relative to the clock, on the lowest level whose
 * slot of K is fewer than 64 slots ahead of the clock's slot there, in
 * slot (K >> (shift + 5L)) & 63. A level's slots are thus a ring that the
 * clock goes round. Nodes store no slot index: (lvl, K) names it. A node
 * on level L >= 1 is always at least one slot ahead of the clock there, so
 * the clock's own slot of a level >= 1 receives no placements.
 *
 * When the clock reaches the start of an occupied slot on level L >= 1,
 * the slot is cascaded. Its nodes are placed again relative to the new
 * clock, which puts each on a lower level (or straight into the expiring
 * slot when K is the clock). This keeps every horizon exact; the kernel's
 * timer_list wheel skips it and is up to 12.5% late instead. A node
 * cascades at most once per level it passes, O(levels) over its life.
 * Insert, delete and same-slot modify are O(1). Most keys of a slot go
 * exactly one level down, which needs no level computation. A key equal to
 * the one placed just before goes to the same slot, so a run of them is
 * spliced over at once. A node alone in its slot, due, and due before
 * anything on the other levels is returned from where it is: a lone timer
 * is never moved at all.
 *
 * Cascading ahead. The two steps per level let a cascade run before it is
 * due. Every key of the slot just after the clock's own on level L fits on
 * level L - 1 already. So that slot can be cascaded at any time during the
 * clock's slot, a budget at a time, and it takes no new placements
 * meanwhile. hwt_wheel_pop() never does so: it returns due nodes, and does
 * only the work they need. Cascading ahead is a call of its own,
 * hwt_wheel_ahead(), with a budget of its own, which an owner makes when
 * nothing is due; hwt_wheel_next_ahead() says from when it has work, and
 * hwt_wheel_next() leaves that time out. It cascades a slot of
 * HWT_CASCADE_EARLY nodes or more from the moment it becomes the next one,
 * a whole slot's time before it starts (once fewer are left, the rest
 * waits for its start), and the rest of a slot left half cascaded (below)
 * before its first key. For an owner that calls it, no
 * level boundary is a burst of work in front of the timers due just after
 * it, however many a stream of timeouts put there, and no due node waits
 * for work that is not due. An owner that never calls it gets the big slot
 * cascaded as a small one is, as work due with its first key. A smaller
 * slot is cascaded when its first key is due: a lone timer an hour away
 * still costs one wakeup (see the bounds below).
 *
 * Bounded work. hwt_wheel_pop() and hwt_wheel_ahead() take a budget. They
 * charge one unit for every node they return or place (cascaded, unparked,
 * or placed again after a rebase), and one for every HWT_CHEAP_PER_UNIT
 * nodes spliced after a node of the same key. So one call never does more
 * than that, however many nodes share a slot. A cascade that runs out of
 * budget leaves the rest of its slot where it is. If that slot is the
 * clock's own (@cascading), it is finished before the clock passes its
 * first key, and not before. The clock may go into it up to there; nodes
 * whose key is the clock land in the clock's level-0 slot, and are
 * returned between the cascade's chunks. A herd of nodes due at one
 * instant thus starts firing at that instant, not after the whole cascade.
 * Nothing is due from that slot's range before it is empty: every node of
 * it sorts at or after its first key. A pop whose clock reaches the start
 * of a slot none of whose keys is due by the time it pops for makes it
 * such a slot without moving a node of it: the budget goes to what is due
 * beyond its start. Each node records its level (struct hwt_node.lvl), so
 * a node deleted or modified while its slot is half cascaded is found
 * where it is.
 *
 * Each slot keeps a lower bound of its deadlines. The next time anything
 * can be due (hwt_wheel_next()) is then the bound of a level's first slot,
 * not its start: a lone timer an hour away costs one wakeup, not one per
 * level, at its deadline. Deleting the earliest node leaves a stale, lower
 * bound. That costs at most one early wakeup, which finds nothing due.
 *
 * What each level has to do next (expire, cascade, or cascade ahead, and
 * from when) is kept as times in struct hwt_events (wheel_look.h). They
 * are looked up again only for a level that changed, and the earliest of
 * them is kept until anything changes. A pop that takes the earliest
 * level's node looks at that level alone, before it returns: if the level
 * still comes first, the others' times and the earliest of them stand.
 * The pop after it then answers "nothing due" from the kept times, without
 * a look, and so does any pop before the earliest time. A delete that
 * leaves its slot neither empty nor smaller than big changes nothing
 * kept: a slot's bound of its deadlines may stay low.
 *
 * A clock set back (CLOCK_REALTIME) moves the wheel's clock back in O(1)
 * (hwt_wheel_rebase()); nodes stay where they are. Every queued key lies
 * after the old clock. So a node sits in a slot that, relative to the new
 * clock, either is its own or comes round before its key does (a later
 * turn of the same level). Such a slot is cascaded when the clock reaches
 * it, which places its nodes right. A level-0 slot reached with a node
 * whose key is not the clock's places that node again instead of
 * returning it. Until the clock is back where it was (@high), the
 * per-slot bounds may mislead: hwt_wheel_next() answers with slot starts
 * instead. That is a few more wakeups, never a late one.
 *
 * Geometry
 * --------
 * shift is 10..30 (a tick of 1.024 us .. 1.07 s). By default the levels
 * cover all 64 bits of time, so any delay below 2^63 ns is accepted; the
 * top level then has fewer than 64 slots. With fewer levels the horizon is
 * 63 top-level slots (hwt_wheel_horizon()). Callers refuse longer delays
 * from users. A node can still end up beyond the horizon: a clock set
 * back, a periodic re-arm, or an owner whose clock lags behind the time it
 * arms for. So an owner builds its wheels with two levels more than the
 * horizon it accepts delays for (hwt_wheel_levels_for()): a lag of up to a
 * thousand horizons then costs each node a move a level, as any node.
 * Beyond the wheel's own horizon a node is parked on a list of its own,
 * and placed once the clock comes within half the horizon of it: neither
 * early nor late. Each round of placing walks every parked node, so rounds
 * come half a horizon apart, not a tick; a node is walked about twice per
 * horizon the clock moves. Parked nodes are placed within the budget too,
 * a few per call, from a list of their own (@unparking). Those still out
 * of reach are parked again without being walked twice in a round, and a
 * round cut short goes on after the nodes due before its own, by the tick
 * before the earliest of its keys (@unpark_by).
 *
 * Slack and windows
 * -----------------
 * A node may carry slack (hwt_node.slack; the owner keeps its amount, read
 * through @slack_of). It is due from its deadline on, and should be
 * returned by its deadline plus slack. A slot that holds a node with slack
 * also keeps a lower bound of those latest times (@late; without slack it
 * is the slot's earliest deadline). So hwt_wheel_next_range() gives a
 * window, [earliest deadline, earliest "latest" time], in one walk of the
 * occupancy
 * bitmaps. FreeBSD's callout(9) arms its event timer the same way, for
 * [first deadline, first deadline + precision], since calloutng. The
 * owner arms its hrtimer for that window (hrtimer_start_range_ns()) and
 * pops everything due when it fires. Nodes whose windows overlap share a
 * wakeup; nodes without slack fire at their deadlines. Deleting a node leaves
 * the bounds low, which costs at most an early wakeup. Nothing is sorted:
 * insert, delete and modify stay O(1).
 *
 * The default tick is 2^12 ns (4.096 us): the width of a level-0 slot, not
 * a lateness (BENCHMARKS.md has what other ticks cost). A node placed on
 * level L is cascaded L times, each a list move. With the default tick:
 *
 * Level Granularity   Keys placed there          Slots
 *  0      4.096 us       0 ns   -  262.1 us        64
 *  1      131.1 us    262.1 us  -  8.389 ms        64
 *  2      4.194 ms    8.389 ms  -  268.4 ms        64
 *  3      134.2 ms    268.4 ms  -  8.590 s         64
 *  4      4.295 s     8.590 s   -  4.581 min       64
 *  5      2.291 min   4.581 min -  2.443 h         64
 *  6      1.222 h     2.443 h   -  3.258 d         64
 *  7      1.629 d     3.258 d   -  104.2 d         64
 *  8      52.12 d     104.2 d   -  9.132 y         64
 *  9      4.566 y     9.132 y   -  292.2 y         64
 * 10      146.1 y     292.2 y   -  292.3 y          4
 *
 * (a key is placed by how many slots ahead of the clock's it is, so the
 * bounds of each range hold within one slot of that level)
 *
 * The price of cascading ahead is a level more for the same horizon, so a
 * node is moved a little more often before it fires. For an owner that
 * cascades ahead, none of those moves is made in front of a deadline.
 * BENCHMARKS.md has the measurements
 * (`core_bench -w geometry`).
 */
#ifndef _HWT_WHEEL_H
#define _HWT_WHEEL_H

#include <linux/bits.h>
#include <linux/hwt_node.h>
#include <linux/list.h>
#include <linux/types.h>

/*
 * The linkage of the wheel's functions: global in the module. A unit that
 * compiles the wheel's .c files into itself (a KUnit suite, the native
 * tests, the benchmarks) may define it static, so that its copy clashes
 * with nothing when the suite is built into a kernel beside hwtimer.
 */
#ifndef HWT_WHEEL_SCOPE
#define HWT_WHEEL_SCOPE
#endif

/* a level's slot is 2^HWT_LVL_BITS of the level below; a level has two such steps */
#define HWT_LVL_BITS	5
#define HWT_LVL_SIZE	BIT(HWT_LVL_BITS + 1)
#define HWT_SHIFT_MIN	10
#define HWT_SHIFT_MAX	30
#define HWT_LEVELS_MAX	((64 - HWT_LVL_BITS - 1 - HWT_SHIFT_MIN + HWT_LVL_BITS - 1) / \
			 HWT_LVL_BITS + 1)
/* nodes from which a slot is cascaded ahead of its start (see above) */
#define HWT_CASCADE_EARLY	64
/* levels a wheel is built with beyond its owner's (hwt_wheel_levels_for()) */
#define HWT_SPARE_LEVELS	2
/* moves without a placement decision that cost one unit of a budget */
#define HWT_CHEAP_PER_UNIT	4
/* struct hwt_wheel.fresh: struct hwt_events' earliest are known */
#define HWT_FRESH_BEST	BIT(31)
/* struct hwt_node.lvl of a node in no wheel; a parked node's is @levels */
#define HWT_LVL_NONE	((1U << HWT_NODE_LVL_BITS) - 1)
/* ... of a node of the clock's tick passed over, not due yet (@later) */
#define HWT_LVL_LATER	(HWT_LVL_NONE - 1)

/**
 * struct hwt_slot - one slot of a level
 * @head: its nodes
 * @first: lower bound of their deadlines
 * @size: how many
 * @slack: a node with slack joined since the slot was last empty: the
 *	   level's @late entry for the slot is kept (struct hwt_level)
 */
struct hwt_slot {
	struct list_head head;
	u64 first;
	u32 size;
	bool slack;
};

/**
 * struct hwt_level - one level of the wheel
 * @slot: the slots (first: a slot's address is the level's plus its own)
 * @occupied: bit n set iff @slot[n] is not empty
 * @shift: a slot of this level is 2^@shift ns
 * @mask: its slots - 1 (the top level may have fewer than HWT_LVL_SIZE)
 * @late: for each slot with slack, a lower bound of the times by which its
 *	  nodes are due at the latest: their deadlines plus slack. For a slot
 *	  without, that bound is its @first.
 */
struct hwt_level {
	struct hwt_slot slot[HWT_LVL_SIZE];
	u64 occupied;
	unsigned int shift;
	unsigned int mask;
	u64 late[HWT_LVL_SIZE];
};

/**
 * struct hwt_events - what each level has to do next, while known
 * @must: when its first occupied slot in clock order must be expired or
 *	  cascaded, a time
 * @may: for a level in @early, when that slot's cascade ahead may begin; at
 *	 or before the clock for one that may go on now
 * @wake: when hwt_wheel_next() wakes for it: when a node of it can first
 *	  be due, or @must where the slot's bound cannot tell
 * @slot: that slot
 * @early: levels whose first slot may be cascaded ahead of @must
 *	   (hwt_wheel_ahead())
 * @best: the earliest @must of all levels
 * @best_lvl: its level; @best and @second mean nothing if there is none
 * @second: the earliest @must of the other levels (@best - 1: none)
 * @others: the earliest @wake of the other levels (the clock + S64_MAX at
 *	    the look: none)
 * @may_min: the earliest @may of the levels in @early
 * @soonest: the earliest @wake of all levels
 *
 * Kept as times rather than distances: the clock moving on does not change
 * them, since it never passes a @must. A level's entries are good while its
 * bit of struct hwt_wheel.fresh is set, and the earliest of them all while
 * its bit HWT_FRESH_BEST is (wheel_look.c).
 */
struct hwt_events {
	u64 must[HWT_LEVELS_MAX];
	u64 may[HWT_LEVELS_MAX];
	u64 wake[HWT_LEVELS_MAX];
	u8 slot[HWT_LEVELS_MAX];
	unsigned int early;
	u64 best;
	unsigned int best_lvl;
	u64 second;
	u64 others;
	u64 may_min;
	u64 soonest;
};

/**
 * struct hwt_wheel - a hierarchical timing wheel
 * @clk: the wheel's time, tick-aligned: the end of the tick the time last
 *	 popped for is in (wheel.h, "The clock's own tick"). Every tick before
 *	 it has been processed, except a slot of a higher level whose cascade
 *	 is not finished (@cascading); its level-0 slot holds the nodes of its
 *	 tick, due and being popped, or not due yet
 * @high: with @skewed, the latest @clk before the clock was set back
 * @skewed: @clk is before @high: nodes may sit in slots placed against that
 *	    later clock
 * @stuck: the @clk at which hwt_wheel_forward() last found something due
 *	   before the time it was asked for: it cannot move the clock again
 *	   before the clock has moved another way (a pop or a rebase), or a
 *	   slot was emptied or a parked node taken out (adding nodes cannot
 *	   make it free, deleting them can)
 * @shift: a tick is 1 << @shift ns
 * @levels: number of levels in @lvl
 * @slack_seen: a node with slack joined a slot since the wheel was last
 *	        seen empty: hwt_wheel_next_range() looks at the slots' bounds
 * @top_bits: log2 of the number of slots of the top level
 * @occupied: bit L set iff level L has a node
 * @cascading: bit L set iff the clock's own slot of level L was left half
 *	       cascaded when the clock reached its start, at @casc_at[L]
 * @fresh: bit L set iff nothing on level L changed since its entries of
 *	   @ev were looked up, or since the level was last seen empty;
 *	   HWT_FRESH_BEST set iff nothing changed on any level since @ev's
 *	   earliest were found
 * @ev: what each level has to do next
 * @horizon: keys this far ahead of @clk or further are parked
 * @tmask: a tick - 1
 * @lvl_of_bit: by the highest bit set of how far ahead of @clk a key is,
 *	       the lowest level it may go to (wheel_impl.h's hwt_level())
 * @lsub: for each level, a slot of it - 1
 * @lspan: for each level, HWT_LVL_SIZE slots of it; U64_MAX for the top
 *	   level, from which no key goes higher
 * @cascaded: nodes the wheel moved so far: cascaded, unparked, or placed
 *	      again after the clock was set back (a statistic)
 * @cheap: of those, nodes moved without a placement decision; every
 *	   HWT_CHEAP_PER_UNIT-th of them costs a budget a unit
 * @looked: nodes of the clock's own tick looked at and passed over, not due
 *	    yet (a statistic); every HWT_CHEAP_PER_UNIT-th costs a unit
 * @later: those passed over at @later_now, until the clock's tick has been
 *	   looked at whole; they stay in level 0's slot @later_idx (its size
 *	   counts them) with struct hwt_node.lvl HWT_LVL_LATER, which they
 *	   keep until they leave the wheel, on this list or back in the slot
 * @later_now: the time they were looked at for
 * @later_min: the earliest of their deadlines, or lower
 * @later_idx: their slot
 * @parked: nodes whose key lies beyond the horizon, in no slot
 * @unparking: parked nodes being placed again, a budget at a time
 * @nparked: nodes on @parked and @unparking
 * @parked_min: lower bound of the deadlines on @parked
 * @unpark_by: when a round of placing @unparking began, the tick before the
 *	       earliest of their keys: the rest must be placed by then
 * @slack_of: the owner's: how late a node with hwt_node.slack set may be
 *	      returned, in ns after its deadline; NULL if no node has slack
 * @casc_at: for each level in @cascading, the start of its half-cascaded slot
 * @lvl: the levels, finest first
 */
struct hwt_wheel {
	u64 clk;
	u64 high;
	u64 stuck;
	unsigned int shift;
	unsigned int levels;
	unsigned int top_bits;
	bool skewed;
	bool slack_seen;
	unsigned int occupied;
	unsigned int cascading;
	unsigned int fresh;
	u64 horizon;
	u64 tmask;
	u8 lvl_of_bit[64];
	u64 lsub[HWT_LEVELS_MAX];
	u64 lspan[HWT_LEVELS_MAX];
	u64 cascaded;
	u64 cheap;
	u64 looked;
	struct list_head later;
	u64 later_now;
	u64 later_min;
	unsigned int later_idx;
	struct list_head parked;
	struct list_head unparking;
	unsigned long nparked;
	u64 parked_min;
	u64 unpark_by;
	u64 (*slack_of)(const struct hwt_node *n);
	u64 casc_at[HWT_LEVELS_MAX];
	struct hwt_events ev;
	struct hwt_level lvl[];
};

HWT_WHEEL_SCOPE unsigned int hwt_wheel_max_levels(unsigned int shift);
HWT_WHEEL_SCOPE unsigned int hwt_wheel_levels_for(unsigned int shift,
						  unsigned int levels);
HWT_WHEEL_SCOPE u64 hwt_wheel_horizon_of(unsigned int shift,
					 unsigned int levels);
HWT_WHEEL_SCOPE size_t hwt_wheel_size(unsigned int levels);
HWT_WHEEL_SCOPE int hwt_wheel_init(struct hwt_wheel *w, unsigned int shift,
				   unsigned int levels, u64 now);
HWT_WHEEL_SCOPE u64 hwt_wheel_horizon(const struct hwt_wheel *w);
HWT_WHEEL_SCOPE bool hwt_wheel_add(struct hwt_wheel *w, struct hwt_node *n);
HWT_WHEEL_SCOPE void hwt_wheel_del(struct hwt_wheel *w, struct hwt_node *n);
HWT_WHEEL_SCOPE bool hwt_wheel_mod(struct hwt_wheel *w, struct hwt_node *n,
				   u64 expires);
HWT_WHEEL_SCOPE bool hwt_wheel_early(const struct hwt_wheel *w,
				     const struct hwt_node *n);
HWT_WHEEL_SCOPE struct hwt_node *hwt_wheel_pop(struct hwt_wheel *w, u64 now,
					       unsigned int *budget);
HWT_WHEEL_SCOPE bool hwt_wheel_ahead(struct hwt_wheel *w, u64 now,
				     unsigned int *budget);
HWT_WHEEL_SCOPE bool hwt_wheel_next(struct hwt_wheel *w, u64 *when);
HWT_WHEEL_SCOPE bool hwt_wheel_next_ahead(struct hwt_wheel *w, u64 *when);
HWT_WHEEL_SCOPE bool hwt_wheel_next_range(struct hwt_wheel *w, u64 *when,
					  u64 *latest);
HWT_WHEEL_SCOPE unsigned long hwt_wheel_pending(const struct hwt_wheel *w);
HWT_WHEEL_SCOPE void hwt_wheel_forward(struct hwt_wheel *w, u64 now);
HWT_WHEEL_SCOPE void hwt_wheel_rebase(struct hwt_wheel *w, u64 now);
HWT_WHEEL_SCOPE void hwt_wheel_clear(struct hwt_wheel *w);

HWT_WHEEL_SCOPE u64 hwt_period_next(u64 deadline, u64 fired, u64 now,
				    u64 period, bool fixed_delay,
				    u64 *overruns);

static inline u64 hwt_wheel_tick(const struct hwt_wheel *w)
{
	return 1ULL << w->shift;
}

/*
 * A deadline is placed by the first tick boundary at or after it: its key,
 * with @tmask a tick - 1 (struct hwt_wheel.tmask, which a loop may keep in
 * a register).
 */
static inline u64 hwt_key(u64 expires, u64 tmask)
{
	return (expires + tmask) & ~tmask;
}

static inline u64 hwt_wheel_key(const struct hwt_wheel *w, u64 expires)
{
	return hwt_key(expires, w->tmask);
}

/* The latest time a node should be returned at: its deadline plus slack. */
static inline u64 hwt_wheel_late(const struct hwt_wheel *w,
				 const struct hwt_node *n)
{
	if (likely(!n->slack) || !w->slack_of)
		return n->expires;
	return n->expires + w->slack_of(n);
}

/**
 * hwt_wheel_level_of() - the level a queued node is on
 * @w: the wheel
 * @n: a node queued in @w
 *
 * Return: the level, 0 being the finest, @w->levels for a node parked
 * beyond the horizon, or HWT_LVL_LATER for a node of the clock's tick
 * passed over, not due yet.
 */
static inline unsigned int hwt_wheel_level_of(const struct hwt_wheel *w,
					      const struct hwt_node *n)
{
	return n->lvl;
}

static inline bool hwt_wheel_empty(const struct hwt_wheel *w)
{
	return !w->occupied && !w->nparked;
}

/*
 * Budget units the wheel charged so far for work other than returning
 * nodes: one per move that placed a node, one per HWT_CHEAP_PER_UNIT moves
 * that did not, and one per HWT_CHEAP_PER_UNIT nodes of the clock's tick
 * looked at and passed over, not due yet.
 */
static inline u64 hwt_wheel_work_units(const struct hwt_wheel *w)
{
	return w->cascaded - w->cheap + w->cheap / HWT_CHEAP_PER_UNIT +
	       w->looked / HWT_CHEAP_PER_UNIT;
}

#endif /* _HWT_WHEEL_H */
