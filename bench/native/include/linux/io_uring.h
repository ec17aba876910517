/* SPDX-License-Identifier: GPL-2.0 */
/* bench/op_bench.c's stand-in for <linux/io_uring.h>: see bench/native/README. */
#include "kshim/uring.h"
