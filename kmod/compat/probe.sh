#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Print -D flags for the interfaces the target kernel tree has, by looking
# at its headers (WireGuard's compat style); compat.h would fall back to
# version checks for what cannot be probed. Usage: probe.sh <srctree>
tree=$1
inc=$tree/include/linux

has() { grep -qE "$2" "$inc/$1" 2>/dev/null; }

# eventfd_signal() lost its count argument in 6.8
has eventfd.h 'eventfd_signal\(struct eventfd_ctx \*ctx, __u64 n\)' &&
	echo -DHWT_COMPAT_EVENTFD_SIGNAL_COUNT
# hrtimer_setup() replaced hrtimer_init() + setting .function in 6.13
has hrtimer.h 'hrtimer_setup\(' && echo -DHWT_COMPAT_HRTIMER_SETUP
# SLAB_NO_MERGE (6.4+) keeps our caches apart, so /proc/slabinfo shows them
has slab.h 'define SLAB_NO_MERGE' && echo -DHWT_COMPAT_SLAB_NO_MERGE
# timer_delete() replaced del_timer() in 6.2 (commit bb663f0f3c39)
has timer.h 'int timer_delete\(' && echo -DHWT_COMPAT_TIMER_DELETE
# vm_flags_set() (6.3) guards a VMA's flags
has mm.h 'static inline void vm_flags_set\(' && echo -DHWT_COMPAT_VM_FLAGS_SET
# clock_was_set() calls a notifier: hwtimer's in-tree series adds it
# (scripts/intree/clock-set-notifier.patch)
has hrtimer.h 'int clock_set_notifier_register\(' && echo -DHWT_COMPAT_CLOCK_SET_NOTIFIER
# the kernel counts hwtimer's files and timers in its ucounts: the in-tree
# series adds the counts (scripts/intree/ucounts.patch)
has user_namespace.h 'UCOUNT_HWTIMER_TIMERS,' && echo -DHWT_COMPAT_UCOUNTS
# struct io_uring_cmd moved to <linux/io_uring/cmd.h> in 6.6, and in 6.7 it
# points at its SQE instead of the SQE's command bytes
[ -f "$inc/io_uring/cmd.h" ] && echo -DHWT_COMPAT_IO_URING_CMD_H
has io_uring/cmd.h 'const struct io_uring_sqe[[:space:]]+\*sqe;' &&
	echo -DHWT_COMPAT_URING_CMD_SQE
# io_uring_cmd_import_fixed(): a command's registered buffer as an
# iov_iter; without issue flags in 6.1 to 6.12, with them after
for f in io_uring.h io_uring/cmd.h; do
	[ -f "$inc/$f" ] || continue
	proto=$(tr '\n' ' ' < "$inc/$f" | grep -oE \
		'int io_uring_cmd_import_fixed\(u64 ubuf, unsigned long len, int rw,[^;]*\);')
	case "$proto" in
	*issue_flags*) echo -DHWT_COMPAT_URING_IMPORT_FIXED_FLAGS; break ;;
	*ioucmd*) echo -DHWT_COMPAT_URING_IMPORT_FIXED; break ;;
	esac
done
exit 0
