// SPDX-License-Identifier: GPL-2.0
/*
 * /dev/hwtimer: ADD, MOD and CANCEL submitted through io_uring, as
 * IORING_OP_URING_CMD (the file's ->uring_cmd, since 5.19), so that a
 * program that already has a ring arms and cancels timers with no syscall
 * of their own. Each command's CQE has @res as the ioctl's return; the
 * contract is in the uapi header. See dev.h.
 *
 * io_uring issues the SQEs of a submission one at a time. Run one by one,
 * each command would pay what a single ioctl pays (a lock round trip, a
 * clock read, an id, the charge to the user) where a BATCH pays it once per
 * HWT_CHUNK. So a short-form command is checked, copied into the request's
 * own bytes (the SQE is the submitter's memory), and queued on the file;
 * the first one queued asks for task work, which runs after the submission
 * is issued, in the submitting task, and runs all of them as a BATCH would,
 * in order, before completing each. Commands from another ring or task, or
 * from io-wq, and the long form (whose struct hwtimer_op does not fit in
 * the request) run inline, as does everything on a kernel whose task work
 * lacks the issue flags io_uring_cmd_done() needs.
 *
 * So do those of an IORING_SETUP_DEFER_TASKRUN ring. Its task work waits
 * for the submitting thread to wait for completions; a thread that exits
 * first would leave its commands unrun, without completions, until the
 * ring is torn down. Marking them cancelable would not help: io_uring
 * calls ->uring_cmd() with IO_URING_F_CANCEL when the ring goes, or on
 * exec, but a thread's exit cancels only the requests io_uring tracks
 * (those on io_uring files), up to 6.12 at least.
 *
 * Expiries do not come back as CQEs. A multishot command could post one
 * per record, but each would cost a CQE of the ring's (and, once the CQ is
 * full, an allocation on io_uring's overflow list), where the expiry ring
 * costs a record written under the lock the expiry holds anyway.
 */
#include <linux/io_uring.h>
#include <linux/io_uring_types.h>
#include <linux/sched.h>
#include <linux/slab.h>

#include "compat/compat.h"
#ifdef HWT_COMPAT_IO_URING_CMD_H
#include <linux/io_uring/cmd.h>
#endif
#include "dev.h"
#include "dev_ops.h"
#include "dev_uring.h"

/* queued commands one task-work item runs at most (hwt_uring_tw()) */
#define HWT_URING_RUN		1024

/* flags whose fields the short form lacks: they need HWTIMER_URING_OP */
#define HWT_URING_LONG_FLAGS	(HWTIMER_F_EVENTFD | HWTIMER_F_PERIOD | \
				 HWTIMER_F_GEN)

/*
 * A queued command, in its request's bytes for the driver (@pdu): the
 * next one, and, in the first of a run's leftovers handed to a task-work
 * item of their own, where their chain ends (hwt_uring_requeue()).
 */
struct hwt_uring_pdu {
	struct io_uring_cmd *next;
	struct io_uring_cmd **tail;
	struct hwtimer_uring_cmd c;
};

static_assert(sizeof(struct hwt_uring_pdu) <=
	      sizeof_field(struct io_uring_cmd, pdu));

/* a short command is an SQE's 16 command bytes; a long one, SQE128's 80 */
static_assert(offsetof(struct hwtimer_uring_cmd, expires) == 0);
static_assert(offsetof(struct hwtimer_uring_cmd, id) == 8);
static_assert(offsetof(struct hwtimer_uring_cmd, flags) == 12);
static_assert(offsetof(struct hwtimer_uring_cmd, clockid) == 14);
static_assert(offsetof(struct hwtimer_uring_cmd, padding) == 15);
static_assert(sizeof(struct hwtimer_uring_cmd) == 16);
static_assert(sizeof(struct hwtimer_op) <= 80);

static struct hwt_uring_pdu *hwt_pdu(struct io_uring_cmd *ioucmd)
{
	return (struct hwt_uring_pdu *)ioucmd->pdu;
}

