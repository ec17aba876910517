// SPDX-License-Identifier: GPL-2.0
/*
 * ioctl fuzzing of /dev/hwtimer: at least 10^6 random calls, bounded in
 * time, from a printed seed (HWT_FUZZ_SEED reproduces a run, HWT_FUZZ_CALLS
 * and HWT_FUZZ_SECONDS bound it).
 *
 * Calls are drawn near and far from ours: our commands with random sizes,
 * directions and numbers next to them, foreign type bytes; structs that are
 * random bytes or plausible operations with edge values in every field;
 * pointers that are valid, NULL, unmapped, read-only, kernel addresses or
 * straddle into an unmapped page; batches of random entries and sizes;
 * random fds, eventfds and descriptors closed under the timers; read(),
 * poll(), dup() and close() mixed in. Every call must return a result or
 * one of the errnos the uapi documents, and the kernel must not splat (the
 * harness scans the console after the run).
 */
#define _GNU_SOURCE
#include <poll.h>
#include <stdlib.h>
#include <sys/eventfd.h>
#include <sys/mman.h>

#include "kselftest_harness.h"
#include "helpers.h"

static __u64 rs;
static unsigned long nomem;	/* allocations that failed: fault injection */

static __u64 rnd(void)
{
	rs ^= rs << 13;
	rs ^= rs >> 7;
	rs ^= rs << 17;
	return rs;
}

static __u64 edge_u64(__u64 max_delay)
{
	static const __u64 v[] = {
		0, 1, 2, 1023, 1024, 1ULL << 20, MS, SEC, 60 * SEC, 3600 * SEC,
		1ULL << 62, (1ULL << 63) - 1, 1ULL << 63, ~0ULL, ~0ULL - 1,
	};

	switch (rnd() % 6) {
	case 0:
		return max_delay + rnd() % 3 - 1;
	case 1:
		return rnd();
	case 2:
		return rnd() % (50 * MS);
	default:
		return v[rnd() % ARRAY_SIZE(v)];
	}
}

static __u32 edge_u32(void)
{
	static const __u32 v[] = {
		0, 1, 2, 3, 4, 7, 8, 0xff, 0x7fffffff, 0x80000000, 0xffffffff,
	};

	return rnd() % 3 ? v[rnd() % ARRAY_SIZE(v)] : (__u32)rnd();
}

struct arena {
	int fd, efd;
	__u64 max_delay;
	char *buf;		/* a read-write area... */
	char *ro;		/* ...a read-only page... */
	char *hole;		/* ...and an unmapped one right after buf */
	size_t buflen;
	__u32 ids[256];
};

static void random_op(struct arena *a, struct hwtimer_op *op, __u32 opcode)
{
	memset(op, 0, sizeof(*op));
	if (rnd() % 16 == 0) {
		__u64 *w = (__u64 *)op;
		size_t i;

		for (i = 0; i < sizeof(*op) / 8; i++)
			w[i] = rnd();
		return;
	}
	op->op = rnd() % 8 ? opcode : edge_u32();
	op->flags = rnd() % 4 ? (__u32)(rnd() % 256) : edge_u32();
	op->id = rnd() % 3 ? a->ids[rnd() % 256] : edge_u32();
	op->clockid = rnd() % 4 ? (__u32)(rnd() % 8) : edge_u32();
	op->eventfd = rnd() % 2 ? a->efd : (__s32)edge_u32();
	op->expires = edge_u64(a->max_delay);
	op->period = rnd() % 3 ? 0 : edge_u64(a->max_delay);
	op->slack = rnd() % 3 ? 0 : edge_u64(a->max_delay);
	op->cookie = rnd();
	if (rnd() % 32 == 0)
		op->gen = edge_u32();
	if (rnd() % 32 == 0)
		op->result = (__s32)edge_u32();
	if (rnd() % 32 == 0)
		op->padding = edge_u32();
	/* mostly plausible: the flags that operation takes */
	if (rnd() % 2)
		op->flags &= opcode == HWTIMER_OP_ADD ? 0x1f : 0xe3;
	if (!(op->flags & HWTIMER_F_EVENTFD) && rnd() % 2)
		op->eventfd = 0;
}

/* A user pointer: mostly good, sometimes anything but. */
static void *random_ptr(struct arena *a, size_t len)
{
	switch (rnd() % 16) {
	case 0:
		return NULL;
	case 1:
		return a->hole;
	case 2:
		return a->ro;
	case 3:
		return (void *)0xffff888000000000ULL;
	case 4:
		/* straddles into the unmapped page */
		return a->hole - (len > 8 ? len / 2 : 4);
	case 5:
		return (void *)(uintptr_t)rnd();
	default:
		return a->buf + (rnd() % 64) * 8;
	}
}

