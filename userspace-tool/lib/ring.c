// SPDX-License-Identifier: LGPL-2.1 OR MIT
/*
 * libhwtimer: the zero-syscall paths. The expiry ring (set up, harvest,
 * wait), and SQEs for ADD, MOD and CANCEL through io_uring, filled in for
 * any ring (liburing's or one's own): the library does not depend on
 * liburing.
 */
#include <errno.h>
#include <poll.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>

#include <linux/io_uring.h>

#include "libhwtimer.h"

/* the consumer's side of the ring's ordering (hwtimer.rst, "The expiry ring") */
#define load_acquire(p)		__atomic_load_n((p), __ATOMIC_ACQUIRE)
#define store_release(p, v)	__atomic_store_n((p), (v), __ATOMIC_RELEASE)
#define full_barrier()		__atomic_thread_fence(__ATOMIC_SEQ_CST)

int hwtimer_ring_setup(int fd, uint32_t entries, struct hwtimer_ring_map *ring)
{
	struct hwtimer_ring_setup rs = { .entries = entries };
	int saved = errno, ret;
	void *p;

	memset(ring, 0, sizeof(*ring));
	if (ioctl(fd, HWTIMER_IOC_RING_SETUP, &rs) < 0)
		goto fail;
	/* if this fails, the file keeps its ring: map it with the same size */
	p = mmap(NULL, rs.mmap_size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (p == MAP_FAILED)
		goto fail;
	ring->hdr = p;
	ring->recs = (unsigned char *)p + rs.rec_offset;
	ring->mask = entries - 1;
	ring->stride = rs.rec_stride;
	ring->size = rs.mmap_size;
	ring->fd = fd;
	return 0;
fail:
	ret = -errno;
	errno = saved;
	return ret;
}

void hwtimer_ring_unmap(struct hwtimer_ring_map *ring)
{
	if (ring->hdr)
		munmap(ring->hdr, ring->size);
	memset(ring, 0, sizeof(*ring));
}

int hwtimer_ring_flush(int fd)
{
	int saved = errno, ret = ioctl(fd, HWTIMER_IOC_RING_FLUSH);

	if (ret < 0)
		ret = -errno;
	errno = saved;
	return ret;
}

unsigned int hwtimer_ring_ready(const struct hwtimer_ring_map *ring)
{
	return load_acquire(&ring->hdr->prod) - ring->hdr->cons;
}

int hwtimer_ring_harvest(struct hwtimer_ring_map *ring,
			 struct hwtimer_record *recs, unsigned int max)
{
	struct hwtimer_ring *h = ring->hdr;
	unsigned int n = 0;
	int ret;

	while (n < max) {
		uint32_t cons = h->cons, prod = load_acquire(&h->prod);

		while (n < max && cons != prod) {
			memcpy(&recs[n++],
			       ring->recs + (size_t)(cons & ring->mask) * ring->stride,
			       sizeof(*recs));
			cons++;
		}
		/* the kernel may reuse the slots once it sees this */
		store_release(&h->cons, cons);
		if (n == max || !(load_acquire(&h->flags) & HWTIMER_RING_QUEUED))
			break;
		/* records wait on the queue: move them in, and go on */
		ret = hwtimer_ring_flush(ring->fd);
		if (ret < 0)
			return n ? (int)n : ret;
		if (!ret && cons == load_acquire(&h->prod))
			break;
	}
	return (int)n;
}

int hwtimer_ring_wait(struct hwtimer_ring_map *ring, int timeout_ms)
{
	struct hwtimer_ring *h = ring->hdr;
	struct pollfd pfd = { .fd = ring->fd, .events = POLLIN };
	int saved = errno, ret;

	for (;;) {
		/* publish where we are, then look again: see hwtimer.rst */
		store_release(&h->wake, HWTIMER_RING_WAKE_EMPTY);
		full_barrier();
		if (hwtimer_ring_ready(ring) ||
		    (load_acquire(&h->flags) & HWTIMER_RING_QUEUED))
			return 1;
		ret = poll(&pfd, 1, timeout_ms);
		if (ret < 0)
			ret = -errno;
		errno = saved;
		if (ret <= 0)
			return ret;
		timeout_ms = 0;
	}
}

/*
 * io_uring: the SQE of one command, the rest of it zero: all 128 bytes of
 * an SQE128 ring's slot if @flags says it is one (HWTIMER_URING_SQE128),
 * whose last 64 the kernel reads as command bytes too.
 */
static struct hwtimer_uring_cmd *prep_cmd(struct io_uring_sqe *sqe, int fd,
					  uint32_t cmd_op, unsigned int flags,
					  uint64_t user_data)
{
	memset(sqe, 0, (flags & HWTIMER_URING_SQE128 ? 2 : 1) * sizeof(*sqe));
	sqe->opcode = IORING_OP_URING_CMD;
	sqe->fd = fd;
	sqe->cmd_op = cmd_op;
	sqe->user_data = user_data;
	return (struct hwtimer_uring_cmd *)sqe->cmd;
}

void hwtimer_uring_prep_add(struct io_uring_sqe *sqe, int fd, clockid_t clock,
			    uint64_t expires, unsigned int flags,
			    uint64_t cookie)
{
	struct hwtimer_uring_cmd *c = prep_cmd(sqe, fd, HWTIMER_URING_ADD,
					       flags, cookie);

	flags &= ~HWTIMER_URING_SQE128;
	c->expires = expires;
	/* as hwtimer_add(): naming CLOCK_REALTIME is asking for it */
	c->flags = flags | (clock == CLOCK_REALTIME ? HWTIMER_F_REALTIME : 0);
	c->clockid = (uint8_t)clock;
}

void hwtimer_uring_prep_mod(struct io_uring_sqe *sqe, int fd, uint32_t id,
			    uint64_t expires, unsigned int flags,
			    uint64_t user_data)
{
	struct hwtimer_uring_cmd *c = prep_cmd(sqe, fd, HWTIMER_URING_MOD,
					       flags, user_data);

	c->id = id;
	c->expires = expires;
	c->flags = flags & ~HWTIMER_URING_SQE128;
}

void hwtimer_uring_prep_cancel(struct io_uring_sqe *sqe, int fd, uint32_t id,
			       uint64_t user_data)
{
	prep_cmd(sqe, fd, HWTIMER_URING_CANCEL, 0, user_data)->id = id;
}

void hwtimer_uring_prep_op(struct io_uring_sqe *sqe, int fd,
			   const struct hwtimer_op *op, uint64_t user_data)
{
	/* only an SQE128 slot has room for it */
	prep_cmd(sqe, fd, HWTIMER_URING_OP, HWTIMER_URING_SQE128, user_data);
	memcpy(sqe->cmd, op, sizeof(*op));
}

void hwtimer_uring_prep_batch(struct io_uring_sqe *sqe, int fd,
			      struct hwtimer_op *ops, unsigned int count,
			      unsigned int flags, uint64_t user_data)
{
	struct hwtimer_uring_batch *b = (struct hwtimer_uring_batch *)
		prep_cmd(sqe, fd, HWTIMER_URING_BATCH, flags, user_data);

	flags &= ~HWTIMER_URING_SQE128;
	b->ops = (uintptr_t)ops;
	b->count = count;
	b->op_size = sizeof(*ops);
	/* flags the field cannot hold are unknown flags: the kernel's EINVAL */
	b->flags = flags > UINT16_MAX ? UINT16_MAX : flags;
}

void hwtimer_uring_prep_batch_fixed(struct io_uring_sqe *sqe, int fd,
				    struct hwtimer_op *ops, unsigned int count,
				    unsigned int flags, unsigned int buf_index,
				    uint64_t user_data)
{
	hwtimer_uring_prep_batch(sqe, fd, ops, count, flags, user_data);
	sqe->uring_cmd_flags = IORING_URING_CMD_FIXED;
	/* past the field is past every registered buffer: io_uring's EFAULT */
	sqe->buf_index = buf_index > UINT16_MAX ? UINT16_MAX : buf_index;
}
