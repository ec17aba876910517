/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _HWT_DEV_RECORD_H
#define _HWT_DEV_RECORD_H

#include "dev.h"

void hwt_fill_record(struct hwtimer_record *r, struct hwt_utimer *t, s64 off,
		     bool canceled, u64 now);
void hwt_record_taken(struct hwt_file *hf, struct hwt_utimer *t,
		      bool canceled, u64 when, struct hwt_nows *nows);

#endif /* _HWT_DEV_RECORD_H */
