// SPDX-License-Identifier: GPL-2.0
/*
 * /dev/hwtimer: wake-ups. What a run that expired or withdrew timers
 * signals once it has dropped the file's lock: eventfds, readers and
 * pollers; and the wait that keeps an ended arming's eventfd quiet. See
 * dev.h.
 */
#include <linux/poll.h>
#include <linux/wait.h>

#include "compat/compat.h"
#include "dev.h"
#include "dev_account.h"
#include "dev_signal.h"

/*
 * Signal the eventfd of a timer the run expired or withdrew, once the lock
 * is dropped (hwt_unlock_signal()); with the lock held. Until then the
 * eventfd counts the run as busy with it.
 */
void hwt_signal_later(struct hwt_file *hf, struct hwt_signals *sig,
		      struct hwt_efd *e)
{
	unsigned int i;

	lockdep_assert_held(&hf->lock);
	/* entries, not contexts: two entries of a file may share one */
	for (i = 0; i < sig->nefd; i++)
		if (sig->efd[i] == e)
			return;
	atomic_inc(&e->busy);
	refcount_inc(&e->ref);
	sig->efd[sig->nefd++] = e;
}

/**
 * hwt_signalling() - whether a run may still signal a timer's eventfd
 * @t: the timer, of a locked file
 *
 * Return: true if @t has an eventfd that a run took under the lock and has
 * not signalled yet: a MOD, CANCEL or DRAIN that ends @t's arming now must
 * wait for that run (hwt_signals_wait()) before it returns.
 */
bool hwt_signalling(struct hwt_utimer *t)
{
	struct hwt_efd *e = hwt_efd(t);

	/* pairs with the release in hwt_unlock_signal() */
	return e && atomic_read_acquire(&e->busy);
}

/**
 * hwt_signals_wait() - wait until no run signals an eventfd for an arming
 *			that is over
 * @hf: the file, not locked, after a MOD, CANCEL or DRAIN ended armings of
 *	timers whose eventfds a run was signalling (hwt_signalling())
 *
 * Runs signal eventfds after they dropped the lock, which lets a MOD or
 * CANCEL take it in between. The uapi promises that no eventfd is
 * signalled for an arming once its MOD or CANCEL returned, so those wait
 * here for the run, as hrtimer_cancel() waits for a running callback: a
 * run holds @hf->sig_lock while it signals, having taken it before it
 * dropped the file's lock, and the waiter takes and drops it after.
 *
 * As hrtimer_cancel_wait_running() does with its expiry lock, the wait
 * inherits priority where a run can be preempted: on PREEMPT_RT the lock
 * is a sleeping one that boosts the run to the waiter's priority, so a
 * real-time task never waits behind a lower priority one that preempted
 * the run. Elsewhere the run holds a spinning lock and cannot be
 * preempted while it signals: the waiter spins at most that long. Each run
 * signals at most HWT_PASS_EFDS eventfds, usually for microseconds.
 *
 * Context: process; may sleep on PREEMPT_RT.
 */
void hwt_signals_wait(struct hwt_file *hf)
{
	/* a task on its way out is owed no promise */
	if (fatal_signal_pending(current))
		return;
	spin_lock_bh(&hf->sig_lock);
	spin_unlock_bh(&hf->sig_lock);
}

/* Records are there to read: the file's eventfd and its readers are to be woken. */
void hwt_wake_readers(struct hwt_file *hf, struct hwt_signals *sig)
{
	if (hf->efd && !sig->file) {
		refcount_inc(&hf->efd->ref);
		sig->file = hf->efd;
	}
	sig->poll = true;
}

/* Each eventfd once per run, whichever entries stand for it. */
static bool hwt_signalled_before(struct hwt_signals *sig, unsigned int n)
{
	unsigned int i;

	for (i = 0; i < n; i++)
		if (sig->efd[i]->ctx == sig->efd[n]->ctx)
			return true;
	return false;
}

/**
 * hwt_unlock_signal() - drop the file's lock and wake what a run collected
 * @hf: the file, locked
 * @sig: what the run collected under the lock
 *
 * The timers' eventfds are signalled with @hf->sig_lock held, taken before
 * the file's lock is dropped, so that a MOD, CANCEL or DRAIN that ends one
 * of their armings afterwards finds the run still busy or done
 * (hwt_signals_wait()). Bottom halves stay off until then. The file's
 * eventfd and pollers are woken after: the uapi allows them a wake-up for
 * a record a MOD or CANCEL took back.
 */
void hwt_unlock_signal(struct hwt_file *hf, struct hwt_signals *sig)
	__releases(&hf->lock)
{
	unsigned int i;

	if (!sig->nefd) {
		hwt_unlock(hf);
	} else {
		spin_lock(&hf->sig_lock);
		spin_unlock(&hf->lock);
		for (i = 0; i < sig->nefd; i++) {
			if (!hwt_signalled_before(sig, i))
				hwt_eventfd_signal(sig->efd[i]->ctx);
			/* pairs with the acquire in hwt_signalling() */
			atomic_dec_return_release(&sig->efd[i]->busy);
		}
		spin_unlock_bh(&hf->sig_lock);
		for (i = 0; i < sig->nefd; i++)
			hwt_efd_put(sig->efd[i]);
	}
	if (sig->file) {
		hwt_eventfd_signal(sig->file->ctx);
		hwt_efd_put(sig->file);
	}
	if (sig->poll)
		wake_up_interruptible_poll(&hf->wq, EPOLLIN | EPOLLRDNORM);
}
