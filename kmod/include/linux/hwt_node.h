/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The part of a timer the wheel core sees. It is shared by the core (which
 * also builds in userspace), the in-kernel API's struct hwtimer and the
 * device's timers.
 */
#ifndef _LINUX_HWT_NODE_H
#define _LINUX_HWT_NODE_H

#include <linux/list.h>
#include <linux/types.h>

/**
 * struct hwt_node - a timer as the wheel sees it
 * @entry: link in a wheel slot. Once the wheel returned the node as due it
 *	   is an empty list head, and the owner may use it for its own lists.
 * @expires: deadline in ns. Adding a node raises a deadline that falls in
 *	     a tick the wheel has already processed to the wheel's clock + 1.
 */
struct hwt_node {
	struct list_head entry;
	u64 expires;
};

#endif /* _LINUX_HWT_NODE_H */
