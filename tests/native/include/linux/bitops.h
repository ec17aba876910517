/* SPDX-License-Identifier: GPL-2.0 */
/* Userspace stand-in for <linux/bitops.h>. */
#ifndef _HWT_SHIM_BITOPS_H
#define _HWT_SHIM_BITOPS_H

#include <linux/types.h>

#include <linux/bits.h>

static inline unsigned long __ffs64(u64 word)
{
	return __builtin_ctzll(word);
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

#endif
