// SPDX-License-Identifier: GPL-2.0
/*
 * Layer 1 of make bench, the op path: what an ADD + CANCEL pair costs in
 * instructions through each door of the module, counted by callgrind
 * outside the kernel, as bench/core_bench.c counts the wheel alone. The
 * module's own files are built for userspace (bench/opcost.sh has the list)
 * over shims of the kernel's infrastructure (bench/native/include/kshim,
 * bench/native/kshim.c: locks, clocks, hrtimers, the slab, user memory,
 * pinned pages), and the module is loaded as the kernel would: its
 * module_init() runs, the device's open() makes the file, and each door is
 * called where the kernel would call it:
 *
 *   batch        HWTIMER_IOC_BATCH through the file's ->unlocked_ioctl,
 *                PER_CALL pairs per call
 *   one          HWTIMER_IOC_CANCEL then HWTIMER_IOC_ADD, one op per call
 *   kapi         hwtimer_cancel() then hwtimer_start(), the in-kernel API
 *   uring_batch  HWTIMER_URING_BATCH through ->uring_cmd, issued inline
 *                (IO_URING_F_NONBLOCK) as io_uring first issues it,
 *                PER_CALL pairs per command; io_uring's own work around
 *                the command (the SQE's prep and issue, the CQE) is not
 *                counted
 *   uring_one    HWTIMER_URING_CANCEL then HWTIMER_URING_ADD, short
 *                commands, issued inline, one op per command
 *   uheap        bench/uheap.c, a userspace binary heap and one timerfd:
 *                uq_cancel() then uq_add() (a timerfd_settime() when the
 *                earliest deadline changes is counted to its call only)
 *
 * A pair cancels a random pending timer and adds one with a random
 * relative deadline of 1..60 s on CLOCK_MONOTONIC, with no slack, period
 * or eventfd: the common ADD. PENDING timers stay pending throughout (the
 * ADD takes the id its CANCEL freed). Every result is checked: an ADD that
 * fails or a CANCEL that finds no pending timer aborts the run. The fake
 * clock moves PAIR_NS per pair.
 *
 * Only the measure_* functions do the doors' work, so that
 * valgrind --tool=callgrind --toggle-collect='measure_*' counts them
 * alone; what they do besides (building the ops, checking the results,
 * moving the clock) is the harness, which bench/op_breakdown.py counts
 * apart. A call whose line is marked "door: add" or "door: cancel" is one
 * op of a pair, for the per-op counts.
 *
 * usage: op_bench -d DOOR [-n PENDING] [-p PAIRS] [-s SEED]
 * prints one JSON line: what ran, and the hrtimer arms it made.
 */
#define _GNU_SOURCE
#include <getopt.h>

#include <linux/hrtimer.h>
#include <linux/hwtimer.h>
#include <linux/io_uring.h>
#include <linux/prandom.h>
#include <uapi/linux/hwtimer.h>

#include "uheap.h"

#define SEC		1000000000ULL
#define PER_CALL	256	/* pairs per BATCH call or URING_BATCH command */
#define PAIR_NS		300	/* what the fake clock moves per pair */
#define FILL_CHUNK	4096	/* ADDs per BATCH call while filling */

int kshim_module_init(void);

static struct rnd_state rnd;
static size_t pending, npairs;
static u32 *pick;		/* per pair: the id (1..PENDING) cancelled */
static u64 *delay;		/* per pair: the new timer's relative deadline */

static struct cred cred = { .user_ns = &init_user_ns };
static struct inode inode;
static struct file file = { .f_cred = &cred };

static struct hwtimer *ktimers;	/* kapi: timer id - 1 */
static struct uqueue uq;	/* uheap: ids 0..PENDING - 1 */
static u64 uq_base;

static noinline void die(const char *what, long v)
{
	fprintf(stderr, "op_bench: %s (%ld)\n", what, v);
	exit(1);
}

