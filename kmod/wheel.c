// SPDX-License-Identifier: GPL-2.0
/*
 * hwtimer wheel core. See wheel.h for the design and the geometry table.
 *
 * Every function here is O(1), except that hwt_wheel_pop(), hwt_wheel_next()
 * and hwt_wheel_forward() are O(levels) per slot they look at, and
 * hwt_wheel_pop() moves or returns at most its budget of nodes.
 */
#include <linux/bitops.h>
#include <linux/build_bug.h>
#include <linux/bug.h>
#include <linux/errno.h>
#include <linux/kernel.h>
#include <linux/math64.h>

#include "wheel.h"

/*
 * The module traces cascades and keeps per-CPU occupancy counts for sysfs
 * (wheel_hooks.h); the userspace build and the tests do neither.
 */
#ifdef HWT_WHEEL_HOOKS
#include "wheel_hooks.h"
#else
static inline void hwt_hook_cascade(const struct hwt_wheel *w,
				    unsigned int lvl, unsigned int idx,
				    unsigned int nodes)
{
}

static inline void hwt_hook_occupancy(unsigned int lvl, int timers, int slots)
{
}
#endif

static_assert(HWT_LEVELS_MAX < HWT_LVL_NONE, "struct hwt_node.lvl is too narrow");

static inline unsigned int lvl_shift(const struct hwt_wheel *w,
				     unsigned int lvl)
{
	return w->shift + lvl * HWT_LVL_BITS;
}

static inline unsigned int lvl_slots(const struct hwt_wheel *w,
				     unsigned int lvl)
{
	return lvl == w->levels - 1 ? 1U << w->top_bits : HWT_LVL_SIZE;
}

/* The slot of level @lvl that time @t falls in. */
static inline unsigned int lvl_digit(const struct hwt_wheel *w,
				     unsigned int lvl, u64 t)
{
	return (t >> lvl_shift(w, lvl)) & (lvl_slots(w, lvl) - 1);
}

/*
 * The level of a key is where its highest bit differing from the clock lies.
 * A key equal to the clock is due now and lives in level 0's current slot.
 */
static inline unsigned int hwt_level(const struct hwt_wheel *w, u64 key)
{
	u64 diff = (key ^ w->clk) >> w->shift;

	if (!diff)
		return 0;
	return min_t(unsigned int, (fls64(diff) - 1) / HWT_LVL_BITS,
		     w->levels - 1);
}

/*
 * The slot a key is placed in, relative to the clock. A key at or beyond
 * the horizon (only with fewer levels than cover all of time, after the
 * clock was set back or a periodic timer was re-armed far ahead) cannot be
 * placed: it is parked on @w->parked, level @w->levels. The clock never
 * passes the moment the earliest parked key comes within the horizon
 * without placing it (hwt_next_event()).
 */
static inline unsigned int hwt_slot_of(const struct hwt_wheel *w, u64 key,
				       unsigned int *idx)
{
	unsigned int lvl;

	if (unlikely(key - w->clk >= w->horizon)) {
		*idx = 0;
		return w->levels;
	}
	lvl = hwt_level(w, key);
	*idx = lvl_digit(w, lvl, key);
	return lvl;
}

/* Earlier of two times, both at or after the clock. */
static inline u64 hwt_earlier(const struct hwt_wheel *w, u64 a, u64 b)
{
	return a - w->clk < b - w->clk ? a : b;
}

/*
 * Lower the bounds of an occupied slot for @n, whose key is @key, joining
 * it. Level 0's slots hold one key each: their first[] is not needed.
 */
static inline void hwt_slot_bounds(struct hwt_wheel *w, unsigned int lvl,
				   unsigned int idx, const struct hwt_node *n,
				   u64 key)
{
	struct hwt_level *l = &w->lvl[lvl];

	if (lvl)
		l->first[idx] = hwt_earlier(w, l->first[idx], key);
	l->late[idx] = hwt_earlier(w, l->late[idx], hwt_wheel_late(w, n, key));
}

/*
 * Account @n, whose key is @key (not before the clock), to the slot it
 * belongs in now and return that slot; the caller links the node into it.
 */
