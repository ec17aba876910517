// SPDX-License-Identifier: GPL-2.0
/*
 * hwtimerctl latency's report: the histogram file (from the samples in the
 * order taken), then, the samples sorted, min, avg, max and exact
 * percentiles of each series, as text or JSON, the plot, and a cyclictest
 * run beside.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <string.h>

#include "latency.h"

static const struct {
	const char *label;
	const char *key;
	uint32_t ppm;
} pcts[] = {
	{ "p50", "p50", PPM_P50 },
	{ "p90", "p90", PPM_P90 },
	{ "p99", "p99", PPM_P99 },
	{ "p99.9", "p99_9", PPM_P999 },
	{ "p99.99", "p99_99", PPM_P9999 },
};

#define NPCTS	(sizeof(pcts) / sizeof(pcts[0]))

/* the histogram file: wakeups as this reader saw them, and timerfd's */
static void write_histfile(struct latency_run *r)
{
	const struct latency_opts *o = r->o;
	uint64_t buckets = o->hist_buckets;
	struct histfile h;
	FILE *f;
	int ret;

	/* as many buckets as the cyclictest run beside, else as the largest needs */
	if (!buckets)
		buckets = r->ct.buckets;
	if (!buckets)
		buckets = (o->compare && r->tfd.s.max > r->wake.s.max ?
			   r->tfd.s.max : r->wake.s.max) / 1000 + 1;
	if (buckets > HISTFILE_MAX_BUCKETS)
		buckets = HISTFILE_MAX_BUCKETS;
	if (histfile_init(&h, (uint32_t)buckets, o->compare ? 2 : 1) ||
	    histfile_fill(&h, 0, &r->wake.s) ||
	    (o->compare && histfile_fill(&h, 1, &r->tfd.s)))
		die("out of memory for the histogram of %llu buckets",
		    (unsigned long long)buckets);
	f = fopen(o->histfile, "w");
	if (!f)
		die("cannot write --histfile %s: %s", o->histfile, strerror(errno));
	ret = histfile_write(&h, f);
	if (fclose(f) && !ret)
		ret = -errno;
	if (ret)
		die("cannot write --histfile %s: %s", o->histfile, strerror(-ret));
	histfile_free(&h);
}

/* "min 1.2 us, avg 3.4 us, p50 ..., max 12 us" */
static void print_stats(struct series *s)
{
	char a[32];
	size_t i;

	if (!s->s.n)
		return;
	printf("  min %s", dur(a, samples_min(&s->s)));
	printf(", avg %s", dur(a, samples_mean(&s->s)));
	for (i = 0; i < NPCTS; i++)
		printf(", %s %s", pcts[i].label, dur(a, samples_percentile(&s->s, pcts[i].ppm)));
	printf(", max %s", dur(a, s->s.max));
	if (s->overruns)
		printf("; %llu overruns", (unsigned long long)s->overruns);
	printf("\n");
}

static void print_series(struct series *s)
{
	printf("\n");
	hist_print(stdout, &s->h, s->title);
	print_stats(s);
}

/* one cell of the table, ours or cyclictest's */
static void cell(const char *text)
{
	printf(" %14s", text);
}

/* cyclictest's microseconds, written as ours are */
static void ct_cell(uint64_t us, bool overflow)
{
	char a[32], b[40];

	snprintf(b, sizeof(b), "%s%s", overflow ? ">= " : "", dur(a, us * NSEC_PER_USEC));
	cell(b);
}

