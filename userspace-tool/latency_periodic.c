// SPDX-License-Identifier: GPL-2.0
/*
 * hwtimerctl latency, the periodic mode, as cyclictest measures: one timer
 * with a fixed-rate period from an absolute first deadline, each wakeup a
 * sample (its time minus the deadline it stands for). With --compare, a
 * periodic timerfd on the same grid shifted by half a period, waited for
 * by a thread of its own, so that both run at once, each waking while the
 * other sleeps, for the same time and under the same load.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <string.h>
#include <sys/timerfd.h>
#include <unistd.h>

#include "latency.h"

/**
 * struct tfd_side - the timerfd's thread
 * @r: the run
 * @tfd: its timerfd, armed by the main thread
 * @first: its first deadline, set before the timerfd is armed
 * @ready: the thread runs: the schedule may start
 * @err: errno of a read() that failed
 */
struct tfd_side {
	struct latency_run *r;
	int tfd;
	uint64_t first;
	pthread_barrier_t ready;
	int err;
};

static void *tfd_thread(void *arg)
{
	struct tfd_side *t = arg;
	struct latency_run *r = t->r;
	uint64_t k = r->o->expiries, covered = 0, first = 0;
	sigset_t all;

	/* signals go to the main thread, whose read() they end */
	sigfillset(&all);
	pthread_sigmask(SIG_BLOCK, &all, NULL);
	pthread_barrier_wait(&t->ready);
	while (!stop && (!k || covered < k) && r->tfd.s.n < LAT_MAX_SAMPLES) {
		uint64_t ticks, now;
		ssize_t n = read(t->tfd, &ticks, sizeof(ticks));

		now = now_ns(CLOCK_MONOTONIC);
		if (n < 0 && errno == EINTR)
			continue;
		if (n != sizeof(ticks)) {
			t->err = n < 0 ? errno : EIO;
			break;
		}
		if (!first)
			first = __atomic_load_n(&t->first, __ATOMIC_ACQUIRE);
		/* a late read stands for every period since: its first deadline */
		series_add(&r->tfd, (int64_t)(now - (first + covered * r->o->interval)));
		r->tfd.overruns += ticks - 1;
		covered += ticks;
	}
	return NULL;
}

static void start_tfd(struct tfd_side *t, pthread_t *th)
{
	pthread_attr_t attr;
	int ret;

	t->tfd = timerfd_create(CLOCK_MONOTONIC, TFD_CLOEXEC);
	if (t->tfd < 0)
		die("timerfd_create: %s", strerror(errno));
	pthread_barrier_init(&t->ready, NULL, 2);
	/* the thread inherits the process's policy, priority and CPUs */
	pthread_attr_init(&attr);
	pthread_attr_setstacksize(&attr, 256 * 1024);
	ret = pthread_create(th, &attr, tfd_thread, t);
	pthread_attr_destroy(&attr);
	if (ret)
		die("the timerfd's thread: %s", strerror(ret));
	pthread_barrier_wait(&t->ready);
}

static void arm_tfd(struct tfd_side *t, uint64_t first, uint64_t interval)
{
	struct itimerspec its = {
		.it_value = { .tv_sec = (time_t)(first / NSEC_PER_SEC),
			      .tv_nsec = (long)(first % NSEC_PER_SEC) },
		.it_interval = { .tv_sec = (time_t)(interval / NSEC_PER_SEC),
				 .tv_nsec = (long)(interval % NSEC_PER_SEC) },
	};

	__atomic_store_n(&t->first, first, __ATOMIC_RELEASE);
	if (timerfd_settime(t->tfd, TFD_TIMER_ABSTIME, &its, NULL))
		die("timerfd_settime: %s", strerror(errno));
}

static void stop_tfd(struct tfd_side *t, pthread_t th)
{
	/* it ends at its next expiry, at most a period away */
	pthread_join(th, NULL);
	close(t->tfd);
	pthread_barrier_destroy(&t->ready);
	if (t->err)
		die("reading the timerfd: %s", strerror(t->err));
}

void latency_periodic(struct latency_run *r, int fd)
{
	const struct latency_opts *o = r->o;
	struct tfd_side t = { .r = r };
	uint64_t k = o->expiries, start;
	struct hwtimer_op op = {
		.op = HWTIMER_OP_ADD, .flags = HWTIMER_F_ABS, .clockid = CLOCK_MONOTONIC,
		.period = o->interval, .slack = o->slack,
	};
	pthread_t th;
	int id;

	if (o->compare)
		start_tfd(&t, &th);
	progress_start(&r->progress, "latency: periods", k, o->quiet);
	start = now_ns(CLOCK_MONOTONIC);
	op.expires = start + o->interval;
	id = hwtimer_submit_op(fd, &op);
	check(id, "HWTIMER_IOC_ADD");
	if (o->compare)
		arm_tfd(&t, start + o->interval + o->interval / 2, o->interval);
	while (!stop && (!k || r->expiries < k) && r->wake.s.n < LAT_MAX_SAMPLES) {
		struct hwtimer_record rec;
		int n = hwtimer_read(fd, &rec, 1);
		uint64_t now = now_ns(CLOCK_MONOTONIC);

		if (n == -EINTR)
			continue;
		check(n, "read");
		series_add(&r->fire, (int64_t)(rec.fired - rec.deadline));
		series_add(&r->wake, (int64_t)(now - rec.deadline));
		r->fire.overruns += rec.overruns;
		r->wake.overruns += rec.overruns;
		r->expiries += 1 + rec.overruns;
		progress_update(&r->progress, r->expiries);
	}
	check(hwtimer_cancel(fd, (uint32_t)id), "HWTIMER_IOC_CANCEL");
	if (o->compare)
		stop_tfd(&t, th);
	progress_end(&r->progress);
}
