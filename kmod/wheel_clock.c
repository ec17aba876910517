// SPDX-License-Identifier: GPL-2.0
/*
 * hwtimer wheel core: its clock. What is due next, popping due nodes and
 * cascading the rest down the levels, moving the clock forward and back.
 * wheel.c places the nodes; see wheel.h for the design.
 *
 * hwt_wheel_pop(), hwt_wheel_next() and hwt_wheel_forward() are O(levels)
 * per slot they look at, and hwt_wheel_pop() moves or returns at most its
 * budget of nodes.
 */
#include <linux/bug.h>
#include <linux/kernel.h>
#include <linux/math64.h>

#include "wheel_impl.h"

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
 * Whether slot @slot of level @lvl >= 1, @dist slots ahead, is cascaded
 * ahead of its start: it is big enough (wheel.h), and not the clock's own
 * slot, whose cascade, if any, has begun.
 */
static inline bool lvl_early(const struct hwt_wheel *w, unsigned int lvl,
			     unsigned int slot, unsigned int dist)
{
	return dist && w->lvl[lvl].size[slot] >= HWT_CASCADE_EARLY;
}

/*
 * When the cascade of slot @slot of level @lvl >= 1, @dist slots ahead,
 * becomes due, as a distance from the clock: at the slot's start, or once
 * it is the next slot if it is cascaded early, which may be now.
 */
static inline u64 lvl_cascade_at(const struct hwt_wheel *w, unsigned int lvl,
				 unsigned int slot, unsigned int dist)
{
	if (!lvl_early(w, lvl, slot, dist))
		return lvl_event(w, lvl, dist) - w->clk;
	if (dist == 1)
		return 0;
	return lvl_event(w, lvl, dist - 1) - w->clk;
}

/**
 * struct hwt_early - a cascade that may be done ahead of its slot's start
 * @delta: from when, as a distance from the clock (U64_MAX: none)
 * @must: by when: the slot's start, as a distance from the clock
 * @lvl: its level
 * @slot: its slot
 */
struct hwt_early {
	u64 delta;
	u64 must;
	unsigned int lvl;
	unsigned int slot;
};

/*
 * The next thing the wheel must do: expire a level-0 slot, cascade a higher
 * one, or place parked nodes (level @w->levels). Return its distance from
 * the clock in ns (U64_MAX if the wheel is empty). When two levels tie, the
 * higher goes first, so that what it cascades lands before the tick is
 * expired. Only the first occupied slot of each level needs a look: a
 * later one is cascaded no earlier than the start of the slot before it.
 *
 * If @early is not NULL it gets, of the cascades that may be done ahead of
 * their slot's start (wheel.h) and may be done by @span from the clock,
 * the one whose start comes first. That one must be done by the start,
 * which counts as its event above, and may be done from @early->delta on:
 * none of its nodes is due before the start. hwt_wheel_next() names the
 * earliest of those times, so a pop at it always finds one.
 */
