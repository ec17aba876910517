/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _HWT_DEV_BATCH_H
#define _HWT_DEV_BATCH_H

#include "dev.h"

struct iov_iter;

/* entries one BATCH may carry */
#define HWT_MAX_BATCH	65536
/*
 * The bytes of entries io_uring's inline issue runs (HWT_RUN_NOWAIT): 1,024
 * entries of the first version's size. A larger batch goes to io-wq.
 */
#define HWT_NOWAIT_BYTES	(1024 * HWTIMER_OP_SIZE_VER0)

/*
 * Where a batch's operations are: user memory (@uops), pinned a chunk at a
 * time; or a buffer io_uring registered, read through @in and written
 * through @out, which never fault.
 */
struct hwt_batch_src {
	void __user *uops;
	struct iov_iter *in;
	struct iov_iter *out;
};

int hwt_batch_check(u32 count, u32 op_size, u32 flags);
long hwt_batch_run(struct hwt_file *hf, const struct hwt_batch_src *src,
		   u32 count, size_t osize, unsigned int flags, u32 *done);
long hwt_ioc_batch(struct hwt_file *hf, void __user *uarg, size_t usize);
long hwt_ioc_drain(struct hwt_file *hf, void __user *uarg, size_t usize);

#endif /* _HWT_DEV_BATCH_H */
