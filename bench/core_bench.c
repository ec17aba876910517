// SPDX-License-Identifier: GPL-2.0
/*
 * Layer 1 of make bench: the wheel core, built for userspace, against the
 * structures timer facilities use instead (contenders.h): a binary heap
 * (libuv), a 4-ary heap (Go), a red-black tree (hrtimer) and a model of the
 * kernel's timer_list wheel. All five sit behind the same operations and
 * run the same workloads with the same random numbers, at N = 10^3 .. 10^7
 * pending.
 *
 * Time is a fake clock in ns, as the wheel's users tell it; each workload
 * is timed with CLOCK_MONOTONIC around its loop and reported as the median
 * ns per operation of several repeats, one JSON object per line:
 *   {"layer":"native","impl":"wheel","workload":"arm_cancel","n":1000,
 *    "ns_per_op":12.3,"bytes_per_timer":24}
 *
 * The wheel alone also reports its longest single run under the module's
 * budget ("pass_slot", "pass_spread": worst_pass_ns).
 *
 * "-w geometry" sweeps the tick instead (geometry_bench()), with N = MAX_N;
 * "-w sweep" times arm + cancel and expiry of four structures by N, taking
 * turns (sweep_bench()).
 *
 * usage: core_bench [-m MIN_N] [-n MAX_N] [-r REPEATS] [-i IMPL] [-w WORKLOAD]
 *                   [-o OPS] [-s SHIFT]
 * (-i/-w/-o pick one measurement, for valgrind --tool=callgrind with
 *  --toggle-collect=measure_*; -i null runs the workloads around no
 *  structure at all, what callgrind subtracts)
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
#include "contenders.h"

#define MS	1000000ULL
#define SEC	1000000000ULL


/* The wheel */

static struct hwt_wheel *wheel;

static u64 wheel_slack(const struct hwt_node *n)
{
	return container_of(n, struct btimer, node)->slack;
}

static void wheel_init(u64 now, size_t max)
{
	wheel = calloc(1, hwt_wheel_size(hwt_wheel_max_levels(shift)));
	hwt_wheel_init(wheel, shift, 0, now);
	wheel->slack_of = wheel_slack;
}

static void wheel_fini(void)
{
	free(wheel);
}

static void wheel_add(struct btimer *t, u64 expires)
{
	t->node.expires = expires;
	hwt_wheel_add(wheel, &t->node);
}

static void wheel_del(struct btimer *t)
{
	hwt_wheel_del(wheel, &t->node);
}

static void wheel_mod(struct btimer *t, u64 expires)
{
	hwt_wheel_mod(wheel, &t->node, expires);
}

/*
 * The budget does not bind here: the pass workload measures it. Nothing is
 * cascaded ahead (wheel.h): big slots are cascaded as small ones are, when
 * their first key is due, as by a timer queue that is popped and nothing
 * else; the pass workload does what the module does.
 */
static struct btimer *wheel_pop(u64 now)
{
	unsigned int budget = ~0U;
	struct hwt_node *n = hwt_wheel_pop(wheel, now, &budget);

	return n ? container_of(n, struct btimer, node) : NULL;
}

static bool wheel_next(u64 *when)
{
	return hwt_wheel_next(wheel, when);
}

static const struct impl wheel_impl = {
	"wheel", sizeof(struct hwt_node), wheel_init, wheel_fini, wheel_add,
	wheel_del, wheel_mod, wheel_pop, wheel_next
};

static const struct impl *const impls[] = {
	&wheel_impl, &heap2_impl, &heap4_impl, &rbtree_impl, &timer_list_impl,
};

/* Workloads */

static struct rnd_state rnd;
static struct btimer *timers;
static u64 now;

static u64 rnd64(void)
{
	return (u64)prandom_u32_state(&rnd) << 32 | prandom_u32_state(&rnd);
}

/* uniform 1 ms .. 60 s, the spread of real timeouts */
static u64 delay_uniform(void)
{
	return MS + rnd64() % (60 * SEC - MS);
}

static double ns_since(const struct timespec *t0)
{
	struct timespec t1;

	clock_gettime(CLOCK_MONOTONIC, &t1);
	return (double)(t1.tv_sec - t0->tv_sec) * 1e9 +
	       (double)(t1.tv_nsec - t0->tv_nsec);
}

static void fill(const struct impl *im, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		im->add(&timers[i], now + delay_uniform());
		timers[i].pending = 1;
	}
}