static const unsigned long cmds[] = {
	HWTIMER_IOC_INFO, HWTIMER_IOC_ADD, HWTIMER_IOC_MOD, HWTIMER_IOC_CANCEL,
	HWTIMER_IOC_GET, HWTIMER_IOC_BATCH, HWTIMER_IOC_DRAIN,
	HWTIMER_IOC_SET_EVENTFD, HWTIMER_IOC_SLACK, HWTIMER_IOC_RECORD_SIZE,
	HWTIMER_IOC_RING_SETUP, HWTIMER_IOC_RING_FLUSH,
};

static unsigned long random_cmd(void)
{
	unsigned long cmd = cmds[rnd() % ARRAY_SIZE(cmds)];

	switch (rnd() % 10) {
	case 0:		/* another size */
		return _IOC(_IOC_DIR(cmd), _IOC_TYPE(cmd), _IOC_NR(cmd), rnd() % 512);
	case 1:		/* another direction */
		return _IOC(rnd() % 4, _IOC_TYPE(cmd), _IOC_NR(cmd), _IOC_SIZE(cmd));
	case 2:		/* a number next to ours */
		return _IOC(_IOC_DIR(cmd), _IOC_TYPE(cmd), rnd() % 24, _IOC_SIZE(cmd));
	case 3:		/* another type byte */
		return _IOC(_IOC_DIR(cmd), rnd() % 256, _IOC_NR(cmd), _IOC_SIZE(cmd));
	case 4:
		return (unsigned long)(__u32)rnd();
	default:
		return cmd;
	}
}

static int documented(int err)
{
	switch (err) {
	case EINVAL: case EFAULT: case ENOTTY: case E2BIG: case ENOENT:
	case ERANGE: case EBADF: case ENOSPC: case EDQUOT: case ENOMEM:
	case EAGAIN: case EINTR: case ESTALE: case ENODEV: case EBUSY:
		return 1;
	}
	return 0;
}

static void fuzz_one(struct arena *a, long *bad_errno)
{
	unsigned long cmd = random_cmd();
	size_t size = _IOC_SIZE(cmd) ? _IOC_SIZE(cmd) : 64;
	void *arg = random_ptr(a, size);
	long ret;
	int fd;

	/* fill what the pointer points at, when it points at our buffer */
	if ((char *)arg >= a->buf && (char *)arg + 4096 <= a->buf + a->buflen) {
		switch (_IOC_NR(cmd)) {
		case 0x01: case 0x02: case 0x03:
			random_op(a, arg, _IOC_NR(cmd));
			break;
		case 0x05: {
			struct hwtimer_batch *b = arg;
			struct hwtimer_op *ops = (void *)(a->buf + 8192);
			__u32 i, n = rnd() % 300;

			for (i = 0; i < n && i < 400; i++)
				random_op(a, &ops[i], 1 + rnd() % 3);
			memset(b, 0, sizeof(*b));
			b->ops = rnd() % 8 ? (uintptr_t)ops : (uintptr_t)random_ptr(a, 64);
			b->count = rnd() % 16 ? n : edge_u32();
			b->op_size = rnd() % 8 ? sizeof(*ops) : edge_u32() % 8200;
			b->flags = rnd() % 4 ? 0 : edge_u32();
			break;
		}
		case 0x06: {
			struct hwtimer_drain *d = arg;

			memset(d, 0, sizeof(*d));
			d->ids = rnd() % 4 ? (uintptr_t)(a->buf + 8192) :
					     (uintptr_t)random_ptr(a, 4);
			d->max = rnd() % 4 ? (__u32)(rnd() % 1024) : edge_u32();
			if (rnd() % 16 == 0)
				d->flags = edge_u32();
			break;
		}
		default: {
			__u64 *w = arg;
			size_t i;

			for (i = 0; i < 16; i++)
				w[i] = rnd() % 2 ? 0 : rnd();
		}
		}
	}
	/* other descriptors: none, an eventfd, a number not open */
	fd = a->fd;
	if (rnd() % 64 == 0)
		fd = rnd() % 3 == 0 ? -1 : rnd() % 2 ? a->efd : 1000;
	ret = t_ioctl(fd, cmd, arg);
	if (ret < 0 && !documented((int)-ret))
		*bad_errno = ret;
	nomem += ret == -ENOMEM;
	/* remember ids that came back, for later operations to hit */
	if (!ret && (_IOC_NR(cmd) == 0x01) && (char *)arg >= a->buf &&
	    (char *)arg < a->buf + a->buflen)
		a->ids[rnd() % 256] = ((struct hwtimer_op *)arg)->id;
}

/* Under fault injection open() itself may fail: try again. */
static int open_retry(void)
{
	int fd;

	while ((fd = t_open()) < 0 && errno == ENOMEM)
		;
	return fd;
}

