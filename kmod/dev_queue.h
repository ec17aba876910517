/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _HWT_DEV_QUEUE_H
#define _HWT_DEV_QUEUE_H

#include "dev.h"
#include "dev_ids.h"

struct hwt_signals;

void hwt_queue_push(struct hwt_file *hf, struct hwt_utimer *t);
void hwt_queue_del(struct hwt_file *hf, struct hwt_utimer *t);
void hwt_queued_records(struct hwt_file *hf, struct hwt_signals *sig,
			unsigned int full);

/* The timer at the head of the queue, or NULL; with the file's lock held. */
static inline struct hwt_utimer *hwt_queue_first(struct hwt_file *hf)
{
	return hf->qhead ? hwt_lookup(hf, hf->qhead) : NULL;
}

/* The timer after @t on the queue, or NULL; with the file's lock held. */
static inline struct hwt_utimer *hwt_queue_next(struct hwt_file *hf,
						struct hwt_utimer *t)
{
	return t->qnext ? hwt_lookup(hf, t->qnext) : NULL;
}

#endif /* _HWT_DEV_QUEUE_H */
