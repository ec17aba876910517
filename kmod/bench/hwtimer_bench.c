// SPDX-License-Identifier: GPL-2.0
/*
 * Layer 3 of make bench: the in-kernel API against the kernel's own timers.
 * With N timers of one kind pending (deadlines 100..160 s away, so none
 * fires), cancel a random one and arm it again at a new random deadline,
 * many times: hwtimer_cancel() + hwtimer_start(), hrtimer_cancel() +
 * hrtimer_start() (a per-CPU rbtree) and timer_delete() + mod_timer() (the
 * timer wheel, which is up to 12.5% late where hwtimer is one tick late).
 * hwtimer and hrtimer run twice: with relative delays, which need a clock
 * read per arm, and with absolute deadlines, which a driver computes from
 * a time it already has (here the run's start), as timer_list's callers
 * compute a jiffy.
 *
 * Then where the time of a pair goes: the primitives it is made of (a clock
 * read, jiffies, a raw lock taken with interrupts off), each operation on
 * its own, and timer_list's pair, with 1,000 timers pending.
 *
 * Then bursts: 10^4 and 10^5 timers of each kind due at the same time, and
 * what expiring one of them costs.
 *
 * Then lateness: nlate timers one at a time, 0.5 .. 5 ms each, armed
 * once the previous one fired, on hwtimer (no slack) and on hrtimer in
 * both of its expiry contexts; lateness is the callback's clock read minus
 * the deadline.
 *
 * Loading the module runs it and prints one JSON object per line:
 *   hwtimer_bench: {"layer":"kernel","impl":"hrtimer","n":1000,...}
 * then it stays loaded, idle, until rmmod.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/completion.h>
#include <linux/hrtimer.h>
#include <linux/hwtimer.h>
#include <linux/jiffies.h>
#include <linux/ktime.h>
#include <linux/module.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/sort.h>
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

static uint nlate = 200;
module_param(nlate, uint, 0444);
MODULE_PARM_DESC(nlate, "Timers, one at a time, of each lateness run (default 200)");

static bool lateness_only;
module_param(lateness_only, bool, 0444);
MODULE_PARM_DESC(lateness_only, "Run the lateness runs alone (bench/icount.sh)");

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
 * @burst: set up and arm @n timers of @base due at once, about @ahead ns
 *	   from now; returns their deadline, or 0 if it is no exact time;
 *	   NULL for a second run of the same kind
 */
struct hwtb_impl {
	const char *name;
	size_t size;
	void (*init)(void *base, u32 i);
	void (*arm)(void *base, u32 i, u64 ns);
	void (*cancel)(void *base, u32 i);
	u64 (*burst)(void *base, u32 n, u64 ahead);
};

/* A burst: many timers due at once, and how fast a pass expires them */

/*
 * Far enough ahead that arming ends before the deadline, even under TCG:
 * a timer armed after it would fire at once, and a burst would become a
 * stream of interrupts. arm_margin_ns in the output says how it went
 * (where the deadline is an exact time).
 */
#define HWTB_BURST_AHEAD(n)	(10 * NSEC_PER_MSEC + (u64)(n) * 4 * NSEC_PER_USEC)

static atomic_t hwtb_burst_count;
static u32 hwtb_burst_n;
static u64 hwtb_burst_first, hwtb_burst_last;
static DECLARE_COMPLETION(hwtb_burst_done);

static void hwtb_burst_fired(void)
{
	u32 c = atomic_inc_return(&hwtb_burst_count);

	if (c == 1)
		hwtb_burst_first = ktime_get_ns();
	if (c == hwtb_burst_n) {
		hwtb_burst_last = ktime_get_ns();
		complete(&hwtb_burst_done);
	}
}

static void hwtb_burst_hw(struct hwtimer *t)
{
	hwtb_burst_fired();
}

static enum hrtimer_restart hwtb_burst_hr(struct hrtimer *t)
{
	hwtb_burst_fired();
	return HRTIMER_NORESTART;
}

static void hwtb_burst_tl(struct timer_list *t)
{
	hwtb_burst_fired();
}

static u64 hw_burst(void *base, u32 n, u64 ahead)
{
	struct hwtimer *hw = base;
	u64 deadline = ktime_get_ns() + ahead;
	u32 i;

	for (i = 0; i < n; i++) {
		hwtimer_init(&hw[i], hwtb_burst_hw, 0);
		hwtimer_start(&hw[i], deadline, 0, HWTIMER_ABS);
	}
	return deadline;
}

