/* SPDX-License-Identifier: GPL-2.0 */
/* bench/op_bench.c's stand-in for <linux/bitops.h>: the wheel core's, and word bit ops. */
#include_next <linux/bitops.h>
#include "kshim/sync.h"
