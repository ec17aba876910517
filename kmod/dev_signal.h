/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _HWT_DEV_SIGNAL_H
#define _HWT_DEV_SIGNAL_H

#include <linux/list.h>
#include <linux/refcount.h>

#include "dev.h"

struct eventfd_ctx;

/**
 * struct hwt_efd - an eventfd the file signals, shared by the timers that
 * were added with it one after another
 * @ctx: the eventfd
 * @ref: its timers, the file (as its eventfd, or as the last one added),
 *	 and expiry runs that are about to signal it after dropping the lock
 * @busy: runs that took it, under the file's lock, and have not signalled
 *	  it yet, counting the wake-up they left to the file's worker
 *	  (dev_signal.c)
 * @left: its place on the file's list of wake-ups passes left, under the
 *	  file's @sig_lock; empty if none is left
 * @owed: wake-ups passes left beyond the first while it waited on that
 *	  list, under @sig_lock: each pass's counts (hwtimer.rst), so the
 *	  worker signals 1 + @owed, each holding a reference and a @busy
 *
 * Expiry signals eventfds once the file's lock is dropped, so it needs a
 * reference that outlives the lock: the eventfd core does not export one on
 * a bare context, and this one is shared by every timer of the entry.
 */
struct hwt_efd {
	struct eventfd_ctx *ctx;
	refcount_t ref;
	atomic_t busy;
	struct list_head left;
	unsigned int owed;
};

/* distinct eventfds one expiry pass signals at most; then it ends early */
#define HWT_PASS_EFDS	8

/**
 * struct hwt_signals - what an expiry run wakes once it dropped the lock
 * @efd: distinct eventfds of the timers it expired, each with a reference
 * @nefd: entries of @efd
 * @file: the file's eventfd, with a reference, if records were queued
 * @poll: records were queued: wake readers and pollers
 * @start: for a pass, when it began (hwt_cpu_clock()): the wake-ups left
 *	   once it has run @bound ns go to the file's worker; 0 for a pass
 *	   that read no clock as it began (a hard one), whose wake-ups are
 *	   bounded from the first
 * @bound: that time: HWT_PASS_NS, or less in hard interrupt context; 0
 *	   for a system call, which does them all
 * @flags: the interrupt state hwt_lock_signals() saved
 *
 * eventfd_signal() and wake_up() walk their wait queues, as long as their
 * users made them: they are done once per run and outside the file's lock.
 */
struct hwt_signals {
	struct hwt_efd *efd[HWT_PASS_EFDS];
	unsigned int nefd;
	struct hwt_efd *file;
	bool poll;
	u64 start;
	u64 bound;
	unsigned long flags;
};

/*
 * Take the file's lock for a hold that collects wake-ups, to be dropped by
 * hwt_unlock_signal(): in any context, hard interrupts included.
 */
static inline void hwt_lock_signals(struct hwt_file *hf,
				    struct hwt_signals *sig)
	__acquires(&hf->lock)
{
	spin_lock_irqsave(&hf->lock, sig->flags);
}

struct hwt_efd *hwt_efd_new(struct eventfd_ctx *ctx);
void hwt_efd_put(struct hwt_efd *e);
void hwt_signal_later(struct hwt_file *hf, struct hwt_signals *sig,
		      struct hwt_efd *e);
void hwt_signals_wait(struct hwt_file *hf);
void hwt_signals_left(struct work_struct *work);
void hwt_signals_flush(struct hwt_file *hf);
void hwt_wake_readers(struct hwt_file *hf, struct hwt_signals *sig);
void hwt_unlock_signal(struct hwt_file *hf, struct hwt_signals *sig)
	__releases(&hf->lock);

/**
 * hwt_signalling() - whether a run may still signal a timer's eventfd
 * @t: the timer, of a locked file
 *
 * Return: true if @t has an eventfd that a run took under the lock and has
 * not signalled yet: a MOD, CANCEL or DRAIN that ends @t's arming now must
 * wait for that run (hwt_signals_wait()) before it returns.
 */
static inline bool hwt_signalling(struct hwt_utimer *t)
{
	struct hwt_efd *e = hwt_efd(t);

	/* pairs with the release in hwt_efd_done() */
	return e && atomic_read_acquire(&e->busy);
}

#endif /* _HWT_DEV_SIGNAL_H */
