/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _HWT_DEV_TIMENS_H
#define _HWT_DEV_TIMENS_H

#include "dev.h"

s64 hwt_view_offset(unsigned int clk);
int hwt_deadline(struct hwt_file *hf, unsigned int clk,
		 const struct hwtimer_op *op, struct hwt_nows *nows,
		 u64 *now, u64 *deadline, u64 *asked);

#endif /* _HWT_DEV_TIMENS_H */
