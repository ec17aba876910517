// SPDX-License-Identifier: GPL-2.0
/*
 * hwtimerctl latency, the one-shot mode: many timers with deadlines spread
 * over a window, read() (or harvested from an expiry ring) as they fire;
 * with --compare, then the same deadlines on timerfds, one each, waited
 * for with epoll.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/timerfd.h>
#include <unistd.h>

#include "latency.h"

/* the deadline of timer @i of @n, as latency spreads them from @start */
static uint64_t deadline(const struct latency_opts *o, uint64_t start, uint64_t i)
{
	/* spread evenly, in a scrambled order */
	return start + o->delay + (i * 7919 % o->count) * (o->spread / o->count);
}

/* every timer in, in batches, or die: else the wait for them never ends */
static void add_timers(int fd, const struct latency_opts *o, uint64_t start)
{
	struct hwtimer_vec v;
	uint64_t i;

	check(hwtimer_vec_init(&v, 4096), "allocating a batch");
	for (i = 0; i < o->count;) {
		int ret;

		hwtimer_vec_reset(&v);
		for (; i < o->count && v.count < v.capacity; i++)
			hwtimer_vec_add(&v, CLOCK_MONOTONIC, deadline(o, start, i), 0,
					HWTIMER_F_ABS | HWTIMER_F_AUTOREMOVE, i);
		ret = hwtimer_vec_submit(fd, &v, HWTIMER_BATCH_STOP_ON_ERROR);
		check(ret, "HWTIMER_IOC_BATCH");
		if (ret < 1 || v.ops[ret - 1].result < 0)
			check(ret < 1 ? -EIO : v.ops[ret - 1].result, "adding timers");
		if ((uint32_t)ret < v.count)
			die("adding timers: the batch stopped after %d of %u", ret, v.count);
	}
	hwtimer_vec_free(&v);
}

/*
 * The same deadlines on timerfds, one each, waited for with epoll: what a
 * program would use instead, in the same run, after the hwtimer ones.
 */
static void timerfds(struct latency_run *r)
{
	const struct latency_opts *o = r->o;
	int ep = epoll_create1(EPOLL_CLOEXEC), *fds = calloc(o->count, sizeof(*fds));
	struct epoll_event evs[256];
	uint64_t i, got = 0, start;

	if (ep < 0 || !fds)
		die("timerfd comparison: %s", strerror(errno));
	for (i = 0; i < o->count; i++) {
		struct epoll_event ev = { .events = EPOLLIN, .data.u64 = i };

		fds[i] = timerfd_create(CLOCK_MONOTONIC, TFD_CLOEXEC | TFD_NONBLOCK);
		if (fds[i] < 0 || epoll_ctl(ep, EPOLL_CTL_ADD, fds[i], &ev))
			die("timerfd comparison: %s", strerror(errno));
	}
	progress_start(&r->progress, "latency: timerfds fired", o->count, o->quiet);
	start = now_ns(CLOCK_MONOTONIC);
	for (i = 0; i < o->count; i++) {
		uint64_t d = deadline(o, start, i);
		struct itimerspec its = {
			.it_value = { .tv_sec = (time_t)(d / NSEC_PER_SEC),
				      .tv_nsec = (long)(d % NSEC_PER_SEC) },
		};

		if (timerfd_settime(fds[i], TFD_TIMER_ABSTIME, &its, NULL))
			die("timerfd_settime: %s", strerror(errno));
	}
	while (got < o->count && !stop) {
		int k = epoll_wait(ep, evs, 256, -1), j;
		uint64_t t = now_ns(CLOCK_MONOTONIC), ticks;

		if (k < 0 && errno == EINTR)
			continue;
		if (k < 0)
			die("epoll_wait: %s", strerror(errno));
		for (j = 0; j < k; j++) {
			i = evs[j].data.u64;
			if (read(fds[i], &ticks, sizeof(ticks)) != sizeof(ticks))
				continue;
			series_add(&r->tfd, (int64_t)(t - deadline(o, start, i)));
			close(fds[i]);
			fds[i] = -1;
			got++;
		}
		progress_update(&r->progress, got);
	}
	progress_end(&r->progress);
	for (i = 0; i < o->count; i++)
		if (fds[i] >= 0)
			close(fds[i]);
	free(fds);
	close(ep);
}

void latency_oneshot(struct latency_run *r, int fd)
{
	const struct latency_opts *o = r->o;
	struct hwtimer_ring_map ring = { 0 };
	struct hwtimer_record recs[256];
	uint64_t slack = o->slack, got = 0;

	if (o->ring)
		check(hwtimer_ring_setup(fd, o->ring, &ring), "setting up the expiry ring");
	/* the file's default slack applies to every timer added below */
	if (slack)
		check(hwtimer_slack(fd, &slack, NULL), "HWTIMER_IOC_SLACK");
	progress_start(&r->progress, "latency: timers fired", o->count, o->quiet);
	add_timers(fd, o, now_ns(CLOCK_MONOTONIC));
	while (got < o->count && !stop) {
		uint64_t t;
		int k, i;

		if (ring.hdr) {
			k = hwtimer_ring_harvest(&ring, recs, 256);
			if (!k) {
				/* nothing yet: sleep until the kernel says so */
				k = hwtimer_ring_wait(&ring, -1);
				if (k >= 0)
					continue;
			}
		} else {
			k = hwtimer_read(fd, recs, 256);
		}
		if (k == -EINTR)
			continue;
		check(k, ring.hdr ? "harvesting the ring" : "read");
		t = now_ns(CLOCK_MONOTONIC);
		for (i = 0; i < k; i++) {
			series_add(&r->fire, (int64_t)(recs[i].fired - recs[i].deadline));
			series_add(&r->wake, (int64_t)(t - recs[i].deadline));
		}
		got += (uint64_t)k;
		progress_update(&r->progress, got);
	}
	progress_end(&r->progress);
	r->expiries = got;
	hwtimer_ring_unmap(&ring);
	if (o->compare && !stop)
		timerfds(r);
}
