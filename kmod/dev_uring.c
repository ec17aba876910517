// SPDX-License-Identifier: GPL-2.0
/*
 * /dev/hwtimer: ADD, MOD and CANCEL submitted through io_uring, as
 * IORING_OP_URING_CMD (the file's ->uring_cmd, since 5.19), so that a
 * program that already has a ring arms and cancels timers with no syscall
 * of their own. Each command completes inline, its CQE's @res as the
 * ioctl's return; the contract is in the uapi header. See dev.h.
 *
 * Expiries do not come back as CQEs. A multishot command could post one
 * per record, but each would cost a CQE of the ring's (and, once the CQ is
 * full, an allocation on io_uring's overflow list), where the expiry ring
 * costs a slot written under the lock the expiry holds anyway.
 */
#include <linux/io_uring.h>
#include <linux/io_uring_types.h>

#include "compat/compat.h"
#ifdef HWT_COMPAT_IO_URING_CMD_H
#include <linux/io_uring/cmd.h>
#endif
#include "dev.h"

/* flags whose fields the short form lacks: they need HWTIMER_URING_OP */
#define HWT_URING_LONG_FLAGS	(HWTIMER_F_EVENTFD | HWTIMER_F_PERIOD | \
				 HWTIMER_F_GEN)

/* The SQE's command bytes: 16, or 80 on an IORING_SETUP_SQE128 ring. */
static const void *hwt_uring_bytes(struct io_uring_cmd *ioucmd)
{
#ifdef HWT_COMPAT_URING_CMD_SQE
	return io_uring_sqe_cmd(ioucmd->sqe);
#else
	return ioucmd->cmd;
#endif
}

/* Run one op as its ioctl would; what its CQE reports. */
static int hwt_uring_run(struct hwt_file *hf, struct hwt_slot *s)
{
	s->op.result = 0;
	hwt_run_ops(hf, s, 1, false);
	if (s->op.result < 0)
		return s->op.result;
	return s->op.op == HWTIMER_OP_ADD ? s->op.id : s->op.result;
}

/*
 * The short form: struct hwtimer_uring_cmd, read once (the SQE is the
 * submitter's memory, which it may still write), then checked.
 */
static int hwt_uring_short(struct hwt_file *hf, struct io_uring_cmd *ioucmd,
			   u32 opcode)
{
	struct hwtimer_uring_cmd c;
	struct hwt_slot s = {};

	memcpy(&c, hwt_uring_bytes(ioucmd), sizeof(c));
	if (c.padding || (c.flags & HWT_URING_LONG_FLAGS))
		return -EINVAL;
	if ((opcode == HWTIMER_OP_ADD && c.id) ||
	    (opcode == HWTIMER_OP_CANCEL && c.expires))
		return -EINVAL;
	s.op.op = opcode;
	s.op.flags = c.flags;
	s.op.id = c.id;
	s.op.clockid = c.clockid;
	s.op.expires = c.expires;
	if (opcode == HWTIMER_OP_ADD)
		s.op.cookie = cmd_to_io_kiocb(ioucmd)->cqe.user_data;
	return hwt_uring_run(hf, &s);
}

/**
 * hwt_uring_cmd() - the file's ->uring_cmd: one HWTIMER_URING_* command
 * @ioucmd: the command
 * @issue_flags: IO_URING_F_*
 *
 * Return: the CQE's @res: an ADD's id, a MOD's or CANCEL's result, or
 * -errno. Never -EAGAIN or -EIOCBQUEUED: every command completes here.
 */
int hwt_uring_cmd(struct io_uring_cmd *ioucmd, unsigned int issue_flags)
{
	struct hwt_file *hf = ioucmd->file->private_data;
	struct hwt_slot s = {};

	switch (ioucmd->cmd_op) {
	case HWTIMER_URING_ADD:
		return hwt_uring_short(hf, ioucmd, HWTIMER_OP_ADD);
	case HWTIMER_URING_MOD:
		return hwt_uring_short(hf, ioucmd, HWTIMER_OP_MOD);
	case HWTIMER_URING_CANCEL:
		return hwt_uring_short(hf, ioucmd, HWTIMER_OP_CANCEL);
	case HWTIMER_URING_OP:
		/* a whole struct hwtimer_op needs the 80 bytes of SQE128 */
		if (!(issue_flags & IO_URING_F_SQE128))
			return -EINVAL;
		memcpy(&s.op, hwt_uring_bytes(ioucmd), sizeof(s.op));
		return hwt_uring_run(hf, &s);
	default:
		return -ENOTTY;
	}
}
