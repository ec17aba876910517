/* SPDX-License-Identifier: GPL-2.0 */
/*
 * hwtimer tracepoints: events/hwtimer/ in tracefs, for perf, trace-cmd and
 * bpftrace. A timer is named by its address (hashed by %p) and, for
 * /dev/hwtimer timers, by its id on its file (0 for in-kernel timers).
 */
#undef TRACE_SYSTEM
#define TRACE_SYSTEM hwtimer

#if !defined(_HWT_TRACE_H) || defined(TRACE_HEADER_MULTI_READ)
#define _HWT_TRACE_H

#include <linux/tracepoint.h>

DECLARE_EVENT_CLASS(hwt_arm_class,
		    TP_PROTO(clockid_t clockid, const void *timer, u32 id,
			     u64 expires, u64 now, unsigned int level),
		    TP_ARGS(clockid, timer, id, expires, now, level),
		    TP_STRUCT__entry(__field(clockid_t, clockid)
				     __field(const void *, timer)
				     __field(u32, id)
				     __field(unsigned int, level)
				     __field(u64, expires)
				     __field(u64, now)),
		    TP_fast_assign(__entry->clockid = clockid;
				   __entry->timer = timer;
				   __entry->id = id;
				   __entry->level = level;
				   __entry->expires = expires;
				   __entry->now = now;),
		    TP_printk("clock=%d timer=%p id=%u expires=%llu delay=%lld level=%u",
			      __entry->clockid, __entry->timer, __entry->id,
			      __entry->expires,
			      (s64)(__entry->expires - __entry->now),
			      __entry->level)
);

/* a timer was armed (added to the wheel) */
DEFINE_EVENT(hwt_arm_class, hwt_add,
	     TP_PROTO(clockid_t clockid, const void *timer, u32 id,
		      u64 expires, u64 now, unsigned int level),
	     TP_ARGS(clockid, timer, id, expires, now, level)
);

/* a pending timer was moved to a new deadline */
DEFINE_EVENT(hwt_arm_class, hwt_modify,
	     TP_PROTO(clockid_t clockid, const void *timer, u32 id,
		      u64 expires, u64 now, unsigned int level),
	     TP_ARGS(clockid, timer, id, expires, now, level)
);

/* a pending timer was cancelled, drained or closed before it fired */
TRACE_EVENT(hwt_cancel,
	    TP_PROTO(clockid_t clockid, const void *timer, u32 id,
		     u64 expires),
	    TP_ARGS(clockid, timer, id, expires),
	    TP_STRUCT__entry(__field(clockid_t, clockid)
			     __field(const void *, timer)
			     __field(u32, id)
			     __field(u64, expires)),
	    TP_fast_assign(__entry->clockid = clockid;
			   __entry->timer = timer;
			   __entry->id = id;
			   __entry->expires = expires;),
	    TP_printk("clock=%d timer=%p id=%u expires=%llu",
		      __entry->clockid, __entry->timer, __entry->id,
		      __entry->expires)
);

/*
 * A timer fired, @lateness ns after its deadline. hwt_add and hwt_modify
 * gave the level it was armed on: joined on @timer, lateness by level shows
 * what cascading costs.
 */
TRACE_EVENT(hwt_expire,
	    TP_PROTO(clockid_t clockid, const void *timer, u32 id,
		     u64 expires, u64 now),
	    TP_ARGS(clockid, timer, id, expires, now),
	    TP_STRUCT__entry(__field(clockid_t, clockid)
			     __field(const void *, timer)
			     __field(u32, id)
			     __field(u64, expires)
			     __field(u64, lateness)),
	    TP_fast_assign(__entry->clockid = clockid;
			   __entry->timer = timer;
			   __entry->id = id;
			   __entry->expires = expires;
			   __entry->lateness = now - expires;),
	    TP_printk("clock=%d timer=%p id=%u expires=%llu lateness=%llu",
		      __entry->clockid, __entry->timer, __entry->id,
		      __entry->expires, __entry->lateness)
);

