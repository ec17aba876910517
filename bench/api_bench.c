// SPDX-License-Identifier: GPL-2.0
/*
 * Layer 2 of make bench, run inside a guest on a stock kernel: every way a
 * program can keep many timeouts, in one process run, so that their ratios
 * mean something even under emulation.
 *
 *  - floors: getppid(), an ioctl /dev/hwtimer rejects at once, an eventfd
 *    write+read;
 *  - arm+cancel of one timer: hwtimer one ioctl
 *    each, hwtimer batched (1, 16, 256, 4096), timerfd create+settime+close
 *    and settime re-arm, timer_create+settime+delete, io_uring
 *    TIMEOUT+TIMEOUT_REMOVE batched. The hwtimer file keeps 1000 timers
 *    pending in a FIFO, as a queue of request timeouts does: each new
 *    timer is armed and the oldest cancelled;
 *  - 10^5 timers expiring within one second: CPU time per expired timer
 *    (from /proc/stat, all CPUs, all contexts), lateness p50/p99/max and
 *    early fires, for hwtimer, timerfd+epoll and io_uring;
 *  - kernel memory per pending timer: the slab growth of 10^5 pending
 *    timers (/proc/meminfo), for hwtimer, timerfd, POSIX timers and
 *    io_uring timeouts.
 *
 * Output: one JSON object per line on stdout.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <liburing.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <sys/ioctl.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/timerfd.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

#include "libhwtimer.h"

#define MS	1000000ULL
#define SEC	1000000000ULL
#define FAR	(3600 * SEC)		/* never fires during a run */

static const char *kernel;

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * SEC + (uint64_t)ts.tv_nsec;
}

static void die(const char *what, int err)
{
	fprintf(stderr, "api_bench: %s: %s\n", what, strerror(err < 0 ? -err : err));
	exit(1);
}

static void emit(const char *group, const char *name, const char *metric,
		 double value, const char *extra)
{
	printf("{\"layer\":\"guest\",\"kernel\":\"%s\",\"group\":\"%s\",\"name\":\"%s\","
	       "\"metric\":\"%s\",\"value\":%.2f%s%s}\n", kernel, group, name,
	       metric, value, extra ? "," : "", extra ? extra : "");
	fflush(stdout);
}

/* median of a few repeats of @fn, in ns per operation */
static double median_of(double (*fn)(void *), void *arg, int reps)
{
	double s[9], t;
	int i, j;

	for (i = 0; i < reps; i++) {
		s[i] = fn(arg);
		for (j = i; j > 0 && s[j - 1] > s[j]; j--) {
			t = s[j];
			s[j] = s[j - 1];
			s[j - 1] = t;
		}
	}
	return s[reps / 2];
}

#define OPS	20000

/* Floors */

static double floor_syscall(void *arg)
{
	uint64_t t0 = now_ns();
	int i;

	for (i = 0; i < OPS; i++)
		syscall(SYS_getppid);
	return (double)(now_ns() - t0) / OPS;
}

static double floor_ioctl(void *arg)
{
	int fd = *(int *)arg, i;
	uint64_t t0 = now_ns();

	for (i = 0; i < OPS; i++)
		ioctl(fd, _IO(HWTIMER_IOC_MAGIC, 0x7f), 0);	/* ENOTTY */
	return (double)(now_ns() - t0) / OPS;
}

static double floor_eventfd(void *arg)
{
	int efd = eventfd(0, EFD_CLOEXEC), i;
	uint64_t v = 1, t0 = now_ns();

	for (i = 0; i < OPS; i++) {
		if (write(efd, &v, 8) != 8 || read(efd, &v, 8) != 8)
			die("eventfd", errno);
	}
	t0 = now_ns() - t0;
	close(efd);
	return (double)t0 / OPS;
}

/* Arm + cancel of one timer, 1000 others pending */

#define PENDING	1000

/* The ids pending on the hwtimer file, oldest first. */
static uint32_t fifo[PENDING];
static unsigned int fifo_head;

static uint32_t fifo_swap(uint32_t id)
{
	uint32_t old = fifo[fifo_head];

	fifo[fifo_head] = id;
	fifo_head = (fifo_head + 1) % PENDING;
	return old;
}

