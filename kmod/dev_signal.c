// SPDX-License-Identifier: GPL-2.0
/*
 * /dev/hwtimer: wake-ups. What a run that expired or withdrew timers
 * signals once it has dropped the file's lock: eventfds, readers and
 * pollers; the file's worker, which does those a pass had no time left
 * for; and the wait that keeps an ended arming's eventfd quiet. See dev.h.
 *
 * The wake-ups are the kernel's work, as timerfd's expiry wakes its
 * waiters from a hard interrupt: a pass's are charged to whatever task it
 * interrupted (or to softirq time), the worker's to the worker, and only
 * those a MOD, CANCEL or DRAIN does itself to the caller. What bounds
 * them is what bounds expiries: a user's timers, and the re-arms of its
 * periodic ones (max_rearms_per_user); each pass does at most one wake-up
 * past its time.
 */
#include <linux/eventfd.h>
#include <linux/poll.h>
#include <linux/slab.h>
#include <linux/wait.h>
#include <linux/workqueue.h>

#include "compat/compat.h"
#include "dev.h"
#include "dev_signal.h"

/* Eventfd entries: one per eventfd that timers were added with in a row */

/**
 * hwt_efd_new() - an entry for an eventfd that timers are added with
 * @ctx: the eventfd, whose reference the entry takes over
 *
 * Context: process context; may sleep.
 * Return: the entry, holding one reference, or NULL if out of memory.
 */
struct hwt_efd *hwt_efd_new(struct eventfd_ctx *ctx)
{
	struct hwt_efd *e = kmalloc(sizeof(*e), GFP_KERNEL_ACCOUNT);

	if (e) {
		e->ctx = ctx;
		refcount_set(&e->ref, 1);
		atomic_set(&e->busy, 0);
		INIT_LIST_HEAD(&e->left);
		e->owed = 0;
	}
	return e;
}

/**
 * hwt_efd_put() - drop a reference to an eventfd entry
 * @e: the entry, or NULL
 *
 * The last reference puts the eventfd and frees the entry.
 */
void hwt_efd_put(struct hwt_efd *e)
{
	if (e && refcount_dec_and_test(&e->ref)) {
		eventfd_ctx_put(e->ctx);
		kfree(e);
	}
}

/* A run is done with @e: a MOD or CANCEL waiting for it may go on. */
static void hwt_efd_done(struct hwt_efd *e)
{
	/* pairs with the acquire in hwt_signalling() */
	atomic_dec_return_release(&e->busy);
	hwt_efd_put(e);
}

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

/*
 * Do one eventfd's wake-ups that passes left (one for each pass that left
 * it: hwt_signal_leave()); false if none is left. Each takes the locks
 * anew, so that a waiter gets in between and does the rest itself.
 *
 * The file's lock, then @hf->sig_lock, as a run takes them (dev.h,
 * "Locking"): the wake-up is counted in "wakeups_handed_off" before the
 * file's lock is dropped and the eventfd signalled, so that whoever the
 * wake-up wakes finds it counted.
 */
static bool hwt_signal_one_left(struct hwt_file *hf)
{
	struct hwt_efd *e;
	unsigned int i, n;

	hwt_lock(hf);
	spin_lock(&hf->sig_lock);
	e = list_first_entry_or_null(&hf->sig_left, struct hwt_efd, left);
	if (!e) {
		spin_unlock(&hf->sig_lock);
		hwt_unlock(hf);
		return false;
	}
	n = 1 + e->owed;
	list_del_init(&e->left);
	hf->sig_nleft--;
	e->owed = 0;
	hwt_stat_add(&hf->stats, HWT_C_WAKEUPS_HANDED_OFF, 1);
	spin_unlock(&hf->lock);
	hwt_eventfd_signal_n(e->ctx, n);
	/* each pass's busy count and reference; the last may free @e */
	for (i = 0; i < n; i++)
		hwt_efd_done(e);
	spin_unlock_irq(&hf->sig_lock);
	return true;
}

