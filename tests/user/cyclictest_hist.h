/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A histogram file as rt-tests 2.4's cyclictest -t 2 -h 400 --histfile
 * writes it, cut to 4 buckets, for cli_latency_test and the host's
 * samples_test: two threads, 14 samples, one past the buckets in each.
 */
#ifndef _HWT_CYCLICTEST_HIST_H
#define _HWT_CYCLICTEST_HIST_H

static const char cyclictest_hist[] =
	"# Histogram\n"
	"000000 000000\t000000\n"
	"000001 000003\t000000\n"
	"000002 000005\t000001\n"
	"000003 000001\t000002\n"
	"# Total: 000000009 000000003\n"
	"# Min Latencies: 00001 00002\n"
	"# Avg Latencies: 00002 00097\n"
	"# Max Latencies: 00252 00515\n"
	"# Histogram Overflows: 00001 00001\n"
	"# Histogram Overflow at cycle number:\n"
	"# Thread 0: 00007\n"
	"# Thread 1: 00002\n"
	"\n";

#endif /* _HWT_CYCLICTEST_HIST_H */
