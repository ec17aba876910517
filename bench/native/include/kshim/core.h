/* SPDX-License-Identifier: GPL-2.0 */
/*
 * bench/op_bench.c's kernel shim: what every file of the module's op path
 * needs before its own concerns (types, compiler macros, error pointers,
 * printk, module macros). It extends tests/native/include (the wheel
 * core's shims), which the -I order puts after this directory; see
 * bench/native/README.
 */
#ifndef _KSHIM_CORE_H
#define _KSHIM_CORE_H

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>		/* clockid_t, CLOCK_* */
#include <assert.h>
#include <asm/types.h>		/* __u32 and friends, for the uapi header */
#include <linux/posix_types.h>
#include <linux/errno.h>

/* the wheel core's shims: u64 and friends, container_of, min/max, lists */
#include_next <linux/types.h>
#include_next <linux/kernel.h>

typedef int64_t ktime_t;
typedef unsigned int gfp_t;
typedef int8_t s8;
typedef int16_t s16;
typedef unsigned int __poll_t;
typedef unsigned long vm_flags_t;
typedef unsigned int fmode_t;
typedef int rwf_t;

#define __aligned_u64	__u64 __attribute__((aligned(8)))
#undef static_assert
#define static_assert(expr, ...)	__static_assert(expr, ##__VA_ARGS__, #expr)
#define __static_assert(expr, msg, ...)	_Static_assert(expr, msg)
#define __user
#define __force
#define __iomem
#define __rcu
#define __percpu
#define __init
#define __exit
#define __read_mostly
#define __cold
#define __must_check
#define __acquires(x)
#define __releases(x)
#define __acquire(x)	((void)0)
#define __release(x)	((void)0)
#define __printf(a, b)	__attribute__((format(printf, a, b)))
#define fallthrough	__attribute__((__fallthrough__))
#define barrier()	__asm__ __volatile__("" : : : "memory")

#define READ_ONCE(x)	(*(const volatile __typeof__(x) *)&(x))
#define WRITE_ONCE(x, v) do { *(volatile __typeof__(x) *)&(x) = (v); } while (0)
#define data_race(expr)	(expr)

/* IS_ENABLED(CONFIG_FOO): every option this shim leaves unset is off */
#define __ARG_PLACEHOLDER_1 0,
#define __take_second_arg(__ignored, val, ...) val
#define __is_defined(x)			___is_defined(x)
#define ___is_defined(val)		____is_defined(__ARG_PLACEHOLDER_##val)
#define ____is_defined(arg1_or_junk)	__take_second_arg(arg1_or_junk 1, 0)
#define IS_ENABLED(option)		__is_defined(option)
#define CONFIG_64BIT 1

#define KTIME_MAX	((s64)~((u64)1 << 63))
#define NSEC_PER_USEC	1000L
#define NSEC_PER_MSEC	1000000L
#define NSEC_PER_SEC	1000000000L
#define ULONG_MAX	(~0UL)
#define U16_MAX		((u16)~0U)
#ifndef S64_MIN
#define S64_MIN		((s64)((u64)1 << 63))
/* what the kernel's <linux/kernel.h> brings besides */
#include <linux/bug.h>
#include <linux/bitops.h>

#endif
#define BITS_PER_LONG	64
#define PAGE_SHIFT	12
#define PAGE_SIZE	(1UL << PAGE_SHIFT)
#define PAGE_MASK	(~(PAGE_SIZE - 1))
#define offset_in_page(p)	((unsigned long)(p) & ~PAGE_MASK)
#define GENMASK(h, l)	(((~0UL) - (1UL << (l)) + 1) & (~0UL >> (63 - (h))))
#define __stringify_1(x...)	#x
#define __stringify(x...)	__stringify_1(x)
#define KBUILD_MODNAME	"hwtimer"
#define SINGLE_DEPTH_NESTING	1

#define min3(a, b, c)	min(min(a, b), c)
#define clamp(v, lo, hi)	min(max(v, lo), hi)
#define swap(a, b) do { __typeof__(a) __t = (a); (a) = (b); (b) = __t; } while (0)
#define DIV_ROUND_UP_ULL(n, d)	DIV_ROUND_UP((unsigned long long)(n), (d))
#define DIV64_U64_ROUND_UP(n, d)	(((n) + (d) - 1) / (d))
#define round_up(x, y)	((((x) - 1) | ((__typeof__(x))((y) - 1))) + 1)
#define ilog2(n)	((n) ? 63 - __builtin_clzll((u64)(n)) : -1)
/* <linux/nospec.h>'s generic mask: ~0 for an index below size, else 0 */
#define array_index_nospec(index, size) ({				\
	unsigned long __i = (index), __s = (size);			\
	__i & (~(long)(__i | (__s - 1 - __i)) >> (BITS_PER_LONG - 1));	\
})
#define u64_to_user_ptr(x)	((void __user *)(uintptr_t)(x))

/* a function the measured path must never reach in this bench */
#define KSHIM_NOT_HERE() do {						\
	fprintf(stderr, "op_bench: %s reached, which the shim does "	\
		"not model\n", __func__);				\
	abort();							\
} while (0)

/* error pointers */
#define MAX_ERRNO	4095
#define IS_ERR_VALUE(x)	unlikely((unsigned long)(void *)(x) >= (unsigned long)-MAX_ERRNO)
static inline void *ERR_PTR(long error) { return (void *)error; }
static inline long PTR_ERR(const void *ptr) { return (long)ptr; }
static inline bool IS_ERR(const void *ptr) { return IS_ERR_VALUE((unsigned long)ptr); }
static inline bool IS_ERR_OR_NULL(const void *ptr)
{
	return !ptr || IS_ERR_VALUE((unsigned long)ptr);
}

/* printk: to stderr, which the bench does not count */
#define pr_err(fmt, ...)	fprintf(stderr, fmt, ##__VA_ARGS__)
#define pr_warn(fmt, ...)	fprintf(stderr, fmt, ##__VA_ARGS__)
#define pr_info(fmt, ...)	((void)0)
#define pr_debug(fmt, ...)	((void)0)
#define WARN_ON_ONCE_SHIM	1

/* module macros: parameters are plain variables; module_init() is a call */
#define THIS_MODULE		NULL
#define MODULE_DESCRIPTION(x)
#define MODULE_LICENSE(x)
#define MODULE_VERSION(x)
#define MODULE_AUTHOR(x)
#define MODULE_PARM_DESC(n, d)
#define module_param(n, t, p)
#define module_param_named(n, v, t, p)
#define EXPORT_SYMBOL_GPL(s)
#define EXPORT_SYMBOL(s)
#define module_init(fn)	int kshim_module_init(void) { return fn(); }
#define module_exit(fn)	void kshim_module_exit(void) { fn(); }
typedef unsigned long ulong;
typedef unsigned int uint;

#define might_sleep()	((void)0)
#define might_fault()	((void)0)

/* what the kernel's <linux/kernel.h> brings besides */
#include <linux/bug.h>
#include <linux/bitops.h>

#endif
