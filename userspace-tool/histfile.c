// SPDX-License-Identifier: GPL-2.0
/*
 * hwtimerctl: cyclictest's --histfile format, written from our samples and
 * read from a cyclictest run, so that the two can be set side by side. See
 * histfile.h.
 */
#define _GNU_SOURCE
#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "histfile.h"

/**
 * histfile_init() - an empty histogram
 * @h: the histogram
 * @buckets: its buckets of 1 us, 1 to HISTFILE_MAX_BUCKETS
 * @cols: its columns, 1 to HISTFILE_MAX_COLS
 *
 * Return: 0, -EINVAL or -ENOMEM.
 */
int histfile_init(struct histfile *h, uint32_t buckets, uint32_t cols)
{
	memset(h, 0, sizeof(*h));
	if (!buckets || buckets > HISTFILE_MAX_BUCKETS || !cols || cols > HISTFILE_MAX_COLS)
		return -EINVAL;
	h->col = calloc(cols, sizeof(*h->col));
	if (!h->col)
		return -ENOMEM;
	h->buckets = buckets;
	h->cols = cols;
	return 0;
}

/**
 * histfile_fill() - a column from a series of samples
 * @h: the histogram
 * @col: the column
 * @s: the series, in the order the samples were taken (not sorted yet)
 *
 * Return: 0, -EINVAL (a sorted series) or -ENOMEM.
 */
int histfile_fill(struct histfile *h, uint32_t col, const struct samples *s)
{
	struct hf_col *c = &h->col[col];
	uint64_t i, cap = 0;

	if (s->sorted || col >= h->cols)
		return -EINVAL;
	histfile_free_col(c);
	c->count = calloc(h->buckets, sizeof(*c->count));
	if (!c->count)
		return -ENOMEM;
	for (i = 0; i < s->n; i++) {
		uint64_t b = s->v[i] == SAMPLES_BIG ? UINT64_MAX : s->v[i] / 1000;

		if (b < h->buckets) {
			c->count[b]++;
			c->total++;
			continue;
		}
		/* cyclictest notes as many overflows as it has buckets */
		if (c->overflows++ >= h->buckets)
			continue;
		if (c->ncycles == cap) {
			uint64_t *p = realloc(c->cycles, (cap ? 2 * cap : 64) * sizeof(*p));

			if (!p)
				return -ENOMEM;
			c->cycles = p;
			cap = cap ? 2 * cap : 64;
		}
		c->cycles[c->ncycles++] = i;
	}
	c->min = samples_min(s) / 1000;
	c->avg = samples_mean(s) / 1000;
	c->max = s->max / 1000;
	return 0;
}

static void trailer(FILE *f, const struct histfile *h, const char *name, const char *fmt,
		    size_t offset)
{
	uint32_t c;

	fputs(name, f);
	for (c = 0; c < h->cols; c++)
		fprintf(f, fmt, (unsigned long long)*(const uint64_t *)
			((const char *)&h->col[c] + offset));
	fputc('\n', f);
}

/**
 * histfile_write() - write a histogram as cyclictest's --histfile does
 * @h: the histogram
 * @f: the file
 *
 * Return: 0, or -EIO if writing failed.
 */