/* The SQE's command bytes: 16, or 80 on an IORING_SETUP_SQE128 ring. */
static const void *hwt_uring_bytes(struct io_uring_cmd *ioucmd)
{
#ifdef HWT_COMPAT_URING_CMD_SQE
	return io_uring_sqe_cmd(ioucmd->sqe);
#else
	return ioucmd->cmd;
#endif
}

/* What the CQE of an op that ran reports. */
static int hwt_uring_res(const struct hwt_prepped_op *s)
{
	if (s->op.result < 0)
		return s->op.result;
	return s->op.op == HWTIMER_OP_ADD ? s->op.id : s->op.result;
}

/* A short-form command as an op: @c was checked by hwt_uring_check(). */
static void hwt_uring_prep(struct hwt_prepped_op *s, struct io_uring_cmd *ioucmd,
			   const struct hwtimer_uring_cmd *c)
{
	memset(s, 0, sizeof(*s));
	switch (ioucmd->cmd_op) {
	case HWTIMER_URING_ADD:
		s->op.op = HWTIMER_OP_ADD;
		/* the SQE's user_data, which the CQE carries too */
		s->op.cookie = cmd_to_io_kiocb(ioucmd)->cqe.user_data;
		break;
	case HWTIMER_URING_MOD:
		s->op.op = HWTIMER_OP_MOD;
		break;
	default:
		s->op.op = HWTIMER_OP_CANCEL;
		break;
	}
	s->op.flags = c->flags;
	s->op.id = c->id;
	s->op.clockid = c->clockid;
	s->op.expires = c->expires;
}

/* What the short form refuses before anything runs. */
static int hwt_uring_check(u32 cmd_op, const struct hwtimer_uring_cmd *c)
{
	if (c->padding || (c->flags & HWT_URING_LONG_FLAGS))
		return -EINVAL;
	if ((cmd_op == HWTIMER_URING_ADD && c->id) ||
	    (cmd_op == HWTIMER_URING_CANCEL && c->expires))
		return -EINVAL;
	return 0;
}

#ifdef HWT_COMPAT_URING_CMD_TW_FLAGS
/*
 * Complete @n queued commands from @cmd on, with the results of @preps, or
 * with @err if they could not run; returns the one after them.
 */
static struct io_uring_cmd *hwt_uring_done(struct io_uring_cmd *cmd,
					   unsigned int n,
					   const struct hwt_prepped_op *preps,
					   int err, unsigned int issue_flags)
{
	unsigned int i;

	for (i = 0; i < n; i++) {
		/* done may free it */
		struct io_uring_cmd *next = hwt_pdu(cmd)->next;

		io_uring_cmd_done(cmd, preps ? hwt_uring_res(&preps[i]) : err,
				  0, issue_flags);
		cmd = next;
	}
	return cmd;
}

static void hwt_uring_tw(struct io_uring_cmd *ioucmd, unsigned int issue_flags);
static void hwt_uring_tw_rest(struct io_uring_cmd *ioucmd,
			      unsigned int issue_flags);

/*
 * A run stopped with commands left, from @cmd to the one whose next link
 * is @tail, and hands them to a fresh task-work item. If the file's queue
 * is empty, or holds commands of the same ring and task (which a linked
 * request can queue while the run completes its predecessor), they go back
 * at its head, before those, and its item runs them. If it holds another
 * ring's or task's, they cannot join it: they get an item of their own,
 * which finds @tail in @cmd's bytes. Both kinds of item run in the order
 * they were added, after this one.
 */
static void hwt_uring_requeue(struct hwt_uring_batch *b,
			      struct io_uring_cmd *cmd,
			      struct io_uring_cmd **tail)
{
	const void *ctx = cmd_to_io_kiocb(cmd)->ctx;
	bool first;

