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
 *    TIMEOUT+TIMEOUT_REMOVE batched, hwtimer's own ADD and CANCEL through
 *    io_uring beside NOPs (dev_bench_uring.c), and what an application writes
 *    instead: a heap in its own memory and one timerfd (uheap.c). Each
 *    keeps 1000 timers pending in a FIFO, as a queue of request timeouts
 *    does: each new timer is armed and the oldest cancelled;
 *  - 10^5 timers expiring within one second: CPU time per expired timer
 *    (from /proc/stat, all CPUs, all contexts), lateness p50/p99/max and
 *    early fires, for hwtimer, timerfd+epoll, io_uring and the heap;
 *  - kernel memory per pending timer: the slab growth of 10^5 pending
 *    timers (/proc/meminfo), for hwtimer, timerfd, POSIX timers and
 *    io_uring timeouts.
 *
 *  - a cyclictest-like victim on every CPU, idle and under 100,000 timers
 *    a second of hwtimer's and of stress-ng's timer stressors' shapes
 *    (dev_bench_victim.c).
 *
 * The expiry and one-at-a-time lateness parts are in dev_bench_expiry.c.
 * Output: one JSON object per line on stdout.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <liburing.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <sys/ioctl.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/timerfd.h>
#include <sys/utsname.h>

#include "libhwtimer.h"
#include "dev_bench.h"
#include "uheap.h"


const char *kernel;

uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * SEC + (uint64_t)ts.tv_nsec;
}

void die(const char *what, int err)
{
	fprintf(stderr, "dev_bench: %s: %s\n", what, strerror(err < 0 ? -err : err));
	exit(1);
}

void emit(const char *group, const char *name, const char *metric,
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

/*
 * The heap and one timerfd, with the same FIFO: the oldest is the earliest,
 * so each cancel re-arms the timerfd, and each arm costs no system call.
 */
static double uheap_fifo(void *arg)
{
	static uint32_t ring[PENDING];
	static uint64_t next = FAR;
	struct uqueue q;
	uint32_t spare = PENDING, head = 0, i;
	uint64_t t0, base = now_ns();

	if (uq_init(&q, PENDING + 1))
		die("uheap", ENOMEM);
	for (i = 0; i < PENDING; i++) {
		ring[i] = i;
		if (uq_add(&q, i, base + next++))
			die("timerfd_settime", errno);
	}
	t0 = now_ns();
	for (i = 0; i < OPS; i++) {
		uint32_t old = ring[head];

		if (uq_add(&q, spare, base + next++) || uq_cancel(&q, old))
			die("timerfd_settime", errno);
		ring[head] = spare;
		head = (head + 1) % PENDING;
		spare = old;
	}
	t0 = now_ns() - t0;
	uq_free(&q);
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

/* Memory: slab growth per pending timer */

#define NMEM	100000

/*
 * Every slab cache gives its empty slabs back, so that what an earlier
 * row freed does not leave the count while a later one is measured (SLUB
 * frees empty slabs lazily, a cache at a time).
 */
static void slab_shrink(void)
{
	char path[320];
	struct dirent *d;
	DIR *dir = opendir("/sys/kernel/slab");
	FILE *f;

	while (dir && (d = readdir(dir))) {
		if (d->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "/sys/kernel/slab/%s/shrink",
			 d->d_name);
		f = fopen(path, "w");
		if (f) {
			fputs("1", f);
			fclose(f);
		}
	}
	if (dir)
		closedir(dir);
}

/*
 * Kernel memory objects take: slab, and vmalloc for large arrays (such as
 * a directory of a file's table of timers, which kvmalloc() puts there
 * past a few pages).
 */
static long long slab_bytes(void)
{
	char line[128];
	long long kb, total = 0;
	FILE *f;

	/* let freed objects settle in RCU, and empty slabs go, before we look */
	usleep(200 * 1000);
	slab_shrink();
	f = fopen("/proc/meminfo", "r");
	if (!f)
		die("/proc/meminfo", errno);
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "Slab: %lld kB", &kb) == 1 ||
		    sscanf(line, "VmallocUsed: %lld kB", &kb) == 1)
			total += kb * 1024;
	fclose(f);
	return total;
}

#define CHURN_LIVE	10000	/* short-lived timers pending at a time */
#define CHURN_LONG	100	/* long-lived ones, added along the way */
#define CHURN_OPS	1000000

/*
 * Steady churn: a FIFO of CHURN_LIVE timers, each cancelled when a newer
 * one is added, for CHURN_OPS adds; every CHURN_OPS / CHURN_LONG adds, a
 * timer that stays. What is left holding memory, per timer still pending,
 * is what churn costs: with ids that drift (cyclic allocation), each
 * long-lived timer would pin a node of the id table.
 */
