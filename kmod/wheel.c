// SPDX-License-Identifier: GPL-2.0
/*
 * hwtimer wheel core: placing nodes. Adding, removing and moving nodes,
 * each O(1); wheel_geometry.c sets the wheel up, wheel_clock.c moves the
 * clock. See wheel.h for the design.
 */
#include <linux/bug.h>
#include <linux/kernel.h>
#include <linux/math64.h>

#include "wheel_impl.h"

/*
 * Lower the latest-time bound of slot @idx of level @l for @n joining it
 * (@alone: as the slot's only node). The first node with slack starts the
 * bound, at the slot's earliest deadline, which is no later than the latest
 * time of any node without slack already there; from then on every node
 * lowers it.
 */
void hwt_slot_slack(struct hwt_wheel *w, struct hwt_level *l,
		    unsigned int idx, const struct hwt_node *n, bool alone)
{
	struct hwt_slot *s = &l->slot[idx];
	u64 late = hwt_wheel_late(w, n);

	w->slack_seen = true;
	if (!s->slack) {
		s->slack = true;
		l->late[idx] = alone ? late : s->first;
	}
	l->late[idx] = hwt_sooner(l->late[idx], late);
}

/* Park @n, whose key lies beyond the horizon (hwt_locate()). */
void hwt_park(struct hwt_wheel *w, struct hwt_node *n)
{
	n->lvl = w->levels;
	w->parked_min = list_empty(&w->parked) ? n->expires :
			hwt_earlier(w, w->parked_min, n->expires);
	list_add_tail(&n->entry, &w->parked);
	w->nparked++;
	hwt_hook_occupancy(w->levels, 1, 0);
}

/*
 * The slot of level @l that node @n, queued there, is in: the one its key
 * names, taken from the deadline (the rounding up to a tick does not move
 * a key across a slot of any level).
 */
static inline unsigned int hwt_idx_of(const struct hwt_wheel *w,
				      const struct hwt_level *l,
				      const struct hwt_node *n)
{
	return ((n->expires + w->tmask) >> l->shift) & l->mask;
}

/*
 * hwt_unlink() once slot @idx of level @lvl has @size nodes left: emptied,
 * or one less than a slot cascaded ahead of its start. Either changes what
 * the level has to do next; any other delete leaves that as it was (a
 * stale, lower bound of the slot's keys costs at most an early wakeup).
 */
static __always_inline void __hwt_unlinked(struct hwt_wheel *w,
					   unsigned int lvl, unsigned int idx,
					   u32 size)
{
	hwt_changed_lvl(w, lvl);
	if (!size) {
		hwt_slot_emptied(w, lvl, idx);
		hwt_hook_occupancy(lvl, 0, -1);
		/* it may have been what kept hwt_wheel_forward() back */
		w->stuck = w->clk - 1;
	}
}

static noinline void hwt_unlinked(struct hwt_wheel *w, unsigned int lvl,
				  unsigned int idx, u32 size)
{
	__hwt_unlinked(w, lvl, idx, size);
}

/*
 * Take node @n, of the clock's tick and passed over (HWT_LVL_LATER), out of
 * level 0's slot @w->later_idx, whether it is on @w->later or back in the
 * slot's list.
 */
static noinline void hwt_unlink_later(struct hwt_wheel *w, struct hwt_node *n)
{
	struct hwt_slot *s = &w->lvl[0].slot[w->later_idx];

	list_del_init(&n->entry);
	n->lvl = HWT_LVL_NONE;
	hwt_changed(w, 1);
	hwt_hook_occupancy(0, -1, 0);
	if (!--s->size) {
		hwt_slot_emptied(w, 0, w->later_idx);
		hwt_hook_occupancy(0, 0, -1);
		w->stuck = w->clk - 1;
	}
}

/* Take parked node @n out (hwt_unlink()). */
static noinline void hwt_unpark_one(struct hwt_wheel *w, struct hwt_node *n)
{
	list_del_init(&n->entry);
	n->lvl = HWT_LVL_NONE;
	/* parked_min may now be low: that costs one early rescan */
	w->nparked--;
	w->stuck = w->clk - 1;
	hwt_hook_occupancy(w->levels, -1, 0);
}

/*
 * Take node @n out of slot @idx of level @l, number @lvl, where it is;
 * @relink: to link it again at once, which sets its entry and level.
 */
