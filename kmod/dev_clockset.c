// SPDX-License-Identifier: GPL-2.0
/*
 * /dev/hwtimer: HWTIMER_F_CANCEL_ON_SET. When CLOCK_REALTIME is set, every
 * pending timer armed with the flag is withdrawn: it queues a record that
 * says so instead of firing, as timerfd's TFD_TIMER_CANCEL_ON_SET timers
 * report ECANCELED.
 *
 * The kernel tells its own timerfd code directly (clock_was_set()). In the
 * kernel's tree, hwtimer hears of a set the same way, from the notifier its
 * series adds there; built out of tree, it learns of it from the
 * pvclock_gtod notifier, which timekeeping calls on every update with a
 * "was set" argument, in atomic context under the timekeeper's lock
 * (compat.h: hwt_clock_set_register()). The notifier counts the set in
 * hwt_cos_seq and queues an irq_work, which queues a work item; the work
 * walks the files that ever had such a timer, each in chunks under its
 * lock, giving the CPU up in between. A clock set costs O(timers of those
 * files); nothing else is paid for the feature.
 *
 * The walk comes later than the set, so the count is checked where a timer
 * could otherwise act on the set clock first, as timerfd checks its clock
 * offset at expiry and at read(): each file remembers the count its
 * HWTIMER_F_CANCEL_ON_SET timers were armed under (hwt_file.cos_seq). An
 * expiry withdraws such a timer instead of firing it if the count has moved
 * on since; read(), FLUSH and an ADD or MOD that arms one walk the file
 * first (hwt_cos_sync()). The walk also withdraws a timer that fired before
 * the set and whose record is not read yet, as timerfd's read() returns
 * ECANCELED whatever ticks it had: a periodic one would be re-armed on the
 * set clock, with the set counted as overruns.
 */
#include <linux/irq_work.h>
#include <linux/mutex.h>
#include <linux/notifier.h>
#include <linux/workqueue.h>

#include "compat/compat.h"
#include "dev.h"
#include "dev_clockset.h"
#include "dev_ids.h"
#include "dev_queue.h"
#include "dev_signal.h"

/* timers one hold of a file's lock looks at, pending or not */
#define HWT_COS_CHUNK	256

static LIST_HEAD(hwt_cos_files);
static DEFINE_MUTEX(hwt_cos_lock);	/* guards hwt_cos_files */

/* clock sets since the module was loaded, modulo 2^32 */
static atomic_t hwt_cos_seq = ATOMIC_INIT(0);

/**
 * hwt_cos_stale() - whether a set came after a file's CANCEL_ON_SET armings
 * @hf: the file
 *
 * Return: true if the clock was set since the file's HWTIMER_F_CANCEL_ON_SET
 * timers were armed, and the walk that withdraws them has not been through
 * the file yet.
 */
bool hwt_cos_stale(const struct hwt_file *hf)
{
	return READ_ONCE(hf->cos_seq) != (u32)atomic_read(&hwt_cos_seq);
}

/**
 * hwt_cos_withdrawn() - withdraw a timer armed before a clock set
 * @hf: the file, locked
 * @t: a HWTIMER_F_CANCEL_ON_SET timer, off the wheel, not on the queue
 * @now: the time on CLOCK_REALTIME
 * @sig: the run's signals: its eventfd is signalled
 *
 * Its record, flagged HWTIMER_REC_CANCELED, takes the queue; the caller
 * calls hwt_queued_records() for it.
 */
void hwt_cos_withdrawn(struct hwt_file *hf, struct hwt_utimer *t, u64 now,
		       struct hwt_signals *sig)
{
	lockdep_assert_held(&hf->lock);
	t->fired = now;
	t->state = HWT_U_CANCELED;
	hwt_queue_push(hf, t);
	hwt_stat_add(&hf->stats, HWT_C_CANCELLED, 1);
	if (hwt_efd(t))
		hwt_signal_later(hf, sig, hwt_efd(t));
}

/*
 * Withdraw the HWTIMER_F_CANCEL_ON_SET timers of @hf that are pending, or
 * fired with their records unread, and note the sets done with.
 */
