/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _HWT_DEV_TIMER_H
#define _HWT_DEV_TIMER_H

#include "dev.h"

void hwt_utimer_disarm(struct hwt_file *hf, struct hwt_utimer *t);
void hwt_utimer_remove(struct hwt_file *hf, struct hwt_utimer *t);
void hwt_utimer_arm(struct hwt_file *hf, struct hwt_utimer *t, u64 deadline,
		    u64 now);
u64 hwt_utimer_slack(const struct hwt_node *n);
void hwt_utimer_rearm_period(struct hwt_file *hf, struct hwt_utimer *t,
			     u64 when, u64 now);

/* Set a timer's slack, which needs the larger object unless it is 0. */
static inline void hwt_utimer_set_slack(struct hwt_utimer *t, u64 slack)
{
	if (t->flags & HWT_U_EXT)
		hwt_ext(t)->slack = slack;
	t->node.slack = slack && (t->flags & HWT_U_EXT);
}

#endif /* _HWT_DEV_TIMER_H */