static u64 hwt_next_event(const struct hwt_wheel *w, unsigned int *lvlp,
			  unsigned int *slotp, struct hwt_early *early,
			  u64 span)
{
	u64 best = U64_MAX;
	unsigned int lvl, slot, dist;

	if (early) {
		early->delta = U64_MAX;
		early->must = U64_MAX;
	}
	for (lvl = 0; lvl < w->levels; lvl++) {
		u64 delta;

		if (!w->lvl[lvl].occupied)
			continue;
		dist = lvl_first(w, lvl, &slot);
		delta = lvl_event(w, lvl, dist) - w->clk;
		if (early && lvl && lvl_early(w, lvl, slot, dist) &&
		    lvl_cascade_at(w, lvl, slot, dist) <= span &&
		    delta <= early->must) {
			early->delta = lvl_cascade_at(w, lvl, slot, dist);
			early->must = delta;
			early->lvl = lvl;
			early->slot = slot;
		}
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
		/*
		 * The earliest parked key is half the horizon away. It fits
		 * from a tick after the horizon on, but a round then would
		 * place only the keys of that tick and park the rest again,
		 * to be walked again a tick later: with keys spread over the
		 * horizon, as many rounds as ticks. Half-way in, a round
		 * places every key of the half after it, so each parked node
		 * is walked about twice per horizon the clock moves.
		 */
		s64 delta = w->parked_min -
			    ((w->horizon / 2) & ~(hwt_wheel_tick(w) - 1)) -
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
 * most @budget of them; the rest wait for the next call. The clock is at
 * the slot's start, or before it for a slot cascaded early: either way
 * none of its nodes is placed back into it.
 */
static void hwt_cascade(struct hwt_wheel *w, unsigned int lvl,
			unsigned int idx, unsigned int *budget)
{
	struct hwt_level *l = &w->lvl[lvl];
	struct list_head *slot = &l->slot[idx];
	unsigned int moved = 0;

	/* hwt_move(), with the source's tally taken once for the lot */
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
	l->size[idx] -= moved;
	if (list_empty(slot)) {
		l->occupied &= ~BIT_ULL(idx);
		hwt_hook_occupancy(lvl, -(int)moved, -1);
	} else {
		hwt_hook_occupancy(lvl, -(int)moved, 0);
	}
	hwt_hook_cascade(w, lvl, idx, moved);
}

/*
 * Cascade a big slot ahead of its start (wheel.h), the clock being where
 * it may. With nothing else due it goes as far as the budget does. When
 * expiries are due they go first, and the clock is about to move on @next
 * ns to the next of them; the slot then gets its share of those ns first
 * (the caller asks once per tick, @w->paced): its nodes spread over the
 * time left before it starts, so that it is done by then however busy
 * that time is. @next is U64_MAX when nothing else is due.
 */
static void hwt_cascade_ahead(struct hwt_wheel *w,
			      const struct hwt_early *e, u64 next,
			      unsigned int *budget)
{
	unsigned int share = *budget, rest;
	u64 left = (e->must - e->delta) >> w->shift;
	u64 step = max_t(u64, next >> w->shift, 1);

	if (next != U64_MAX && step < left) {
		u64 parts = div64_u64(left, step);
		u32 size = w->lvl[e->lvl].size[e->slot];

		w->paced = w->clk;
		share = min_t(u64, share, div64_u64(size + parts - 1, parts));
	}
	rest = *budget - share;
	hwt_cascade(w, e->lvl, e->slot, &share);
	*budget = share + rest;
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
	struct hwt_early early;

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

		delta = hwt_next_event(w, &lvl, &slot, &early, span);
		if (early.delta <= min(span, delta) &&
		    (delta > span || (!lvl && w->paced != w->clk))) {
			u64 next = delta > span ? U64_MAX : delta - early.delta;

			hwt_advance(w, early.delta);
			span -= early.delta;
			hwt_cascade_ahead(w, &early, next, budget);
			continue;
		}
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
 * one is due at it, or a big slot is to be cascaded ahead of its start then
 * (wheel.h).
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
		if (!lvl)
			t = lvl_event(w, 0, dist) - w->clk;
		else if (lvl_early(w, lvl, slot, dist) || w->skewed)
			/* after a set-back, bounds may be of later turns */
			t = lvl_cascade_at(w, lvl, slot, dist);
		else
			t = w->lvl[lvl].first[slot] - w->clk;
		best = min(best, t);
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
			u64 first, late;

			if (!lvl) {
				first = lvl_event(w, 0, dist);
				late = l->late[slot];
			} else if (lvl_early(w, lvl, slot, dist)) {
				/*
				 * all of it is cascaded from the slot before
				 * on: wake then, not at its start, or the
				 * cascade would be the burst it is spread to
				 * avoid
				 */
				first = w->clk +
					lvl_cascade_at(w, lvl, slot, dist);
				late = first;
			} else {
				first = l->first[slot];
				late = l->late[slot];
			}
			/* every key from here on is at or after @best */
			if (first - w->clk >= best)
				break;
			best = min(best, late - w->clk);
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
	if (hwt_next_event(w, &lvl, &slot, NULL, span) > span)
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