static __always_inline void hwt_unlink_at(struct hwt_wheel *w,
					  struct hwt_node *n,
					  struct hwt_level *l,
					  unsigned int lvl, unsigned int idx,
					  bool relink)
{
	struct hwt_slot *s = &l->slot[idx];

	if (relink) {
		__list_del_entry(&n->entry);
	} else {
		list_del_init(&n->entry);
		n->lvl = HWT_LVL_NONE;
	}
	hwt_hook_occupancy(lvl, -1, 0);
	if (unlikely(!--s->size || s->size == HWT_CASCADE_EARLY - 1)) {
		/* out of line where nothing follows */
		if (relink)
			__hwt_unlinked(w, lvl, idx, s->size);
		else
			hwt_unlinked(w, lvl, idx, s->size);
	}
}

/* Take a queued node out of the wheel. */
static __always_inline void hwt_unlink(struct hwt_wheel *w,
				       struct hwt_node *n)
{
	unsigned int lvl = n->lvl;
	struct hwt_level *l;

	if (unlikely(lvl >= w->levels)) {
		if (lvl == w->levels)
			hwt_unpark_one(w, n);
		else
			hwt_unlink_later(w, n);
		return;
	}
	l = &w->lvl[lvl];
	hwt_unlink_at(w, n, l, lvl, hwt_idx_of(w, l, n), false);
}

/* Place a queued node again, relative to the clock as it is now. */
void hwt_move(struct hwt_wheel *w, struct hwt_node *n)
{
	u64 key = hwt_wheel_key(w, n->expires);
	unsigned int lvl, idx;

	hwt_unlink(w, n);
	hwt_locate(w, key, &lvl, &idx);
	hwt_link(w, n, lvl, idx);
	w->cascaded++;
}

/*
 * hwt_wheel_add() of a node whose key is not in (clock, horizon): in the
 * clock's own tick (raised to it if it has passed), or parked.
 */
static noinline bool hwt_add_far(struct hwt_wheel *w, struct hwt_node *n)
{
	u64 key = hwt_clamp(w, &n->expires);
	unsigned int lvl, idx;

	hwt_locate(w, key, &lvl, &idx);
	return hwt_link(w, n, lvl, idx);
}

/*
 * hwt_wheel_add() into slot @idx of level @l, number @lvl, where it is not
 * the first, and where neither it nor the slot has slack; the level is
 * marked changed already.
 */
static __always_inline bool hwt_link_more(struct hwt_wheel *w,
					  struct hwt_level *l,
					  unsigned int lvl, unsigned int idx,
					  struct hwt_node *n)
{
	struct hwt_slot *s = &l->slot[idx];
	u32 size = s->size + 1;

	n->lvl = lvl;
	s->size = size;
	list_add_tail(&n->entry, &s->head);
	hwt_hook_occupancy(lvl, 1, 0);
	if ((s64)(n->expires - s->first) < 0)
		s->first = n->expires;
	return unlikely(size == HWT_CASCADE_EARLY) && lvl;
}

/* hwt_link_slot() out of line: an empty slot, or slack */
static noinline bool hwt_link_new(struct hwt_wheel *w, struct hwt_level *l,
				  unsigned int lvl, unsigned int idx,
				  struct hwt_node *n)
{
	return hwt_link_slot(w, l, lvl, idx, n);
}

/*
 * Queue @n, whose key @key lies in (clock, horizon), in slot @idx of level
 * @lvl: the fast path of adding and moving a node.
 */
static __always_inline bool hwt_link_near(struct hwt_wheel *w,
					  struct hwt_node *n,
					  unsigned int lvl, unsigned int idx)
{
	struct hwt_level *l = &w->lvl[lvl];
	struct hwt_slot *s = &l->slot[idx];

	hwt_changed_lvl(w, lvl);
	if (unlikely(!s->size || n->slack || s->slack))
		return hwt_link_new(w, l, lvl, idx, n);
	return hwt_link_more(w, l, lvl, idx, n);
}

/*
 * Whether @key lies after the clock and before the horizon, where
 * hwt_level() places it: one compare.
 */
static inline bool hwt_near(const struct hwt_wheel *w, u64 key)
{
	return key - w->clk - 1 < w->horizon - 1;
}

/**
 * hwt_wheel_add() - queue a node
 * @w: the wheel
 * @n: a node not in any wheel, with @n->expires set
 *
 * A deadline in a tick before the clock's is raised to the first time of
 * the clock's tick, which has begun: the node is due at once. The caller
 * has checked @n->expires against hwt_wheel_horizon().
 *
 * Return: hwt_wheel_early() of @n.
 */
