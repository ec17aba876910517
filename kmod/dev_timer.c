// SPDX-License-Identifier: GPL-2.0
/*
 * /dev/hwtimer: a file's timers on its wheels. Arming and removing them,
 * setting up a clock's base on first use, and expiry: the bases' hrtimer
 * callback, which queues records and notes the eventfds to signal once it
 * has dropped the file's lock, and the worker a backlog is handed to. See
 * dev.h.
 */
#include <linux/bitops.h>
#include <linux/sched/clock.h>
#include <linux/slab.h>

#include "compat/compat.h"
#include "dev.h"
#include "dev_signal.h"
#include "hwt_trace.h"

/* Take a timer off the wheel or the record queue. */
void hwt_disarm(struct hwt_file *hf, struct hwt_utimer *t)
{
	if (t->state == HWT_U_PENDING) {
		hwt_base_del(&hf->base[hwt_base_idx(t->clk)], &t->node, t->id);
	} else if (t->state != HWT_U_IDLE) {	/* FIRED or CANCELED */
		list_del_init(&t->node.entry);
		WRITE_ONCE(hf->nready, hf->nready - 1);
		if (!hf->nready)
			hwt_ring_queue_changed(hf, 0);
	}
	t->state = HWT_U_IDLE;
}

/* Delete a timer; it goes on @dead, to be freed after the lock is dropped. */
void hwt_remove(struct hwt_file *hf, struct hwt_utimer *t,
		struct list_head *dead)
{
	hwt_rearms_uncharge(hf, hwt_rearms(t->flags, hwt_period(t)));
	hwt_disarm(hf, t);
	hwt_ids_put(&hf->ids, t->id);
	hf->ntimers--;
	list_add(&t->node.entry, dead);
}

/* Arm or re-arm @t for @deadline; every arming is a new generation. */
void hwt_arm(struct hwt_file *hf, struct hwt_utimer *t, u64 deadline,
	     u64 now)
{
	struct hwt_base *b = &hf->base[hwt_base_idx(t->clk)];

	if (t->state == HWT_U_PENDING) {
		hwt_base_mod(b, &t->node, deadline, now, t->id);
	} else {
		hwt_disarm(hf, t);
		t->node.expires = deadline;
		hwt_base_add(b, &t->node, now, t->id);
	}
	t->state = HWT_U_PENDING;
	t->gen = hwt_next_gen(hf);
}

/*
 * The clock index of an ADD: that of @op->clockid, or HWT_CLK_ELAPSED for a
 * relative CLOCK_REALTIME deadline. -EINVAL for a clock hwtimer lacks.
 */
int hwt_op_clk(const struct hwtimer_op *op)
{
	int clk = hwt_clock_index(op->clockid);

	if (clk == HWT_CLK_REAL && !(op->flags & HWTIMER_F_ABS))
		return HWT_CLK_ELAPSED;
	return clk;
}

/* The wheel's struct hwt_wheel.slack_of: only timers with slack have it. */
u64 hwt_utimer_slack(const struct hwt_node *n)
{
	return hwt_ext(container_of(n, struct hwt_utimer, node))->slack;
}

/* Set a timer's slack, which needs the larger object unless it is 0. */
void hwt_set_slack(struct hwt_utimer *t, u64 slack)
{
	if (t->flags & HWT_U_EXT)
		hwt_ext(t)->slack = slack;
	t->node.slack = slack && (t->flags & HWT_U_EXT);
}

/*
 * Re-arm a periodic timer that fired: for the next period that ends after
 * @when, on the fixed-rate grid or @period after the fire time. The periods
 * missed up to @when are counted as overruns; if more ended since (@when was
 * read before a record went out), the timer is simply due at once and the
 * next record counts them. @now is a clock read made under this hold of
 * the lock, for the wheel.
 */
void hwt_rearm_period(struct hwt_file *hf, struct hwt_utimer *t,
		      u64 when, u64 now)
{
	struct hwt_utimer_ext *e = hwt_ext(t);
	u64 over;

	e->due = hwt_period_next(e->due, t->fired, when, e->period,
				 t->flags & HWT_U_FIXED_DELAY, &over);
	t->node.expires = e->due;
	hwt_base_add(&hf->base[hwt_base_idx(t->clk)], &t->node, now, t->id);
	t->state = HWT_U_PENDING;
	hwt_stat_add(&hf->stats, HWT_C_OVERRUNS, over);
}

static enum hrtimer_restart hwt_file_tick(struct hrtimer *hrt);
static void hwt_file_drain(struct work_struct *work);

/* Set up the base of clock index @clk on first use. */
static int hwt_file_base_one(struct hwt_file *hf, unsigned int clk)
{
	int ret = 0;

	/* pairs with the barrier before set_bit() below */
	if (test_bit_acquire(clk, &hf->clocks))
		return 0;
	mutex_lock(&hf->setup);
	if (!test_bit(clk, &hf->clocks)) {
		ret = hwt_base_init(&hf->base[clk], hwt_clockids[clk],
				    hwt_file_tick,
				    hwt_utimer_slack, GFP_KERNEL_ACCOUNT);
		if (!ret) {
			hf->base[clk].owner = hf;
			INIT_WORK(&hf->base[clk].drain, hwt_file_drain);
			/* the base is complete before anyone sees the bit */
			smp_mb__before_atomic();
			set_bit(clk, &hf->clocks);
		}
	}
	mutex_unlock(&hf->setup);
	return ret;
}

