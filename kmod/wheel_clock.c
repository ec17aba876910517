// SPDX-License-Identifier: GPL-2.0
/*
 * hwtimer wheel core: its clock. Popping due nodes, with the cascades on
 * the way (wheel_cascade.c), moving the clock forward and back, by what
 * each level has to do next (wheel_look.h). wheel.c places the nodes; see
 * wheel.h for the design.
 *
 * hwt_wheel_pop() and hwt_wheel_forward() are O(levels) per slot they look
 * at, and hwt_wheel_pop() moves or returns at most its budget of nodes.
 */
#include <linux/bug.h>
#include <linux/kernel.h>

#include "wheel_look.h"

/*
 * Place parked nodes, at most @budget of them. The first call of a round
 * takes every parked node; those still beyond the horizon are parked again,
 * on @w->parked, so that each is looked at once per round. A round cut
 * short must be done by the tick before the earliest of their keys
 * (@w->unpark_by), and not before: due nodes go first.
 */
static void hwt_unpark(struct hwt_wheel *w, unsigned int *budget)
{
	if (list_empty(&w->unparking)) {
		w->unpark_by = hwt_wheel_key(w, w->parked_min) -
			       hwt_wheel_tick(w);
		list_splice_init(&w->parked, &w->unparking);
	}
	while (*budget && !list_empty(&w->unparking)) {
		hwt_move(w, list_first_entry(&w->unparking, struct hwt_node,
					     entry));
		(*budget)--;
	}
}

/*
 * Whether @n is due, the time being @span from the clock to the end of its
 * tick: for a node whose deadline is no earlier than the clock's tick
 * began, as every node the wheel holds once the clock is past its tick.
 */
static inline bool hwt_due(const struct hwt_wheel *w,
			   const struct hwt_node *n, u64 span)
{
	return n->expires + w->tmask - w->clk <= span;
}

/*
 * A node alone in slot @slot of level @lvl >= 1, the wheel's next event,
 * that is due (@span, as hwt_due()'s) and before every other level's next
 * event: nothing can come before it, so it is returned from where it is,
 * not cascaded down first (*@delta becomes its key's distance). Not after
 * a set-back, when the level's next slot may be a later turn.
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
	if (key > span || key > w->ev.second - w->clk || !hwt_due(w, n, span))
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

/* Put the nodes passed over (@w->later) back at the front of slot @cur. */
static void hwt_later_back(struct hwt_wheel *w, struct hwt_slot *cur)
{
	list_splice_init(&w->later, &cur->head);
}

/*
 * Level 0's slot at the clock when its first node is not due at @now: the
 * clock is at the tick @now is in, which has not ended, and the slot holds
 * deadlines of that tick in no order. Nothing is due if its bound says so.
 * Otherwise look for a node due at @now: each passed over goes to
 * @w->later, so that a call after this one at the same time goes on with
 * the others, and a call at another time looks at them again; a node of a
 * later turn (the clock was set back) is placed where it belongs. Looking
 * costs a unit per HWT_CHEAP_PER_UNIT nodes passed over (@w->looked).
 * Return a due node, unlinked, or NULL: none is due at @now, and once the
 * slot was looked at whole, its bound is its earliest deadline, for
 * hwt_wheel_next(); or, with *@budget spent, the look was cut short.
 */