static double hwt_single(void *arg)
{
	int fd = *(int *)arg, i, id;
	uint64_t t0 = now_ns();

	for (i = 0; i < OPS; i++) {
		id = hwtimer_add(fd, CLOCK_MONOTONIC, FAR + (uint64_t)i, 0, 0, 0);
		if (id < 0)
			die("HWTIMER_IOC_ADD", id);
		if (hwtimer_cancel(fd, fifo_swap((uint32_t)id)) != 1)
			die("HWTIMER_IOC_CANCEL", EINVAL);
	}
	return (double)(now_ns() - t0) / OPS;
}

struct batch_arg {
	int fd;
	uint32_t size;
};

static double hwt_batched(void *arg)
{
	struct batch_arg *ba = arg;
	struct hwtimer_vec v;
	uint64_t t0, done = 0;
	uint32_t k;

	if (hwtimer_vec_init(&v, ba->size))
		die("batch", ENOMEM);
	t0 = now_ns();
	while (done < OPS) {
		int ret;

		hwtimer_vec_reset(&v);
		for (k = 0; k < ba->size; k++)
			hwtimer_vec_add(&v, CLOCK_MONOTONIC, FAR + k, 0, 0, 0);
		ret = hwtimer_vec_submit(ba->fd, &v, 0);
		if (ret < 0)
			die("HWTIMER_IOC_BATCH", ret);
		for (k = 0; k < ba->size; k++)
			if (v.ops[k].result < 0)
				die("adding a timer", v.ops[k].result);
		/* cancel as many of the oldest pending */
		for (k = 0; k < ba->size; k++)
			v.ops[k] = (struct hwtimer_op){
				.op = HWTIMER_OP_CANCEL,
				.id = k < PENDING ? fifo_swap(v.ops[k].id) : v.ops[k].id,
			};
		ret = hwtimer_vec_submit(ba->fd, &v, 0);
		if (ret < 0)
			die("HWTIMER_IOC_BATCH", ret);
		done += ba->size;
	}
	t0 = now_ns() - t0;
	hwtimer_vec_free(&v);
	return (double)t0 / (double)done;
}

static double tfd_create(void *arg)
{
	struct itimerspec its = { .it_value = { .tv_sec = 3600 } };
	uint64_t t0 = now_ns();
	int i;

	for (i = 0; i < OPS; i++) {
		int tfd = timerfd_create(CLOCK_MONOTONIC, TFD_CLOEXEC);

		if (tfd < 0 || timerfd_settime(tfd, 0, &its, NULL))
			die("timerfd", errno);
		close(tfd);
	}
	return (double)(now_ns() - t0) / OPS;
}

static double tfd_rearm(void *arg)
{
	struct itimerspec arm = { .it_value = { .tv_sec = 3600 } }, off = { 0 };
	int tfd = timerfd_create(CLOCK_MONOTONIC, TFD_CLOEXEC), i;
	uint64_t t0;

	if (tfd < 0)
		die("timerfd_create", errno);
	t0 = now_ns();
	for (i = 0; i < OPS; i++)
		if (timerfd_settime(tfd, 0, &arm, NULL) ||
		    timerfd_settime(tfd, 0, &off, NULL))
			die("timerfd_settime", errno);
	t0 = now_ns() - t0;
	close(tfd);
	return (double)t0 / OPS;
}

static double posix_timer(void *arg)
{
	struct sigevent sev = { .sigev_notify = SIGEV_NONE };
	struct itimerspec its = { .it_value = { .tv_sec = 3600 } };
	uint64_t t0 = now_ns();
	timer_t t;
	int i;

	for (i = 0; i < OPS; i++) {
		if (timer_create(CLOCK_MONOTONIC, &sev, &t) ||
		    timer_settime(t, 0, &its, NULL))
			die("timer_create", errno);
		timer_delete(t);
	}
	return (double)(now_ns() - t0) / OPS;
}

static void uring_reap(struct io_uring *ring, unsigned int n)
{
	struct io_uring_cqe *cqe;
	unsigned int seen = 0;

	while (seen < n) {
		int ret = io_uring_wait_cqe(ring, &cqe);

		if (ret)
			die("io_uring_wait_cqe", ret);
		io_uring_cqe_seen(ring, cqe);
		seen++;
	}
}

