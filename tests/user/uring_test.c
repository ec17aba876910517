// SPDX-License-Identifier: GPL-2.0
/*
 * /dev/hwtimer through io_uring: ADD, MOD and CANCEL as
 * IORING_OP_URING_CMD, each errno path on its own, the whole-op form on an
 * SQE128 ring, a bad fd and a bad cmd_op, the commands of a submission
 * running in order, beside another ring's and leaving the CPU to others,
 * what a submitting thread that exits leaves,
 * timers outliving the ring that made them, and io_uring switched off by
 * sysctl.
 */
#define _GNU_SOURCE
#include <liburing.h>
#include <poll.h>
#include <pthread.h>
#include <sys/eventfd.h>
#include <sys/mman.h>

#include "kselftest_harness.h"
#include "helpers.h"
#include "libhwtimer.h"
#include "uring_fixture.h"

HWT_URING_FIXTURE(uring)

static int uring_add(struct io_uring *ring, int fd, uint64_t expires,
		     unsigned int flags, uint64_t cookie)
{
	hwtimer_uring_prep_add(io_uring_get_sqe(ring), fd, CLOCK_MONOTONIC,
			       expires, flags, cookie);
	return submit_one(ring, NULL);
}

/* a short command with its 16 bytes as given */
static int uring_raw(struct io_uring *ring, int fd, uint32_t cmd_op,
		     const struct hwtimer_uring_cmd *c)
{
	struct io_uring_sqe *sqe = io_uring_get_sqe(ring);

	hwtimer_uring_prep_cancel(sqe, fd, 0, 0);
	sqe->cmd_op = cmd_op;
	memcpy(sqe->cmd, c, sizeof(*c));
	return submit_one(ring, NULL);
}

TEST_F(uring, info_says_so)
{
	struct hwtimer_info info;

	ASSERT_EQ(0, t_ioctl(self->fd, HWTIMER_IOC_INFO, &info));
	EXPECT_TRUE(info.features & HWTIMER_FEAT_URING_CMD);
}

/* ADD: the CQE carries the id, and the timer's cookie is the user_data */
TEST_F(uring, add_returns_the_id_and_keeps_user_data)
{
	struct hwtimer_get g;
	int id;

	id = uring_add(&self->ring, self->fd, SEC, 0, 0xfeedULL << 32);
	ASSERT_LT(0, id);
	ASSERT_EQ(0, t_get(self->fd, id, &g));
	EXPECT_EQ(HWTIMER_STATE_PENDING, g.state);
	EXPECT_EQ(0xfeedULL << 32, g.cookie);
	EXPECT_EQ(CLOCK_MONOTONIC, g.clockid);
	/* ids stay dense across both paths */
	EXPECT_EQ(id + 1, uring_add(&self->ring, self->fd, SEC, 0, 1));
}

/* MOD and CANCEL give what their ioctls return */
TEST_F(uring, mod_and_cancel_report_the_arming)
{
	struct io_uring_sqe *sqe;
	uint64_t ud = 0;
	int id;

	id = uring_add(&self->ring, self->fd, SEC, 0, 1);
	ASSERT_LT(0, id);
	sqe = io_uring_get_sqe(&self->ring);
	hwtimer_uring_prep_mod(sqe, self->fd, id, 2 * SEC, 0, 77);
	EXPECT_EQ(1, submit_one(&self->ring, &ud));	/* was pending */
	EXPECT_EQ(77, ud);
	sqe = io_uring_get_sqe(&self->ring);
	hwtimer_uring_prep_cancel(sqe, self->fd, id, 78);
	EXPECT_EQ(1, submit_one(&self->ring, &ud));
	EXPECT_EQ(78, ud);
	/* CANCEL deletes the timer */
	EXPECT_EQ(-ENOENT, t_get_state(self->fd, id));
	/* a MOD of a fired timer whose record waits reports 2 */
	id = uring_add(&self->ring, self->fd, MS, 0, 1);
	ASSERT_LT(0, id);
	while (t_get_state(self->fd, id) != HWTIMER_STATE_FIRED)
		usleep(1000);
	sqe = io_uring_get_sqe(&self->ring);
	hwtimer_uring_prep_mod(sqe, self->fd, id, SEC, 0, 0);
	EXPECT_EQ(2, submit_one(&self->ring, NULL));
}

