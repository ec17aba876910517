// SPDX-License-Identifier: GPL-2.0
/*
 * hwtimerctl latency: many timers, a lateness histogram, and with --compare
 * the same deadlines on timerfds in the same run. Records come from read(),
 * or with --ring from the expiry ring, with no syscall while it has some.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/resource.h>
#include <sys/timerfd.h>

#include "cli.h"

/* latency */

static void print_hist_json(const char *name, const struct hist *h)
{
	unsigned int b;

	printf("\"%s\":{\"count\":%llu,\"early\":%llu,\"max_ns\":%llu,"
	       "\"p50_ns\":%llu,\"p99_ns\":%llu,\"buckets\":[", name,
	       (unsigned long long)h->count, (unsigned long long)h->early,
	       (unsigned long long)h->max,
	       (unsigned long long)hist_percentile(h, 50),
	       (unsigned long long)hist_percentile(h, 99));
	for (b = 0; b < HIST_BUCKETS; b++)
		printf("%s%llu", b ? "," : "", (unsigned long long)h->bucket[b]);
	printf("]}");
}

/* the deadline of timer @i of @n, as latency spreads them from @start */
static uint64_t latency_deadline(uint64_t start, uint64_t delay,
				 uint64_t spread, uint64_t i, uint64_t n)
{
	/* spread evenly, in a scrambled order */
	return start + delay + (i * 7919 % n) * (spread / n);
}

/*
 * The same deadlines on timerfds, one each, waited for with epoll: what a
 * program would use instead, in the same run. Lateness as this reader saw
 * it goes into @h.
 */
static void latency_timerfd(uint64_t n, uint64_t delay, uint64_t spread,
			    struct hist *h)
{
	int ep = epoll_create1(EPOLL_CLOEXEC), *fds = calloc(n, sizeof(*fds));
	struct epoll_event evs[256];
	uint64_t i, got = 0, start;

	if (ep < 0 || !fds)
		die("timerfd comparison: %s", strerror(errno));
	for (i = 0; i < n; i++) {
		struct epoll_event ev = { .events = EPOLLIN, .data.u64 = i };

		fds[i] = timerfd_create(CLOCK_MONOTONIC, TFD_CLOEXEC | TFD_NONBLOCK);
		if (fds[i] < 0 || epoll_ctl(ep, EPOLL_CTL_ADD, fds[i], &ev))
			die("timerfd comparison: %s", strerror(errno));
	}
	start = now_ns(CLOCK_MONOTONIC);
	for (i = 0; i < n; i++) {
		uint64_t d = latency_deadline(start, delay, spread, i, n);
		struct itimerspec its = {
			.it_value = { .tv_sec = (time_t)(d / NSEC_PER_SEC),
				      .tv_nsec = (long)(d % NSEC_PER_SEC) },
		};

		if (timerfd_settime(fds[i], TFD_TIMER_ABSTIME, &its, NULL))
			die("timerfd_settime: %s", strerror(errno));
	}
	while (got < n && !stop) {
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
			hist_add(h, (int64_t)(t - latency_deadline(start, delay,
								   spread, i, n)));
			close(fds[i]);
			fds[i] = -1;
			got++;
		}
	}
	for (i = 0; i < n; i++)
		if (fds[i] >= 0)
			close(fds[i]);
	free(fds);
	close(ep);
}

/* --compare needs a descriptor per timer: raise the soft limit if need be */
static void latency_fd_room(uint64_t n)
{
	struct rlimit rl;

	if (getrlimit(RLIMIT_NOFILE, &rl))
		die("getrlimit: %s", strerror(errno));
	if (rl.rlim_cur != RLIM_INFINITY && rl.rlim_cur < n + 64) {
		rl.rlim_cur = rl.rlim_max == RLIM_INFINITY ||
			      rl.rlim_max >= n + 64 ? n + 64 : rl.rlim_max;
		setrlimit(RLIMIT_NOFILE, &rl);
	}
	if (rl.rlim_cur != RLIM_INFINITY && rl.rlim_cur < n + 64)
		usage_error("--compare needs one file descriptor per timer, and this "
			    "process may open %llu: use a --count of at most %llu, or "
			    "raise the limit (ulimit -n)", (unsigned long long)rl.rlim_cur,
			    (unsigned long long)(rl.rlim_cur > 64 ? rl.rlim_cur - 64 : 0));
}

