/* SPDX-License-Identifier: GPL-2.0 */
/*
 * compat.h names the notifier that tells of clock sets; clock sets
 * (dev_clockset.c) are not on the op path, and are stubbed (kstubs.c).
 */
#ifndef _KSHIM_LINUX_PVCLOCK_GTOD_H
#define _KSHIM_LINUX_PVCLOCK_GTOD_H

struct notifier_block;

int pvclock_gtod_register_notifier(struct notifier_block *nb);
int pvclock_gtod_unregister_notifier(struct notifier_block *nb);

#endif
