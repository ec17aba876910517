/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A userspace timer queue: a binary min-heap of deadlines and one timerfd
 * armed for the earliest, what an application writes without a kernel
 * timer facility (bench/uheap.c). Timers are named by the caller's ids,
 * 0 .. capacity - 1; CLOCK_MONOTONIC, absolute deadlines in ns.
 */
#ifndef HWT_BENCH_UHEAP_H
#define HWT_BENCH_UHEAP_H

#include <stdint.h>

/**
 * struct uqueue - the queue
 * @heap: ids, a min-heap on their deadlines
 * @pos: where each id sits in @heap
 * @deadline: each id's deadline
 * @n: ids queued
 * @capacity: ids possible
 * @armed: the deadline the timerfd is armed for, 0 if none
 * @fd: the timerfd
 */
struct uqueue {
	uint32_t *heap;
	uint32_t *pos;
	uint64_t *deadline;
	uint32_t n;
	uint32_t capacity;
	uint64_t armed;
	int fd;
};

int uq_init(struct uqueue *q, uint32_t capacity);
void uq_free(struct uqueue *q);
/* queue @id (not queued) for @deadline; 0 or -errno of the timerfd */
int uq_add(struct uqueue *q, uint32_t id, uint64_t deadline);
/* take @id (queued) off; 0 or -errno */
int uq_cancel(struct uqueue *q, uint32_t id);
/*
 * Block until the timerfd fires, then take up to @max due ids into @ids, in
 * deadline order; *@now is the time they were found due. Returns how many,
 * or -errno.
 */
int uq_wait(struct uqueue *q, uint64_t *now, uint32_t *ids, uint32_t max);

#endif /* HWT_BENCH_UHEAP_H */