/* in softirq mode, as hwtimer's callbacks run */
static u64 hr_burst(void *base, u32 n, u64 ahead)
{
	struct hrtimer *hr = base;
	u64 deadline = ktime_get_ns() + ahead;
	u32 i;

	for (i = 0; i < n; i++) {
		hwt_hrtimer_setup(&hr[i], hwtb_burst_hr, CLOCK_MONOTONIC,
				  HRTIMER_MODE_ABS_SOFT);
		hrtimer_start(&hr[i], ns_to_ktime(deadline),
			      HRTIMER_MODE_ABS_SOFT);
	}
	return deadline;
}

/* a jiffy has no time of its own: no deadline to measure lateness from */
static u64 tl_burst(void *base, u32 n, u64 ahead)
{
	struct timer_list *tl = base;
	unsigned long j = jiffies + nsecs_to_jiffies(ahead);
	u32 i;

	for (i = 0; i < n; i++) {
		timer_setup(&tl[i], hwtb_burst_tl, 0);
		mod_timer(&tl[i], j);
	}
	return 0;
}

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

/* absolute deadlines, from the time the run started */
static u64 hwtb_abs_base;

static void hw_arm_abs(void *base, u32 i, u64 ns)
{
	hwtimer_start((struct hwtimer *)base + i, hwtb_abs_base + ns, 0,
		      HWTIMER_ABS);
}

static void hr_arm_abs(void *base, u32 i, u64 ns)
{
	hrtimer_start((struct hrtimer *)base + i,
		      ns_to_ktime(hwtb_abs_base + ns), HRTIMER_MODE_ABS);
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
	{ "hwtimer", sizeof(struct hwtimer), hw_init, hw_arm, hw_cancel,
	  hw_burst },
	{ "hwtimer_abs", sizeof(struct hwtimer), hw_init, hw_arm_abs,
	  hw_cancel, NULL },
	{ "hrtimer", sizeof(struct hrtimer), hr_init, hr_arm, hr_cancel,
	  hr_burst },
	{ "hrtimer_abs", sizeof(struct hrtimer), hr_init, hr_arm_abs,
	  hr_cancel, NULL },
	{ "timer_list", sizeof(struct timer_list), tl_init, tl_arm, tl_cancel,
	  tl_burst },
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
	hwtb_abs_base = ktime_get_ns();
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

/* Where the time goes */

#define HWTB_NPARTS	1000
#define HWTB_PART_OPS	100000

static DEFINE_RAW_SPINLOCK(hwtb_lock);

/* ns per iteration of @body, HWTB_PART_OPS times with i counting */
#define HWTB_PART(body) ({						\
	u64 __t0 = ktime_get_ns();					\
	for (i = 0; i < HWTB_PART_OPS; i++) {				\
		body;							\
	}								\
	div_u64(ktime_get_ns() - __t0, HWTB_PART_OPS);			\
})