static u64 rnd64(void)
{
	return (u64)prandom_u32_state(&rnd) << 32 | prandom_u32_state(&rnd);
}

/* uniform 1 .. 60 s */
static u64 delay_1_60(void)
{
	return SEC + rnd64() % (59 * SEC + 1);
}

static struct hwtimer_op op_add(u64 expires)
{
	return (struct hwtimer_op){
		.op = HWTIMER_OP_ADD,
		.clockid = CLOCK_MONOTONIC,
		.expires = expires,
	};
}

static struct hwtimer_op op_cancel(u32 id)
{
	return (struct hwtimer_op){ .op = HWTIMER_OP_CANCEL, .id = id };
}

/*
 * The doors are called as the kernel calls them, through the file's
 * operations (vfs_ioctl(), io_uring_cmd()): the system call's or io_uring's
 * own path up to there is not counted. Each call is on the line that
 * marks it, for op_breakdown.py.
 */

/* Check the results of @k pairs of a batch from pair @i, as built below. */
static void batch_check(const struct hwtimer_op *ops, size_t i, unsigned int k)
{
	unsigned int j;

	for (j = 0; j < k; j++) {
		if (ops[2 * j].result != 1)
			die("a CANCEL found no pending timer", ops[2 * j].result);
		if (ops[2 * j + 1].result || ops[2 * j + 1].id != pick[i + j])
			die("an ADD failed, or took another id",
			    ops[2 * j + 1].result ?: (long)ops[2 * j + 1].id);
	}
}

/* @k pairs from pair @i into @ops: each a CANCEL, then the ADD taking its id */
static void batch_build(struct hwtimer_op *ops, size_t i, unsigned int k)
{
	unsigned int j;

	for (j = 0; j < k; j++) {
		ops[2 * j] = op_cancel(pick[i + j]);
		ops[2 * j + 1] = op_add(delay[i + j]);
	}
}

static noinline void measure_batch(struct hwtimer_op *ops)
{
	size_t i;

	for (i = 0; i < npairs; i += PER_CALL) {
		unsigned int k = min_t(size_t, PER_CALL, npairs - i);
		struct hwtimer_batch b = {
			.ops = (uintptr_t)ops, .count = 2 * k,
			.op_size = sizeof(*ops),
		};
		long ret;

		batch_build(ops, i, k);
		kshim_clock_advance((u64)k * PAIR_NS);
		ret = file.f_op->unlocked_ioctl(&file, HWTIMER_IOC_BATCH, (uintptr_t)&b); /* door: pairs */
		if (ret != 2 * k)
			die("HWTIMER_IOC_BATCH", ret);
		batch_check(ops, i, k);
	}
}

static noinline void measure_one(void)
{
	size_t i;

	for (i = 0; i < npairs; i++) {
		struct hwtimer_op op = op_cancel(pick[i]);
		long ret;

		kshim_clock_advance(PAIR_NS);
		ret = file.f_op->unlocked_ioctl(&file, HWTIMER_IOC_CANCEL, (uintptr_t)&op); /* door: cancel */
		if (ret != 1)
			die("HWTIMER_IOC_CANCEL", ret);
		op = op_add(delay[i]);
		ret = file.f_op->unlocked_ioctl(&file, HWTIMER_IOC_ADD, (uintptr_t)&op); /* door: add */
		if (ret || op.id != pick[i])
			die("HWTIMER_IOC_ADD", ret ?: (long)op.id);
	}
}

static noinline void measure_kapi(void)
{
	size_t i;

	for (i = 0; i < npairs; i++) {
		struct hwtimer *t = &ktimers[pick[i] - 1];
		int ret;

		kshim_clock_advance(PAIR_NS);
		if (!hwtimer_cancel(t)) /* door: cancel */
			die("hwtimer_cancel() found no pending timer", 0);
		ret = hwtimer_start(t, delay[i], 0, HWTIMER_REL); /* door: add */
		if (ret)
			die("hwtimer_start()", ret);
	}
}

