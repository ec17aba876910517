// SPDX-License-Identifier: GPL-2.0
/*
 * An example driver using hwtimer's in-kernel API: a heartbeat on a
 * fixed-rate periodic timer whose callback runs in softirq context, and a
 * housekeeping chore on a sleepable fixed-delay timer. Its counters are
 * read-only module parameters, so a test can watch it work:
 *
 *   insmod hwtimer.ko && insmod hwtimer_example.ko period_ms=50
 *   cat /sys/module/hwtimer_example/parameters/{beats,chores,max_late_ns}
 *
 * While it is loaded, hwtimer.ko cannot be unloaded.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/atomic.h>
#include <linux/delay.h>
#include <linux/hwtimer.h>
#include <linux/module.h>
#include <linux/time64.h>

static uint period_ms = 100;
module_param(period_ms, uint, 0444);
MODULE_PARM_DESC(period_ms, "Heartbeat period in ms (default 100)");

static ulong beats;
module_param(beats, ulong, 0444);
MODULE_PARM_DESC(beats, "Heartbeats so far");

static ulong chores;
module_param(chores, ulong, 0444);
MODULE_PARM_DESC(chores, "Housekeeping chores so far");

static ulong max_late_ns;
module_param(max_late_ns, ulong, 0444);
MODULE_PARM_DESC(max_late_ns, "Largest heartbeat lateness seen, in ns");

static ulong early;
module_param(early, ulong, 0444);
MODULE_PARM_DESC(early, "Heartbeats that fired before their deadline (always 0)");

static struct hwtimer heartbeat, chore;

static void heartbeat_fn(struct hwtimer *t)
{
	u64 now = hwtimer_now(t), deadline = hwtimer_expires(t);

	if (now < deadline)
		WRITE_ONCE(early, early + 1);
	else if (now - deadline > READ_ONCE(max_late_ns))
		WRITE_ONCE(max_late_ns, now - deadline);
	WRITE_ONCE(beats, beats + 1);
}

/* runs in process context: it may sleep */
static void chore_fn(struct hwtimer *t)
{
	usleep_range(2000, 3000);
	WRITE_ONCE(chores, chores + 1);
}

static int __init example_init(void)
{
	u64 period = (u64)period_ms * NSEC_PER_MSEC;
	int ret;

	if (!period)
		return -EINVAL;
	hwtimer_init(&heartbeat, heartbeat_fn, HWTIMER_MONOTONIC);
	hwtimer_init(&chore, chore_fn, HWTIMER_SLEEPABLE | HWTIMER_FIXED_DELAY);
	ret = hwtimer_start(&heartbeat, period, period, HWTIMER_REL);
	if (ret < 0)
		return ret;
	ret = hwtimer_start(&chore, 5 * period, 5 * period, HWTIMER_REL);
	if (ret < 0) {
		hwtimer_shutdown_sync(&heartbeat);
		return ret;
	}
	pr_info("heartbeat every %u ms on a %llu ns wheel tick\n", period_ms,
		hwtimer_tick_ns());
	return 0;
}

static void __exit example_exit(void)
{
	hwtimer_shutdown_sync(&chore);
	hwtimer_shutdown_sync(&heartbeat);
	pr_info("%lu beats, %lu chores, max lateness %lu ns\n", beats, chores,
		max_late_ns);
}

module_init(example_init);
module_exit(example_exit);

MODULE_DESCRIPTION("Example driver using the hwtimer in-kernel API");
MODULE_LICENSE("GPL");
