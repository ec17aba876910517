// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit suite of hostile driver patterns against hwtimer's in-kernel API:
 * what timer_list and hrtimer users do, and expect to be safe. Each case is
 * one behaviour of the contract in <linux/hwtimer.h>:
 *  - hwtimer_cancel_sync() and hwtimer_shutdown_sync() win against a
 *    callback that re-arms its own timer, softirq and sleepable alike;
 *  - no callback runs after hwtimer_cancel_sync() returned, over 10^5
 *    start/cancel_sync pairs whose timer moves between two CPUs;
 *  - threads on two CPUs arming, moving and cancelling each other's timers
 *    while they fire: every arming fires once or is cancelled;
 *  - a callback may kfree() its own timer (KASAN stays silent);
 *  - start, modify and cancel work from a HARD hrtimer callback and under a
 *    raw spinlock (lockdep, with PROVE_RAW_LOCK_NESTING, stays silent).
 * Where callbacks run is api_cpu_kunit.c's.
 * Splats fail the run even where the case itself cannot see them.
 */
#include <kunit/test.h>
#include <linux/atomic.h>
#include <linux/cpumask.h>
#include <linux/delay.h>
#include <linux/hrtimer.h>
#include <linux/hwtimer.h>
#include <linux/kthread.h>
#include <linux/prandom.h>
#include <linux/rcupdate.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/smp.h>
#include <linux/spinlock.h>

#include "api_test.h"
#include "compat/compat.h"

/* A callback that holds its first run, then re-arms itself every time. */
struct hostile {
	union {
		struct hwtimer t;
		struct hwtimer_sleepable st;	/* st.timer is t */
	};
	atomic_t entered;
	atomic_t fires;
	atomic_t closed;	/* set once cancel_sync returned */
	atomic_t after;		/* callbacks that began after that */
};

static void hostile_fn(struct hwtimer *t)
{
	struct hostile *h = container_of(t, struct hostile, t);

	if (atomic_read(&h->closed))
		atomic_inc(&h->after);
	if (atomic_inc_return(&h->entered) == 1) {
		/* long enough for the test to call cancel_sync meanwhile */
		if (in_task())
			msleep(30);
		else
			spin_ms(30);
	}
	atomic_inc(&h->fires);
	hwtimer_start(t, 50 * US, 0, HWTIMER_REL);
}

/*
 * Arm @h from CPU @a, then from CPU @b wait for its callback to begin and
 * cancel it with @shutdown or not: the callback re-arms its timer after
 * the canceller started waiting for it.
 */
static void check_rearm_race(struct kunit *test, bool sleepable,
			     bool shutdown)
{
	struct hostile *h = kunit_kzalloc(test, sizeof(*h), GFP_KERNEL);
	unsigned int a, b;
	int fires;

	KUNIT_ASSERT_NOT_NULL(test, h);
	two_cpus(test, &a, &b);
	/* initialised and armed on @a: its callback runs there */
	move_to(test, a);
	if (sleepable)
		hwtimer_init_sleepable(&h->st, hostile_fn, 0);
	else
		hwtimer_init(&h->t, hostile_fn, 0);
	KUNIT_ASSERT_EQ(test, hwtimer_start(&h->t, MS, 0, HWTIMER_REL), 0);
	move_to(test, b);
	/* spin: a sleep's own timer might have to wait for @a's callback */
	KUNIT_ASSERT_TRUE(test, spin_until(&h->entered, 1, 20000));
	if (shutdown)
		hwtimer_shutdown_sync(&h->t);
	else
		hwtimer_cancel_sync(&h->t);
	atomic_set(&h->closed, 1);
	fires = atomic_read(&h->fires);
	KUNIT_EXPECT_FALSE(test, hwtimer_pending(&h->t));
	msleep(50);
	KUNIT_EXPECT_EQ(test, atomic_read(&h->after), 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&h->fires), fires);
	if (shutdown)
		KUNIT_EXPECT_EQ(test, hwtimer_start(&h->t, MS, 0, HWTIMER_REL),
				-ESHUTDOWN);
	hwtimer_cancel_sync(&h->t);
	set_cpus_allowed_ptr(current, cpu_possible_mask);
}

