// SPDX-License-Identifier: GPL-2.0
/*
 * Layer 1 of make bench, the engine at scale: the module's own wheel core
 * (kmod/wheel.c, kmod/wheel_clock.c) and pass rule (kmod/pass.h), driven
 * natively the way a timer base drives them, on a simulated clock. Each
 * pass runs for real and is timed in this thread's CPU time; the simulated
 * clock moves on by that much, and by R for every interrupt round trip (an
 * hrtimer programmed, its interrupt and the softirq entry), R being a
 * parameter: about 1.5 us on bare metal, 16-21 us on a cloud VM.
 *
 * Two pass rules, with the same wheel:
 *   rearm  a pass that stops with work left arms the hrtimer for "now":
 *          the next pass starts R later (the module before it went on);
 *   run    the next pass starts at once (base.h: the same softirq run,
 *          then the base's worker; the CPU is taken to be free).
 * A pass that left nothing due cascades ahead in a pass of its own, with a
 * budget of its own (kmod/base.c), and leaves work if some of that is
 * left. A base wakes at the window hwt_wheel_next_range() gives, or at
 * hwt_wheel_next_ahead() if that comes first, paying R.
 *
 * Loads, one JSON object per line:
 *   stream  timeouts at a steady rate, delays uniform in 1 ms .. DMAX, after
 *           a warm-up of DMAX so that the pending set is steady, for RUN
 *           seconds around a multiple of 2^36 ns (a level-4 boundary of
 *           the wheel before its two-step levels, every 68.7 s, and of
 *           every level below): lateness (pass end - deadline) p50 / p99 /
 *           max of the timers due in the window, CPU share of the passes
 *           and round trips, and whether it kept up (the last timer's
 *           lateness under 10 ms; a run whose pending set outgrows 1.1
 *           times its steady size, on a machine too slow for the rate,
 *           stops there and did not);
 *   drain   10^6 timers spread over 1 ms .. 60 s, all due at once: timers
 *           expired per second of CPU, round trips included;
 *   burst   10^5 timers armed at once, due 2 s + i x 10 us (the shape of
 *           bench/dev_bench_expiry.c): the first timer's lateness, p99 and max;
 *   herd    10^5 timers armed at once, all due at one instant 0.4 s later
 *           (the burst of kmod/bench/hwtimer_bench.c): the same figures.
 *
 * -x FACTOR makes every pass cost FACTOR times its CPU time: with -x 6 and
 * -R 130000 it is a model of a TCG guest, where this project's in-guest
 * benchmarks run.
 *
 * usage: engine_bench [-R ROUND_TRIP_NS] [-p rearm|run] [-w stream|drain|burst|herd]
 *                     [-r RATE] [-d DMAX_MS] [-t RUN_S] [-s SHIFT] [-x FACTOR]
 */
#define _GNU_SOURCE
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <linux/prandom.h>

#include "wheel.c"
/* a wheel from before the split of wheel.c and wheel_clock.c has neither */
#if __has_include("wheel_cascade.c")
#include "wheel_geometry.c"
#include "wheel_cascade.c"
#endif
#include "wheel_clock.c"
#ifndef HWT_BENCH_BEFORE
#include "wheel_look.c"
#endif
#include "base_rule.h"

#define MS	1000000ULL
#define SEC	1000000000ULL

static unsigned int shift = 12;
static u64 rtt = 20000;		/* -R: the interrupt round trip, ns */
static bool rearm;		/* -p rearm */
static unsigned int slow = 1;	/* -x: a pass costs this many times its CPU */

static struct hwt_wheel *wheel;
static struct hwt_node *pool;	/* timers, reused once fired */
static struct hwt_node **freel;
static size_t nfree;
static struct rnd_state rnd;
/* the stream outgrew its timers: the wheel fell behind it */
static bool ran_out;

/* the simulated clock, and what it cost */
static u64 now;
static double busy;		/* ns of passes and round trips */
static u64 passes, trips;

/* lateness of the timers measured, ns */
static double *late;
static size_t nlate, maxlate;
static u64 win_from, win_to;	/* deadlines measured */
static double last_late;

static u64 cpu_clock(void)
{
	struct timespec t;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
	return (u64)t.tv_sec * SEC + (u64)t.tv_nsec;
}

/* the pass's own clock: its CPU time, as slow as -x makes it */
static u64 pass_clock(void)
{
	return cpu_clock() * slow;
}

