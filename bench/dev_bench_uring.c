// SPDX-License-Identifier: GPL-2.0
/*
 * Layer 2 of make bench, io_uring submission: hwtimer's ADD and CANCEL as
 * IORING_OP_URING_CMD SQEs, 256 per submission, one operation each, or 256
 * operations in one SQE (HWTIMER_URING_BATCH, from user memory and from a
 * registered buffer), against what bounds them
 * from below (the same number of NOP SQEs, whose cost is io_uring's own,
 * and of URING_CMD SQEs that fail at once, which add io_uring's handling
 * of a driver command) and from beside (io_uring's TIMEOUT +
 * TIMEOUT_REMOVE, in dev_bench.c).
 * As there, 1000 timers stay pending in a FIFO: each new timer is armed
 * and the oldest cancelled.
 */
#define _GNU_SOURCE
#include <liburing.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "libhwtimer.h"
#include "dev_bench.h"

#define OPS	20000
#define PENDING	1000
#define BATCH	256

static uint32_t fifo[PENDING];
static unsigned int fifo_head;

/*
 * wait for @n CQEs; with @ids, each one's res goes to ids[user_data]; with
 * @what, a failure is fatal
 */
static void reap(struct io_uring *ring, unsigned int n, uint32_t *ids,
		 const char *what)
{
	struct io_uring_cqe *cqe;
	unsigned int i;

	for (i = 0; i < n; i++) {
		int ret = io_uring_wait_cqe(ring, &cqe);

		if (ret)
			die("io_uring_wait_cqe", ret);
		if (what && cqe->res < 0)
			die(what, cqe->res);
		if (ids)
			ids[cqe->user_data] = (uint32_t)cqe->res;
		io_uring_cqe_seen(ring, cqe);
	}
}

struct uring_arg {
	struct io_uring ring;
	int fd;
};

static double hwt_uring(void *arg)
{
	struct uring_arg *u = arg;
	uint32_t ids[BATCH];
	uint64_t t0 = now_ns(), done = 0;
	unsigned int k;

	while (done < OPS) {
		for (k = 0; k < BATCH; k++)
			hwtimer_uring_prep_add(io_uring_get_sqe(&u->ring), u->fd,
					       CLOCK_MONOTONIC, FAR + k, 0, k);
		if (io_uring_submit(&u->ring) != BATCH)
			die("io_uring_submit", EIO);
		reap(&u->ring, BATCH, ids, "HWTIMER_URING_ADD");
		/* cancel as many of the oldest pending */
		for (k = 0; k < BATCH; k++) {
			uint32_t old = fifo[fifo_head];

			fifo[fifo_head] = ids[k];
			fifo_head = (fifo_head + 1) % PENDING;
			hwtimer_uring_prep_cancel(io_uring_get_sqe(&u->ring), u->fd,
						  old, k);
		}
		if (io_uring_submit(&u->ring) != BATCH)
			die("io_uring_submit", EIO);
		reap(&u->ring, BATCH, NULL, "HWTIMER_URING_CANCEL");
		done += BATCH;
	}
	return (double)(now_ns() - t0) / (double)done;
}

/*
 * 256 ADDs in one HWTIMER_URING_BATCH SQE, then CANCELs of as many of the
 * oldest pending in another: @ops in a registered buffer if @fixed.
 */
struct batch_arg {
	struct uring_arg *u;
	struct hwtimer_op *ops;
	bool fixed;
};

static void batch_submit(struct batch_arg *b)
{
	struct io_uring_sqe *sqe = io_uring_get_sqe(&b->u->ring);

	if (b->fixed)
		hwtimer_uring_prep_batch_fixed(sqe, b->u->fd, b->ops, BATCH, 0,
					       0, 0);
	else
		hwtimer_uring_prep_batch(sqe, b->u->fd, b->ops, BATCH, 0, 0);
	if (io_uring_submit(&b->u->ring) != 1)
		die("io_uring_submit", EIO);
	reap(&b->u->ring, 1, NULL, "HWTIMER_URING_BATCH");
}

static double hwt_uring_batch(void *arg)
{
	struct batch_arg *b = arg;
	uint64_t t0 = now_ns(), done = 0;
	unsigned int k;

	while (done < OPS) {
		for (k = 0; k < BATCH; k++)
			b->ops[k] = (struct hwtimer_op){
				.op = HWTIMER_OP_ADD, .clockid = CLOCK_MONOTONIC,
				.expires = FAR + k,
			};
		batch_submit(b);
		for (k = 0; k < BATCH; k++) {
			uint32_t old = fifo[fifo_head];

			fifo[fifo_head] = b->ops[k].id;
			fifo_head = (fifo_head + 1) % PENDING;
			b->ops[k] = (struct hwtimer_op){
				.op = HWTIMER_OP_CANCEL, .id = old,
			};
		}
		batch_submit(b);
		done += BATCH;
	}
	return (double)(now_ns() - t0) / (double)done;
}