int histfile_write(const struct histfile *h, FILE *f)
{
	uint32_t b, c;
	uint64_t i;

	fputs("# Histogram\n", f);
	for (b = 0; b < h->buckets; b++) {
		fprintf(f, "%06u", b);
		for (c = 0; c < h->cols; c++)
			fprintf(f, c ? "\t%06llu" : " %06llu",
				(unsigned long long)h->col[c].count[b]);
		fputc('\n', f);
	}
	trailer(f, h, "# Total:", " %09llu", offsetof(struct hf_col, total));
	trailer(f, h, "# Min Latencies:", " %05llu", offsetof(struct hf_col, min));
	trailer(f, h, "# Avg Latencies:", " %05llu", offsetof(struct hf_col, avg));
	trailer(f, h, "# Max Latencies:", " %05llu", offsetof(struct hf_col, max));
	trailer(f, h, "# Histogram Overflows:", " %05llu", offsetof(struct hf_col, overflows));
	fputs("# Histogram Overflow at cycle number:\n", f);
	for (c = 0; c < h->cols; c++) {
		const struct hf_col *col = &h->col[c];

		fprintf(f, "# Thread %u:", c);
		for (i = 0; i < col->ncycles; i++)
			fprintf(f, " %05llu", (unsigned long long)col->cycles[i]);
		if (col->ncycles < col->overflows)
			fprintf(f, " # %05llu others",
				(unsigned long long)(col->overflows - col->ncycles));
		fputc('\n', f);
	}
	fputc('\n', f);
	return ferror(f) ? -EIO : 0;
}

/* reading */

enum { T_MIN, T_AVG, T_MAX, T_OVERFLOWS, T_KEYS };

static const char *const trailer_keys[T_KEYS] = {
	[T_MIN] = "# Min Latencies:",
	[T_AVG] = "# Avg Latencies:",
	[T_MAX] = "# Max Latencies:",
	[T_OVERFLOWS] = "# Histogram Overflows:",
};

struct reader {
	unsigned int line;
	uint32_t cols;		/* of the bucket lines */
	uint32_t buckets;	/* the highest bucket + 1 */
	uint64_t cap;		/* room in each column's counts */
	uint64_t **count;
	uint64_t *vals[T_KEYS];
	uint32_t nvals[T_KEYS];
	bool has[T_KEYS];
	char *err;
	size_t len;
};

static int __attribute__((format(printf, 2, 3))) rfail(struct reader *r, const char *fmt, ...)
{
	va_list ap;
	int n = 0;

	if (r->line)
		n = snprintf(r->err, r->len, "line %u: ", r->line);
	va_start(ap, fmt);
	vsnprintf(r->err + n, r->len - (size_t)n, fmt, ap);
	va_end(ap);
	return -EINVAL;
}

/* whitespace-separated numbers from @p to the end of the line */
static int numbers(struct reader *r, const char *p, uint64_t **vals, uint32_t *n)
{
	uint32_t cap = 0;

	*n = 0;
	for (;;) {
		char *end;
		uint64_t v;

		p += strspn(p, " \t");
		if (!*p)
			return 0;
		if (!isdigit((unsigned char)*p))
			return rfail(r, "'%.20s' is not a number", p);
		errno = 0;
		v = strtoull(p, &end, 10);
		if (errno || (*end && *end != ' ' && *end != '\t'))
			return rfail(r, "'%.20s' is not a number", p);
		if (*n == cap) {
			uint64_t *q = realloc(*vals, (cap ? 2 * cap : 8) * sizeof(*q));

			if (!q)
				return rfail(r, "out of memory");
			*vals = q;
			cap = cap ? 2 * cap : 8;
		}
		(*vals)[(*n)++] = v;
		p = end;
	}
}

static int bucket_line(struct reader *r, const char *p)
{
	uint64_t *v = NULL, idx;
	uint32_t n, c;
	int ret = numbers(r, p, &v, &n);

	if (ret)
		goto out;
	ret = -EINVAL;
	if (n < 2) {
		rfail(r, "a bucket without a count");
		goto out;
	}
	if (n - 1 > HISTFILE_MAX_COLS) {
		rfail(r, "%u columns: at most %u are read", n - 1, HISTFILE_MAX_COLS);
		goto out;
	}
	if (!r->cols) {
		r->cols = n - 1;
		r->count = calloc(r->cols, sizeof(*r->count));
		if (!r->count) {
			rfail(r, "out of memory");
			goto out;
		}
	} else if (n - 1 != r->cols) {
		rfail(r, "%u columns, where the first bucket line has %u", n - 1, r->cols);
		goto out;
	}
	idx = v[0];
	if (idx >= HISTFILE_MAX_BUCKETS) {
		rfail(r, "bucket %llu: cyclictest has at most %u", (unsigned long long)idx,
		      HISTFILE_MAX_BUCKETS);
		goto out;
	}
	if (idx >= r->cap) {
		uint64_t cap = r->cap ? r->cap : 1024;

		while (cap <= idx)
			cap *= 2;
		for (c = 0; c < r->cols; c++) {
			uint64_t *q = realloc(r->count[c], cap * sizeof(*q));

			if (!q) {
				rfail(r, "out of memory");
				goto out;
			}
			memset(q + r->cap, 0, (cap - r->cap) * sizeof(*q));
			r->count[c] = q;
		}
		r->cap = cap;
	}
	for (c = 0; c < r->cols; c++)
		r->count[c][idx] = v[c + 1];
	if (idx + 1 > r->buckets)
		r->buckets = (uint32_t)idx + 1;
	ret = 0;
out:
	free(v);
	return ret;
}