static struct list_head *hwt_place(struct hwt_wheel *w, struct hwt_node *n,
				   u64 key)
{
	unsigned int idx, lvl = hwt_slot_of(w, key, &idx);
	struct hwt_level *l;
	int slots = 0;

	w->pending++;
	n->lvl = lvl;
	if (unlikely(lvl == w->levels)) {
		w->parked_min = list_empty(&w->parked) ? key :
				hwt_earlier(w, w->parked_min, key);
		w->nparked++;
		hwt_hook_occupancy(lvl, 1, 0);
		return &w->parked;
	}
	l = &w->lvl[lvl];
	if (!(l->occupied & BIT_ULL(idx))) {
		l->occupied |= BIT_ULL(idx);
		l->first[idx] = key;
		l->late[idx] = hwt_wheel_late(w, n, key);
		slots = 1;
	} else {
		hwt_slot_bounds(w, lvl, idx, n, key);
	}
	l->count++;
	hwt_hook_occupancy(lvl, 1, slots);
	return &l->slot[idx];
}

/*
 * Account for a node whose key is @key having left its slot on level @lvl
 * (its list link is already elsewhere).
 */
static void hwt_account_out(struct hwt_wheel *w, unsigned int lvl, u64 key)
{
	unsigned int idx;
	struct hwt_level *l;

	w->pending--;
	if (unlikely(lvl == w->levels)) {
		/* parked_min may now be low: that costs one early rescan */
		w->nparked--;
		hwt_hook_occupancy(lvl, -1, 0);
		return;
	}
	l = &w->lvl[lvl];
	idx = lvl_digit(w, lvl, key);
	l->count--;
	if (list_empty(&l->slot[idx])) {
		l->occupied &= ~BIT_ULL(idx);
		hwt_hook_occupancy(lvl, -1, -1);
	} else {
		hwt_hook_occupancy(lvl, -1, 0);
	}
}

/* Take a queued node out of the wheel. */
static void hwt_unlink(struct hwt_wheel *w, struct hwt_node *n)
{
	list_del_init(&n->entry);
	hwt_account_out(w, n->lvl, hwt_wheel_key(w, n->expires));
	n->lvl = HWT_LVL_NONE;
}

/* Place a queued node again, relative to the clock as it is now. */
static void hwt_move(struct hwt_wheel *w, struct hwt_node *n)
{
	unsigned int from = n->lvl;
	u64 key = hwt_wheel_key(w, n->expires);

	list_move_tail(&n->entry, hwt_place(w, n, key));
	hwt_account_out(w, from, key);
	w->cascaded++;
}

/* Move the clock forward by @delta ns. */
static inline void hwt_advance(struct hwt_wheel *w, u64 delta)
{
	w->clk += delta;
	if (unlikely(w->skewed) && (s64)(w->clk - w->high) >= 0)
		w->skewed = false;
}

/* Raise a deadline that falls in a processed tick; return its key. */
static inline u64 hwt_clamp(const struct hwt_wheel *w, u64 *expires)
{
	u64 key = hwt_wheel_key(w, *expires);

	if ((s64)(key - w->clk) <= 0) {
		*expires = w->clk + 1;
		key = w->clk + hwt_wheel_tick(w);
	}
	return key;
}

/**
 * hwt_wheel_max_levels() - levels needed to cover all 64 bits of time
 * @shift: log2 of the tick in ns
 *
 * Return: the number of levels for which no delay below 2^63 ns needs a
 * horizon check.
 */
unsigned int hwt_wheel_max_levels(unsigned int shift)
{
	return DIV_ROUND_UP(64 - shift, HWT_LVL_BITS);
}

/**
 * hwt_wheel_size() - bytes needed for a wheel
 * @levels: number of levels
 *
 * Return: the size of a struct hwt_wheel with @levels levels.
 */
size_t hwt_wheel_size(unsigned int levels)
{
	return sizeof(struct hwt_wheel) + levels * sizeof(struct hwt_level);
}

/**
 * hwt_wheel_init() - initialise an empty wheel
 * @w: storage of at least hwt_wheel_size(@levels) bytes
 * @shift: a tick is 2^@shift ns, HWT_SHIFT_MIN..HWT_SHIFT_MAX
 * @levels: 1..hwt_wheel_max_levels(@shift), or 0 for that maximum
 * @now: the current time
 *
 * Return: 0, or -EINVAL if the geometry is out of range.
 */