static void api_cancel_sync_beats_self_rearm(struct kunit *test)
{
	check_rearm_race(test, false, false);
}

static void api_cancel_sync_beats_self_rearm_sleepable(struct kunit *test)
{
	check_rearm_race(test, true, false);
}

static void api_shutdown_sync_beats_self_rearm(struct kunit *test)
{
	check_rearm_race(test, false, true);
}

static void api_shutdown_sync_beats_self_rearm_sleepable(struct kunit *test)
{
	check_rearm_race(test, true, true);
}

/*
 * Up to 10^5 start/cancel_sync pairs on one timer, by two threads on two
 * CPUs, for 10 s, or more until 1,000 are done (60 s at most): in turn,
 * one arms the timer (which moves it to
 * its CPU) and the other cancels it with hwtimer_cancel_sync() after a
 * random spin, while the callback may be running on the first. @gen is odd
 * while the timer may fire and even once cancel_sync returned; a callback
 * that sees it even ran after cancel_sync returned. Some callbacks re-arm
 * themselves. A machine busy with other work takes longer, not fails.
 */
#define STRESS_PAIRS	100000
#define STRESS_SECS	10
#define STRESS_MIN	1000	/* pairs done whatever the time it takes */
#define STRESS_CAP	60	/* seconds, past which it stops anyway */

struct stress {
	struct hwtimer t;
	atomic_t gen;
	atomic_t turn;		/* 2k: thread k % 2 arms; 2k + 1: the other cancels */
	atomic_t after;
	atomic_t fires;
	atomic_t pending_after;
	atomic_t stuck;
	atomic_t stop;		/* the time is up: the other thread stops too */
	unsigned long deadline;	/* STRESS_SECS in: it stops past STRESS_MIN */
	unsigned long cap;	/* STRESS_CAP in: it stops */
	unsigned int cpu[2];
	struct completion done[2];
};

static void stress_fn(struct hwtimer *t)
{
	struct stress *s = container_of(t, struct stress, t);
	int gen = atomic_read(&s->gen);

	if (!(gen & 1))
		atomic_inc(&s->after);
	atomic_inc(&s->fires);
	if (gen % 8 == 1)
		hwtimer_start(t, 2 * US, 0, HWTIMER_REL);
}

static int stress_thread(void *arg)
{
	struct stress *s = arg;
	unsigned int me = raw_smp_processor_id() == s->cpu[1];
	struct rnd_state rnd;
	int k;

	prandom_seed_state(&rnd, 42 + me);
	for (k = 0; k < STRESS_PAIRS; k++) {
		bool arms = (k & 1) == me;

		if (!spin_until(&s->turn, 2 * k + !arms, 30000)) {
			atomic_inc(&s->stuck);
			break;
		}
		if (atomic_read(&s->stop))
			break;
		/* a host that stalls the vCPUs takes longer, not fewer */
		if (arms && time_after(jiffies, s->deadline) &&
		    (k >= STRESS_MIN || time_after(jiffies, s->cap))) {
			/* hand the turn over, so that the other sees it */
			atomic_set(&s->stop, 1);
			atomic_inc(&s->turn);
			break;
		}
		if (arms) {
			atomic_set(&s->gen, 2 * k + 1);
			hwtimer_start(&s->t, prandom_u32_state(&rnd) % (20 * US),
				      0, HWTIMER_REL);
		} else {
			ndelay(prandom_u32_state(&rnd) % (30 * US));
			hwtimer_cancel_sync(&s->t);
			if (hwtimer_pending(&s->t))
				atomic_inc(&s->pending_after);
			atomic_set(&s->gen, 2 * k + 2);
		}
		atomic_inc(&s->turn);
		if (!(k & 255))
			cond_resched();
	}
	complete(&s->done[me]);
	return 0;
}

