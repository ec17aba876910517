// SPDX-License-Identifier: GPL-2.0
/*
 * hwtimer wheel core: cascades. Moving the nodes of a slot whose time has
 * come one level down (or more), when the clock reaches it or, for a big
 * slot, ahead of that (hwt_wheel_ahead()), as far as a budget goes.
 * wheel_clock.c pops due nodes and moves the clock, and calls hwt_cascade()
 * on the way; see wheel.h for the design, "Cascading ahead" in particular.
 *
 * hwt_cascade() moves at most its budget's worth of nodes, and
 * hwt_wheel_ahead() is O(levels) per slot it cascades.
 */
#include <linux/bug.h>
#include <linux/kernel.h>

#include "wheel_look.h"

/*
 * Place a node a cascade takes out of its slot where hwt_cascade() does not
 * know at once: a key due within two slots of the level below (it goes
 * lower), or any key after a set-back (later turns go higher, or are
 * parked). Return its slot, or NULL if it was parked.
 */
static noinline struct hwt_slot *hwt_cascade_place(struct hwt_wheel *w,
						   struct hwt_node *n, u64 key)
{
	unsigned int lvl, idx;

	hwt_locate(w, key, &lvl, &idx);
	if (unlikely(lvl == w->levels)) {
		hwt_park(w, n);
		return NULL;
	}
	hwt_changed(w, BIT(lvl));
	hwt_link_slot(w, &w->lvl[lvl], lvl, idx, n);
	return &w->lvl[lvl].slot[idx];
}

/*
 * hwt_cascade() of a node into slot @idx of level @l, number @lvl, when
 * the node or the slot has slack: the slot's latest-time bound is kept.
 */
static noinline void hwt_cascade_slack(struct hwt_wheel *w,
				       struct hwt_level *l, unsigned int lvl,
				       unsigned int idx,
				       const struct hwt_node *n)
{
	struct hwt_slot *s = &l->slot[idx];

	if (s->size) {
		hwt_slot_bounds(w, l, s, idx, n);
		return;
	}
	l->occupied |= BIT_ULL(idx);
	w->occupied |= BIT(lvl);
	s->first = n->expires;
	s->slack = false;
	if (n->slack)
		hwt_slot_slack(w, l, idx, n, true);
	hwt_hook_occupancy(lvl, 0, 1);
}

/*
 * The end of the keys that a cascade of a slot of level @lvl >= 2 places
 * one by one: keys before it are fewer than 64 slots ahead two levels down,
 * and may go lower than one level down. Every key from it on is 64 slots
 * or more ahead there, so it goes one level down, to the slot it names; so
 * does every key of a slot of level 1, whose level below has all 64 slots.
 */
static inline u64 hwt_cascade_end(const struct hwt_wheel *w, unsigned int lvl)
{
	unsigned int s2;

	if (lvl < 2)
		return w->clk;
	s2 = w->lvl[lvl - 2].shift;
	return ((w->clk >> s2) + HWT_LVL_SIZE) << s2;
}

/*
 * The nodes from @first on whose key is @key, @first's included, as many
 * as @left units pay for at HWT_CHEAP_PER_UNIT a unit (@w->cheap counts
 * them): moved to the tail of @to with one splice. The node of that key
 * before them went there, so they get its level, and the slot's bounds of
 * its deadlines and latest times are lowered to the earliest of theirs.
 * @first follows @head, of a list whose nodes before it were moved
 * already. Return the node after them.
 */
