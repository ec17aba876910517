/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What base.c and base_expiry.c share besides base.h: arming a base's
 * hrtimer.
 */
#ifndef _HWT_BASE_IMPL_H
#define _HWT_BASE_IMPL_H

#include "base.h"

void hwt_base_arm(struct hwt_base *b, u64 when, u64 latest);
void hwt_base_arm_next(struct hwt_base *b);

#endif /* _HWT_BASE_IMPL_H */