/* the timer fires and its record reads as any other */
TEST_F(uring, an_added_timer_fires)
{
	struct hwtimer_record rec;
	int id;

	id = uring_add(&self->ring, self->fd, MS, 0, 4242);
	ASSERT_LT(0, id);
	ASSERT_EQ(1, t_read(self->fd, &rec, 1));
	EXPECT_EQ(id, rec.id);
	EXPECT_EQ(4242, rec.cookie);
}

TEST_F(uring, unknown_ids_are_enoent)
{
	struct io_uring_sqe *sqe = io_uring_get_sqe(&self->ring);

	hwtimer_uring_prep_mod(sqe, self->fd, 999, SEC, 0, 0);
	EXPECT_EQ(-ENOENT, submit_one(&self->ring, NULL));
	sqe = io_uring_get_sqe(&self->ring);
	hwtimer_uring_prep_cancel(sqe, self->fd, 999, 0);
	EXPECT_EQ(-ENOENT, submit_one(&self->ring, NULL));
}

TEST_F(uring, a_bad_cmd_op_is_enotty)
{
	struct hwtimer_uring_cmd c = { 0 };

	EXPECT_EQ(-ENOTTY, uring_raw(&self->ring, self->fd, 0, &c));
	EXPECT_EQ(-ENOTTY, uring_raw(&self->ring, self->fd, HWTIMER_IOC_ADD, &c));
	EXPECT_EQ(-ENOTTY, uring_raw(&self->ring, self->fd,
				     HWTIMER_URING_ADD + 0x10, &c));
}

TEST_F(uring, padding_is_einval)
{
	struct hwtimer_uring_cmd c = { .expires = SEC, .padding = 1 };

	EXPECT_EQ(-EINVAL, uring_raw(&self->ring, self->fd, HWTIMER_URING_ADD, &c));
}

TEST_F(uring, an_add_with_an_id_is_einval)
{
	struct hwtimer_uring_cmd c = { .expires = SEC, .id = 3,
				       .clockid = CLOCK_MONOTONIC };

	EXPECT_EQ(-EINVAL, uring_raw(&self->ring, self->fd, HWTIMER_URING_ADD, &c));
}

TEST_F(uring, a_cancel_with_a_deadline_is_einval)
{
	struct hwtimer_uring_cmd c = { .clockid = CLOCK_MONOTONIC };
	int id = uring_add(&self->ring, self->fd, SEC, 0, 0);

	ASSERT_LT(0, id);
	c.id = id;
	c.expires = 5;
	EXPECT_EQ(-EINVAL, uring_raw(&self->ring, self->fd, HWTIMER_URING_CANCEL, &c));
	EXPECT_EQ(HWTIMER_STATE_PENDING, t_get_state(self->fd, id));
}

/* flags whose fields the short form lacks */
TEST_F(uring, long_form_flags_are_einval)
{
	const unsigned int flags[] = { HWTIMER_F_EVENTFD, HWTIMER_F_PERIOD,
				       HWTIMER_F_GEN };
	unsigned int i;

	for (i = 0; i < 3; i++) {
		struct hwtimer_uring_cmd c = { .expires = SEC, .flags = flags[i],
					       .clockid = CLOCK_MONOTONIC };

		EXPECT_EQ(-EINVAL, uring_raw(&self->ring, self->fd,
					     HWTIMER_URING_ADD, &c));
	}
}

