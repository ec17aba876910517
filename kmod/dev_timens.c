// SPDX-License-Identifier: GPL-2.0
/*
 * /dev/hwtimer: time namespaces. Deadlines taken in the caller's view and
 * times reported in it. See dev.h.
 */
#include <linux/nsproxy.h>
#include <linux/time_namespace.h>

#include "dev.h"
#include "dev_timens.h"

/*
 * Time namespaces. A task in a time namespace sees CLOCK_MONOTONIC and
 * CLOCK_BOOTTIME shifted by its namespace's offsets, while the wheels run on
 * the host's clocks. As timerfd does, absolute deadlines from a task are
 * taken in its view and converted to the host's, and every time reported to
 * a task (records, GET) is converted to its view. The core's converter,
 * do_timens_ktime_to_host(), is not exported: the offsets are read the way
 * <linux/time_namespace.h>'s own inline helpers read them.
 */
static s64 hwt_timens_offset(unsigned int clk)
{
#ifdef CONFIG_TIME_NS
	const struct time_namespace *ns;

	if (!current->nsproxy)
		return 0;
	ns = current->nsproxy->time_ns;
	switch (clk) {
	case HWT_CLK_MONO:
		return timespec64_to_ns(&ns->offsets.monotonic);
	case HWT_CLK_BOOT:
		return timespec64_to_ns(&ns->offsets.boottime);
	}
#endif
	return 0;
}

/**
 * hwt_view_offset() - what to add to a time of a timer's base to report it
 * @clk: the timer's clock index
 *
 * The caller's time namespace offset, or for HWT_CLK_ELAPSED, where the
 * base is CLOCK_MONOTONIC and the clock reported CLOCK_REALTIME, the
 * current offset between the two.
 *
 * Return: ns, to add.
 */
s64 hwt_view_offset(unsigned int clk)
{
	if (clk == HWT_CLK_ELAPSED)
		return ktime_to_ns(ktime_mono_to_real(0));
	return hwt_timens_offset(clk);
}

/*
 * An absolute time in the caller's view, in the host's. A time before the
 * namespace's offset has passed (0); one beyond the host's range saturates,
 * and hwt_base_deadline() refuses it.
 */
static u64 hwt_timens_to_host(unsigned int clk, u64 t)
{
	s64 off = hwt_timens_offset(clk);
	u64 neg = -(u64)off;

	if (off >= 0)
		return t < (u64)off ? 0 : t - off;
	return t > U64_MAX - neg ? U64_MAX : t + neg;
}

/*
 * The absolute deadline of an ADD or MOD, and the time it was read at: the
 * same for every operation under this hold of the lock (@nows), except
 * that an absolute deadline on a clock that never goes back is placed
 * against the coarse clock while no exact read was made
 * (hwt_base_abs_now()). @asked is the deadline as asked for, where
 * @deadline raises one that has passed to @now: a fixed-rate period's grid
 * starts at @asked.
 */
int hwt_deadline(struct hwt_file *hf, unsigned int clk,
		 const struct hwtimer_op *op, struct hwt_nows *nows,
		 u64 *now, u64 *deadline, u64 *asked)
{
	struct hwt_base *b = &hf->base[hwt_base_idx(clk)];
	bool abs = op->flags & HWTIMER_F_ABS;
	u64 expires = op->expires;
	int ret;

	if (abs)
		expires = hwt_timens_to_host(clk, expires);
	if (abs && !nows->now[hwt_base_idx(clk)])
		*now = hwt_base_abs_now(b, expires);
	else
		*now = hwt_now_once(hf, nows, clk);
	ret = hwt_base_deadline(b, *now, expires, abs, deadline);
	*asked = abs ? expires : *deadline;
	return ret;
}