/*
 * The wheel moved @nodes nodes of a slot down from a coarser level; a
 * cascade cut short by a run's budget shows as several events for one slot.
 */
TRACE_EVENT(hwt_cascade,
	    TP_PROTO(const void *wheel, u64 clk, unsigned int level,
		     unsigned int slot, unsigned int nodes),
	    TP_ARGS(wheel, clk, level, slot, nodes),
	    TP_STRUCT__entry(__field(const void *, wheel)
			     __field(u64, clk)
			     __field(unsigned int, level)
			     __field(unsigned int, slot)
			     __field(unsigned int, nodes)),
	    TP_fast_assign(__entry->wheel = wheel;
			   __entry->clk = clk;
			   __entry->level = level;
			   __entry->slot = slot;
			   __entry->nodes = nodes;),
	    TP_printk("wheel=%p clk=%llu level=%u slot=%u nodes=%u",
		      __entry->wheel, __entry->clk, __entry->level,
		      __entry->slot, __entry->nodes)
);

/*
 * A pass over a base begins at @now on its clock, the time every timer it
 * expires fired at. @kind is what started it (enum hwt_pass_kind): the
 * hrtimer, the run going on after a pass that spent its budget, or the
 * worker a backlog was handed to.
 */
TRACE_EVENT(hwt_pass,
	    TP_PROTO(clockid_t clockid, const void *base, unsigned int kind,
		     u64 now),
	    TP_ARGS(clockid, base, kind, now),
	    TP_STRUCT__entry(__field(clockid_t, clockid)
			     __field(const void *, base)
			     __field(unsigned int, kind)
			     __field(u64, now)),
	    TP_fast_assign(__entry->clockid = clockid;
			   __entry->base = base;
			   __entry->kind = kind;
			   __entry->now = now;),
	    TP_printk("clock=%d base=%p kind=%s now=%llu",
		      __entry->clockid, __entry->base,
		      __print_symbolic(__entry->kind, { 0, "wakeup" },
				       { 1, "continued" }, { 2, "handed_off" }),
		      __entry->now)
);

/*
 * One pass over a base: @fired timers expired, @cascaded nodes moved down,
 * @ticks wheel ticks passed, in @ns of CPU time. @units is what the pass
 * spent of its budget (the module's HWT_PASS_BUDGET, at most): one unit per
 * timer expired and per node placed, one per HWT_CHEAP_PER_UNIT nodes moved
 * together with the node of their key before them.
 */
TRACE_EVENT(hwt_tick,
	    TP_PROTO(clockid_t clockid, const void *base, unsigned int fired,
		     unsigned int cascaded, unsigned int units, u64 ticks,
		     u64 ns),
	    TP_ARGS(clockid, base, fired, cascaded, units, ticks, ns),
	    TP_STRUCT__entry(__field(clockid_t, clockid)
			     __field(const void *, base)
			     __field(unsigned int, fired)
			     __field(unsigned int, cascaded)
			     __field(unsigned int, units)
			     __field(u64, ticks)
			     __field(u64, ns)),
	    TP_fast_assign(__entry->clockid = clockid;
			   __entry->base = base;
			   __entry->fired = fired;
			   __entry->cascaded = cascaded;
			   __entry->units = units;
			   __entry->ticks = ticks;
			   __entry->ns = ns;),
	    TP_printk("clock=%d base=%p fired=%u cascaded=%u units=%u ticks=%llu ns=%llu",
		      __entry->clockid, __entry->base, __entry->fired,
		      __entry->cascaded, __entry->units, __entry->ticks,
		      __entry->ns)
);

#endif /* _HWT_TRACE_H */

#undef TRACE_INCLUDE_PATH
#define TRACE_INCLUDE_PATH .
#undef TRACE_INCLUDE_FILE
#define TRACE_INCLUDE_FILE hwt_trace
#include <trace/define_trace.h>
