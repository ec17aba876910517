/* SPDX-License-Identifier: GPL-2.0 */
/* Userspace stand-in for <linux/types.h>, for building the wheel core natively. */
#ifndef _HWT_SHIM_TYPES_H
#define _HWT_SHIM_TYPES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef uint8_t u8;
typedef uint16_t u16;
typedef uint32_t u32;
typedef uint64_t u64;
typedef int32_t s32;
typedef int64_t s64;

#ifndef U32_MAX
#define U32_MAX ((u32)~0U)
#endif
#ifndef S64_MAX
#define S64_MAX ((s64)(~0ULL >> 1))
#endif
#ifndef U64_MAX
#define U64_MAX ((u64)~0ULL)
#endif

#endif
