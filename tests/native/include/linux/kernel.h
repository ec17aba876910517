/* SPDX-License-Identifier: GPL-2.0 */
/* Userspace stand-in for <linux/kernel.h>: the helpers the wheel core uses. */
#ifndef _HWT_SHIM_KERNEL_H
#define _HWT_SHIM_KERNEL_H

#include <linux/types.h>

#define container_of(ptr, type, member) \
	((type *)((char *)(ptr) - offsetof(type, member)))
#define DIV_ROUND_UP(n, d) (((n) + (d) - 1) / (d))
#define min(a, b) ((a) < (b) ? (a) : (b))
#define max(a, b) ((a) > (b) ? (a) : (b))
#define min_t(type, a, b) min((type)(a), (type)(b))
#define max_t(type, a, b) max((type)(a), (type)(b))
#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))
#define likely(x) __builtin_expect(!!(x), 1)
#define unlikely(x) __builtin_expect(!!(x), 0)
#define __maybe_unused __attribute__((unused))
#define noinline __attribute__((__noinline__))
#ifndef __always_inline
#define __always_inline inline __attribute__((__always_inline__))
#endif

#endif