static void memory_churn(void)
{
	uint32_t *live = calloc(CHURN_LIVE, sizeof(*live));
	struct hwtimer_vec v;
	unsigned int head = 0, c;
	long long before;
	size_t i;
	int fd;

	fd = hwtimer_open(HWTIMER_OPEN_CLOEXEC);
	if (fd < 0 || !live || hwtimer_vec_init(&v, 2 * 256))
		die("hwtimer", fd);
	before = slab_bytes();
	for (i = 0; i < CHURN_OPS; i += 256) {
		unsigned int k;

		hwtimer_vec_reset(&v);
		for (k = 0; k < 256; k++)
			hwtimer_vec_add(&v, CLOCK_MONOTONIC, FAR + i + k, 0, 0, 0);
		if (hwtimer_vec_submit(fd, &v, 0) != 256)
			die("HWTIMER_IOC_BATCH", EIO);
		for (k = 0, c = 0; k < 256; k++) {
			uint32_t id = v.ops[k].id;

			/* now and then one stays for good */
			if ((i + k) % (CHURN_OPS / CHURN_LONG) == 0)
				continue;
			/* the FIFO's oldest goes (none in the first round) */
			if (live[head])
				v.ops[c++] = (struct hwtimer_op){
					.op = HWTIMER_OP_CANCEL, .id = live[head],
				};
			live[head] = id;
			head = (head + 1) % CHURN_LIVE;
		}
		v.count = c;
		if (c && hwtimer_vec_submit(fd, &v, 0) != (int)c)
			die("HWTIMER_IOC_BATCH", EIO);
	}
	emit("memory", "hwtimer, steady churn", "bytes_per_timer",
	     (double)(slab_bytes() - before) / (CHURN_LIVE + CHURN_LONG), NULL);
	hwtimer_vec_free(&v);
	free(live);
	close(fd);
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
	memory_churn();

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

/* Arm + cancel: hwtimer one by one and batched, and what else a user has */
static void arm_cancel_all(int fd)
{
	uint32_t sizes[] = { 1, 16, 256, 4096 }, s;
	char name[64];
	int i;

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
	emit("arm_cancel", "userspace heap + one timerfd", "ns_per_timer",
	     median_of(uheap_fifo, NULL, 5), NULL);
	for (i = 0; i < 3; i++) {
		s = sizes[i + 1];
		snprintf(name, sizeof(name), "io_uring TIMEOUT+REMOVE, batch of %u", s);
		emit("arm_cancel", name, "ns_per_timer", median_of(uring_batched, &s, 3), NULL);
	}
}

/* Whether section @name runs: all do, unless some are named on the command line. */
static int wanted(int argc, char **argv, const char *name)
{
	int i;

	for (i = 1; i < argc; i++)
		if (!strcmp(argv[i], name))
			return 1;
	return argc < 2;
}

int main(int argc, char **argv)
{
	struct rlimit rl = { 1 << 20, 1 << 20 };
	struct utsname u;
	int fd;

	uname(&u);
	kernel = u.release;
	/* 10^5 timerfds and POSIX timers: raise the limits (root in the VM) */
	setrlimit(RLIMIT_NOFILE, &rl);
	setrlimit(RLIMIT_SIGPENDING, &rl);
	/*
	 * dev_bench trace RATE [all]: alone, for bench/trace_rate.sh (and with
	 * "all", every timer, for bench/path_trace.sh)
	 */
	if ((argc == 3 || argc == 4) && !strcmp(argv[1], "trace")) {
		trace_rate(strtoull(argv[2], NULL, 10),
			   argc == 4 && !strcmp(argv[3], "all"));
		return 0;
	}
	fd = hwtimer_open(HWTIMER_OPEN_CLOEXEC);
	if (fd < 0)
		die("/dev/hwtimer", fd);

	if (wanted(argc, argv, "floor")) {
		emit("floor", "getppid()", "ns_per_op", median_of(floor_syscall, NULL, 5), NULL);
		emit("floor", "hwtimer null ioctl", "ns_per_op", median_of(floor_ioctl, &fd, 5), NULL);
		emit("floor", "eventfd write+read", "ns_per_op", median_of(floor_eventfd, NULL, 5), NULL);
	}
	if (wanted(argc, argv, "arm_cancel"))
		arm_cancel_all(fd);
	close(fd);
	if (wanted(argc, argv, "arm_cancel") || wanted(argc, argv, "uring"))
		uring_cmd_all();

	if (wanted(argc, argv, "expiry"))
		expiry_all();
	if (wanted(argc, argv, "rate"))
		rate_all();
	if (wanted(argc, argv, "herd"))
		herd_all();
	if (wanted(argc, argv, "latency"))
		latency_all();
	if (wanted(argc, argv, "memory"))
		memory_all();
	if (wanted(argc, argv, "victim"))
		victim_all();
	return 0;
}