static noinline struct hwt_node *hwt_pop_sub(struct hwt_wheel *w,
					     struct hwt_slot *cur,
					     unsigned int idx, u64 now,
					     unsigned int *budget)
{
	u64 spent = hwt_wheel_work_units(w) + *budget;

	if (!list_empty(&w->later) && w->later_now != now)
		hwt_later_back(w, cur);
	/*
	 * Before the tick ends, nothing is due before the slot's bound; once
	 * it has ended, every node of the tick is due, and a later turn's
	 * must go before the clock moves on.
	 */
	if ((s64)(w->clk - now) > 0 && (s64)(cur->first - now) > 0)
		return NULL;
	while (!list_empty(&cur->head)) {
		struct hwt_node *n;

		if (hwt_wheel_work_units(w) >= spent) {
			*budget = 0;
			return NULL;
		}
		n = list_first_entry(&cur->head, struct hwt_node, entry);
		if (unlikely(hwt_wheel_key(w, n->expires) != w->clk)) {
			hwt_move(w, n);
			continue;
		}
		if ((s64)(n->expires - now) <= 0) {
			*budget = spent - hwt_wheel_work_units(w) - 1;
			return hwt_pop_l0(w, cur, idx, n);
		}
		if (list_empty(&w->later)) {
			w->later_now = now;
			w->later_min = n->expires;
			w->later_idx = idx;
		}
		w->later_min = hwt_sooner(w->later_min, n->expires);
		n->lvl = HWT_LVL_LATER;
		list_move_tail(&n->entry, &w->later);
		w->looked++;
	}
	if (!list_empty(&w->later)) {
		/* looked at whole: none is due before the earliest of them */
		hwt_later_back(w, cur);
		cur->first = w->later_min;
		hwt_changed(w, 1);
	}
	*budget = spent - hwt_wheel_work_units(w);
	return NULL;
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
 * clock moves, at most to the tick the time popped for is in, @span from
 * it (and @span - a tick + 1 after that time).
 */
static noinline struct hwt_node *hwt_pop_slow(struct hwt_wheel *w, u64 span,
					      unsigned int *budget,
					      bool looked)
{
	struct hwt_level *l0 = &w->lvl[0];

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

			if (likely(&n->entry != &cur->head &&
				   hwt_wheel_key(w, n->expires) == w->clk &&
				   hwt_due(w, n, span))) {
				(*budget)--;
				hwt_pop_l0(w, cur, idx, n);
				/* another level may come first: see hwt_pop_sub() */
				if (!cur->size && !w->ev.best_lvl)
					hwt_events_popped(w, 0);
				return n;
			}
			/* the tick has not ended, or a later turn */
			n = hwt_pop_sub(w, cur, idx, w->clk + span - w->tmask,
					budget);
			if (n || !*budget)
				return n;
			/*
			 * Nothing of the clock's tick is due yet: level 0's
			 * event, kept from before the clock reached the tick,
			 * is now the next tick's.
			 */
			hwt_changed(w, 1);
		}
		looked = false;

		delta = hwt_next_event(w, &lvl, &slot);
		lone = NULL;
		if (lvl && lvl < w->levels && delta <= span)
			lone = hwt_lone(w, lvl, slot, span, &delta);
		if (delta > span) {
			hwt_advance(w, span & ~w->tmask);
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
			u64 first = w->lvl[lvl].slot[slot].first;

			/* not after a set-back, when the bound may be a later turn's */
			if (likely(hwt_wheel_key(w, first) - w->clk <= span) ||
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
 * returns one node whose deadline is at or before @now. Call it until it
 * returns NULL; the caller may stop early and call again later. Once
 * nothing is due, the clock is at the tick @now is in: the first tick
 * boundary at or after @now.
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
	/* from the clock to the end of the tick @now is in */
	u64 span = now + w->tmask - w->clk;

	if (unlikely((s64)span < 0))
		return NULL;
	if (likely(cur->size)) {
		/*
		 * The tick the clock is at still has nodes, all of that tick
		 * unless the clock was set back: the rest of a burst, a
		 * node at a time, each once its deadline has come.
		 */
		struct hwt_node *n = list_first_entry(&cur->head,
						      struct hwt_node, entry);

		/* its list is empty while its nodes are all passed over */
		if (likely(!w->skewed && *budget && &n->entry != &cur->head) &&
		    likely((s64)(n->expires - now) <= 0)) {
			(*budget)--;
			return hwt_pop_l0(w, cur, idx, n);
		}
	} else if (likely(w->fresh & HWT_FRESH_BEST) && likely(!w->nparked) &&
		   w->ev.best - w->clk > span) {
		/* the events kept say that nothing is due */
		hwt_advance(w, span & ~w->tmask);
		return NULL;
	}
	return hwt_pop_slow(w, span, budget, !cur->size);
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
	u64 span = (now & ~w->tmask) - w->clk;
	unsigned int lvl, slot;

	if ((s64)span <= 0 || w->clk == w->stuck)
		return;
	if (hwt_next_event(w, &lvl, &slot) > span)
		hwt_advance(w, span);
	else
		w->stuck = w->clk;
}

/**
 * hwt_wheel_rebase() - move the clock back to the tick @now is in
 * @w: the wheel
 * @now: the current time, before the wheel's clock
 *
 * For a clock that was set back (CLOCK_REALTIME): nodes keep their deadlines
 * on the clock's new scale. No node moves now; each is placed right when
 * the clock reaches its slot (see wheel.h). O(1) but for the nodes of the
 * clock's tick passed over (@w->later), which become nodes of their slot
 * again.
 */
void hwt_wheel_rebase(struct hwt_wheel *w, u64 now)
{
	u64 clk = hwt_wheel_key(w, now), half = w->cascading;
	struct hwt_slot *s = &w->lvl[0].slot[w->later_idx];
	struct hwt_node *n;

	if ((s64)(clk - w->clk) >= 0)
		return;
	/*
	 * Nodes passed over in the clock's tick are nodes of their slot
	 * again: that slot is no longer the clock's. O(nodes of one tick).
	 */
	hwt_later_back(w, s);
	list_for_each_entry(n, &s->head, entry)
		if (n->lvl == HWT_LVL_LATER)
			n->lvl = 0;
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