static double uring_batched(void *arg)
{
	uint32_t size = *(uint32_t *)arg, k;
	struct __kernel_timespec ts = { .tv_sec = 3600 };
	struct io_uring ring;
	uint64_t t0, done = 0;
	int ret;

	ret = io_uring_queue_init(size * 2, &ring, 0);
	if (ret)
		die("io_uring_queue_init", ret);
	t0 = now_ns();
	while (done < OPS) {
		for (k = 0; k < size; k++) {
			struct io_uring_sqe *sqe = io_uring_get_sqe(&ring);

			io_uring_prep_timeout(sqe, &ts, 0, 0);
			sqe->user_data = k + 1;
		}
		if (io_uring_submit(&ring) != (int)size)
			die("io_uring_submit", EIO);
		for (k = 0; k < size; k++) {
			struct io_uring_sqe *sqe = io_uring_get_sqe(&ring);

			io_uring_prep_timeout_remove(sqe, k + 1, 0);
			sqe->user_data = 0;
		}
		if (io_uring_submit(&ring) != (int)size)
			die("io_uring_submit", EIO);
		/* each timeout completes with -ECANCELED, each remove with 0 */
		uring_reap(&ring, 2 * size);
		done += size;
	}
	t0 = now_ns() - t0;
	io_uring_queue_exit(&ring);
	return (double)t0 / (double)done;
}

/* Expiry: N timers spread over one second */

#define NEXP	100000

/* Busy CPU time of the whole system, ns, from /proc/stat. */
static uint64_t busy_ns(void)
{
	unsigned long long v[10] = { 0 };
	FILE *f = fopen("/proc/stat", "r");
	long hz = sysconf(_SC_CLK_TCK);

	if (!f || fscanf(f, "cpu %llu %llu %llu %llu %llu %llu %llu %llu %llu %llu",
			 &v[0], &v[1], &v[2], &v[3], &v[4], &v[5], &v[6], &v[7],
			 &v[8], &v[9]) < 8)
		die("/proc/stat", EIO);
	fclose(f);
	/* user, nice, system, irq, softirq: not idle, iowait or steal */
	return (v[0] + v[1] + v[2] + v[5] + v[6]) * (SEC / (uint64_t)hz);
}

static int cmp_i64(const void *a, const void *b)
{
	int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;

	return x < y ? -1 : x > y;
}

static uint64_t deadline_of(uint64_t start, size_t i);

/* Times this thread slept and was woken: its voluntary context switches. */
static long wakeups(void)
{
	struct rusage ru;

	getrusage(RUSAGE_THREAD, &ru);
	return ru.ru_nvcsw;
}

static void report_expiry(const char *name, int64_t *late, size_t n,
			  uint64_t busy, uint64_t span, long woken)
{
	char extra[320];
	size_t early = 0, i;

	qsort(late, n, sizeof(*late), cmp_i64);
	for (i = 0; i < n; i++)
		early += late[i] < 0;
	snprintf(extra, sizeof(extra),
		 "\"timers\":%zu,\"late_p50_ns\":%lld,\"late_p99_ns\":%lld,"
		 "\"late_max_ns\":%lld,\"early\":%zu,\"wall_ns\":%llu,"
		 "\"wakeups_per_s\":%.0f",
		 n, (long long)late[n / 2], (long long)late[n * 99 / 100],
		 (long long)late[n - 1], early, (unsigned long long)span,
		 (double)woken * SEC / (double)(deadline_of(0, n - 1) -
						deadline_of(0, 0)));
	emit("expiry", name, "cpu_ns_per_timer", (double)busy / (double)n, extra);
}

static uint64_t deadline_of(uint64_t start, size_t i)
{
	/*
	 * Spread over one second that starts 2 s after @start: arming 10^5
	 * timers must be over before the first is due, even emulated.
	 */
	return start + 2 * SEC + (uint64_t)i * SEC / NEXP;
}