	spin_lock(&b->lock);
	first = !b->head;
	if (!first && (b->ctx != ctx || b->task != current)) {
		spin_unlock(&b->lock);
		hwt_pdu(cmd)->tail = tail;
		io_uring_cmd_complete_in_task(cmd, hwt_uring_tw_rest);
		return;
	}
	*tail = b->head;
	if (first) {
		b->tail = tail;
		b->ctx = ctx;
		b->task = current;
	}
	b->head = cmd;
	spin_unlock(&b->lock);
	if (first)
		io_uring_cmd_complete_in_task(cmd, hwt_uring_tw);
}

/*
 * Run the chain of queued commands from @cmd to the one whose next link is
 * @tail (NULL), in order, HWT_CHUNK per hold of the file's lock, and
 * complete them with the issue flags io_uring gave the item (all are of
 * its ring and task). Between chunks the task gives the CPU up if it
 * should, on every preemption model; after HWT_URING_RUN commands the rest
 * go to a fresh item (hwt_uring_requeue()), so that io_uring posts these
 * completions and drops its ring's lock in between. A task that is
 * exiting (or io_uring's fallback worker) runs none: -ECANCELED.
 */
static void hwt_uring_run_chain(struct hwt_file *hf, struct io_uring_cmd *cmd,
				struct io_uring_cmd **tail,
				unsigned int issue_flags)
{
	struct hwt_prepped_op *preps = NULL;
	struct io_uring_cmd *c;
	unsigned int k, ran = 0;
	int err = -ECANCELED;

	hwt_lock(hf);
	hwt_stat_add(&hf->stats, HWT_C_URING_RUNS, 1);
	hwt_unlock(hf);
	if (!(current->flags & (PF_EXITING | PF_KTHREAD))) {
		for (k = 0, c = cmd; c && k < HWT_CHUNK; k++)
			c = hwt_pdu(c)->next;
		preps = kmalloc_array(k, sizeof(*preps), GFP_KERNEL);
		err = -ENOMEM;
	}
	while (cmd) {
		for (k = 0, c = cmd; c && k < HWT_CHUNK; k++) {
			if (preps)
				hwt_uring_prep(&preps[k], c, &hwt_pdu(c)->c);
			c = hwt_pdu(c)->next;
		}
		if (preps)
			hwt_run_ops(hf, preps, k, false);
		cmd = hwt_uring_done(cmd, k, preps, err, issue_flags);
		ran += k;
		if (!cmd)
			break;
		if (preps && ran >= HWT_URING_RUN) {
			hwt_uring_requeue(&hf->uring, cmd, tail);
			break;
		}
		cond_resched();
	}
	kfree(preps);
}

/* The task work of the first command queued: run the file's queue. */
static void hwt_uring_tw(struct io_uring_cmd *ioucmd, unsigned int issue_flags)
{
	struct hwt_file *hf = ioucmd->file->private_data;
	struct hwt_uring_batch *b = &hf->uring;
	struct io_uring_cmd *cmd, **tail;

	spin_lock(&b->lock);
	cmd = b->head;
	tail = b->tail;
	b->head = NULL;
	b->tail = &b->head;
	spin_unlock(&b->lock);
	hwt_uring_run_chain(hf, cmd, tail, issue_flags);
}

/* The task work of a run's leftovers that could not rejoin the queue. */
static void hwt_uring_tw_rest(struct io_uring_cmd *ioucmd,
			      unsigned int issue_flags)
{
	hwt_uring_run_chain(ioucmd->file->private_data, ioucmd,
			    hwt_pdu(ioucmd)->tail, issue_flags);
}

/*
 * Queue a checked short-form command for hwt_uring_tw(). False if it must
 * run inline: issued from io-wq; on an IORING_SETUP_DEFER_TASKRUN ring,
 * whose task work runs only when the submitter next waits, so that a
 * submitter that exits first would strand it; or the queue holds another
 * ring's or task's commands (their task work could not complete it).
 */
