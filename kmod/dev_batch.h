/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _HWT_DEV_BATCH_H
#define _HWT_DEV_BATCH_H

#include "dev.h"

/* entries one BATCH may carry */
#define HWT_MAX_BATCH	65536

long hwt_ioc_batch(struct hwt_file *hf, void __user *uarg, size_t usize);
long hwt_ioc_drain(struct hwt_file *hf, void __user *uarg, size_t usize);

#endif /* _HWT_DEV_BATCH_H */
