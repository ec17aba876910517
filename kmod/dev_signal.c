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
 * is dropped; with the lock held. The run counts as signalling from its
 * first eventfd until hwt_signal_now() is done with them.
 */
void hwt_signal_later(struct hwt_file *hf, struct hwt_signals *sig,
		      struct hwt_efd *e)
{
	unsigned int i;

	lockdep_assert_held(&hf->lock);
	for (i = 0; i < sig->nefd; i++)
		if (sig->efd[i]->ctx == e->ctx)
			return;
	if (!sig->nefd) {
		sig->phase = hf->sig_phase;
		atomic_inc(&hf->sig_busy[sig->phase]);
	}
	refcount_inc(&e->ref);
	sig->efd[sig->nefd++] = e;
}

/**
 * hwt_signals_wait() - wait until no run signals an eventfd for an arming
 *			that is over
 * @hf: the file, not locked, after a MOD, CANCEL or DRAIN ended armings of
 *	timers with eventfds
 *
 * Runs signal eventfds after they dropped the lock, which lets a MOD or
 * CANCEL take it in between. The uapi promises that no eventfd is
 * signalled for an arming once its MOD or CANCEL returned, so those wait
 * here for the runs that were signalling when they ended the arming, as
 * hrtimer_cancel() waits for a running callback. A run takes part in the
 * phase it found; the waiter moves later runs to the other phase, so that
 * it waits only for earlier ones, however many start meanwhile. Waiters
 * take turns: when one flips the phase back, the runs of that phase have
 * all finished, the waiter before it having waited for them.
 *
 * Each run signals at most HWT_PASS_EFDS eventfds and the file's, without
 * sleeping: the wait lasts as long as those take to wake their waiters,
 * usually microseconds. Nothing is waited for while no run of the file
 * signals an eventfd.
 *
 * Context: process; may sleep.
 */
void hwt_signals_wait(struct hwt_file *hf)
{
	unsigned int phase;

	if (!atomic_read(&hf->sig_busy[0]) && !atomic_read(&hf->sig_busy[1]))
		return;
	mutex_lock(&hf->sig_wait);
	hwt_lock(hf);
	phase = hf->sig_phase;
	hf->sig_phase = !phase;
	hwt_unlock(hf);
	wait_event(hf->sig_wq, !atomic_read(&hf->sig_busy[phase]));
	mutex_unlock(&hf->sig_wait);
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

void hwt_signal_now(struct hwt_file *hf, struct hwt_signals *sig)
{
	unsigned int i;

	for (i = 0; i < sig->nefd; i++) {
		hwt_eventfd_signal(sig->efd[i]->ctx);
		hwt_efd_put(sig->efd[i]);
	}
	/* pairs with the wait_event() in hwt_signals_wait() */
	if (sig->nefd && atomic_dec_and_test(&hf->sig_busy[sig->phase]))
		wake_up(&hf->sig_wq);
	if (sig->file) {
		hwt_eventfd_signal(sig->file->ctx);
		hwt_efd_put(sig->file);
	}
	if (sig->poll)
		wake_up_interruptible_poll(&hf->wq, EPOLLIN | EPOLLRDNORM);
}
