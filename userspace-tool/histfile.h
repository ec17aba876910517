/* SPDX-License-Identifier: GPL-2.0 */
/*
 * hwtimerctl: histograms in the format of cyclictest's --histfile (rt-tests
 * 2.x): one line per bucket of 1 us, "%06u" and a "%06lu" count per column
 * (a space, then tabs), then the trailer, a value per column:
 *
 *	# Histogram
 *	000000 000000	000000
 *	000001 000012	000009
 *	...
 *	# Total: 000009995 000009998
 *	# Min Latencies: 00001 00001
 *	# Avg Latencies: 00003 00004
 *	# Max Latencies: 00211 00159
 *	# Histogram Overflows: 00005 00002
 *	# Histogram Overflow at cycle number:
 *	# Thread 0: 00104 03346 ...
 *	# Thread 1: 00087 00998
 *
 * A sample of N ns goes in bucket N / 1000 (cyclictest's microseconds,
 * truncated); Total counts the samples in the buckets, Overflows those past
 * the last bucket, whose sample numbers (from 0) the Thread lines list, at
 * most as many as there are buckets.
 */
#ifndef HWTCTL_HISTFILE_H
#define HWTCTL_HISTFILE_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "samples.h"

#define HISTFILE_MAX_BUCKETS	1000000U	/* cyclictest's HIST_MAX */
#define HISTFILE_MAX_COLS	1024U

/**
 * struct hf_col - one column: a thread of cyclictest, a series of ours
 * @count: samples per bucket of 1 us
 * @total: samples in the buckets
 * @overflows: samples past the last bucket
 * @min: the least sample, in us
 * @avg: the mean, in us
 * @max: the greatest, in us
 * @cycles: the sample numbers of the first overflows (written files only)
 * @ncycles: how many
 */
struct hf_col {
	uint64_t *count;
	uint64_t total;
	uint64_t overflows;
	uint64_t min, avg, max;
	uint64_t *cycles;
	uint64_t ncycles;
};

/**
 * struct histfile - a histogram file
 * @buckets: its buckets of 1 us, from 0
 * @cols: its columns (threads)
 * @col: each column
 */
struct histfile {
	uint32_t buckets;
	uint32_t cols;
	struct hf_col *col;
};

int histfile_init(struct histfile *h, uint32_t buckets, uint32_t cols);
int histfile_fill(struct histfile *h, uint32_t col, const struct samples *s);
int histfile_write(const struct histfile *h, FILE *f);
int histfile_read(struct histfile *h, FILE *f, char *err, size_t len);
int histfile_merge(const struct histfile *h, struct hf_col *all);
uint64_t histfile_percentile(const struct hf_col *c, uint32_t buckets, uint32_t ppm,
			     bool *overflow);
void histfile_free_col(struct hf_col *c);
void histfile_free(struct histfile *h);

#endif /* HWTCTL_HISTFILE_H */