static void drain_all(const struct impl *im, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (timers[i].pending)
			im->del(&timers[i]);
}

/*
 * Each measure_* function is the timed loop alone, noinline, so that
 * callgrind can count its instructions with --toggle-collect=measure_*.
 */

/*
 * N pending; OPS times cancel a random pending timer and arm it again
 * with a new deadline: one arm and one cancel per op, N stays constant,
 * and what is cancelled was armed long before (not the one just armed,
 * which a heap could cancel from its last slot for free).
 */
static noinline void
measure_arm_cancel(const struct impl *im, size_t n, size_t ops)
{
	size_t i;

	for (i = 0; i < ops; i++) {
		struct btimer *t = &timers[prandom_u32_state(&rnd) % n];

		im->del(t);
		im->add(t, now + delay_uniform());
	}
}

/* N pending; OPS times move a random pending timer to a new deadline */
static noinline void
measure_modify(const struct impl *im, size_t n, size_t ops)
{
	size_t i;

	for (i = 0; i < ops; i++)
		im->mod(&timers[prandom_u32_state(&rnd) % n], now + delay_uniform());
}

/* insert N timers into an empty structure */
static noinline void
measure_insert(const struct impl *im, size_t n)
{
	fill(im, n);
}

/* cancel all N pending timers, in random order */
static noinline void
measure_cancel(const struct impl *im, const u32 *order, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		im->del(&timers[order[i]]);
		timers[order[i]].pending = 0;
	}
}

/*
 * Let time run until every pending timer expired, the way a tickless timer
 * facility does: sleep until the next due time, expire what is due.
 */
static noinline size_t
measure_expire(const struct impl *im, size_t n)
{
	size_t fired = 0;
	struct btimer *t;
	u64 when;

	while (fired < n && im->next(&when)) {
		if ((s64)(when - now) > 0)
			now = when;
		while ((t = im->pop(now))) {
			t->pending = 0;
			fired++;
		}
	}
	return fired;
}

/*
 * TCP-like: N connections, each with a retransmit timer of 200 ms .. 1 s
 * that is re-armed on every ack. Acks reach a random connection, one per
 * step, and time advances so that a connection sees one about every 80 ms:
 * about 1% of the timers fire (an ack gap longer than the timeout), the
 * rest are re-armed first.
 */
static noinline size_t
measure_tcp(const struct impl *im, size_t n, size_t ops)
{
	u64 step = 80 * MS / n;
	size_t i, fired = 0;
	struct btimer *t;

	if (!step)
		step = 1;
	for (i = 0; i < ops; i++) {
		struct btimer *c = &timers[prandom_u32_state(&rnd) % n];
		u64 rto = 200 * MS + prandom_u32_state(&rnd) % (800 * MS);

		if (c->pending) {
			im->mod(c, now + rto);
		} else {
			im->add(c, now + rto);
			c->pending = 1;
		}
		now += step;
		while ((t = im->pop(now))) {
			t->pending = 0;
			fired++;
		}
	}
	return fired;
}

/*
 * N timers due in the same tick, 10 ms ahead: arm them (burst_arm()) and
 * expire them 2 ms later, when all are due for every structure (timer_list
 * fires up to an eighth of the delay late). measure_burst_pop() is the
 * expiry alone, which callgrind counts as "burst_pop".
 */
static noinline u64 burst_arm(const struct impl *im, size_t n)
{
	u64 at = now + 10 * MS;
	size_t i;

	for (i = 0; i < n; i++) {
		im->add(&timers[i], at + prandom_u32_state(&rnd) % 1000);
		timers[i].pending = 1;
	}
	return at;
}

static noinline size_t
measure_burst_pop(const struct impl *im, size_t n, u64 at)
{
	size_t i, fired = 0;

	now = at + 2 * MS;
	while (im->pop(now))
		fired++;
	for (i = 0; i < n; i++)
		timers[i].pending = 0;
	return fired;
}

static int cmp_double(const void *a, const void *b);

/* this thread's CPU time: the clock of a pass (pass.h) */
static u64 cpu_ns(void)
{
	struct timespec t;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
	return (u64)t.tv_sec * 1000000000ULL + (u64)t.tv_nsec;
}

