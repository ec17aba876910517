// SPDX-License-Identifier: GPL-2.0
/*
 * hwtimer wheel core: the wheel as a whole. Its geometry (how many levels
 * a tick and a horizon take, and its size), its set-up, and counting and
 * forgetting every node. wheel.c places nodes, wheel_clock.c moves the
 * clock; see wheel.h for the design and the geometry table.
 */
#include <linux/bug.h>
#include <linux/errno.h>
#include <linux/kernel.h>

#include "wheel_impl.h"

/**
 * hwt_wheel_max_levels() - levels needed to cover all 64 bits of time
 * @shift: log2 of the tick in ns
 *
 * The top level then starts at bit 58 or above: its slots, at most 64, hold
 * every key less than 2^63 ns ahead.
 *
 * Return: the number of levels for which no delay below 2^63 ns needs a
 * horizon check.
 */
unsigned int hwt_wheel_max_levels(unsigned int shift)
{
	return DIV_ROUND_UP(64 - HWT_LVL_BITS - 1 - shift, HWT_LVL_BITS) + 1;
}

/**
 * hwt_wheel_levels_for() - the levels to build a wheel of a geometry with
 * @shift: log2 of the tick in ns
 * @levels: the levels whose horizon bounds the deadlines its owner accepts
 *	    (hwt_wheel_horizon_of()), 1..hwt_wheel_max_levels(@shift)
 *
 * An owner whose passes fall behind the time it arms for places keys up to
 * that lag beyond the horizon, and keys beyond the wheel's top are parked,
 * to be walked again every half horizon the clock moves: with a lag of
 * many horizons, catching up would cost each node as many walks. Two spare
 * levels (HWT_SPARE_LEVELS) take keys 2^10 horizons ahead in slots, where
 * each is moved once a level, so that a lag costs no walks until it is a
 * thousand horizons long.
 *
 * Return: @levels + HWT_SPARE_LEVELS, at most hwt_wheel_max_levels(@shift).
 */
unsigned int hwt_wheel_levels_for(unsigned int shift, unsigned int levels)
{
	return min(levels + HWT_SPARE_LEVELS, hwt_wheel_max_levels(shift));
}

/**
 * hwt_wheel_horizon_of() - the horizon of a geometry
 * @shift: log2 of the tick in ns
 * @levels: 1..hwt_wheel_max_levels(@shift)
 *
 * Return: hwt_wheel_horizon() of a wheel built with @shift and @levels.
 */
u64 hwt_wheel_horizon_of(unsigned int shift, unsigned int levels)
{
	if (levels == hwt_wheel_max_levels(shift))
		return 1ULL << 63;
	return (u64)(HWT_LVL_SIZE - 1) << (shift + HWT_LVL_BITS * (levels - 1));
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
	w->top_bits = HWT_LVL_BITS + 1;
	if (levels == max)
		w->top_bits = min(w->top_bits,
				  64 - shift - HWT_LVL_BITS * (levels - 1));
	w->tmask = hwt_wheel_tick(w) - 1;
	w->clk = now & ~w->tmask;
	w->high = w->clk;
	w->stuck = w->clk - 1;	/* never a tick-aligned time */
	w->skewed = false;
	w->slack_seen = false;
	w->occupied = 0;
	w->cascading = 0;
	w->fresh = 0;
	memset(w->lvl_of_bit, 0, sizeof(w->lvl_of_bit));
	w->cascaded = 0;
	w->cheap = 0;
	w->looked = 0;
	INIT_LIST_HEAD(&w->later);
	w->later_now = 0;
	w->later_min = 0;
	w->later_idx = 0;
	INIT_LIST_HEAD(&w->parked);
	INIT_LIST_HEAD(&w->unparking);
	w->nparked = 0;
	w->parked_min = 0;
	w->unpark_by = 0;
	w->slack_of = NULL;
	for (lvl = 0; lvl < levels; lvl++) {
		struct hwt_level *l = &w->lvl[lvl];

		l->occupied = 0;
		l->shift = shift + lvl * HWT_LVL_BITS;
		l->mask = (lvl == levels - 1 ? 1U << w->top_bits : HWT_LVL_SIZE) - 1;
		w->lsub[lvl] = (1ULL << l->shift) - 1;
		for (i = l->shift + 1; lvl && i < 64 &&
		     i <= l->shift + HWT_LVL_BITS; i++)
			w->lvl_of_bit[i] = lvl;
		w->lspan[lvl] = lvl == levels - 1 ? U64_MAX :
				(u64)HWT_LVL_SIZE << l->shift;
		w->casc_at[lvl] = 0;
		for (i = 0; i < HWT_LVL_SIZE; i++) {
			struct hwt_slot *s = &l->slot[i];

			INIT_LIST_HEAD(&s->head);
			s->size = 0;
			s->first = 0;
			s->slack = false;
			l->late[i] = 0;
		}
	}
	for (i = shift + HWT_LVL_BITS * levels + 1; i < 64; i++)
		w->lvl_of_bit[i] = levels - 1;
	w->horizon = hwt_wheel_horizon_of(shift, levels);
	return 0;
}

/**
 * hwt_wheel_horizon() - how far ahead of the wheel's clock a key may lie
 * @w: the wheel
 *
 * A node whose key lies this far or further ahead of @w->clk is parked and
 * placed again later (see hwt_locate()); callers refuse such deadlines
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
 * hwt_wheel_pending() - how many nodes a wheel holds
 * @w: the wheel
 *
 * The wheel keeps no total, so that queueing and unlinking a node touch
 * only its slot: this adds up the occupied slots, O(levels x 64).
 *
 * Return: the nodes queued, parked ones included.
 */
unsigned long hwt_wheel_pending(const struct hwt_wheel *w)
{
	unsigned long sum = w->nparked;
	unsigned int lvl;

	for (lvl = 0; lvl < w->levels; lvl++) {
		const struct hwt_level *l = &w->lvl[lvl];
		u64 occ = l->occupied;

		while (occ) {
			sum += l->slot[__ffs64(occ)].size;
			occ &= occ - 1;
		}
	}
	return sum;
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

	for (lvl = 0; lvl < w->levels; lvl++) {
		const struct hwt_level *l = &w->lvl[lvl];
		u64 occ = l->occupied;
		long timers = 0;

		while (occ) {
			timers += l->slot[__ffs64(occ)].size;
			occ &= occ - 1;
		}
		hwt_hook_occupancy(lvl, -(int)timers,
				   -(int)hweight64(l->occupied));
	}
	hwt_hook_occupancy(w->levels, -(int)w->nparked, 0);
	slack_of = w->slack_of;
	hwt_wheel_init(w, w->shift, w->levels, w->clk);
	w->slack_of = slack_of;
}
