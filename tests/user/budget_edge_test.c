// SPDX-License-Identifier: GPL-2.0
/*
 * A user's budget, max_timers_per_user, at its edge, as an ordinary user:
 * the first ADDs of a batch that fit succeed and the rest fail (review
 * F5), and a BATCH on one file never makes an ADD on another that fits
 * the budget fail (G4). What the budget pays for is budget_test's. Each
 * case forks a child that drops to an unprivileged uid; the parent (root)
 * sets the limit around it.
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>

#include "kselftest_harness.h"
#include "helpers.h"
#include "as_user.h"
#include "budget_fixture.h"

/* a file whose table is full: its first chunk and 40 more (12 + 40 * 102) */
#define EDGE_FILL	4092

struct edge {
	unsigned int flags;	/* HWTIMER_BATCH_* */
	long ran;		/* the BATCH's return */
	unsigned int ok;	/* its first entries that succeed */
};

/*
 * Fill a file's table one ADD at a time, then a BATCH of 64 ADDs at the
 * budget's edge: the first @e->ok succeed, every later one that ran fails
 * with EDQUOT, and @e->ran ran.
 */
static int at_the_edge(void *arg)
{
	const struct edge *e = arg;
	struct hwtimer_op ops[64];
	struct hwtimer_batch b = {
		.ops = (uintptr_t)ops, .op_size = sizeof(*ops), .count = 64,
		.flags = e->flags,
	};
	int fd = t_open(), i;
	long ran;

	if (fd < 0)
		return 1;
	for (i = 0; i < EDGE_FILL; i++)
		if (t_add(fd, 0, CLOCK_MONOTONIC, 3600 * SEC, 0, 0, NULL))
			return 2;
	if (t_fdinfo_u64(fd, "id_slots") != EDGE_FILL)
		return 3;
	for (i = 0; i < 64; i++)
		ops[i] = (struct hwtimer_op){
			.op = HWTIMER_OP_ADD, .clockid = CLOCK_MONOTONIC,
			.expires = 3600 * SEC,
		};
	ran = t_ioctl(fd, HWTIMER_IOC_BATCH, &b);
	printf("# a full table, %u ADDs within the budget, flags %u: %ld ran:",
	       e->ok, e->flags, ran);
	for (i = 0; i < ran && i < 64; i++)
		printf(" %s", ops[i].result ? "EDQUOT" : "ok");
	printf("\n");
	if (ran != e->ran)
		return 4;
	for (i = 0; i < ran; i++)
		if (ops[i].result != ((unsigned int)i < e->ok ? 0 : -EDQUOT))
			return 5;
	return 0;
}

/*
 * Review F5: a BATCH of 64 ADDs on a file whose table is full, with room
 * in the budget for 66 more timers, then for 40: with and without
 * HWTIMER_BATCH_STOP_ON_ERROR, the first ADDs that fit succeed, as one by
 * one they would, and the failures come after them.
 */
TEST_F(budget, adds_at_the_edge_fail_after_those_that_fit)
{
	static const struct edge room66 = { 0, 64, 64 };
	static const struct edge room66_stop = {
		HWTIMER_BATCH_STOP_ON_ERROR, 64, 64,
	};
	static const struct edge room40 = { 0, 64, 40 };
	static const struct edge room40_stop = {
		HWTIMER_BATCH_STOP_ON_ERROR, 41, 40,
	};

	/* besides the timers, the file and its base */
	ASSERT_NE(-1, t_param_set("max_timers_per_user",
				  t_budget(1, 1, EDGE_FILL + 66)));
	EXPECT_EQ(0, as_user(UID_A, at_the_edge, (void *)&room66));
	EXPECT_EQ(0, as_user(UID_A, at_the_edge, (void *)&room66_stop));
	ASSERT_NE(-1, t_param_set("max_timers_per_user",
				  t_budget(1, 1, EDGE_FILL + 40)));
	EXPECT_EQ(0, as_user(UID_A, at_the_edge, (void *)&room40));
	EXPECT_EQ(0, as_user(UID_A, at_the_edge, (void *)&room40_stop));
}

/* a table's free entries that count nothing (dev_ids.c): a page's worth */
#define IDS_SPARE	(4096 / TIMER_BYTES)

/*
 * What a file charges its user, in timers: fdinfo's "charged", or, from a
 * module that does not show it (where a file charges its table alone), its
 * table's entries but the free ones that count nothing.
 */
