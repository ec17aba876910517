/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _HWT_DEV_READ_H
#define _HWT_DEV_READ_H

#include <linux/poll.h>

ssize_t hwt_read(struct file *file, char __user *buf, size_t count,
		 loff_t *ppos);
__poll_t hwt_poll(struct file *file, poll_table *wait);

#endif /* _HWT_DEV_READ_H */