/*
 * Two SQEs per timer as @prep fills them, submitted and reaped as
 * hwt_uring() does its own; with @what, a failed CQE is fatal
 */
static double sqe_pairs(struct uring_arg *u,
			void (*prep)(struct io_uring_sqe *, int fd, unsigned int k),
			const char *what)
{
	uint64_t t0 = now_ns(), done = 0;
	unsigned int k, pass;

	while (done < OPS) {
		for (pass = 0; pass < 2; pass++) {
			for (k = 0; k < BATCH; k++)
				prep(io_uring_get_sqe(&u->ring), u->fd, k);
			if (io_uring_submit(&u->ring) != BATCH)
				die("io_uring_submit", EIO);
			reap(&u->ring, BATCH, NULL, what);
		}
		done += BATCH;
	}
	return (double)(now_ns() - t0) / (double)done;
}

static void prep_nop(struct io_uring_sqe *sqe, int fd, unsigned int k)
{
	io_uring_prep_nop(sqe);
}

/* a URING_CMD on the hwtimer fd that fails at once: an unknown cmd_op */
static void prep_failing_cmd(struct io_uring_sqe *sqe, int fd, unsigned int k)
{
	hwtimer_uring_prep_cancel(sqe, fd, 1, k);
	sqe->cmd_op = 0;
}

/* two NOPs per timer: io_uring's own cost */
static double nop_pairs(void *arg)
{
	return sqe_pairs(arg, prep_nop, "IORING_OP_NOP");
}

/*
 * Two URING_CMD SQEs per timer that fail at once (ENOTTY): what io_uring's
 * own handling of a driver command costs, the floor under hwt_uring()
 */
static double cmd_floor(void *arg)
{
	return sqe_pairs(arg, prep_failing_cmd, NULL);
}

static double median3(double (*fn)(void *), void *arg)
{
	double a = fn(arg), b = fn(arg), c = fn(arg), t;

	if (a > b) {
		t = a;
		a = b;
		b = t;
	}
	if (b > c)
		b = c;
	return a > b ? a : b;
}

void uring_cmd_all(void)
{
	struct uring_arg u;
	int i, ret;

	u.fd = hwtimer_open(HWTIMER_OPEN_CLOEXEC);
	if (u.fd < 0)
		die("/dev/hwtimer", u.fd);
	ret = io_uring_queue_init(2 * BATCH, &u.ring, 0);
	if (ret) {
		/* io_uring switched off here: say so, and go on without the rows */
		fprintf(stderr, "dev_bench: no io_uring rows: %s\n", strerror(-ret));
		close(u.fd);
		return;
	}
	for (i = 0; i < PENDING; i++) {
		int id = hwtimer_add(u.fd, CLOCK_MONOTONIC, FAR + (uint64_t)i * MS, 0, 0, 0);

		if (id < 0)
			die("HWTIMER_IOC_ADD", id);
		fifo[i] = (uint32_t)id;
	}
	emit("arm_cancel", "hwtimer io_uring, batch of 256", "ns_per_timer",
	     median3(hwt_uring, &u), NULL);
	{
		static struct hwtimer_op ops[BATCH];
		struct iovec iov = { .iov_base = ops, .iov_len = sizeof(ops) };
		struct batch_arg b = { .u = &u, .ops = ops };

		emit("arm_cancel", "hwtimer io_uring vectored, 256 per SQE",
		     "ns_per_timer", median3(hwt_uring_batch, &b), NULL);
		if (!io_uring_register_buffers(&u.ring, &iov, 1)) {
			b.fixed = true;
			emit("arm_cancel",
			     "hwtimer io_uring vectored, 256 per SQE, registered buffer",
			     "ns_per_timer", median3(hwt_uring_batch, &b), NULL);
			io_uring_unregister_buffers(&u.ring);
		}
	}
	emit("arm_cancel", "io_uring NOP pair, batch of 256", "ns_per_timer",
	     median3(nop_pairs, &u), NULL);
	emit("arm_cancel", "io_uring URING_CMD pair failing at once, batch of 256",
	     "ns_per_timer", median3(cmd_floor, &u), NULL);
	io_uring_queue_exit(&u.ring);
	close(u.fd);
}