static int hwtb_parts(void)
{
	struct hwtimer *ht = vzalloc(array_size(HWTB_NPARTS, sizeof(*ht)));
	struct timer_list *tl = vzalloc(array_size(HWTB_NPARTS, sizeof(*tl)));
	u64 clock, coarse, jif, lock, pair, start, refused, idle, tl_pair;
	unsigned long flags;
	u64 sink = 0;
	u32 i;

	if (!ht || !tl) {
		vfree(ht);
		vfree(tl);
		return -ENOMEM;
	}
	hwtb_rnd = 0x9a27;
	for (i = 0; i < HWTB_NPARTS; i++) {
		hwtimer_init(&ht[i], hwtb_hwtimer_fn, 0);
		hwtimer_start(&ht[i], hwtb_delay(), 0, HWTIMER_REL);
		timer_setup(&tl[i], hwtb_timer_fn, 0);
		mod_timer(&tl[i], jiffies + nsecs_to_jiffies(hwtb_delay()));
	}
	clock = HWTB_PART(sink += ktime_get_ns());
	coarse = HWTB_PART(sink += ktime_get_coarse_ns());
	jif = HWTB_PART(sink += READ_ONCE(jiffies));
	lock = HWTB_PART(raw_spin_lock_irqsave(&hwtb_lock, flags);
			 raw_spin_unlock_irqrestore(&hwtb_lock, flags));
	pair = HWTB_PART(hwtimer_cancel(&ht[i % HWTB_NPARTS]);
			 hwtimer_start(&ht[i % HWTB_NPARTS], hwtb_delay(), 0,
				       HWTIMER_REL));
	start = HWTB_PART(hwtimer_start(&ht[i % HWTB_NPARTS], hwtb_delay(), 0,
					HWTIMER_REL));
	/* an arm refused by its condition: the lock, the clock read, the checks */
	refused = HWTB_PART(hwtimer_modify(&ht[i % HWTB_NPARTS],
					   hwtb_delay(), HWTIMER_IF_IDLE));
	tl_pair = HWTB_PART(hwt_timer_delete(&tl[i % HWTB_NPARTS]);
			    mod_timer(&tl[i % HWTB_NPARTS],
				      jiffies + nsecs_to_jiffies(hwtb_delay())));
	for (i = 0; i < HWTB_NPARTS; i++) {
		hwtimer_cancel(&ht[i]);
		hwt_timer_delete(&tl[i]);
	}
	idle = HWTB_PART(hwtimer_cancel(&ht[i % HWTB_NPARTS]));
	pr_info("{\"layer\":\"kernel\",\"kernel\":\"%s\",\"workload\":\"parts\",\"n\":%d,\"clock_ns\":%llu,\"coarse_clock_ns\":%llu,\"jiffies_ns\":%llu,\"raw_lock_irqsave_ns\":%llu,\"hw_cancel_start_ns\":%llu,\"hw_start_pending_ns\":%llu,\"hw_arm_refused_ns\":%llu,\"hw_cancel_idle_ns\":%llu,\"tl_delete_mod_ns\":%llu,\"sink\":%llu}\n",
		init_utsname()->release, HWTB_NPARTS, clock, coarse, jif, lock,
		pair, start, refused, idle, tl_pair, sink & 1);
	for (i = 0; i < HWTB_NPARTS; i++)
		hwtimer_shutdown_sync(&ht[i]);
	vfree(ht);
	vfree(tl);
	return 0;
}

/*
 * @n timers of @im's kind due at the same time, HWTB_BURST_AHEAD() from now
 * (timer_list: at the same jiffy, some time near then; hrtimer in softirq
 * mode). The first one's lateness (not timer_list's), then the time from
 * the first callback to the last per timer: what expiring one timer costs
 * in a pass (for hwtimer, a unit of HWT_PASS_BUDGET), callback included.
 */
static int hwtb_burst(const struct hwtb_impl *im, u32 n)
{
	void *base = vzalloc(array_size(n, im->size));
	char late[72] = "";
	u64 deadline, armed;
	u32 i;

	if (!base)
		return -ENOMEM;
	atomic_set(&hwtb_burst_count, 0);
	hwtb_burst_n = n;
	reinit_completion(&hwtb_burst_done);
	deadline = im->burst(base, n, HWTB_BURST_AHEAD(n));
	armed = ktime_get_ns();
	wait_for_completion(&hwtb_burst_done);
	if (deadline)
		snprintf(late, sizeof(late),
			 ",\"arm_margin_ns\":%lld,\"first_late_ns\":%lld",
			 (s64)(deadline - armed),
			 (s64)(hwtb_burst_first - deadline));
	pr_info("{\"layer\":\"kernel\",\"kernel\":\"%s\",\"impl\":\"%s\",\"workload\":\"burst\",\"timers\":%u%s,\"drain_ns\":%llu,\"per_timer_ns\":%llu}\n",
		init_utsname()->release, im->name, n, late,
		hwtb_burst_last - hwtb_burst_first,
		div_u64(hwtb_burst_last - hwtb_burst_first, n - 1));
	if (im->burst == hw_burst)
		for (i = 0; i < n; i++)
			hwtimer_shutdown_sync((struct hwtimer *)base + i);
	vfree(base);
	return 0;
}

/* Lateness, one timer at a time */

/**
 * struct hwtb_late - one timer of the lateness run, of either kind
 * @hw: the hwtimer
 * @hr: the hrtimer
 * @deadline: what it was armed for, on CLOCK_MONOTONIC
 * @fired_at: the callback's clock read
 * @done: signalled by the callback
 */