static bool hwt_uring_queue(struct hwt_file *hf, struct io_uring_cmd *ioucmd,
			    unsigned int issue_flags)
{
	struct hwt_uring_batch *b = &hf->uring;
	struct io_ring_ctx *ctx = cmd_to_io_kiocb(ioucmd)->ctx;
	bool first;

	if ((issue_flags & IO_URING_F_UNLOCKED) ||
	    (ctx->flags & IORING_SETUP_DEFER_TASKRUN))
		return false;
	hwt_pdu(ioucmd)->next = NULL;
	spin_lock(&b->lock);
	first = !b->head;
	if (first) {
		b->ctx = ctx;
		b->task = current;
	} else if (b->ctx != ctx || b->task != current) {
		spin_unlock(&b->lock);
		return false;
	}
	*b->tail = ioucmd;
	b->tail = &hwt_pdu(ioucmd)->next;
	spin_unlock(&b->lock);
	/* runs once the submission is issued, before it returns to the user */
	if (first)
		io_uring_cmd_complete_in_task(ioucmd, hwt_uring_tw);
	return true;
}
#else
static bool hwt_uring_queue(struct hwt_file *hf, struct io_uring_cmd *ioucmd,
			    unsigned int issue_flags)
{
	return false;
}
#endif

/*
 * Run one op as its ioctl would; what its CQE reports. io_uring issues a
 * submission's SQEs with no resched point between them (up to 32,768 on a
 * DEFER_TASKRUN ring, all of whose commands run here): each gives the CPU
 * up first if it should, on every preemption model.
 */
static int hwt_uring_run(struct hwt_file *hf, struct hwt_prepped_op *s)
{
	cond_resched();
	hwt_run_ops(hf, s, 1, false);
	return hwt_uring_res(s);
}

/*
 * The short form: struct hwtimer_uring_cmd, read once (the SQE is the
 * submitter's memory, which it may still write), checked, then queued or
 * run.
 */
static int hwt_uring_short(struct hwt_file *hf, struct io_uring_cmd *ioucmd,
			   unsigned int issue_flags)
{
	struct hwtimer_uring_cmd *c = &hwt_pdu(ioucmd)->c;
	struct hwt_prepped_op s;
	int ret;

	memcpy(c, hwt_uring_bytes(ioucmd), sizeof(*c));
	ret = hwt_uring_check(ioucmd->cmd_op, c);
	if (ret)
		return ret;
	if (hwt_uring_queue(hf, ioucmd, issue_flags))
		return -EIOCBQUEUED;
	hwt_uring_prep(&s, ioucmd, c);
	return hwt_uring_run(hf, &s);
}

/**
 * hwt_uring_cmd() - the file's ->uring_cmd: one HWTIMER_URING_* command
 * @ioucmd: the command
 * @issue_flags: IO_URING_F_*
 *
 * Return: the CQE's @res: an ADD's id, a MOD's or CANCEL's result, or
 * -errno; or -EIOCBQUEUED for a command queued to run with the rest of its
 * submission, which hwt_uring_tw() completes.
 */
int hwt_uring_cmd(struct io_uring_cmd *ioucmd, unsigned int issue_flags)
{
	struct hwt_file *hf = ioucmd->file->private_data;
	struct hwt_prepped_op s = {};

	switch (ioucmd->cmd_op) {
	case HWTIMER_URING_ADD:
	case HWTIMER_URING_MOD:
	case HWTIMER_URING_CANCEL:
		return hwt_uring_short(hf, ioucmd, issue_flags);
	case HWTIMER_URING_OP:
		/* a whole struct hwtimer_op needs the 80 bytes of SQE128 */
		if (!(issue_flags & IO_URING_F_SQE128))
			return -EINVAL;
		memcpy(&s.op, hwt_uring_bytes(ioucmd), sizeof(s.op));
		s.op.result = 0;
		return hwt_uring_run(hf, &s);
	default:
		return -ENOTTY;
	}
}
