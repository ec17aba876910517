/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Differences between the kernels hwtimer supports (6.1 .. 6.12 and later).
 * kmod/compat/probe.sh defines HWT_COMPAT_* from the target tree's headers
 * (WireGuard's compat style); what could not be probed would fall back to
 * LINUX_VERSION_CODE, and so far nothing needs to.
 */
#ifndef _HWT_COMPAT_H
#define _HWT_COMPAT_H

#include <linux/eventfd.h>
#include <linux/hrtimer.h>
#include <linux/mm.h>
#include <linux/slab.h>
#include <linux/timer.h>

static inline void hwt_hrtimer_setup(struct hrtimer *t,
				     enum hrtimer_restart (*fn)(struct hrtimer *),
				     clockid_t clockid, enum hrtimer_mode mode)
{
#ifdef HWT_COMPAT_HRTIMER_SETUP
	hrtimer_setup(t, fn, clockid, mode);
#else
	hrtimer_init(t, clockid, mode);
	t->function = fn;
#endif
}

/* eventfd_signal() lost its count argument in 6.8 (commit 3652117f8548) */
static inline void hwt_eventfd_signal(struct eventfd_ctx *ctx)
{
#ifdef HWT_COMPAT_EVENTFD_SIGNAL_COUNT
	eventfd_signal(ctx, 1);
#else
	eventfd_signal(ctx);
#endif
}

/* Add @n to an eventfd's counter: a wake-up for each */
static inline void hwt_eventfd_signal_n(struct eventfd_ctx *ctx,
					unsigned int n)
{
#ifdef HWT_COMPAT_EVENTFD_SIGNAL_COUNT
	eventfd_signal(ctx, n);
#else
	while (n--)
		eventfd_signal(ctx);
#endif
}

/* Unmerged caches show up under their own name in /proc/slabinfo. */
#ifdef HWT_COMPAT_SLAB_NO_MERGE
#define HWT_SLAB_NO_MERGE	SLAB_NO_MERGE
#else
#define HWT_SLAB_NO_MERGE	0
#endif

static inline int hwt_timer_delete(struct timer_list *t)
{
#ifdef HWT_COMPAT_TIMER_DELETE
	return timer_delete(t);
#else
	return del_timer(t);
#endif
}

/* vm_flags became read-only behind vm_flags_set() in 6.3 (bc292ab00f6c) */
static inline void hwt_vm_flags_set(struct vm_area_struct *vma,
				    vm_flags_t flags)
{
#ifdef HWT_COMPAT_VM_FLAGS_SET
	vm_flags_set(vma, flags);
#else
	vma->vm_flags |= flags;
#endif
}

/*
 * Clock sets, for HWTIMER_F_CANCEL_ON_SET: a kernel with hwtimer's in-tree
 * series calls a notifier from clock_was_set(), as it tells timerfd, only
 * when a clock was set (scripts/intree/clock-set-notifier.patch); others
 * offer the pvclock_gtod notifier, which timekeeping calls on its every
 * update, with whether a clock was set. Either passes a nonzero action for
 * a set.
 */
#ifdef HWT_COMPAT_CLOCK_SET_NOTIFIER
#define hwt_clock_set_register		clock_set_notifier_register
#define hwt_clock_set_unregister	clock_set_notifier_unregister
#else
#include <linux/pvclock_gtod.h>
#define hwt_clock_set_register		pvclock_gtod_register_notifier
#define hwt_clock_set_unregister	pvclock_gtod_unregister_notifier
#endif

#endif /* _HWT_COMPAT_H */
