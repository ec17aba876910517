// SPDX-License-Identifier: GPL-2.0
/*
 * hwtimer: a hashed hierarchical timing wheel for userspace and drivers.
 *
 * Module entry point: geometry parameters.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/log2.h>
#include <linux/module.h>
#include <linux/moduleparam.h>

#include "wheel.h"

static ulong tick_ns = 1UL << 20;
module_param(tick_ns, ulong, 0444);
MODULE_PARM_DESC(tick_ns,
		 "Wheel tick in ns, rounded down to a power of two; 1024..1073741824 (default 1048576)");

static uint levels;
module_param(levels, uint, 0444);
MODULE_PARM_DESC(levels,
		 "Wheel levels; 0 covers all of 64-bit time (default 0)");

static int __init hwtimer_init(void)
{
	unsigned int shift;

	if (tick_ns < 1UL << HWT_SHIFT_MIN || tick_ns > 1UL << HWT_SHIFT_MAX) {
		pr_err("tick_ns=%lu is outside %lu..%lu\n", tick_ns,
		       1UL << HWT_SHIFT_MIN, 1UL << HWT_SHIFT_MAX);
		return -EINVAL;
	}
	shift = ilog2(tick_ns);
	if (levels > hwt_wheel_max_levels(shift)) {
		pr_err("levels=%u exceeds %u for a tick of %lu ns\n", levels,
		       hwt_wheel_max_levels(shift), 1UL << shift);
		return -EINVAL;
	}
	tick_ns = 1UL << shift;
	if (!levels)
		levels = hwt_wheel_max_levels(shift);
	pr_info("tick %lu ns, %u levels\n", tick_ns, levels);
	return 0;
}

static void __exit hwtimer_exit(void)
{
}

module_init(hwtimer_init);
module_exit(hwtimer_exit);

MODULE_DESCRIPTION("Hashed hierarchical timing wheel timers for userspace and drivers");
MODULE_LICENSE("GPL");
