// SPDX-License-Identifier: GPL-2.0
/*
 * CPU time for dev_bench's expiry rows (dev_bench_expiry.c): the busy time
 * of every CPU over a run, and the reader's own.
 *
 *  - Every CPU: with /proc/hwt_cputime (bench/hwt_cputime.c, which the
 *    icount guests load), each online CPU's time outside the tick's idle
 *    time, to the microsecond: the work of an interrupt or a softirq that
 *    came to an idle CPU counts. Without it, /proc/stat's user, nice,
 *    system, irq and softirq, in ticks of USER_HZ (10 ms). Debian's stock
 *    kernels have no CONFIG_IRQ_TIME_ACCOUNTING: their irq and softirq
 *    fields stay at zero, and /proc/stat's idle misses no interrupt only
 *    because it too is the tick's idle time, rounded.
 *  - The reader: its thread's CPU time (CLOCK_THREAD_CPUTIME_ID, the
 *    scheduler's sum_exec_runtime, to the nanosecond); interrupts that came
 *    while it ran are in it, those that woke an idle CPU are not.
 *
 * Under icount with 2 vCPUs, the guest's clock counts the instructions of
 * both: a CPU busy while the other runs is charged the other's
 * instructions too, so the sum over CPUs is exact when one CPU at a time is
 * busy and an upper bound otherwise; with 1 vCPU it is the instructions.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <time.h>
#include <unistd.h>

#include "dev_bench.h"

static int from_idle = -1;	/* /proc/hwt_cputime works: unknown yet */
static uint64_t reader0, reader1;	/* at busy_start(), at busy_ns() */

static uint64_t thread_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return (uint64_t)ts.tv_sec * SEC + (uint64_t)ts.tv_nsec;
}

/* Every CPU's busy time so far, ns, from /proc/hwt_cputime; 0 if unusable */
static uint64_t busy_idle(void)
{
	unsigned long long now, sum = 0;
	long long idle, iowait;
	FILE *f = fopen("/proc/hwt_cputime", "r");
	unsigned int cpu;
	int n = 0;

	if (!f)
		return 0;
	while (fscanf(f, " cpu%u %llu %lld %lld", &cpu, &now, &idle, &iowait) == 4) {
		if (idle < 0 || iowait < 0) {
			n = 0;
			break;
		}
		sum += now - (unsigned long long)(idle + iowait) * 1000;
		n++;
	}
	fclose(f);
	return n ? sum : 0;
}

/* The same from /proc/stat, in its ticks. */
static uint64_t busy_stat(void)
{
	unsigned long long v[10] = { 0 };
	FILE *f = fopen("/proc/stat", "r");
	long hz = sysconf(_SC_CLK_TCK);

	if (!f || fscanf(f, "cpu %llu %llu %llu %llu %llu %llu %llu %llu %llu %llu",
			 &v[0], &v[1], &v[2], &v[3], &v[4], &v[5], &v[6], &v[7],
			 &v[8], &v[9]) < 8)
		die("/proc/stat", EIO);
	fclose(f);
	/* user, nice, system, irq, softirq: not idle, iowait or steal */
	return (v[0] + v[1] + v[2] + v[5] + v[6]) * (SEC / (uint64_t)hz);
}

uint64_t busy_ns(void)
{
	uint64_t b;

	reader1 = thread_ns();
	if (from_idle) {
		b = busy_idle();
		from_idle = b != 0;
		if (b)
			return b;
	}
	return busy_stat();
}

const char *busy_from(void)
{
	return from_idle > 0 ? "tick_idle" : "proc_stat";
}

uint64_t busy_start(void)
{
	reader0 = thread_ns();
	return busy_ns();
}

/* the reader's CPU time from busy_start() to the last busy_ns() */
uint64_t reader_ns(void)
{
	return reader1 - reader0;
}
