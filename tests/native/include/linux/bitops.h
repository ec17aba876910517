/* SPDX-License-Identifier: GPL-2.0 */
/* Userspace stand-in for <linux/bitops.h>. */
#ifndef _HWT_SHIM_BITOPS_H
#define _HWT_SHIM_BITOPS_H

#include <stdio.h>
#include <stdlib.h>

#include <linux/types.h>

#include <linux/bits.h>

/*
 * Undefined for 0 in the kernel: natively, a bug in the caller, unless
 * built for a benchmark (HWT_SHIM_FAST), which counts the kernel's
 * instructions.
 */
static inline unsigned long __ffs64(u64 word)
{
#ifndef HWT_SHIM_FAST
	if (!word) {
		fprintf(stderr, "BUG: __ffs64(0)\n");
		abort();
	}
#endif
	return __builtin_ctzll(word);
}

/* undefined for 0 in the kernel too */
static inline unsigned long __fls(unsigned long word)
{
#ifndef HWT_SHIM_FAST
	if (!word) {
		fprintf(stderr, "BUG: __fls(0)\n");
		abort();
	}
#endif
	return 63 - __builtin_clzl(word);
}

static inline int fls64(u64 x)
{
	return x ? 64 - __builtin_clzll(x) : 0;
}

static inline u64 ror64(u64 word, unsigned int shift)
{
	return (word >> (shift & 63)) | (word << ((-shift) & 63));
}

static inline unsigned int hweight64(u64 w)
{
	return __builtin_popcountll(w);
}

static inline unsigned int hweight32(unsigned int w)
{
	return __builtin_popcount(w);
}

#endif
