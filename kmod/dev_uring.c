// SPDX-License-Identifier: GPL-2.0
/*
 * /dev/hwtimer: ADD, MOD and CANCEL submitted through io_uring, as
 * IORING_OP_URING_CMD (the file's ->uring_cmd, since 5.19), so that a
 * program that already has a ring arms and cancels timers with no syscall
 * of their own. Each command's CQE has @res as the ioctl's return; the
 * contract is in Documentation/userspace-api/hwtimer.rst.
 *
 * Every command runs as io_uring issues it, and completes there: a CQE
 * needs no task work, and no command issued inline outlives the task that
 * submitted it, whatever kind of ring it came on. An IORING_SETUP_IOPOLL
 * ring gets none: without ->uring_cmd_iopoll, io_uring refuses them
 * (EOPNOTSUPP), and there is nothing to poll for. One SQE is one operation
 * (the short form in its 16 command bytes, or a whole struct hwtimer_op in
 * SQE128's 80), or an array of them (HWTIMER_URING_BATCH), run as BATCH
 * runs it, a chunk per hold of the file's lock, with one CQE for all: what
 * an operation costs on its own (a lock round trip, a clock read, the
 * charge to the user) is then paid once per chunk, and what io_uring costs
 * per SQE once per array. The array is in user memory, pinned a chunk at a
 * time, or in a buffer registered with the ring (IORING_URING_CMD_FIXED),
 * which is pinned already.
 *
 * io_uring issues a command inline with IO_URING_F_NONBLOCK, holding the
 * ring's uring_lock (or in the SQPOLL thread that serves every ring of the
 * process), and runs it again from io-wq, with the submitter's
 * credentials, mm and files, if it returns -EAGAIN. So a command issued
 * inline never waits on anything a user controls before it has run
 * anything (HWT_RUN_NOWAIT): what would fault in its array, wait on a
 * mutex (a base's set-up, the clock sets' walk, the table's growth) or run
 * more than HWT_NOWAIT_BYTES of entries returns -EAGAIN, having changed
 * nothing; the table grows with GFP_NOWAIT. Small allocations (the batch's
 * buffers, an eventfd entry, a timer's extension, a clock's first wheel)
 * may still enter reclaim, as any GFP_KERNEL allocation in a non-blocking
 * path of io_uring's does, and FOLL_NOFAULT's pinning may take the mmap
 * lock for a moment; io-wq reads the command
 * again from io_uring's copy of the SQE and runs it as the ioctl would.
 * A command never returns -EAGAIN once an operation ran, so nothing runs
 * twice. What may still wait once operations ran is bounded: the wait for
 * an expiry that signals the eventfd of an arming a MOD or CANCEL ended
 * (dev_signal.c), and an ADD whose entry another thread of the file took
 * meanwhile, which grows the table.
 *
 * Expiries do not come back as CQEs. A multishot command could post one
 * per record, but each would cost a CQE of the ring's (and, once the CQ is
 * full, an allocation on io_uring's overflow list), where the expiry ring
 * costs a record written under the lock the expiry holds anyway.
 */
#include <linux/io_uring.h>
#include <linux/io_uring_types.h>
#include <linux/sched.h>
#include <linux/uio.h>

#include "compat/compat.h"
#ifdef HWT_COMPAT_IO_URING_CMD_H
#include <linux/io_uring/cmd.h>
#endif
#include "dev.h"
#include "dev_batch.h"
#include "dev_ops.h"
#include "dev_uring.h"

/* flags whose fields the short form lacks: they need HWTIMER_URING_OP */
#define HWT_URING_LONG_FLAGS	(HWTIMER_F_EVENTFD | HWTIMER_F_PERIOD | \
				 HWTIMER_F_GEN)