struct hwtb_late {
	struct hwtimer hw;
	struct hrtimer hr;
	u64 deadline;
	u64 fired_at;
	struct completion done;
};

static void hwtb_late_hw(struct hwtimer *t)
{
	struct hwtb_late *l = container_of(t, struct hwtb_late, hw);

	l->fired_at = ktime_get_ns();
	complete(&l->done);
}

static enum hrtimer_restart hwtb_late_hr(struct hrtimer *t)
{
	struct hwtb_late *l = container_of(t, struct hwtb_late, hr);

	l->fired_at = ktime_get_ns();
	complete(&l->done);
	return HRTIMER_NORESTART;
}

static int hwtb_cmp_s64(const void *a, const void *b)
{
	s64 x = *(const s64 *)a, y = *(const s64 *)b;

	return x < y ? -1 : x > y;
}

/* @mode: -1 for hwtimer, else the hrtimer mode */
static int hwtb_lateness(const char *name, int mode)
{
	struct hwtb_late *l = kzalloc(sizeof(*l), GFP_KERNEL);
	s64 *late = kcalloc(nlate, sizeof(*late), GFP_KERNEL);
	u32 i, early = 0;

	if (!l || !late) {
		kfree(l);
		kfree(late);
		return -ENOMEM;
	}
	hwtb_rnd = 0x1a7e;
	if (mode < 0)
		hwtimer_init(&l->hw, hwtb_late_hw, 0);
	else
		hwt_hrtimer_setup(&l->hr, hwtb_late_hr, CLOCK_MONOTONIC, mode);
	for (i = 0; i < nlate; i++) {
		init_completion(&l->done);
		l->deadline = ktime_get_ns() + 500 * NSEC_PER_USEC +
			      hwtb_next() % (4500 * NSEC_PER_USEC);
		if (mode < 0)
			hwtimer_start(&l->hw, l->deadline, 0, HWTIMER_ABS);
		else
			hrtimer_start(&l->hr, ns_to_ktime(l->deadline), mode);
		wait_for_completion(&l->done);
		late[i] = (s64)(l->fired_at - l->deadline);
		early += late[i] < 0;
	}
	if (mode < 0)
		hwtimer_shutdown_sync(&l->hw);
	else
		hrtimer_cancel(&l->hr);
	sort(late, nlate, sizeof(*late), hwtb_cmp_s64, NULL);
	pr_info("{\"layer\":\"kernel\",\"kernel\":\"%s\",\"impl\":\"%s\",\"workload\":\"lateness\",\"timers\":%d,\"late_p50_ns\":%lld,\"late_p99_ns\":%lld,\"late_max_ns\":%lld,\"early\":%u}\n",
		init_utsname()->release, name, nlate, late[nlate / 2],
		late[nlate * 99 / 100], late[nlate - 1], early);
	kfree(late);
	kfree(l);
	return 0;
}

/* The cancel + arm runs, where a pair goes, and the bursts. */
static int __init hwtb_costs(void)
{
	unsigned int k;
	u32 n;
	int ret;

	for (n = 1000; n && n <= max_n; n *= 10) {
		for (k = 0; k < ARRAY_SIZE(hwtb_impls); k++) {
			ret = hwtb_run(&hwtb_impls[k], n);
			if (ret)
				return ret;
		}
	}
	ret = hwtb_parts();
	if (ret)
		return ret;
	if (atomic_read(&hwtb_fired))
		pr_warn("%d timers fired during the run\n",
			atomic_read(&hwtb_fired));
	for (n = 10000; n <= min(max_n, 100000U); n *= 10) {
		for (k = 0; k < ARRAY_SIZE(hwtb_impls); k++) {
			if (!hwtb_impls[k].burst)
				continue;
			ret = hwtb_burst(&hwtb_impls[k], n);
			if (ret)
				return ret;
		}
	}
	return 0;
}

static int __init hwtb_init(void)
{
	int ret;

	if (!ops || !nlate)
		return -EINVAL;
	ret = lateness_only ? 0 : hwtb_costs();
	ret = ret ?: hwtb_lateness("hwtimer", -1) ?:
	      hwtb_lateness("hrtimer (softirq)", HRTIMER_MODE_ABS_SOFT) ?:
	      hwtb_lateness("hrtimer (hardirq)", HRTIMER_MODE_ABS_HARD);
	if (ret)
		return ret;
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