/*
 * Runs of the wheel driven as the module's timer base drives them, by the
 * module's own pass rule (kmod/pass.h): a budget of HWT_PASS_BUDGET units
 * (timers returned + nodes moved), stopping early once a run has taken
 * HWT_PASS_NS; once nothing is due, cascading ahead with a budget of its
 * own in what is left of that time, in the same run (kmod/base.c); the next
 * run at once if one stopped with work left, else at hwt_wheel_next() or
 * hwt_wheel_next_ahead(), whichever comes first. Load "slot": N timers in
 * one level-2 slot, whose cascade moves all N; "spread": N timers uniform
 * over 1 ms .. 60 s. Each run is timed in this thread's CPU time, so that
 * the host preempting the benchmark is not counted as the wheel's; @t gets
 * the times, sorted.
 */
static noinline size_t
measure_pass(size_t n, bool slot, double *t, size_t max_runs)
{
	u64 l2 = 1ULL << (shift + 2 * HWT_LVL_BITS);
	u64 start = (now + 2 * l2) / l2 * l2, when;
	size_t i, fired = 0, runs = 0;

	for (i = 0; i < n; i++)
		wheel_add(&timers[i], slot ? start + rnd64() % l2 :
				      now + delay_uniform());
	while (fired < n && runs < max_runs) {
		struct hwt_pass p;
		u64 t0 = cpu_ns();
		bool more;

		hwt_pass_init(&p, t0);
		while (hwt_pass_pop(&p, wheel, now, cpu_ns))
			fired++;
		more = !p.left || base_ahead(wheel, &p, now, cpu_ns);
		t[runs++] = (double)(cpu_ns() - t0);
		if (more)
			continue;	/* stopped with work left: at once */
		if (!base_next(wheel, &when))
			break;
		if ((s64)(when - now) > 0)
			now = when;
	}
	qsort(t, runs, sizeof(*t), cmp_double);
	return runs;
}

/*
 * The machine's own noise, for reading the tail of the runs above: the
 * same timing around an empty loop that stops after HWT_PASS_NS of CPU,
 * looking at the time about as often as a run does. Whatever it takes
 * beyond HWT_PASS_NS is the host (this benchmark's machine may itself be a
 * VM whose CPU is taken away, which the thread's CPU clock still counts).
 */
static void noise_bench(size_t runs)
{
	double *t = malloc(runs * sizeof(*t));
	volatile unsigned long sink = 0;
	size_t i;

	if (!t)
		return;
	for (i = 0; i < runs; i++) {
		u64 t0 = cpu_ns();
		unsigned int k;

		do {
			for (k = 0; k < 1000; k++)
				sink += k;
		} while (cpu_ns() - t0 <= HWT_PASS_NS);
		t[i] = (double)(cpu_ns() - t0);
	}
	qsort(t, runs, sizeof(*t), cmp_double);
	printf("{\"layer\":\"native\",\"impl\":\"none\",\"workload\":\"pass_noise\","
	       "\"n\":0,\"runs\":%zu,\"p50_ns\":%.0f,\"p99_ns\":%.0f,"
	       "\"p999_ns\":%.0f,\"worst_pass_ns\":%.0f,\"pass_ns\":%d}\n",
	       runs, t[runs / 2], t[runs * 99 / 100], t[runs * 999 / 1000],
	       t[runs - 1], HWT_PASS_NS);
	fflush(stdout);
	free(t);
}

static void pass_bench(size_t n)
{
	static const char *const loads[] = { "pass_slot", "pass_spread" };
	size_t max_runs = 4 * n + 1000, runs;
	double *t = malloc(max_runs * sizeof(*t));
	unsigned int l;

	for (l = 0; l < 2 && t; l++) {
		memset(timers, 0, n * sizeof(*timers));
		now = 1000 * SEC;
		wheel_init(now, n + 1);
		runs = measure_pass(n, l == 0, t, max_runs);
		wheel_fini();
		printf("{\"layer\":\"native\",\"impl\":\"wheel\",\"workload\":\"%s\","
		       "\"n\":%zu,\"runs\":%zu,\"p50_ns\":%.0f,\"p99_ns\":%.0f,"
		       "\"p999_ns\":%.0f,\"worst_pass_ns\":%.0f,\"budget\":%d,"
		       "\"pass_ns\":%d}\n", loads[l], n, runs, t[runs / 2],
		       t[runs * 99 / 100], t[runs * 999 / 1000], t[runs - 1],
		       HWT_PASS_BUDGET, HWT_PASS_NS);
		fflush(stdout);
	}
	free(t);
}