/* hwtimer, with the file's default slack set to @slack */
static void expiry_hwtimer(int64_t *late, uint64_t slack, const char *name)
{
	int fd = hwtimer_open(HWTIMER_OPEN_CLOEXEC);
	static struct hwtimer_record recs[1024];
	struct hwtimer_vec v;
	uint64_t start, b0, t0;
	size_t i, got = 0;
	long w0;

	if (fd < 0)
		die("hwtimer", fd);
	/* a module that predates default slack (a before/after run) skips it */
	if (slack && hwtimer_slack(fd, &slack, NULL)) {
		close(fd);
		return;
	}
	if (hwtimer_vec_init(&v, 4096))
		die("hwtimer", ENOMEM);
	start = now_ns();
	for (i = 0; i < NEXP;) {
		hwtimer_vec_reset(&v);
		for (; i < NEXP && v.count < v.capacity; i++)
			hwtimer_vec_add(&v, CLOCK_MONOTONIC, deadline_of(start, i), 0,
					HWTIMER_F_ABS | HWTIMER_F_AUTOREMOVE, i);
		if (hwtimer_vec_submit(fd, &v, HWTIMER_BATCH_STOP_ON_ERROR) != (int)v.count)
			die("HWTIMER_IOC_BATCH", EIO);
	}
	hwtimer_vec_free(&v);
	b0 = busy_ns();
	t0 = now_ns();
	w0 = wakeups();
	while (got < NEXP) {
		int k = hwtimer_read(fd, recs, 1024), j;
		uint64_t t = now_ns();

		if (k < 0)
			die("read", k);
		for (j = 0; j < k; j++)
			late[got++] = (int64_t)(t - deadline_of(start, recs[j].cookie));
	}
	report_expiry(name, late, NEXP, busy_ns() - b0, now_ns() - t0,
		      wakeups() - w0);
	close(fd);
}

static void expiry_timerfd(int64_t *late)
{
	int ep = epoll_create1(EPOLL_CLOEXEC), *fds = calloc(NEXP, sizeof(int));
	static struct epoll_event evs[1024];
	uint64_t start, b0, t0;
	size_t i, got = 0;
	long w0;

	if (ep < 0 || !fds)
		die("epoll", errno);
	/* the files first: only the arming counts against the deadlines */
	for (i = 0; i < NEXP; i++) {
		struct epoll_event ev = { .events = EPOLLIN, .data.u64 = i };

		fds[i] = timerfd_create(CLOCK_MONOTONIC, TFD_CLOEXEC | TFD_NONBLOCK);
		if (fds[i] < 0 || epoll_ctl(ep, EPOLL_CTL_ADD, fds[i], &ev))
			die("timerfd", errno);
	}
	start = now_ns();
	for (i = 0; i < NEXP; i++) {
		uint64_t d = deadline_of(start, i);
		struct itimerspec its = {
			.it_value = { .tv_sec = (time_t)(d / SEC), .tv_nsec = (long)(d % SEC) },
		};

		if (timerfd_settime(fds[i], TFD_TIMER_ABSTIME, &its, NULL))
			die("timerfd_settime", errno);
	}
	b0 = busy_ns();
	t0 = now_ns();
	w0 = wakeups();
	while (got < NEXP) {
		int k = epoll_wait(ep, evs, 1024, -1), j;
		uint64_t t = now_ns(), ticks;

		if (k < 0)
			die("epoll_wait", errno);
		for (j = 0; j < k; j++) {
			size_t id = evs[j].data.u64;

			if (read(fds[id], &ticks, 8) != 8)
				continue;
			late[got++] = (int64_t)(t - deadline_of(start, id));
			close(fds[id]);
		}
	}
	report_expiry("timerfd + epoll", late, NEXP, busy_ns() - b0,
		      now_ns() - t0, wakeups() - w0);
	close(ep);
	free(fds);
}

