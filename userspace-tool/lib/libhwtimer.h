/* SPDX-License-Identifier: LGPL-2.1 OR MIT */
/*
 * libhwtimer: a small library over /dev/hwtimer, so that programs do not
 * hand-code its ioctls. See libhwtimer(7) for an overview and one man page
 * per function in section 3.
 *
 * Every function that can fail returns a negative errno value on failure,
 * as liburing's do, and leaves errno as the caller had it (the batch
 * builders return NULL when the vector is full). Records, ops and the info struct are the uapi
 * structs of <linux/hwtimer.h>.
 */
#ifndef LIBHWTIMER_H
#define LIBHWTIMER_H

#include <stddef.h>
#include <stdint.h>
#include <time.h>

#include <linux/hwtimer.h>

#include "libhwtimer_version.h"

#ifdef __cplusplus
extern "C" {
#endif

/*
 * Whether the library a program is built against is release MAJOR.MINOR or
 * later (LIBHWTIMER_VERSION_* of libhwtimer_version.h); at run time,
 * hwtimer_version_at_least() says it of the library the program runs with.
 */
#define LIBHWTIMER_VERSION_AT_LEAST(major, minor)			\
	(LIBHWTIMER_VERSION_MAJOR > (major) ||				\
	 (LIBHWTIMER_VERSION_MAJOR == (major) && LIBHWTIMER_VERSION_MINOR >= (minor)))

int hwtimer_major_version(void);
int hwtimer_minor_version(void);
int hwtimer_version_at_least(int major, int minor);

#define HWTIMER_DEVICE		"/dev/hwtimer"

/* hwtimer_open() flags */
#define HWTIMER_OPEN_CLOEXEC	(1U << 0)
#define HWTIMER_OPEN_NONBLOCK	(1U << 1)

int hwtimer_open(unsigned int flags);
int hwtimer_info(int fd, struct hwtimer_info *info);

int hwtimer_add(int fd, clockid_t clock, uint64_t expires, uint64_t period,
		unsigned int flags, uint64_t cookie);
int hwtimer_mod(int fd, uint32_t id, uint64_t expires, unsigned int flags);
int hwtimer_cancel(int fd, uint32_t id);
int hwtimer_submit_op(int fd, struct hwtimer_op *op);
int hwtimer_get(int fd, uint32_t id, struct hwtimer_get *get);
int hwtimer_drain(int fd, uint32_t *ids, uint32_t max, uint32_t *remaining);
int hwtimer_set_eventfd(int fd, int efd);
int hwtimer_slack(int fd, const uint64_t *set, uint64_t *old);
int hwtimer_read(int fd, struct hwtimer_record *recs, size_t max);

/**
 * struct hwtimer_vec - operations queued for one HWTIMER_IOC_BATCH
 * @ops: the queued operations; after hwtimer_vec_submit() each one's
 *	@result, and for ADD its @id and @gen, are filled in
 * @count: operations queued
 * @capacity: room in @ops
 */
struct hwtimer_vec {
	struct hwtimer_op *ops;
	uint32_t count;
	uint32_t capacity;
};

int hwtimer_vec_init(struct hwtimer_vec *vec, uint32_t capacity);
void hwtimer_vec_free(struct hwtimer_vec *vec);
void hwtimer_vec_reset(struct hwtimer_vec *vec);
struct hwtimer_op *hwtimer_vec_add(struct hwtimer_vec *vec, clockid_t clock,
				   uint64_t expires, uint64_t period,
				   unsigned int flags, uint64_t cookie);
struct hwtimer_op *hwtimer_vec_mod(struct hwtimer_vec *vec, uint32_t id,
				   uint64_t expires, unsigned int flags);
struct hwtimer_op *hwtimer_vec_cancel(struct hwtimer_vec *vec, uint32_t id);
int hwtimer_vec_submit(int fd, struct hwtimer_vec *vec, unsigned int flags);

/**
 * struct hwtimer_ring_map - an expiry ring, mapped (hwtimer_ring_setup())
 * @hdr: its header, where the indices are
 * @recs: its first record slot
 * @mask: its entries, minus 1
 * @stride: bytes from one record slot to the next
 * @size: bytes mapped
 * @fd: the /dev/hwtimer file it belongs to
 */
struct hwtimer_ring_map {
	struct hwtimer_ring *hdr;
	unsigned char *recs;
	uint32_t mask;
	uint32_t stride;
	size_t size;
	int fd;
};

int hwtimer_ring_setup(int fd, uint32_t entries, struct hwtimer_ring_map *ring);
void hwtimer_ring_unmap(struct hwtimer_ring_map *ring);
unsigned int hwtimer_ring_ready(const struct hwtimer_ring_map *ring);
int hwtimer_ring_harvest(struct hwtimer_ring_map *ring,
			 struct hwtimer_record *recs, unsigned int max);
int hwtimer_ring_wait(struct hwtimer_ring_map *ring, int timeout_ms);
int hwtimer_ring_flush(int fd);

/* io_uring SQEs (IORING_OP_URING_CMD), for any ring: see hwtimer_uring_prep_add(3) */
struct io_uring_sqe;
/*
 * For the prep helpers' flags, never sent to the kernel: the SQE is a
 * 128-byte slot of an IORING_SETUP_SQE128 ring, all of which the helper
 * clears (the kernel refuses a command whose spare bytes are not zero)
 */
#define HWTIMER_URING_SQE128	(1U << 31)
void hwtimer_uring_prep_add(struct io_uring_sqe *sqe, int fd, clockid_t clock,
			    uint64_t expires, unsigned int flags,
			    uint64_t cookie);
void hwtimer_uring_prep_mod(struct io_uring_sqe *sqe, int fd, uint32_t id,
			    uint64_t expires, unsigned int flags,
			    uint64_t user_data);
void hwtimer_uring_prep_cancel(struct io_uring_sqe *sqe, int fd, uint32_t id,
			       uint64_t user_data);
void hwtimer_uring_prep_op(struct io_uring_sqe *sqe, int fd,
			   const struct hwtimer_op *op, uint64_t user_data);
/* an array of operations in one SQE: see hwtimer_uring_prep_batch(3) */
void hwtimer_uring_prep_batch(struct io_uring_sqe *sqe, int fd,
			      struct hwtimer_op *ops, unsigned int count,
			      unsigned int flags, uint64_t user_data);
void hwtimer_uring_prep_batch_fixed(struct io_uring_sqe *sqe, int fd,
				    struct hwtimer_op *ops, unsigned int count,
				    unsigned int flags, unsigned int buf_index,
				    uint64_t user_data);

const char *hwtimer_strerror(int err);

#ifdef __cplusplus
}
#endif

#endif /* LIBHWTIMER_H */
