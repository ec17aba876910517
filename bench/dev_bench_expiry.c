// SPDX-License-Identifier: GPL-2.0
/*
 * Layer 2 of make bench, expiry, each way a program can keep its timers
 * (see dev_bench.c): 10^5 timers due within one second; the same at rates
 * of 10^4 .. 3 x 10^5 a second, for the highest rate each way keeps up
 * with; a herd of 10^5 due at one instant; and one timer at a time.
 */
#define _GNU_SOURCE
#include <liburing.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <sys/resource.h>
#include <sys/timerfd.h>

#include "libhwtimer.h"
#include "dev_bench.h"
#include "uheap.h"

#define NEXP	100000
static const struct load exp_1s = { "expiry", NEXP, 2 * SEC, SEC / NEXP, 0 };
const struct load *ld = &exp_1s;	/* the load being run */
struct rec_log *rec_log;
/* kernel-side lateness of the records a hwtimer way got: fired - deadline */
static int64_t *fired_late;

static int cmp_i64(const void *a, const void *b)
{
	int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;

	return x < y ? -1 : x > y;
}

/* Times this thread slept and was woken: its voluntary context switches. */
static long wakeups(void)
{
	struct rusage ru;

	getrusage(RUSAGE_THREAD, &ru);
	return ru.ru_nvcsw;
}

/*
 * What the kernel saw of a file's expiries: the p50 and p99 of the
 * records' own lateness (fire time - deadline, exact), and from its
 * fdinfo its passes (woken by the hrtimer, gone on with in the same run,
 * run by the worker, cut short by their budget) and where they ran
 * relative to the reader. Appended to @extra.
 */
static void kernel_view(int fd, size_t n, char *extra, size_t size)
{
	static const char *const keys[] = {
		"wakeups", "continued", "handed_off", "deferred",
		"wakeups_handed_off", "hard_passes", "passes_on_reader_cpu",
		"passes_elsewhere", "empty_wakeups", "arms", "cascaded",
	};
	unsigned long long v[sizeof(keys) / sizeof(keys[0])] = { 0 };
	char path[64], line[512];
	unsigned int i;
	FILE *f;

	qsort(fired_late, n, sizeof(*fired_late), cmp_i64);
	snprintf(extra + strlen(extra), size - strlen(extra),
		 ",\"fired_late_p50_ns\":%lld,\"fired_late_p99_ns\":%lld",
		 (long long)fired_late[n / 2], (long long)fired_late[n * 99 / 100]);
	snprintf(path, sizeof(path), "/proc/self/fdinfo/%d", fd);
	f = fopen(path, "r");
	if (!f)
		return;
	while (fgets(line, sizeof(line), f))
		for (i = 0; i < sizeof(keys) / sizeof(keys[0]); i++) {
			size_t l = strlen(keys[i]);

			if (!strncmp(line, keys[i], l) && line[l] == ':')
				v[i] = strtoull(line + l + 1, NULL, 10);
		}
	fclose(f);
	for (i = 0; i < sizeof(keys) / sizeof(keys[0]); i++)
		snprintf(extra + strlen(extra), size - strlen(extra), ",\"%s\":%llu",
			 keys[i], v[i]);
}

/* Sorts @late and returns how many of its @n timers fired early. */
static size_t sort_late(int64_t *late, size_t n)
{
	size_t early = 0, i;

	qsort(late, n, sizeof(*late), cmp_i64);
	for (i = 0; i < n; i++)
		early += late[i] < 0;
	return early;
}

/*
 * A rate of the curve, or the herd: lateness, CPU per timer, and for the
 * curve whether the way kept up (p99 under 10 ms, as in these guests even
 * a heap with one timerfd is 2-3 ms late at 3,000 a second).
 */
static void report_load(const char *name, int64_t *late, size_t n,
			uint64_t busy, int fd)
{
	char extra[1024];
	size_t early = sort_late(late, n);

	snprintf(extra, sizeof(extra),
		 "\"timers\":%zu,\"rate\":%llu,\"late_p50_ns\":%lld,"
		 "\"late_p99_ns\":%lld,\"late_max_ns\":%lld,\"first_late_ns\":%lld,"
		 "\"early\":%zu,\"cpu_ns_per_timer\":%.1f,\"kept_up\":%s,"
		 "\"reader_ns_per_timer\":%.1f,\"cpu_from\":\"%s\"",
		 n, (unsigned long long)ld->rate, (long long)late[n / 2],
		 (long long)late[n * 99 / 100], (long long)late[n - 1],
		 (long long)late[0], early, (double)busy / (double)n,
		 late[n * 99 / 100] < (int64_t)(10 * MS) ? "true" : "false",
		 (double)reader_ns() / (double)n, busy_from());
	if (fd >= 0)
		kernel_view(fd, n, extra, sizeof(extra));
	emit(ld->group, name, "late_p99_ns", (double)late[n * 99 / 100], extra);
}

