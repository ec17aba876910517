// SPDX-License-Identifier: GPL-2.0
/*
 * dev_bench victim: what a load of timers costs the rest of the machine,
 * the way cyclictest measures it (issue 46). On every online CPU a
 * SCHED_FIFO thread at priority 99, pinned and with its memory locked
 * (cyclictest -m -p 99 -a CPU -n -i 200), sleeps until the next multiple
 * of 200 us on CLOCK_MONOTONIC and notes how late it woke. Its lateness is
 * taken with the machine idle, then under each load in turn, each 100,000
 * timers a second for a second:
 *
 *  - hwtimer's expiry ring and hwtimer's read(), dev_bench rate's loads
 *    (dev_bench_expiry.c), and what a program would use instead, its own
 *    heap and one timerfd;
 *  - stress-ng's timer stressor (--timer 1 --timer-freq 100000): one POSIX
 *    timer on CLOCK_REALTIME, periodic, SIGEV_SIGNAL to a handler that
 *    counts;
 *  - stress-ng's hrtimers stressor, at the same rate: its 32 processes,
 *    each with a periodic POSIX timer on CLOCK_REALTIME signalling a
 *    handler, every 320 us with a phase of its own (stress-ng's are every
 *    1-50,000 ns, which is past what these guests can take).
 *
 * The rows: the victim's lateness p50 / p99 / max over every CPU's samples
 * taken while the load's timers were due, the worst CPU's p99 and max, and
 * every CPU's busy time over the load's run (arming or forking included)
 * per timer of it.
 * Neither stress-ng nor cyclictest is in Debian 12's main archive for every
 * machine this runs on; this is their shape, in the same run as hwtimer's.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "dev_bench.h"

#define VICTIM_PERIOD	(200 * 1000ULL)		/* ns: cyclictest -i 200 */
#define VICTIM_RATE	100000ULL		/* each load's timers a second */
#define VICTIM_SAMPLES	(1U << 16)		/* kept per CPU and load */
#define VICTIM_CPUS	64
#define HRT_PROCS	32			/* stress-ng's hrtimers processes */

struct victim {
	pthread_t thr;
	int cpu;
	unsigned int n;			/* samples kept */
	uint64_t *when;			/* when each woke */
	int64_t *late;			/* and how late */
};

static struct victim victims[VICTIM_CPUS];
static unsigned int nvictims;
static atomic_bool victims_stop;

static void *victim_run(void *arg)
{
	struct victim *v = arg;
	struct sched_param sp = { .sched_priority = 99 };
	uint64_t next = (now_ns() / VICTIM_PERIOD + 2) * VICTIM_PERIOD;
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(v->cpu, &set);
	if (pthread_setaffinity_np(pthread_self(), sizeof(set), &set) ||
	    pthread_setschedparam(pthread_self(), SCHED_FIFO, &sp))
		die("victim: pinning or SCHED_FIFO", EPERM);
	while (!atomic_load_explicit(&victims_stop, memory_order_relaxed)) {
		struct timespec ts = { next / SEC, next % SEC };
		uint64_t t;

		while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL) == EINTR)
			;
		t = now_ns();
		if (v->n < VICTIM_SAMPLES) {
			v->when[v->n] = t;
			v->late[v->n++] = (int64_t)(t - next);
		}
		/* as cyclictest: the periods it overran are skipped */
		do
			next += VICTIM_PERIOD;
		while (next <= t);
	}
	return NULL;
}

