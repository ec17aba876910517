// SPDX-License-Identifier: GPL-2.0
/*
 * hwtimer wheel core: its clock. What is due next, popping due nodes and
 * cascading the rest down the levels, ahead of time or when due, moving
 * the clock forward and back. wheel.c places the nodes; see wheel.h for
 * the design.
 *
 * hwt_wheel_pop(), hwt_wheel_ahead(), hwt_wheel_next() and
 * hwt_wheel_forward() are O(levels) per slot they look at, and
 * hwt_wheel_pop() and hwt_wheel_ahead() move or return at most their
 * budget of nodes.
 */
#include <linux/bug.h>
#include <linux/kernel.h>

#include "wheel_impl.h"

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
 * hwt_lvl_refresh() of a level >= 1 whose first slot in clock order is the
 * clock's own (@cur): left half cascaded, reached by the clock at its start
 * and not cascaded yet, or holding a later turn's nodes after a set-back.
 */
static noinline void hwt_lvl_refresh_own(struct hwt_wheel *w,
					 unsigned int lvl, unsigned int cur)
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
		must = unlikely(w->skewed) ? w->clk : l->slot[slot].first;
		ev->early |= BIT(lvl);
		ev->may[lvl] = w->clk;
		ev->wake[lvl] = must;
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
	if (unlikely(!dist) && lvl) {
		hwt_lvl_refresh_own(w, lvl, cur);
		return;
	}
	slot = (cur + dist) & l->mask;
	s = &l->slot[slot];
	must = lvl_start(l, w->clk) + dist * step;
	if (unlikely(s->size >= HWT_CASCADE_EARLY) && lvl) {
		/* from the start of the slot before it */
		early = bit;
		ev->may[lvl] = must - step;
	}
	ev->slot[lvl] = slot;
	ev->must[lvl] = must;
	/*
	 * when its first key is due (a level-0 slot's is its time); after a
	 * set-back, bounds may be of later turns
	 */
	ev->wake[lvl] = likely(!w->skewed) ? s->first : must;
	ev->early = (ev->early & ~bit) | early;
	w->fresh |= bit;
}

static noinline void hwt_lvl_refresh(struct hwt_wheel *w, unsigned int lvl)
{
	__hwt_lvl_refresh(w, lvl);
}

/* A time kept by hwt_lvl_refresh() as a distance from the clock, 0 if past. */
static inline u64 hwt_ahead(const struct hwt_wheel *w, u64 t)
{
	return (s64)(t - w->clk) > 0 ? t - w->clk : 0;
}

/*
 * Only @lvl, the level of the earliest event, changed: a node was taken
 * from it. Look at it alone. If it still has the earliest event (ties
 * going to the lower level), wakes no later than any other level's event,
 * and has nothing to cascade ahead before or after, every other level's
 * entries stand, and so does @second: the earliest are its. Return false
 * when every level's must be compared again.
 */
static inline bool hwt_events_again(struct hwt_wheel *w, unsigned int lvl)
{
	struct hwt_events *ev = &w->ev;
	u64 clk = w->clk, second = ev->second - clk, must;

	if (unlikely(ev->early & BIT(lvl)))
		return false;
	__hwt_lvl_refresh(w, lvl);
	must = ev->must[lvl] - clk;
	if (unlikely(ev->early & BIT(lvl)) || must > second ||
	    (must == second && lvl) || ev->wake[lvl] - clk > second)
		return false;
	ev->best = ev->must[lvl];
	ev->soonest = ev->wake[lvl];
	w->fresh |= HWT_FRESH_BEST;
	return true;
}

/*
 * Look up the next event of every occupied level whose entries are stale,
 * and the earliest of them all.
 */
