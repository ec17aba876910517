/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the parts of the wheel core share, and nobody else sees:
 * wheel_geometry.c sets the wheel up (geometry, init, clear), wheel.c
 * places nodes (add, del, mod), wheel_look.c finds each level's
 * next event (wheel_look.h), wheel_clock.c moves the clock (pop, forward,
 * rebase), wheel_cascade.c moves slots' nodes down the levels. They need
 * the level arithmetic below and each other's node movers.
 */
#ifndef _HWT_WHEEL_IMPL_H
#define _HWT_WHEEL_IMPL_H

#include <linux/bitops.h>
#include <linux/build_bug.h>
#include <linux/list.h>

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

/*
 * Looks at the levels (wheel_look.c, wheel_look.h): one level's next event
 * found again, and the earliest of all levels' found again. Counted in the
 * counting builds alone (HWT_WHEEL_COUNT): bench/core_bench.c, which
 * reports them per operation beside its instruction counts, and
 * tests/kunit/wheel_look_kunit.c.
 */
#ifdef HWT_WHEEL_COUNT
extern unsigned long hwt_count_looks, hwt_count_combines;

static inline void hwt_hook_look(void)
{
	hwt_count_looks++;
}

static inline void hwt_hook_combine(void)
{
	hwt_count_combines++;
}
#else
static inline void hwt_hook_look(void)
{
}

static inline void hwt_hook_combine(void)
{
}
#endif

static_assert(HWT_LEVELS_MAX < HWT_LVL_LATER, "struct hwt_node.lvl is too narrow");
static_assert(HWT_LEVELS_MAX < 31, "struct hwt_wheel.fresh is too narrow");

/* Levels @mask changed: what they have to do next is no longer known. */
static inline void hwt_changed(struct hwt_wheel *w, unsigned int mask)
{
	w->fresh &= ~(mask | HWT_FRESH_BEST);
}

/* hwt_changed() of one level, as one load and one and */
static_assert(HWT_LEVELS_MAX <= 14, "hwt_keep[] is too short");
#define HWT_KEEP(l)	(~((1U << (l)) | (unsigned int)HWT_FRESH_BEST))
static const unsigned int hwt_keep[14] = {
	HWT_KEEP(0), HWT_KEEP(1), HWT_KEEP(2), HWT_KEEP(3), HWT_KEEP(4),
	HWT_KEEP(5), HWT_KEEP(6), HWT_KEEP(7), HWT_KEEP(8), HWT_KEEP(9),
	HWT_KEEP(10), HWT_KEEP(11), HWT_KEEP(12), HWT_KEEP(13),
};

#undef HWT_KEEP

static inline void hwt_changed_lvl(struct hwt_wheel *w, unsigned int lvl)
{
	w->fresh &= hwt_keep[lvl];
}

/* The slot of level @l that time @t falls in. */
static inline unsigned int lvl_idx(const struct hwt_level *l, u64 t)
{
	return (t >> l->shift) & l->mask;
}

/* The start of the slot of level @l that time @t falls in. */
static inline u64 lvl_start(const struct hwt_level *l, u64 t)
{
	return t & ~((1ULL << l->shift) - 1);
}

/*
 * The level of a key at or after the clock and before the horizon
 * (hwt_wheel_horizon()): the lowest whose slot of it is fewer than 64
 * slots ahead of the clock's (wheel.h). A key equal to the clock is due
 * now and lives in level 0's current slot. The slots ahead on level L are
 * those ahead on level 0 divided by 32^L, or one more: the highest bit of
 * how far ahead the key is names L (@lvl_of_bit), and the clock's place in
 * its slot of L may bump it one up. The horizon keeps both at or below the
 * top level for every geometry (wheel_kunit checks it): with fewer levels
 * the top's slots ahead stay below 63; with all of them the top is never
 * bumped from (@lspan).
 */
static __always_inline unsigned int hwt_level(const struct hwt_wheel *w,
					      u64 key, u64 clk)
{
	u64 ahead = key - clk;
	unsigned int lvl = w->lvl_of_bit[__fls(ahead | 1)];

	/* slots ahead: what the clock is into its slot, and @ahead on */
	if ((clk & w->lsub[lvl]) + ahead >= w->lspan[lvl])
		lvl++;
	return lvl;
}

/* Earlier of two times, both at or after the clock. */
static inline u64 hwt_earlier(const struct hwt_wheel *w, u64 a, u64 b)
{
	return a - w->clk < b - w->clk ? a : b;
}

/*
 * Earlier of two deadlines, which may lie up to a tick before the clock
 * (the clock's own tick is the one @now is in: wheel.h).
 */
static inline u64 hwt_sooner(u64 a, u64 b)
{
	return (s64)(a - b) < 0 ? a : b;
}

/* Move the clock forward by @delta ns. */
static inline void hwt_advance(struct hwt_wheel *w, u64 delta)
{
	w->clk += delta;
	if (unlikely(w->skewed) && (s64)(w->clk - w->high) >= 0) {
		w->skewed = false;
		hwt_changed(w, ~0U);	/* bounds of slots mean what they say again */
	}
}

/*
 * Raise a deadline that falls in a tick before the clock's to the first
 * time of the clock's own tick, which has begun (wheel.h): due at once, in
 * that tick's slot. Return its key.
 */
