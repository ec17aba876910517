/* SPDX-License-Identifier: GPL-2.0 */
/* Userspace stand-in for <linux/build_bug.h>: C11's static_assert. */
#ifndef _HWT_SHIM_BUILD_BUG_H
#define _HWT_SHIM_BUILD_BUG_H

#include <assert.h>

#endif