static noinline void hwt_events_look(struct hwt_wheel *w)
{
	struct hwt_events *ev = &w->ev;
	u64 stale, levels, best, second, clk = w->clk;
	unsigned int bl = ev->best_lvl;
	s64 soonest = S64_MAX;

	/*
	 * @bl alone changed, and it still has nodes (the fresh bits of
	 * levels seen empty stay set, so a level emptied counts as changed)
	 */
	if (bl < HWT_LEVELS_MAX && ~w->fresh == (BIT(bl) | HWT_FRESH_BEST) &&
	    (w->occupied & BIT(bl)) && hwt_events_again(w, bl))
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

		if (must < best) {
			second = best;
			best = must;
			bl = lvl;
		} else if (must < second) {
			second = must;
		}
		/* a wake-up may lie behind the clock: then it is now */
		soonest = min_t(s64, soonest, ev->wake[lvl] - clk);
	}
	ev->best = clk + best;
	ev->best_lvl = bl;
	ev->second = clk + second;
	ev->soonest = clk + max_t(s64, soonest, 0);
	best = U64_MAX;
	for (levels = ev->early & w->occupied; levels; levels &= levels - 1)
		best = min(best, hwt_ahead(w, ev->may[__ffs64(levels)]));
	ev->may_min = clk + best;	/* meaningless without early levels */
	w->fresh = ~0U;		/* empty levels too: they are known to be */
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
	if (~w->fresh != (BIT(lvl) | HWT_FRESH_BEST) ||
	    !(w->occupied & BIT(lvl)) || !hwt_events_again(w, lvl))
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
		hwt_park(w, n, key);
		return NULL;
	}
	hwt_changed(w, BIT(lvl));
	hwt_link_slot(w, &w->lvl[lvl], lvl, idx, n, key, w->clk);
	return &w->lvl[lvl].slot[idx];
}

/*
 * hwt_cascade() of a node into slot @idx of level @l, number @lvl, when
 * the node or the slot has slack: the slot's latest-time bound is kept.
 */
