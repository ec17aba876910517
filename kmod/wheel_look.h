/* SPDX-License-Identifier: GPL-2.0 */
/*
 * hwtimer wheel core: what each level has to do next, and when (struct
 * hwt_events), as the two halves that move the clock share it:
 * wheel_look.c looks the events up and answers hwt_wheel_next() and its
 * kin, wheel_clock.c and wheel_cascade.c pop and cascade by them. The looks that every pop
 * makes are inline here; see wheel.h for the design.
 */
#ifndef _HWT_WHEEL_LOOK_H
#define _HWT_WHEEL_LOOK_H

#include "wheel_impl.h"

/* wheel_look.c: the looks out of line */
HWT_WHEEL_SCOPE void hwt_lvl_refresh_own(struct hwt_wheel *w, unsigned int lvl);
HWT_WHEEL_SCOPE u64 hwt_own_wake_skewed(const struct hwt_wheel *w);
HWT_WHEEL_SCOPE void hwt_lvl_refresh(struct hwt_wheel *w, unsigned int lvl);
HWT_WHEEL_SCOPE void hwt_events_look(struct hwt_wheel *w);

/*
 * Whether the clock's own slot of level @lvl >= 1 is the one whose cascade
 * was left unfinished when the clock reached its start: the clock may then
 * be inside it, up to its first key (wheel.h).
 */
static inline bool lvl_half_cascaded(const struct hwt_wheel *w,
				     unsigned int lvl)
{
	return unlikely(w->cascading & BIT(lvl)) &&
	       lvl_start(&w->lvl[lvl], w->clk) == w->casc_at[lvl];
}

/*
 * The occupied slots of level @l as distances from slot @cur: bit d is set
 * if the slot d slots ahead (modulo the level's slots) is occupied.
 */
static inline u64 lvl_rot(const struct hwt_level *l, unsigned int cur)
{
	u64 occ = l->occupied, rot;

	if (likely(l->mask == HWT_LVL_SIZE - 1))
		return ror64(occ, cur);
	/* a top level of fewer slots */
	rot = occ >> cur;
	if (cur)
		rot |= occ << (l->mask + 1 - cur);
	return rot & ((2ULL << l->mask) - 1);
}

/*
 * First occupied slot of level @lvl in clock order, and its distance in
 * slots from the clock's own slot. The clock's own slot on a level >= 1
 * holds nodes in two cases only: its cascade started when the clock reached
 * its start and is not finished (distance 0), or the clock was set back
 * into it and its nodes belong to its next turn (distance: a whole turn).
 */
static inline unsigned int lvl_first(const struct hwt_wheel *w,
				     unsigned int lvl, unsigned int *slot)
{
	const struct hwt_level *l = &w->lvl[lvl];
	unsigned int cur = lvl_idx(l, w->clk), dist;
	u64 rot = lvl_rot(l, cur);

	dist = __ffs64(rot);
	if (unlikely(!dist) && (w->clk & ((1ULL << l->shift) - 1)) &&
	    !lvl_half_cascaded(w, lvl)) {
		/* set back into the middle of it: its next turn */
		rot &= ~1ULL;
		dist = rot ? __ffs64(rot) : l->mask + 1;
	}
	*slot = (cur + dist) & l->mask;
	return dist;
}

/* When the clock reaches the start of slot @dist slots ahead on @lvl. */
static inline u64 lvl_event(const struct hwt_wheel *w, unsigned int lvl,
			    unsigned int dist)
{
	const struct hwt_level *l = &w->lvl[lvl];

	return lvl_start(l, w->clk) + ((u64)dist << l->shift);
}

/*
 * Whether slot @slot of level @lvl >= 1, @dist slots ahead, is cascaded
 * ahead of its start: it is big enough (wheel.h), and not the clock's own
 * slot, whose cascade, if any, has begun.
 */
static inline bool lvl_early(const struct hwt_wheel *w, unsigned int lvl,
			     unsigned int slot, unsigned int dist)
{
	return dist && w->lvl[lvl].slot[slot].size >= HWT_CASCADE_EARLY;
}

/*
 * Look up level @lvl's next event and keep it (struct hwt_events): until
 * something on the level changes, the clock moving on does not change it.
 * A change to the level clears its bit of @w->fresh, and a rebase or the
 * end of a set-back clears them all. The clock's own slot of a level >= 1
 * is left to hwt_lvl_refresh_own().
 */
static __always_inline void __hwt_lvl_refresh(struct hwt_wheel *w,
					      unsigned int lvl)
{
	struct hwt_events *ev = &w->ev;
	const struct hwt_level *l = &w->lvl[lvl];
	unsigned int cur = lvl_idx(l, w->clk), dist, slot;
	const u64 step = 1ULL << l->shift;
	const struct hwt_slot *s;
	u32 bit = BIT(lvl), early = 0;
	u64 must;

	hwt_hook_look();
	dist = __ffs64(lvl_rot(l, cur));
	slot = (cur + dist) & l->mask;
	s = &l->slot[slot];
	must = lvl_start(l, w->clk) + dist * step;
	if (unlikely(!dist)) {
		if (lvl) {
			hwt_lvl_refresh_own(w, lvl);
			return;
		}
		/*
		 * Level 0's own slot is looked at first by every pop, each
		 * node once its deadline has come: what the clock must do
		 * next there is to go on to the next tick.
		 */
		must += step;
	}
	if (unlikely(s->size >= HWT_CASCADE_EARLY) && lvl) {
		/* from the start of the slot before it */
		early = bit;
		ev->may[lvl] = must - step;
	}
	ev->slot[lvl] = slot;
	ev->must[lvl] = must;
	/*
	 * when its earliest deadline comes; after a set-back, bounds of slots
	 * ahead may be of later turns
	 */
	ev->wake[lvl] = s->first;
	if (unlikely(w->skewed))
		ev->wake[lvl] = dist ? must : hwt_own_wake_skewed(w);
	ev->early = (ev->early & ~bit) | early;
	w->fresh |= bit;
}