/* the ioctl's own checks apply: a bad clock, CLOCK_REALTIME unasked */
TEST_F(uring, the_ops_checks_apply)
{
	struct hwtimer_uring_cmd c = { .expires = SEC, .clockid = 42 };

	EXPECT_EQ(-EINVAL, uring_raw(&self->ring, self->fd, HWTIMER_URING_ADD, &c));
	c.clockid = CLOCK_REALTIME;
	EXPECT_EQ(-EINVAL, uring_raw(&self->ring, self->fd, HWTIMER_URING_ADD, &c));
	c.flags = HWTIMER_F_REALTIME;
	EXPECT_LT(0, uring_raw(&self->ring, self->fd, HWTIMER_URING_ADD, &c));
	c.clockid = CLOCK_MONOTONIC;
	c.flags = 0;
	c.expires = ~0ULL;
	EXPECT_EQ(-ERANGE, uring_raw(&self->ring, self->fd, HWTIMER_URING_ADD, &c));
}

/* the whole-op form needs an SQE128 ring */
TEST_F(uring, the_op_form_needs_sqe128)
{
	struct hwtimer_op op = { .op = HWTIMER_OP_ADD, .clockid = CLOCK_MONOTONIC,
				 .expires = SEC };
	struct io_uring_sqe *sqe = io_uring_get_sqe(&self->ring);

	/* on a 64-byte ring, only the first 16 bytes are the command's */
	hwtimer_uring_prep_cancel(sqe, self->fd, 0, 0);
	sqe->cmd_op = HWTIMER_URING_OP;
	memcpy(sqe->cmd, &op, 16);
	EXPECT_EQ(-EINVAL, submit_one(&self->ring, NULL));
}

/* with SQE128, every field: a periodic timer with an eventfd */
TEST_F(uring, the_op_form_carries_everything)
{
	struct hwtimer_op op = { .op = HWTIMER_OP_ADD, .clockid = CLOCK_MONOTONIC,
				 .expires = 2 * MS, .period = 2 * MS,
				 .cookie = 31 };
	struct pollfd pfd = { .events = POLLIN };
	struct io_uring big;
	struct hwtimer_get g;
	uint64_t count = 0;
	int id;

	pfd.fd = eventfd(0, EFD_CLOEXEC);
	ASSERT_LE(0, pfd.fd);
	op.flags = HWTIMER_F_EVENTFD;
	op.eventfd = pfd.fd;
	ASSERT_EQ(0, io_uring_queue_init(8, &big, IORING_SETUP_SQE128));
	hwtimer_uring_prep_op(io_uring_get_sqe(&big), self->fd, &op, 5);
	id = submit_one(&big, NULL);
	ASSERT_LT(0, id);
	ASSERT_EQ(0, t_get(self->fd, id, &g));
	EXPECT_EQ(2 * MS, g.period);
	EXPECT_EQ(31, g.cookie);
	EXPECT_TRUE(g.timer_flags & HWTIMER_F_EVENTFD);
	/* and its eventfd is signalled when it fires */
	ASSERT_EQ(1, poll(&pfd, 1, t_ms(5000)));
	ASSERT_EQ(sizeof(count), read(pfd.fd, &count, sizeof(count)));
	EXPECT_LE(1, count);
	close(pfd.fd);
	/* MOD and CANCEL in the long form report as the ioctls do */
	memset(&op, 0, sizeof(op));
	op.op = HWTIMER_OP_CANCEL;
	op.id = id;
	hwtimer_uring_prep_op(io_uring_get_sqe(&big), self->fd, &op, 6);
	EXPECT_LE(0, submit_one(&big, NULL));
	/* and an op the ioctl refuses is refused here */
	op.op = 9;
	hwtimer_uring_prep_op(io_uring_get_sqe(&big), self->fd, &op, 7);
	EXPECT_EQ(-EINVAL, submit_one(&big, NULL));
	io_uring_queue_exit(&big);
}