/* a short command is an SQE's 16 command bytes; a long one, SQE128's 80 */
#define HWT_URING_CMD_BYTES	16
#define HWT_URING_CMD128_BYTES	80
static_assert(offsetof(struct hwtimer_uring_cmd, expires) == 0);
static_assert(offsetof(struct hwtimer_uring_cmd, id) == 8);
static_assert(offsetof(struct hwtimer_uring_cmd, flags) == 12);
static_assert(offsetof(struct hwtimer_uring_cmd, clockid) == 14);
static_assert(offsetof(struct hwtimer_uring_cmd, padding) == 15);
static_assert(sizeof(struct hwtimer_uring_cmd) == HWT_URING_CMD_BYTES);
static_assert(offsetof(struct hwtimer_uring_batch, ops) == 0);
static_assert(offsetof(struct hwtimer_uring_batch, count) == 8);
static_assert(offsetof(struct hwtimer_uring_batch, op_size) == 12);
static_assert(offsetof(struct hwtimer_uring_batch, flags) == 14);
static_assert(sizeof(struct hwtimer_uring_batch) == HWT_URING_CMD_BYTES);
static_assert(sizeof(struct hwtimer_op) <= HWT_URING_CMD128_BYTES);

/* The SQE's command bytes: 16, or 80 on an IORING_SETUP_SQE128 ring. */
static const void *hwt_uring_bytes(struct io_uring_cmd *ioucmd)
{
#ifdef HWT_COMPAT_URING_CMD_SQE
	return io_uring_sqe_cmd(ioucmd->sqe);
#else
	return ioucmd->cmd;
#endif
}

/*
 * The SQE, or NULL where only its command bytes are there to read: before
 * 6.7, io_uring points a command at its command bytes, and keeps only them
 * when it sends the command to io-wq.
 */
static const struct io_uring_sqe *hwt_uring_sqe(struct io_uring_cmd *ioucmd)
{
#ifdef HWT_COMPAT_URING_CMD_SQE
	return ioucmd->sqe;
#else
	if (ioucmd->cmd == cmd_to_io_kiocb(ioucmd)->async_data)
		return NULL;
	return container_of(ioucmd->cmd, struct io_uring_sqe, cmd);
#endif
}

/*
 * The fields of the SQE that a command does not use are zero, as the uapi
 * says of every field an operation does not use, so that a later version
 * can give them a meaning: EINVAL otherwise. A registered buffer
 * (IORING_URING_CMD_FIXED, @buf_index) is for a @batch only. io_uring
 * checks the rest of the command's own (@__pad1, @uring_cmd_flags). Where
 * io_uring kept only the command bytes (hwt_uring_sqe()), the first issue,
 * inline, checked the fields; but for an IOSQE_ASYNC SQE before 6.7, which
 * has no inline issue: its fields go unchecked (hwtimer.rst says so).
 */
static int hwt_uring_check_sqe(struct io_uring_cmd *ioucmd, bool batch)
{
	const struct io_uring_sqe *sqe = hwt_uring_sqe(ioucmd);
	bool fixed = ioucmd->flags & IORING_URING_CMD_FIXED;

	if (fixed && !batch)
		return -EINVAL;
	if (!sqe)
		return 0;
	if (READ_ONCE(sqe->ioprio) || READ_ONCE(sqe->addr) ||
	    READ_ONCE(sqe->len) || READ_ONCE(sqe->file_index) ||
	    (!fixed && READ_ONCE(sqe->buf_index)))
		return -EINVAL;
	return 0;
}

/*
 * On an IORING_SETUP_SQE128 ring, the 64 command bytes after a short
 * command's or a batch's 16 are a newer program's, if not zero: E2BIG, as
 * for any struct that grew (hwtimer.rst).
 */
static int hwt_uring_check_spare(struct io_uring_cmd *ioucmd,
				 unsigned int issue_flags)
{
	u8 spare[HWT_URING_CMD128_BYTES - HWT_URING_CMD_BYTES];

	if (!(issue_flags & IO_URING_F_SQE128))
		return 0;
	memcpy(spare, hwt_uring_bytes(ioucmd) + HWT_URING_CMD_BYTES,
	       sizeof(spare));
	return memchr_inv(spare, 0, sizeof(spare)) ? -E2BIG : 0;
}