static int comment_line(struct reader *r, const char *p)
{
	int k;

	for (k = 0; k < T_KEYS; k++) {
		size_t n = strlen(trailer_keys[k]);

		if (strncmp(p, trailer_keys[k], n))
			continue;
		r->has[k] = true;
		return numbers(r, p + n, &r->vals[k], &r->nvals[k]);
	}
	/* "# Histogram", "# Total:", "# Thread N: ...", "# /dev/cpu_dma_latency ..." */
	return 0;
}

/* The reader's columns into @h: one per thread, the histofall sum dropped. */
static int finish(struct reader *r, struct histfile *h)
{
	uint32_t threads = r->has[T_MIN] ? r->nvals[T_MIN] : r->cols, t;
	int k;

	r->line = 0;
	if (!r->cols)
		return rfail(r, "no histogram in it: is it a cyclictest --histfile "
			     "(cyclictest -h US --histfile FILE)?");
	if (r->cols != threads && r->cols != threads + 1)
		return rfail(r, "its buckets have %u columns and its '# Min Latencies:' "
			     "line %u values: is it one cyclictest run?", r->cols, threads);
	for (k = 0; k < T_KEYS; k++)
		if (r->has[k] && r->nvals[k] < threads)
			return rfail(r, "'%s' has %u values for %u threads", trailer_keys[k],
				     r->nvals[k], threads);
	if (histfile_init(h, r->buckets, threads))
		return rfail(r, "out of memory");
	for (t = 0; t < threads; t++) {
		struct hf_col *c = &h->col[t];
		uint64_t b, sum = 0;
		bool first = true;

		c->count = r->count[t];
		r->count[t] = NULL;
		for (b = 0; b < h->buckets; b++) {
			if (!c->count[b])
				continue;
			if (first)
				c->min = b;
			first = false;
			c->max = b;
			c->total += c->count[b];
			sum += b * c->count[b];
		}
		c->avg = c->total ? sum / c->total : 0;
		c->overflows = r->has[T_OVERFLOWS] ? r->vals[T_OVERFLOWS][t] : 0;
		/* cyclictest's own figures, where it wrote them, are exact */
		if (r->has[T_MIN])
			c->min = r->vals[T_MIN][t];
		if (r->has[T_AVG])
			c->avg = r->vals[T_AVG][t];
		if (r->has[T_MAX])
			c->max = r->vals[T_MAX][t];
	}
	return 0;
}

/**
 * histfile_read() - read a cyclictest --histfile (or its -h output)
 * @h: the histogram read: a column per thread, without -H's sum column
 * @f: the file
 * @err: set to what was wrong, on failure
 * @len: the size of @err
 *
 * Bucket lines may come in any order and with gaps (as after grep -v).
 * Lines of cyclictest's other output ("# /dev/cpu_dma_latency set to 0us",
 * "T: 0 ...") are skipped. Min, Avg and Max are taken from the trailer where
 * it has them, else from the buckets.
 *
 * Return: 0, or -EINVAL with @err set.
 */
