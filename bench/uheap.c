// SPDX-License-Identifier: GPL-2.0
/*
 * The honest contender of make bench's layer 2: what an application writes
 * when it does not use a kernel timer facility. Its timeouts sit in a binary
 * min-heap in its own memory (an index per timer, so that cancel is
 * O(log n)), and one timerfd is armed for the earliest deadline. Arming or
 * cancelling costs no system call unless it changes the earliest deadline;
 * then the timerfd is re-armed. Expiry is one wakeup per distinct earliest
 * deadline, after which every due timer is popped.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdlib.h>
#include <sys/timerfd.h>
#include <time.h>
#include <unistd.h>

#include "uheap.h"

#define UQ_SEC	1000000000ULL

int uq_init(struct uqueue *q, uint32_t capacity)
{
	q->heap = calloc(capacity, sizeof(*q->heap));
	q->pos = calloc(capacity, sizeof(*q->pos));
	q->deadline = calloc(capacity, sizeof(*q->deadline));
	q->n = 0;
	q->capacity = capacity;
	q->armed = 0;
	q->fd = timerfd_create(CLOCK_MONOTONIC, TFD_CLOEXEC);
	if (!q->heap || !q->pos || !q->deadline || q->fd < 0) {
		uq_free(q);
		return -ENOMEM;
	}
	return 0;
}

void uq_free(struct uqueue *q)
{
	free(q->heap);
	free(q->pos);
	free(q->deadline);
	if (q->fd >= 0)
		close(q->fd);
	q->heap = q->pos = NULL;
	q->deadline = NULL;
	q->fd = -1;
}

static void uq_set(struct uqueue *q, uint32_t slot, uint32_t id)
{
	q->heap[slot] = id;
	q->pos[id] = slot;
}

static void uq_up(struct uqueue *q, uint32_t slot)
{
	uint32_t id = q->heap[slot];

	while (slot) {
		uint32_t parent = (slot - 1) / 2;

		if (q->deadline[q->heap[parent]] <= q->deadline[id])
			break;
		uq_set(q, slot, q->heap[parent]);
		slot = parent;
	}
	uq_set(q, slot, id);
}

static void uq_down(struct uqueue *q, uint32_t slot)
{
	uint32_t id = q->heap[slot];

	for (;;) {
		uint32_t c = 2 * slot + 1;

		if (c >= q->n)
			break;
		if (c + 1 < q->n && q->deadline[q->heap[c + 1]] < q->deadline[q->heap[c]])
			c++;
		if (q->deadline[id] <= q->deadline[q->heap[c]])
			break;
		uq_set(q, slot, q->heap[c]);
		slot = c;
	}
	uq_set(q, slot, id);
}

/* Arm the timerfd for the earliest deadline, if that changed. */
static int uq_rearm(struct uqueue *q)
{
	uint64_t first = q->n ? q->deadline[q->heap[0]] : 0;
	struct itimerspec its = {
		.it_value = { .tv_sec = (time_t)(first / UQ_SEC),
			      .tv_nsec = (long)(first % UQ_SEC) },
	};

	if (first == q->armed)
		return 0;
	q->armed = first;
	return timerfd_settime(q->fd, TFD_TIMER_ABSTIME, &its, NULL) ? -errno : 0;
}

int uq_add(struct uqueue *q, uint32_t id, uint64_t deadline)
{
	q->deadline[id] = deadline;
	uq_set(q, q->n, id);
	uq_up(q, q->n++);
	return uq_rearm(q);
}

int uq_cancel(struct uqueue *q, uint32_t id)
{
	uint32_t slot = q->pos[id], last = q->heap[--q->n];

	if (slot != q->n) {
		uq_set(q, slot, last);
		uq_up(q, slot);
		uq_down(q, q->pos[last]);
	}
	return uq_rearm(q);
}

int uq_wait(struct uqueue *q, uint64_t *now, uint32_t *ids, uint32_t max)
{
	struct timespec ts;
	uint64_t ticks;
	uint32_t k = 0;

	/* an io_uring ring torn down before may interrupt it (dev_bench) */
	while (read(q->fd, &ticks, sizeof(ticks)) != sizeof(ticks))
		if (errno != EINTR)
			return -errno;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	*now = (uint64_t)ts.tv_sec * UQ_SEC + (uint64_t)ts.tv_nsec;
	while (q->n && k < max && q->deadline[q->heap[0]] <= *now) {
		uint32_t id = q->heap[0];

		ids[k++] = id;
		uq_set(q, 0, q->heap[--q->n]);
		if (q->n)
			uq_down(q, 0);
	}
	/* a timerfd that fired is disarmed: arm it again for what is left */
	q->armed = 0;
	return uq_rearm(q) ?: (int)k;
}
