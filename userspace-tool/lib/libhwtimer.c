// SPDX-License-Identifier: LGPL-2.1 OR MIT
/*
 * libhwtimer: thin, allocation-free wrappers over the /dev/hwtimer ioctls
 * (hwtimer_vec_init() is the one function that allocates).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "libhwtimer.h"

/* Errors come back as -errno; errno itself is left as the caller had it. */
static int hwt_ioctl(int fd, unsigned long cmd, void *arg)
{
	int saved = errno, ret = ioctl(fd, cmd, arg);

	if (ret < 0)
		ret = -errno;
	errno = saved;
	return ret;
}

int hwtimer_open(unsigned int flags)
{
	int oflags = O_RDWR, saved = errno;
	int fd;

	if (flags & ~(HWTIMER_OPEN_CLOEXEC | HWTIMER_OPEN_NONBLOCK))
		return -EINVAL;
	if (flags & HWTIMER_OPEN_CLOEXEC)
		oflags |= O_CLOEXEC;
	if (flags & HWTIMER_OPEN_NONBLOCK)
		oflags |= O_NONBLOCK;
	fd = open(HWTIMER_DEVICE, oflags);
	if (fd < 0)
		fd = -errno;
	errno = saved;
	return fd;
}

int hwtimer_info(int fd, struct hwtimer_info *info)
{
	memset(info, 0, sizeof(*info));
	return hwt_ioctl(fd, HWTIMER_IOC_INFO, info);
}

static void prep_add(struct hwtimer_op *op, clockid_t clock, uint64_t expires,
		     uint64_t period, unsigned int flags, uint64_t cookie)
{
	memset(op, 0, sizeof(*op));
	op->op = HWTIMER_OP_ADD;
	/* naming the clock is asking for it: the uapi wants it said twice */
	op->flags = flags | (clock == CLOCK_REALTIME ? HWTIMER_F_REALTIME : 0);
	op->clockid = (uint32_t)clock;
	op->expires = expires;
	op->period = period;
	op->cookie = cookie;
}

static void prep_mod(struct hwtimer_op *op, uint32_t id, uint64_t expires,
		     unsigned int flags)
{
	memset(op, 0, sizeof(*op));
	op->op = HWTIMER_OP_MOD;
	op->id = id;
	op->flags = flags;
	op->expires = expires;
}

static void prep_cancel(struct hwtimer_op *op, uint32_t id)
{
	memset(op, 0, sizeof(*op));
	op->op = HWTIMER_OP_CANCEL;
	op->id = id;
}

int hwtimer_submit_op(int fd, struct hwtimer_op *op)
{
	int ret;

	switch (op->op) {
	case HWTIMER_OP_ADD:
		ret = hwt_ioctl(fd, HWTIMER_IOC_ADD, op);
		/* ids are at most INT_MAX: an int carries them */
		return ret < 0 ? ret : (int)op->id;
	case HWTIMER_OP_MOD:
		return hwt_ioctl(fd, HWTIMER_IOC_MOD, op);
	case HWTIMER_OP_CANCEL:
		return hwt_ioctl(fd, HWTIMER_IOC_CANCEL, op);
	default:
		return -EINVAL;
	}
}

int hwtimer_add(int fd, clockid_t clock, uint64_t expires, uint64_t period,
		unsigned int flags, uint64_t cookie)
{
	struct hwtimer_op op;

	/* an eventfd needs op.eventfd: hwtimer_submit_op() takes one */
	if (flags & (HWTIMER_F_EVENTFD | HWTIMER_F_NO_RECORD))
		return -EINVAL;

	prep_add(&op, clock, expires, period, flags, cookie);
	return hwtimer_submit_op(fd, &op);
}

int hwtimer_mod(int fd, uint32_t id, uint64_t expires, unsigned int flags)
{
	struct hwtimer_op op;

	/* a new period needs op.period: hwtimer_submit_op() takes one */
	if (flags & (HWTIMER_F_PERIOD | HWTIMER_F_FIXED_DELAY))
		return -EINVAL;

	prep_mod(&op, id, expires, flags);
	return hwtimer_submit_op(fd, &op);
}

int hwtimer_cancel(int fd, uint32_t id)
{
	struct hwtimer_op op;

	prep_cancel(&op, id);
	return hwtimer_submit_op(fd, &op);
}

int hwtimer_get(int fd, uint32_t id, struct hwtimer_get *get)
{
	memset(get, 0, sizeof(*get));
	get->id = id;
	return hwt_ioctl(fd, HWTIMER_IOC_GET, get);
}

int hwtimer_drain(int fd, uint32_t *ids, uint32_t max, uint32_t *remaining)
{
	struct hwtimer_drain d = {
		.ids = (uintptr_t)ids,
		.max = ids ? max : 0,
	};
	int ret = hwt_ioctl(fd, HWTIMER_IOC_DRAIN, &d);

	if (ret < 0)
		return ret;
	if (remaining)
		*remaining = d.remaining;
	return (int)d.count;
}

int hwtimer_set_eventfd(int fd, int efd)
{
	struct hwtimer_eventfd e = { .fd = efd < 0 ? -1 : efd };

	return hwt_ioctl(fd, HWTIMER_IOC_SET_EVENTFD, &e);
}

int hwtimer_slack(int fd, const uint64_t *set, uint64_t *old)
{
	struct hwtimer_slack s = {
		.slack = set ? *set : 0,
		.flags = set ? HWTIMER_SLACK_SET : 0,
	};
	int ret = hwt_ioctl(fd, HWTIMER_IOC_SLACK, &s);

	if (!ret && old)
		*old = s.slack;
	return ret;
}

