/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Tracepoints, disabled: as in the kernel, where a disabled tracepoint is
 * a static key's nop and its arguments are never computed, each call is
 * one nop.
 */
#ifndef _KSHIM_TRACE_H
#define _KSHIM_TRACE_H

#include "kshim/core.h"

#define TP_PROTO(args...)	args
#define TP_ARGS(args...)	args
#define TP_STRUCT__entry(args...)
#define TP_fast_assign(args...)
#define TP_printk(args...)
#define DECLARE_EVENT_CLASS(name, proto, args, tstruct, assign, print)
#define DEFINE_EVENT(template, name, proto, args)			\
	static inline void trace_##name(proto)				\
	{								\
		__asm__ __volatile__("nop");				\
	}								\
	static inline bool trace_##name##_enabled(void)			\
	{								\
		return false;						\
	}
#define TRACE_EVENT(name, proto, args, tstruct, assign, print)		\
	DEFINE_EVENT(name, name, PARAMS(proto), PARAMS(args))
#define PARAMS(args...)		args

#endif