static void report_expiry(const char *name, int64_t *late, size_t n,
			  uint64_t busy, uint64_t span, long woken, int fd)
{
	char extra[1024];
	size_t early;

	if (ld != &exp_1s) {
		report_load(name, late, n, busy, fd);
		return;
	}
	early = sort_late(late, n);
	snprintf(extra, sizeof(extra),
		 "\"timers\":%zu,\"late_p50_ns\":%lld,\"late_p99_ns\":%lld,"
		 "\"late_max_ns\":%lld,\"early\":%zu,\"wall_ns\":%llu,"
		 "\"wakeups_per_s\":%.0f",
		 n, (long long)late[n / 2], (long long)late[n * 99 / 100],
		 (long long)late[n - 1], early, (unsigned long long)span,
		 (double)woken * SEC / (double)(deadline_of(0, n - 1) -
						deadline_of(0, 0) + 1));
	if (fd >= 0)
		kernel_view(fd, n, extra, sizeof(extra));
	emit("expiry", name, "cpu_ns_per_timer", (double)busy / (double)n, extra);
}

uint64_t deadline_of(uint64_t start, size_t i)
{
	return start + ld->lead + (uint64_t)i * ld->gap;
}

/*
 * Records: from read() (blocking), from the expiry ring, or from read()
 * without blocking once the file's eventfd @efd said they are there.
 */
static int hwtimer_records(int fd, struct hwtimer_ring_map *ring, int efd,
			   struct hwtimer_record *recs, unsigned int max)
{
	uint64_t count;
	int k;

	if (efd >= 0) {
		while ((k = hwtimer_read(fd, recs, max)) == -EAGAIN)
			if (read(efd, &count, sizeof(count)) < 0 && errno != EINTR)
				return -errno;
		return k;
	}
	if (!ring->hdr) {
		while ((k = hwtimer_read(fd, recs, max)) == -EINTR)
			;
		return k;
	}
	while (!(k = hwtimer_ring_harvest(ring, recs, max)))
		if ((k = hwtimer_ring_wait(ring, -1)) < 0 && k != -EINTR)
			return k;
	return k;
}

/*
 * hwtimer, with the file's default slack set to @slack, its records taken
 * @way: read(), harvested from an expiry ring of 4,096 entries, or read()
 * when the file's eventfd wakes the program
 */
void expiry_hwtimer(int64_t *late, uint64_t slack, enum way way,
		    const char *name)
{
	int fd = hwtimer_open(HWTIMER_OPEN_CLOEXEC |
			      (way == WAY_EVENTFD ? HWTIMER_OPEN_NONBLOCK : 0));
	static struct hwtimer_record recs[1024];
	struct hwtimer_ring_map map = { 0 };
	struct hwtimer_vec v;
	uint64_t start, b0, t0;
	size_t i, got = 0;
	int efd = -1;
	long w0;

	if (fd < 0)
		die("hwtimer", fd);
	/* a module that predates default slack (a before/after run) skips it */
	if (slack && hwtimer_slack(fd, &slack, NULL)) {
		close(fd);
		return;
	}
	/* a module without the ring (a before/after run) skips it */
	if (way == WAY_RING && hwtimer_ring_setup(fd, 4096, &map)) {
		close(fd);
		return;
	}
	if (way == WAY_EVENTFD) {
		efd = eventfd(0, EFD_CLOEXEC);
		if (efd < 0 || hwtimer_set_eventfd(fd, efd))
			die("the file's eventfd", EIO);
	}
	fired_late = realloc(fired_late, ld->n * sizeof(*fired_late));
	if (!fired_late || hwtimer_vec_init(&v, 4096))
		die("hwtimer", ENOMEM);
	start = now_ns();
	for (i = 0; i < ld->n;) {
		hwtimer_vec_reset(&v);
		for (; i < ld->n && v.count < v.capacity; i++)
			hwtimer_vec_add(&v, CLOCK_MONOTONIC, deadline_of(start, i), 0,
					HWTIMER_F_ABS | HWTIMER_F_AUTOREMOVE, i);
		if (hwtimer_vec_submit(fd, &v, HWTIMER_BATCH_STOP_ON_ERROR) != (int)v.count)
			die("HWTIMER_IOC_BATCH", EIO);
	}
	hwtimer_vec_free(&v);
	b0 = busy_start();
	t0 = now_ns();
	w0 = wakeups();
	while (got < ld->n) {
		int k = hwtimer_records(fd, &map, efd, recs, 1024), j;
		uint64_t t = now_ns();

		if (k < 0)
			die(name, k);
		for (j = 0; j < k; j++) {
			const struct hwtimer_record *r = &recs[j];
			uint64_t d = deadline_of(start, r->cookie);

			fired_late[got] = (int64_t)(r->fired - d);
			late[got++] = (int64_t)(t - d);
			if (rec_log)
				rec_log[r->cookie] = (struct rec_log){ r->id, d, r->fired, t };
		}
	}
	report_expiry(name, late, ld->n, busy_ns() - b0, now_ns() - t0,
		      wakeups() - w0, fd);
	hwtimer_ring_unmap(&map);
	if (efd >= 0)
		close(efd);
	close(fd);
}