static void api_cancel_sync_stress_two_cpus(struct kunit *test)
{
	struct stress *s = kunit_kzalloc(test, sizeof(*s), GFP_KERNEL);
	unsigned int i;

	KUNIT_ASSERT_NOT_NULL(test, s);
	two_cpus(test, &s->cpu[0], &s->cpu[1]);
	hwtimer_init(&s->t, stress_fn, 0);
	s->deadline = jiffies + STRESS_SECS * HZ;
	s->cap = jiffies + STRESS_CAP * HZ;
	for (i = 0; i < 2; i++) {
		struct task_struct *tsk;

		init_completion(&s->done[i]);
		tsk = kthread_create(stress_thread, s, "hwt_stress/%u", i);
		KUNIT_ASSERT_FALSE(test, IS_ERR(tsk));
		kthread_bind(tsk, s->cpu[i]);
		wake_up_process(tsk);
	}
	for (i = 0; i < 2; i++)
		wait_done(test, &s->done[i], STRESS_CAP + 60,
			  "a start/cancel_sync thread");
	hwtimer_cancel_sync(&s->t);
	KUNIT_EXPECT_EQ(test, atomic_read(&s->stuck), 0);
	KUNIT_EXPECT_GE(test, atomic_read(&s->turn) / 2, STRESS_MIN);
	KUNIT_EXPECT_EQ(test, atomic_read(&s->after), 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&s->pending_after), 0);
	KUNIT_EXPECT_GT(test, atomic_read(&s->fires), 0);
	kunit_info(test, "%d pairs in %u s at most, %d callbacks\n",
		   atomic_read(&s->turn) / 2, STRESS_CAP,
		   atomic_read(&s->fires));
}

/* Objects whose callback frees them. */
struct selffree {
	struct hwtimer t;
	atomic_t *freed;
	bool periodic;
	int fires;
	char payload[64];
};

static void selffree_fn(struct hwtimer *t)
{
	struct selffree *o = container_of(t, struct selffree, t);
	atomic_t *freed = o->freed;

	memset(o->payload, 0x5a, sizeof(o->payload));
	/* a periodic timer is cancelled first, on its third fire */
	if (o->periodic && ++o->fires < 3)
		return;
	if (o->periodic)
		hwtimer_cancel(t);
	kfree(o);
	atomic_inc(freed);
}

static void api_callback_frees_its_timer(struct kunit *test)
{
	const int n = 200;
	atomic_t freed = ATOMIC_INIT(0);
	int i;

	for (i = 0; i < n; i++) {
		struct selffree *o = kzalloc(sizeof(*o), GFP_KERNEL);

		KUNIT_ASSERT_NOT_NULL(test, o);
		o->freed = &freed;
		o->periodic = !(i % 4);	/* one in four */
		hwtimer_init(&o->t, selffree_fn, 0);
		KUNIT_EXPECT_EQ(test, hwtimer_start(&o->t, (i % 50) * 40 * US,
						    o->periodic ? MS : 0,
						    HWTIMER_REL), 0);
	}
	KUNIT_EXPECT_TRUE(test, wait_until(atomic_read(&freed) == n, 20000));
	/* the last callbacks have returned: softirq callbacks are RCU readers */
	synchronize_rcu();
}

/* A HARD hrtimer callback that arms, modifies and cancels hwtimers. */
struct hardctx {
	struct hrtimer hr;
	struct hwtimer a, b;
	atomic_t a_fired, b_fired, done;
	int start_a, start_b, modify_a;
	bool cancel_b, hardirq;
};

static void hard_a_fn(struct hwtimer *t)
{
	atomic_inc(&container_of(t, struct hardctx, a)->a_fired);
}

static void hard_b_fn(struct hwtimer *t)
{
	atomic_inc(&container_of(t, struct hardctx, b)->b_fired);
}

static enum hrtimer_restart hard_hr_fn(struct hrtimer *hr)
{
	struct hardctx *c = container_of(hr, struct hardctx, hr);

	c->hardirq = in_hardirq();
	c->start_a = hwtimer_start(&c->a, 5 * MS, 0, HWTIMER_REL);
	c->start_b = hwtimer_start(&c->b, 5 * MS, 0, HWTIMER_REL);
	c->modify_a = hwtimer_modify(&c->a, 2 * MS, HWTIMER_REL);
	c->cancel_b = hwtimer_cancel(&c->b);
	atomic_set(&c->done, 1);
	return HRTIMER_NORESTART;
}

