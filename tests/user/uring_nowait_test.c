// SPDX-License-Identifier: GPL-2.0
/*
 * io_uring's non-blocking issue (review F2): io_uring issues a command
 * inline, holding the ring's lock or in the SQPOLL thread that serves every
 * ring of the process, and runs it from io-wq if it says -EAGAIN. A
 * HWTIMER_URING_BATCH whose array is not in memory must not wait for it
 * there. The array here lies in a page that a userfaultfd resolves only
 * when the test says so: io_uring_enter() returns while the fault is still
 * unresolved, the command completes once it is resolved, each entry with
 * its result, and another ring that shares the SQPOLL thread gets its
 * completions meanwhile. userfaultfd needs root here.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <liburing.h>
#include <linux/userfaultfd.h>
#include <poll.h>
#include <pthread.h>
#include <stdatomic.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/syscall.h>

#include "kselftest_harness.h"
#include "helpers.h"
#include "libhwtimer.h"

#define NOPS	4
/* what the resolver waits for the test's word at most, should it not come */
#define WORD_MS	20000

/*
 * A page that faults through a userfaultfd: @area, whose contents @src
 * gives once resolve() runs.
 */
struct fault {
	int uffd;
	void *area;
	void *src;
	size_t len;
	pthread_t th;
	_Atomic int word;	/* the test says it may resolve */
	_Atomic int resolved;
	int faulted;		/* a fault on @area was read from the uffd */
};

static void *resolver(void *arg)
{
	struct fault *f = arg;
	struct pollfd p = { .fd = f->uffd, .events = POLLIN };
	struct uffdio_copy copy = {
		.dst = (uintptr_t)f->area, .src = (uintptr_t)f->src,
		.len = f->len,
	};
	struct uffd_msg msg;
	int ms;

	for (ms = 0; ms < WORD_MS && !atomic_load(&f->word); ms++)
		usleep(1000);
	if (poll(&p, 1, WORD_MS) == 1 &&
	    read(f->uffd, &msg, sizeof(msg)) == sizeof(msg) &&
	    msg.event == UFFD_EVENT_PAGEFAULT)
		f->faulted = 1;
	ioctl(f->uffd, UFFDIO_COPY, &copy);
	atomic_store(&f->resolved, 1);
	return NULL;
}