int cmd_latency(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "count", required_argument, NULL, 'n' },
		{ "delay", required_argument, NULL, 'd' },
		{ "spread", required_argument, NULL, 's' },
		{ "plot", required_argument, NULL, 'p' },
		{ "slack", required_argument, NULL, 'S' },
		{ "compare", no_argument, NULL, 'c' },
		{ "ring", optional_argument, NULL, 'r' },
		{ "json", no_argument, NULL, 'J' },
		{ NULL, 0, NULL, 0 },
	};
	uint64_t n = 1000, delay = 10 * NSEC_PER_MSEC, spread = 100 * NSEC_PER_MSEC;
	uint64_t i, got = 0, start, slack = 0, ring_entries = 0;
	struct hwtimer_ring_map ring = { 0 };
	const char *plot = NULL;
	struct hist fire = { 0 }, wake = { 0 }, tfd = { 0 };
	struct hwtimer_record recs[256];
	struct hwtimer_info in;
	struct hwtimer_vec v;
	int c, json = 0, compare = 0, fd;
	char a[32], b[32], m[32];

	while ((c = getopt_long(argc, argv, "n:d:s:p:S:cr::J", longopts, NULL)) != -1) {
		switch (c) {
		case 'n':
			n = arg_count("count", optarg, 10000000);
			break;
		case 'd':
			delay = arg_duration("delay", optarg);
			break;
		case 's':
			spread = arg_duration("spread", optarg);
			break;
		case 'p':
			plot = optarg;
			break;
		case 'S':
			slack = arg_duration("slack", optarg);
			break;
		case 'c':
			compare = 1;
			break;
		case 'r':
			ring_entries = optarg ? arg_count("ring", optarg,
							  HWTIMER_RING_MAX_ENTRIES) : 4096;
			if (ring_entries & (ring_entries - 1))
				usage_error("--ring %s: the ring's entries must be a power "
					    "of two, such as %llu", optarg,
					    (unsigned long long)(1ULL << (63 - __builtin_clzll(ring_entries))));
			break;
		case 'J':
			json = 1;
			break;
		default:
			errtryhelp();
		}
	}
	if (optind != argc)
		usage_error("'latency' takes no arguments");
	if (compare)
		latency_fd_room(n);

	fd = open_dev();
	check(hwtimer_info(fd, &in), "HWTIMER_IOC_INFO");
	if (n > in.max_timers_per_fd)
		usage_error("--count %llu is more than a file may hold (%u, the module's "
			    "max_timers_per_fd)", (unsigned long long)n, in.max_timers_per_fd);
	if (slack > in.max_delay_ns)
		usage_error("--slack %s is more than the longest the module takes (%s)",
			    dur(a, slack), dur(b, in.max_delay_ns));
	if (ring_entries) {
		if (!(in.features & HWTIMER_FEAT_RING))
			die("--ring: this module has no expiry ring; leave --ring out "
			    "to read() the records");
		check(hwtimer_ring_setup(fd, (uint32_t)ring_entries, &ring),
		      "setting up the expiry ring");
	}
	/* the file's default slack applies to every timer added below */
	if (slack)
		check(hwtimer_slack(fd, &slack, NULL), "HWTIMER_IOC_SLACK");
	catch_signals();
	check(hwtimer_vec_init(&v, 4096), "allocating a batch");
	start = now_ns(CLOCK_MONOTONIC);
	for (i = 0; i < n;) {
		int ret;

		hwtimer_vec_reset(&v);
		for (; i < n && v.count < v.capacity; i++)
			hwtimer_vec_add(&v, CLOCK_MONOTONIC,
					latency_deadline(start, delay, spread, i, n),
					0, HWTIMER_F_ABS | HWTIMER_F_AUTOREMOVE, i);
		ret = hwtimer_vec_submit(fd, &v, HWTIMER_BATCH_STOP_ON_ERROR);
		check(ret, "HWTIMER_IOC_BATCH");
		/* every timer must be in, or the wait below never ends */
		if (ret < 1 || v.ops[ret - 1].result < 0)
			check(ret < 1 ? -EIO : v.ops[ret - 1].result, "adding timers");
		if ((uint32_t)ret < v.count)
			die("adding timers: the batch stopped after %d of %u", ret, v.count);
	}
	hwtimer_vec_free(&v);
	while (got < n && !stop) {
		uint64_t t;
		int k;

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
		for (c = 0; c < k; c++) {
			hist_add(&fire, (int64_t)(recs[c].fired - recs[c].deadline));
			hist_add(&wake, (int64_t)(t - recs[c].deadline));
		}
		got += (uint64_t)k;
	}
	hwtimer_ring_unmap(&ring);
	close(fd);
	if (compare && !stop)
		latency_timerfd(n, delay, spread, &tfd);

	if (json) {
		printf("{\"timers\":%llu,\"delivery\":\"%s\",\"delay_ns\":%llu,"
		       "\"spread_ns\":%llu,\"slack_ns\":%llu,", (unsigned long long)got,
		       ring_entries ? "ring" : "read",
		       (unsigned long long)delay, (unsigned long long)spread,
		       (unsigned long long)slack);
		print_hist_json("fire", &fire);
		printf(",");
		print_hist_json("wakeup", &wake);
		if (compare) {
			printf(",");
			print_hist_json("timerfd", &tfd);
		}
		printf("}\n");
	} else {
		printf("%llu timers, delays %s .. %s\n\n", (unsigned long long)got,
		       dur(a, delay), dur(b, delay + spread));
		hist_print(stdout, &fire, "lateness at expiry (kernel: fire time - deadline)");
		printf("  p50 <= %s, p99 <= %s, max %s\n\n",
		       dur(a, hist_percentile(&fire, 50)),
		       dur(b, hist_percentile(&fire, 99)), dur(m, fire.max));
		hist_print(stdout, &wake, ring_entries ?
			   "lateness seen by this reader (ring harvest - deadline)" :
			   "lateness seen by this reader (read() return - deadline)");
		printf("  p50 <= %s, p99 <= %s, max %s\n",
		       dur(a, hist_percentile(&wake, 50)),
		       dur(b, hist_percentile(&wake, 99)), dur(m, wake.max));
		if (compare && tfd.count) {
			printf("\n");
			hist_print(stdout, &tfd, "the same deadlines on timerfds, as this "
				   "reader saw them (epoll_wait() return - deadline)");
			printf("  p50 <= %s, p99 <= %s, max %s\n",
			       dur(a, hist_percentile(&tfd, 50)),
			       dur(b, hist_percentile(&tfd, 99)), dur(m, tfd.max));
			printf("\nhwtimer / timerfd, as this reader saw them: p50 %.2fx, "
			       "p99 %.2fx\n",
			       (double)hist_percentile(&wake, 50) /
			       (double)(hist_percentile(&tfd, 50) ?: 1),
			       (double)hist_percentile(&wake, 99) /
			       (double)(hist_percentile(&tfd, 99) ?: 1));
		}
	}
	if (plot) {
		int ret = hist_svg(plot, &fire, "hwtimer lateness at expiry");

		if (ret)
			die("cannot write %s: %s", plot, strerror(-ret));
		if (!json)
			printf("\nplot written to %s\n", plot);
	}
	if (fire.early || wake.early || tfd.early)
		die("%llu timers fired early: this is a bug, please report it",
		    (unsigned long long)(fire.early + wake.early + tfd.early));
	return exit_status();
}