int hwt_wheel_init(struct hwt_wheel *w, unsigned int shift,
		   unsigned int levels, u64 now)
{
	unsigned int max = hwt_wheel_max_levels(shift);
	unsigned int lvl, i;

	if (shift < HWT_SHIFT_MIN || shift > HWT_SHIFT_MAX)
		return -EINVAL;
	if (!levels)
		levels = max;
	if (levels > max)
		return -EINVAL;

	w->shift = shift;
	w->levels = levels;
	w->top_bits = levels == max ? 64 - shift - HWT_LVL_BITS * (levels - 1)
				    : HWT_LVL_BITS;
	w->clk = now & ~(hwt_wheel_tick(w) - 1);
	w->high = w->clk;
	w->stuck = w->clk - 1;	/* never a tick-aligned time */
	w->skewed = false;
	w->horizon = levels == max ? 1ULL << 63 :
		     (u64)(HWT_LVL_SIZE - 1) << lvl_shift(w, levels - 1);
	w->pending = 0;
	w->cascaded = 0;
	INIT_LIST_HEAD(&w->parked);
	INIT_LIST_HEAD(&w->unparking);
	w->nparked = 0;
	w->parked_min = 0;
	w->slack_of = NULL;
	for (lvl = 0; lvl < levels; lvl++) {
		struct hwt_level *l = &w->lvl[lvl];

		l->occupied = 0;
		l->count = 0;
		for (i = 0; i < HWT_LVL_SIZE; i++) {
			INIT_LIST_HEAD(&l->slot[i]);
			l->first[i] = 0;
			l->late[i] = 0;
		}
	}
	return 0;
}

/**
 * hwt_wheel_horizon() - how far ahead of the wheel's clock a key may lie
 * @w: the wheel
 *
 * A node whose key lies this far or further ahead of @w->clk is parked and
 * placed again later (see hwt_slot_of()); callers refuse such deadlines
 * from users so that this stays the exception. When the levels cover all
 * of time this is 2^63 ns, the limit of modular comparison; with fewer it
 * is the top level's 63 slots that are not the clock's own.
 *
 * Return: the horizon in ns.
 */
u64 hwt_wheel_horizon(const struct hwt_wheel *w)
{
	return w->horizon;
}

/**
 * hwt_wheel_add() - queue a node
 * @w: the wheel
 * @n: a node not in any wheel, with @n->expires set
 *
 * A deadline in a tick the wheel has already processed is raised to the
 * wheel's clock + 1 ns, so the node becomes due at the next tick. The
 * caller has checked @n->expires against hwt_wheel_horizon().
 */
void hwt_wheel_add(struct hwt_wheel *w, struct hwt_node *n)
{
	u64 key = hwt_clamp(w, &n->expires);

	list_add_tail(&n->entry, hwt_place(w, n, key));
}

/**
 * hwt_wheel_del() - unlink a queued node
 * @w: the wheel
 * @n: a node queued in @w
 */
void hwt_wheel_del(struct hwt_wheel *w, struct hwt_node *n)
{
	if (WARN_ON_ONCE(n->lvl > w->levels))
		return;
	hwt_unlink(w, n);
}

/**
 * hwt_wheel_mod() - change the deadline of a queued node
 * @w: the wheel
 * @n: a node queued in @w
 * @expires: the new deadline
 *
 * Like mod_timer(), a new deadline that maps to the node's current slot only
 * updates the node.
 *
 * Return: true if the node stayed in its slot.
 */
bool hwt_wheel_mod(struct hwt_wheel *w, struct hwt_node *n, u64 expires)
{
	unsigned int olvl = n->lvl, oidx = 0, idx, lvl;
	u64 key;

	if (WARN_ON_ONCE(olvl > w->levels))
		return false;
	if (olvl < w->levels)
		oidx = lvl_digit(w, olvl, hwt_wheel_key(w, n->expires));
	key = hwt_clamp(w, &expires);
	lvl = hwt_slot_of(w, key, &idx);
	if (lvl == olvl && idx == oidx) {
		n->expires = expires;
		if (unlikely(lvl == w->levels))
			w->parked_min = hwt_earlier(w, w->parked_min, key);
		else
			hwt_slot_bounds(w, lvl, idx, n, key);
		return true;
	}
	hwt_unlink(w, n);
	n->expires = expires;
	list_add_tail(&n->entry, hwt_place(w, n, key));
	return false;
}

/*
 * The occupied slots of a level as distances from the clock's own slot: bit
 * d is set if the slot d slots ahead (@cur + d, modulo the level's slots) is
 * occupied.
 *
 * First occupied slot of a level in clock order, and its distance in slots
 * from the clock's own slot. The clock's own slot on a level >= 1 holds
 * nodes in two cases only: its cascade started when the clock reached its
 * start and is not finished (distance 0), or the clock was set back into
 * it and its nodes belong to its next turn (distance: a whole turn).
 */
