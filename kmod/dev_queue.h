/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _HWT_DEV_QUEUE_H
#define _HWT_DEV_QUEUE_H

#include "dev.h"

struct hwt_signals;

void hwt_queue_push(struct hwt_file *hf, struct hwt_utimer *t);
void hwt_queue_del(struct hwt_file *hf, struct hwt_utimer *t);
void hwt_queued_records(struct hwt_file *hf, struct hwt_signals *sig,
			unsigned int full);

/* The first timer on the queue, or NULL; with the file's lock held. */
static inline struct hwt_utimer *hwt_queue_first(struct hwt_file *hf)
{
	return list_first_entry_or_null(&hf->ready, struct hwt_utimer,
					node.entry);
}

/* Each timer on the queue, oldest first; with the file's lock held. */
#define hwt_queue_for_each(t, hf) \
	list_for_each_entry(t, &(hf)->ready, node.entry)

#endif /* _HWT_DEV_QUEUE_H */
