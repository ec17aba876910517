/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _HWT_DEV_URING_H
#define _HWT_DEV_URING_H

struct io_uring_cmd;

int hwt_uring_cmd(struct io_uring_cmd *ioucmd, unsigned int issue_flags);

#endif /* _HWT_DEV_URING_H */