/* bytes after the op in SQE128 are a newer, larger op's: E2BIG, none added */
TEST_F(uring, the_op_form_refuses_a_larger_op)
{
	struct hwtimer_op op = { .op = HWTIMER_OP_ADD, .clockid = CLOCK_MONOTONIC,
				 .expires = SEC };
	struct io_uring_sqe *sqe;
	struct io_uring big;

	ASSERT_EQ(0, io_uring_queue_init(8, &big, IORING_SETUP_SQE128));
	sqe = io_uring_get_sqe(&big);
	hwtimer_uring_prep_op(sqe, self->fd, &op, 5);
	((uint8_t *)sqe->cmd)[sizeof(op) + 15] = 1;
	EXPECT_EQ(-E2BIG, submit_one(&big, NULL));
	EXPECT_EQ(-ENOENT, t_get_state(self->fd, 1));
	/* zeroes there are what an op of this size has: it runs */
	hwtimer_uring_prep_op(io_uring_get_sqe(&big), self->fd, &op, 6);
	EXPECT_LT(0, submit_one(&big, NULL));
	io_uring_queue_exit(&big);
}

/* a command on an fd that is not /dev/hwtimer, or no fd at all */
TEST_F(uring, a_bad_fd_fails)
{
	int p[2];

	hwtimer_uring_prep_cancel(io_uring_get_sqe(&self->ring), 1000, 1, 0);
	EXPECT_EQ(-EBADF, submit_one(&self->ring, NULL));
	ASSERT_EQ(0, pipe(p));
	hwtimer_uring_prep_cancel(io_uring_get_sqe(&self->ring), p[0], 1, 0);
	EXPECT_EQ(-EOPNOTSUPP, submit_one(&self->ring, NULL));
	close(p[0]);
	close(p[1]);
}

/* many commands in one submission: one CQE each, in any order */
TEST_F(uring, a_batch_of_commands)
{
	struct io_uring_cqe *cqe;
	unsigned int i, seen = 0;

	for (i = 0; i < 32; i++)
		hwtimer_uring_prep_add(io_uring_get_sqe(&self->ring), self->fd,
				       CLOCK_MONOTONIC, SEC, 0, i);
	ASSERT_EQ(32, io_uring_submit(&self->ring));
	for (i = 0; i < 32; i++) {
		ASSERT_EQ(0, io_uring_wait_cqe(&self->ring, &cqe));
		EXPECT_LT(0, cqe->res);
		seen |= 1U << cqe->user_data;
		io_uring_cqe_seen(&self->ring, cqe);
	}
	EXPECT_EQ(0xffffffffu, seen);
}

/*
 * A submission longer than a chunk runs in order: each timer's MOD comes
 * before its CANCEL in the SQ, and both find it pending; a bad id among
 * them fails alone.
 */
TEST_F(uring, a_submission_runs_in_order)
{
	enum { N = 150 };
	static int res[3 * N + 1];
	struct io_uring r;
	uint32_t ids[N];
	unsigned int i;

	ASSERT_EQ(0, io_uring_queue_init(512, &r, 0));
	for (i = 0; i < N; i++)
		hwtimer_uring_prep_add(io_uring_get_sqe(&r), self->fd,
				       CLOCK_MONOTONIC, SEC, 0, i);
	ASSERT_EQ(N, io_uring_submit(&r));
	ASSERT_EQ(0, reap(&r, res, N));
	for (i = 0; i < N; i++) {
		ASSERT_LT(0, res[i]);
		ids[i] = res[i];
		EXPECT_TRUE(i == 0 || ids[i] != ids[i - 1]);
	}
	for (i = 0; i < N; i++) {
		hwtimer_uring_prep_mod(io_uring_get_sqe(&r), self->fd, ids[i],
				       2 * SEC, 0, 2 * i);
		hwtimer_uring_prep_cancel(io_uring_get_sqe(&r), self->fd,
					  ids[i], 2 * i + 1);
		if (i == N / 2)
			hwtimer_uring_prep_cancel(io_uring_get_sqe(&r),
						  self->fd, 0x7ffffff0, 2 * N);
	}
	ASSERT_EQ(2 * N + 1, io_uring_submit(&r));
	ASSERT_EQ(0, reap(&r, res, 2 * N + 1));
	for (i = 0; i < 2 * N; i++)
		EXPECT_EQ(1, res[i]) TH_LOG("command %u", i);
	EXPECT_EQ(-ENOENT, res[2 * N]);
	EXPECT_EQ(0, t_fdinfo_u64(self->fd, "timers"));
	io_uring_queue_exit(&r);
}

