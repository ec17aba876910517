/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _HWT_DEV_EXPIRY_H
#define _HWT_DEV_EXPIRY_H

#include "dev.h"

int hwt_file_base(struct hwt_file *hf, unsigned int clk, bool nowait);
void hwt_file_bases_stop(struct hwt_file *hf);
void hwt_file_bases_follow(struct hwt_file *hf);
void hwt_file_bases_free(struct hwt_file *hf);

#endif /* _HWT_DEV_EXPIRY_H */
