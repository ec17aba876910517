// SPDX-License-Identifier: GPL-2.0
/*
 * dev_bench trace RATE: one rate of the curve, for the breakdown of late
 * expiries that bench/trace_rate.sh takes and bench/late_breakdown.py
 * reads. The heap with one timerfd runs first: twice its p99 is the bar
 * a late expiry is one past. Then each of hwtimer's ways, between marks
 * written to the kernel's trace ("hwt-way NAME begin" and "end"), and for
 * each, the timers the program saw later than the bar, a line each:
 *
 *   late WAY ID DEADLINE FIRED SEEN      (CLOCK_MONOTONIC ns)
 *
 * The trace runs on the "mono" clock, so its times compare with these.
 * With "all", every timer is on a line of its own as well,
 *
 *   timer WAY ID DEADLINE FIRED SEEN     (FIRED 0 for the heap)
 *
 * the heap's included, whose run is marked too (bench/path_trace.sh).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "dev_bench.h"

static int cmp_i64(const void *a, const void *b)
{
	int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;

	return x < y ? -1 : x > y;
}

/* A line into the kernel's trace, if it is there to take one. */
static void mark(const char *way, const char *what)
{
	int fd = open("/sys/kernel/tracing/trace_marker", O_WRONLY | O_CLOEXEC);
	char line[128];

	if (fd < 0)
		return;
	snprintf(line, sizeof(line), "hwt-way %s %s\n", way, what);
	if (write(fd, line, strlen(line)) < 0)
		perror("trace_marker");
	close(fd);
}

/* The timers of @way at or past @bar, each on a line (all of them: @bar 0). */
static void print_late(const char *tag, const char *what, uint64_t rate,
		       int64_t bar)
{
	size_t i;

	for (i = 0; i < rate; i++) {
		const struct rec_log *r = &rec_log[i];

		if ((int64_t)(r->seen - r->deadline) > bar)
			printf("%s %s %u %llu %llu %llu\n", what, tag, r->id,
			       (unsigned long long)r->deadline,
			       (unsigned long long)r->fired,
			       (unsigned long long)r->seen);
	}
	fflush(stdout);
}

/*
 * @all: every timer of every way, the heap's included, on "timer" lines (for
 * bench/path_trace.sh), besides the late ones
 */
void trace_rate(uint64_t rate, bool all)
{
	static const struct {
		enum way way;
		const char *tag, *name;
	} ways[] = {
		{ WAY_RING, "ring", "hwtimer expiry ring" },
		{ WAY_READ, "read", "hwtimer read()" },
		{ WAY_EVENTFD, "eventfd", "hwtimer eventfd + read()" },
	};
	struct load l = { "trace", rate, SEC + rate * 5000, SEC / rate, rate };
	int64_t *late = calloc(rate, sizeof(*late)), bar;
	size_t w;

	rec_log = calloc(rate, sizeof(*rec_log));
	if (!late || !rec_log || !rate)
		die("trace", ENOMEM);
	ld = &l;
	mark("heap", "begin");
	expiry_uheap(late);
	mark("heap", "end");
	if (all)
		print_late("heap", "timer", rate, INT64_MIN);
	qsort(late, rate, sizeof(*late), cmp_i64);
	bar = 2 * late[rate * 99 / 100];
	printf("bar %lld heap_p99 %lld\n", (long long)bar,
	       (long long)late[rate * 99 / 100]);
	for (w = 0; w < sizeof(ways) / sizeof(ways[0]); w++) {
		mark(ways[w].tag, "begin");
		expiry_hwtimer(late, 0, ways[w].way, ways[w].name);
		mark(ways[w].tag, "end");
		print_late(ways[w].tag, "late", rate, bar);
		if (all)
			print_late(ways[w].tag, "timer", rate, INT64_MIN);
	}
	free(rec_log);
	rec_log = NULL;
	free(late);
}