/*
 * A thread that submits @n commands on @ring (set up in the thread with @p
 * if given) and exits without waiting: ADDs, or CANCELs of a missing id.
 */
struct exiting {
	struct io_uring *ring;
	struct io_uring_params *p;
	int fd;
	int n;			/* 8 if 0 */
	bool cancel;
	int submitted;
};

static void *submit_and_exit(void *arg)
{
	struct exiting *e = arg;
	int i, n = e->n ?: 8;

	if (e->p && io_uring_queue_init_params(8, e->ring, e->p))
		return NULL;
	for (i = 0; i < n; i++) {
		if (e->cancel)
			hwtimer_uring_prep_cancel(io_uring_get_sqe(e->ring),
						  e->fd, 1U << 30, i);
		else
			hwtimer_uring_prep_add(io_uring_get_sqe(e->ring), e->fd,
					       CLOCK_MONOTONIC, 60 * SEC, 0, i);
	}
	e->submitted = io_uring_submit(e->ring);
	return NULL;
}

/*
 * One submission of 5,120 commands, which run in order as io_uring issues
 * them: each CANCEL finds the timer that the ADD before it created, and
 * each ADD gets the id the CANCEL before it freed (the id freed last is
 * handed out next).
 */
static void long_queue(struct __test_metadata *_metadata, int fd,
		       struct io_uring *ring)
{
	enum { N = 5 * 1024 };
	static int res[N];
	uint32_t id;
	int i;

	ASSERT_EQ(0, t_add(fd, 0, CLOCK_MONOTONIC, 60 * SEC, 0, 0, &id));
	for (i = 0; i < N; i += 2) {
		hwtimer_uring_prep_cancel(io_uring_get_sqe(ring), fd, id, i);
		hwtimer_uring_prep_add(io_uring_get_sqe(ring), fd,
				       CLOCK_MONOTONIC, 60 * SEC, 0, i + 1);
	}
	ASSERT_EQ(N, io_uring_submit(ring));
	ASSERT_EQ(0, reap(ring, res, N));
	for (i = 0; i < N; i++)
		ASSERT_EQ(i % 2 ? (int)id : 1, res[i]) TH_LOG("command %d", i);
	EXPECT_EQ(HWTIMER_STATE_PENDING, t_get_state(fd, id));
}

TEST_F(uring, a_long_submission_runs_in_order)
{
	struct io_uring_params p = {
		.cq_entries = 8192, .flags = IORING_SETUP_CQSIZE,
	};
	struct io_uring r;

	ASSERT_EQ(0, io_uring_queue_init_params(8192, &r, &p));
	long_queue(_metadata, self->fd, &r);
	io_uring_queue_exit(&r);
}

/*
 * A thread on the second CPU that cancels a missing id on the file, one
 * command per submission, until told to stop: on a DEFER_TASKRUN ring it
 * never waits for, or on an ordinary one.
 */
struct hammer {
	int fd;
	bool defer;
	volatile bool stop;
	volatile int ran;	/* commands that completed */
	bool stuck;		/* one on @defer had no completion at once */
	int bad;		/* completions other than ENOENT */
	struct io_uring ring;
	bool up;
};

static void *hammer(void *arg)
{
	struct io_uring_params p = {
		.flags = IORING_SETUP_SINGLE_ISSUER |
			 IORING_SETUP_DEFER_TASKRUN,
	};
	struct hammer *h = arg;
	struct io_uring_cqe *cqe;

	if (!h->defer)
		p.flags = 0;
	if (t_pin_cpu(1) || io_uring_queue_init_params(8, &h->ring, &p))
		goto out;
	h->up = true;
	while (!h->stop) {
		hwtimer_uring_prep_cancel(io_uring_get_sqe(&h->ring), h->fd,
					  999999, 0);
		if (io_uring_submit(&h->ring) != 1)
			break;
		if (h->defer ? io_uring_peek_cqe(&h->ring, &cqe) :
			       io_uring_wait_cqe(&h->ring, &cqe)) {
			/* left for a wait to run: it did not run as issued */
			h->stuck = true;
			break;
		}
		h->bad += cqe->res != -ENOENT;
		io_uring_cqe_seen(&h->ring, cqe);
		h->ran++;
	}
out:
	h->stop = true;
	return NULL;
}