static void expiry_uring(int64_t *late)
{
	struct __kernel_timespec *ts = calloc(NEXP, sizeof(*ts));
	struct io_uring ring;
	struct io_uring_cqe *cqe;
	uint64_t start, b0, t0;
	size_t i, got = 0;
	long w0;
	int ret;

	ret = io_uring_queue_init(4096, &ring, 0);
	if (ret || !ts)
		die("io_uring_queue_init", ret);
	start = now_ns();
	for (i = 0; i < NEXP; i++) {
		struct io_uring_sqe *sqe = io_uring_get_sqe(&ring);
		uint64_t d = deadline_of(start, i);

		if (!sqe) {
			io_uring_submit(&ring);
			sqe = io_uring_get_sqe(&ring);
		}
		ts[i].tv_sec = (long long)(d / SEC);
		ts[i].tv_nsec = (long long)(d % SEC);
		io_uring_prep_timeout(sqe, &ts[i], 0, IORING_TIMEOUT_ABS);
		sqe->user_data = i;
	}
	io_uring_submit(&ring);
	b0 = busy_ns();
	t0 = now_ns();
	w0 = wakeups();
	while (got < NEXP) {
		unsigned int head, k = 0;

		ret = io_uring_wait_cqe(&ring, &cqe);
		if (ret)
			die("io_uring_wait_cqe", ret);
		/* completions may land while we walk: time each one */
		io_uring_for_each_cqe(&ring, head, cqe) {
			if (cqe->res == -ETIME)
				late[got++] = (int64_t)(now_ns() -
							deadline_of(start, cqe->user_data));
			k++;
		}
		io_uring_cq_advance(&ring, k);
	}
	report_expiry("io_uring timeouts", late, NEXP, busy_ns() - b0,
		      now_ns() - t0, wakeups() - w0);
	io_uring_queue_exit(&ring);
	free(ts);
}

/*
 * Lateness of one timer at a time: NSEQ timers of 0.5 .. 5 ms each, armed
 * when the previous one was seen, each way a program can wait for one.
 * Each arm_wait function arms an absolute deadline and returns when the
 * program sees it fire.
 */

#define NSEQ	300

struct seq_ctx {
	int fd;
	struct io_uring ring;
	timer_t posix;
	sigset_t sig;
};

static void seq_hwtimer(struct seq_ctx *c, uint64_t d)
{
	struct hwtimer_record r;

	if (hwtimer_add(c->fd, CLOCK_MONOTONIC, d, 0, HWTIMER_F_ABS |
			HWTIMER_F_AUTOREMOVE, 0) < 0 || hwtimer_read(c->fd, &r, 1) != 1)
		die("hwtimer", EIO);
}

static void seq_timerfd(struct seq_ctx *c, uint64_t d)
{
	struct itimerspec its = {
		.it_value = { .tv_sec = (time_t)(d / SEC), .tv_nsec = (long)(d % SEC) },
	};
	uint64_t ticks;

	if (timerfd_settime(c->fd, TFD_TIMER_ABSTIME, &its, NULL) ||
	    read(c->fd, &ticks, 8) != 8)
		die("timerfd", errno);
}

static void seq_uring(struct seq_ctx *c, uint64_t d)
{
	struct __kernel_timespec ts = { .tv_sec = d / SEC, .tv_nsec = d % SEC };
	struct io_uring_sqe *sqe = io_uring_get_sqe(&c->ring);
	struct io_uring_cqe *cqe;

	io_uring_prep_timeout(sqe, &ts, 0, IORING_TIMEOUT_ABS);
	if (io_uring_submit_and_wait(&c->ring, 1) < 0 ||
	    io_uring_wait_cqe(&c->ring, &cqe))
		die("io_uring", EIO);
	io_uring_cqe_seen(&c->ring, cqe);
}

static void seq_posix(struct seq_ctx *c, uint64_t d)
{
	struct itimerspec its = {
		.it_value = { .tv_sec = (time_t)(d / SEC), .tv_nsec = (long)(d % SEC) },
	};

	if (timer_settime(c->posix, TIMER_ABSTIME, &its, NULL) ||
	    sigwaitinfo(&c->sig, NULL) < 0)
		die("timer_settime", errno);
}

static void latency_seq(const char *name, void (*arm_wait)(struct seq_ctx *, uint64_t),
			struct seq_ctx *c)
{
	int64_t late[NSEQ];
	char extra[160];
	unsigned int i, seed = 14;

