// SPDX-License-Identifier: GPL-2.0
/*
 * /dev/hwtimer: a timer's record, built and delivered the same way whether
 * read() copies it out (dev_read.c) or the expiry ring takes it
 * (dev_ring.c). See dev.h.
 */
#include "dev.h"
#include "dev_record.h"
#include "dev_timer.h"

/**
 * hwt_fill_record() - the record of a timer that fired or was withdrawn
 * @r: the record to fill
 * @t: the timer; the file's lock held
 * @off: what to add to its times to report them (hwt_view_offset())
 * @canceled: a clock set withdrew it (HWTIMER_F_CANCEL_ON_SET)
 * @now: for a periodic timer that was not withdrawn, when it is re-armed:
 *	 the overruns count up to there
 */
void hwt_fill_record(struct hwtimer_record *r, struct hwt_utimer *t, s64 off,
		     bool canceled, u64 now)
{
	r->id = t->id;
	r->gen = t->gen;
	r->cookie = hwt_cookie(t);
	r->deadline = hwt_reported_deadline(t) + off;
	r->fired = t->fired + off;
	r->overruns = 0;
	r->flags = 0;
	r->clockid = hwt_uclockid(t->clk);
	if (canceled) {
		r->flags |= HWTIMER_REC_CANCELED;
	} else if (hwt_period(t)) {
		hwt_period_next(hwt_ext(t)->due, t->fired, now, hwt_period(t),
				t->flags & HWT_U_FIXED_DELAY, &r->overruns);
		r->flags |= HWTIMER_REC_PERIODIC;
		return;
	}
	if (t->flags & HWT_U_AUTOREMOVE)
		r->flags |= HWTIMER_REC_REMOVED;
}

/**
 * hwt_record_taken() - a timer's record was delivered: complete its expiry
 * @hf: the file; its lock held
 * @t: the timer, off the wheel, and on the queue if its record waited there
 * @canceled: a clock set withdrew it: no re-arm
 * @when: up to when its record counted a periodic timer's overruns
 * @nows: the clock reads of this hold of the lock, for the wheel (a fresh
 *	  one: see hwt_base_sync())
 *
 * Whether read() took the record or it went into the ring: the timer
 * leaves the queue, and a periodic one is re-armed, an AUTOREMOVE one
 * deleted.
 */
void hwt_record_taken(struct hwt_file *hf, struct hwt_utimer *t,
		      bool canceled, u64 when, struct hwt_nows *nows)
{
	lockdep_assert_held(&hf->lock);
	hwt_utimer_disarm(hf, t);
	if (hwt_period(t) && !canceled)
		hwt_utimer_rearm_period(hf, t, when,
					hwt_now_once(hf, nows, t->clk));
	else if (t->flags & HWT_U_AUTOREMOVE)
		hwt_utimer_remove(hf, t);
}
