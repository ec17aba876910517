/* SPDX-License-Identifier: GPL-2.0 */
/* bench/op_bench.c's stand-in for <linux/timer.h>: what compat.h names. */
#ifndef _KSHIM_TIMER_H
#define _KSHIM_TIMER_H
#include "kshim/time.h"
struct timer_list { int unused; };
int del_timer(struct timer_list *t);
#endif