static void long_queue_beside(struct __test_metadata *_metadata, int fd,
			      bool defer)
{
	struct io_uring_params p = {
		.cq_entries = 8192, .flags = IORING_SETUP_CQSIZE,
	};
	struct hammer h = { .fd = fd, .defer = defer };
	struct io_uring r;
	pthread_t th;

	if (sysconf(_SC_NPROCESSORS_ONLN) < 2)
		SKIP(return, "needs two CPUs");
	ASSERT_EQ(0, t_pin_cpu(0));
	ASSERT_EQ(0, io_uring_queue_init_params(8192, &r, &p));
	ASSERT_EQ(0, pthread_create(&th, NULL, hammer, &h));
	while (!h.ran && !h.stop)
		usleep(1000);
	if (!h.up) {
		pthread_join(th, NULL);
		SKIP(return, "no IORING_SETUP_DEFER_TASKRUN here");
	}
	long_queue(_metadata, fd, &r);
	h.stop = true;
	ASSERT_EQ(0, pthread_join(th, NULL));
	TH_LOG("the other ring's thread ran %d commands%s", h.ran,
	       h.stuck ? ", then one stayed queued" : "");
	EXPECT_FALSE(h.stuck);
	EXPECT_EQ(0, h.bad);
	io_uring_queue_exit(&h.ring);
	io_uring_queue_exit(&r);
}

/*
 * Another ring's commands hold nothing up (review R2): a command of a
 * DEFER_TASKRUN ring that is never waited for used to stay queued on the
 * file for ever, and another ring's run of 5,120 commands beside it went
 * wrong. Every command completes as it is issued now, on both rings.
 */
TEST_F(uring, a_defer_taskrun_ring_nobody_waits_on_holds_nothing_up)
{
	long_queue_beside(_metadata, self->fd, true);
}

/*
 * Two rings of two threads at once, on two CPUs: every command of both
 * completes, once, in order, with its own result.
 */
TEST_F(uring, two_rings_at_once)
{
	long_queue_beside(_metadata, self->fd, false);
}

/* The calling thread's involuntary context switches so far. */
static long nivcsw(void)
{
	FILE *f = fopen("/proc/thread-self/status", "r");
	char line[128];
	long n = -1;

	while (f && fgets(line, sizeof(line), f))
		if (sscanf(line, "nonvoluntary_ctxt_switches: %ld", &n) == 1)
			break;
	if (f)
		fclose(f);
	return n;
}

static void *spin_on_cpu0(void *arg)
{
	volatile bool *stop = arg;

	if (!t_pin_cpu(0))
		while (!*stop)
			;
	return NULL;
}

/*
 * 32,768 commands in one submission (the most a ring takes), beside a task
 * that wants the same CPU, on every preemption model: the run gives the
 * CPU up between chunks, so the submitter is switched out several times
 * inside the one system call that submits and reaps them all (review R2).
 * When commands were queued and run from task work, a DEFER_TASKRUN ring
 * ran them in a loop with no resched point, and at preempt=none the
 * submitter kept the CPU for the whole run; each command now gives it up
 * first if it should (hwt_uring_run()). What
 * counts is the kernel's count of the submitter's involuntary switches,
 * which only a resched point or a preemption makes; the return to user
 * space may add one.
 */