static void expiry_timerfd(int64_t *late)
{
	int ep = epoll_create1(EPOLL_CLOEXEC), *fds = calloc(ld->n, sizeof(int));
	static struct epoll_event evs[1024];
	uint64_t start, b0, t0;
	size_t i, got = 0;
	long w0;

	if (ep < 0 || !fds)
		die("epoll", errno);
	/* the files first: only the arming counts against the deadlines */
	for (i = 0; i < ld->n; i++) {
		struct epoll_event ev = { .events = EPOLLIN, .data.u64 = i };

		fds[i] = timerfd_create(CLOCK_MONOTONIC, TFD_CLOEXEC | TFD_NONBLOCK);
		if (fds[i] < 0 || epoll_ctl(ep, EPOLL_CTL_ADD, fds[i], &ev))
			die("timerfd", errno);
	}
	start = now_ns();
	for (i = 0; i < ld->n; i++) {
		uint64_t d = deadline_of(start, i);
		struct itimerspec its = {
			.it_value = { .tv_sec = (time_t)(d / SEC), .tv_nsec = (long)(d % SEC) },
		};

		if (timerfd_settime(fds[i], TFD_TIMER_ABSTIME, &its, NULL))
			die("timerfd_settime", errno);
	}
	b0 = busy_start();
	t0 = now_ns();
	w0 = wakeups();
	while (got < ld->n) {
		int k = epoll_wait(ep, evs, 1024, -1), j;
		uint64_t t = now_ns(), ticks;

		/* an io_uring ring torn down before (see seq_posix()) */
		if (k < 0 && errno == EINTR)
			continue;
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
	report_expiry("timerfd + epoll", late, ld->n, busy_ns() - b0,
		      now_ns() - t0, wakeups() - w0, -1);
	close(ep);
	free(fds);
}

void expiry_uheap(int64_t *late)
{
	static uint32_t ids[1024];
	struct uqueue q;
	uint64_t start, b0, t0;
	size_t i, got = 0;
	long w0;

	if (uq_init(&q, ld->n))
		die("uheap", ENOMEM);
	start = now_ns();
	for (i = 0; i < ld->n; i++)
		if (uq_add(&q, (uint32_t)i, deadline_of(start, i)))
			die("timerfd_settime", errno);
	b0 = busy_start();
	t0 = now_ns();
	w0 = wakeups();
	while (got < ld->n) {
		uint64_t t;
		int k = uq_wait(&q, &t, ids, 1024), j;

		if (k < 0)
			die("uheap", -k);
		for (j = 0; j < k; j++) {
			uint64_t d = deadline_of(start, ids[j]);

			late[got++] = (int64_t)(t - d);
			if (rec_log)
				rec_log[ids[j]] = (struct rec_log){ ids[j], d, 0, t };
		}
	}
	report_expiry("userspace heap + one timerfd", late, ld->n, busy_ns() - b0,
		      now_ns() - t0, wakeups() - w0, -1);
	uq_free(&q);
}

/* again when interrupted by the teardown of a ring before (see seq_posix()) */
static int wait_cqe(struct io_uring *ring, struct io_uring_cqe **cqe)
{
	int ret;

	while ((ret = io_uring_wait_cqe(ring, cqe)) == -EINTR)
		;
	return ret;
}

static void expiry_uring(int64_t *late)
{
	struct __kernel_timespec *ts = calloc(ld->n, sizeof(*ts));
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
	for (i = 0; i < ld->n; i++) {
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
	b0 = busy_start();
	t0 = now_ns();
	w0 = wakeups();
	while (got < ld->n) {
		unsigned int head, k = 0;

		ret = wait_cqe(&ring, &cqe);
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
	report_expiry("io_uring timeouts", late, ld->n, busy_ns() - b0,
		      now_ns() - t0, wakeups() - w0, -1);
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

	int ret;

	if (timer_settime(c->posix, TIMER_ABSTIME, &its, NULL))
		die("timer_settime", errno);
	/*
	 * task_work left by the io_uring ring torn down before (its
	 * TIF_NOTIFY_SIGNAL) makes a wait return EINTR: wait again. That
	 * ended the run here, before the memory section, and left
	 * BENCHMARKS.md without its memory table.
	 */
	do
		ret = sigwaitinfo(&c->sig, NULL);
	while (ret < 0 && errno == EINTR);
	if (ret < 0)
		die("sigwaitinfo", errno);
}

static void latency_seq(const char *name, void (*arm_wait)(struct seq_ctx *, uint64_t),
			struct seq_ctx *c)
{
	int64_t late[NSEQ];
	char extra[160];
	unsigned int i, seed = 14;
	size_t early;

	for (i = 0; i < NSEQ; i++) {
		uint64_t d = now_ns() + 500000 + rand_r(&seed) % (4500 * 1000);

		arm_wait(c, d);
		late[i] = (int64_t)(now_ns() - d);
	}
	early = sort_late(late, NSEQ);
	snprintf(extra, sizeof(extra),
		 "\"timers\":%d,\"late_p99_ns\":%lld,\"late_max_ns\":%lld,"
		 "\"early\":%zu", NSEQ, (long long)late[NSEQ * 99 / 100],
		 (long long)late[NSEQ - 1], early);
	emit("latency", name, "late_p50_ns", (double)late[NSEQ / 2], extra);
}

void latency_all(void)
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


/*
 * The load @ld in the ways the rate curve and the herd compare: hwtimer's
 * three deliveries, the heap, io_uring timeouts, and with @timerfds one
 * timerfd per timer in an epoll.
 */
static void expiry_ways(int64_t *late, bool timerfds)
{
	expiry_hwtimer(late, 0, WAY_RING, "hwtimer expiry ring");
	expiry_hwtimer(late, 0, WAY_READ, "hwtimer read()");
	expiry_hwtimer(late, 0, WAY_EVENTFD, "hwtimer eventfd + read()");
	expiry_uheap(late);
	expiry_uring(late);
	if (timerfds)
		expiry_timerfd(late);
}

/* the rate curve: a second of timers at each rate, every way in one run */
static const uint64_t rates[] = { 3000, 10000, 30000, 100000, 300000 };
#define NRATES	(sizeof(rates) / sizeof(rates[0]))

void expiry_all(void)
{
	int64_t *late = calloc(NEXP, sizeof(*late));

	if (!late)
		die("calloc", ENOMEM);
	ld = &exp_1s;
	expiry_hwtimer(late, 0, WAY_READ, "hwtimer read()");
	expiry_hwtimer(late, MS, WAY_READ, "hwtimer read(), 1 ms slack");
	expiry_hwtimer(late, 0, WAY_RING, "hwtimer expiry ring");
	expiry_hwtimer(late, MS, WAY_RING, "hwtimer expiry ring, 1 ms slack");
	expiry_timerfd(late);
	expiry_uring(late);
	expiry_uheap(late);
	free(late);
}

/*
 * DEV_BENCH_RATES=3000,10000 (say) runs those rates of the curve alone, for
 * a quick look; unset, every rate
 */
static bool rate_wanted(uint64_t rate)
{
	const char *s = getenv("DEV_BENCH_RATES");
	char *end;

	while (s && *s) {
		if (strtoull(s, &end, 10) == rate)
			return true;
		s = *end ? end + 1 : end;
	}
	return !s;
}

/*
 * At least this many timers at each rate: the CPU time /proc/stat counts
 * comes in 10 ms ticks, 3.3 us a timer over a second of 3,000
 */
#define RATE_MIN_TIMERS	10000

void rate_all(void)
{
	int64_t *late = calloc(rates[NRATES - 1] > RATE_MIN_TIMERS ?
			       rates[NRATES - 1] : RATE_MIN_TIMERS, sizeof(*late));
	struct load l;
	size_t r;

	if (!late)
		die("calloc", ENOMEM);
	for (r = 0; r < NRATES; r++) {
		size_t n = rates[r] > RATE_MIN_TIMERS ? rates[r] : RATE_MIN_TIMERS;

		if (!rate_wanted(rates[r]))
			continue;

		l = (struct load){ "rate", n, SEC + n * 5000, SEC / rates[r],
				   rates[r] };
		ld = &l;
		expiry_ways(late, true);
	}
	ld = &exp_1s;
	free(late);
}

void herd_all(void)
{
	int64_t *late = calloc(NEXP, sizeof(*late));
	struct load l;

	if (!late)
		die("calloc", ENOMEM);
	/* a herd: 10^5 due at one instant */
	l = (struct load){ "herd", NEXP, SEC + NEXP * 5000, 0, 0 };
	ld = &l;
	expiry_ways(late, false);
	ld = &exp_1s;
	free(late);
}