/*
 * Expire @n timers (deadlines in @dl, slack @slack) the way the module
 * does, waking at the end of each window hwt_wheel_next_range() gives, and
 * count what it cost: wakeups, nodes the wheel moved, and each timer's
 * lateness, the wakeup it fired in minus its deadline.
 */
static void geo_expire(size_t n, const u64 *dl, u64 slack, double *late,
		       size_t *wakeups, u64 *moved, double *ns)
{
	struct timespec t0;
	size_t i, fired = 0;
	struct btimer *t;
	u64 when, latest;

	*wakeups = 0;
	memset(timers, 0, n * sizeof(*timers));
	for (i = 0; i < n; i++) {
		timers[i].slack = slack;
		timers[i].node.slack = !!slack;
		wheel_add(&timers[i], dl[i]);
	}
	clock_gettime(CLOCK_MONOTONIC, &t0);
	while (fired < n && hwt_wheel_next_range(wheel, &when, &latest)) {
		if ((s64)(latest - now) > 0)
			now = latest;
		(*wakeups)++;
		while ((t = wheel_pop(now))) {
			late[t - timers] = (double)(s64)(now - dl[t - timers]);
			fired++;
		}
	}
	*ns = ns_since(&t0) / (double)(fired ? fired : 1);
	*moved = wheel->cascaded;
}

/*
 * The geometry sweep behind the default tick (wheel.h): for each tick,
 * what a fired timer costs (ns, cascades), how late it is, and how many
 * wakeups a burst of 10^5 timers due within one second takes, with no
 * slack and with 1 ms of slack.
 */
