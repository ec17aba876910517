/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the two halves of the wheel core share, and nobody else sees:
 * wheel.c places nodes (geometry, add, del, mod), wheel_clock.c moves the
 * clock (the next event, pop, cascades, forward, rebase). Both need the
 * level arithmetic below and each other's node movers.
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

/* How many slots of level @lvl @key lies ahead of the clock's slot there. */
static inline u64 lvl_ahead(const struct hwt_wheel *w, unsigned int lvl,
			    u64 key)
{
	unsigned int s = lvl_shift(w, lvl);

	return ((key >> s) - (w->clk >> s)) & (U64_MAX >> s);
}

/*
 * The level of a key: the lowest whose slot of it is fewer than 64 slots
 * ahead of the clock's (wheel.h). A key equal to the clock is due now and
 * lives in level 0's current slot. The slots ahead on level L are those
 * ahead on level 0 divided by 32^L, or one more.
 */
static inline unsigned int hwt_level(const struct hwt_wheel *w, u64 key)
{
	u64 ahead = lvl_ahead(w, 0, key);
	unsigned int lvl;

	if (ahead < HWT_LVL_SIZE)
		return 0;
	lvl = (fls64(ahead) - (HWT_LVL_BITS + 1) + HWT_LVL_BITS - 1) /
	      HWT_LVL_BITS;
	if (lvl < w->levels - 1 && lvl_ahead(w, lvl, key) >= HWT_LVL_SIZE)
		lvl++;
	return min(lvl, w->levels - 1);
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

/* wheel.c: placing nodes and taking them out */
struct list_head *hwt_place(struct hwt_wheel *w, struct hwt_node *n, u64 key);
void hwt_tally_out(struct hwt_wheel *w, unsigned int lvl, u64 key);
void hwt_unlink(struct hwt_wheel *w, struct hwt_node *n);
void hwt_move(struct hwt_wheel *w, struct hwt_node *n);

#endif /* _HWT_WHEEL_IMPL_H */
