/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The pace of the machine the tests run on. make check's guests emulate
 * their CPUs (TCG), and a host busy with other jobs slows them down as a
 * whole, the kernel's work and the tests' alike. So no wait of a test for
 * the kernel has a fixed limit: each scales with t_slow(), how many times
 * slower than an idle guest of the reference machine this one runs now,
 * and so do the harness's timeouts (HWT_HARNESS_MAIN). A busy machine then
 * makes a test longer, never a failure. What a test asserts about time
 * (lateness, how long a wait lasted) stays as it is: those bounds compare
 * two things on the same guest, or are loose enough for emulation.
 */
#ifndef _HWT_TEST_PACE_H
#define _HWT_TEST_PACE_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include <linux/types.h>

/*
 * The calibration: T_PACE_LOOPS steps of a dependent multiply-add, and
 * what they take in an idle guest of make check on the reference machine
 * (2 cores, TCG): 3.7 to 4.4 ms, single- or multi-threaded TCG, debug or
 * stock kernel (8 to 13 ms beside two CPU-bound jobs).
 */
#define T_PACE_LOOPS	2000000
#define T_PACE_REF_NS	4500000ULL

static inline __u64 t_pace_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000ULL + ts.tv_nsec;
}

static __u64 t_pace_ns;		/* the calibration's fastest run, once measured */

/**
 * t_slow() - how many times slower than the reference this guest runs
 *
 * Measured once per process, the fastest of three runs of the calibration
 * loop, and never below 1; HWT_SLOW in the environment overrides it.
 *
 * Return: the factor.
 */
static inline double t_slow(void)
{
	static double slow;
	const char *env;
	__u64 best = UINT64_MAX;
	int r;

	if (slow)
		return slow;
	env = getenv("HWT_SLOW");
	if (env) {
		slow = strtod(env, NULL);
	} else {
		for (r = 0; r < 3; r++) {
			__u64 x = 1;
			__u64 t0 = t_pace_now(), t;
			int i;

			/* x goes through memory at every step */
			for (i = 0; i < T_PACE_LOOPS; i++) {
				__u64 v = __atomic_load_n(&x, __ATOMIC_RELAXED);

				__atomic_store_n(&x, v * 6364136223846793005ULL +
						 1442695040888963407ULL, __ATOMIC_RELAXED);
			}
			t = t_pace_now() - t0;
			if (t < best)
				best = t;
		}
		t_pace_ns = best;
		slow = (double)best / T_PACE_REF_NS;
	}
	if (!(slow >= 1))
		slow = 1;
	return slow;
}

/* @ms, as long as this guest needs for what takes that long on the reference */
static inline int t_ms(unsigned int ms)
{
	return ms * t_slow() + 0.5;
}

#ifdef TEST_HARNESS_MAIN
/* Every test's timeout, times t_slow(); the harness reports the factor. */
static inline void t_pace_timeouts(void)
{
	struct __fixture_metadata *f;
	struct __test_metadata *t;
	double slow = t_slow();

	for (f = __fixture_list; f; f = f->next)
		for (t = f->tests; t; t = t->next)
			t->timeout = t->timeout * slow + 0.5;
	printf("# pace: %.2f times slower than the reference guest (%.1f ms)\n",
	       slow, t_pace_ns / 1e6);
	fflush(stdout);
}

/* TEST_HARNESS_MAIN, with the timeouts paced (t_pace_timeouts()). */
#define HWT_HARNESS_MAIN						\
	int main(int argc, char **argv)					\
	{								\
		t_pace_timeouts();					\
		exit(test_harness_run(argc, argv));			\
	}
#endif

#endif /* _HWT_TEST_PACE_H */
