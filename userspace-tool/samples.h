/* SPDX-License-Identifier: GPL-2.0 */
/*
 * hwtimerctl: every sample of a latency run, kept so that its percentiles
 * are exact: 4 bytes a sample (ns, as a u32), and 8 more for the rare one
 * of 2^32 ns (4.3 s) or more. Sorted in place: no memory beyond that.
 */
#ifndef HWTCTL_SAMPLES_H
#define HWTCTL_SAMPLES_H

#include <stdbool.h>
#include <stdint.h>

#define SAMPLES_BIG	UINT32_MAX	/* in @v: the value is in @big */

/* percentiles in parts per million */
#define PPM_P50		500000U
#define PPM_P90		900000U
#define PPM_P99		990000U
#define PPM_P999	999000U
#define PPM_P9999	999900U

/**
 * struct samples - the samples of one series, in the order taken
 * @v: each sample in ns, or SAMPLES_BIG
 * @big: the values of the SAMPLES_BIG ones, in the order taken
 * @n: samples in @v
 * @cap: room in @v
 * @nbig: values in @big
 * @capbig: room in @big
 * @early: samples below zero (a timer that fired early): counted, not kept
 * @min: the least kept sample (UINT64_MAX while there is none)
 * @max: the greatest
 * @sum: their sum
 * @sorted: @v and @big are sorted, no longer in the order taken
 */
struct samples {
	uint32_t *v;
	uint64_t *big;
	uint64_t n, cap;
	uint64_t nbig, capbig;
	uint64_t early;
	uint64_t min, max;
	unsigned __int128 sum;
	bool sorted;
};

int samples_init(struct samples *s, uint64_t cap);
int samples_add(struct samples *s, int64_t ns);
void samples_sort(struct samples *s);
uint64_t samples_percentile(struct samples *s, uint32_t ppm);
uint64_t samples_min(const struct samples *s);
uint64_t samples_mean(const struct samples *s);
void samples_free(struct samples *s);

#endif /* HWTCTL_SAMPLES_H */
