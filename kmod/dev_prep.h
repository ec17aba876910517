/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _HWT_DEV_PREP_H
#define _HWT_DEV_PREP_H

#include "dev_ops.h"

/* the HWTIMER_F_* flags each operation takes (EINVAL for others) */
#define HWT_ADD_FLAGS	(HWTIMER_F_ABS | HWTIMER_F_FIXED_DELAY | \
			 HWTIMER_F_EVENTFD | HWTIMER_F_NO_RECORD | \
			 HWTIMER_F_AUTOREMOVE | HWTIMER_F_CANCEL_ON_SET | \
			 HWTIMER_F_REALTIME)
#define HWT_MOD_FLAGS	(HWTIMER_F_ABS | HWTIMER_F_FIXED_DELAY | \
			 HWTIMER_F_PERIOD | HWTIMER_F_IF_EARLIER | \
			 HWTIMER_F_IF_IDLE | HWTIMER_F_CANCEL_ON_SET | \
			 HWTIMER_F_GEN)
#define HWT_CANCEL_FLAGS	HWTIMER_F_GEN

bool hwt_period_in_range(const struct hwt_prepped_op *s, bool no_record);
int hwt_prep_add(struct hwt_file *hf, struct hwt_prepped_op *s, bool nowait);
int hwt_prep_mod(struct hwt_file *hf, struct hwt_prepped_op *s, bool nowait);
int hwt_prep_cancel(struct hwt_file *hf, struct hwt_prepped_op *s,
		    bool nowait);
void hwt_prepped_free(struct hwt_prepped_op *preps, unsigned int n);

#endif /* _HWT_DEV_PREP_H */