/* An SQE with room for SQE128's command bytes, and the request around it */
static union {
	struct io_uring_sqe sqe;
	u8 bytes[128];
} sqe;
static struct io_kiocb req = { .cmd = { .file = &file, .sqe = &sqe.sqe } };

/* The SQE of a command: its opcode and command bytes */
static void uring_sqe(u32 cmd_op, const void *cmd, size_t len)
{
	req.cmd.cmd_op = cmd_op;
	memcpy(sqe.sqe.cmd, cmd, len);
}

static noinline void measure_uring_batch(struct hwtimer_op *ops)
{
	size_t i;

	for (i = 0; i < npairs; i += PER_CALL) {
		unsigned int k = min_t(size_t, PER_CALL, npairs - i);
		struct hwtimer_uring_batch b = {
			.ops = (uintptr_t)ops, .count = 2 * k,
			.op_size = sizeof(*ops),
		};
		int ret;

		batch_build(ops, i, k);
		kshim_clock_advance((u64)k * PAIR_NS);
		uring_sqe(HWTIMER_URING_BATCH, &b, sizeof(b));
		ret = file.f_op->uring_cmd(&req.cmd, IO_URING_F_NONBLOCK); /* door: pairs */
		if (ret != 2 * (int)k)
			die("HWTIMER_URING_BATCH", ret);
		batch_check(ops, i, k);
	}
}

static noinline void measure_uring_one(void)
{
	size_t i;

	for (i = 0; i < npairs; i++) {
		struct hwtimer_uring_cmd c = { .id = pick[i] };
		int ret;

		kshim_clock_advance(PAIR_NS);
		uring_sqe(HWTIMER_URING_CANCEL, &c, sizeof(c));
		ret = file.f_op->uring_cmd(&req.cmd, IO_URING_F_NONBLOCK); /* door: cancel */
		if (ret != 1)
			die("HWTIMER_URING_CANCEL", ret);
		c = (struct hwtimer_uring_cmd){
			.expires = delay[i], .clockid = CLOCK_MONOTONIC,
		};
		req.cqe.user_data = i;
		uring_sqe(HWTIMER_URING_ADD, &c, sizeof(c));
		ret = file.f_op->uring_cmd(&req.cmd, IO_URING_F_NONBLOCK); /* door: add */
		if (ret != (int)pick[i])
			die("HWTIMER_URING_ADD", ret);
	}
}

static noinline void measure_uheap(void)
{
	size_t i;

	for (i = 0; i < npairs; i++) {
		int ret;

		ret = uq_cancel(&uq, pick[i] - 1); /* door: cancel */
		if (ret)
			die("uq_cancel()", ret);
		ret = uq_add(&uq, pick[i] - 1, uq_base + delay[i]); /* door: add */
		if (ret)
			die("uq_add()", ret);
	}
}

/* The device: the module loaded, a file opened, PENDING timers added. */
static struct hwtimer_op *dev_setup(void)
{
	struct hwtimer_op *ops = calloc(FILL_CHUNK, sizeof(*ops));
	size_t i = 0;
	int ret;

	if (!kshim_misc)
		die("the module registered no device", 0);
	ret = kshim_misc->fops->open(&inode, &file);
	if (ret)
		die("open()", ret);
	file.f_op = kshim_misc->fops;
	while (i < pending) {
		struct hwtimer_batch b = {
			.ops = (uintptr_t)ops, .op_size = sizeof(*ops),
		};
		long k;

		for (; i < pending && b.count < FILL_CHUNK; b.count++, i++)
			ops[b.count] = op_add(delay_1_60());
		k = file.f_op->unlocked_ioctl(&file, HWTIMER_IOC_BATCH,
					      (uintptr_t)&b);
		if (k != b.count)
			die("filling the file", k);
		for (k = 0; k < b.count; k++)
			if (ops[k].result || ops[k].id != i - b.count + k + 1)
				die("filling the file: an ADD", ops[k].result);
	}
	return ops;
}

