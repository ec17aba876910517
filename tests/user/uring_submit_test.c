// SPDX-License-Identifier: GPL-2.0
/*
 * /dev/hwtimer's io_uring commands in submissions: longer than a chunk,
 * they run in order, beside another ring's, and leave the CPU to others;
 * what a submitting thread that exits leaves behind; timers outliving the
 * ring that made them. The commands one by one are uring_test's.
 */
#define _GNU_SOURCE
#include <liburing.h>
#include <pthread.h>

#include "kselftest_harness.h"
#include "helpers.h"
#include "libhwtimer.h"
#include "uring_fixture.h"

HWT_URING_FIXTURE(uring_submit)

/*
 * A submission longer than a chunk runs in order: each timer's MOD comes
 * before its CANCEL in the SQ, and both find it pending; a bad id among
 * them fails alone.
 */
TEST_F(uring_submit, a_submission_runs_in_order)
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

TEST_F(uring_submit, a_long_submission_runs_in_order)
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
TEST_F(uring_submit, a_defer_taskrun_ring_nobody_waits_on_holds_nothing_up)
{
	long_queue_beside(_metadata, self->fd, true);
}

/*
 * Two rings of two threads at once, on two CPUs: every command of both
 * completes, once, in order, with its own result.
 */
TEST_F(uring_submit, two_rings_at_once)
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

TEST_F_TIMEOUT(uring_submit, a_long_submission_leaves_the_cpu, 300)
{
	long_submission(_metadata, self->fd, 0);
}

TEST_F_TIMEOUT(uring_submit, a_long_defer_taskrun_submission_leaves_the_cpu, 300)
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
TEST_F(uring_submit, an_exiting_thread_leaves_its_completions)
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
TEST_F(uring_submit, a_defer_taskrun_submitter_that_exits_leaves_its_completions)
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
TEST_F(uring_submit, closing_the_ring_leaves_the_timers)
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

HWT_HARNESS_MAIN
