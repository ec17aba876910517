// SPDX-License-Identifier: GPL-2.0
/*
 * /dev/hwtimer: HWTIMER_F_CANCEL_ON_SET. When CLOCK_REALTIME is set, every
 * pending timer armed with the flag is withdrawn: it queues a record that
 * says so instead of firing, as timerfd's TFD_TIMER_CANCEL_ON_SET timers
 * report ECANCELED.
 *
 * The kernel tells its own timerfd code directly (clock_was_set()); a module
 * learns of a set from the pvclock_gtod notifier, which timekeeping calls on
 * every update with a "was set" argument, in atomic context under the
 * timekeeper's lock. The notifier only queues an irq_work, which queues a
 * work item; the work walks the files that ever had such a timer, each in
 * chunks under its lock, giving the CPU up in between. A clock set costs
 * O(timers of those files); nothing else is paid for the feature.
 */
#include <linux/irq_work.h>
#include <linux/mutex.h>
#include <linux/notifier.h>
#include <linux/pvclock_gtod.h>
#include <linux/workqueue.h>

#include "dev.h"

/* timers one hold of a file's lock looks at, pending or not */
#define HWT_COS_CHUNK	256

static LIST_HEAD(hwt_cos_files);
static DEFINE_MUTEX(hwt_cos_lock);	/* guards hwt_cos_files */

/* Withdraw the pending HWTIMER_F_CANCEL_ON_SET timers of @hf. */
static void hwt_cos_withdraw(struct hwt_file *hf)
{
	struct hwt_base *b = &hf->base[HWT_CLK_REAL];
	struct hwt_utimer *t;
	u32 pos = 1;
	bool more;

	do {
		struct hwt_signals sig = {};
		unsigned int n = 0, queued = 0;
		u32 scan = HWT_IDS_SCAN;
		u64 now;

		hwt_lock(hf);
		if (hf->dead) {
			hwt_unlock(hf);
			return;
		}
		now = hwt_base_now(b);
		while ((t = hwt_ids_next(&hf->ids, &pos, &scan))) {
			if (t->state == HWT_U_PENDING &&
			    (t->flags & HWT_U_CANCEL_ON_SET)) {
				hwt_base_del(b, &t->node, t->id);
				t->fired = now;
				t->state = HWT_U_CANCELED;
				list_add_tail(&t->node.entry, &hf->ready);
				WRITE_ONCE(hf->nready, hf->nready + 1);
				hwt_stat_add(&hf->stats, HWT_C_CANCELLED, 1);
				if (hwt_efd(t))
					hwt_signal_later(hf, &sig, hwt_efd(t));
				queued++;
			}
			/* a chunk, or as many eventfds as a run signals */
			if (++n == HWT_COS_CHUNK || sig.nefd == HWT_PASS_EFDS)
				break;
		}
		more = hwt_ids_more(&hf->ids, pos);
		if (queued)
			hwt_queued_records(hf, &sig, 0);
		hwt_unlock(hf);
		hwt_signal_now(hf, &sig);
		cond_resched();
	} while (more);
}

static void hwt_cos_work_fn(struct work_struct *work)
{
	struct hwt_file *hf;

	mutex_lock(&hwt_cos_lock);
	list_for_each_entry(hf, &hwt_cos_files, cos_link)
		hwt_cos_withdraw(hf);
	mutex_unlock(&hwt_cos_lock);
}

static DECLARE_WORK(hwt_cos_work, hwt_cos_work_fn);

static void hwt_cos_irq_work_fn(struct irq_work *w)
{
	schedule_work(&hwt_cos_work);
}

static DEFINE_IRQ_WORK(hwt_cos_irq_work, hwt_cos_irq_work_fn);

/*
 * Called by timekeeping on every update, with its lock held and interrupts
 * off: only note that the clock was set (as KVM's notifier does).
 */
static int hwt_cos_notify(struct notifier_block *nb, unsigned long was_set,
			  void *tk)
{
	if (was_set)
		irq_work_queue(&hwt_cos_irq_work);
	return NOTIFY_OK;
}

static struct notifier_block hwt_cos_nb = {
	.notifier_call = hwt_cos_notify,
};

/**
 * hwt_cos_join() - put a file on the list clock sets walk
 * @hf: a file about to arm a HWTIMER_F_CANCEL_ON_SET timer
 *
 * Context: process context, no lock held.
 */
void hwt_cos_join(struct hwt_file *hf)
{
	mutex_lock(&hwt_cos_lock);
	if (list_empty(&hf->cos_link))
		list_add_tail(&hf->cos_link, &hwt_cos_files);
	mutex_unlock(&hwt_cos_lock);
}

/**
 * hwt_cos_leave() - take a file being released off that list
 * @hf: the file
 *
 * Waits for a walk that is withdrawing its timers.
 */
void hwt_cos_leave(struct hwt_file *hf)
{
	if (list_empty(&hf->cos_link))
		return;
	mutex_lock(&hwt_cos_lock);
	list_del_init(&hf->cos_link);
	mutex_unlock(&hwt_cos_lock);
}

int hwt_clockset_init(void)
{
	/* this calls the notifier once, "set": a walk of no files */
	return pvclock_gtod_register_notifier(&hwt_cos_nb);
}

void hwt_clockset_exit(void)
{
	pvclock_gtod_unregister_notifier(&hwt_cos_nb);
	irq_work_sync(&hwt_cos_irq_work);
	cancel_work_sync(&hwt_cos_work);
}
