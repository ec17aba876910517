/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What kmod/base.c does around kmod/pass.h, for the benchmarks that run the
 * module's pass rule natively (core_bench.c, engine_bench.c): after a pass
 * that left nothing due, cascading ahead in a pass of its own, and waking
 * for that work too. Built with -DHWT_BENCH_BEFORE against the wheel of an
 * older commit, whose pops cascaded ahead themselves, it does neither.
 */
#ifndef _HWT_BENCH_BASE_RULE_H
#define _HWT_BENCH_BASE_RULE_H

#include "pass.h"

/*
 * As hwt_base_ahead(): after the pass @p left nothing due at @now, cascade
 * ahead with a budget of its own, in what is left of @p's time. Returns
 * true if some is left at @now.
 */
static inline bool base_ahead(struct hwt_wheel *w, const struct hwt_pass *p,
			      u64 now, u64 (*clock)(void))
{
#ifdef HWT_BENCH_BEFORE
	return false;
#else
	struct hwt_pass a;
	u64 ahead;

	if (!hwt_wheel_next_ahead(w, &ahead) || (s64)(ahead - now) > 0)
		return false;
	hwt_pass_init(&a, p->start);
	if (clock() - a.start > HWT_PASS_NS)
		a.left = 0;
	return hwt_pass_ahead(&a, w, now, clock);
#endif
}

/*
 * As hwt_base_arm_next(), for a base without slack: when it wakes next, the
 * earlier of hwt_wheel_next() and hwt_wheel_next_ahead(). Returns false if
 * there is nothing to wake for.
 */
static inline bool base_next(struct hwt_wheel *w, u64 *when)
{
	bool due = hwt_wheel_next(w, when);
#ifndef HWT_BENCH_BEFORE
	u64 ahead;

	if (hwt_wheel_next_ahead(w, &ahead) &&
	    (!due || (s64)(ahead - *when) < 0)) {
		*when = ahead;
		due = true;
	}
#endif
	return due;
}

#endif /* _HWT_BENCH_BASE_RULE_H */