static void setup(size_t n, u64 start)
{
	size_t i;

	wheel = calloc(1, hwt_wheel_size(hwt_wheel_max_levels(shift)));
	pool = calloc(n, sizeof(*pool));
	freel = malloc(n * sizeof(*freel));
	if (!wheel || !pool || !freel) {
		perror("calloc");
		exit(1);
	}
	hwt_wheel_init(wheel, shift, 0, start);
	for (i = 0; i < n; i++)
		freel[i] = &pool[n - 1 - i];
	nfree = n;
	now = start;
	busy = 0;
	passes = trips = 0;
	nlate = 0;
	last_late = 0;
	ran_out = false;
}

static void teardown(void)
{
	free(wheel);
	free(pool);
	free(freel);
}

static void add(u64 expires)
{
	struct hwt_node *n;

	if (!nfree) {
		ran_out = true;
		return;
	}
	n = freel[--nfree];
	n->expires = expires;
	hwt_wheel_add(wheel, n);
}

/* One pass at @now, the base's rule; returns true if it left work. */
static bool pass(void)
{
	struct hwt_pass p;
	struct hwt_node *n;
	u64 t0 = cpu_clock(), t = now;
	size_t first = nlate;
	bool more;

	hwt_pass_init(&p, pass_clock());
	while ((n = hwt_pass_pop(&p, wheel, t, pass_clock))) {
		if (n->expires >= win_from && n->expires < win_to &&
		    nlate < maxlate)
			late[nlate++] = (double)n->expires;	/* for now */
		freel[nfree++] = n;
	}
	more = !p.left || base_ahead(wheel, &p, t, pass_clock);
	t0 = (cpu_clock() - t0) * slow;
	now += t0;
	busy += (double)t0;
	passes++;
	/* every timer of the pass is delivered at its end */
	for (; first < nlate; first++)
		late[first] = last_late = (double)now - late[first];
	return more;
}

static void trip(void)
{
	now += rtt;
	busy += (double)rtt;
	trips++;
}

/*
 * Drive the wheel until @until, adding the stream's timers as their
 * arrival times come (@gap ns apart from @next, delays 1 ms .. @dmax; no
 * stream if @gap is 0). Returns when the wheel is empty if @until is 0.
 */