/* A time kept by hwt_lvl_refresh() as a distance from the clock, 0 if past. */
static inline u64 hwt_ahead(const struct hwt_wheel *w, u64 t)
{
	return (s64)(t - w->clk) > 0 ? t - w->clk : 0;
}

/*
 * Only @lvl, the level of the earliest event, changed: a node was taken
 * from it. Look at it alone. If it still has the earliest event (ties
 * going to the lower level) and nothing to cascade ahead before or after,
 * every other level's entries stand, and so do @second and @others: the
 * earliest must is its, and the soonest wake the earlier of its and
 * @others. Return false when every level's must be compared again.
 */
static __always_inline bool hwt_events_again(struct hwt_wheel *w,
					     unsigned int lvl)
{
	struct hwt_events *ev = &w->ev;
	u64 clk = w->clk, second = ev->second - clk, must;

	if (unlikely(ev->early & BIT(lvl)))
		return false;
	__hwt_lvl_refresh(w, lvl);
	must = ev->must[lvl] - clk;
	if (unlikely(ev->early & BIT(lvl)) || must > second ||
	    (must == second && lvl))
		return false;
	ev->best = ev->must[lvl];
	/* relative to the clock: @others may be the clock + S64_MAX, none */
	ev->soonest = clk + min_t(s64, ev->wake[lvl] - clk, ev->others - clk);
	w->fresh |= HWT_FRESH_BEST;
	return true;
}

/*
 * hwt_events_again() where it applies: @lvl alone changed, and it still
 * has nodes (the fresh bits of levels seen empty stay set, so a level
 * emptied counts as changed). Return false when every level's must be
 * looked at.
 */
static __always_inline bool hwt_events_kept(struct hwt_wheel *w,
					    unsigned int lvl)
{
	return ~w->fresh == (BIT(lvl) | HWT_FRESH_BEST) &&
	       (w->occupied & BIT(lvl)) && hwt_events_again(w, lvl);
}

/* The events of every level, unless nothing changed since the last look. */
static __always_inline void hwt_events_refresh(struct hwt_wheel *w)
{
	if (unlikely(!(w->fresh & HWT_FRESH_BEST)))
		hwt_events_look(w);
}

/*
 * hwt_events_refresh() once a pop took a node from level @lvl, whose event
 * was the earliest: for the pop after it, which then knows at once that
 * nothing more is due.
 */
static __always_inline void hwt_events_popped(struct hwt_wheel *w,
					      unsigned int lvl)
{
	if (!hwt_events_kept(w, lvl))
		hwt_events_look(w);
}

/*
 * The next thing the wheel must do: expire a level-0 slot, cascade a higher
 * one, or place parked nodes (level @w->levels). Return its distance from
 * the clock in ns (U64_MAX if the wheel is empty). When two levels tie, the
 * lower goes first: a tick's due nodes are returned before a cascade that
 * may bring more of the same tick, which then go on being returned (the
 * order within a tick is free). Only the first occupied slot of each level
 * needs a look: a later one is cascaded no earlier than the start of the
 * slot before it. A slot left half cascaded must be finished before the
 * clock passes its first key, and not before: the clock may go into it
 * until then, so that nodes due in it are returned as the cascade reaches
 * them, not after the whole slot has moved. Cascades that may be done
 * ahead of that (hwt_wheel_ahead()) are not something the wheel must do.
 */
static __always_inline u64 hwt_next_event(struct hwt_wheel *w,
					  unsigned int *lvlp,
					  unsigned int *slotp)
{
	const struct hwt_events *ev = &w->ev;
	u64 best = U64_MAX;

	hwt_events_refresh(w);
	*lvlp = 0;
	*slotp = 0;
	if (likely(ev->best_lvl != HWT_LVL_NONE)) {
		best = ev->best - w->clk;
		*lvlp = ev->best_lvl;
		*slotp = ev->slot[ev->best_lvl];
	}
	if (likely(!w->nparked))
		return best;
	if (!list_empty(&w->unparking)) {
		/* placing parked nodes was cut short: after what is due first */
		s64 delta = w->unpark_by - w->clk;

		if ((u64)max_t(s64, delta, 0) <= best) {
			best = max_t(s64, delta, 0);
			*lvlp = w->levels;
			*slotp = 0;
		}
	}
	if (!list_empty(&w->parked)) {
		/*
		 * The earliest parked key is half the horizon away. It fits
		 * from a tick after the horizon on, but a round then would
		 * place only the keys of that tick and park the rest again,
		 * to be walked again a tick later: with keys spread over the
		 * horizon, as many rounds as ticks. Half-way in, a round
		 * places every key of the half after it, so each parked node
		 * is walked about twice per horizon the clock moves.
		 */
		s64 delta = hwt_wheel_key(w, w->parked_min) -
			    ((w->horizon / 2) & ~w->tmask) -
			    w->clk;

		if ((u64)max_t(s64, delta, 0) <= best) {
			best = max_t(s64, delta, 0);
			*lvlp = w->levels;
			*slotp = 0;
		}
	}
	return best;
}

#endif /* _HWT_WHEEL_LOOK_H */