static noinline struct list_head *hwt_cascade_run(struct hwt_wheel *w,
						  struct list_head *head,
						  struct list_head *first,
						  struct hwt_slot *to, u64 key,
						  unsigned int left)
{
	const u64 tmask = w->tmask;
	const unsigned int lvl = list_last_entry(&to->head, struct hwt_node,
						 entry)->lvl;
	struct list_head *last = first, *pos = first->next;
	unsigned int c = w->cheap % HWT_CHEAP_PER_UNIT;
	unsigned int run = 1, most = HWT_CHEAP_PER_UNIT * left - c;
	struct hwt_node *n = list_entry(first, struct hwt_node, entry);
	u64 soonest = n->expires;

	n->lvl = lvl;
	for (; run < most && pos != head; run++) {
		struct hwt_node *m = list_entry(pos, struct hwt_node, entry);

		if (hwt_key(m->expires, tmask) != key)
			break;
		m->lvl = lvl;
		soonest = hwt_sooner(soonest, m->expires);
		last = pos;
		pos = pos->next;
	}
	to->first = hwt_sooner(to->first, soonest);
	if (unlikely(to->slack)) {
		/* none of them is due later than its deadline plus slack */
		struct hwt_level *l = &w->lvl[lvl];

		l->late[to - l->slot] = hwt_sooner(l->late[to - l->slot],
						   soonest);
	}
	head->next = first;
	first->prev = head;
	list_bulk_move_tail(&to->head, first, last);
	to->size += run;
	w->cheap += run;
	w->cascaded += run;
	hwt_hook_occupancy(lvl, run, 0);
	return pos;
}

/*
 * The nodes of a slot of level @lvl from its first on, hwt_cascade()'s
 * loop: @budget as it says; @size, nodes in the slot. @any: the slot has
 * nodes with slack, or the clock was set back: then every node is looked
 * at as it may need, else only as the slot it goes to needs. Return how
 * many nodes went one level down.
 */
static __always_inline unsigned int hwt_cascade_nodes(struct hwt_wheel *w,
						      unsigned int lvl,
						      struct list_head *head,
						      unsigned int size,
						      unsigned int *budget,
						      bool any)
{
	struct hwt_level *down = &w->lvl[lvl - 1];
	struct hwt_slot *dslot = down->slot, *to = NULL;
	struct list_head *pos = head->next;
	const u64 tmask = w->tmask, end = hwt_cascade_end(w, lvl);
	const unsigned int dshift = down->shift, dlvl = lvl - 1;
	unsigned int left = *budget, todo = min(left, size), done = todo;
	unsigned int other = 0;
	u64 memo = 1;	/* no key: keys are tick-aligned */

	/* nodes are linked where they go; what is left is the slot's list */
	while (todo) {
		struct hwt_node *n = list_entry(pos, struct hwt_node, entry);
		u64 key = hwt_key(n->expires, tmask);
		struct list_head *next;
		unsigned int i;

		if (unlikely(key == memo)) {
			u64 cheap = w->cheap;

			/* what this loop did so far, then the run */
			left -= done - todo;
			size -= done - todo;
			pos = hwt_cascade_run(w, head, pos, to, key, left);
			size -= w->cheap - cheap;
			cheap = w->cheap / HWT_CHEAP_PER_UNIT -
				cheap / HWT_CHEAP_PER_UNIT;
			left -= cheap;
			other += cheap;
			todo = min(left, size);
			done = todo;
			continue;
		}
		next = pos->next;
		todo--;
		if (unlikely((any && w->skewed) || (s64)(key - end) < 0)) {
			/* later turns, after a set-back, go where they may */
			to = hwt_cascade_place(w, n, key);
			memo = !to || (any && n->slack) ? 1 : key;
			w->cascaded++;
			other++;
			pos = next;
			continue;
		}
		i = (key >> dshift) & (HWT_LVL_SIZE - 1);
		to = dslot + i;
		if (unlikely((any && n->slack) || to->slack)) {
			hwt_cascade_slack(w, down, dlvl, i, n);
		} else if (!to->size) {
			down->occupied |= BIT_ULL(i);
			w->occupied |= BIT(dlvl);
			to->first = n->expires;
			hwt_hook_occupancy(dlvl, 0, 1);
		} else if ((s64)(n->expires - to->first) < 0) {
			to->first = n->expires;
		}
		memo = any && n->slack ? 1 : key;
		n->lvl = dlvl;
		to->size++;
		list_add_tail(pos, &to->head);
		pos = next;
	}
	head->next = pos;
	pos->prev = head;
	left -= done;
	other = *budget - left - other;	/* went one level down */
	*budget = left;
	hwt_hook_occupancy(dlvl, other, 0);
	return other;
}