int histfile_read(struct histfile *h, FILE *f, char *err, size_t len)
{
	struct reader r = { .err = err, .len = len };
	char *line = NULL;
	size_t cap = 0;
	ssize_t n;
	uint32_t c;
	int ret = 0, k;

	memset(h, 0, sizeof(*h));
	while (!ret && (n = getline(&line, &cap, f)) != -1) {
		char *p = line + strspn(line, " \t");

		r.line++;
		line[strcspn(line, "\r\n")] = 0;
		if (!*p || !strncmp(p, "T:", 2))
			continue;
		if (*p == '#')
			ret = comment_line(&r, p);
		else if (isdigit((unsigned char)*p))
			ret = bucket_line(&r, p);
		else
			ret = rfail(&r, "'%.20s' is not a line of cyclictest's histogram "
				    "('NNNNNN COUNT ...' or '# ...')", p);
	}
	if (!ret && ferror(f))
		ret = rfail(&r, "read error");
	if (!ret)
		ret = finish(&r, h);
	free(line);
	for (c = 0; c < r.cols; c++)
		free(r.count[c]);
	free(r.count);
	for (k = 0; k < T_KEYS; k++)
		free(r.vals[k]);
	if (ret)
		histfile_free(h);
	return ret;
}

/**
 * histfile_merge() - every column of a histogram as one
 * @h: the histogram
 * @all: the sum of its columns; its mean weighted by each column's samples
 *
 * Return: 0 or -ENOMEM.
 */
int histfile_merge(const struct histfile *h, struct hf_col *all)
{
	unsigned __int128 wsum = 0;
	uint64_t n = 0;
	uint32_t c, b;

	memset(all, 0, sizeof(*all));
	all->count = calloc(h->buckets, sizeof(*all->count));
	if (!all->count)
		return -ENOMEM;
	all->min = UINT64_MAX;
	for (c = 0; c < h->cols; c++) {
		const struct hf_col *col = &h->col[c];
		uint64_t cn = col->total + col->overflows;

		for (b = 0; b < h->buckets; b++)
			all->count[b] += col->count[b];
		all->total += col->total;
		all->overflows += col->overflows;
		if (cn && col->min < all->min)
			all->min = col->min;
		if (col->max > all->max)
			all->max = col->max;
		wsum += (unsigned __int128)col->avg * cn;
		n += cn;
	}
	if (all->min == UINT64_MAX)
		all->min = 0;
	all->avg = n ? (uint64_t)(wsum / n) : 0;
	return 0;
}

/**
 * histfile_percentile() - a percentile of a column, to its 1 us buckets
 * @c: the column
 * @buckets: the histogram's buckets
 * @ppm: the percentile in parts per million
 * @overflow: set if the percentile is among the overflows, whose values
 *	the file does not have: the result is then @buckets, a lower bound
 *
 * Return: the bucket (in us) of the least sample that at least @ppm / 10^6
 * of all samples, overflows included, do not exceed; 0 without samples.
 */
uint64_t histfile_percentile(const struct hf_col *c, uint32_t buckets, uint32_t ppm,
			     bool *overflow)
{
	uint64_t n = c->total + c->overflows, seen = 0, r;
	uint32_t b;

	*overflow = false;
	if (!n)
		return 0;
	r = (uint64_t)(((unsigned __int128)ppm * n + 999999) / 1000000);
	if (!r)
		r = 1;
	for (b = 0; b < buckets; b++) {
		seen += c->count[b];
		if (seen >= r)
			return b;
	}
	*overflow = true;
	return buckets;
}

void histfile_free_col(struct hf_col *c)
{
	free(c->count);
	free(c->cycles);
	memset(c, 0, sizeof(*c));
}

void histfile_free(struct histfile *h)
{
	uint32_t c;

	for (c = 0; h->col && c < h->cols; c++)
		histfile_free_col(&h->col[c]);
	free(h->col);
	memset(h, 0, sizeof(*h));
}