bool hwt_wheel_add(struct hwt_wheel *w, struct hwt_node *n)
{
	u64 key = hwt_wheel_key(w, n->expires);
	unsigned int lvl;

	if (unlikely(!hwt_near(w, key)))
		return hwt_add_far(w, n);
	lvl = hwt_level(w, key, w->clk);
	return hwt_link_near(w, n, lvl, lvl_idx(&w->lvl[lvl], key));
}

/**
 * hwt_wheel_early() - whether queueing @n made its slot one cascaded early
 * @w: the wheel
 * @n: a node just queued by hwt_wheel_add() or hwt_wheel_mod()
 *
 * Such a slot may be cascaded from the start of the slot before it
 * (hwt_wheel_ahead()), which may come before any deadline the owner has
 * armed for: an owner that cascades ahead then arms for
 * hwt_wheel_next_ahead() too.
 *
 * Return: true if @n's slot on a level >= 1 has just reached
 * HWT_CASCADE_EARLY nodes.
 */
bool hwt_wheel_early(const struct hwt_wheel *w, const struct hwt_node *n)
{
	unsigned int lvl = n->lvl;
	const struct hwt_level *l;

	if (!lvl || lvl >= w->levels)
		return false;
	l = &w->lvl[lvl];
	return l->slot[lvl_idx(l, hwt_wheel_key(w, n->expires))].size ==
	       HWT_CASCADE_EARLY;
}

/* hwt_wheel_del() of a node parked, passed over in its tick, or in no wheel */
static noinline void hwt_del_far(struct hwt_wheel *w, struct hwt_node *n)
{
	if (n->lvl == HWT_LVL_LATER)
		hwt_unlink_later(w, n);
	else if (!WARN_ON_ONCE(n->lvl != w->levels))
		hwt_unpark_one(w, n);
}

/**
 * hwt_wheel_del() - unlink a queued node
 * @w: the wheel
 * @n: a node queued in @w
 */
void hwt_wheel_del(struct hwt_wheel *w, struct hwt_node *n)
{
	if (unlikely(n->lvl >= w->levels)) {
		hwt_del_far(w, n);
		return;
	}
	hwt_unlink(w, n);
}

/*
 * hwt_wheel_mod() of a node parked or passed over in its tick, or of a
 * deadline not near (hwt_near())
 */
static noinline bool hwt_mod_far(struct hwt_wheel *w, struct hwt_node *n,
				 u64 expires)
{
	unsigned int olvl = n->lvl, lvl, idx;
	u64 key;

	if (WARN_ON_ONCE(olvl > w->levels && olvl != HWT_LVL_LATER))
		return false;
	key = hwt_clamp(w, &expires);
	hwt_locate(w, key, &lvl, &idx);
	if (lvl == olvl && lvl == w->levels) {
		n->expires = expires;
		w->parked_min = hwt_earlier(w, w->parked_min, expires);
		/* it may be in a round of placing cut short: that ends sooner */
		if (!list_empty(&w->unparking))
			w->unpark_by = hwt_earlier(w, w->unpark_by,
						   key - hwt_wheel_tick(w));
		return true;
	}
	if (lvl == olvl && idx == hwt_idx_of(w, &w->lvl[lvl], n)) {
		n->expires = expires;
		hwt_changed_lvl(w, lvl);
		hwt_slot_bounds(w, &w->lvl[lvl], &w->lvl[lvl].slot[idx], idx, n);
		return true;
	}
	hwt_unlink(w, n);
	n->expires = expires;
	hwt_link(w, n, lvl, idx);
	return false;
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
	unsigned int olvl = n->lvl, oidx, lvl;
	u64 key = hwt_wheel_key(w, expires);
	struct hwt_level *ol;

	if (unlikely(olvl >= w->levels || !hwt_near(w, key)))
		return hwt_mod_far(w, n, expires);
	ol = &w->lvl[olvl];
	oidx = hwt_idx_of(w, ol, n);
	if (!((key ^ (n->expires + w->tmask)) >> ol->shift)) {
		/*
		 * the same slot, of the same turn (after a set-back too): a
		 * node may stay where it is even if the clock has moved so
		 * far that it could go lower. The slot's bounds may be
		 * lowered: its wake-up too.
		 */
		n->expires = expires;
		hwt_changed_lvl(w, olvl);
		hwt_slot_bounds(w, ol, &ol->slot[oidx], oidx, n);
		return true;
	}
	hwt_unlink_at(w, n, ol, olvl, oidx, true);
	n->expires = expires;
	lvl = hwt_level(w, key, w->clk);
	hwt_link_near(w, n, lvl, lvl_idx(&w->lvl[lvl], key));
	return false;
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
