// SPDX-License-Identifier: GPL-2.0
/*
 * hwtimer wheel core: looking up what each level has to do next, and
 * answering when the wheel must be woken: for due nodes
 * (hwt_wheel_next(), hwt_wheel_next_range()) and for cascading ahead
 * (hwt_wheel_next_ahead()). See wheel_look.h, and wheel.h for the design.
 */
#include <linux/bug.h>
#include <linux/kernel.h>

#include "wheel_look.h"

/*
 * hwt_lvl_refresh() of a level >= 1 whose first slot in clock order is the
 * clock's own: left half cascaded, reached by the clock at its start and
 * not cascaded yet, or holding a later turn's nodes after a set-back.
 */
void hwt_lvl_refresh_own(struct hwt_wheel *w, unsigned int lvl)
{
	struct hwt_events *ev = &w->ev;
	const struct hwt_level *l = &w->lvl[lvl];
	unsigned int slot, dist = lvl_first(w, lvl, &slot);
	u64 must;

	ev->slot[lvl] = slot;
	ev->early &= ~BIT(lvl);
	if (lvl_half_cascaded(w, lvl)) {
		/*
		 * the rest of it may go on at once, and must by its first key;
		 * at once after a set-back, when that bound may be a later
		 * turn's and would hide the level's other slots
		 */
		u64 first = l->slot[slot].first;

		must = unlikely(w->skewed) ? w->clk : hwt_wheel_key(w, first);
		ev->early |= BIT(lvl);
		ev->may[lvl] = w->clk;
		ev->wake[lvl] = unlikely(w->skewed) ? must : first;
	} else {
		/* its start, or after a set-back into it, its next turn's */
		must = lvl_event(w, lvl, dist);
		if (lvl_early(w, lvl, slot, dist)) {
			ev->early |= BIT(lvl);
			ev->may[lvl] = lvl_event(w, lvl, dist - 1);
		}
		ev->wake[lvl] = must;
	}
	ev->must[lvl] = must;
	w->fresh |= BIT(lvl);
}

/*
 * When level 0 wakes for its own slot after a set-back: its bound holds its
 * nodes, but some may be of a later turn, and the slots ahead must not wait
 * for those: no later than the next occupied slot's start either.
 */
u64 hwt_own_wake_skewed(const struct hwt_wheel *w)
{
	const struct hwt_level *l = &w->lvl[0];
	unsigned int cur = lvl_idx(l, w->clk);
	u64 rot = lvl_rot(l, cur) & ~1ULL, first = l->slot[cur].first;

	if (!rot)
		return first;
	return hwt_sooner(first, w->clk + ((u64)__ffs64(rot) << l->shift));
}

/* __hwt_lvl_refresh() out of line, for a look at every level */
void hwt_lvl_refresh(struct hwt_wheel *w, unsigned int lvl)
{
	__hwt_lvl_refresh(w, lvl);
}

/*
 * Look up the next event of every occupied level whose entries are stale,
 * and the earliest of them all.
 */
void hwt_events_look(struct hwt_wheel *w)
{
	struct hwt_events *ev = &w->ev;
	u64 stale, levels, best, second, clk = w->clk;
	unsigned int bl = ev->best_lvl;
	s64 others = S64_MAX, wake = S64_MAX;	/* none */

	/* the earliest event's level alone changed */
	if (bl < HWT_LEVELS_MAX && hwt_events_kept(w, bl))
		return;
	for (stale = w->occupied & ~w->fresh; stale; stale &= stale - 1)
		hwt_lvl_refresh(w, __ffs64(stale));
	bl = HWT_LVL_NONE;
	hwt_hook_combine();
	best = U64_MAX;
	second = U64_MAX;
	for (levels = w->occupied; levels; levels &= levels - 1) {
		unsigned int lvl = __ffs64(levels);
		u64 must = ev->must[lvl] - clk;
		/* a wake-up may lie behind the clock, in its own tick */
		s64 wk = ev->wake[lvl] - clk;

		if (must < best) {
			second = best;
			best = must;
			bl = lvl;
			others = min(others, wake);
			wake = wk;
		} else {
			if (must < second)
				second = must;
			others = min(others, wk);
		}
	}
	ev->best = clk + best;
	ev->best_lvl = bl;
	ev->second = clk + second;
	ev->others = clk + others;
	ev->soonest = clk + min(others, wake);
	best = U64_MAX;
	for (levels = ev->early & w->occupied; levels; levels &= levels - 1)
		best = min(best, hwt_ahead(w, ev->may[__ffs64(levels)]));
	ev->may_min = clk + best;	/* meaningless without early levels */
	w->fresh = ~0U;		/* empty levels too: they are known to be */
}

