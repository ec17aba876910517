/* SPDX-License-Identifier: GPL-2.0 */
/*
 * /dev/hwtimer: copying a versioned ioctl struct in, for every file that
 * takes one from the user (dev_ioctl.c, dev_batch.c, dev_ring.c).
 */
#ifndef _HWT_DEV_COPY_H
#define _HWT_DEV_COPY_H

#include <linux/uaccess.h>

/*
 * A struct shorter than the first version is refused; a shorter one than
 * ours but not than that is zero-extended; a longer one needs a zero tail.
 */
static inline int hwt_copy_in(void *dst, size_t ksize, size_t ver0,
			      const void __user *src, size_t usize)
{
	if (usize < ver0)
		return -EINVAL;
	return copy_struct_from_user(dst, ksize, src, usize);
}

#endif /* _HWT_DEV_COPY_H */
