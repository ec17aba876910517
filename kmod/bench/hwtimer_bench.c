// SPDX-License-Identifier: GPL-2.0
/*
 * Layer 3 of make bench: the in-kernel API against the kernel's own timers.
 * With N timers of one kind pending (deadlines 100..160 s away, so none
 * fires), cancel a random one and arm it again at a new random deadline,
 * many times: hwtimer_cancel() + hwtimer_start(), hrtimer_cancel() +
 * hrtimer_start() (a per-CPU rbtree) and timer_delete() + mod_timer() (the
 * timer wheel, which is up to 12.5% late where hwtimer is one tick late).
 *
 * Loading the module runs it and prints one JSON object per line:
 *   hwtimer_bench: {"layer":"kernel","impl":"hrtimer","n":1000,...}
 * then it stays loaded, idle, until rmmod.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/hrtimer.h>
#include <linux/hwtimer.h>
#include <linux/jiffies.h>
#include <linux/ktime.h>
#include <linux/module.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/timer.h>
#include <linux/utsname.h>
#include <linux/vmalloc.h>

#include "compat/compat.h"

static uint max_n = 1000000;
module_param(max_n, uint, 0444);
MODULE_PARM_DESC(max_n, "Largest number of pending timers (default 1000000)");

static uint ops = 100000;
module_param(ops, uint, 0444);
MODULE_PARM_DESC(ops, "Cancel + arm pairs timed per point (default 100000)");

/* one JSON object per line, which make bench collects from the console */
#define HWTB_FMT "{\"layer\":\"kernel\",\"kernel\":\"%s\",\"impl\":\"%s\",\"n\":%u,\"cancel_arm_ns\":%llu,\"arm_ns\":%llu,\"cancel_ns\":%llu,\"bytes_per_timer\":%zu}\n"

#define HWTB_MIN_NS	(100ULL * NSEC_PER_SEC)
#define HWTB_SPAN_NS	(60ULL * NSEC_PER_SEC)

/* xorshift64: the same sequence for every contender */
static u64 hwtb_rnd;

static u64 hwtb_next(void)
{
	hwtb_rnd ^= hwtb_rnd << 13;
	hwtb_rnd ^= hwtb_rnd >> 7;
	hwtb_rnd ^= hwtb_rnd << 17;
	return hwtb_rnd;
}

static u64 hwtb_delay(void)
{
	return HWTB_MIN_NS + hwtb_next() % HWTB_SPAN_NS;
}

/* None of the timers is meant to fire; count it if one does. */
static atomic_t hwtb_fired;

static void hwtb_hwtimer_fn(struct hwtimer *t)
{
	atomic_inc(&hwtb_fired);
}

static enum hrtimer_restart hwtb_hrtimer_fn(struct hrtimer *t)
{
	atomic_inc(&hwtb_fired);
	return HRTIMER_NORESTART;
}

static void hwtb_timer_fn(struct timer_list *t)
{
	atomic_inc(&hwtb_fired);
}

/**
 * struct hwtb_impl - one contender
 * @name: its name in the output
 * @size: bytes of one timer
 * @init: initialise timer @i of @base
 * @arm: arm it @ns from now
 * @cancel: cancel it
 */
struct hwtb_impl {
	const char *name;
	size_t size;
	void (*init)(void *base, u32 i);
	void (*arm)(void *base, u32 i, u64 ns);
	void (*cancel)(void *base, u32 i);
};

static void hw_init(void *base, u32 i)
{
	hwtimer_init((struct hwtimer *)base + i, hwtb_hwtimer_fn, 0);
}

static void hw_arm(void *base, u32 i, u64 ns)
{
	hwtimer_start((struct hwtimer *)base + i, ns, 0, HWTIMER_REL);
}

static void hw_cancel(void *base, u32 i)
{
	hwtimer_cancel((struct hwtimer *)base + i);
}

static void hr_init(void *base, u32 i)
{
	hwt_hrtimer_setup((struct hrtimer *)base + i, hwtb_hrtimer_fn,
			  CLOCK_MONOTONIC, HRTIMER_MODE_REL);
}

static void hr_arm(void *base, u32 i, u64 ns)
{
	hrtimer_start((struct hrtimer *)base + i, ns_to_ktime(ns),
		      HRTIMER_MODE_REL);
}

static void hr_cancel(void *base, u32 i)
{
	hrtimer_cancel((struct hrtimer *)base + i);
}

static void tl_init(void *base, u32 i)
{
	timer_setup((struct timer_list *)base + i, hwtb_timer_fn, 0);
}

static void tl_arm(void *base, u32 i, u64 ns)
{
	mod_timer((struct timer_list *)base + i,
		  jiffies + nsecs_to_jiffies(ns));
}

static void tl_cancel(void *base, u32 i)
{
	hwt_timer_delete((struct timer_list *)base + i);
}

static const struct hwtb_impl hwtb_impls[] = {
	{ "hwtimer", sizeof(struct hwtimer), hw_init, hw_arm, hw_cancel },
	{ "hrtimer", sizeof(struct hrtimer), hr_init, hr_arm, hr_cancel },
	{ "timer_list", sizeof(struct timer_list), tl_init, tl_arm, tl_cancel },
};

static int hwtb_run(const struct hwtb_impl *im, u32 n)
{
	u64 t0, arm_ns, pair_ns, cancel_ns;
	void *base;
	u32 i;

	base = vzalloc(array_size(n, im->size));
	if (!base)
		return -ENOMEM;
	hwtb_rnd = 0x5eed;
	for (i = 0; i < n; i++)
		im->init(base, i);

	t0 = ktime_get_ns();
	for (i = 0; i < n; i++) {
		im->arm(base, i, hwtb_delay());
		if (!(i & 4095))
			cond_resched();
	}
	arm_ns = ktime_get_ns() - t0;

	t0 = ktime_get_ns();
	for (i = 0; i < ops; i++) {
		u32 k = hwtb_next() % n;

		im->cancel(base, k);
		im->arm(base, k, hwtb_delay());
		if (!(i & 4095))
			cond_resched();
	}
	pair_ns = ktime_get_ns() - t0;

	t0 = ktime_get_ns();
	for (i = 0; i < n; i++) {
		im->cancel(base, i);
		if (!(i & 4095))
			cond_resched();
	}
	cancel_ns = ktime_get_ns() - t0;

	pr_info(HWTB_FMT, init_utsname()->release, im->name, n,
		div_u64(pair_ns, ops), div64_u64(arm_ns, n),
		div64_u64(cancel_ns, n), im->size);
	if (im->init == hw_init)
		for (i = 0; i < n; i++)
			hwtimer_shutdown_sync((struct hwtimer *)base + i);
	vfree(base);
	return 0;
}

static int __init hwtb_init(void)
{
	unsigned int k;
	u32 n;
	int ret;

	if (!ops)
		return -EINVAL;
	for (n = 1000; n && n <= max_n; n *= 10) {
		for (k = 0; k < ARRAY_SIZE(hwtb_impls); k++) {
			ret = hwtb_run(&hwtb_impls[k], n);
			if (ret)
				return ret;
		}
	}
	if (atomic_read(&hwtb_fired))
		pr_warn("%d timers fired during the run\n",
			atomic_read(&hwtb_fired));
	pr_info("done\n");
	return 0;
}

static void __exit hwtb_exit(void)
{
}

module_init(hwtb_init);
module_exit(hwtb_exit);

MODULE_DESCRIPTION("hwtimer against hrtimer and timer_list, in the kernel");
MODULE_LICENSE("GPL");
