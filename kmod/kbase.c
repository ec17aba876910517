// SPDX-License-Identifier: GPL-2.0
/*
 * hwtimer in-kernel API: the per-CPU bases, their expiry pass, sleepable
 * callbacks, and each base's hrtimer kept on its CPU. See kbase.h.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/cpuhotplug.h>
#include <linux/percpu.h>
#include <linux/slab.h>
#include <linux/smp.h>
#include <linux/workqueue.h>

#include "kbase.h"
#include "hwt_trace.h"

DEFINE_PER_CPU(struct hwt_kbase *, hwt_kbases[HWT_NR_CLOCKS]);
static struct workqueue_struct *hwt_wq;
static int hwt_hp_prepare = -1;
static int hwt_hp_state = -1;

/**
 * hwt_kbase_lock_timer() - lock the base a timer is on
 * @t: the timer
 * @flags: saved interrupt state
 *
 * Return: the base, locked with interrupts off; @t stays on it until it is
 * unlocked.
 */
struct hwt_kbase *hwt_kbase_lock_timer(struct hwtimer *t, unsigned long *flags)
	__acquires(&t->base->lock)
{
	for (;;) {
		struct hwt_kbase *kb = READ_ONCE(t->base);

		raw_spin_lock_irqsave(&kb->lock, *flags);
		if (likely(kb == t->base))
			return kb;
		/* moved meanwhile: follow it */
		raw_spin_unlock_irqrestore(&kb->lock, *flags);
	}
}

/**
 * hwt_kbase_wait_running() - wait until a base's pass has left a callback
 * @kb: the base, on which the caller counted itself in @kb->waiters
 *
 * Takes the expiry lock, which the pass drops after a callback when someone
 * waits. On PREEMPT_RT it is a sleeping lock with priority inheritance, so
 * a high-priority canceller boosts the pass it waits for.
 */
void hwt_kbase_wait_running(struct hwt_kbase *kb)
{
	spin_lock_bh(&kb->expiry_lock);
	spin_unlock_bh(&kb->expiry_lock);
	atomic_dec(&kb->waiters);
}

/**
 * hwt_call() - run a timer's callback
 * @t: the timer, which the callback may free
 *
 * With lockdep, the callback runs holding a copy of the timer's lockdep
 * map, which hwtimer_cancel_sync() takes too, as timer_list does.
 */
static void hwt_call(struct hwtimer *t)
{
#ifdef CONFIG_LOCKDEP
	struct lockdep_map map;

	lockdep_copy_map(&map, &t->lockdep_map);
	lock_map_acquire(&map);
#endif
	t->fn(t);
#ifdef CONFIG_LOCKDEP
	lock_map_release(&map);
#endif
}

/*
 * Re-arm a periodic timer after it fired at @fired, with the base locked;
 * @now is the time it is re-armed at. Returns the periods it missed.
 */
static u64 hwt_kbase_rearm(struct hwt_kbase *kb, struct hwtimer *t,
			   u64 fired, u64 now)
{
	u64 missed;

	lockdep_assert_held(&kb->lock);
	t->node.expires = hwt_period_next(t->node.expires, fired, now,
					  t->period,
					  t->flags & HWTIMER_FIXED_DELAY,
					  &missed);
	hwt_gstat_add(HWT_C_OVERRUNS, missed);
	hwt_base_add(&kb->base, &t->node, now, 0);
	t->state |= HWT_PENDING;
	return missed;
}

/*
 * A sleepable timer fired: queue its callback, and re-arm it now if it is
 * periodic, so that the work item is the last thing hwtimer touches of it.
 */
static void hwt_kbase_queue(struct hwt_kbase *kb, struct hwtimer *t, u64 now)
{
	struct hwtimer_sleepable *st = hwt_sleepable(t);

	WRITE_ONCE(st->fired, now);
	if (t->state & HWT_QUEUED) {
		st->missed++;	/* the callback has not started since */
	} else {
		t->state |= HWT_QUEUED;
		queue_work(hwt_wq, &st->work);
	}
	if (t->period)
		st->missed += hwt_kbase_rearm(kb, t, now, now);
}

/*
 * Run a softirq timer's callback. Called with the base locked, returns with
 * it unlocked. After the callback, @t is touched only if @kb->rearm says
 * it is still a periodic timer nobody cancelled or re-armed.
 */
static void hwt_kbase_run(struct hwt_kbase *kb, struct hwtimer *t, u64 now,
			  unsigned long *flags)
	__releases(&kb->lock)
{
	lockdep_assert_held(&kb->lock);
	kb->running = t;
	WRITE_ONCE(kb->fired, now);
	kb->rearm = t->period != 0;
	raw_spin_unlock_irqrestore(&kb->lock, *flags);
	hwt_call(t);
	raw_spin_lock_irqsave(&kb->lock, *flags);
	if (kb->rearm)
		t->overruns = min_t(u64, U32_MAX,
				    hwt_kbase_rearm(kb, t, now,
						    hwt_base_now(&kb->base)));
	kb->running = NULL;
	raw_spin_unlock_irqrestore(&kb->lock, *flags);
	if (atomic_read(&kb->waiters)) {
		/* let hwtimer_cancel_sync() see the callback finished */
		spin_unlock(&kb->expiry_lock);
		spin_lock(&kb->expiry_lock);
	}
}