/**
 * hwt_wheel_next_ahead() - when cascading ahead may next begin
 * @w: the wheel
 * @when: set to that time, at or after the wheel's clock, if there is any
 *
 * The earliest time at which hwt_wheel_ahead() would find work, if nothing
 * is added or removed meanwhile: the start of the slot before a big one, or
 * the start of the clock's tick for a slot that may go on now.
 * hwt_wheel_next() leaves these times out. An owner that wants big slots
 * cascaded in the gaps between expiries, rather than at their first keys,
 * wakes at the earlier of the two.
 *
 * Return: false if no slot is big enough to be cascaded ahead.
 */
bool hwt_wheel_next_ahead(struct hwt_wheel *w, u64 *when)
{
	u64 may;

	hwt_events_refresh(w);
	if (likely(!(w->ev.early & w->occupied)))
		return false;
	may = hwt_ahead(w, w->ev.may_min);
	*when = may ? w->clk + may : w->clk - w->tmask;
	return true;
}

/**
 * hwt_wheel_next() - when the next node can be due
 * @w: the wheel
 * @when: set to that time if the wheel is not empty
 *
 * The time is a lower bound of the deadlines: no node is due earlier, and
 * unless the earliest node of a slot was deleted or the clock was set back,
 * one is due at it, or parked nodes must be placed then. It may lie before
 * the clock, in the clock's own tick, which has not ended. Cascades that
 * may be done ahead of time are left out (hwt_wheel_next_ahead()).
 *
 * Return: false if the wheel is empty.
 */
bool hwt_wheel_next(struct hwt_wheel *w, u64 *when)
{
	s64 best = S64_MAX;

	if (hwt_wheel_empty(w))
		return false;
	hwt_events_refresh(w);
	if (likely(!w->nparked)) {
		/* a level has nodes: it has an event */
		*when = w->ev.soonest;
		return true;
	}
	if (w->ev.best_lvl != HWT_LVL_NONE)
		best = w->ev.soonest - w->clk;
	if (!list_empty(&w->unparking))
		best = min_t(s64, best, w->unpark_by - w->clk);
	if (!list_empty(&w->parked))
		best = min_t(s64, best, w->parked_min - w->clk);
	*when = w->clk + best;
	return true;
}

/**
 * hwt_wheel_next_range() - the window in which the next nodes are due
 * @w: the wheel
 * @when: set to hwt_wheel_next()'s time
 * @latest: set to a time, at or after @when, by which the earliest nodes
 *	    must be returned: no node's deadline plus slack (its deadline, for a
 *	    node without slack) lies before it
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
bool hwt_wheel_next_range(struct hwt_wheel *w, u64 *when, u64 *latest)
{
	u64 levels = w->occupied;
	s64 best = S64_MAX;

	if (!hwt_wheel_next(w, when)) {
		/* no node: none has slack */
		w->slack_seen = false;
		return false;
	}
	*latest = *when;
	/* without slack a node is due by its deadline, the earliest @when */
	if (likely(!w->slack_seen) || unlikely(w->skewed || w->nparked))
		return true;
	while (levels) {
		unsigned int lvl = __ffs64(levels);
		const struct hwt_level *l = &w->lvl[lvl];
		unsigned int cur = lvl_idx(l, w->clk);
		u64 rot = lvl_rot(l, cur);

		levels &= levels - 1;
		while (rot) {
			unsigned int d = __ffs64(rot);
			unsigned int slot = (cur + d) & l->mask;
			/* every deadline from here on is at or after @best */
			if ((s64)(l->slot[slot].first - w->clk) >= best)
				break;
			best = min_t(s64, best, hwt_slot_late(l, slot) - w->clk);
			rot &= rot - 1;
		}
	}
	*latest = w->clk + max_t(s64, best, *when - w->clk);
	return true;
}

