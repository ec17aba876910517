/* SPDX-License-Identifier: GPL-2.0 */
/* Userspace stand-in for <linux/bits.h>. */
#ifndef _HWT_SHIM_BITS_H
#define _HWT_SHIM_BITS_H

#define BIT(n) (1UL << (n))
#define BIT_ULL(n) (1ULL << (n))

#endif