/**
 * hwt_signals_flush() - do the wake-ups that passes left
 * @hf: the file, not locked
 *
 * One wake-up per hold of @hf->sig_lock, giving the CPU up in between.
 * The file's worker calls it for the passes that queued it, a MOD, CANCEL
 * or DRAIN to do them before it returns (hwt_signals_wait()), and
 * release() for what is left when no pass can run any more. Each wake-up
 * is counted in the file's "wakeups_handed_off".
 *
 * It does at most as many as were left when it started (review F7). The
 * list is in the order they were left, and every flush takes from its
 * head, so those are done, by this flush or another, when it returns:
 * all a MOD, CANCEL or DRAIN must wait for, as passes that come after it
 * ended an arming do not signal that arming's eventfd. Passes that keep
 * leaving more, timers firing as fast as the wake-ups go, cannot keep the
 * caller going: they queue the worker again, which does theirs in a work
 * item of its own.
 *
 * Context: process; may sleep.
 */
void hwt_signals_flush(struct hwt_file *hf)
{
	unsigned int n, todo;

	spin_lock_irq(&hf->sig_lock);
	todo = hf->sig_nleft;
	spin_unlock_irq(&hf->sig_lock);
	for (n = 0; n < todo && hwt_signal_one_left(hf); n++)
		cond_resched();
}