/*
 * Move the nodes of a slot whose time has come one level down or more, at
 * most @budget's worth of them; the rest wait for the next call. The clock
 * is at the slot's start, inside it up to its first key if its cascade was
 * left unfinished, or before it for a slot cascaded ahead: either way none
 * of its nodes is placed back into it, and all but those due within two
 * slots of the level below go one level down, to the slot their key names
 * there. A node whose key is the one placed just before, by a node without
 * slack, goes to the same slot, whose bounds already hold it: a list move,
 * a fraction of a unit (HWT_CHEAP_PER_UNIT). That is what a herd of nodes
 * due at one instant is made of.
 */
void hwt_cascade(struct hwt_wheel *w, unsigned int lvl, unsigned int idx,
		 unsigned int *budget)
{
	struct hwt_level *l = &w->lvl[lvl];
	struct hwt_slot *s = &l->slot[idx];
	u64 before = w->cascaded, moved;

	hwt_changed(w, BIT(lvl + 1) - 1);
	if (likely(!(s->slack | w->skewed)))
		moved = hwt_cascade_nodes(w, lvl, &s->head, s->size, budget,
					  false);
	else
		moved = hwt_cascade_nodes(w, lvl, &s->head, s->size, budget,
					  true);
	w->cascaded += moved;
	moved = w->cascaded - before;
	s->size -= moved;
	if (!s->size) {
		hwt_slot_emptied(w, lvl, idx);
		hwt_hook_occupancy(lvl, -(int)moved, -1);
	} else {
		hwt_hook_occupancy(lvl, -(int)moved, 0);
		if (idx == lvl_idx(l, w->clk)) {
			/* the clock's own: finished before it passes the first key */
			w->cascading |= BIT(lvl);
			w->casc_at[lvl] = lvl_start(l, w->clk);
		}
	}
	hwt_hook_cascade(w, lvl, idx, moved);
}

/*
 * The level whose cascade ahead (wheel.h) may be done with the clock where
 * it is and must be done first, or HWT_LVL_NONE if there is none.
 */
static unsigned int hwt_ahead_lvl(struct hwt_wheel *w)
{
	const struct hwt_events *ev = &w->ev;
	unsigned int best_lvl = HWT_LVL_NONE;
	u64 levels, best = U64_MAX;

	hwt_events_refresh(w);
	levels = ev->early & w->occupied;
	if (likely(!levels) || hwt_ahead(w, ev->may_min))
		return HWT_LVL_NONE;
	for (; levels; levels &= levels - 1) {
		unsigned int lvl = __ffs64(levels);
		u64 must = ev->must[lvl] - w->clk;

		if (must < best && !hwt_ahead(w, ev->may[lvl])) {
			best = must;
			best_lvl = lvl;
		}
	}
	return best_lvl;
}

/**
 * hwt_wheel_ahead() - cascade big slots ahead of when they must be
 * @w: the wheel
 * @now: the current time
 * @budget: units this call may spend, as hwt_wheel_pop()'s; decremented
 *	    for each
 *
 * Does the cascades that may be done at @now although nothing of them is
 * due yet (wheel.h, "Cascading ahead"), the one that must be done first
 * first, as far as @budget goes. It returns no node, and does nothing while
 * hwt_wheel_pop() has work at @now: an owner pops everything due first,
 * and calls this after, with a budget of its own. It moves the clock only
 * as such a pop would, to @now's tick.
 *
 * Return: true if such work is left at @now: @budget ran out first.
 */
bool hwt_wheel_ahead(struct hwt_wheel *w, u64 now, unsigned int *budget)
{
	const struct hwt_slot *cur = &w->lvl[0].slot[lvl_idx(&w->lvl[0], w->clk)];
	u64 span = now + w->tmask - w->clk;
	unsigned int lvl, slot;

	/* something to pop at @now (or a clock ahead of its tick): that first */
	if ((s64)span < 0 || (cur->size && (s64)(cur->first - now) <= 0) ||
	    hwt_next_event(w, &lvl, &slot) <= span)
		return false;
	hwt_advance(w, span & ~w->tmask);
	while ((lvl = hwt_ahead_lvl(w)) != HWT_LVL_NONE) {
		if (!*budget)
			return true;
		hwt_cascade(w, lvl, w->ev.slot[lvl], budget);
	}
	return false;
}