/*
 * Set up the bases timers of clock index @clk need: CLOCK_REALTIME timers
 * move between the CLOCK_REALTIME and CLOCK_MONOTONIC bases (see
 * HWT_CLK_ELAPSED), so they get both.
 */
int hwt_file_base(struct hwt_file *hf, unsigned int clk)
{
	int ret;

	if (clk != HWT_CLK_REAL && clk != HWT_CLK_ELAPSED)
		return hwt_file_base_one(hf, clk);
	ret = hwt_file_base_one(hf, HWT_CLK_MONO);
	return ret ?: hwt_file_base_one(hf, HWT_CLK_REAL);
}

/* Expiry */

/*
 * Records were queued, @full of them for want of room in the ring: say so
 * in the ring's header, and wake readers (hwt_wake_readers()).
 */
void hwt_queued_records(struct hwt_file *hf, struct hwt_signals *sig,
			unsigned int full)
{
	hwt_stat_max(&hf->stats, HWT_M_READY, hf->nready);
	hwt_ring_queue_changed(hf, full);
	hwt_wake_readers(hf, sig);
}

/*
 * One pass over @b (see hwt.h): records go to the ring or the queue,
 * eventfds are signalled and timers freed once the lock is dropped.
 * Returns true if it stopped with work left due.
 */
static bool hwt_file_pass(struct hwt_base *b, enum hwt_pass_kind kind)
{
	struct hwt_file *hf = b->owner;
	struct hwt_signals sig = {};
	struct hwt_nows nows = {};
	struct hwt_ring_pass ring;
	struct hwt_expiry x;
	struct hwt_node *n;
	unsigned int queued = 0, withdrawn = 0;
	bool more;
	LIST_HEAD(dead);

	hwt_lock(hf);
	if (hf->dead) {
		hwt_unlock(hf);
		return false;
	}
	hwt_base_expiry_begin(b, &x, kind);
	nows.now[b - hf->base] = x.now;
	/* records go to the ring unless some wait on the queue already */
	hwt_ring_begin(hf, &ring);
	if (hf->nready)
		ring.room = 0;
	/* each timer may add an eventfd: stop while there is room for one */
	while (sig.nefd < HWT_PASS_EFDS && (n = hwt_base_expire_next(b, &x))) {
		struct hwt_utimer *t = container_of(n, struct hwt_utimer, node);
		struct hwt_efd *efd = hwt_efd(t);

		if (unlikely(t->flags & HWT_U_CANCEL_ON_SET) &&
		    hwt_cos_stale(hf)) {
			/* armed before a set the walk has not reached yet */
			hwt_cos_withdrawn(hf, t, x.now, &sig);
			ring.room = 0;
			withdrawn++;
			continue;
		}
		trace_hwt_expire(b->clockid, t, t->id, n->expires, x.now);
		t->fired = x.now;
		t->state = HWT_U_IDLE;
		if (efd)
			hwt_signal_later(hf, &sig, efd);
		if (!(t->flags & HWT_U_NO_RECORD)) {
			/* a periodic one is re-armed in the ring's put: paced */
			if (ring.room &&
			    (!hwt_period(t) || hwt_pass_rearm_take(hf)) &&
			    hwt_ring_put(hf, &ring, t, &nows, &dead))
				continue;
			/* the ring is full or paced, or there is none */
			ring.room = 0;
			t->state = HWT_U_FIRED;
			list_add_tail(&n->entry, &hf->ready);
			WRITE_ONCE(hf->nready, hf->nready + 1);
			queued++;
		} else if (hwt_period(t)) {
			/* nothing waits to be read: re-arm at once */
			hwt_rearm_period(hf, t, x.now, x.now);
		} else if (t->flags & HWT_U_AUTOREMOVE) {
			hwt_remove(hf, t, &dead);
		}
	}
	if (sig.nefd == HWT_PASS_EFDS)
		x.pass.left = 0;	/* more may be due: go on */
	more = hwt_base_expiry_end(b, &x);
	if (queued || withdrawn)
		hwt_queued_records(hf, &sig, queued);
	hwt_ring_end(hf, &ring, &sig);
	hwt_unlock(hf);
	/* release() waits for this pass before it frees @hf */
	hwt_signal_now(hf, &sig);
	hwt_free_list(hf, &dead);
	return more;
}

/*
 * The bases' hrtimer callback: passes while hwt_run_more() says so, then
 * the base's worker takes the rest (hwt.h).
 */
static enum hrtimer_restart hwt_file_tick(struct hrtimer *hrt)
{
	struct hwt_base *b = container_of(hrt, struct hwt_base, hrt);
	enum hwt_pass_kind kind = HWT_PASS_WAKEUP;
	u64 start = local_clock();

	while (hwt_file_pass(b, kind)) {
		if (!hwt_run_more(start)) {
			queue_work(hwt_pass_wq, &b->drain);
			break;
		}
		kind = HWT_PASS_CONTINUED;
	}
	return HRTIMER_NORESTART;
}

/* A base's worker: passes until the wheel has caught up. */
static void hwt_file_drain(struct work_struct *work)
{
	struct hwt_base *b = container_of(work, struct hwt_base, drain);

	while (hwt_file_pass(b, HWT_PASS_HANDED_OFF))
		cond_resched();
}
