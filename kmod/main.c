// SPDX-License-Identifier: GPL-2.0
/*
 * hwtimer: a hashed hierarchical timing wheel for userspace and drivers.
 *
 * Module entry point: the wheel geometry, the in-kernel API's bases and
 * /dev/hwtimer.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/log2.h>
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/time64.h>

#include "base.h"
#include "dev_file.h"
#include "kbase.h"

static ulong tick_ns = 1UL << 12;
module_param(tick_ns, ulong, 0444);
MODULE_PARM_DESC(tick_ns,
		 "Wheel tick in ns, rounded down to a power of two; 1024..1073741824 (default 4096)");

static uint levels;
module_param(levels, uint, 0444);
MODULE_PARM_DESC(levels,
		 "Wheel levels whose horizon bounds the delays (the wheels keep two more); 0 covers all of 64-bit time (default 0)");

struct hwt_geometry hwt_geo;

static int __init hwt_module_init(void)
{
	unsigned int shift;
	int ret;

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

	hwt_geo.shift = shift;
	/* the parameter bounds the delays; the wheels have spare levels */
	hwt_geo.levels = hwt_wheel_levels_for(shift, levels);
	hwt_geo.tick_ns = tick_ns;
	/* a tick of margin: the wheel's clock may trail "now" by up to one */
	hwt_geo.max_delay = min(hwt_wheel_horizon_of(shift, levels) - tick_ns,
				1ULL << 62);

	ret = hwt_kbase_init();
	if (ret)
		return ret;
	ret = hwt_dev_init();
	if (ret) {
		hwt_kbase_exit();
		return ret;
	}
	pr_info("tick %lu ns, %u levels, longest delay %llu s\n", tick_ns,
		hwt_geo.levels, hwt_geo.max_delay / NSEC_PER_SEC);
	return 0;
}

static void __exit hwt_module_exit(void)
{
	hwt_dev_exit();
	hwt_kbase_exit();
}

module_init(hwt_module_init);
module_exit(hwt_module_exit);

MODULE_DESCRIPTION("Hashed hierarchical timing wheel timers for userspace and drivers");
MODULE_LICENSE("GPL");
MODULE_VERSION(HWT_VERSION);	/* Kbuild, from the tree's VERSION file */