/*
 * One pass. Softirq timers' callbacks run with the base unlocked; between
 * them, and every HWT_PASS_CHECK sleepable timers queued, the lock is
 * dropped, so that no raw section outlasts a bounded step of the pass.
 * Returns true if the pass left work due, with the hrtimer not armed.
 */
static bool hwt_kbase_pass(struct hwt_kbase *kb, enum hwt_pass_kind kind,
			   u64 start)
{
	struct hwt_base *b = &kb->base;
	unsigned int held = 0;
	struct hwt_expiry x;
	struct hwt_node *n;
	unsigned long flags;
	bool more;

	raw_spin_lock_irqsave(&kb->lock, flags);
	hwt_base_expiry_begin(b, &x, kind, start);
	while ((n = hwt_base_expire_next(b, &x))) {
		struct hwtimer *t = container_of(n, struct hwtimer, node);

		trace_hwt_expire(b->clockid, t, 0, n->expires, x.now);
		t->state &= ~HWT_PENDING;
		if (t->flags & HWT_F_SLEEPABLE) {
			hwt_kbase_queue(kb, t, x.now);
			if (++held < HWT_PASS_CHECK)
				continue;
			raw_spin_unlock_irqrestore(&kb->lock, flags);
		} else {
			hwt_kbase_run(kb, t, x.now, &flags);
		}
		held = 0;
		raw_spin_lock_irqsave(&kb->lock, flags);
		hwt_base_expiry_relocked(b, &x);
	}
	more = hwt_base_expiry_end(b, &x) == HWT_END_DUE;
	raw_spin_unlock_irqrestore(&kb->lock, flags);
	return more;
}

/*
 * The hrtimer callback: passes while hwt_run_more() says so. Callbacks run
 * in softirq context, so the rest is not handed to a thread: it waits for
 * a later softirq run (base.h). The expiry lock is dropped between passes,
 * for a hwtimer_cancel_sync() that waits.
 */
static enum hrtimer_restart hwt_kbase_tick(struct hrtimer *hrt)
{
	struct hwt_kbase *kb = container_of(hrt, struct hwt_kbase, base.hrt);
	enum hwt_pass_kind kind = HWT_PASS_WAKEUP;
	u64 start = hwt_cpu_clock();
	unsigned long flags;

	spin_lock(&kb->expiry_lock);
	/* the first pass starts with the run; each after it reads the clock */
	while (hwt_kbase_pass(kb, kind, kind == HWT_PASS_WAKEUP ?
			      start : hwt_cpu_clock())) {
		if (!hwt_run_more(start)) {
			raw_spin_lock_irqsave(&kb->lock, flags);
			hwt_base_expiry_defer(&kb->base);
			raw_spin_unlock_irqrestore(&kb->lock, flags);
			break;
		}
		spin_unlock(&kb->expiry_lock);
		spin_lock(&kb->expiry_lock);
		kind = HWT_PASS_CONTINUED;
	}
	spin_unlock(&kb->expiry_lock);
	return HRTIMER_NORESTART;
}

/* The work item of a struct hwtimer_sleepable. */
void hwt_kbase_work_fn(struct work_struct *work)
{
	struct hwtimer_sleepable *st =
		container_of(work, struct hwtimer_sleepable, work);
	struct hwtimer *t = &st->timer;
	struct hwt_kbase *kb;
	unsigned long flags;
	bool run;

	kb = hwt_kbase_lock_timer(t, &flags);
	/* a cancel since the timer fired clears QUEUED */
	run = t->state & HWT_QUEUED;
	if (run) {
		t->state &= ~HWT_QUEUED;
		t->overruns = st->missed;
		st->missed = 0;
	}
	raw_spin_unlock_irqrestore(&kb->lock, flags);
	/* the workqueue does not touch @work after this either */
	if (run)
		hwt_call(t);
}

/* On a base's CPU, in an IPI: program its hrtimer, as another CPU cannot. */
static void hwt_kbase_arm_csd(void *arg)
{
	struct hwt_kbase *kb = arg;
	unsigned long flags;

	raw_spin_lock_irqsave(&kb->lock, flags);
	hwt_base_rearm(&kb->base);
	raw_spin_unlock_irqrestore(&kb->lock, flags);
}

/*
 * CPU hotplug, run on the CPU itself. Online: bring the bases' hrtimers
 * back, since hrtimer moved them away when the CPU went down. Offline
 * (before hrtimer moves them): stop sending arm_csd there, so that none
 * is sent to a CPU that no longer runs it; the hrtimers are
 * then programmed wherever their base is armed from.
 */