static noinline void hwt_cascade_slack(struct hwt_wheel *w,
				       struct hwt_level *l, unsigned int lvl,
				       unsigned int idx,
				       const struct hwt_node *n, u64 key)
{
	struct hwt_slot *s = &l->slot[idx];

	if (s->size) {
		hwt_slot_bounds(w, l, s, lvl, idx, n, key, w->clk);
		return;
	}
	l->occupied |= BIT_ULL(idx);
	w->occupied |= BIT(lvl);
	s->first = key;
	s->slack = false;
	if (n->slack)
		hwt_slot_slack(w, l, idx, n, key, true);
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
 * before them went there, so the slot's bounds hold them already, and
 * they get its level. @first follows @head, of a list whose nodes before
 * it were moved already. Return the node after them.
 */
static noinline struct list_head *hwt_cascade_run(struct hwt_wheel *w,
						  struct list_head *head,
						  struct list_head *first,
						  struct hwt_slot *to, u64 key,
						  unsigned int left)
{
	const u64 tmask = hwt_wheel_tick(w) - 1;
	const unsigned int lvl = list_last_entry(&to->head, struct hwt_node,
						 entry)->lvl;
	struct list_head *last = first, *pos = first->next;
	unsigned int c = w->cheap % HWT_CHEAP_PER_UNIT;
	unsigned int run = 1, most = HWT_CHEAP_PER_UNIT * left - c;

	list_entry(first, struct hwt_node, entry)->lvl = lvl;
	for (; run < most && pos != head; run++) {
		struct hwt_node *m = list_entry(pos, struct hwt_node, entry);

		if (((m->expires + tmask) & ~tmask) != key)
			break;
		m->lvl = lvl;
		last = pos;
		pos = pos->next;
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
	const u64 tmask = hwt_wheel_tick(w) - 1, end = hwt_cascade_end(w, lvl);
	const unsigned int dshift = down->shift, dlvl = lvl - 1;
	unsigned int left = *budget, todo = min(left, size), done = todo;
	unsigned int other = 0;
	u64 memo = 1;	/* no key: keys are tick-aligned */

	/* nodes are linked where they go; what is left is the slot's list */
	while (todo) {
		struct hwt_node *n = list_entry(pos, struct hwt_node, entry);
		u64 key = (n->expires + tmask) & ~tmask;
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
			hwt_cascade_slack(w, down, dlvl, i, n, key);
		} else if (!to->size) {
			down->occupied |= BIT_ULL(i);
			w->occupied |= BIT(dlvl);
			to->first = key;
			hwt_hook_occupancy(dlvl, 0, 1);
		} else if ((s64)(key - to->first) < 0) {
			/* never on level 0, whose slot holds one key */
			to->first = key;
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
static void hwt_cascade(struct hwt_wheel *w, unsigned int lvl,
			unsigned int idx, unsigned int *budget)
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
 * A node alone in slot @slot of level @lvl >= 1, the wheel's next event,
 * that is due by @span and before every other level's next event: nothing
 * can come before it, so it is returned from where it is, not cascaded
 * down first (*@delta becomes its key's distance). Not after a set-back,
 * when the level's next slot may be a later turn.
 */
static inline struct hwt_node *hwt_lone(struct hwt_wheel *w,
					unsigned int lvl, unsigned int slot,
					u64 span, u64 *delta)
{
	struct hwt_slot *s = &w->lvl[lvl].slot[slot];
	struct hwt_node *n;
	u64 key;

	if (s->size != 1 || unlikely(w->skewed || w->nparked))
		return NULL;
	n = list_first_entry(&s->head, struct hwt_node, entry);
	key = hwt_wheel_key(w, n->expires) - w->clk;
	if (key > span || key > w->ev.second - w->clk)
		return NULL;
	*delta = key;
	return n;
}

/* Take @n, first of level 0's slot @idx at the clock, out: it is due. */
static __always_inline struct hwt_node *hwt_pop_l0(struct hwt_wheel *w,
						   struct hwt_slot *cur,
						   unsigned int idx,
						   struct hwt_node *n)
{
	list_del_init(&n->entry);
	n->lvl = HWT_LVL_NONE;
	if (!--cur->size) {
		/* level 0's next event is another slot's */
		hwt_changed(w, 1);
		hwt_slot_emptied(w, 0, idx);
		hwt_hook_occupancy(0, -1, -1);
	} else {
		hwt_hook_occupancy(0, -1, 0);
	}
	return n;
}

/*
 * The clock has reached the start of level @lvl's first occupied slot, on
 * a level >= 1, and no key of it is due by the time popped for. None of its
 * nodes moves now: it becomes the clock's own slot left half cascaded,
 * whose cascade must be done by its first key and may be done before
 * (hwt_wheel_ahead()). So the clock goes on to what is due beyond its
 * start without spending a budget on nodes that are not.
 */
static void hwt_enter(struct hwt_wheel *w, unsigned int lvl)
{
	w->cascading |= BIT(lvl);
	w->casc_at[lvl] = w->clk;
	hwt_changed(w, BIT(lvl));
}

/*
 * hwt_wheel_pop() past its first look (@looked: at an empty tick): the
 * clock moves.
 */
static noinline struct hwt_node *hwt_pop_slow(struct hwt_wheel *w, u64 now,
					      unsigned int *budget,
					      bool looked)
{
	struct hwt_level *l0 = &w->lvl[0];
	u64 span = now - w->clk;

	if ((s64)span < 0)
		return NULL;

	while (*budget) {
		unsigned int idx = lvl_idx(l0, w->clk);
		struct hwt_slot *cur = &l0->slot[idx];
		struct hwt_node *lone;
		unsigned int lvl, slot;
		u64 delta;

		if (!looked && cur->size) {
			struct hwt_node *n = list_first_entry(&cur->head,
							      struct hwt_node,
							      entry);

			(*budget)--;
			if (unlikely(hwt_wheel_key(w, n->expires) != w->clk)) {
				/* placed before the clock was set back: a later turn */
				hwt_move(w, n);
				continue;
			}
			hwt_pop_l0(w, cur, idx, n);
			if (!cur->size)
				hwt_events_popped(w, 0);
			return n;
		}
		looked = false;

		delta = hwt_next_event(w, &lvl, &slot);
		lone = NULL;
		if (lvl && lvl < w->levels && delta <= span)
			lone = hwt_lone(w, lvl, slot, span, &delta);
		if (delta > span) {
			hwt_advance(w, span & ~(hwt_wheel_tick(w) - 1));
			break;
		}
		hwt_advance(w, delta);
		span -= delta;
		if (lone) {
			struct hwt_slot *s = &w->lvl[lvl].slot[slot];

			(*budget)--;
			list_del_init(&lone->entry);
			lone->lvl = HWT_LVL_NONE;
			hwt_changed(w, BIT(lvl));
			s->size = 0;
			hwt_slot_emptied(w, lvl, slot);
			hwt_hook_occupancy(lvl, -1, -1);
			hwt_events_popped(w, lvl);
			return lone;
		}
		if (unlikely(lvl == w->levels)) {
			hwt_unpark(w, budget);
		} else if (lvl) {
			/* not after a set-back, when the bound may be a later turn's */
			if (likely(w->lvl[lvl].slot[slot].first - w->clk <= span) ||
			    unlikely(w->skewed))
				hwt_cascade(w, lvl, slot, budget);
			else
				hwt_enter(w, lvl);
		}
	}
	return NULL;
}

/**
 * hwt_wheel_pop() - take the next due node
 * @w: the wheel
 * @now: the current time
 * @budget: how many units this call may spend: one for each node it
 *	    returns or places, one for each HWT_CHEAP_PER_UNIT nodes it moves
 *	    without a placement decision (wheel.h); decremented for each
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
	struct hwt_level *l0 = &w->lvl[0];
	unsigned int idx = lvl_idx(l0, w->clk);
	struct hwt_slot *cur = &l0->slot[idx];
	u64 span = now - w->clk;

	if (unlikely((s64)span < 0))
		return NULL;
	if (likely(cur->size)) {
		/*
		 * The tick the clock is at still has nodes, all of that tick
		 * unless the clock was set back: the rest of a burst, a
		 * node at a time.
		 */
		if (likely(!w->skewed && *budget)) {
			(*budget)--;
			return hwt_pop_l0(w, cur, idx,
					  list_first_entry(&cur->head,
							   struct hwt_node,
							   entry));
		}
	} else if (likely(w->fresh & HWT_FRESH_BEST) && likely(!w->nparked) &&
		   w->ev.best - w->clk > span) {
		/* the events kept say that nothing is due */
		hwt_advance(w, span & ~(hwt_wheel_tick(w) - 1));
		return NULL;
	}
	return hwt_pop_slow(w, now, budget, !cur->size);
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
	u64 span = now - w->clk;
	unsigned int lvl, slot;

	/* something to pop at @now (or a clock ahead of it): that first */
	if ((s64)span < 0 || w->lvl[0].slot[lvl_idx(&w->lvl[0], w->clk)].size ||
	    hwt_next_event(w, &lvl, &slot) <= span)
		return false;
	hwt_advance(w, span & ~(hwt_wheel_tick(w) - 1));
	while ((lvl = hwt_ahead_lvl(w)) != HWT_LVL_NONE) {
		if (!*budget)
			return true;
		hwt_cascade(w, lvl, w->ev.slot[lvl], budget);
	}
	return false;
}

/**
 * hwt_wheel_next_ahead() - when cascading ahead may next begin
 * @w: the wheel
 * @when: set to that time, at or after the wheel's clock, if there is any
 *
 * The earliest time at which hwt_wheel_ahead() would find work, if nothing
 * is added or removed meanwhile: the start of the slot before a big one, or
 * the clock for a slot that may go on now. hwt_wheel_next() leaves these
 * times out. An owner that wants big slots cascaded in the gaps between
 * expiries, rather than at their first keys, wakes at the earlier of the two.
 *
 * Return: false if no slot is big enough to be cascaded ahead.
 */
bool hwt_wheel_next_ahead(struct hwt_wheel *w, u64 *when)
{
	hwt_events_refresh(w);
	if (likely(!(w->ev.early & w->occupied)))
		return false;
	*when = w->clk + hwt_ahead(w, w->ev.may_min);
	return true;
}

/**
 * hwt_wheel_next() - when the next node can be due
 * @w: the wheel
 * @when: set to that time if the wheel is not empty
 *
 * The time is a tick boundary and a lower bound: no node is due earlier, and
 * unless the earliest node of a slot was deleted or the clock was set back,
 * one is due at it, or parked nodes must be placed then. Cascades that may
 * be done ahead of time are left out (hwt_wheel_next_ahead()).
 *
 * Return: false if the wheel is empty.
 */
bool hwt_wheel_next(struct hwt_wheel *w, u64 *when)
{
	u64 best = U64_MAX;

	if (hwt_wheel_empty(w))
		return false;
	hwt_events_refresh(w);
	if (likely(w->ev.best_lvl != HWT_LVL_NONE))
		best = hwt_ahead(w, w->ev.soonest);
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
bool hwt_wheel_next_range(struct hwt_wheel *w, u64 *when, u64 *latest)
{
	u64 best = U64_MAX, levels = w->occupied;

	if (!hwt_wheel_next(w, when))
		return false;
	*latest = *when;
	if (unlikely(w->skewed || w->nparked))
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
			/* every key from here on is at or after @best */
			if (l->slot[slot].first - w->clk >= best)
				break;
			best = min(best, hwt_slot_late(l, slot) - w->clk);
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
	u64 clk = now & ~(hwt_wheel_tick(w) - 1), half = w->cascading;

	if ((s64)(clk - w->clk) >= 0)
		return;
	if (!w->skewed || (s64)(w->clk - w->high) > 0)
		w->high = w->clk;
	w->skewed = true;
	w->clk = clk;
	hwt_changed(w, ~0U);
	/* a half-cascaded slot stays one only if the clock stays in it */
	while (half) {
		unsigned int lvl = __ffs64(half);

		half &= half - 1;
		if (!lvl_half_cascaded(w, lvl))
			w->cascading &= ~BIT(lvl);
	}
}