static inline u64 lvl_rot(const struct hwt_wheel *w, unsigned int lvl,
			  unsigned int *cur)
{
	unsigned int nslots = lvl_slots(w, lvl);
	u64 occ = w->lvl[lvl].occupied;
	u64 rot;

	*cur = lvl_digit(w, lvl, w->clk);
	rot = occ >> *cur;
	if (*cur)
		rot |= occ << (nslots - *cur);
	if (nslots < 64)
		rot &= (1ULL << nslots) - 1;
	return rot;
}

static inline unsigned int lvl_first(const struct hwt_wheel *w,
				     unsigned int lvl, unsigned int *slot)
{
	unsigned int nslots = lvl_slots(w, lvl), cur, dist;
	u64 rot = lvl_rot(w, lvl, &cur);

	dist = __ffs64(rot);
	if (unlikely(!dist) && (w->clk & ((1ULL << lvl_shift(w, lvl)) - 1))) {
		/* set back into the middle of it: its next turn */
		rot &= ~1ULL;
		dist = rot ? __ffs64(rot) : nslots;
	}
	*slot = (cur + dist) & (nslots - 1);
	return dist;
}

/* When the clock reaches the start of slot @dist slots ahead on @lvl. */
static inline u64 lvl_event(const struct hwt_wheel *w, unsigned int lvl,
			    unsigned int dist)
{
	unsigned int s = lvl_shift(w, lvl);

	return (w->clk & ~((1ULL << s) - 1)) + ((u64)dist << s);
}

/*
 * The next thing the wheel must do: expire a level-0 slot, cascade a higher
 * one, or place parked nodes (level @w->levels). Return its distance from
 * the clock in ns (U64_MAX if the wheel is empty). When two levels tie, the
 * higher goes first, so that what it cascades lands before the tick is
 * expired.
 */
static u64 hwt_next_event(const struct hwt_wheel *w, unsigned int *lvlp,
			  unsigned int *slotp)
{
	u64 best = U64_MAX;
	unsigned int lvl, slot, dist;

	for (lvl = 0; lvl < w->levels; lvl++) {
		u64 delta;

		if (!w->lvl[lvl].occupied)
			continue;
		dist = lvl_first(w, lvl, &slot);
		delta = lvl_event(w, lvl, dist) - w->clk;
		if (delta <= best) {
			best = delta;
			*lvlp = lvl;
			*slotp = slot;
		}
	}
	if (likely(!w->nparked))
		return best;
	if (!list_empty(&w->unparking)) {
		/* placing parked nodes was cut short: go on now */
		best = 0;
		*lvlp = w->levels;
		*slotp = 0;
	} else if (!list_empty(&w->parked)) {
		/* the earliest parked key comes within the horizon */
		s64 delta = w->parked_min - w->horizon + hwt_wheel_tick(w) -
			    w->clk;

		if ((u64)max_t(s64, delta, 0) <= best) {
			best = max_t(s64, delta, 0);
			*lvlp = w->levels;
			*slotp = 0;
		}
	}
	return best;
}

/*
 * Place parked nodes, at most @budget of them. The first call of a round
 * takes every parked node; those still beyond the horizon are parked again,
 * on @w->parked, so that each is looked at once per round.
 */
static void hwt_unpark(struct hwt_wheel *w, unsigned int *budget)
{
	if (list_empty(&w->unparking))
		list_splice_init(&w->parked, &w->unparking);
	while (*budget && !list_empty(&w->unparking)) {
		hwt_move(w, list_first_entry(&w->unparking, struct hwt_node,
					     entry));
		(*budget)--;
	}
}

/*
 * Move the nodes of a slot whose time has come one level down or more, at
 * most @budget of them; the rest wait for the next call.
 */
static void hwt_cascade(struct hwt_wheel *w, unsigned int lvl,
			unsigned int idx, unsigned int *budget)
{
	struct hwt_level *l = &w->lvl[lvl];
	struct list_head *slot = &l->slot[idx];
	unsigned int moved = 0;

	/* hwt_move(), with the source's accounting done once for the lot */
	while (*budget && !list_empty(slot)) {
		struct hwt_node *n = list_first_entry(slot, struct hwt_node,
						      entry);

		list_move_tail(&n->entry,
			       hwt_place(w, n, hwt_wheel_key(w, n->expires)));
		(*budget)--;
		moved++;
	}
	w->pending -= moved;
	w->cascaded += moved;
	l->count -= moved;
	if (list_empty(slot)) {
		l->occupied &= ~BIT_ULL(idx);
		hwt_hook_occupancy(lvl, -(int)moved, -1);
	} else {
		hwt_hook_occupancy(lvl, -(int)moved, 0);
	}
	hwt_hook_cascade(w, lvl, idx, moved);
}

