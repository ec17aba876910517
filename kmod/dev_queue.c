// SPDX-License-Identifier: GPL-2.0
/*
 * /dev/hwtimer: the record queue. A timer that fired, or that a clock set
 * withdrew, waits here for read() or a ring FLUSH to deliver its record,
 * unless the ring took it at once. A MOD, CANCEL or close takes it back.
 * Only this file pushes, pops and counts the queue; it tells the ring's
 * header and the readers when it changes.
 */
#include "dev.h"
#include "dev_ids.h"
#include "dev_queue.h"
#include "dev_ring.h"
#include "dev_signal.h"

/*
 * Queue @t, off the wheel, in its FIRED or CANCELED state. The queue is
 * linked by ids, in the place of the list link the wheel no longer uses
 * (struct hwt_utimer.qprev, .qnext), beside the fire time.
 */
void hwt_queue_push(struct hwt_file *hf, struct hwt_utimer *t)
{
	lockdep_assert_held(&hf->lock);
	t->qprev = hf->qtail;
	t->qnext = 0;
	if (hf->qtail)
		hwt_lookup(hf, hf->qtail)->qnext = t->id;
	else
		hf->qhead = t->id;
	hf->qtail = t->id;
	WRITE_ONCE(hf->nready, hf->nready + 1);
}

/* Take @t off the queue: its record went out, or an operation took it back. */
void hwt_queue_del(struct hwt_file *hf, struct hwt_utimer *t)
{
	lockdep_assert_held(&hf->lock);
	if (t->qprev)
		hwt_lookup(hf, t->qprev)->qnext = t->qnext;
	else
		hf->qhead = t->qnext;
	if (t->qnext)
		hwt_lookup(hf, t->qnext)->qprev = t->qprev;
	else
		hf->qtail = t->qprev;
	WRITE_ONCE(hf->nready, hf->nready - 1);
	/*
	 * The one call back up, by design: delivering into the ring
	 * completes timers, which leave the queue, which the header shows.
	 */
	if (!hf->nready)
		hwt_ring_queue_changed(hf, 0);
}

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
