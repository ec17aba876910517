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
 * log10(x) for x >= 1, without libm (hwtimerctl links statically without
 * it): the decades, then ln of what is left by its atanh series, to about
 * 1e-7: plenty to place a bar.
 */
static double log10_u64(uint64_t x)
{
	double m = (double)x, y, y2, t, s = 0;
	int e = 0, k;

	while (m >= 10.0) {
		m /= 10.0;
		e++;
	}
	y = (m - 1) / (m + 1);
	y2 = y * y;
	for (k = 1, t = y; k < 80; k += 2, t *= y2)
		s += t / k;
	return e + 2 * s / 2.302585092994046;
}

/* a bar's height on the log count axis: 1 stands a little above 0 */
#define LOG_FLOOR	0.3

static int log_height(uint64_t count, int decades, int height)
{
	if (!count)
		return 0;
	return (int)((double)height * (log10_u64(count) + LOG_FLOOR) / (decades + LOG_FLOOR));
}

/*
 * A bar chart of the histogram as a self-contained SVG file: one bar per
 * bucket from the first to the last non-empty one, on a log count axis, so
 * that a tail of a few samples shows beside a peak of millions.
 */
int hist_svg(const char *path, const struct hist *h, const char *title, const char *subtitle)
{
	const int W = 800, H = 420, left = 70, right = 20, top = 50, bottom = 110;
	const int ph = H - top - bottom;
	unsigned int b, first, last, nb;
	int decades = 1, d;
	uint64_t peak, p10 = 10;
	FILE *f;
	int ret = 0;

	if (!hist_span(h, &first, &last, &peak)) {
		first = 0;
		last = 0;
		peak = 1;
	}
	nb = last - first + 1;
	while (p10 < peak && decades < 19) {
		p10 *= 10;
		decades++;
	}

	f = fopen(path, "w");
	if (!f)
		return -errno;
	fprintf(f, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
		"<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" "
		"font-family=\"sans-serif\" font-size=\"12\">\n"
		"<rect width=\"100%%\" height=\"100%%\" fill=\"white\"/>\n", W, H);
	fprintf(f, "<text x=\"%d\" y=\"22\" font-size=\"16\" font-weight=\"bold\">", left);
	svg_escape(f, title);
	fprintf(f, "</text>\n<text x=\"%d\" y=\"40\">", left);
	svg_escape(f, subtitle);
	fprintf(f, "</text>\n");
	/* axes, and a line at each power of ten */
	fprintf(f, "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"black\"/>\n",
		left, H - bottom, W - right, H - bottom);
	fprintf(f, "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"black\"/>\n",
		left, top, left, H - bottom);
	for (d = 0, p10 = 1; d <= decades; d++, p10 *= 10) {
		int y = H - bottom - log_height(p10, decades, ph);

		fprintf(f, "<text x=\"%d\" y=\"%d\" text-anchor=\"end\">%llu</text>\n",
			left - 6, y + 4, (unsigned long long)p10);
		fprintf(f, "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"#ddd\"/>\n",
			left, y, W - right, y);
	}
	fprintf(f, "<text transform=\"translate(16,%d) rotate(-90)\" text-anchor=\"middle\">"
		"timers (log scale)</text>\n", top + ph / 2);
	for (b = first; b <= last; b++) {
		int slot = (W - left - right) / (int)nb;
		int x = left + (int)(b - first) * slot;
		int bh = log_height(h->bucket[b], decades, ph);
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