static void geometry_bench(size_t n)
{
	static const unsigned int shifts[] = { 10, 12, 14, 16, 18, 20 };
	static const struct {
		const char *name;
		u64 span, slack;
	} loads[] = {
		{ "timeouts", 0, 0 },		/* uniform 1 ms .. 60 s */
		{ "burst_1s", SEC, 0 },
		{ "burst_1s_slack_1ms", SEC, MS },
	};
	double *late = malloc(n * sizeof(*late)), ns;
	u64 *dl = malloc(n * sizeof(*dl)), moved;
	unsigned int si, li;
	size_t i, wakeups;

	for (si = 0; si < ARRAY_SIZE(shifts) && late && dl; si++) {
		shift = shifts[si];
		for (li = 0; li < ARRAY_SIZE(loads); li++) {
			u64 start = 1000 * SEC, end = start;

			now = start;
			prandom_seed_state(&rnd, 0x9e0);
			for (i = 0; i < n; i++) {
				dl[i] = now + (loads[li].span ?
					       MS + rnd64() % loads[li].span :
					       delay_uniform());
				if ((s64)(dl[i] - end) > 0)
					end = dl[i];
			}
			wheel_init(now, n + 1);
			geo_expire(n, dl, loads[li].slack, late, &wakeups,
				   &moved, &ns);
			wheel_fini();
			qsort(late, n, sizeof(*late), cmp_double);
			printf("{\"layer\":\"native\",\"impl\":\"wheel\","
			       "\"workload\":\"geometry\",\"load\":\"%s\","
			       "\"shift\":%u,\"n\":%zu,\"ns_per_fired\":%.1f,"
			       "\"cascades_per_fired\":%.3f,"
			       "\"wakeups_per_s\":%.0f,\"late_p50_ns\":%.0f,"
			       "\"late_p99_ns\":%.0f,\"late_max_ns\":%.0f,"
			       "\"early\":%d}\n", loads[li].name, shift, n, ns,
			       (double)moved / (double)n,
			       (double)wakeups * 1e9 / (double)(end - start),
			       late[n / 2], late[n * 99 / 100], late[n - 1],
			       late[0] < 0);
			fflush(stdout);
		}
	}
	free(late);
	free(dl);
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

/*
 * The counting build (-DHWT_WHEEL_COUNT; bench/run.sh runs it beside
 * callgrind) also counts what the wheel did in the timed loop of its last
 * repeat, per operation: nodes moved, levels looked at again, and the
 * earliest of all levels found again (wheel_impl.h).
 */
#ifdef HWT_WHEEL_COUNT
unsigned long hwt_count_looks, hwt_count_combines;
static u64 count0[3];
static double counted[3];
#endif

/* Start timing a loop of @im. */
static void timed_start(const struct impl *im, struct timespec *t0)
{
#ifdef HWT_WHEEL_COUNT
	if (im == &wheel_impl) {
		count0[0] = wheel->cascaded;
		count0[1] = hwt_count_looks;
		count0[2] = hwt_count_combines;
	}
#endif
	clock_gettime(CLOCK_MONOTONIC, t0);
}

/* End it: ns per operation, @per operations. */
static double timed_end(const struct impl *im, const struct timespec *t0,
			size_t per)
{
	double ns = ns_since(t0) / (double)(per ? per : 1);

#ifdef HWT_WHEEL_COUNT
	if (im == &wheel_impl && per) {
		counted[0] = (double)(wheel->cascaded - count0[0]) / (double)per;
		counted[1] = (double)(hwt_count_looks - count0[1]) / (double)per;
		counted[2] = (double)(hwt_count_combines - count0[2]) / (double)per;
	}
#endif
	return ns;
}

static void report(const struct impl *im, const char *wl, size_t n,
		   double *samples, int reps)
{
	qsort(samples, (size_t)reps, sizeof(*samples), cmp_double);
	printf("{\"layer\":\"native\",\"impl\":\"%s\",\"workload\":\"%s\","
	       "\"n\":%zu,\"ns_per_op\":%.2f,\"min_ns_per_op\":%.2f,"
	       "\"bytes_per_timer\":%zu", im->name, wl, n,
	       samples[reps / 2], samples[0], im->bytes);
#ifdef HWT_WHEEL_COUNT
	if (im == &wheel_impl)
		printf(",\"moves_per_op\":%.3f,\"looks_per_op\":%.3f,"
		       "\"combines_per_op\":%.3f", counted[0], counted[1],
		       counted[2]);
#endif
	printf("}\n");
	fflush(stdout);
}

/*
 * The size sweep (-w sweep): arm + cancel and sparse expiry, ns per
 * operation, for the wheel, the binary heap, the rbtree and the timer_list
 * model at N = MIN_N .. MAX_N pending. The contenders take turns repeat by
 * repeat, so that what else the machine does falls on all of them alike;
 * each reports the median of REPEATS, as "sweep_arm_cancel" and
 * "sweep_expire".
 */
static void sweep_bench(size_t min_n, size_t max_n, int reps, size_t ops)
{
	static const struct impl *const sw[] = {
		&wheel_impl, &heap2_impl, &rbtree_impl, &timer_list_impl,
	};
	static double s[2][ARRAY_SIZE(sw)][16];
	struct timespec t0;
	unsigned int i;
	size_t n, k;
	int r;

	for (n = min_n ? min_n : 1; n <= max_n; n *= 10) {
		for (r = 0; r < reps; r++) {
			for (i = 0; i < ARRAY_SIZE(sw); i++) {
				const struct impl *im = sw[i];

				memset(timers, 0, n * sizeof(*timers));
				now = 1000 * SEC;
				im->init(now, n + 1);
				fill(im, n);
				clock_gettime(CLOCK_MONOTONIC, &t0);
				measure_arm_cancel(im, n, ops);
				s[0][i][r] = ns_since(&t0) / (double)ops;
				drain_all(im, n);
				im->fini();

				memset(timers, 0, n * sizeof(*timers));
				now = 1000 * SEC;
				im->init(now, n + 1);
				fill(im, n);
				clock_gettime(CLOCK_MONOTONIC, &t0);
				k = measure_expire(im, n);
				s[1][i][r] = ns_since(&t0) / (double)(k ? k : 1);
				drain_all(im, n);
				im->fini();
			}
		}
		for (i = 0; i < ARRAY_SIZE(sw); i++) {
			report(sw[i], "sweep_arm_cancel", n, s[0][i], reps);
			report(sw[i], "sweep_expire", n, s[1][i], reps);
		}
	}
}

static int want(const char *sel, const char *name)
{
	return !sel || !strcmp(sel, name);
}

static void run(const struct impl *im, size_t n, int reps, const char *wsel,
		size_t ops)
{
	double s[16];
	struct timespec t0;
	u32 *order;
	size_t i;
	int r;

	order = malloc(n * sizeof(*order));
	for (i = 0; i < n; i++)
		order[i] = (u32)i;
	for (i = n; i > 1; i--) {
		size_t j = prandom_u32_state(&rnd) % i;
		u32 tmp = order[i - 1];

		order[i - 1] = order[j];
		order[j] = tmp;
	}

#define REPEAT(name, body) do {					\
	if (want(wsel, name)) {						\
		for (r = 0; r < reps; r++) {				\
			memset(timers, 0, n * sizeof(*timers));		\
			now = 1000 * SEC;				\
			im->init(now, n + 1);				\
			body;						\
			im->fini();					\
		}							\
		report(im, name, n, s, reps);				\
	}								\
} while (0)

	REPEAT("insert", {
		timed_start(im, &t0);
		measure_insert(im, n);
		s[r] = timed_end(im, &t0, n);
		drain_all(im, n);
	});
	REPEAT("cancel", {
		fill(im, n);
		timed_start(im, &t0);
		measure_cancel(im, order, n);
		s[r] = timed_end(im, &t0, n);
	});
	REPEAT("arm_cancel", {
		fill(im, n);
		timed_start(im, &t0);
		measure_arm_cancel(im, n, ops);
		s[r] = timed_end(im, &t0, ops);
		drain_all(im, n);
	});
	REPEAT("modify", {
		fill(im, n);
		timed_start(im, &t0);
		measure_modify(im, n, ops);
		s[r] = timed_end(im, &t0, ops);
		drain_all(im, n);
	});
	REPEAT("expire", {
		fill(im, n);
		timed_start(im, &t0);
		i = measure_expire(im, n);
		s[r] = timed_end(im, &t0, i);
		drain_all(im, n);
	});
	REPEAT("tcp", {
		fill(im, n);
		timed_start(im, &t0);
		measure_tcp(im, n, ops);
		s[r] = timed_end(im, &t0, ops);
		drain_all(im, n);
	});
	REPEAT("burst", {
		timed_start(im, &t0);
		i = measure_burst_pop(im, n, burst_arm(im, n));
		s[r] = timed_end(im, &t0, i);
	});
	REPEAT("burst_pop", {
		u64 at = burst_arm(im, n);

		timed_start(im, &t0);
		i = measure_burst_pop(im, n, at);
		s[r] = timed_end(im, &t0, i);
	});
#undef REPEAT
	free(order);
}

