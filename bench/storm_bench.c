// SPDX-License-Identifier: GPL-2.0
/*
 * make bench: what one user's timers can do to everybody else's latency.
 *
 * A probe thread (SCHED_FIFO 90, mlocked) sleeps to absolute 1 ms
 * deadlines with clock_nanosleep() on the CPU that runs the wheel, and
 * records how late each wake-up is. It runs through an idle baseline and
 * then through each adversarial load an unprivileged user can put on
 * /dev/hwtimer, all in one guest run:
 *
 *  - cascade:   N timers with absolute deadlines in one level-1 slot, from
 *               the moment the slot is reached until all of them fired;
 *  - add:       arming those N timers with HWTIMER_IOC_BATCH (65536 each);
 *  - read:      one read() that returns all N records;
 *  - drain:     DRAIN of N pending timers, then close() of a file with N;
 *  - fanout:    256 timers sharing one eventfd that 2,000 epoll entries
 *               wait on, all due in the same tick, 20 rounds;
 *  - norecord:  100,000 HWTIMER_F_NO_RECORD periodic timers with a 1 ns
 *               period; if the kernel refuses them, as many 1 ms ones as
 *               it accepts (the refusal's errno is reported);
 *  - reread:    a periodic record read() 3,000 times, non-blocking, into a
 *               buffer just discarded with MADV_DONTNEED, with 200,000
 *               other timers pending (counts "rebases" in fdinfo).
 *
 * For each: the probe's p99 and max wake latency, their ratio to the idle
 * baseline (the worse of an idle stretch before the loads and one after),
 * and what the load itself did. One JSON object per line.
 * Figures only: nothing here fails on speed.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

#include "libhwtimer.h"

#define US	1000ULL
#define MS	1000000ULL
#define SEC	1000000000ULL

static const char *kernel;
static int probe_cpu;

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * SEC + (uint64_t)ts.tv_nsec;
}

static void die(const char *what, int err)
{
	fprintf(stderr, "storm_bench: %s: %s\n", what, strerror(err < 0 ? -err : err));
	exit(1);
}

static void emit(const char *name, const char *metric, double value)
{
	printf("{\"layer\":\"guest\",\"kernel\":\"%s\",\"group\":\"storm\",\"name\":\"%s\","
	       "\"metric\":\"%s\",\"value\":%.2f}\n", kernel, name, metric, value);
	fflush(stdout);
}

static void pin(int cpu)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	if (sched_setaffinity(0, sizeof(set), &set))
		die("sched_setaffinity", errno);
}

/* The probe */

#define MAX_SAMPLES	(1 << 20)

static uint64_t *samples;
static atomic_uint nsamples;
static atomic_int recording, stop_probe;

static void *probe(void *arg)
{
	struct sched_param sp = { .sched_priority = 90 };
	struct timespec ts;
	uint64_t next;

	pin(probe_cpu);
	if (pthread_setschedparam(pthread_self(), SCHED_FIFO, &sp))
		fprintf(stderr, "storm_bench: no SCHED_FIFO for the probe\n");
	next = now_ns() + MS;
	while (!atomic_load(&stop_probe)) {
		uint64_t late;

		ts.tv_sec = next / SEC;
		ts.tv_nsec = next % SEC;
		while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL) == EINTR)
			;
		late = now_ns() - next;
		if (atomic_load(&recording)) {
			unsigned int i = atomic_fetch_add(&nsamples, 1);

			if (i < MAX_SAMPLES)
				samples[i] = late;
		}
		next += MS;
		/* after a long stall, do not replay the missed periods */
		if (next < now_ns())
			next = now_ns() + MS;
	}
	return NULL;
}