static void noop_fn(struct hwtimer *t)
{
}

static void kapi_setup(void)
{
	size_t i;

	ktimers = calloc(pending, sizeof(*ktimers));
	if (!ktimers)
		die("calloc", 0);
	for (i = 0; i < pending; i++) {
		hwtimer_init(&ktimers[i], noop_fn, HWTIMER_MONOTONIC);
		if (hwtimer_start(&ktimers[i], delay_1_60(), 0, HWTIMER_REL))
			die("hwtimer_start()", 0);
	}
}

static void uheap_setup(void)
{
	struct timespec ts;
	size_t i;

	if (uq_init(&uq, pending))
		die("uq_init()", 0);
	clock_gettime(CLOCK_MONOTONIC, &ts);
	uq_base = (u64)ts.tv_sec * SEC + (u64)ts.tv_nsec;
	for (i = 0; i < pending; i++)
		if (uq_add(&uq, i, uq_base + delay_1_60()))
			die("uq_add()", 0);
}

int main(int argc, char **argv)
{
	const char *door = "batch";
	struct hwtimer_op *ops = NULL;
	unsigned long seed = 1;
	size_t i;
	int c;

	pending = 100000;
	npairs = 100000;
	while ((c = getopt(argc, argv, "d:n:p:s:")) != -1) {
		switch (c) {
		case 'd': door = optarg; break;
		case 'n': pending = strtoul(optarg, NULL, 0); break;
		case 'p': npairs = strtoul(optarg, NULL, 0); break;
		case 's': seed = strtoul(optarg, NULL, 0); break;
		default:
			fprintf(stderr, "usage: op_bench -d batch|one|kapi|uring_batch|uring_one|uheap [-n PENDING] [-p PAIRS] [-s SEED]\n");
			return 2;
		}
	}
	if (!pending || !npairs)
		die("PENDING and PAIRS must be positive", 0);
	prandom_seed_state(&rnd, seed);
	pick = calloc(npairs, sizeof(*pick));
	delay = calloc(npairs, sizeof(*delay));
	if (!pick || !delay)
		die("calloc", 0);
	if (kshim_module_init())
		die("module_init", 0);

	if (!strcmp(door, "kapi"))
		kapi_setup();
	else if (!strcmp(door, "uheap"))
		uheap_setup();
	else
		ops = dev_setup();
	if (ops && (npairs > SIZE_MAX / 2 || 2 * PER_CALL > FILL_CHUNK))
		die("PAIRS", 0);
	for (i = 0; i < npairs; i++) {
		pick[i] = 1 + prandom_u32_state(&rnd) % pending;
		delay[i] = delay_1_60();
	}
	memset(&kshim_hrtimers, 0, sizeof(kshim_hrtimers));

	if (!strcmp(door, "batch"))
		measure_batch(ops);
	else if (!strcmp(door, "one"))
		measure_one();
	else if (!strcmp(door, "kapi"))
		measure_kapi();
	else if (!strcmp(door, "uring_batch"))
		measure_uring_batch(ops);
	else if (!strcmp(door, "uring_one"))
		measure_uring_one();
	else if (!strcmp(door, "uheap"))
		measure_uheap();
	else
		die("no such door", 0);

	printf("{\"door\":\"%s\",\"pending\":%zu,\"pairs\":%zu,\"per_call\":%u,"
	       "\"hrtimer_starts\":%lu,\"hrtimer_cancels\":%lu,\"pinned_after\":%lu}\n",
	       door, pending, npairs,
	       !strcmp(door, "batch") || !strcmp(door, "uring_batch") ? PER_CALL : 1,
	       kshim_hrtimers.starts, kshim_hrtimers.cancels, kshim_pins);
	return 0;
}