/**
 * hwt_wheel_pop() - take the next due node
 * @w: the wheel
 * @now: the current time
 * @budget: how many nodes this call may return or move; decremented for
 *	    each (see wheel.h)
 *
 * Advances the wheel's clock towards @now, cascading slots on the way, and
 * returns one node whose key is at or before @now. Call it until it returns
 * NULL; the caller may stop early and call again later. Once nothing is due,
 * the clock moves to @now's tick.
 *
 * Return: a due node, unlinked (its entry is an empty list), or NULL when
 * nothing is due at @now or *@budget is spent.
 */
struct hwt_node *hwt_wheel_pop(struct hwt_wheel *w, u64 now,
			       unsigned int *budget)
{
	u64 span = now - w->clk;

	if ((s64)span < 0)
		return NULL;

	while (*budget) {
		unsigned int idx = lvl_digit(w, 0, w->clk);
		struct list_head *cur = &w->lvl[0].slot[idx];
		unsigned int lvl, slot;
		u64 delta;

		if (!list_empty(cur)) {
			struct hwt_node *n = list_first_entry(cur,
							      struct hwt_node,
							      entry);

			(*budget)--;
			if (likely(hwt_wheel_key(w, n->expires) == w->clk)) {
				hwt_unlink(w, n);
				return n;
			}
			/* placed before the clock was set back: a later turn */
			hwt_move(w, n);
			continue;
		}

		delta = hwt_next_event(w, &lvl, &slot);
		if (delta > span) {
			hwt_advance(w, span & ~(hwt_wheel_tick(w) - 1));
			break;
		}
		hwt_advance(w, delta);
		span -= delta;
		if (unlikely(lvl == w->levels))
			hwt_unpark(w, budget);
		else if (lvl)
			hwt_cascade(w, lvl, slot, budget);
	}
	return NULL;
}

/**
 * hwt_wheel_next() - when the next node can be due
 * @w: the wheel
 * @when: set to that time if the wheel is not empty
 *
 * The time is a tick boundary and a lower bound: no node is due earlier, and
 * unless the earliest node of a slot was deleted or the clock was set back,
 * one is due at it.
 *
 * Return: false if the wheel is empty.
 */
bool hwt_wheel_next(const struct hwt_wheel *w, u64 *when)
{
	u64 best = U64_MAX;
	unsigned int lvl, slot, dist;

	if (!w->pending)
		return false;
	for (lvl = 0; lvl < w->levels; lvl++) {
		u64 t;

		if (!w->lvl[lvl].occupied)
			continue;
		dist = lvl_first(w, lvl, &slot);
		/* after a set-back, bounds may be of later turns: see wheel.h */
		t = lvl && !w->skewed ? w->lvl[lvl].first[slot] :
					lvl_event(w, lvl, dist);
		best = min(best, t - w->clk);
	}
	if (unlikely(w->nparked)) {
		if (!list_empty(&w->unparking))
			best = 0;
		else if (!list_empty(&w->parked))
			best = min(best, w->parked_min - w->clk);
	}
	*when = w->clk + best;
	return true;
}

/**
 * hwt_wheel_next_range() - the window in which the next nodes are due
 * @w: the wheel
 * @when: set to hwt_wheel_next()'s time
 * @latest: set to a time, at or after @when, by which the earliest nodes
 *	    must be returned: no node's deadline plus slack (or key, for a node
 *	    without slack) lies before it
 *
 * An owner that wakes at any time in [@when, @latest] and pops everything
 * due then returns every node neither early nor later than its slack
 * allows. Waking at @latest lets nodes whose windows overlap share that
 * wakeup: a burst of timers with 1 ms of slack costs about one wakeup per
 * millisecond, however many are due in it. Until a clock set back has
 * caught up, or while nodes are parked, @latest is @when.
 *
 * It looks at each level's occupied slots in clock order until one starts
 * after the window found so far ends: at most 64 per level, one bitmap
 * walk, and only as many as the earliest windows span.
 *
 * Return: false if the wheel is empty.
 */