/* A registered buffer, as an iterator: 6.1 to 6.12 take no issue flags. */
static int hwt_uring_import_fixed(u64 ubuf, size_t len, int rw,
				  struct iov_iter *iter,
				  struct io_uring_cmd *ioucmd,
				  unsigned int issue_flags)
{
#if defined(HWT_COMPAT_URING_IMPORT_FIXED_FLAGS)
	return io_uring_cmd_import_fixed(ubuf, len, rw, iter, ioucmd,
					 issue_flags);
#elif defined(HWT_COMPAT_URING_IMPORT_FIXED)
	return io_uring_cmd_import_fixed(ubuf, len, rw, iter, ioucmd);
#else
	return -EOPNOTSUPP;
#endif
}

/* What the CQE of an op that ran reports. */
static int hwt_uring_res(const struct hwt_prepped_op *s)
{
	if (s->op.result < 0)
		return s->op.result;
	return s->op.op == HWTIMER_OP_ADD ? s->op.id : s->op.result;
}

/*
 * Run one op as its ioctl would; what its CQE reports, or -EAGAIN for
 * io-wq. io_uring issues a submission's SQEs with no resched point between
 * them (up to 32,768): each gives the CPU up first if it should, on every
 * preemption model.
 */
static int hwt_uring_run(struct hwt_file *hf, struct hwt_prepped_op *s,
			 unsigned int flags)
{
	int ret;

	cond_resched();
	ret = hwt_run_ops(hf, s, 1, flags);
	return ret < 0 ? ret : hwt_uring_res(s);
}

/*
 * The short form: struct hwtimer_uring_cmd, read once (the SQE is the
 * submitter's memory, which it may still write), checked, then run.
 */
static int hwt_uring_short(struct hwt_file *hf, struct io_uring_cmd *ioucmd,
			   unsigned int flags)
{
	struct hwtimer_uring_cmd c;
	struct hwt_prepped_op s = {};

	memcpy(&c, hwt_uring_bytes(ioucmd), sizeof(c));
	if (c.padding || (c.flags & HWT_URING_LONG_FLAGS))
		return -EINVAL;
	switch (ioucmd->cmd_op) {
	case HWTIMER_URING_ADD:
		if (c.id)
			return -EINVAL;
		s.op.op = HWTIMER_OP_ADD;
		/* the SQE's user_data, which the CQE carries too */
		s.op.cookie = cmd_to_io_kiocb(ioucmd)->cqe.user_data;
		break;
	case HWTIMER_URING_MOD:
		s.op.op = HWTIMER_OP_MOD;
		break;
	default:
		if (c.expires)
			return -EINVAL;
		s.op.op = HWTIMER_OP_CANCEL;
		break;
	}
	s.op.flags = c.flags;
	s.op.id = c.id;
	s.op.clockid = c.clockid;
	s.op.expires = c.expires;
	return hwt_uring_run(hf, &s, flags);
}

/*
 * The long form: a struct hwtimer_op in SQE128's command bytes, read once.
 * The bytes after it are a newer program's larger op, if not zero: E2BIG,
 * as copy_struct_from_user() says.
 */
static int hwt_uring_long(struct hwt_file *hf, struct io_uring_cmd *ioucmd,
			  unsigned int flags)
{
	u8 bytes[HWT_URING_CMD128_BYTES];
	struct hwt_prepped_op s = {};

	memcpy(bytes, hwt_uring_bytes(ioucmd), sizeof(bytes));
	if (memchr_inv(bytes + sizeof(s.op), 0, sizeof(bytes) - sizeof(s.op)))
		return -E2BIG;
	memcpy(&s.op, bytes, sizeof(s.op));
	s.op.result = 0;
	return hwt_uring_run(hf, &s, flags);
}

/*
 * HWTIMER_URING_BATCH: an array of operations, as BATCH takes them, in
 * user memory or in a registered buffer; the CQE's @res is how many ran,
 * or -errno if none did.
 */