FIXTURE(fuzz) {
	struct arena a;
};

FIXTURE_SETUP(fuzz)
{
	struct hwtimer_info info;
	char *m;

	if (!hwt_device_present())
		SKIP(return, HWT_NO_DEVICE);
	self->a.fd = open_retry();
	ASSERT_LE(0, self->a.fd);
	ASSERT_EQ(0, t_set_nonblock(self->a.fd));
	while (t_ioctl(self->a.fd, HWTIMER_IOC_INFO, &info) == -ENOMEM)
		;
	self->a.max_delay = info.max_delay_ns;
	self->a.efd = eventfd(0, EFD_NONBLOCK);
	self->a.buflen = 16 * 4096;
	m = mmap(NULL, self->a.buflen + 2 * 4096, PROT_READ | PROT_WRITE,
		 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	ASSERT_NE(MAP_FAILED, m);
	self->a.buf = m;
	self->a.hole = m + self->a.buflen;
	self->a.ro = m + self->a.buflen + 4096;
	ASSERT_EQ(0, munmap(self->a.hole, 4096));
	ASSERT_EQ(0, mprotect(self->a.ro, 4096, PROT_READ));
}

FIXTURE_TEARDOWN(fuzz)
{
	close(self->a.efd);
	close(self->a.fd);
}

/*
 * The run ends by itself after HWT_FUZZ_CALLS calls or HWT_FUZZ_SECONDS
 * (600 s here, 3000 s under make check-long): the harness's own timeout
 * must outlast both, or a slow kernel is killed mid-run as a failure.
 * init.sh's TEST_TIMEOUT bounds the whole binary from outside.
 */
TEST_F_TIMEOUT(fuzz, million_random_calls, 3600)
{
	const char *env = getenv("HWT_FUZZ_SEED");
	__u64 seed = env ? strtoull(env, NULL, 0) : (__u64)time(NULL) | 1;
	unsigned long calls, target, i;
	unsigned int secs;
	long bad = 0;
	__u64 end;

	env = getenv("HWT_FUZZ_CALLS");
	target = env ? strtoul(env, NULL, 0) : 1000000;
	env = getenv("HWT_FUZZ_SECONDS");
	secs = env ? (unsigned int)atoi(env) : 600;
	rs = seed;
	ksft_print_msg("fuzz: seed %llu (HWT_FUZZ_SEED), %lu calls or %u s\n",
		       (unsigned long long)seed, target, secs);
	end = t_now_ns(CLOCK_MONOTONIC) + secs * SEC;

	for (calls = 0; calls < target; calls++) {
		struct hwtimer_record r[8];
		struct pollfd p = { .fd = self->a.fd, .events = POLLIN };

		fuzz_one(&self->a, &bad);
		if (bad) {
			TH_LOG("call %lu returned the undocumented %ld (seed %llu)",
			       calls, bad, (unsigned long long)seed);
			break;
		}
		switch (rnd() % 64) {
		case 0:
			/* read() with random sizes and pointers */
			i = read(self->a.fd, random_ptr(&self->a, 48), rnd() % 512);
			break;
		case 1:
			poll(&p, 1, 0);
			break;
		case 2:
			/* the eventfd goes away under the timers that hold it */
			close(self->a.efd);
			self->a.efd = eventfd(0, EFD_NONBLOCK);
			break;
		case 3:
			i = dup(self->a.fd);
			close((int)i);
			break;
		case 4:
			while (read(self->a.fd, r, sizeof(r)) > 0)
				;
			break;
		}
		if (!(calls % 20000)) {
			/* keep the file small: a new one, the old one closed */
			if (rnd() % 2) {
				close(self->a.fd);
				self->a.fd = open_retry();
				ASSERT_LE(0, self->a.fd);
				ASSERT_EQ(0, t_set_nonblock(self->a.fd));
			} else {
				t_ioctl(self->a.fd, HWTIMER_IOC_DRAIN,
					&(struct hwtimer_drain){ 0 });
			}
			if (t_now_ns(CLOCK_MONOTONIC) > end)
				break;
		}
	}
	ksft_print_msg("fuzz: %lu calls made, %lu failed with ENOMEM\n", calls, nomem);
	EXPECT_EQ(0, bad);
	/* under fault injection, failures must have been hit */
	if (getenv("HWT_EXPECT_NOMEM"))
		EXPECT_LT(0UL, nomem);
	/* the run may end on time on a slow kernel; say so, do not hide it */
	if (calls < target)
		TH_LOG("time bound hit after %lu of %lu calls", calls, target);
	EXPECT_LE(calls, target);
	EXPECT_TRUE(calls == target || t_now_ns(CLOCK_MONOTONIC) > end);
}

HWT_HARNESS_MAIN