bool hwt_wheel_next_range(const struct hwt_wheel *w, u64 *when, u64 *latest)
{
	u64 best = U64_MAX;
	unsigned int lvl;

	if (!hwt_wheel_next(w, when))
		return false;
	*latest = *when;
	if (unlikely(w->skewed || w->nparked))
		return true;
	for (lvl = 0; lvl < w->levels; lvl++) {
		const struct hwt_level *l = &w->lvl[lvl];
		unsigned int cur;
		u64 rot = lvl_rot(w, lvl, &cur);

		while (rot) {
			unsigned int dist = __ffs64(rot);
			unsigned int slot = (cur + dist) &
					    (lvl_slots(w, lvl) - 1);
			u64 first = lvl ? l->first[slot] :
					  lvl_event(w, 0, dist);

			/* every key from here on is at or after @best */
			if (first - w->clk >= best)
				break;
			best = min(best, l->late[slot] - w->clk);
			rot &= rot - 1;
		}
	}
	*latest = w->clk + max(best, *when - w->clk);
	return true;
}

/**
 * hwt_wheel_forward() - move the clock to @now if nothing is due before it
 * @w: the wheel
 * @now: the current time
 *
 * Placement is relative to the clock, so a clock that stayed behind while
 * the wheel idled would put new nodes on needlessly high levels. If
 * something is due at or before @now this does nothing: pop it first.
 * Adding nodes cannot change that, so until the clock moves otherwise, later
 * calls return at once instead of looking at every level again: owners
 * call this on every arm, and a wheel whose next cascade is due while its
 * first deadline is far away (nothing makes the owner pop it before then)
 * would otherwise pay for that look every time.
 */
void hwt_wheel_forward(struct hwt_wheel *w, u64 now)
{
	u64 span = (now & ~(hwt_wheel_tick(w) - 1)) - w->clk;
	unsigned int lvl, slot;

	if ((s64)span <= 0 || w->clk == w->stuck)
		return;
	if (hwt_next_event(w, &lvl, &slot) > span)
		hwt_advance(w, span);
	else
		w->stuck = w->clk;
}

/**
 * hwt_wheel_rebase() - move the clock back to @now
 * @w: the wheel
 * @now: the current time, before the wheel's clock
 *
 * For a clock that was set back (CLOCK_REALTIME): nodes keep their deadlines
 * on the clock's new scale. O(1): no node moves now; each is placed right
 * when the clock reaches its slot (see wheel.h).
 */
void hwt_wheel_rebase(struct hwt_wheel *w, u64 now)
{
	u64 clk = now & ~(hwt_wheel_tick(w) - 1);

	if ((s64)(clk - w->clk) >= 0)
		return;
	if (!w->skewed || (s64)(w->clk - w->high) > 0)
		w->high = w->clk;
	w->skewed = true;
	w->clk = clk;
}

/**
 * hwt_wheel_clear() - forget every node, without touching any
 * @w: the wheel
 *
 * For an owner that freed its nodes itself: the wheel is empty afterwards,
 * with the same geometry and clock.
 */
void hwt_wheel_clear(struct hwt_wheel *w)
{
	u64 (*slack_of)(const struct hwt_node *n);
	unsigned int lvl;

	for (lvl = 0; lvl < w->levels; lvl++)
		hwt_hook_occupancy(lvl, -(int)w->lvl[lvl].count,
				   -(int)hweight64(w->lvl[lvl].occupied));
	hwt_hook_occupancy(w->levels, -(int)w->nparked, 0);
	slack_of = w->slack_of;
	hwt_wheel_init(w, w->shift, w->levels, w->clk);
	w->slack_of = slack_of;
}

/**
 * hwt_period_next() - the next deadline of a periodic timer
 * @deadline: the deadline that fired
 * @fired: when it fired, at or after @deadline
 * @now: when the timer is re-armed, at or after @fired
 * @period: the period, > 0
 * @fixed_delay: false for fixed-rate, true for fixed-delay
 * @overruns: set to the number of whole periods missed
 *
 * Fixed-rate deadlines stay on the grid @deadline + k * @period; fixed-delay
 * ones are @fired + @period. Either way a period that ended at or before
 * @now is missed: it is counted in @overruns and never replayed, so a
 * re-arm after a long stall fires once, not in a burst.
 *
 * Return: the next deadline, after @now.
 */
u64 hwt_period_next(u64 deadline, u64 fired, u64 now, u64 period,
		    bool fixed_delay, u64 *overruns)
{
	u64 base = fixed_delay ? fired : deadline;
	u64 missed = 0;

	if ((s64)(now - (base + period)) >= 0)
		missed = div64_u64(now - base, period);
	*overruns = missed;
	return base + (missed + 1) * period;
}