/* hwtimer, timerfd and cyclictest as each reader saw them, a column each */
static void print_table(struct latency_run *r, const struct hf_col *ct)
{
	struct series *ours[2] = { &r->wake, r->o->compare ? &r->tfd : NULL };
	uint32_t buckets = r->ct.buckets;
	char a[32];
	bool over;
	size_t i, c;

	printf("\nside by side, as each reader saw them (wakeup - deadline):\n%-10s", "");
	cell("hwtimer");
	if (ours[1])
		cell("timerfd");
	if (ct)
		cell("cyclictest");
	printf("\n%-10s", "samples");
	for (c = 0; c < 2 && ours[c]; c++) {
		snprintf(a, sizeof(a), "%llu", (unsigned long long)ours[c]->s.n);
		cell(a);
	}
	if (ct) {
		snprintf(a, sizeof(a), "%llu", (unsigned long long)(ct->total + ct->overflows));
		cell(a);
	}
	printf("\n%-10s", "min");
	for (c = 0; c < 2 && ours[c]; c++)
		cell(dur(a, samples_min(&ours[c]->s)));
	if (ct)
		ct_cell(ct->min, false);
	printf("\n%-10s", "avg");
	for (c = 0; c < 2 && ours[c]; c++)
		cell(dur(a, samples_mean(&ours[c]->s)));
	if (ct)
		ct_cell(ct->avg, false);
	for (i = 0; i < NPCTS; i++) {
		printf("\n%-10s", pcts[i].label);
		for (c = 0; c < 2 && ours[c]; c++)
			cell(dur(a, samples_percentile(&ours[c]->s, pcts[i].ppm)));
		if (ct) {
			uint64_t us = histfile_percentile(ct, buckets, pcts[i].ppm, &over);

			ct_cell(us, over);
		}
	}
	printf("\n%-10s", "max");
	for (c = 0; c < 2 && ours[c]; c++)
		cell(dur(a, ours[c]->s.max));
	if (ct)
		ct_cell(ct->max, false);
	if (r->o->periodic) {
		printf("\n%-10s", "overruns");
		for (c = 0; c < 2 && ours[c]; c++) {
			snprintf(a, sizeof(a), "%llu", (unsigned long long)ours[c]->overruns);
			cell(a);
		}
		if (ct)
			cell("-");
	}
	printf("\n");
	if (ct)
		printf("\ncyclictest: %s, %u thread%s, to its 1 us buckets; %llu samples "
		       "past its last bucket (%u us)\n", r->o->compare_histfile, r->ct.cols,
		       r->ct.cols == 1 ? "" : "s together", (unsigned long long)ct->overflows,
		       buckets);
}

/* the settings that make the run comparable with cyclictest's */
static void print_settings(const struct latency_opts *o)
{
	if (o->priority)
		printf(", SCHED_FIFO %d", o->priority);
	if (o->affinity)
		printf(", CPUs %s", o->cpulist);
	if (o->mlock)
		printf(", memory locked");
	printf("\n");
}

static void print_text(struct latency_run *r, const struct hf_col *ct)
{
	const struct latency_opts *o = r->o;
	char a[32], b[32];

	if (o->periodic) {
		printf("periodic: every %s, %llu periods", dur(a, o->interval),
		       (unsigned long long)r->expiries);
		if (o->compare)
			printf(", a timerfd half a period after");
	} else {
		printf("%llu timers, delays %s .. %s", (unsigned long long)r->expiries,
		       dur(a, o->delay), dur(b, o->delay + o->spread));
	}
	print_settings(o);
	print_series(&r->fire);
	print_series(&r->wake);
	if (o->compare && r->tfd.s.n + r->tfd.s.early)
		print_series(&r->tfd);
	if (o->compare || ct)
		print_table(r, ct);
}

static void json_series(struct series *s)
{
	size_t i;

	printf(",\"%s\":{\"count\":%llu,\"early\":%llu,\"overruns\":%llu,\"min_ns\":%llu,"
	       "\"avg_ns\":%llu,\"max_ns\":%llu", s->key, (unsigned long long)s->s.n,
	       (unsigned long long)s->s.early, (unsigned long long)s->overruns,
	       (unsigned long long)samples_min(&s->s),
	       (unsigned long long)samples_mean(&s->s), (unsigned long long)s->s.max);
	for (i = 0; i < NPCTS; i++)
		printf(",\"%s_ns\":%llu", pcts[i].key,
		       (unsigned long long)samples_percentile(&s->s, pcts[i].ppm));
	printf(",\"buckets\":[");
	for (i = 0; i < HIST_BUCKETS; i++)
		printf("%s%llu", i ? "," : "", (unsigned long long)s->h.bucket[i]);
	printf("]}");
}