static void long_submission(struct __test_metadata *_metadata, int fd,
			    unsigned int flags)
{
	enum { N = 32768 };
	struct io_uring_params p = { .flags = flags };
	struct io_uring_cqe *cqe;
	volatile bool stop = false;
	long before, switched;
	struct io_uring r;
	uint64_t t0, took;
	pthread_t th;
	int i, bad = 0;
	uint32_t id;

	if (io_uring_queue_init_params(N, &r, &p))
		SKIP(return, "no such ring here (flags %#x)", flags);
	ASSERT_EQ(0, t_pin_cpu(0));
	/* each CANCEL frees the id that the ADD after it takes again */
	ASSERT_EQ(0, t_add(fd, 0, CLOCK_MONOTONIC, 60 * SEC, 0, 0, &id));
	for (i = 0; i < N; i += 2) {
		hwtimer_uring_prep_cancel(io_uring_get_sqe(&r), fd, id, i);
		hwtimer_uring_prep_add(io_uring_get_sqe(&r), fd,
				       CLOCK_MONOTONIC, 60 * SEC, 0, i + 1);
	}
	ASSERT_EQ(0, pthread_create(&th, NULL, spin_on_cpu0, (void *)&stop));
	usleep(10 * 1000);
	before = nivcsw();
	t0 = t_now_ns(CLOCK_MONOTONIC);
	ASSERT_EQ(N, io_uring_submit_and_wait(&r, N));
	took = t_now_ns(CLOCK_MONOTONIC) - t0;
	switched = nivcsw() - before;
	stop = true;
	pthread_join(th, NULL);
	for (i = 0; i < N; i++) {
		ASSERT_EQ(0, io_uring_peek_cqe(&r, &cqe));
		bad += cqe->res != (cqe->user_data % 2 ? (int)id : 1);
		io_uring_cqe_seen(&r, cqe);
	}
	EXPECT_EQ(0, bad);
	TH_LOG("%d commands in %.1f ms, switched out %ld times", N,
	       took / 1e6, switched);
	ASSERT_LE(0, before);
	EXPECT_LE(3, switched);
	io_uring_queue_exit(&r);
}

TEST_F_TIMEOUT(uring, a_long_submission_leaves_the_cpu, 300)
{
	long_submission(_metadata, self->fd, 0);
}

TEST_F_TIMEOUT(uring, a_long_defer_taskrun_submission_leaves_the_cpu, 300)
{
	long_submission(_metadata, self->fd, IORING_SETUP_SINGLE_ISSUER |
			IORING_SETUP_DEFER_TASKRUN);
}

/* Submit one HWTIMER_URING_BATCH as prepared, and return its res. */
/*
 * A thread that submits and exits without waiting: on an ordinary ring its
 * commands ran before it left the system call, and another thread reaps
 * their completions.
 */
TEST_F(uring, an_exiting_thread_leaves_its_completions)
{
	struct exiting e = { .ring = &self->ring, .fd = self->fd };
	pthread_t th;
	int res[8], i;

	ASSERT_EQ(0, pthread_create(&th, NULL, submit_and_exit, &e));
	ASSERT_EQ(0, pthread_join(th, NULL));
	ASSERT_EQ(8, e.submitted);
	ASSERT_EQ(0, reap(&self->ring, res, 8));
	for (i = 0; i < 8; i++) {
		ASSERT_LT(0, res[i]);
		EXPECT_EQ(HWTIMER_STATE_PENDING, t_get_state(self->fd, res[i]));
	}
	EXPECT_EQ(8, t_fdinfo_u64(self->fd, "timers"));
}

/*
 * On a DEFER_TASKRUN ring, deferred work runs only when the submitter
 * waits: commands queued there, by a thread that exits without waiting,
 * never ran and had no completion until the ring went. They run as they
 * are issued instead, so the thread leaves its completions and its
 * timers, as on an ordinary ring.
 */