static void hwt_cos_withdraw(struct hwt_file *hf)
{
	struct hwt_base *b = &hf->base[HWT_CLK_REAL];
	u32 seq = atomic_read(&hwt_cos_seq);
	struct hwt_utimer *t;
	u32 pos = 1;
	bool more;

	do {
		struct hwt_signals sig = {};
		unsigned int n = 0, queued = 0;
		u32 scan = HWT_IDS_SCAN;
		u64 now;

		hwt_lock_signals(hf, &sig);
		/*
		 * Another walk got through for this set first: timers armed
		 * since are armed under it, and a record read since may have
		 * been re-armed, so this walk must touch nothing more.
		 */
		if (hf->dead || (s32)(hf->cos_seq - seq) >= 0) {
			hwt_unlock_signal(hf, &sig);
			return;
		}
		now = hwt_base_now(b);
		while ((t = hwt_ids_next(&hf->ids, &pos, &scan))) {
			if (!(t->flags & HWT_U_CANCEL_ON_SET)) {
				/* not armed with it */
			} else if (t->state == HWT_U_PENDING) {
				hwt_base_del(b, &t->node, t->id);
				hwt_cos_withdrawn(hf, t, now, &sig);
				queued++;
			} else if (t->state == HWT_U_FIRED) {
				/* its record, on the queue, now says so */
				t->fired = now;
				t->state = HWT_U_CANCELED;
			}
			/* a chunk, or as many eventfds as a run signals */
			if (++n == HWT_COS_CHUNK || sig.nefd == HWT_PASS_EFDS)
				break;
		}
		more = hwt_ids_more(&hf->ids, pos);
		/* a walker that started later may have been faster */
		if (!more && (s32)(seq - hf->cos_seq) > 0)
			WRITE_ONCE(hf->cos_seq, seq);
		if (queued)
			hwt_queued_records(hf, &sig, 0);
		hwt_unlock_signal(hf, &sig);
		cond_resched();
	} while (more);
}

/**
 * hwt_cos_sync() - withdraw what a clock set withdrew, before going on
 * @hf: a file about to deliver records or arm a HWTIMER_F_CANCEL_ON_SET
 *	timer
 *
 * The walk a clock set queues may not have reached @hf yet: do its work
 * for @hf now, so that a read() finds the withdrawn records, and so that
 * every pending HWTIMER_F_CANCEL_ON_SET timer of @hf is armed under the
 * file's count of sets.
 *
 * Context: process context, no lock held.
 */
void hwt_cos_sync(struct hwt_file *hf)
{
	if (!list_empty(&hf->cos_link) && hwt_cos_stale(hf))
		hwt_cos_withdraw(hf);
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
 * Called on a clock set (or, out of tree, on every update of timekeeping,
 * with its lock held and interrupts off): only note that the clock was set
 * (as KVM's pvclock_gtod notifier does).
 */
static int hwt_cos_notify(struct notifier_block *nb, unsigned long action,
			  void *data)
{
	if (action) {
		atomic_inc(&hwt_cos_seq);
		irq_work_queue(&hwt_cos_irq_work);
	}
	return NOTIFY_OK;
}

static struct notifier_block hwt_cos_nb = {
	.notifier_call = hwt_cos_notify,
};

/**
 * hwt_cos_join() - put a file on the list clock sets walk
 * @hf: a file about to arm a HWTIMER_F_CANCEL_ON_SET timer
 * @nowait: io_uring's inline issue: -EAGAIN rather than wait for a walk
 *	    or do one
 *
 * Also brings the file up to the clock sets so far (hwt_cos_sync()).
 *
 * Context: process context, no lock held.
 * Return: 0, or -EAGAIN (@nowait only).
 */
int hwt_cos_join(struct hwt_file *hf, bool nowait)
{
	if (!nowait)
		mutex_lock(&hwt_cos_lock);
	else if (!mutex_trylock(&hwt_cos_lock))
		return -EAGAIN;
	if (list_empty(&hf->cos_link)) {
		/* it has no such timer yet: none of them saw a set */
		hwt_lock(hf);
		WRITE_ONCE(hf->cos_seq, atomic_read(&hwt_cos_seq));
		hwt_unlock(hf);
		list_add_tail(&hf->cos_link, &hwt_cos_files);
	}
	mutex_unlock(&hwt_cos_lock);
	if (nowait && hwt_cos_stale(hf))
		return -EAGAIN;
	hwt_cos_sync(hf);
	return 0;
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
	/* pvclock_gtod's registration calls it once, "set": a walk of nothing */
	return hwt_clock_set_register(&hwt_cos_nb);
}

void hwt_clockset_exit(void)
{
	hwt_clock_set_unregister(&hwt_cos_nb);
	irq_work_sync(&hwt_cos_irq_work);
	cancel_work_sync(&hwt_cos_work);
}
