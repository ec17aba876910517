/* SPDX-License-Identifier: GPL-2.0 */
/* bench/op_bench.c's stand-in for <linux/time.h>: see bench/native/README. */
#include "kshim/time.h"