static inline u64 hwt_clamp(const struct hwt_wheel *w, u64 *expires)
{
	u64 key = hwt_wheel_key(w, *expires);

	if (unlikely((s64)(key - w->clk) < 0)) {
		*expires = w->clk - w->tmask;
		key = w->clk;
	}
	return key;
}

/*
 * The slot a key goes to now, relative to the clock: its level in *@lvlp
 * and its index in *@idxp. A key at or beyond the horizon (only with fewer
 * levels than cover all of time, after the clock was set back or a
 * periodic timer was re-armed far ahead) cannot be placed: it goes to
 * @w->parked, level @w->levels. The clock never passes the moment the
 * earliest parked key comes within the horizon without placing it.
 */
static __always_inline void hwt_locate(const struct hwt_wheel *w, u64 key,
				       unsigned int *lvlp, unsigned int *idxp)
{
	unsigned int lvl;

	if (unlikely(key - w->clk >= w->horizon)) {
		*lvlp = w->levels;
		*idxp = 0;
		return;
	}
	lvl = hwt_level(w, key, w->clk);
	*lvlp = lvl;
	*idxp = lvl_idx(&w->lvl[lvl], key);
}

/* The bound of the latest times of the nodes in slot @idx of level @l. */
static inline u64 hwt_slot_late(const struct hwt_level *l, unsigned int idx)
{
	return l->slot[idx].slack ? l->late[idx] : l->slot[idx].first;
}

/* wheel.c: the latest-time bound of a slot that holds or gets slack */
HWT_WHEEL_SCOPE void hwt_slot_slack(struct hwt_wheel *w, struct hwt_level *l,
				    unsigned int idx, const struct hwt_node *n,
				    bool alone);

/*
 * Lower the bounds of slot @s (@idx of level @l), not empty, for @n
 * joining it: its earliest deadline, and with slack its latest times.
 */
static __always_inline void hwt_slot_bounds(struct hwt_wheel *w,
					    struct hwt_level *l,
					    struct hwt_slot *s,
					    unsigned int idx,
					    const struct hwt_node *n)
{
	if ((s64)(n->expires - s->first) < 0)
		s->first = n->expires;
	if (unlikely(n->slack | s->slack))
		hwt_slot_slack(w, l, idx, n, false);
}

/*
 * Queue @n, whose key is not before the clock, in slot @idx of level @l,
 * number @lvl < @w->levels: link it last and count it. Its entry is on no
 * list. The caller marks the level changed (hwt_changed()).
 * Return: true if the slot, on a level >= 1, has just become big enough to
 * be cascaded ahead of its start (HWT_CASCADE_EARLY).
 */
static __always_inline bool hwt_link_slot(struct hwt_wheel *w,
					  struct hwt_level *l,
					  unsigned int lvl, unsigned int idx,
					  struct hwt_node *n)
{
	struct hwt_slot *s = &l->slot[idx];
	u32 size = s->size;

	n->lvl = lvl;
	s->size = size + 1;
	list_add_tail(&n->entry, &s->head);
	if (!size) {
		l->occupied |= BIT_ULL(idx);
		w->occupied |= BIT(lvl);
		s->first = n->expires;
		s->slack = false;
		if (unlikely(n->slack))
			hwt_slot_slack(w, l, idx, n, true);
		hwt_hook_occupancy(lvl, 1, 1);
		return false;
	}
	hwt_slot_bounds(w, l, s, idx, n);
	hwt_hook_occupancy(lvl, 1, 0);
	return unlikely(size + 1 == HWT_CASCADE_EARLY) && lvl;
}

/*
 * Slot @idx of level @lvl has just lost its last node: it is no longer
 * occupied, nor half cascaded.
 */
static __always_inline void hwt_slot_emptied(struct hwt_wheel *w,
					     unsigned int lvl,
					     unsigned int idx)
{
	struct hwt_level *l = &w->lvl[lvl];

	l->occupied &= ~BIT_ULL(idx);
	if (!l->occupied)
		w->occupied &= ~BIT(lvl);
	if (unlikely(w->cascading & BIT(lvl)) &&
	    idx == lvl_idx(l, w->casc_at[lvl]))
		w->cascading &= ~BIT(lvl);
}

/* wheel.c: parking and moving nodes */
HWT_WHEEL_SCOPE void hwt_park(struct hwt_wheel *w, struct hwt_node *n);
HWT_WHEEL_SCOPE void hwt_move(struct hwt_wheel *w, struct hwt_node *n);
/* wheel_cascade.c: a slot's nodes one level down, as far as @budget goes */
HWT_WHEEL_SCOPE void hwt_cascade(struct hwt_wheel *w, unsigned int lvl,
				 unsigned int idx, unsigned int *budget);

/*
 * Queue @n, whose key is not before the clock, in slot @idx of
 * level @lvl from hwt_locate(), or park it.
 */
static __always_inline bool hwt_link(struct hwt_wheel *w, struct hwt_node *n,
				     unsigned int lvl, unsigned int idx)
{
	if (unlikely(lvl == w->levels)) {
		hwt_park(w, n);
		return false;
	}
	hwt_changed_lvl(w, lvl);
	return hwt_link_slot(w, &w->lvl[lvl], lvl, idx, n);
}

#endif /* _HWT_WHEEL_IMPL_H */
