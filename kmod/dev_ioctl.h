/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _HWT_DEV_IOCTL_H
#define _HWT_DEV_IOCTL_H

struct file;

long hwt_ioctl(struct file *file, unsigned int cmd, unsigned long arg);

#endif /* _HWT_DEV_IOCTL_H */
