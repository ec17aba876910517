// SPDX-License-Identifier: GPL-2.0
/*
 * A file's ids, which name the entries of its table of timers. While the
 * table grows a chunk at a time, and its directory is replaced by larger
 * ones: one thread adds 200,000 timers in batches, another cancels every
 * other one as soon as it is added. At the end every id left names its own
 * timer, and every freed id was handed out again (ids stay dense). Then
 * what is left of a table an emptied file gave back (ESTALE), ids a file
 * never handed out (ENOENT, with HWTIMER_F_GEN too, before and after its
 * table goes), and a chunk that cannot be allocated (ENOMEM, with
 * failslab).
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdlib.h>

#include <stdio.h>
#include <string.h>

#include "kselftest_harness.h"
#include "helpers.h"

#define N	200000U
#define CHUNK	64U

struct grow {
	int fd;
	__u32 *ids;		/* ids[i]: the id of the timer with cookie i */
	atomic_uint published;	/* ids below this are set */
	atomic_int done;
	__u32 cancelled, failed;
};

static void *canceller(void *arg)
{
	struct grow *g = arg;
	__u32 next = 0;

	for (;;) {
		__u32 top = atomic_load(&g->published);
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
	if (!hwt_device_present())
		SKIP(return, HWT_NO_DEVICE);
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

TEST_F_TIMEOUT(ids, frees_while_the_table_grows_are_kept, 600)
{
	struct hwtimer_batch b = {
		.ops = (uintptr_t)self->ops, .op_size = sizeof(*self->ops),
	};
	__u32 i, k, top = 0, wrong = 0;
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

/*
 * An emptied file gives its table back once it held more than its first
 * chunk; the ids of the timers it had are stale then: with HWTIMER_F_GEN,
 * MOD and CANCEL say so (ESTALE), without it there is no such timer
 * (ENOENT), and the next ADD starts again from id 1.
 */
TEST_F(ids, ids_of_a_table_given_back_are_stale)
{
	struct hwtimer_batch b = {
		.ops = (uintptr_t)self->ops, .op_size = sizeof(*self->ops),
		.count = CHUNK,
	};
	struct hwtimer_op op = { 0 };
	__u32 id, gen, i, k;

	for (i = 0; i < 5000; i += CHUNK) {
		for (k = 0; k < CHUNK; k++)
			self->ops[k] = (struct hwtimer_op){
				.op = HWTIMER_OP_ADD, .clockid = CLOCK_MONOTONIC,
				.expires = 3600 * SEC,
			};
		ASSERT_EQ((long)CHUNK, t_ioctl(self->fd, HWTIMER_IOC_BATCH, &b));
	}
	id = self->ops[CHUNK - 1].id;
	gen = self->ops[CHUNK - 1].gen;
	EXPECT_LT(4096ULL, t_fdinfo_u64(self->fd, "id_slots"));
	for (i = 1; i <= id; i++)
		ASSERT_EQ(1, t_cancel(self->fd, i));
	EXPECT_EQ(0ULL, t_fdinfo_u64(self->fd, "id_slots"));
	op = (struct hwtimer_op){ .id = id, .gen = gen, .flags = HWTIMER_F_GEN };
	EXPECT_EQ(-ESTALE, t_ioctl(self->fd, HWTIMER_IOC_CANCEL, &op));
	op = (struct hwtimer_op){
		.id = id, .gen = gen, .flags = HWTIMER_F_GEN, .expires = SEC,
	};
	EXPECT_EQ(-ESTALE, t_ioctl(self->fd, HWTIMER_IOC_MOD, &op));
	EXPECT_EQ(-ENOENT, t_cancel(self->fd, id));
	EXPECT_EQ(-ENOENT, t_mod(self->fd, id, 0, SEC, 0, NULL));
	ASSERT_EQ(0, t_add(self->fd, 0, CLOCK_MONOTONIC, SEC, 0, 0, &id));
	EXPECT_EQ(1U, id);
}

/* MOD and CANCEL with HWTIMER_F_GEN of @id, generation @gen */
static void expect_gen_ops(struct __test_metadata *_metadata, int fd,
			   __u32 id, __u32 gen, long err)
{
	struct hwtimer_op op = { .id = id, .gen = gen, .flags = HWTIMER_F_GEN };

	EXPECT_EQ(err, t_ioctl(fd, HWTIMER_IOC_CANCEL, &op)) TH_LOG("id %u", id);
	op = (struct hwtimer_op){
		.id = id, .gen = gen, .flags = HWTIMER_F_GEN, .expires = SEC,
	};
	EXPECT_EQ(err, t_ioctl(fd, HWTIMER_IOC_MOD, &op)) TH_LOG("id %u", id);
}

/*
 * Review F8: HWTIMER_F_GEN tells "no such timer" from "a newer arming" by
 * the id: one the file never handed out (0, or above the highest it had)
 * is ENOENT, as in the first release; one it handed out whose timer is
 * gone is ESTALE. A file of 3 timers, the second cancelled.
 */
TEST_F(ids, an_id_never_handed_out_is_enoent_with_gen)
{
	__u32 id, i;

	for (i = 1; i <= 3; i++) {
		ASSERT_EQ(0, t_add(self->fd, 0, CLOCK_MONOTONIC, 3600 * SEC, 0,
				   0, &id));
		ASSERT_EQ(i, id);
	}
	ASSERT_EQ(1, t_cancel(self->fd, 2));
	expect_gen_ops(_metadata, self->fd, 12345, 1, -ENOENT);
	expect_gen_ops(_metadata, self->fd, 4, 1, -ENOENT);
	expect_gen_ops(_metadata, self->fd, 0, 1, -ENOENT);
	expect_gen_ops(_metadata, self->fd, 2, 2, -ESTALE);
	EXPECT_EQ(2ULL, t_fdinfo_u64(self->fd, "timers"));
}

/*
 * The same once an emptied file gave its table back: the ids it handed
 * out are stale, and those above them still name nothing, until the file
 * hands them out.
 */
TEST_F(ids, an_id_never_handed_out_stays_enoent_once_the_table_goes)
{
	struct hwtimer_batch b = {
		.ops = (uintptr_t)self->ops, .op_size = sizeof(*self->ops),
		.count = CHUNK,
	};
	__u32 i, k, top;

	for (i = 0; i < 640; i += CHUNK) {
		for (k = 0; k < CHUNK; k++)
			self->ops[k] = (struct hwtimer_op){
				.op = HWTIMER_OP_ADD, .clockid = CLOCK_MONOTONIC,
				.expires = 3600 * SEC,
			};
		ASSERT_EQ((long)CHUNK, t_ioctl(self->fd, HWTIMER_IOC_BATCH, &b));
	}
	top = self->ops[CHUNK - 1].id;
	ASSERT_EQ(640U, top);
	for (i = 1; i <= top; i++)
		ASSERT_EQ(1, t_cancel(self->fd, i));
	EXPECT_EQ(0ULL, t_fdinfo_u64(self->fd, "id_slots"));
	expect_gen_ops(_metadata, self->fd, top, 1, -ESTALE);
	expect_gen_ops(_metadata, self->fd, 1, 1, -ESTALE);
	expect_gen_ops(_metadata, self->fd, top + 1, 1, -ENOENT);
	expect_gen_ops(_metadata, self->fd, 12345, 1, -ENOENT);
	EXPECT_TRUE(t_file_is_empty(self->fd));
}

#define FAILSLAB "/sys/kernel/debug/failslab/"

static int put_str(const char *path, const char *v)
{
	FILE *f = fopen(path, "w");
	int ok;

	if (!f)
		return -1;
	ok = fputs(v, f) >= 0;
	return fclose(f) || !ok ? -1 : 0;
}

/* The text of hwtimer.ko, from its lowest function to past its highest. */
static int module_text(unsigned long long *lo, unsigned long long *hi)
{
	FILE *f = fopen("/proc/kallsyms", "r");
	char line[256], type;
	unsigned long long a;

	*lo = ~0ULL;
	*hi = 0;
	while (f && fgets(line, sizeof(line), f)) {
		if (!strstr(line, "[hwtimer]") ||
		    sscanf(line, "%llx %c", &a, &type) != 2 ||
		    (type != 't' && type != 'T') || !a)
			continue;
		if (a < *lo)
			*lo = a;
		if (a > *hi)
			*hi = a;
	}
	if (f)
		fclose(f);
	*hi += 65536;
	return *lo < *hi ? 0 : -1;
}

/*
 * The 13th timer needs a new chunk of the table (the first holds 12). With
 * failslab failing every allocation of hwtimer.ko's for this thread, its
 * ADD fails with ENOMEM and nothing of it is left; the 12 are untouched,
 * and once allocations work again the next ADD gets id 13.
 */
TEST_F(ids, a_chunk_that_cannot_be_allocated_enomem)
{
	unsigned long long lo, hi;
	char v[32];
	__u32 id, i;
	long ret;

	if (geteuid() || access(FAILSLAB "probability", W_OK))
		SKIP(return, "no failslab here (debugfs, root)");
	ASSERT_EQ(0, module_text(&lo, &hi));
	for (i = 1; i <= 12; i++) {
		ASSERT_EQ(0, t_add(self->fd, 0, CLOCK_MONOTONIC, 3600 * SEC, 0, i,
				   &id));
		ASSERT_EQ(i, id);
	}
	snprintf(v, sizeof(v), "0x%llx", lo);
	ASSERT_EQ(0, put_str(FAILSLAB "require-start", v));
	snprintf(v, sizeof(v), "0x%llx", hi);
	ASSERT_EQ(0, put_str(FAILSLAB "require-end", v));
	ASSERT_EQ(0, put_str(FAILSLAB "stacktrace-depth", "32"));
	ASSERT_EQ(0, put_str(FAILSLAB "task-filter", "Y"));
	ASSERT_EQ(0, put_str(FAILSLAB "ignore-gfp-wait", "N"));
	ASSERT_EQ(0, put_str(FAILSLAB "verbose", "0"));
	ASSERT_EQ(0, put_str(FAILSLAB "space", "0"));
	ASSERT_EQ(0, put_str(FAILSLAB "times", "-1"));
	ASSERT_EQ(0, put_str(FAILSLAB "interval", "1"));
	ASSERT_EQ(0, put_str(FAILSLAB "probability", "100"));
	ASSERT_EQ(0, put_str("/proc/thread-self/make-it-fail", "1"));
	ret = t_add(self->fd, 0, CLOCK_MONOTONIC, 3600 * SEC, 0, 13, &id);
	put_str("/proc/thread-self/make-it-fail", "0");
	put_str(FAILSLAB "probability", "0");
	EXPECT_EQ(-ENOMEM, ret);
	EXPECT_EQ(12ULL, t_fdinfo_u64(self->fd, "timers"));
	EXPECT_EQ(12ULL, t_fdinfo_u64(self->fd, "id_slots"));
	for (i = 1; i <= 12; i++)
		EXPECT_EQ(HWTIMER_STATE_PENDING, t_get_state(self->fd, i));
	ASSERT_EQ(0, t_add(self->fd, 0, CLOCK_MONOTONIC, 3600 * SEC, 0, 13,
			   &id));
	EXPECT_EQ(13U, id);
}

HWT_HARNESS_MAIN