static void drive(u64 until, u64 next, u64 gap, u64 dmax)
{
	u64 armed = U64_MAX;
	bool more = false;

	while (!ran_out) {
		while (gap && (s64)(next - now) <= 0) {
			add(next + MS + prandom_u32_state(&rnd) % ((dmax - MS) / 1000) * 1000);
			next += gap;
		}
		if (more) {
			/* the pass before left work: at once, or a trip */
			if (rearm)
				trip();
		} else {
			/* timers without slack: their window is a point */
			if (!base_next(wheel, &armed)) {
				if (!gap)
					return;
				armed = U64_MAX;
			}
			/* sleep until the window, or the next arrival */
			if ((s64)(armed - now) > 0) {
				u64 to = gap && (s64)(next - armed) < 0 ? next : armed;

				if (until && (s64)(to - until) >= 0)
					return;
				now = to;
				if (to != armed)
					continue;
			}
			trip();
		}
		if (until && (s64)(now - until) >= 0)
			return;
		more = pass();
	}
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

static void report(const char *load, const char *extra)
{
	double p50 = 0, p99 = 0, max = 0;

	if (nlate) {
		qsort(late, nlate, sizeof(*late), cmp_double);
		p50 = late[nlate / 2];
		p99 = late[nlate * 99 / 100];
		max = late[nlate - 1];
	}
	printf("{\"layer\":\"engine\",\"load\":\"%s\",\"rule\":\"%s\",\"rtt_ns\":%llu,"
	       "\"slow\":%u,\"shift\":%u,\"timers\":%zu,\"late_p50_ns\":%.0f,\"late_p99_ns\":%.0f,"
	       "\"late_max_ns\":%.0f,\"passes\":%llu,\"trips\":%llu%s}\n",
	       load, rearm ? "rearm" : "run", (unsigned long long)rtt, slow, shift, nlate,
	       p50, p99, max, (unsigned long long)passes, (unsigned long long)trips,
	       extra);
	fflush(stdout);
}

static void stream(u64 rate, u64 dmax, u64 run)
{
	u64 gap = SEC / rate, level4 = 10ULL << 36;
	u64 start = level4 - dmax - run / 2;
	size_t n = (size_t)(rate * (dmax / MS) / 1000) * 11 / 10 + 100000;
	char extra[160];
	double busy0;

	maxlate = (size_t)(rate * (run / MS) / 1000) + 1000;
	late = malloc(maxlate * sizeof(*late));
	setup(n, start);
	win_from = start + dmax + MS;
	win_to = win_from + run;
	/* warm up: the pending set fills to its steady size */
	drive(start + dmax, start, gap, dmax);
	busy0 = busy;
	passes = trips = 0;
	drive(start + dmax + run, now, gap, dmax);
	snprintf(extra, sizeof(extra),
		 ",\"rate\":%llu,\"dmax_ms\":%llu,\"run_s\":%.1f,\"cpu_share\":%.3f,"
		 "\"kept_up\":%s,\"last_late_ns\":%.0f",
		 (unsigned long long)rate, (unsigned long long)(dmax / MS),
		 (double)run / SEC, (busy - busy0) / (double)run,
		 !ran_out && last_late < 10e6 ? "true" : "false", last_late);
	report("stream", extra);
	teardown();
	free(late);
}

static void drain(size_t count)
{
	u64 start = 1000 * SEC;
	char extra[96];
	size_t i;

	maxlate = 0;
	late = NULL;
	setup(count, start);
	win_from = win_to = 0;
	for (i = 0; i < count; i++)
		add(start + MS + prandom_u32_state(&rnd) % (59 * SEC / 1000) * 1000);
	now = start + 61 * SEC;
	drive(0, 0, 0, 0);
	snprintf(extra, sizeof(extra), ",\"drained\":%zu,\"per_cpu_s\":%.0f",
		 count, (double)count / (busy / SEC));
	report("drain", extra);
	teardown();
}

/* @count timers armed at once, due @ahead later, @spread ns apart */
static void burst(const char *load, size_t count, u64 ahead, u64 spread)
{
	u64 start = 1000 * SEC;
	double first;
	char extra[64];
	size_t i;

	maxlate = count;
	late = malloc(count * sizeof(*late));
	setup(count, start);
	win_from = 0;
	win_to = U64_MAX;
	for (i = 0; i < count; i++)
		add(start + ahead + i * spread);
	drive(0, 0, 0, 0);
	first = late[0];	/* the first delivered: timer 0 */
	snprintf(extra, sizeof(extra), ",\"first_late_ns\":%.0f", first);
	report(load, extra);
	teardown();
	free(late);
}

int main(int argc, char **argv)
{
	const char *load = "stream";
	u64 rate = 100000, dmax = 60 * SEC, run = 20 * SEC;
	int c;

	while ((c = getopt(argc, argv, "R:p:w:r:d:t:s:x:")) != -1) {
		switch (c) {
		case 'R': rtt = strtoull(optarg, NULL, 10); break;
		case 'p': rearm = !strcmp(optarg, "rearm"); break;
		case 'w': load = optarg; break;
		case 'r': rate = strtoull(optarg, NULL, 10); break;
		case 'd': dmax = strtoull(optarg, NULL, 10) * MS; break;
		case 't': run = strtoull(optarg, NULL, 10) * SEC; break;
		case 's': shift = (unsigned int)atoi(optarg); break;
		case 'x': slow = (unsigned int)atoi(optarg); break;
		default:
			fprintf(stderr, "usage: %s [-R ROUND_TRIP_NS] [-p rearm|run] [-w stream|drain|burst|herd] [-r RATE] [-d DMAX_MS] [-t RUN_S] [-s SHIFT] [-x FACTOR]\n",
				argv[0]);
			return 2;
		}
	}
	if (shift < HWT_SHIFT_MIN || shift > HWT_SHIFT_MAX || !rate ||
	    rate > SEC || dmax <= 2 * MS || !run || !slow || slow > 1000) {
		fprintf(stderr, "engine_bench: tick 2^%u..2^%u ns, a rate of 1..10^9 a second, DMAX over 2 ms, RUN over 0 s, FACTOR 1..1000\n",
			HWT_SHIFT_MIN, HWT_SHIFT_MAX);
		return 2;
	}
	prandom_seed_state(&rnd, 0x5eed);
	if (!strcmp(load, "stream"))
		stream(rate, dmax, run);
	else if (!strcmp(load, "drain"))
		drain(1000000);
	else if (!strcmp(load, "burst"))
		burst(load, 100000, 2 * SEC, 10000);
	else if (!strcmp(load, "herd"))
		burst(load, 100000, 400 * MS, 0);
	else
		return fprintf(stderr, "engine_bench: no load %s\n", load), 2;
	return 0;
}