TEST_F(uring, a_defer_taskrun_submitter_that_exits_leaves_its_completions)
{
	struct io_uring_params p = {
		.flags = IORING_SETUP_SINGLE_ISSUER |
			 IORING_SETUP_DEFER_TASKRUN,
	};
	struct io_uring d;
	struct exiting e = { .ring = &d, .p = &p, .fd = self->fd };
	struct io_uring_cqe *cqe;
	pthread_t th;
	int n = 0;

	ASSERT_EQ(0, pthread_create(&th, NULL, submit_and_exit, &e));
	ASSERT_EQ(0, pthread_join(th, NULL));
	if (!e.submitted)
		SKIP(return, "no IORING_SETUP_DEFER_TASKRUN here");
	ASSERT_EQ(8, e.submitted);
	/* posted before the submission returned: no other thread may wait */
	while (!io_uring_peek_cqe(&d, &cqe)) {
		EXPECT_EQ(n, cqe->user_data);
		EXPECT_LT(0, cqe->res);
		EXPECT_EQ(HWTIMER_STATE_PENDING,
			  t_get_state(self->fd, cqe->res));
		io_uring_cqe_seen(&d, cqe);
		n++;
	}
	EXPECT_EQ(8, n);
	EXPECT_EQ(8, t_fdinfo_u64(self->fd, "timers"));
	io_uring_queue_exit(&d);
}

/*
 * The timers belong to the file, not to the ring: closing the ring leaves
 * them, and the file, registered with a ring that outlives its fd, goes
 * with the ring.
 */
TEST_F(uring, closing_the_ring_leaves_the_timers)
{
	struct hwtimer_record rec;
	struct io_uring_sqe *sqe;
	struct io_uring r2;
	int id, fd2, i;
	long state;

	for (i = 0; i < 16; i++)
		ASSERT_LT(0, uring_add(&self->ring, self->fd, 10 * MS, 0, i));
	ASSERT_EQ(0, io_uring_queue_init(8, &r2, 0));
	id = uring_add(&r2, self->fd, 10 * MS, 0, 99);
	ASSERT_LT(0, id);
	io_uring_queue_exit(&r2);
	/* still there: pending, or fired already if the exit took 10 ms */
	state = t_get_state(self->fd, id);
	EXPECT_TRUE(state == HWTIMER_STATE_PENDING ||
		    state == HWTIMER_STATE_FIRED);
	for (i = 0; i < 17; i++)
		ASSERT_EQ(1, t_read(self->fd, &rec, 1));

	/* a registered file outlives its fd until the ring goes */
	fd2 = t_open();
	ASSERT_LE(0, fd2);
	ASSERT_EQ(0, io_uring_queue_init(8, &r2, 0));
	ASSERT_EQ(0, io_uring_register_files(&r2, &fd2, 1));
	close(fd2);
	sqe = io_uring_get_sqe(&r2);
	hwtimer_uring_prep_add(sqe, 0, CLOCK_MONOTONIC, SEC, 0, 1);
	sqe->flags |= IOSQE_FIXED_FILE;
	EXPECT_LT(0, submit_one(&r2, NULL));
	/*
	 * the ring drops the file, which cancels its timer: kmemleak and the
	 * module's unload after the suite check that nothing stays behind
	 */
	io_uring_queue_exit(&r2);
}

/* kernel.io_uring_disabled (6.6+): io_uring fails cleanly; ioctls stay */
TEST(io_uring_disabled_by_sysctl)
{
	const char *knob = "/proc/sys/kernel/io_uring_disabled";
	struct io_uring ring;
	char old[16] = "0";
	uint32_t id;
	int fd, ret;

	HWT_NEED_DEVICE();
	if (access(knob, W_OK))
		SKIP(return, "no %s on this kernel", knob);
	ASSERT_LT(0, t_read_file(knob, old, sizeof(old)));
	ASSERT_EQ(0, t_write_file(knob, "2"));
	ret = io_uring_queue_init(8, &ring, 0);
	t_write_file(knob, old);
	EXPECT_EQ(-EPERM, ret);
	if (!ret)
		io_uring_queue_exit(&ring);
	fd = t_open();
	ASSERT_LE(0, fd);
	EXPECT_EQ(0, t_add(fd, 0, CLOCK_MONOTONIC, SEC, 0, 0, &id));
	close(fd);
}

HWT_HARNESS_MAIN
