/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _HWT_SYSFS_H
#define _HWT_SYSFS_H

struct attribute_group;

extern const struct attribute_group *hwt_sysfs_groups[];
int hwt_sysfs_init(void);
void hwt_sysfs_exit(void);

#endif /* _HWT_SYSFS_H */