static void phase_begin(void)
{
	atomic_store(&nsamples, 0);
	atomic_store(&recording, 1);
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/* the probe's p99 and max in each phase, for the ratios at the end */
static struct phase {
	const char *name;
	double p99, max;
} phases[16];
static unsigned int nphases;

/* Stop recording; report the probe's p99 and max for load @name. */
static void phase_end(const char *name)
{
	unsigned int n;
	double p99, max;

	/* one more wake-up after the load, in case it delayed the last */
	usleep(3000);
	atomic_store(&recording, 0);
	n = atomic_load(&nsamples);
	if (n > MAX_SAMPLES)
		n = MAX_SAMPLES;
	if (!n) {
		emit(name, "probe_samples", 0);
		return;
	}
	qsort(samples, n, sizeof(*samples), cmp_u64);
	p99 = (double)samples[(size_t)(n - 1) * 99 / 100] / US;
	max = (double)samples[n - 1] / US;
	emit(name, "probe_samples", n);
	emit(name, "probe_p99_us", p99);
	emit(name, "probe_max_us", max);
	if (nphases < sizeof(phases) / sizeof(phases[0]))
		phases[nphases++] = (struct phase){ name, p99, max };
}

/*
 * Each load against the idle baseline: the idle phase before the loads and
 * the one after them, whichever was worse, since emulation alone makes a
 * guest's worst wake-up vary from one idle stretch to the next.
 */
static void report_ratios(void)
{
	double idle_max = 0, idle_p99 = 0;
	unsigned int i;

	for (i = 0; i < nphases; i++) {
		if (strcmp(phases[i].name, "idle"))
			continue;
		if (phases[i].max > idle_max)
			idle_max = phases[i].max;
		if (phases[i].p99 > idle_p99)
			idle_p99 = phases[i].p99;
	}
	emit("idle", "baseline_max_us", idle_max);
	emit("idle", "baseline_p99_us", idle_p99);
	for (i = 0; i < nphases; i++)
		if (!strcmp(phases[i].name, "idle"))
			emit("idle", i ? "last_max_us" : "first_max_us", phases[i].max);
	for (i = 0; i < nphases && idle_max > 0; i++) {
		if (!strcmp(phases[i].name, "idle"))
			continue;
		emit(phases[i].name, "max_vs_idle", phases[i].max / idle_max);
		emit(phases[i].name, "p99_vs_idle", phases[i].p99 / idle_p99);
	}
}

/* Helpers */

static uint64_t fdinfo_value(int fd, const char *key)
{
	char path[64], line[256];
	size_t klen = strlen(key);
	uint64_t v = 0;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/self/fdinfo/%d", fd);
	f = fopen(path, "r");
	if (!f)
		return 0;
	while (fgets(line, sizeof(line), f))
		if (!strncmp(line, key, klen) && line[klen] == ':')
			v = strtoull(line + klen + 1, NULL, 10);
	fclose(f);
	return v;
}

static uint64_t sysfs_stat(const char *name)
{
	char path[128];
	unsigned long long v = 0;
	FILE *f;

	snprintf(path, sizeof(path), "/sys/class/misc/hwtimer/stats/%s", name);
	f = fopen(path, "r");
	if (f) {
		if (fscanf(f, "%llu", &v) != 1)
			v = 0;
		fclose(f);
	}
	return v;
}

/* softirq and total jiffies of one CPU, from /proc/stat */
static void cpu_jiffies(int cpu, uint64_t *softirq, uint64_t *total)
{
	char want[16], line[512];
	FILE *f = fopen("/proc/stat", "r");

	*softirq = *total = 0;
	if (!f)
		return;
	snprintf(want, sizeof(want), "cpu%d ", cpu);
	while (fgets(line, sizeof(line), f)) {
		unsigned long long v[10] = { 0 };
		int i;

		if (strncmp(line, want, strlen(want)))
			continue;
		sscanf(line + strlen(want), "%llu %llu %llu %llu %llu %llu %llu %llu %llu %llu",
		       &v[0], &v[1], &v[2], &v[3], &v[4], &v[5], &v[6], &v[7], &v[8], &v[9]);
		for (i = 0; i < 8; i++)
			*total += v[i];
		*softirq = v[6];
	}
	fclose(f);
}

static struct hwtimer_vec vec;

/* Submit what @vec holds; die unless every op succeeded. */
static void submit_all(int fd, const char *what)
{
	int ret = hwtimer_vec_submit(fd, &vec, 0);
	uint32_t i;

	if (ret < 0)
		die(what, ret);
	for (i = 0; i < vec.count; i++)
		if (vec.ops[i].result < 0)
			die(what, vec.ops[i].result);
	hwtimer_vec_reset(&vec);
}

/* Wait until @fd's file has no pending timer, at most @limit ns. */
static int wait_fired(int fd, uint64_t limit)
{
	uint64_t end = now_ns() + limit;

	while (fdinfo_value(fd, "pending")) {
		if (now_ns() > end)
			return -1;
		usleep(2000);
	}
	return 0;
}

/* Loads */

static uint32_t big_n = 1000000;
static struct hwtimer_info info;

/* add, cascade, read, drain: N timers in one aligned level-1 slot */
static void load_cascade(void)
{
	uint64_t slot = info.tick_ns << info.level_shift, start, t0;
	size_t rsize = info.record_size ?: sizeof(struct hwtimer_record);
	char *buf;
	uint32_t i;
	long got;
	int fd;

	/*
	 * The slot must start after the ADDs are done: time a sample of them
	 * on a scratch file first, and put the slot twice that far out.
	 */
	fd = hwtimer_open(HWTIMER_OPEN_CLOEXEC);
	if (fd < 0)
		die("open", fd);
	t0 = now_ns();
	for (i = 0; i < 16384; i++) {
		hwtimer_vec_add(&vec, CLOCK_MONOTONIC, 3600 * SEC + i, 0, 0, i);
		if (vec.count == 4096)
			submit_all(fd, "ADD (calibration)");
	}
	close(fd);
	start = now_ns() + 2 * (now_ns() - t0) * (big_n / 16384 + 1) + SEC;
	start = (start + slot - 1) / slot * slot;
	fd = hwtimer_open(HWTIMER_OPEN_CLOEXEC | HWTIMER_OPEN_NONBLOCK);
	if (fd < 0)
		die("open", fd);
	phase_begin();
	t0 = now_ns();
	for (i = 0; i < big_n; i++) {
		if (!hwtimer_vec_add(&vec, CLOCK_MONOTONIC, start + (uint64_t)i * 7919 % slot,
				     0, HWTIMER_F_ABS, i))
			die("vec_add", ENOSPC);
		if (vec.count == vec.capacity)
			submit_all(fd, "ADD (cascade)");
	}
	if (vec.count)
		submit_all(fd, "ADD (cascade)");
	emit("add", "ns_per_timer", (double)(now_ns() - t0) / big_n);
	phase_end("add");
	if (now_ns() + 100 * MS > start)
		fprintf(stderr, "storm_bench: the ADDs ran past the slot's start\n");

	while (now_ns() + 100 * MS < start)
		usleep(10000);
	phase_begin();
	if (wait_fired(fd, 120 * SEC))
		fprintf(stderr, "storm_bench: timers still pending after 120 s\n");
	emit("cascade", "timers", big_n);
	emit("cascade", "ms_to_fire_all", (double)(now_ns() - start) / MS);
	phase_end("cascade");

	buf = malloc((size_t)big_n * rsize);
	if (!buf)
		die("malloc", ENOMEM);
	memset(buf, 0, (size_t)big_n * rsize);
	phase_begin();
	t0 = now_ns();
	got = read(fd, buf, (size_t)big_n * rsize);
	emit("read", "records", got > 0 ? (double)got / rsize : 0);
	emit("read", "ms", (double)(now_ns() - t0) / MS);
	phase_end("read");
	free(buf);
	close(fd);

	/* DRAIN and close() of N pending timers */
	fd = hwtimer_open(HWTIMER_OPEN_CLOEXEC);
	if (fd < 0)
		die("open", fd);
	for (i = 0; i < big_n; i++) {
		hwtimer_vec_add(&vec, CLOCK_MONOTONIC, 3600 * SEC + i, 0, 0, i);
		if (vec.count == vec.capacity)
			submit_all(fd, "ADD (drain)");
	}
	if (vec.count)
		submit_all(fd, "ADD (drain)");
	phase_begin();
	t0 = now_ns();
	{
		uint32_t remaining = 1;
		int ret = 0;

		while (remaining && ret >= 0)
			ret = hwtimer_drain(fd, NULL, 0, &remaining);
	}
	emit("drain", "ms", (double)(now_ns() - t0) / MS);
	phase_end("drain");
	for (i = 0; i < big_n; i++) {
		hwtimer_vec_add(&vec, CLOCK_MONOTONIC, 3600 * SEC + i, 0, 0, i);
		if (vec.count == vec.capacity)
			submit_all(fd, "ADD (close)");
	}
	if (vec.count)
		submit_all(fd, "ADD (close)");
	phase_begin();
	t0 = now_ns();
	close(fd);
	emit("close", "ms", (double)(now_ns() - t0) / MS);
	phase_end("close");
}

/* 256 timers sharing one eventfd that 2,000 epoll entries wait on */
static void load_fanout(void)
{
	const int waiters = 2000, timers = 256, rounds = 20;
	int efd, ep, fd, i, r, *dups;
	struct rlimit rl;

	rl.rlim_cur = rl.rlim_max = 65536;
	if (setrlimit(RLIMIT_NOFILE, &rl)) {
		getrlimit(RLIMIT_NOFILE, &rl);
		rl.rlim_cur = rl.rlim_max;
		setrlimit(RLIMIT_NOFILE, &rl);
	}
	efd = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
	ep = epoll_create1(EPOLL_CLOEXEC);
	dups = calloc(waiters, sizeof(*dups));
	if (efd < 0 || ep < 0 || !dups)
		die("eventfd/epoll", errno);
	for (i = 0; i < waiters; i++) {
		struct epoll_event ev = { .events = EPOLLIN };

		dups[i] = dup(efd);
		if (dups[i] < 0)
			die("dup (RLIMIT_NOFILE?)", errno);
		ev.data.fd = dups[i];
		if (epoll_ctl(ep, EPOLL_CTL_ADD, dups[i], &ev))
			die("epoll_ctl", errno);
	}
	/* what one write() to the eventfd costs with these waiters */
	{
		uint64_t v = 1, best = ~0ULL, t0;

		for (r = 0; r < 5; r++) {
			t0 = now_ns();
			if (write(efd, &v, 8) != 8 || read(efd, &v, 8) != 8)
				die("eventfd", errno);
			if (now_ns() - t0 < best)
				best = now_ns() - t0;
			v = 1;
		}
		emit("fanout", "eventfd_write_us", (double)best / US);
	}
	fd = hwtimer_open(HWTIMER_OPEN_CLOEXEC);
	if (fd < 0)
		die("open", fd);
	phase_begin();
	for (r = 0; r < rounds; r++) {
		uint64_t at = now_ns() + 20 * MS;
		uint32_t d, remaining;

		for (i = 0; i < timers; i++) {
			struct hwtimer_op *op = hwtimer_vec_add(&vec, CLOCK_MONOTONIC, at, 0,
								HWTIMER_F_ABS | HWTIMER_F_EVENTFD |
								HWTIMER_F_NO_RECORD, i);

			op->eventfd = efd;
		}
		submit_all(fd, "ADD (fanout)");
		if (wait_fired(fd, 10 * SEC))
			fprintf(stderr, "storm_bench: fanout timers did not fire\n");
		hwtimer_drain(fd, NULL, 0, &remaining);
		(void)d;
	}
	phase_end("fanout");
	close(fd);
	for (i = 0; i < waiters; i++)
		close(dups[i]);
	free(dups);
	close(ep);
	close(efd);
}

/* NO_RECORD periodic timers that the kernel re-arms on its own */
static void load_norecord(void)
{
	const uint32_t want = 100000;
	uint64_t si0, tot0, si1, tot1, fired0;
	uint32_t added = 0, i;
	int efd, fd, ret, refused = 0;
	uint64_t period = 1;

	efd = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
	fd = hwtimer_open(HWTIMER_OPEN_CLOEXEC);
	if (efd < 0 || fd < 0)
		die("open", fd < 0 ? fd : errno);
	for (;;) {
		for (i = 0; i < want; i++) {
			struct hwtimer_op *op = hwtimer_vec_add(&vec, CLOCK_MONOTONIC, MS, period,
								HWTIMER_F_EVENTFD | HWTIMER_F_NO_RECORD, i);

			op->eventfd = efd;
			if (vec.count == vec.capacity || i == want - 1) {
				ret = hwtimer_vec_submit(fd, &vec, HWTIMER_BATCH_STOP_ON_ERROR);
				if (ret < 0)
					die("BATCH (norecord)", ret);
				for (uint32_t k = 0; k < vec.count; k++) {
					if (vec.ops[k].result < 0) {
						refused = vec.ops[k].result;
						break;
					}
					added++;
				}
				hwtimer_vec_reset(&vec);
				if (refused)
					break;
			}
		}
		if (!refused || period != 1 || added)
			break;
		/* 1 ns refused outright: what does the kernel still take? */
		emit("norecord", "refused_1ns_errno", -refused);
		refused = 0;
		period = MS;
	}
	if (refused)
		emit("norecord", "refused_at_errno", -refused);
	emit("norecord", "period_ns", (double)period);
	emit("norecord", "timers", added);
	usleep(200000);
	cpu_jiffies(probe_cpu, &si0, &tot0);
	fired0 = sysfs_stat("fired");
	phase_begin();
	usleep(2 * 1000000);
	phase_end("norecord");
	cpu_jiffies(probe_cpu, &si1, &tot1);
	emit("norecord", "expiries_per_s", (double)(sysfs_stat("fired") - fired0) / 2.0);
	emit("norecord", "softirq_cpu_pct",
	     tot1 > tot0 ? 100.0 * (double)(si1 - si0) / (double)(tot1 - tot0) : 0);
	close(fd);
	close(efd);
}

/* A periodic record read() into a buffer whose page was just discarded */
static void load_reread(void)
{
	const uint32_t others = 200000, reads = 3000;
	long page = sysconf(_SC_PAGESIZE);
	uint64_t rebases;
	uint32_t i, ok = 0;
	char *buf;
	int fd, efd, ret;

	fd = hwtimer_open(HWTIMER_OPEN_CLOEXEC | HWTIMER_OPEN_NONBLOCK);
	efd = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
	buf = mmap(NULL, page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (fd < 0 || efd < 0 || buf == MAP_FAILED)
		die("open", fd < 0 ? fd : errno);
	for (i = 0; i < others; i++) {
		hwtimer_vec_add(&vec, CLOCK_MONOTONIC, 3600 * SEC + i, 0, 0, i);
		if (vec.count == vec.capacity)
			submit_all(fd, "ADD (reread)");
	}
	if (vec.count)
		submit_all(fd, "ADD (reread)");
	ret = hwtimer_add(fd, CLOCK_MONOTONIC, MS, MS, 0, 1);
	if (ret < 0)
		die("ADD periodic", ret);
	{
		struct hwtimer_op *op = hwtimer_vec_add(&vec, CLOCK_MONOTONIC, MS, MS,
							HWTIMER_F_EVENTFD | HWTIMER_F_NO_RECORD, 2);

		op->eventfd = efd;
		submit_all(fd, "ADD (clock keeper)");
	}
	srand(13);
	phase_begin();
	for (i = 0; i < reads; i++) {
		usleep((useconds_t)(rand() % 1000));
		madvise(buf, page, MADV_DONTNEED);
		if (read(fd, buf, sizeof(struct hwtimer_record)) > 0)
			ok++;
	}
	phase_end("reread");
	rebases = fdinfo_value(fd, "rebases");
	emit("reread", "reads", ok);
	emit("reread", "rebases", (double)rebases);
	munmap(buf, page);
	close(fd);
	close(efd);
}

int main(int argc, char **argv)
{
	static struct utsname u;
	pthread_t th;
	int fd, ret;

	uname(&u);
	kernel = u.release;
	if (getenv("STORM_N"))
		big_n = (uint32_t)strtoul(getenv("STORM_N"), NULL, 0);
	probe_cpu = sysconf(_SC_NPROCESSORS_ONLN) > 1 ? 1 : 0;
	samples = calloc(MAX_SAMPLES, sizeof(*samples));
	if (!samples || hwtimer_vec_init(&vec, 65536))
		die("calloc", ENOMEM);
	if (mlockall(MCL_CURRENT | MCL_FUTURE))
		fprintf(stderr, "storm_bench: mlockall: %s\n", strerror(errno));
	fd = hwtimer_open(HWTIMER_OPEN_CLOEXEC);
	if (fd < 0)
		die("open /dev/hwtimer", fd);
	ret = hwtimer_info(fd, &info);
	if (ret)
		die("INFO", ret);
	close(fd);

	/* the load runs where the probe does, so its hrtimers fire there */
	pin(probe_cpu);
	if (pthread_create(&th, NULL, probe, NULL))
		die("pthread_create", errno);
	usleep(200000);

	phase_begin();
	sleep(5);
	phase_end("idle");
	load_fanout();
	load_reread();
	load_norecord();
	load_cascade();
	phase_begin();
	sleep(5);
	phase_end("idle");
	report_ratios();

	atomic_store(&stop_probe, 1);
	pthread_join(th, NULL);
	hwtimer_vec_free(&vec);
	return 0;
}