static void victims_start(void)
{
	cpu_set_t online;
	unsigned int i;
	int cpu;

	if (sched_getaffinity(0, sizeof(online), &online))
		die("sched_getaffinity", errno);
	atomic_store(&victims_stop, false);
	nvictims = 0;
	for (cpu = 0; cpu < VICTIM_CPUS; cpu++) {
		struct victim *v = &victims[nvictims];

		if (!CPU_ISSET(cpu, &online))
			continue;
		v->cpu = cpu;
		v->n = 0;
		if (!v->when)
			v->when = malloc(VICTIM_SAMPLES * sizeof(*v->when));
		if (!v->late)
			v->late = malloc(VICTIM_SAMPLES * sizeof(*v->late));
		if (!v->when || !v->late)
			die("victim", ENOMEM);
		nvictims++;
	}
	for (i = 0; i < nvictims; i++)
		if (pthread_create(&victims[i].thr, NULL, victim_run, &victims[i]))
			die("pthread_create", EAGAIN);
}

static void victims_stop_all(void)
{
	unsigned int i;

	atomic_store(&victims_stop, true);
	for (i = 0; i < nvictims; i++)
		pthread_join(victims[i].thr, NULL);
}

static int cmp_i64(const void *a, const void *b)
{
	int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;

	return (x > y) - (x < y);
}

/*
 * The samples taken in [@from, @to]: each CPU's p99 and max, and all of
 * them together, as row @name.
 */
static void victims_report(const char *name, uint64_t from, uint64_t to,
			   uint64_t busy)
{
	static int64_t all[VICTIM_CPUS * VICTIM_SAMPLES];
	int64_t cpu_p99 = 0, cpu_max = 0;
	char extra[512];
	size_t n = 0;
	unsigned int i, j;

	for (i = 0; i < nvictims; i++) {
		struct victim *v = &victims[i];
		size_t k = 0;

		for (j = 0; j < v->n; j++)
			if (v->when[j] >= from && v->when[j] <= to)
				v->late[k++] = v->late[j];
		if (!k)
			continue;
		qsort(v->late, k, sizeof(*v->late), cmp_i64);
		if (v->late[k * 99 / 100] > cpu_p99)
			cpu_p99 = v->late[k * 99 / 100];
		if (v->late[k - 1] > cpu_max)
			cpu_max = v->late[k - 1];
		memcpy(all + n, v->late, k * sizeof(*all));
		n += k;
	}
	if (!n)
		die("victim: no samples in the load's window", EIO);
	qsort(all, n, sizeof(*all), cmp_i64);
	snprintf(extra, sizeof(extra),
		 "\"samples\":%zu,\"cpus\":%u,\"period_ns\":%llu,\"rate\":%llu,"
		 "\"late_p50_ns\":%lld,\"late_p99_ns\":%lld,\"late_max_ns\":%lld,"
		 "\"cpu_p99_ns\":%lld,\"cpu_max_ns\":%lld,\"busy_ns_per_timer\":%.1f",
		 n, nvictims, VICTIM_PERIOD, VICTIM_RATE, (long long)all[n / 2],
		 (long long)all[n * 99 / 100], (long long)all[n - 1],
		 (long long)cpu_p99, (long long)cpu_max,
		 (double)busy / (double)VICTIM_RATE);
	emit("victim", name, "late_p99_ns", (double)all[n * 99 / 100], extra);
}

/*
 * A hwtimer way at VICTIM_RATE, or with @heap the heap + one timerfd: the
 * victims' window is from the first deadline to the last timer taken.
 */
static void victim_timers(enum way way, bool heap, const char *name)
{
	static struct rec_log log[VICTIM_RATE];
	static int64_t late[VICTIM_RATE];
	struct load l = { "victim_load", VICTIM_RATE, SEC / 2, SEC / VICTIM_RATE,
			  VICTIM_RATE };
	uint64_t from = UINT64_MAX, to = 0, b0;
	size_t i;

	ld = &l;
	rec_log = log;
	memset(log, 0, sizeof(log));
	victims_start();
	b0 = busy_ns();
	if (heap)
		expiry_uheap(late);
	else
		expiry_hwtimer(late, 0, way, name);
	b0 = busy_ns() - b0;
	victims_stop_all();
	rec_log = NULL;
	for (i = 0; i < VICTIM_RATE; i++) {
		if (!log[i].deadline)
			continue;
		if (log[i].deadline < from)
			from = log[i].deadline;
		if (log[i].seen > to)
			to = log[i].seen;
	}
	if (from > to)
		return;		/* a module without the way: skipped */
	victims_report(name, from, to, b0);
}