	for (i = 0; i < NSEQ; i++) {
		uint64_t d = now_ns() + 500000 + rand_r(&seed) % (4500 * 1000);

		arm_wait(c, d);
		late[i] = (int64_t)(now_ns() - d);
	}
	qsort(late, NSEQ, sizeof(*late), cmp_i64);
	snprintf(extra, sizeof(extra),
		 "\"timers\":%d,\"late_p99_ns\":%lld,\"late_max_ns\":%lld,"
		 "\"early\":%d", NSEQ, (long long)late[NSEQ * 99 / 100],
		 (long long)late[NSEQ - 1], late[0] < 0);
	emit("latency", name, "late_p50_ns", (double)late[NSEQ / 2], extra);
}

static void latency_all(void)
{
	struct sigevent sev = { .sigev_notify = SIGEV_SIGNAL, .sigev_signo = SIGRTMIN };
	struct seq_ctx c;

	c.fd = hwtimer_open(HWTIMER_OPEN_CLOEXEC);
	if (c.fd < 0)
		die("hwtimer_open", c.fd);
	latency_seq("hwtimer", seq_hwtimer, &c);
	close(c.fd);
	c.fd = timerfd_create(CLOCK_MONOTONIC, TFD_CLOEXEC);
	if (c.fd < 0)
		die("timerfd_create", errno);
	latency_seq("timerfd", seq_timerfd, &c);
	close(c.fd);
	if (io_uring_queue_init(8, &c.ring, 0))
		die("io_uring_queue_init", EIO);
	latency_seq("io_uring timeout", seq_uring, &c);
	io_uring_queue_exit(&c.ring);
	sigemptyset(&c.sig);
	sigaddset(&c.sig, SIGRTMIN);
	sigprocmask(SIG_BLOCK, &c.sig, NULL);
	if (timer_create(CLOCK_MONOTONIC, &sev, &c.posix))
		die("timer_create", errno);
	latency_seq("POSIX timer (sigwaitinfo)", seq_posix, &c);
	timer_delete(c.posix);
}

/* Memory: slab growth per pending timer */

#define NMEM	100000

static long long slab_bytes(void)
{
	char line[128];
	long long kb, total = 0;
	FILE *f;

	/* let freed objects settle in RCU before we look */
	usleep(200 * 1000);
	f = fopen("/proc/meminfo", "r");
	if (!f)
		die("/proc/meminfo", errno);
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "Slab: %lld kB", &kb) == 1)
			total = kb * 1024;
	fclose(f);
	return total;
}

static void mem_report(const char *name, long long before, long long after)
{
	emit("memory", name, "bytes_per_timer", (double)(after - before) / NMEM, NULL);
}

static void memory_all(void)
{
	struct itimerspec its = { .it_value = { .tv_sec = 3600 } };
	struct sigevent sev = { .sigev_notify = SIGEV_NONE };
	struct __kernel_timespec ts = { .tv_sec = 3600 };
	struct hwtimer_vec v;
	struct io_uring ring;
	long long before;
	timer_t *pt;
	int *fds, fd, ret;
	size_t i;

	/* hwtimer: one file, NMEM one-shot timers without an eventfd */
	fd = hwtimer_open(HWTIMER_OPEN_CLOEXEC);
	if (fd < 0 || hwtimer_vec_init(&v, 4096))
		die("hwtimer", fd);
	before = slab_bytes();
	for (i = 0; i < NMEM;) {
		hwtimer_vec_reset(&v);
		for (; i < NMEM && v.count < v.capacity; i++)
			hwtimer_vec_add(&v, CLOCK_MONOTONIC, FAR + i, 0, 0, 0);
		if (hwtimer_vec_submit(fd, &v, 0) != (int)v.count)
			die("HWTIMER_IOC_BATCH", EIO);
	}
	mem_report("hwtimer", before, slab_bytes());
	hwtimer_vec_free(&v);
	close(fd);

	/* timerfd: one file per timer */
	fds = calloc(NMEM, sizeof(*fds));
	before = slab_bytes();
	for (i = 0; i < NMEM; i++) {
		fds[i] = timerfd_create(CLOCK_MONOTONIC, TFD_CLOEXEC);
		if (fds[i] < 0 || timerfd_settime(fds[i], 0, &its, NULL))
			die("timerfd", errno);
	}
	mem_report("timerfd", before, slab_bytes());
	for (i = 0; i < NMEM; i++)
		close(fds[i]);
	free(fds);

	/* POSIX timers */
	pt = calloc(NMEM, sizeof(*pt));
	before = slab_bytes();
	for (i = 0; i < NMEM; i++)
		if (timer_create(CLOCK_MONOTONIC, &sev, &pt[i]) ||
		    timer_settime(pt[i], 0, &its, NULL))
			die("timer_create", errno);
	mem_report("POSIX timer", before, slab_bytes());
	for (i = 0; i < NMEM; i++)
		timer_delete(pt[i]);
	free(pt);

	/* io_uring: pending timeouts on one ring */
	ret = io_uring_queue_init(4096, &ring, 0);
	if (ret)
		die("io_uring_queue_init", ret);
	before = slab_bytes();
	for (i = 0; i < NMEM; i++) {
		struct io_uring_sqe *sqe = io_uring_get_sqe(&ring);

		if (!sqe) {
			io_uring_submit(&ring);
			sqe = io_uring_get_sqe(&ring);
		}
		io_uring_prep_timeout(sqe, &ts, 0, 0);
	}
	io_uring_submit(&ring);
	mem_report("io_uring timeout", before, slab_bytes());
	io_uring_queue_exit(&ring);
}