int main(int argc, char **argv)
{
	size_t min_n = 1000, max_n = 10000000, ops = 200000, n;
	const char *isel = NULL, *wsel = NULL;
	int reps = 5, c;
	unsigned int i;

	while ((c = getopt(argc, argv, "m:n:r:i:w:o:s:")) != -1) {
		switch (c) {
		case 'm': min_n = strtoull(optarg, NULL, 10); break;
		case 'n': max_n = strtoull(optarg, NULL, 10); break;
		case 'r': reps = atoi(optarg); break;
		case 'i': isel = optarg; break;
		case 'w': wsel = optarg; break;
		case 'o': ops = strtoull(optarg, NULL, 10); break;
		case 's': shift = (unsigned int)atoi(optarg); break;
		default:
			fprintf(stderr, "usage: %s [-m MIN_N] [-n MAX_N] [-r REPEATS] [-i IMPL] [-w WORKLOAD] [-o OPS] [-s SHIFT]\n",
				argv[0]);
			return 2;
		}
	}
	if (reps < 1 || reps > 16)
		reps = 5;
	timers = calloc(max_n + 1, sizeof(*timers));
	if (!timers) {
		perror("calloc");
		return 1;
	}
	prandom_seed_state(&rnd, 0x5eed);
	if (shift < HWT_SHIFT_MIN || shift > HWT_SHIFT_MAX) {
		fprintf(stderr, "-s %u: the tick is 2^%u .. 2^%u ns\n", shift,
			HWT_SHIFT_MIN, HWT_SHIFT_MAX);
		return 2;
	}
	if (wsel && !strcmp(wsel, "sweep")) {
		sweep_bench(min_n, max_n, reps, ops);
		free(timers);
		return 0;
	}
	if (want(isel, "wheel") && wsel && !strcmp(wsel, "geometry")) {
		geometry_bench(max_n);
		free(timers);
		return 0;
	}
	if (want(isel, "wheel") && want(wsel, "pass"))
		noise_bench(100000);
	for (n = min_n ? min_n : 1; n <= max_n; n *= 10) {
		for (i = 0; i < ARRAY_SIZE(impls); i++)
			if (want(isel, impls[i]->name))
				/* fewer repeats where one takes seconds */
				run(impls[i], n, n >= 10000000 ? 1 :
					n >= 1000000 ? (reps + 1) / 2 : reps,
				    wsel, ops);
		if (isel && !strcmp(isel, null_impl.name))
			run(&null_impl, n, reps, wsel, ops);
		if (want(isel, "wheel") && want(wsel, "pass"))
			pass_bench(n);
	}
	free(timers);
	return 0;
}
