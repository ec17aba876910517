// SPDX-License-Identifier: GPL-2.0
/*
 * hwtimerctl: log2 lateness histograms. See hist.h.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "hist.h"
#include "parse.h"

unsigned int hist_bucket(uint64_t ns)
{
	unsigned int b = 0;

	ns >>= 10;
	while (ns) {
		b++;
		ns >>= 1;
	}
	return b < HIST_BUCKETS ? b : HIST_BUCKETS - 1;
}

uint64_t hist_bucket_lo(unsigned int b)
{
	return b ? 1ULL << (b + 9) : 0;
}

void hist_add(struct hist *h, int64_t ns)
{
	h->count++;
	if (ns < 0) {
		h->early++;
		return;
	}
	h->bucket[hist_bucket((uint64_t)ns)]++;
	h->sum += (uint64_t)ns;
	if ((uint64_t)ns > h->max)
		h->max = (uint64_t)ns;
}

/* The upper edge of the bucket holding the p-th percentile (an upper bound). */
uint64_t hist_percentile(const struct hist *h, double p)
{
	uint64_t seen = 0, want, n = h->count - h->early;
	unsigned int b;

	if (!n)
		return 0;
	want = (uint64_t)(p / 100.0 * (double)n + 0.5);
	if (!want)
		want = 1;
	for (b = 0; b < HIST_BUCKETS; b++) {
		seen += h->bucket[b];
		if (seen >= want)
			return b + 1 < HIST_BUCKETS ? hist_bucket_lo(b + 1) : h->max;
	}
	return h->max;
}

static void range_label(char *buf, size_t len, unsigned int b)
{
	char lo[32], hi[32];

	format_duration(lo, sizeof(lo), hist_bucket_lo(b));
	if (b + 1 < HIST_BUCKETS)
		snprintf(buf, len, "%s .. %s", lo,
			 format_duration(hi, sizeof(hi), hist_bucket_lo(b + 1)));
	else
		snprintf(buf, len, ">= %s", lo);
}

/* The first and last non-empty buckets and the largest; false if none. */
static bool hist_span(const struct hist *h, unsigned int *first,
		      unsigned int *last, uint64_t *peak)
{
	unsigned int b;

	*first = HIST_BUCKETS;
	*last = 0;
	*peak = 0;
	for (b = 0; b < HIST_BUCKETS; b++) {
		if (!h->bucket[b])
			continue;
		if (*first == HIST_BUCKETS)
			*first = b;
		*last = b;
		if (h->bucket[b] > *peak)
			*peak = h->bucket[b];
	}
	return *first < HIST_BUCKETS;
}

void hist_print(FILE *f, const struct hist *h, const char *title)
{
	unsigned int b, first, last;
	uint64_t peak;
	bool any = hist_span(h, &first, &last, &peak);

	fprintf(f, "%s (%llu samples, %llu early)\n", title,
		(unsigned long long)h->count, (unsigned long long)h->early);
	if (!any)
		return;
	for (b = first; b <= last; b++) {
		char label[64];
		int bar = (int)(h->bucket[b] * 40 / peak);

		range_label(label, sizeof(label), b);
		fprintf(f, "  %-24s %10llu |%.*s\n", label,
			(unsigned long long)h->bucket[b], bar,
			"########################################");
	}
}

static void svg_escape(FILE *f, const char *s)
{
	for (; *s; s++) {
		switch (*s) {
		case '<': fputs("&lt;", f); break;
		case '>': fputs("&gt;", f); break;
		case '&': fputs("&amp;", f); break;
		default: fputc(*s, f);
		}
	}
}

/*
 * A bar chart of the histogram as a self-contained SVG file: one bar per
 * bucket from the first to the last non-empty one, on a linear count axis.
 */
int hist_svg(const char *path, const struct hist *h, const char *title)
{
	const int W = 800, H = 420, left = 70, right = 20, top = 50, bottom = 110;
	unsigned int b, first, last, nb;
	uint64_t peak;
	char p50[32], p99[32], mx[32];
	FILE *f;
	int ret = 0;

	if (!hist_span(h, &first, &last, &peak)) {
		first = 0;
		last = 0;
		peak = 1;
	}
	nb = last - first + 1;

	f = fopen(path, "w");
	if (!f)
		return -errno;
	fprintf(f, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
		"<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" "
		"font-family=\"sans-serif\" font-size=\"12\">\n"
		"<rect width=\"100%%\" height=\"100%%\" fill=\"white\"/>\n", W, H);
	fprintf(f, "<text x=\"%d\" y=\"22\" font-size=\"16\" font-weight=\"bold\">", left);
	svg_escape(f, title);
	fprintf(f, "</text>\n<text x=\"%d\" y=\"40\">%llu samples, %llu early; "
		"p50 &lt;= %s, p99 &lt;= %s, max %s</text>\n", left,
		(unsigned long long)h->count, (unsigned long long)h->early,
		format_duration(p50, sizeof(p50), hist_percentile(h, 50)),
		format_duration(p99, sizeof(p99), hist_percentile(h, 99)),
		format_duration(mx, sizeof(mx), h->max));
	/* axes */
	fprintf(f, "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"black\"/>\n",
		left, H - bottom, W - right, H - bottom);
	fprintf(f, "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"black\"/>\n",
		left, top, left, H - bottom);
	for (b = 0; b <= 4; b++) {
		int y = H - bottom - (int)((H - top - bottom) * b / 4);

		fprintf(f, "<text x=\"%d\" y=\"%d\" text-anchor=\"end\">%llu</text>\n",
			left - 6, y + 4, (unsigned long long)(peak * b / 4));
		fprintf(f, "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"#ddd\"/>\n",
			left, y, W - right, y);
	}
	for (b = first; b <= last; b++) {
		int slot = (W - left - right) / (int)nb;
		int x = left + (int)(b - first) * slot;
		int bh = (int)((double)(H - top - bottom) * (double)h->bucket[b] / (double)peak);
		char label[64];

		range_label(label, sizeof(label), b);
		fprintf(f, "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"#3b7dd8\">"
			"<title>%s: %llu</title></rect>\n",
			x + 2, H - bottom - bh, slot > 4 ? slot - 4 : 1, bh, label,
			(unsigned long long)h->bucket[b]);
		fprintf(f, "<text transform=\"translate(%d,%d) rotate(45)\">%s</text>\n",
			x + slot / 2, H - bottom + 12, label);
	}
	fprintf(f, "<text x=\"%d\" y=\"%d\" text-anchor=\"middle\">lateness "
		"(fire time - deadline), log2 buckets</text>\n",
		(W + left) / 2, H - 8);
	fputs("</svg>\n", f);
	if (ferror(f))
		ret = -EIO;
	if (fclose(f) && !ret)
		ret = -errno;
	return ret;
}
