/* SPDX-License-Identifier: GPL-2.0 */
/* bench/op_bench.c's stand-in for <linux/errno.h>: the uapi's, and the kernel's own. */
#include_next <linux/errno.h>
#ifndef ERESTARTSYS
#define ERESTARTSYS	512
#define EIOCBQUEUED	529
#endif
