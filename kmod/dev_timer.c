// SPDX-License-Identifier: GPL-2.0
/*
 * /dev/hwtimer: a file's timers on its wheels. Arming, re-arming and
 * removing them, and their slack. Expiry, which takes them off the
 * wheels, is in dev_expiry.c; the record queue, where fired ones wait, in
 * dev_queue.c. See dev.h.
 */
#include "dev.h"
#include "dev_account.h"
#include "dev_ids.h"
#include "dev_queue.h"
#include "dev_timer.h"

/* generations count modulo 2^24: struct hwt_utimer.gen */
#define HWT_GEN_MASK	GENMASK(23, 0)

static inline u32 hwt_next_gen(struct hwt_file *hf)
{
	hf->gen = (hf->gen + 1) & HWT_GEN_MASK;
	return hf->gen;
}

/* Take a timer off the wheel or the record queue. */
void hwt_utimer_disarm(struct hwt_file *hf, struct hwt_utimer *t)
{
	if (t->state == HWT_U_PENDING) {
		hwt_base_del(&hf->base[hwt_base_idx(t->clk)], &t->node, t->id);
	} else if (t->state != HWT_U_IDLE) {	/* FIRED or CANCELED */
		hwt_queue_del(hf, t);
	}
	t->state = HWT_U_IDLE;
}

/*
 * Delete a timer: its entry goes back to the table, with the entry's charge
 * (hwt_ids_put()), what it had besides to the slab, with its charge, and
 * its re-arms' charge to its user.
 */
void hwt_utimer_remove(struct hwt_file *hf, struct hwt_utimer *t)
{
	hwt_rearms_uncharge(hf, hwt_rearms(t->flags, hwt_period(t)));
	hwt_utimer_disarm(hf, t);
	if (t->flags & HWT_U_EXT) {
		hwt_uext_free(t->ext);
		hwt_uncharge(hf, HWT_UEXT_UNITS);
		hf->nexts--;
	}
	hwt_ids_put(hf, t);
	hf->ntimers--;
}

/* Arm or re-arm @t for @deadline; every arming is a new generation. */
void hwt_utimer_arm(struct hwt_file *hf, struct hwt_utimer *t, u64 deadline,
		    u64 now)
{
	struct hwt_base *b = &hf->base[hwt_base_idx(t->clk)];

	if (t->state == HWT_U_PENDING) {
		hwt_base_mod(b, &t->node, deadline, now, t->id);
	} else {
		hwt_utimer_disarm(hf, t);
		t->node.expires = deadline;
		hwt_base_add(b, &t->node, now, t->id);
	}
	t->state = HWT_U_PENDING;
	t->gen = hwt_next_gen(hf);
}

/* The wheel's struct hwt_wheel.slack_of: only timers with slack have it. */
u64 hwt_utimer_slack(const struct hwt_node *n)
{
	return hwt_ext(container_of(n, struct hwt_utimer, node))->slack;
}

/*
 * Re-arm a periodic timer that fired: for the next period that ends after
 * @when, on the fixed-rate grid or @period after the fire time. The periods
 * missed up to @when are counted as overruns; if more ended since (@when was
 * read before a record went out), the timer is simply due at once and the
 * next record counts them. @now is a clock read made under this hold of
 * the lock, for the wheel.
 */
void hwt_utimer_rearm_period(struct hwt_file *hf, struct hwt_utimer *t,
			     u64 when, u64 now)
{
	struct hwt_uext *e = hwt_ext(t);
	u64 over;

	e->due = hwt_period_next(e->due, t->fired, when, e->period,
				 t->flags & HWT_U_FIXED_DELAY, &over);
	t->node.expires = e->due;
	hwt_base_add(&hf->base[hwt_base_idx(t->clk)], &t->node, now, t->id);
	t->state = HWT_U_PENDING;
	hwt_stat_add(&hf->stats, HWT_C_OVERRUNS, over);
}
