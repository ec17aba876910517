/* SPDX-License-Identifier: GPL-2.0 */
/*
 * io_uring's side of a ->uring_cmd, as 6.12 hands it to a driver (the
 * SQE behind the command, io_uring/cmd.h): enough for kmod/dev_uring.c to
 * run as io_uring issues it inline. io_uring's own work (the SQE's prep,
 * the issue, the CQE) is not here, nor counted.
 */
#ifndef _KSHIM_URING_H
#define _KSHIM_URING_H

#include "kshim/sched.h"
#include_next <linux/io_uring.h>	/* the uapi's struct io_uring_sqe */

enum {
	IO_URING_F_NONBLOCK	= 1 << 31,
	IO_URING_F_SQE128	= 1 << 8,
};

struct io_uring_cmd {
	struct file *file;
	const struct io_uring_sqe *sqe;
	u32 cmd_op;
	u32 flags;
};

/* the request around a command: its CQE's user_data is all that is read */
struct io_kiocb {
	struct io_uring_cmd cmd;
	struct { u64 user_data; } cqe;
};
#define cmd_to_io_kiocb(ioucmd)	container_of(ioucmd, struct io_kiocb, cmd)

static inline const void *io_uring_sqe_cmd(const struct io_uring_sqe *sqe)
{
	return sqe->cmd;
}

void io_uring_cmd_done(struct io_uring_cmd *cmd, ssize_t ret, u64 res2,
		       unsigned int issue_flags);

#endif
