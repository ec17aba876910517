/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _HWT_DEV_CLOCKSET_H
#define _HWT_DEV_CLOCKSET_H

#include "dev.h"

struct hwt_signals;

bool hwt_cos_stale(const struct hwt_file *hf);
void hwt_cos_withdrawn(struct hwt_file *hf, struct hwt_utimer *t, u64 now,
		       struct hwt_signals *sig);
void hwt_cos_sync(struct hwt_file *hf);
int hwt_cos_join(struct hwt_file *hf, bool nowait);
void hwt_cos_leave(struct hwt_file *hf);
int hwt_clockset_init(void);
void hwt_clockset_exit(void);

#endif /* _HWT_DEV_CLOCKSET_H */