int hwtimer_read(int fd, struct hwtimer_record *recs, size_t max)
{
	int saved = errno;
	ssize_t n;

	if (!max)
		return -EINVAL;
	if (max > INT32_MAX / sizeof(*recs))
		max = INT32_MAX / sizeof(*recs);
	n = read(fd, recs, max * sizeof(*recs));
	if (n < 0) {
		int err = errno;

		errno = saved;
		return -err;
	}
	return (int)(n / (ssize_t)sizeof(*recs));
}

/* Batches */

int hwtimer_vec_init(struct hwtimer_vec *vec, uint32_t capacity)
{
	int saved = errno;

	memset(vec, 0, sizeof(*vec));
	if (!capacity)
		return -EINVAL;
	vec->ops = calloc(capacity, sizeof(*vec->ops));
	errno = saved;
	if (!vec->ops)
		return -ENOMEM;
	vec->capacity = capacity;
	return 0;
}

void hwtimer_vec_free(struct hwtimer_vec *vec)
{
	free(vec->ops);
	memset(vec, 0, sizeof(*vec));
}

void hwtimer_vec_reset(struct hwtimer_vec *vec)
{
	vec->count = 0;
}

static struct hwtimer_op *vec_next(struct hwtimer_vec *vec)
{
	return vec->count < vec->capacity ? &vec->ops[vec->count++] : NULL;
}

struct hwtimer_op *hwtimer_vec_add(struct hwtimer_vec *vec, clockid_t clock,
				   uint64_t expires, uint64_t period,
				   unsigned int flags, uint64_t cookie)
{
	struct hwtimer_op *op = vec_next(vec);

	if (op)
		prep_add(op, clock, expires, period, flags, cookie);
	return op;
}

struct hwtimer_op *hwtimer_vec_mod(struct hwtimer_vec *vec, uint32_t id,
				   uint64_t expires, unsigned int flags)
{
	struct hwtimer_op *op = vec_next(vec);

	if (op)
		prep_mod(op, id, expires, flags);
	return op;
}

struct hwtimer_op *hwtimer_vec_cancel(struct hwtimer_vec *vec, uint32_t id)
{
	struct hwtimer_op *op = vec_next(vec);

	if (op)
		prep_cancel(op, id);
	return op;
}

int hwtimer_vec_submit(int fd, struct hwtimer_vec *vec, unsigned int flags)
{
	struct hwtimer_batch b = {
		.ops = (uintptr_t)vec->ops,
		.count = vec->count,
		.op_size = sizeof(*vec->ops),
		.flags = flags,
	};
	uint32_t done = 0;
	int ret;

	/*
	 * The kernel does not read what it writes back, so a vector can be
	 * submitted again as it is: it adds new timers, and re-arms or
	 * cancels the same ones (with HWTIMER_F_GEN, the arming the last
	 * submit left).
	 *
	 * The kernel stops a long batch for a signal and says how far it
	 * got: submit the rest, so that the caller sees the whole vector
	 * done, or done up to the first failure it asked to stop at.
	 */
	do {
		b.ops = (uintptr_t)(vec->ops + done);
		b.count = vec->count - done;
		b.done = 0;
		ret = hwt_ioctl(fd, HWTIMER_IOC_BATCH, &b);
		if (ret <= 0)
			return done ? (int)done : ret;
		done += (uint32_t)ret;
		if ((flags & HWTIMER_BATCH_STOP_ON_ERROR) &&
		    vec->ops[done - 1].result < 0)
			break;
	} while (done < vec->count);
	return (int)done;
}

const char *hwtimer_strerror(int err)
{
	switch (err < 0 ? -err : err) {
	case ENOENT:
		return "no such timer on this file (from hwtimer_open(): no "
		       HWTIMER_DEVICE ", the hwtimer module is not loaded)";
	case ENODEV:
	case ENXIO:
		return "the hwtimer module is not loaded";
	case EACCES:
	case EPERM:
		return "no permission to open " HWTIMER_DEVICE;
	case ERANGE:
		return "time beyond the wheel's horizon (struct hwtimer_info.max_delay_ns), "
		       "or a NO_RECORD period below HWTIMER_NO_RECORD_MIN_PERIOD_NS";
	case ENOSPC:
		return "this file holds its maximum number of timers (max_timers_per_fd)";
	case EDQUOT:
		return "this user holds its maximum number of timers (max_timers_per_user; "
		       "the entries of its files' tables of timers, in use or free, "
		       "an expiry ring's record slots, and its files and their wheels, "
		       "by their memory, count as timers), "
		       "or of NO_RECORD periodic re-arms per second (max_rearms_per_user)";
	case EMFILE:
		return "too many open files: this process's (RLIMIT_NOFILE), or this user's "
		       "files of " HWTIMER_DEVICE " (max_files_per_user)";
	case ESTALE:
		return "the timer was re-armed, replaced or deleted since the generation "
		       "given with HWTIMER_F_GEN";
	case E2BIG:
		return "batch too large, or a struct with fields this module does not know";
	case EINVAL:
		return "invalid argument: an unknown flag or clock, a reserved field "
		       "set, a flag this call cannot carry, or CLOCK_REALTIME without "
		       "HWTIMER_F_REALTIME";
	case EBADF:
		return "not an open file descriptor";
	case EAGAIN:
		return "no expiry record is ready";
	default:
		return strerror(err < 0 ? -err : err);
	}
}
