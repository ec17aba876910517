/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _HWT_DEV_OPS_H
#define _HWT_DEV_OPS_H

#include "dev.h"

struct eventfd_ctx;
struct hwt_opdef;

/*
 * One operation of a batch, with what it needs allocated beforehand: for
 * a timer with a period, slack or an eventfd, what it has besides its entry
 * (@ext), and for an eventfd, its context and an entry for it in case it
 * is not the file's last one; and the slack it arms with, its own or the
 * file's. @def is what the operation is, once its prep passed, and @clk
 * an ADD's clock index (HWT_CLK_ELAPSED for a relative CLOCK_REALTIME
 * deadline); @added is the timer an ADD created, for hwt_undo_adds();
 * @ended says that a MOD or CANCEL ended an arming whose eventfd a run was
 * signalling (hwt_signalling(), hwt_signals_wait()).
 */
struct hwt_prepped_op {
	struct hwtimer_op op;
	u64 slack;
	const struct hwt_opdef *def;
	struct hwt_uext *ext;
	struct hwt_utimer *added;
	struct eventfd_ctx *ctx;
	struct hwt_efd *efd;
	unsigned int clk;
	bool ended;
};

/* how hwt_run_ops() and hwt_batch_run() run operations */
#define HWT_RUN_STOP	BIT(0)	/* stop at the first failure */
#define HWT_RUN_NOWAIT	BIT(1)	/* io_uring's inline issue: no fault, no
				 * mutex wait, a bounded count (dev_uring.c)
				 */

int hwt_run_ops(struct hwt_file *hf, struct hwt_prepped_op *preps,
		unsigned int n, unsigned int flags);
void hwt_undo_adds(struct hwt_file *hf, struct hwt_prepped_op *preps,
		   unsigned int n);

#endif /* _HWT_DEV_OPS_H */
