// SPDX-License-Identifier: GPL-2.0
/*
 * What a user's budget, max_timers_per_user, pays for, as an ordinary
 * user: a file's table of timers by its size (review F1), so that a file
 * that added many timers and keeps one pays for the table it keeps, and
 * the kernel memory a user holds stays within what its budget says. Each
 * case forks a child that drops to an unprivileged uid; the parent (root)
 * sets the limit around it.
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>

#include "kselftest_harness.h"
#include "helpers.h"
#include "as_user.h"

/* what a timer takes: a slot of its file's table */
#define TIMER_BYTES	40

FIXTURE(budget) {
	long long old_limit;
};

FIXTURE_SETUP(budget)
{
	if (geteuid())
		SKIP(return, "needs root to switch users");
	self->old_limit = t_param_set("max_timers_per_user", 5);
	ASSERT_NE(-1, self->old_limit);
}

FIXTURE_TEARDOWN(budget)
{
	if (!geteuid())
		t_param_set("max_timers_per_user", self->old_limit);
}

/* Slab: of /proc/meminfo, in KiB; 0 if it cannot be read. */
static unsigned long long slab_kib(void)
{
	char line[256];
	unsigned long long kib = 0;
	FILE *f = fopen("/proc/meminfo", "r");

	while (f && fgets(line, sizeof(line), f))
		if (sscanf(line, "Slab: %llu kB", &kib) == 1)
			break;
	if (f)
		fclose(f);
	return kib;
}

/*
 * Run @n entries of @ops (ADDs or CANCELs) in BATCHes; 0, the first
 * entry's error if one failed, or -EIO if a BATCH came up short.
 */
static long batch_all(int fd, struct hwtimer_op *ops, uint32_t n)
{
	uint32_t i, k;

	for (i = 0; i < n; i += 256) {
		struct hwtimer_batch b = {
			.ops = (uintptr_t)(ops + i), .op_size = sizeof(*ops),
			.count = n - i < 256 ? n - i : 256,
		};

		if (t_ioctl(fd, HWTIMER_IOC_BATCH, &b) != (long)b.count)
			return -EIO;
		for (k = 0; k < b.count; k++)
			if (ops[i + k].result < 0)
				return ops[i + k].result;
	}
	return 0;
}

#define HOARD_BUDGET	65536
#define HOARD_TIMERS	8192
#define HOARD_FILES	64

/*
 * The hoarder: on file after file, add HOARD_TIMERS timers, cancel all but
 * the last, and keep the file, until an ADD fails with EDQUOT or
 * HOARD_FILES files are held. Then what the files hold, by fdinfo (their
 * tables' slots) and by /proc/meminfo (the slab they grew), must be within
 * twice what the budget allows: HOARD_BUDGET timers of TIMER_BYTES.
 */
static int hoard(void *arg)
{
	static struct hwtimer_op ops[HOARD_TIMERS];
	unsigned long long slab0 = slab_kib(), slots = 0, held_kib;
	int fd[HOARD_FILES], nfd, i, quota = 0;
	long ret;

	for (nfd = 0; nfd < HOARD_FILES && !quota; nfd++) {
		fd[nfd] = t_open();
		if (fd[nfd] < 0)
			return 1;
		for (i = 0; i < HOARD_TIMERS; i++)
			ops[i] = (struct hwtimer_op){
				.op = HWTIMER_OP_ADD, .clockid = CLOCK_MONOTONIC,
				.expires = 3600 * SEC,
			};
		ret = batch_all(fd[nfd], ops, HOARD_TIMERS);
		if (ret == -EDQUOT)
			quota = 1;
		else if (ret)
			return 2;
		/* the ids are 1..n: all go but the highest */
		for (i = 0; i < HOARD_TIMERS - 1; i++)
			ops[i] = (struct hwtimer_op){
				.op = HWTIMER_OP_CANCEL, .id = i + 1,
			};
		if (!quota && batch_all(fd[nfd], ops, HOARD_TIMERS - 1))
			return 3;
	}
	for (i = 0; i < nfd; i++)
		slots += t_fdinfo_u64(fd[i], "id_slots");
	held_kib = slab_kib() - slab0;
	printf("# %d files, %s: %llu slots held, slab grew %llu KiB; the budget's worth is %llu KiB\n",
	       nfd, quota ? "then EDQUOT" : "no EDQUOT", slots, held_kib,
	       HOARD_BUDGET * TIMER_BYTES / 1024ULL);
	if (!quota)
		return 4;
	if (slots > 2ULL * HOARD_BUDGET)
		return 5;
	if (held_kib * 1024 > 2ULL * HOARD_BUDGET * TIMER_BYTES)
		return 6;
	return 0;
}

/*
 * Review F1: a table counts by its size, not by the timers left in it.
 * Adding many timers, cancelling all but one and keeping the file, over
 * and over, reaches EDQUOT within the budget, and the memory it holds is
 * what the budget's timers would take, within a factor of 2.
 */
TEST_F_TIMEOUT(budget, tables_kept_by_one_timer_count_in_full, 600)
{
	ASSERT_NE(-1, t_param_set("max_timers_per_user", HOARD_BUDGET));
	EXPECT_EQ(0, as_user(UID_A, hoard, NULL));
}

HWT_HARNESS_MAIN
