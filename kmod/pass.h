/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The bound on one pass over a wheel (base.h has the design): a budget of
 * units, and a look at the time now and then. Pure, like the wheel core,
 * so that bench/core_bench.c runs the module's own rule natively.
 */
#ifndef _HWT_PASS_H
#define _HWT_PASS_H

#include "wheel.h"

#define HWT_PASS_BUDGET		256	/* units: timers expired + nodes placed */
#define HWT_PASS_NS		20000	/* CPU time after which a pass stops early */
#define HWT_PASS_MIN		64	/* units before a pass first looks at it */
#define HWT_PASS_CHECK		32	/* units between looks after that */
#define HWT_RUN_NS		1000000	/* time after which a run hands off */
/* units of a pass that cascades ahead apart from expiry (base_expiry.c) */
#define HWT_AHEAD_BUDGET	32

/**
 * struct hwt_pass - what one pass may still do
 * @start: the pass's clock when it began
 * @left: units left of its budget; 0 once spent, or once the pass is over
 *	  its time, or when its owner stops it early with work left
 * @check: units until the pass looks at how long it has taken
 */
struct hwt_pass {
	u64 start;
	unsigned int left;
	unsigned int check;
};

static inline void hwt_pass_init(struct hwt_pass *p, u64 start)
{
	p->start = start;
	p->left = HWT_PASS_BUDGET;
	p->check = HWT_PASS_MIN;
}

/*
 * A step of the pass spent @units: once HWT_PASS_MIN, and then every
 * HWT_PASS_CHECK, have gone, a pass that has taken HWT_PASS_NS already
 * spends the rest of its budget at once.
 */
static inline void hwt_pass_spent(struct hwt_pass *p, unsigned int units,
				  u64 (*clock)(void))
{
	p->left -= units;
	p->check -= units;
	if (!p->check) {
		p->check = HWT_PASS_CHECK;
		if (clock() - p->start > HWT_PASS_NS)
			p->left = 0;
	}
}

/**
 * hwt_pass_pop() - the next due node of a pass
 * @p: the pass
 * @w: its wheel
 * @now: the time the pass runs at
 * @clock: the pass's clock (hwt_cpu_clock() in the module)
 *
 * The budget is spent in steps, HWT_PASS_MIN units and then HWT_PASS_CHECK
 * at a time; after each, a pass that has taken HWT_PASS_NS already spends
 * the rest of its budget at once: cache-cold work (huge wheels, callbacks
 * that take long) then stops after about that much time instead of after
 * the whole budget.
 *
 * Return: a due node, or NULL when nothing more is due or the pass has
 * spent its budget (@p->left is then 0).
 */
static inline struct hwt_node *hwt_pass_pop(struct hwt_pass *p,
					    struct hwt_wheel *w, u64 now,
					    u64 (*clock)(void))
{
	struct hwt_node *n;

	do {
		unsigned int step = min(p->left, p->check), left = step;

		n = hwt_wheel_pop(w, now, &left);
		hwt_pass_spent(p, step - left, clock);
		if (left)	/* nothing more is due */
			break;
	} while (!n && p->left);
	return n;
}

/**
 * hwt_pass_ahead() - cascade ahead in a pass
 * @p: the pass, with a budget of its own (hwt_pass_init())
 * @w: its wheel, with nothing due at @now (a pass of hwt_pass_pop() that
 *     ended with budget left, or a look at the wheel's next window, said
 *     so)
 * @now: the time the pass runs at
 * @clock: the pass's clock
 *
 * hwt_wheel_ahead() in the steps of hwt_pass_pop(), under the same bound
 * on the pass's time.
 *
 * Return: true if cascading ahead is left to do at @now (@p->left is then
 * 0), false when it is all done.
 */
static inline bool hwt_pass_ahead(struct hwt_pass *p, struct hwt_wheel *w,
				  u64 now, u64 (*clock)(void))
{
	bool more;

	do {
		unsigned int step = min(p->left, p->check), left = step;

		more = hwt_wheel_ahead(w, now, &left);
		hwt_pass_spent(p, step - left, clock);
	} while (more && p->left);
	return more;
}

#endif /* _HWT_PASS_H */