static int hwt_uring_batch(struct hwt_file *hf, struct io_uring_cmd *ioucmd,
			   unsigned int issue_flags, unsigned int flags)
{
	struct hwt_batch_src src = {};
	struct hwtimer_uring_batch b;
	struct iov_iter in, out;
	u32 done = 0;
	long ret;

	memcpy(&b, hwt_uring_bytes(ioucmd), sizeof(b));
	ret = hwt_batch_check(b.count, b.op_size, b.flags);
	if (ret)
		return ret;
	if (ioucmd->flags & IORING_URING_CMD_FIXED) {
		size_t len = (size_t)b.count * b.op_size;

		ret = hwt_uring_import_fixed(b.ops, len, ITER_SOURCE, &in,
					     ioucmd, issue_flags);
		if (!ret)
			ret = hwt_uring_import_fixed(b.ops, len, ITER_DEST,
						     &out, ioucmd, issue_flags);
		if (ret)
			return ret;
		src.in = &in;
		src.out = &out;
	} else {
		src.uops = u64_to_user_ptr(b.ops);
	}
	if (b.flags & HWTIMER_BATCH_STOP_ON_ERROR)
		flags |= HWT_RUN_STOP;
	ret = hwt_batch_run(hf, &src, b.count, b.op_size, flags, &done);
	return done ? done : ret;
}

/*
 * What the command returns to io_uring for its result @ret. Run from
 * io-wq (not IO_URING_F_NONBLOCK), a positive one, an id or a count, is
 * posted with io_uring_cmd_done(), as a command that completes later posts
 * it, and the command returns -EIOCBQUEUED: before 6.12 io_uring_cmd()
 * hands a positive return on as it is, and 6.1's io_wq_submit_work() posts
 * only a negative one, so the command never completed. Inline, io_uring
 * posts the return itself.
 */
static int hwt_uring_complete(struct io_uring_cmd *ioucmd, int ret,
			      unsigned int issue_flags)
{
	if (ret > 0 && !(issue_flags & IO_URING_F_NONBLOCK)) {
		io_uring_cmd_done(ioucmd, ret, 0, issue_flags);
		return -EIOCBQUEUED;
	}
	return ret;
}

/*
 * Check and run one command: an ADD's id, a MOD's or CANCEL's result, a
 * batch's count of operations run, or -errno; -EAGAIN, issued with
 * IO_URING_F_NONBLOCK and nothing run, for io_uring to issue it again from
 * io-wq.
 */
static int hwt_uring_issue(struct io_uring_cmd *ioucmd,
			   unsigned int issue_flags)
{
	struct hwt_file *hf = ioucmd->file->private_data;
	unsigned int flags = issue_flags & IO_URING_F_NONBLOCK ?
			     HWT_RUN_NOWAIT : 0;
	int ret;

	switch (ioucmd->cmd_op) {
	case HWTIMER_URING_ADD:
	case HWTIMER_URING_MOD:
	case HWTIMER_URING_CANCEL:
		ret = hwt_uring_check_sqe(ioucmd, false) ?:
		      hwt_uring_check_spare(ioucmd, issue_flags);
		return ret ?: hwt_uring_short(hf, ioucmd, flags);
	case HWTIMER_URING_OP:
		/* a whole struct hwtimer_op needs the 80 bytes of SQE128 */
		if (!(issue_flags & IO_URING_F_SQE128))
			return -EINVAL;
		ret = hwt_uring_check_sqe(ioucmd, false);
		return ret ?: hwt_uring_long(hf, ioucmd, flags);
	case HWTIMER_URING_BATCH:
		ret = hwt_uring_check_sqe(ioucmd, true) ?:
		      hwt_uring_check_spare(ioucmd, issue_flags);
		return ret ?: hwt_uring_batch(hf, ioucmd, issue_flags, flags);
	default:
		return -ENOTTY;
	}
}

/**
 * hwt_uring_cmd() - the file's ->uring_cmd: one HWTIMER_URING_* command
 * @ioucmd: the command
 * @issue_flags: IO_URING_F_*
 *
 * Return: the CQE's @res (hwt_uring_issue()), or -EIOCBQUEUED once it is
 * posted (hwt_uring_complete()).
 */
int hwt_uring_cmd(struct io_uring_cmd *ioucmd, unsigned int issue_flags)
{
	return hwt_uring_complete(ioucmd, hwt_uring_issue(ioucmd, issue_flags),
				  issue_flags);
}