/* The file's worker for wake-ups, queued by passes that left some. */
void hwt_signals_left(struct work_struct *work)
{
	hwt_signals_flush(container_of(work, struct hwt_file, sig_work));
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
 * dropped the file's lock, and the waiter takes it after. The wake-ups a
 * pass left to the file's worker, the waiter does itself, first.
 *
 * The wait is bounded: by the run's time, and by the wake-ups left when
 * it starts (hwt_signals_flush()). It does not stop for a signal that is
 * not fatal: a caller that a signal interrupted would return with the
 * freshness promise broken, unknown to it (periodic timers' users often
 * have SIGALRM and friends), and the bound makes the wait short anyway.
 *
 * As hrtimer_cancel_wait_running() does with its expiry lock, the wait
 * inherits priority where a run can be preempted: on PREEMPT_RT the lock
 * is a sleeping one that boosts the run to the waiter's priority, so a
 * real-time task never waits behind a lower priority one that preempted
 * the run. Elsewhere the run holds a spinning lock and cannot be
 * preempted while it signals: the waiter spins at most that long. A pass
 * signals for at most HWT_PASS_NS and one wake-up more, usually for
 * microseconds.
 *
 * Context: process; may sleep.
 */
void hwt_signals_wait(struct hwt_file *hf)
{
	/* a task on its way out is owed no promise */
	if (fatal_signal_pending(current))
		return;
	hwt_signals_flush(hf);
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

/*
 * Each eventfd once per pass, whichever entries stand for it: whether the
 * pass's wake-ups before entry @n (@file's first) took @n's eventfd
 * already, done or left to the worker. @ctx: the entries' eventfds, read
 * before any wake-up dropped the reference that kept an entry alive.
 */
static bool hwt_signalled_before(struct eventfd_ctx *const *ctx,
				 const struct eventfd_ctx *file, unsigned int n)
{
	unsigned int i;

	if (file == ctx[n])
		return true;
	for (i = 0; i < n; i++)
		if (ctx[i] == ctx[n])
			return true;
	return false;
}

/*
 * Whether a pass that has done @done wake-ups is out of time for more: it
 * always does one, whatever its units took. A pass that read no clock as
 * it began has its time counted from then on.
 */
static bool hwt_signal_late(struct hwt_signals *sig, unsigned int done)
{
	if (!sig->bound || !done)
		return false;
	if (!sig->start) {
		sig->start = hwt_cpu_clock();
		return false;
	}
	return hwt_cpu_clock() - sig->start > sig->bound;
}

/*
 * Leave eventfd entry @e, busy and with the pass's reference, to the file's
 * worker, with @hf->sig_lock held. An entry already left keeps its place
 * and owes one wake-up more: each pass counts (hwtimer.rst), so none is
 * merged into another's.
 */
static void hwt_signal_leave(struct hwt_file *hf, struct hwt_efd *e)
{
	if (list_empty(&e->left)) {
		list_add_tail(&e->left, &hf->sig_left);
		hf->sig_nleft++;
		return;
	}
	e->owed++;
}

/**
 * hwt_unlock_signal() - drop the file's lock and wake what a run collected
 * @hf: the file, locked
 * @sig: what the run collected under the lock
 *
 * The lock was taken by hwt_lock_signals(). The eventfds' wake-ups are
 * done with @hf->sig_lock held, taken before the file's lock is dropped,
 * so that a MOD, CANCEL or DRAIN that ends one of the timers' armings
 * afterwards finds the run still busy or done (hwt_signals_wait()).
 * Interrupts stay as the hold found them until then. A run that signals
 * no eventfd wakes readers once it has dropped the file's lock.
 *
 * Readers and pollers first: they are what the file is for, and nothing
 * counts their wake-ups; then the file's eventfd, then the timers'. Each
 * eventfd once, however many entries (and the file) stand for it: a
 * pass's wake-up of an eventfd adds 1 to its counter (hwtimer.rst).
 *
 * A pass (@sig->bound set) does them while it has run less than
 * @sig->bound (from its start, or from its first wake-up if it read no
 * clock as it began), and at least one: each walks a wait queue as long
 * as its users made it (epoll instances on dup()ed eventfds), which no
 * budget of units covers.
 * The rest go, busy, to the file's worker, as a backlog does (base.h): a
 * pass is never longer than its bound and one wake-up.
 */
void hwt_unlock_signal(struct hwt_file *hf, struct hwt_signals *sig)
	__releases(&hf->lock)
{
	struct eventfd_ctx *ctx[HWT_PASS_EFDS], *file_ctx;
	unsigned int i, done = 0;
	bool left = false;

	/* the file's lock, then @sig_lock: see dev.h, "Locking" */
	lockdep_assert_held(&hf->lock);
	/*
	 * Readers and pollers wait on @hf->wq: nobody to wake there costs
	 * nothing, not a wake-up left to the worker. The full barrier of
	 * wq_has_sleeper() pairs with the one between a waiter's joining
	 * the queue and its look at the records (prepare_to_wait(),
	 * poll_wait()).
	 */
	if (sig->poll && !wq_has_sleeper(&hf->wq))
		sig->poll = false;
	/* where a pass that wakes a reader runs: see struct hwt_file */
	if (sig->poll && sig->bound)
		hwt_stat_add(&hf->stats, READ_ONCE(hf->reader_cpu) ==
			     smp_processor_id() ? HWT_C_READER_CPU :
			     HWT_C_OTHER_CPU, 1);
	if (!sig->nefd && !sig->file) {
		/*
		 * No eventfd: nothing a MOD or CANCEL waits for, and readers
		 * need no order but the records' (hwt_signals_wait()).
		 */
		spin_unlock_irqrestore(&hf->lock, sig->flags);
		if (sig->poll)
			wake_up_interruptible_poll(&hf->wq,
						   EPOLLIN | EPOLLRDNORM);
		return;
	}
	spin_lock(&hf->sig_lock);
	spin_unlock(&hf->lock);
	/* each wake-up done drops its entry's reference, maybe the last */
	file_ctx = sig->file ? sig->file->ctx : NULL;
	for (i = 0; i < sig->nefd; i++)
		ctx[i] = sig->efd[i]->ctx;
	if (sig->poll) {
		wake_up_interruptible_poll(&hf->wq, EPOLLIN | EPOLLRDNORM);
		done++;
	}
	if (sig->file && hwt_signal_late(sig, done)) {
		atomic_inc(&sig->file->busy);
		hwt_signal_leave(hf, sig->file);
		left = true;
	} else if (sig->file) {
		hwt_eventfd_signal(sig->file->ctx);
		hwt_efd_put(sig->file);
		done++;
	}
	for (i = 0; i < sig->nefd; i++) {
		struct hwt_efd *e = sig->efd[i];

		if (hwt_signalled_before(ctx, file_ctx, i)) {
			hwt_efd_done(e);
		} else if (hwt_signal_late(sig, done)) {
			hwt_signal_leave(hf, e);
			left = true;
		} else {
			hwt_eventfd_signal(ctx[i]);
			hwt_efd_done(e);
			done++;
		}
	}
	/*
	 * On a normal-priority worker (review F7), not on hwt_pass_wq's nice
	 * -20 ones, whose priority is for a backlog of due timers: nothing
	 * falls behind while a wake-up waits, and no budget of the user's
	 * bounds what its wait queues cost, so the worker competes with the
	 * user's tasks rather than running ahead of them. Only wake-ups a
	 * pass had no time for come here.
	 */
	if (left)
		queue_work(system_wq, &hf->sig_work);
	spin_unlock_irqrestore(&hf->sig_lock, sig->flags);
}