/* @f->area: a page, missing until the resolver copies @ops into it */
static int fault_setup(struct fault *f, const struct hwtimer_op *ops,
		       unsigned int n)
{
	struct uffdio_api api = { .api = UFFD_API };
	struct uffdio_register reg = { .mode = UFFDIO_REGISTER_MODE_MISSING };

	memset(f, 0, sizeof(*f));
	f->len = sysconf(_SC_PAGESIZE);
	f->uffd = syscall(__NR_userfaultfd, O_CLOEXEC | O_NONBLOCK);
	if (f->uffd < 0 || ioctl(f->uffd, UFFDIO_API, &api))
		return -1;
	f->area = mmap(NULL, f->len, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	f->src = mmap(NULL, f->len, PROT_READ | PROT_WRITE,
		      MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (f->area == MAP_FAILED || f->src == MAP_FAILED)
		return -1;
	memcpy(f->src, ops, n * sizeof(*ops));
	reg.range.start = (uintptr_t)f->area;
	reg.range.len = f->len;
	if (ioctl(f->uffd, UFFDIO_REGISTER, &reg))
		return -1;
	return pthread_create(&f->th, NULL, resolver, f) ? -1 : 0;
}

static void fault_teardown(struct fault *f)
{
	atomic_store(&f->word, 1);
	pthread_join(f->th, NULL);
	munmap(f->area, f->len);
	munmap(f->src, f->len);
	close(f->uffd);
}

FIXTURE(uring_nowait) {
	int fd;
	struct hwtimer_op ops[NOPS];
	struct fault f;
};

FIXTURE_SETUP(uring_nowait)
{
	unsigned int i;

	if (!hwt_device_present())
		SKIP(return, HWT_NO_DEVICE);
	if (geteuid())
		SKIP(return, "needs root for a userfaultfd that kernel faults wait on");
	self->fd = t_open();
	ASSERT_LE(0, self->fd);
	for (i = 0; i < NOPS; i++)
		self->ops[i] = (struct hwtimer_op){
			.op = HWTIMER_OP_ADD, .clockid = CLOCK_MONOTONIC,
			.expires = 60 * SEC, .cookie = i,
		};
	if (fault_setup(&self->f, self->ops, NOPS))
		SKIP(return, "no userfaultfd here: %s", strerror(errno));
}

FIXTURE_TEARDOWN(uring_nowait)
{
	if (geteuid())
		return;
	fault_teardown(&self->f);
	close(self->fd);
}

/* The entries the batch ran, read back from the resolved page. */
static void expect_added(struct __test_metadata *_metadata,
			 const struct hwtimer_op *ops, int fd)
{
	unsigned int i;

	for (i = 0; i < NOPS; i++) {
		EXPECT_EQ(0, ops[i].result);
		EXPECT_EQ(i + 1, ops[i].id);
	}
	EXPECT_EQ(NOPS, t_fdinfo_u64(fd, "timers"));
}

/*
 * The array faults: io_uring_enter() returns before the fault is resolved
 * (the resolver waits for it to), and the CQE comes once it is, from
 * io-wq, which faulted the page in.
 */
TEST_F_TIMEOUT(uring_nowait, a_batch_whose_array_faults_does_not_hold_the_submitter, 120)
{
	struct io_uring ring;
	struct io_uring_cqe *cqe;
	int resolved_at_return;

	ASSERT_EQ(0, io_uring_queue_init(8, &ring, 0));
	hwtimer_uring_prep_batch(io_uring_get_sqe(&ring), self->fd,
				 self->f.area, NOPS, 0, 1);
	ASSERT_EQ(1, io_uring_submit(&ring));
	resolved_at_return = atomic_load(&self->f.resolved);
	atomic_store(&self->f.word, 1);
	ASSERT_EQ(0, io_uring_wait_cqe(&ring, &cqe));
	EXPECT_EQ(NOPS, cqe->res);
	io_uring_cqe_seen(&ring, cqe);
	EXPECT_FALSE(resolved_at_return)
		TH_LOG("io_uring_enter() waited for the fault to be resolved");
	EXPECT_TRUE(self->f.faulted);
	expect_added(_metadata, self->f.area, self->fd);
	io_uring_queue_exit(&ring);
}

/*
 * Two rings share one SQPOLL thread. While ring A's batch waits for its
 * array's fault, ring B's ADD, on another file, completes: the thread was
 * not held.
 */
TEST_F_TIMEOUT(uring_nowait, an_sqpoll_rings_other_ring_is_not_held_up, 120)
{
	struct io_uring_params pa = {
		.flags = IORING_SETUP_SQPOLL, .sq_thread_idle = 1000,
	};
	struct io_uring_params pb = pa;
	struct __kernel_timespec ts = { .tv_sec = WORD_MS / 1000 };
	struct io_uring a, b;
	struct io_uring_cqe *cqe;
	int ret, b_res = 0, resolved_at_b, fd_b = t_open();

	ret = io_uring_queue_init_params(8, &a, &pa);
	if (ret == -EPERM)
		SKIP(return, "no SQPOLL here");
	ASSERT_EQ(0, ret);
	pb.flags |= IORING_SETUP_ATTACH_WQ;
	pb.wq_fd = a.ring_fd;
	ASSERT_EQ(0, io_uring_queue_init_params(8, &b, &pb));
	hwtimer_uring_prep_batch(io_uring_get_sqe(&a), self->fd, self->f.area,
				 NOPS, 0, 1);
	ASSERT_EQ(1, io_uring_submit(&a));
	/* the shared thread takes A's SQE first, then B's */
	usleep(100 * 1000);
	ASSERT_LE(0, fd_b);
	hwtimer_uring_prep_add(io_uring_get_sqe(&b), fd_b, CLOCK_MONOTONIC,
			       60 * SEC, 0, 2);
	ASSERT_EQ(1, io_uring_submit(&b));
	ret = io_uring_wait_cqe_timeout(&b, &cqe, &ts);
	resolved_at_b = atomic_load(&self->f.resolved);
	if (!ret) {
		b_res = cqe->res;
		io_uring_cqe_seen(&b, cqe);
	}
	atomic_store(&self->f.word, 1);
	ASSERT_EQ(0, io_uring_wait_cqe(&a, &cqe));
	EXPECT_EQ(NOPS, cqe->res);
	io_uring_cqe_seen(&a, cqe);
	EXPECT_EQ(0, ret) TH_LOG("ring B's ADD waited for ring A's fault");
	EXPECT_FALSE(resolved_at_b);
	EXPECT_LT(0, b_res);
	EXPECT_TRUE(self->f.faulted);
	expect_added(_metadata, self->f.area, self->fd);
	close(fd_b);
	io_uring_queue_exit(&b);
	io_uring_queue_exit(&a);
}

HWT_HARNESS_MAIN