static int hwt_cpu_set(unsigned int cpu, bool online)
{
	unsigned int clk;

	for (clk = 0; clk < HWT_NR_CLOCKS; clk++) {
		struct hwt_kbase *kb = per_cpu(hwt_kbases[clk], cpu);
		unsigned long flags;

		raw_spin_lock_irqsave(&kb->lock, flags);
		kb->base.cpu_online = online;
		if (online)
			hwt_base_rearm(&kb->base);
		raw_spin_unlock_irqrestore(&kb->lock, flags);
	}
	return 0;
}

static int hwt_cpu_online(unsigned int cpu)
{
	return hwt_cpu_set(cpu, true);
}

static int hwt_cpu_offline(unsigned int cpu)
{
	return hwt_cpu_set(cpu, false);
}

/* The wheel's struct hwt_wheel.slack_of for the in-kernel bases. */
static u64 hwt_kslack(const struct hwt_node *n)
{
	return n->owner;
}

static void hwt_kbase_free_all(void)
{
	unsigned int cpu, clk;

	for_each_possible_cpu(cpu) {
		for (clk = 0; clk < HWT_NR_CLOCKS; clk++) {
			struct hwt_kbase *kb = per_cpu(hwt_kbases[clk], cpu);

			if (!kb)
				continue;
			hwt_base_destroy(&kb->base);
			kfree(kb);
			per_cpu(hwt_kbases[clk], cpu) = NULL;
		}
	}
}

static int hwt_kbase_create(unsigned int cpu, unsigned int clk)
{
	struct hwt_kbase *kb;
	int ret;

	if (per_cpu(hwt_kbases[clk], cpu))
		return 0;	/* the CPU was online before */
	kb = kzalloc_node(sizeof(*kb), GFP_KERNEL, cpu_to_node(cpu));
	if (!kb)
		return -ENOMEM;
	ret = hwt_base_init(&kb->base, hwt_clockids[clk], hwt_kbase_tick,
			    HRTIMER_MODE_ABS_SOFT, hwt_kslack, GFP_KERNEL);
	if (ret) {
		kfree(kb);
		return ret;
	}
	raw_spin_lock_init(&kb->lock);
	spin_lock_init(&kb->expiry_lock);
	atomic_set(&kb->waiters, 0);
	kb->base.cpu = cpu;
	INIT_CSD(&kb->base.arm_csd, hwt_kbase_arm_csd, kb);
	/* complete before __hwtimer_init_on() on another CPU can see it */
	smp_store_release(&per_cpu(hwt_kbases[clk], cpu), kb);
	return 0;
}

/*
 * CPU hotplug, before the CPU comes up (on another CPU, which may sleep):
 * its bases, the first time it comes online. They stay when it goes
 * offline, with the timers on them (hrtimer moves their hrtimers away,
 * hwt_cpu_offline()), until the module goes: so a CPU that was never
 * online costs nothing, and one that was costs the same as ever.
 */
static int hwt_cpu_prepare(unsigned int cpu)
{
	unsigned int clk;
	int ret;

	for (clk = 0; clk < HWT_NR_CLOCKS; clk++) {
		ret = hwt_kbase_create(cpu, clk);
		if (ret)
			return ret;
	}
	return 0;
}

int hwt_kbase_init(void)
{
	int ret;

	hwt_wq = alloc_workqueue("hwtimer", WQ_UNBOUND, 0);
	if (!hwt_wq)
		return -ENOMEM;
	/* the bases of the CPUs online now, and of each that comes up */
	ret = cpuhp_setup_state(CPUHP_BP_PREPARE_DYN, "hwtimer/api:prepare",
				hwt_cpu_prepare, NULL);
	if (ret < 0)
		goto fail;
	hwt_hp_prepare = ret;
	ret = cpuhp_setup_state(CPUHP_AP_ONLINE_DYN, "hwtimer/api:online",
				hwt_cpu_online, hwt_cpu_offline);
	if (ret < 0)
		goto fail_prepare;
	hwt_hp_state = ret;
	return 0;
fail_prepare:
	cpuhp_remove_state(hwt_hp_prepare);
fail:
	hwt_kbase_free_all();
	destroy_workqueue(hwt_wq);
	return ret;
}

static void hwt_nop(void *unused)
{
}

void hwt_kbase_exit(void)
{
	/* clients hold module references, so every timer is gone */
	cpuhp_remove_state(hwt_hp_state);
	cpuhp_remove_state(hwt_hp_prepare);
	/*
	 * An arm_csd sent by the last arm may still be queued. A CPU takes
	 * its whole queue at once and runs the waited-for calls of it first,
	 * so one round of waited-for calls may finish before an arm_csd
	 * queued earlier; a second round is queued only after that, and
	 * runs after the batch that held the arm_csd.
	 */
	on_each_cpu(hwt_nop, NULL, 1);
	on_each_cpu(hwt_nop, NULL, 1);
	hwt_kbase_free_all();
	destroy_workqueue(hwt_wq);
}