/* a cyclictest column; a percentile among its overflows is null */
static void json_ct_col(const struct hf_col *c, uint32_t buckets)
{
	bool over;
	size_t i;

	printf("{\"samples\":%llu,\"overflows\":%llu,\"min_us\":%llu,\"avg_us\":%llu,"
	       "\"max_us\":%llu", (unsigned long long)(c->total + c->overflows),
	       (unsigned long long)c->overflows, (unsigned long long)c->min,
	       (unsigned long long)c->avg, (unsigned long long)c->max);
	for (i = 0; i < NPCTS; i++) {
		uint64_t us = histfile_percentile(c, buckets, pcts[i].ppm, &over);

		if (over)
			printf(",\"%s_us\":null", pcts[i].key);
		else
			printf(",\"%s_us\":%llu", pcts[i].key, (unsigned long long)us);
	}
	printf("}");
}

static void print_json(struct latency_run *r, const struct hf_col *ct)
{
	const struct latency_opts *o = r->o;
	uint32_t t;

	json_begin();
	if (o->periodic)
		printf(",\"mode\":\"periodic\",\"interval_ns\":%llu,\"loops\":%llu,"
		       "\"duration_ns\":%llu,\"expiries\":%llu", (unsigned long long)o->interval,
		       (unsigned long long)o->loops, (unsigned long long)o->duration,
		       (unsigned long long)r->expiries);
	else
		printf(",\"mode\":\"oneshot\",\"timers\":%llu,\"delivery\":\"%s\","
		       "\"delay_ns\":%llu,\"spread_ns\":%llu", (unsigned long long)r->expiries,
		       o->ring ? "ring" : "read", (unsigned long long)o->delay,
		       (unsigned long long)o->spread);
	printf(",\"slack_ns\":%llu,\"priority\":%d,\"affinity\":", (unsigned long long)o->slack,
	       o->priority);
	if (o->affinity)
		json_string(o->cpulist);
	else
		printf("null");
	printf(",\"mlock\":%s", o->mlock ? "true" : "false");
	json_series(&r->fire);
	json_series(&r->wake);
	if (o->compare)
		json_series(&r->tfd);
	if (ct) {
		printf(",\"cyclictest\":{\"file\":");
		json_string(o->compare_histfile);
		printf(",\"threads\":%u,\"buckets\":%u,\"all\":", r->ct.cols, r->ct.buckets);
		json_ct_col(ct, r->ct.buckets);
		printf(",\"per_thread\":[");
		for (t = 0; t < r->ct.cols; t++) {
			printf("%s", t ? "," : "");
			json_ct_col(&r->ct.col[t], r->ct.buckets);
		}
		printf("]}");
	}
	printf("}\n");
}

static void plot(struct latency_run *r)
{
	char sub[160], a[32], b[32], c[32], d[32];
	int ret;

	snprintf(sub, sizeof(sub), "%llu samples, %llu early; min %s, p50 %s, p99 %s, max %s",
		 (unsigned long long)r->fire.s.n, (unsigned long long)r->fire.s.early,
		 dur(a, samples_min(&r->fire.s)), dur(b, samples_percentile(&r->fire.s, PPM_P50)),
		 dur(c, samples_percentile(&r->fire.s, PPM_P99)), dur(d, r->fire.s.max));
	ret = hist_svg(r->o->plot, &r->fire.h, "hwtimer lateness at expiry", sub);
	if (ret)
		die("cannot write --plot %s: %s", r->o->plot, strerror(-ret));
}

void latency_report(struct latency_run *r)
{
	const struct latency_opts *o = r->o;
	struct hf_col all = { 0 };
	bool have_ct = r->ct.cols;

	/* first: the histogram file lists overflows by sample number */
	if (o->histfile)
		write_histfile(r);
	if (have_ct && histfile_merge(&r->ct, &all))
		die("out of memory for the cyclictest histogram");
	if (o->json)
		print_json(r, have_ct ? &all : NULL);
	else
		print_text(r, have_ct ? &all : NULL);
	if (o->plot)
		plot(r);
	if (!o->json && o->plot)
		printf("\nplot written to %s\n", o->plot);
	if (!o->json && o->histfile)
		printf("%shistogram written to %s\n", o->plot ? "" : "\n", o->histfile);
	histfile_free_col(&all);
}
