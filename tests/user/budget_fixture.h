/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the budget suites (budget_test, budget_edge_test) share: their
 * fixture, which needs root, sets max_timers_per_user around each case and
 * gives it back after a failed one, and the batches their children run.
 * Include it once, after kselftest_harness.h, helpers.h and as_user.h.
 */
#ifndef _HWT_BUDGET_FIXTURE_H
#define _HWT_BUDGET_FIXTURE_H

/* what a timer takes: an entry of its file's table (at least) */
#define TIMER_BYTES	40

FIXTURE(budget) {
	long long old_limit;
};

FIXTURE_SETUP(budget)
{
	if (!hwt_device_present())
		SKIP(return, HWT_NO_DEVICE);
	self->old_limit = -1;
	if (geteuid())
		SKIP(return, "needs root to switch users");
	/* what a file and a base cost, measured within the old limit */
	t_costs();
	self->old_limit = t_param_set("max_timers_per_user", 5);
	ASSERT_NE(-1, self->old_limit);
}

/* in the parent: a case that failed an assertion still gets its limit back */
FIXTURE_TEARDOWN_PARENT(budget)
{
	if (!geteuid() && self->old_limit != -1)
		t_param_set("max_timers_per_user", self->old_limit);
}

/*
 * Run @n entries of @ops (ADDs or CANCELs) in BATCHes; 0, the first
 * entry's error if one failed, or -EIO if a BATCH came up short.
 */
static long batch_all(int fd, struct hwtimer_op *ops, __u32 n)
{
	__u32 i, k;

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

/* @n plain ADDs, an hour away, into @ops */
static void adds(struct hwtimer_op *ops, unsigned int n)
{
	unsigned int i;

	for (i = 0; i < n; i++)
		ops[i] = (struct hwtimer_op){
			.op = HWTIMER_OP_ADD, .clockid = CLOCK_MONOTONIC,
			.expires = 3600 * SEC,
		};
}

#endif /* _HWT_BUDGET_FIXTURE_H */
