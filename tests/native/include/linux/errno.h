/* SPDX-License-Identifier: GPL-2.0 */
/* Userspace stand-in for <linux/errno.h>: the uapi errno values. */
#include <asm/errno.h>
