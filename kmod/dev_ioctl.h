/* SPDX-License-Identifier: GPL-2.0 */
/*
 * /dev/hwtimer: the ioctl dispatcher (dev_ioctl.c).
 */
#ifndef _HWT_DEV_IOCTL_H
#define _HWT_DEV_IOCTL_H

struct file;

long hwt_ioctl(struct file *file, unsigned int cmd, unsigned long arg);

#endif /* _HWT_DEV_IOCTL_H */