static void api_arm_cancel_from_hard_hrtimer(struct kunit *test)
{
	struct hardctx *c = kunit_kzalloc(test, sizeof(*c), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, c);
	hwtimer_init(&c->a, hard_a_fn, 0);
	hwtimer_init(&c->b, hard_b_fn, 0);
	hwt_hrtimer_setup(&c->hr, hard_hr_fn, CLOCK_MONOTONIC,
			  HRTIMER_MODE_REL_HARD);
	hrtimer_start(&c->hr, ns_to_ktime(MS), HRTIMER_MODE_REL_HARD);
	KUNIT_ASSERT_TRUE(test, wait_until(atomic_read(&c->done), 10000));
	KUNIT_EXPECT_TRUE(test, c->hardirq);
	KUNIT_EXPECT_EQ(test, c->start_a, 0);
	KUNIT_EXPECT_EQ(test, c->start_b, 0);
	KUNIT_EXPECT_EQ(test, c->modify_a, 1);
	KUNIT_EXPECT_TRUE(test, c->cancel_b);
	KUNIT_EXPECT_TRUE(test, wait_until(atomic_read(&c->a_fired) == 1, 10000));
	msleep(20);
	KUNIT_EXPECT_EQ(test, atomic_read(&c->b_fired), 0);
	hrtimer_cancel(&c->hr);
	hwtimer_cancel_sync(&c->a);
	hwtimer_cancel_sync(&c->b);
}

static DEFINE_RAW_SPINLOCK(api_raw_lock);

static void api_arm_cancel_under_raw_spinlock(struct kunit *test)
{
	struct hardctx *c = kunit_kzalloc(test, sizeof(*c), GFP_KERNEL);
	unsigned long flags;
	int start;
	bool cancelled;

	KUNIT_ASSERT_NOT_NULL(test, c);
	hwtimer_init(&c->a, hard_a_fn, 0);
	raw_spin_lock_irqsave(&api_raw_lock, flags);
	start = hwtimer_start(&c->a, 10 * MS, 0, HWTIMER_REL);
	cancelled = hwtimer_cancel(&c->a);
	raw_spin_unlock_irqrestore(&api_raw_lock, flags);
	KUNIT_EXPECT_EQ(test, start, 0);
	KUNIT_EXPECT_TRUE(test, cancelled);
	hwtimer_cancel_sync(&c->a);
}

/*
 * Two threads on two CPUs arm and cancel each other's timers while they fire.
 * The callback only counts: with other CPUs re-arming the timer while it
 * runs, what it could read of its deadline may already be the next one.
 */
struct race_timer {
	struct hwtimer t;
	atomic_t arms;		/* starts and modifies that armed it */
	atomic_t fires;
	atomic_t cancels;	/* cancels that found it pending */
};

static void count_fn(struct hwtimer *t)
{
	atomic_inc(&container_of(t, struct race_timer, t)->fires);
}

struct race {
	struct race_timer *p;
	unsigned int n;
	unsigned int cpu;
	u64 seed;
	unsigned long deadline;
	struct completion inited;
	struct completion go;
	struct completion done;
};

static int race_thread(void *arg)
{
	struct race *r = arg;
	struct rnd_state rnd;
	unsigned int i;

	prandom_seed_state(&rnd, r->seed);
	/* this thread's half binds to this CPU's base */
	for (i = r->cpu; i < r->n; i += 2)
		hwtimer_init(&r->p[i].t, count_fn, 0);
	complete(&r->inited);
	wait_for_completion(&r->go);	/* completed right after inited */
	while (time_before(jiffies, r->deadline)) {
		u32 v = prandom_u32_state(&rnd);
		struct race_timer *p = &r->p[(v >> 8) % r->n];
		u64 delay = (v >> 16) % (3 * MS / 1000) * 1000;

		switch (v % 4) {
		case 0:
		case 1:
			if (hwtimer_start(&p->t, delay, 0, HWTIMER_REL) == 0)
				atomic_inc(&p->arms);
			break;
		case 2:
			if (hwtimer_modify(&p->t, delay, HWTIMER_REL) == 0)
				atomic_inc(&p->arms);
			break;
		default:
			if (hwtimer_cancel(&p->t))
				atomic_inc(&p->cancels);
			break;
		}
		if (!(v & 0xff))
			cond_resched();
	}
	complete(&r->done);
	return 0;
}

