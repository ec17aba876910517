// SPDX-License-Identifier: GPL-2.0
/*
 * hwt_cputime.ko, a helper of make bench's icount guests (bench/icount.sh):
 * every CPU's idle time as the tick accounts it, to the microsecond, so that
 * dev_bench can count the busy time of every CPU in every context.
 *
 * /proc/stat gives the same idle time rounded to 10 ms ticks, and Debian's
 * stock kernels have no CONFIG_IRQ_TIME_ACCOUNTING, so neither it nor a
 * task's runtime sees the work of an interrupt that wakes an idle CPU (such
 * as a pass of hwtimer's in its hrtimer's interrupt). The tick's idle time
 * stops at interrupt entry and starts again after the softirqs of the
 * interrupt's exit, so a CPU's time outside it is all its busy time.
 *
 * /proc/hwt_cputime, a line per online CPU:
 *   cpu<N> <now, ns of CLOCK_MONOTONIC> <idle us> <iowait us>
 * (get_cpu_idle_time_us(), the running sleep included, without updating
 * the other CPU's counters; -1 if NOHZ is off, when dev_bench falls back
 * to /proc/stat)
 */
#include <linux/cpumask.h>
#include <linux/module.h>
#include <linux/proc_fs.h>
#include <linux/seq_file.h>
#include <linux/tick.h>
#include <linux/timekeeping.h>

static int hwt_cputime_show(struct seq_file *m, void *v)
{
	unsigned int cpu;

	for_each_online_cpu(cpu) {
		u64 now = ktime_get_ns();
		u64 idle = get_cpu_idle_time_us(cpu, NULL);
		u64 iowait = get_cpu_iowait_time_us(cpu, NULL);

		seq_printf(m, "cpu%u %llu %lld %lld\n", cpu, now, (s64)idle,
			   (s64)iowait);
	}
	return 0;
}

static int __init hwt_cputime_init(void)
{
	return proc_create_single("hwt_cputime", 0444, NULL, hwt_cputime_show) ?
	       0 : -ENOMEM;
}

static void __exit hwt_cputime_exit(void)
{
	remove_proc_entry("hwt_cputime", NULL);
}

module_init(hwt_cputime_init);
module_exit(hwt_cputime_exit);
MODULE_DESCRIPTION("Every CPU's idle time to the microsecond, for hwtimer's benchmarks");
MODULE_LICENSE("GPL");