int main(int argc, char **argv)
{
	struct rlimit rl = { 1 << 20, 1 << 20 };
	uint32_t sizes[] = { 1, 16, 256, 4096 }, s;
	struct utsname u;
	char name[64];
	int64_t *late;
	int fd, i;

	uname(&u);
	kernel = u.release;
	/* 10^5 timerfds and POSIX timers: raise the limits (root in the VM) */
	setrlimit(RLIMIT_NOFILE, &rl);
	setrlimit(RLIMIT_SIGPENDING, &rl);
	fd = hwtimer_open(HWTIMER_OPEN_CLOEXEC);
	if (fd < 0)
		die("/dev/hwtimer", fd);

	emit("floor", "getppid()", "ns_per_op", median_of(floor_syscall, NULL, 5), NULL);
	emit("floor", "hwtimer null ioctl", "ns_per_op", median_of(floor_ioctl, &fd, 5), NULL);
	emit("floor", "eventfd write+read", "ns_per_op", median_of(floor_eventfd, NULL, 5), NULL);

	/* 1000 timers pending on the file while the arm+cancel loops run */
	for (i = 0; i < PENDING; i++) {
		int id = hwtimer_add(fd, CLOCK_MONOTONIC, FAR + (uint64_t)i * MS, 0, 0, 0);

		if (id < 0)
			die("HWTIMER_IOC_ADD", id);
		fifo[i] = (uint32_t)id;
	}
	emit("arm_cancel", "hwtimer, one ioctl each", "ns_per_timer",
	     median_of(hwt_single, &fd, 5), NULL);
	for (i = 0; i < 4; i++) {
		struct batch_arg ba = { fd, sizes[i] };

		snprintf(name, sizeof(name), "hwtimer, batch of %u", sizes[i]);
		emit("arm_cancel", name, "ns_per_timer", median_of(hwt_batched, &ba, 5), NULL);
	}
	emit("arm_cancel", "timerfd create+settime+close", "ns_per_timer",
	     median_of(tfd_create, NULL, 5), NULL);
	emit("arm_cancel", "timerfd settime arm+disarm", "ns_per_timer",
	     median_of(tfd_rearm, NULL, 5), NULL);
	emit("arm_cancel", "timer_create+settime+delete", "ns_per_timer",
	     median_of(posix_timer, NULL, 5), NULL);
	for (i = 0; i < 3; i++) {
		s = sizes[i + 1];
		snprintf(name, sizeof(name), "io_uring TIMEOUT+REMOVE, batch of %u", s);
		emit("arm_cancel", name, "ns_per_timer", median_of(uring_batched, &s, 3), NULL);
	}
	close(fd);

	late = calloc(NEXP, sizeof(*late));
	if (!late)
		die("calloc", ENOMEM);
	expiry_hwtimer(late, 0, "hwtimer read()");
	expiry_hwtimer(late, MS, "hwtimer read(), 1 ms slack");
	expiry_timerfd(late);
	expiry_uring(late);
	free(late);
	latency_all();

	memory_all();
	return 0;
}