static void api_concurrent_arm_cancel_two_cpus(struct kunit *test)
{
	const unsigned int n = 256;
	struct race_timer *p = kunit_kcalloc(test, n, sizeof(*p), GFP_KERNEL);
	struct race *r = kunit_kcalloc(test, 2, sizeof(*r), GFP_KERNEL);
	unsigned int i, cpus[2], arms = 0, fires = 0, cancels = 0;

	two_cpus(test, &cpus[0], &cpus[1]);
	KUNIT_ASSERT_NOT_NULL(test, p);
	KUNIT_ASSERT_NOT_NULL(test, r);
	for (i = 0; i < 2; i++) {
		struct task_struct *tsk;

		r[i] = (struct race){ .p = p, .n = n, .cpu = i, .seed = 1 + i };
		init_completion(&r[i].inited);
		init_completion(&r[i].go);
		init_completion(&r[i].done);
		tsk = kthread_create(race_thread, &r[i], "hwt_race/%u", i);
		KUNIT_ASSERT_FALSE(test, IS_ERR(tsk));
		kthread_bind(tsk, cpus[i]);
		wake_up_process(tsk);
		wait_done(test, &r[i].inited, 60, "a race thread's start");
	}
	for (i = 0; i < 2; i++) {
		r[i].deadline = jiffies + 2 * HZ;
		complete(&r[i].go);
	}
	for (i = 0; i < 2; i++)
		wait_done(test, &r[i].done, 60, "a race thread's 2 s of work");

	for (i = 0; i < n; i++) {
		if (hwtimer_cancel_sync(&p[i].t))
			atomic_inc(&p[i].cancels);
		/* every arming fired exactly once or was cancelled */
		KUNIT_EXPECT_EQ_MSG(test, atomic_read(&p[i].arms),
				    atomic_read(&p[i].fires) +
				    atomic_read(&p[i].cancels), "timer %u", i);
		arms += atomic_read(&p[i].arms);
		fires += atomic_read(&p[i].fires);
		cancels += atomic_read(&p[i].cancels);
	}
	KUNIT_EXPECT_GT(test, fires, 0U);
	KUNIT_EXPECT_GT(test, cancels, 0U);
	kunit_info(test, "CPUs %u+%u: %u armings, %u fired, %u cancelled\n",
		   cpus[0], cpus[1], arms, fires, cancels);
}

static void api_struct_sizes(struct kunit *test)
{
	if (!IS_ENABLED(CONFIG_64BIT))
		kunit_skip(test, "the sizes are for 64-bit kernels");
	/* lockdep adds a map per timer, as it does to timer_list */
	KUNIT_EXPECT_LE(test, sizeof(struct hwtimer),
			64 + (IS_ENABLED(CONFIG_LOCKDEP) ?
			      sizeof(struct lockdep_map) : 0));
	KUNIT_EXPECT_LE(test, sizeof(struct hwtimer_sleepable),
			sizeof(struct hwtimer) + sizeof(struct work_struct) + 16);
}

static struct kunit_case hwtimer_api_cases[] = {
	KUNIT_CASE(api_struct_sizes),
	KUNIT_CASE(api_cancel_sync_beats_self_rearm),
	KUNIT_CASE(api_cancel_sync_beats_self_rearm_sleepable),
	KUNIT_CASE(api_shutdown_sync_beats_self_rearm),
	KUNIT_CASE(api_shutdown_sync_beats_self_rearm_sleepable),
	KUNIT_CASE(api_callback_frees_its_timer),
	KUNIT_CASE(api_arm_cancel_from_hard_hrtimer),
	KUNIT_CASE(api_arm_cancel_under_raw_spinlock),
	KUNIT_CASE_SLOW(api_cancel_sync_stress_two_cpus),
	KUNIT_CASE_SLOW(api_concurrent_arm_cancel_two_cpus),
	{}
};

static struct kunit_suite hwtimer_api_suite = {
	.name = "hwtimer_api",
	.test_cases = hwtimer_api_cases,
};

kunit_test_suite(hwtimer_api_suite);

MODULE_DESCRIPTION("KUnit suite of hostile driver patterns against hwtimer's API");
MODULE_LICENSE("GPL");
