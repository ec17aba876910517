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

/* bits of struct hwt_node the wheel keeps for itself, and what is left */
#define HWT_NODE_LVL_BITS	4
#define HWT_NODE_SLACK_BITS	1
#define HWT_NODE_OWNER_BITS	(64 - HWT_NODE_LVL_BITS - HWT_NODE_SLACK_BITS)

/**
 * struct hwt_node - a timer as the wheel sees it
 * @entry: link in a wheel slot. Once the wheel returned the node as due it
 *	   is an empty list head, and the owner may use it for its own lists.
 * @expires: deadline in ns: the time the node is returned at, never
 *	     before. Adding a node raises a deadline that falls in a tick
 *	     before the wheel's current one to the first time of that tick.
 * @lvl: the wheel's: the level the node is queued on, which with @expires
 *	 names its slot. A node does not move when the clock moves, only when
 *	 the wheel cascades its slot, so the slot is recorded, not recomputed.
 * @slack: set by the owner: the node may be returned up to some time after
 *	   @expires, which the wheel asks the owner for (struct
 *	   hwt_wheel.slack_of); clear for a node due exactly at @expires
 * @owner: the owner's; the wheel never reads or writes these bits. An owner
 *	   that wants them names them with bitfields of its own in a union
 *	   with the node (see struct hwt_utimer).
 */
struct hwt_node {
	struct list_head entry;
	u64 expires;
	u64 lvl : HWT_NODE_LVL_BITS;
	u64 slack : HWT_NODE_SLACK_BITS;
	u64 owner : HWT_NODE_OWNER_BITS;
};

#endif /* _LINUX_HWT_NODE_H */
