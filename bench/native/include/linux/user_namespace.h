/* SPDX-License-Identifier: GPL-2.0 */
/* bench/op_bench.c's stand-in for <linux/user_namespace.h>: see bench/native/README. */
#include "kshim/sched.h"