static unsigned long long file_units(int fd)
{
	unsigned long long cap, timers, room;

	if (t_fdinfo_u64(fd, "charged") != ~0ULL)
		return t_fdinfo_u64(fd, "charged");
	cap = t_fdinfo_u64(fd, "id_slots");
	timers = t_fdinfo_u64(fd, "timers");
	room = cap - timers;
	return cap - (room < IDS_SPARE ? room : IDS_SPARE);
}

#define CHURN_LIMIT	1000
#define CHURN_ROUNDS	300

struct churn {
	int fd;
	atomic_int done;
	int err;
};

/*
 * File A's side: BATCHes of 64 ADDs and of the 64 CANCELs that undo them,
 * every entry taken from the free entries A's table has and paid for.
 */
static void *churn_a(void *arg)
{
	struct churn *c = arg;
	struct hwtimer_op ops[64];
	unsigned int r, i;
	long ret;

	for (r = 0; r < CHURN_ROUNDS && !c->err; r++) {
		adds(ops, 64);
		ret = batch_all(c->fd, ops, 64);
		if (ret) {
			c->err = ret;
			break;
		}
		for (i = 0; i < 64; i++)
			ops[i] = (struct hwtimer_op){
				.op = HWTIMER_OP_CANCEL, .id = ops[i].id,
			};
		ret = batch_all(c->fd, ops, 64);
		if (ret)
			c->err = ret;
	}
	atomic_store(&c->done, 1);
	return NULL;
}

/*
 * Review G4, as an ordinary user at max_timers_per_user = CHURN_LIMIT
 * (besides two files and a base each):
 * file A adds 900 timers and cancels 780, so that its table has far more
 * free entries than a BATCH of 64 ADDs can take, all paid for; then it
 * churns 64 at a time (churn_a()) while file B, with the user @arg timers
 * short of the limit, adds a timer and cancels it, over and over. Every
 * one of B's ADDs fits: none may fail with EDQUOT, whatever A's BATCHes
 * do meanwhile. With @arg 64, a BATCH that charged all its ADDs in
 * advance takes the user to the limit for as long as it runs; with 1,
 * one whose advance charge is refused still overshoots for a moment.
 */
static int churn_beside(void *arg)
{
	unsigned long long limit = t_budget(2, 2, CHURN_LIMIT);
	unsigned int gap = (uintptr_t)arg, i;
	static struct hwtimer_op ops[900];
	struct churn c = { .fd = t_open() };
	unsigned long edquot = 0, ok = 0;
	int b = t_open();
	pthread_t th;
	__u32 id;
	long ret;

	if (c.fd < 0 || b < 0)
		return 1;
	adds(ops, 900);
	if (batch_all(c.fd, ops, 900))
		return 2;
	for (i = 0; i < 780; i++)
		ops[i] = (struct hwtimer_op){
			.op = HWTIMER_OP_CANCEL, .id = i + 1,
		};
	if (batch_all(c.fd, ops, 780))
		return 3;
	/* B takes the user to @gap short of the limit */
	while (file_units(c.fd) + file_units(b) < limit - gap)
		if (t_add(b, 0, CLOCK_MONOTONIC, 3600 * SEC, 0, 0, NULL))
			return 4;
	if (file_units(c.fd) + file_units(b) != limit - gap)
		return 5;
	if (pthread_create(&th, NULL, churn_a, &c))
		return 6;
	while (!atomic_load(&c.done)) {
		ret = t_add(b, 0, CLOCK_MONOTONIC, 3600 * SEC, 0, 0, &id);
		if (ret == -EDQUOT) {
			edquot++;
			continue;
		}
		if (ret || t_cancel(b, id) != 1) {
			c.err = ret ?: -EIO;
			break;
		}
		ok++;
	}
	pthread_join(th, NULL);
	printf("# %u short of the limit: B's ADDs beside A's BATCHes: %lu ok, %lu EDQUOT; A: %d\n",
	       gap, ok, edquot, c.err);
	if (c.err)
		return 7;
	if (edquot)
		return 8;
	return ok ? 0 : 9;
}

/*
 * Review G4: a BATCH charges its user only what its ADDs can need, and a
 * charge that does not fit never takes the user past the limit even for a
 * moment: an ADD on another file of the user that fits the budget never
 * fails with EDQUOT because of a BATCH that runs meanwhile.
 */
TEST_F_TIMEOUT(budget, batches_never_make_another_files_add_fail, 600)
{
	ASSERT_NE(-1, t_param_set("max_timers_per_user",
				  t_budget(2, 2, CHURN_LIMIT)));
	EXPECT_EQ(0, as_user(UID_A, churn_beside, (void *)64));
	EXPECT_EQ(0, as_user(UID_A, churn_beside, (void *)1));
}

HWT_HARNESS_MAIN
