/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the module's build of the wheel core (wheel*.c, with
 * HWT_WHEEL_HOOKS) does besides moving nodes: it
 * traces cascades, and it keeps per-CPU occupancy counts, so that sysfs
 * can show what every wheel of the system holds by adding up one row per
 * CPU instead of walking, and locking, every wheel. The userspace build of
 * the core has neither.
 */
#ifndef _HWT_WHEEL_HOOKS_H
#define _HWT_WHEEL_HOOKS_H

#include <linux/percpu.h>

#include "hwt_trace.h"
#include "wheel.h"

/**
 * struct hwt_occ - what one CPU changed in the occupancy of all wheels
 * @timers: nodes added minus nodes removed, per level; the entry after the
 *	    last level counts parked nodes
 * @slots: slots that became occupied minus slots that became empty
 *
 * A node may be added on one CPU and removed on another, so one CPU's row
 * may be negative; the sum over all CPUs is what the wheels hold.
 */
struct hwt_occ {
	long timers[HWT_LEVELS_MAX + 1];
	long slots[HWT_LEVELS_MAX];
};

DECLARE_PER_CPU(struct hwt_occ, hwt_occ);

static inline void hwt_hook_cascade(const struct hwt_wheel *w,
				    unsigned int lvl, unsigned int idx,
				    unsigned int nodes)
{
	trace_hwt_cascade(w, w->clk, lvl, idx, nodes);
}

static inline void hwt_hook_occupancy(unsigned int lvl, int timers, int slots)
{
	this_cpu_add(hwt_occ.timers[lvl], timers);
	if (slots)
		this_cpu_add(hwt_occ.slots[lvl], slots);
}

#endif /* _HWT_WHEEL_HOOKS_H */
