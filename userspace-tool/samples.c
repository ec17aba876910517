// SPDX-License-Identifier: GPL-2.0
/*
 * hwtimerctl: a latency run's samples, and their exact statistics. See
 * samples.h.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "samples.h"

/**
 * samples_init() - an empty series
 * @s: the series
 * @cap: room to make at once for the samples expected (more grows it)
 *
 * Return: 0 or -ENOMEM.
 */
int samples_init(struct samples *s, uint64_t cap)
{
	memset(s, 0, sizeof(*s));
	s->min = UINT64_MAX;
	if (!cap)
		cap = 1;
	s->v = malloc(cap * sizeof(*s->v));
	if (!s->v)
		return -ENOMEM;
	s->cap = cap;
	return 0;
}

static int grow(void **p, uint64_t *cap, size_t size)
{
	uint64_t c = *cap ? 2 * *cap : 16;
	void *q = realloc(*p, c * size);

	if (!q)
		return -ENOMEM;
	*p = q;
	*cap = c;
	return 0;
}

/**
 * samples_add() - one more sample, at the end
 * @s: the series, not sorted yet
 * @ns: the sample; one below zero is counted in @s->early, not kept
 *
 * Return: 0 or -ENOMEM.
 */
int samples_add(struct samples *s, int64_t ns)
{
	uint64_t v = (uint64_t)ns;

	if (ns < 0) {
		s->early++;
		return 0;
	}
	if (s->n == s->cap && grow((void **)&s->v, &s->cap, sizeof(*s->v)))
		return -ENOMEM;
	if (v >= SAMPLES_BIG) {
		if (s->nbig == s->capbig && grow((void **)&s->big, &s->capbig, sizeof(*s->big)))
			return -ENOMEM;
		s->big[s->nbig++] = v;
		s->v[s->n++] = SAMPLES_BIG;
	} else {
		s->v[s->n++] = (uint32_t)v;
	}
	s->sum += v;
	if (v < s->min)
		s->min = v;
	if (v > s->max)
		s->max = v;
	return 0;
}

static void insertion_sort(uint32_t *a, uint64_t n)
{
	uint64_t i, j;

	for (i = 1; i < n; i++) {
		uint32_t v = a[i];

		for (j = i; j && a[j - 1] > v; j--)
			a[j] = a[j - 1];
		a[j] = v;
	}
}

/*
 * American flag sort: most significant byte first, each byte's buckets
 * permuted in place, then each bucket on the next byte. No memory but
 * the stack's 6 KiB a level, four levels at most.
 */
static void flag_sort(uint32_t *a, uint64_t n, unsigned int shift)
{
	uint64_t count[256] = { 0 }, start[256], next[256];
	unsigned int b;
	uint64_t i;

	if (n < 64) {
		insertion_sort(a, n);
		return;
	}
	for (i = 0; i < n; i++)
		count[(a[i] >> shift) & 255]++;
	for (b = 0, i = 0; b < 256; i += count[b], b++)
		start[b] = next[b] = i;
	for (b = 0; b < 256; b++) {
		uint64_t end = start[b] + count[b];

		while (next[b] < end) {
			uint32_t v = a[next[b]];
			unsigned int d = (v >> shift) & 255;

			/* carry v to its bucket, taking what was there, until one belongs here */
			while (d != b) {
				uint32_t t = a[next[d]];

				a[next[d]++] = v;
				v = t;
				d = (v >> shift) & 255;
			}
			a[next[b]++] = v;
		}
	}
	if (!shift)
		return;
	for (b = 0; b < 256; b++)
		if (count[b] > 1)
			flag_sort(a + start[b], count[b], shift - 8);
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/**
 * samples_sort() - sort a series in place
 * @s: the series; afterwards no longer in the order taken
 */
void samples_sort(struct samples *s)
{
	if (s->sorted)
		return;
	flag_sort(s->v, s->n, 24);
	if (s->nbig)
		qsort(s->big, s->nbig, sizeof(*s->big), cmp_u64);
	s->sorted = true;
}

/**
 * samples_percentile() - an exact percentile, by nearest rank
 * @s: the series; sorted first if it is not
 * @ppm: the percentile in parts per million (PPM_P99 is 990000)
 *
 * Return: the least sample that at least @ppm / 10^6 of the kept samples
 * do not exceed (0 ppm: the least), or 0 for a series without samples.
 */
uint64_t samples_percentile(struct samples *s, uint32_t ppm)
{
	unsigned __int128 r;
	uint64_t i;

	if (!s->n)
		return 0;
	samples_sort(s);
	r = ((unsigned __int128)ppm * s->n + 999999) / 1000000;
	i = r ? (uint64_t)r - 1 : 0;
	if (i >= s->n)
		i = s->n - 1;
	/* the SAMPLES_BIG ones sort last, in the order of their values */
	return s->v[i] != SAMPLES_BIG ? s->v[i] : s->big[i - (s->n - s->nbig)];
}

/* The least kept sample; 0 without samples. */
uint64_t samples_min(const struct samples *s)
{
	return s->n ? s->min : 0;
}

/* The mean of the kept samples, rounded to a ns; 0 without samples. */
uint64_t samples_mean(const struct samples *s)
{
	return s->n ? (uint64_t)((s->sum + s->n / 2) / s->n) : 0;
}

void samples_free(struct samples *s)
{
	free(s->v);
	free(s->big);
	memset(s, 0, sizeof(*s));
}
