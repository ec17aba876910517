// SPDX-License-Identifier: GPL-2.0
/*
 * A file's ids while its array grows: the array is copied into a larger one
 * a chunk per hold of the file's lock, and ids taken or freed meanwhile go
 * to both. One thread adds 200,000 timers in batches, which grows the array
 * a dozen times; another cancels every other one as soon as it is added,
 * so frees land in entries already copied and in entries not yet copied. At
 * the end every id left names its own timer, and every freed id was handed
 * out again (ids stay dense).
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdlib.h>

#include "kselftest_harness.h"
#include "helpers.h"

#define N	200000U
#define CHUNK	64U

struct grow {
	int fd;
	uint32_t *ids;		/* ids[i]: the id of the timer with cookie i */
	_Atomic uint32_t published;	/* ids below this are set */
	_Atomic int done;
	uint32_t cancelled, failed;
};

static void *canceller(void *arg)
{
	struct grow *g = arg;
	uint32_t next = 0;

	for (;;) {
		uint32_t top = atomic_load(&g->published);
		int done = atomic_load(&g->done);

		for (; next < top; next += 2) {
			if (t_cancel(g->fd, g->ids[next]) == 1)
				g->cancelled++;
			else
				g->failed++;
		}
		if (done && next >= atomic_load(&g->published))
			return NULL;
		sched_yield();
	}
}

FIXTURE(ids) {
	int fd;
	struct hwtimer_op *ops;
	struct grow g;
};

FIXTURE_SETUP(ids)
{
	self->fd = t_open();
	ASSERT_LE(0, self->fd);
	self->ops = calloc(CHUNK, sizeof(*self->ops));
	ASSERT_NE(NULL, self->ops);
	self->g = (struct grow){ .fd = self->fd };
	self->g.ids = calloc(N, sizeof(*self->g.ids));
	ASSERT_NE(NULL, self->g.ids);
}

FIXTURE_TEARDOWN(ids)
{
	free(self->g.ids);
	free(self->ops);
	close(self->fd);
}

TEST_F_TIMEOUT(ids, frees_while_the_array_grows_are_kept, 600)
{
	struct hwtimer_batch b = {
		.ops = (uintptr_t)self->ops, .op_size = sizeof(*self->ops),
	};
	uint32_t i, k, top = 0, wrong = 0;
	pthread_t th;

	ASSERT_EQ(0, pthread_create(&th, NULL, canceller, &self->g));
	for (i = 0; i < N; i += CHUNK) {
		b.count = CHUNK;
		for (k = 0; k < CHUNK; k++)
			self->ops[k] = (struct hwtimer_op){
				.op = HWTIMER_OP_ADD, .clockid = CLOCK_MONOTONIC,
				.expires = 3600 * SEC, .cookie = i + k,
			};
		ASSERT_EQ((long)CHUNK, t_ioctl(self->fd, HWTIMER_IOC_BATCH, &b));
		for (k = 0; k < CHUNK; k++) {
			ASSERT_EQ(0, self->ops[k].result);
			self->g.ids[i + k] = self->ops[k].id;
			if (self->ops[k].id > top)
				top = self->ops[k].id;
		}
		atomic_store(&self->g.published, i + CHUNK);
	}
	atomic_store(&self->g.done, 1);
	ASSERT_EQ(0, pthread_join(th, NULL));
	EXPECT_EQ(0U, self->g.failed);
	EXPECT_EQ(N / 2, self->g.cancelled);
	EXPECT_EQ((unsigned long long)(N - self->g.cancelled),
		  t_fdinfo_u64(self->fd, "timers"));
	/* freed ids were taken again: never more ids than timers at once */
	TH_LOG("highest id %u for %u timers, %u cancelled meanwhile", top, N,
	       self->g.cancelled);
	EXPECT_GT(N, top);
	for (i = 1; i < N; i += 2) {
		struct hwtimer_get g = { .id = self->g.ids[i] };

		if (t_ioctl(self->fd, HWTIMER_IOC_GET, &g) ||
		    g.cookie != i || g.state != HWTIMER_STATE_PENDING)
			wrong++;
	}
	EXPECT_EQ(0U, wrong);
}

HWT_HARNESS_MAIN