static volatile sig_atomic_t ticks;

static void count_tick(int sig)
{
	ticks++;
}

/*
 * A periodic POSIX timer on CLOCK_REALTIME every @period ns from @first
 * (CLOCK_REALTIME) on, signalling count_tick(); until @ticks reaches @n.
 */
static void posix_ticks(uint64_t first, uint64_t period, long n)
{
	struct sigevent sev = { .sigev_notify = SIGEV_SIGNAL, .sigev_signo = SIGRTMIN };
	struct itimerspec its = {
		.it_value = { first / SEC, first % SEC },
		.it_interval = { period / SEC, period % SEC },
	};
	struct sigaction sa = { .sa_handler = count_tick };
	timer_t t;

	ticks = 0;
	if (sigaction(SIGRTMIN, &sa, NULL) ||
	    timer_create(CLOCK_REALTIME, &sev, &t) ||
	    timer_settime(t, TIMER_ABSTIME, &its, NULL))
		die("POSIX timer", errno);
	while (ticks < n)
		pause();
	timer_delete(t);
}

static uint64_t realtime_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	return (uint64_t)ts.tv_sec * SEC + (uint64_t)ts.tv_nsec;
}

/*
 * stress-ng --timer at VICTIM_RATE (@procs 1), or --hrtimers at the same
 * rate (@procs HRT_PROCS, each every @procs / VICTIM_RATE s with a phase
 * of its own), in child processes, for a second after a lead of 0.1 s.
 */
static void victim_stressor(unsigned int procs, const char *name)
{
	uint64_t period = procs * SEC / VICTIM_RATE;
	uint64_t rt0 = realtime_ns() + SEC / 10, mono0 = now_ns() + SEC / 10;
	pid_t pids[HRT_PROCS];
	unsigned int i;
	uint64_t b0;

	victims_start();
	b0 = busy_ns();
	for (i = 0; i < procs; i++) {
		pids[i] = fork();
		if (pids[i] < 0)
			die("fork", errno);
		if (!pids[i]) {
			posix_ticks(rt0 + period * i / procs, period,
				    (long)(VICTIM_RATE / procs));
			_exit(0);
		}
	}
	for (i = 0; i < procs; i++) {
		int st;

		if (waitpid(pids[i], &st, 0) < 0 || !WIFEXITED(st) || WEXITSTATUS(st))
			die(name, ECHILD);
	}
	b0 = busy_ns() - b0;
	victims_stop_all();
	victims_report(name, mono0, now_ns(), b0);
}

/* a second idle, after the victims' first 0.1 s, as the loads' lead */
static void victim_idle(void)
{
	uint64_t from = now_ns() + SEC / 10, b0;
	struct timespec ts = { 1, SEC / 10 };

	victims_start();
	b0 = busy_ns();
	while (nanosleep(&ts, &ts) && errno == EINTR)
		;
	b0 = busy_ns() - b0;
	victims_stop_all();
	victims_report("idle", from, now_ns(), b0);
}

void victim_all(void)
{
	if (mlockall(MCL_CURRENT | MCL_FUTURE))
		fprintf(stderr, "dev_bench: victim: mlockall: %s\n", strerror(errno));
	victim_idle();
	victim_timers(WAY_RING, false, "hwtimer expiry ring");
	victim_timers(WAY_READ, false, "hwtimer read()");
	victim_timers(WAY_READ, true, "userspace heap + one timerfd");
	victim_stressor(1, "stress-ng --timer");
	victim_stressor(HRT_PROCS, "stress-ng --hrtimers");
	munlockall();
}
