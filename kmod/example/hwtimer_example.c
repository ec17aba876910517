// SPDX-License-Identifier: GPL-2.0
/*
 * An example driver using hwtimer's in-kernel API:
 *  - a heartbeat on a fixed-rate periodic timer whose callback runs in
 *    softirq context;
 *  - a housekeeping chore on a sleepable fixed-delay timer (a struct
 *    hwtimer_sleepable: its callback runs in process context);
 *  - every tenth heartbeat sends a notice: a one-shot timer in an object
 *    of its own that its callback frees, the fire-and-forget pattern;
 *  - teardown with hwtimer_shutdown_sync(), which a callback re-arming
 *    its timer cannot outrun.
 * Its counters are read-only module parameters, so a test can watch it work:
 *
 *   insmod hwtimer.ko && insmod hwtimer_example.ko period_ms=50
 *   cat /sys/module/hwtimer_example/parameters/{beats,chores,notices,max_late_ns}
 *
 * While it is loaded, hwtimer.ko cannot be unloaded.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/atomic.h>
#include <linux/delay.h>
#include <linux/hwtimer.h>
#include <linux/module.h>
#include <linux/rcupdate.h>
#include <linux/slab.h>
#include <linux/time64.h>
#include <linux/wait_bit.h>

static uint period_ms = 100;
module_param(period_ms, uint, 0444);
MODULE_PARM_DESC(period_ms, "Heartbeat period in ms (default 100)");

static ulong beats;
module_param(beats, ulong, 0444);
MODULE_PARM_DESC(beats, "Heartbeats so far");

static ulong chores;
module_param(chores, ulong, 0444);
MODULE_PARM_DESC(chores, "Housekeeping chores so far");

static ulong notices;
module_param(notices, ulong, 0444);
MODULE_PARM_DESC(notices, "Notices delivered so far");

static ulong max_late_ns;
module_param(max_late_ns, ulong, 0444);
MODULE_PARM_DESC(max_late_ns, "Largest heartbeat lateness seen, in ns");

static ulong early;
module_param(early, ulong, 0444);
MODULE_PARM_DESC(early, "Heartbeats that fired before their deadline (always 0)");

static struct hwtimer heartbeat;
static struct hwtimer_sleepable chore;

/* notices in flight: the module must not go while one may still run */
static atomic_t in_flight = ATOMIC_INIT(0);

struct notice {
	struct hwtimer timer;
	ulong beat;
};

/* A one-shot timer's callback may free the timer: hwtimer is done with it. */
static void notice_fn(struct hwtimer *t)
{
	struct notice *n = container_of(t, struct notice, timer);

	WRITE_ONCE(notices, notices + 1);
	kfree(n);
	if (atomic_dec_and_test(&in_flight))
		wake_up_var(&in_flight);
}

static void send_notice(ulong beat)
{
	struct notice *n = kzalloc(sizeof(*n), GFP_ATOMIC);

	if (!n)
		return;
	n->beat = beat;
	hwtimer_init(&n->timer, notice_fn, HWTIMER_MONOTONIC);
	atomic_inc(&in_flight);
	if (hwtimer_start(&n->timer, NSEC_PER_MSEC, 0, HWTIMER_REL) < 0) {
		kfree(n);
		atomic_dec(&in_flight);
	}
}

static void heartbeat_fn(struct hwtimer *t)
{
	u64 fired = hwtimer_fired(t), deadline = hwtimer_expires(t);

	if (fired < deadline)
		WRITE_ONCE(early, early + 1);
	else if (fired - deadline > READ_ONCE(max_late_ns))
		WRITE_ONCE(max_late_ns, fired - deadline);
	WRITE_ONCE(beats, beats + 1);
	if (!(beats % 10))
		send_notice(beats);
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
	hwtimer_init_sleepable(&chore, chore_fn, HWTIMER_FIXED_DELAY);
	ret = hwtimer_start(&heartbeat, period, period, HWTIMER_REL);
	if (ret < 0)
		return ret;
	ret = hwtimer_start(&chore.timer, 5 * period, 5 * period, HWTIMER_REL);
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
	hwtimer_shutdown_sync(&chore.timer);
	/* no heartbeat, so no new notice, once this returns */
	hwtimer_shutdown_sync(&heartbeat);
	wait_var_event(&in_flight, !atomic_read(&in_flight));
	/* and the last notice_fn() has returned: callbacks are RCU readers */
	synchronize_rcu();
	pr_info("%lu beats, %lu chores, %lu notices, max lateness %lu ns\n",
		beats, chores, notices, max_late_ns);
}

module_init(example_init);
module_exit(example_exit);

MODULE_DESCRIPTION("Example driver using the hwtimer in-kernel API");
MODULE_LICENSE("GPL");
