// SPDX-License-Identifier: GPL-2.0
/*
 * What hwtimerctl latency computes, on the host: exact percentiles by
 * nearest rank from the kept samples (and the in-place sort against
 * qsort()), cyclictest's histogram file written and read back, with every
 * refusal of a file that is not one, and the plot's log count axis.
 */
#define _GNU_SOURCE
#include <stdlib.h>
#include <unistd.h>

#include "kselftest_harness.h"
#include "hist.h"
#include "histfile.h"
#include "parse.h"
#include "samples.h"
#include "../user/cyclictest_hist.h"

TEST(percentiles_by_nearest_rank)
{
	struct samples s;
	int i;

	ASSERT_EQ(0, samples_init(&s, 8));	/* grows past it */
	/* 1..100 in a scrambled order */
	for (i = 0; i < 100; i++)
		ASSERT_EQ(0, samples_add(&s, 1 + (i * 37) % 100));
	EXPECT_EQ(100ULL, s.n);
	EXPECT_EQ(1ULL, samples_min(&s));
	EXPECT_EQ(100ULL, s.max);
	EXPECT_EQ(51ULL, samples_mean(&s));	/* 50.5, rounded */
	EXPECT_EQ(50ULL, samples_percentile(&s, PPM_P50));
	EXPECT_EQ(90ULL, samples_percentile(&s, PPM_P90));
	EXPECT_EQ(99ULL, samples_percentile(&s, PPM_P99));
	EXPECT_EQ(100ULL, samples_percentile(&s, PPM_P999));
	EXPECT_EQ(1ULL, samples_percentile(&s, 0));
	EXPECT_EQ(100ULL, samples_percentile(&s, 1000000));
	samples_free(&s);
}

TEST(samples_past_u32_stay_exact)
{
	struct samples s;

	ASSERT_EQ(0, samples_init(&s, 4));
	ASSERT_EQ(0, samples_add(&s, 6000000000LL));
	ASSERT_EQ(0, samples_add(&s, 1));
	ASSERT_EQ(0, samples_add(&s, 5000000001LL));
	ASSERT_EQ(0, samples_add(&s, UINT32_MAX));
	EXPECT_EQ((uint64_t)UINT32_MAX, samples_percentile(&s, PPM_P50));
	EXPECT_EQ(5000000001ULL, samples_percentile(&s, 750000));
	EXPECT_EQ(6000000000ULL, samples_percentile(&s, PPM_P99));
	EXPECT_EQ(6000000000ULL, s.max);
	samples_free(&s);
}

TEST(early_samples_are_counted_not_kept)
{
	struct samples s;

	ASSERT_EQ(0, samples_init(&s, 4));
	ASSERT_EQ(0, samples_add(&s, -5));
	ASSERT_EQ(0, samples_add(&s, 7));
	EXPECT_EQ(1ULL, s.early);
	EXPECT_EQ(1ULL, s.n);
	EXPECT_EQ(7ULL, samples_percentile(&s, PPM_P50));
	samples_free(&s);
	ASSERT_EQ(0, samples_init(&s, 0));
	EXPECT_EQ(0ULL, samples_percentile(&s, PPM_P50));
	EXPECT_EQ(0ULL, samples_min(&s));
	EXPECT_EQ(0ULL, samples_mean(&s));
	samples_free(&s);
}

static int cmp_u32(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;

	return x < y ? -1 : x > y;
}

/* the in-place radix sort against qsort(), duplicates and all */
TEST(sort_matches_qsort)
{
	uint32_t *ref = malloc(200000 * sizeof(*ref));
	struct samples s;
	uint64_t i, x = 88172645463325252ULL;

	ASSERT_NE(NULL, ref);
	ASSERT_EQ(0, samples_init(&s, 200000));
	for (i = 0; i < 200000; i++) {
		/* xorshift; clusters of equal values, and a long tail */
		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
		ref[i] = i % 3 ? (uint32_t)(x % 5000) : (uint32_t)(x % 4000000000U);
		ASSERT_EQ(0, samples_add(&s, ref[i]));
	}
	qsort(ref, 200000, sizeof(*ref), cmp_u32);
	samples_sort(&s);
	EXPECT_EQ(0, memcmp(ref, s.v, 200000 * sizeof(*ref)));
	free(ref);
	samples_free(&s);
}

/* cyclictest's histogram file */

static char err[256];	/* what histfile_read() refused */

static char *write_hf(const struct histfile *h)
{
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);

	if (!f || histfile_write(h, f))
		return NULL;
	fclose(f);
	return text;
}

static int read_hf(struct histfile *h, const char *text)
{
	FILE *f = fmemopen((void *)text, strlen(text), "r");
	int ret = histfile_read(h, f, err, sizeof(err));

	fclose(f);
	return ret;
}

TEST(histfile_written_as_cyclictest)
{
	static const int64_t ns[] = { 500, 1200, 1999, 3700, 12000 };
	struct histfile h;
	struct samples s;
	char *text;
	size_t i;

	ASSERT_EQ(0, samples_init(&s, 8));
	for (i = 0; i < 5; i++)
		ASSERT_EQ(0, samples_add(&s, ns[i]));
	ASSERT_EQ(0, histfile_init(&h, 4, 2));
	ASSERT_EQ(0, histfile_fill(&h, 0, &s));
	ASSERT_EQ(0, histfile_fill(&h, 1, &s));
	text = write_hf(&h);
	ASSERT_NE(NULL, text);
	EXPECT_STREQ("# Histogram\n"
		     "000000 000001\t000001\n"
		     "000001 000002\t000002\n"
		     "000002 000000\t000000\n"
		     "000003 000001\t000001\n"
		     "# Total: 000000004 000000004\n"
		     "# Min Latencies: 00000 00000\n"
		     "# Avg Latencies: 00003 00003\n"
		     "# Max Latencies: 00012 00012\n"
		     "# Histogram Overflows: 00001 00001\n"
		     "# Histogram Overflow at cycle number:\n"
		     "# Thread 0: 00004\n"
		     "# Thread 1: 00004\n"
		     "\n", text);
	free(text);
	histfile_free(&h);
	samples_free(&s);
}

/* as cyclictest: the first as many overflows as buckets, then a count */
TEST(histfile_lists_the_first_overflows)
{
	struct histfile h;
	struct samples s;
	char *text;
	int i;

	ASSERT_EQ(0, samples_init(&s, 8));
	for (i = 0; i < 6; i++)
		ASSERT_EQ(0, samples_add(&s, i == 1 ? 100 : 9000));
	ASSERT_EQ(0, histfile_init(&h, 2, 1));
	ASSERT_EQ(0, histfile_fill(&h, 0, &s));
	text = write_hf(&h);
	ASSERT_NE(NULL, text);
	EXPECT_NE(NULL, strstr(text, "# Histogram Overflows: 00005\n"));
	EXPECT_NE(NULL, strstr(text, "# Thread 0: 00000 00002 # 00003 others\n")) TH_LOG("%s", text);
	free(text);
	histfile_free(&h);
	/* a sorted series has lost its order */
	samples_sort(&s);
	ASSERT_EQ(0, histfile_init(&h, 2, 1));
	EXPECT_EQ(-EINVAL, histfile_fill(&h, 0, &s));
	histfile_free(&h);
	samples_free(&s);
}

TEST(histfile_reads_cyclictest)
{
	struct histfile h;
	struct hf_col all;
	bool over;

	ASSERT_EQ(0, read_hf(&h, cyclictest_hist)) TH_LOG("%s", err);
	EXPECT_EQ(4U, h.buckets);
	EXPECT_EQ(2U, h.cols);
	EXPECT_EQ(9ULL, h.col[0].total);
	EXPECT_EQ(1ULL, h.col[0].overflows);
	EXPECT_EQ(1ULL, h.col[0].min);
	EXPECT_EQ(2ULL, h.col[0].avg);
	EXPECT_EQ(252ULL, h.col[0].max);
	EXPECT_EQ(515ULL, h.col[1].max);
	/* 10 samples: the 5th is in bucket 2, the 10th past the buckets */
	EXPECT_EQ(2ULL, histfile_percentile(&h.col[0], h.buckets, PPM_P50, &over));
	EXPECT_FALSE(over);
	EXPECT_EQ(4ULL, histfile_percentile(&h.col[0], h.buckets, PPM_P99, &over));
	EXPECT_TRUE(over);
	ASSERT_EQ(0, histfile_merge(&h, &all));
	EXPECT_EQ(12ULL, all.total);
	EXPECT_EQ(2ULL, all.overflows);
	EXPECT_EQ(1ULL, all.min);
	EXPECT_EQ(515ULL, all.max);
	EXPECT_EQ(3ULL, all.count[1]);
	EXPECT_EQ(6ULL, all.count[2]);
	EXPECT_EQ(29ULL, all.avg);	/* (2 * 10 + 97 * 4) / 14 */
	histfile_free_col(&all);
	histfile_free(&h);
}

/* -H adds a column of every thread's sum: one thread fewer than columns */
TEST(histfile_reads_histofall)
{
	struct histfile h;

	ASSERT_EQ(0, read_hf(&h, "000000 000001\t000002\t000003\n"
				 "000001 000001\t000000\t000001\n"
				 "# Min Latencies: 00000 00000\n"
				 "# Max Latencies: 00001 00000 00001\n")) TH_LOG("%s", err);
	EXPECT_EQ(2U, h.cols);
	EXPECT_EQ(2ULL, h.col[0].total);
	EXPECT_EQ(2ULL, h.col[1].total);
	histfile_free(&h);
}

/* output of cyclictest -h to a file, grep -v'd zero lines, no trailer */
TEST(histfile_reads_gaps_and_other_lines)
{
	struct histfile h;

	ASSERT_EQ(0, read_hf(&h, "# /dev/cpu_dma_latency set to 0us\n"
				 "T: 0 ( 1234) P:80 I:1000 C:  10 Min: 5 Act: 6 Avg: 6 Max: 9\n"
				 "000005 000004\n"
				 "\n"
				 "000009 000006\r\n")) TH_LOG("%s", err);
	EXPECT_EQ(10U, h.buckets);
	EXPECT_EQ(1U, h.cols);
	EXPECT_EQ(10ULL, h.col[0].total);
	EXPECT_EQ(5ULL, h.col[0].min);
	EXPECT_EQ(9ULL, h.col[0].max);
	EXPECT_EQ(7ULL, h.col[0].avg);	/* (5 * 4 + 9 * 6) / 10 */
	EXPECT_EQ(0ULL, h.col[0].count[7]);
	histfile_free(&h);
}

TEST(histfile_refuses_no_histogram)
{
	struct histfile h;

	EXPECT_EQ(-EINVAL, read_hf(&h, ""));
	EXPECT_EQ(0, strncmp(err, "no histogram in it: is it a cyclictest --histfile", 49));
	EXPECT_EQ(-EINVAL, read_hf(&h, "# Histogram\n# Min Latencies: 00001\n"));
	EXPECT_EQ(0, strncmp(err, "no histogram in it", 18));
}

TEST(histfile_refuses_other_text)
{
	struct histfile h;

	EXPECT_EQ(-EINVAL, read_hf(&h, "000000 000001\nhello\n"));
	EXPECT_EQ(0, strncmp(err, "line 2: 'hello' is not a line of cyclictest's histogram", 55))
		TH_LOG("%s", err);
	EXPECT_EQ(-EINVAL, read_hf(&h, "000000 00x001\n"));
	EXPECT_EQ(0, strncmp(err, "line 1: '00x001' is not a number", 32)) TH_LOG("%s", err);
	EXPECT_EQ(-EINVAL, read_hf(&h, "000003\n"));
	EXPECT_STREQ("line 1: a bucket without a count", err);
	EXPECT_EQ(-EINVAL, read_hf(&h, "1000000 000001\n"));
	EXPECT_STREQ("line 1: bucket 1000000: cyclictest has at most 1000000", err);
}

TEST(histfile_refuses_mixed_columns)
{
	struct histfile h;

	EXPECT_EQ(-EINVAL, read_hf(&h, "000000 000001\t000001\n000001 000001\n"));
	EXPECT_STREQ("line 2: 1 columns, where the first bucket line has 2", err);
	EXPECT_EQ(-EINVAL, read_hf(&h, "000000 000001\t000001\t000001\t000001\n"
				       "# Min Latencies: 00000\n"));
	EXPECT_EQ(0, strncmp(err, "its buckets have 4 columns and its '# Min Latencies:' line 1",
			     60)) TH_LOG("%s", err);
	EXPECT_EQ(-EINVAL, read_hf(&h, "000000 000001\t000001\n"
				       "# Max Latencies: 00001\n"));
	EXPECT_STREQ("'# Max Latencies:' has 1 values for 2 threads", err);
}

TEST(histfile_round_trip)
{
	struct histfile h, back;
	struct samples s;
	char *text;
	int i;

	ASSERT_EQ(0, samples_init(&s, 1000));
	for (i = 0; i < 1000; i++)
		ASSERT_EQ(0, samples_add(&s, (int64_t)(i * 7919 % 50000)));
	ASSERT_EQ(0, histfile_init(&h, 40, 1));
	ASSERT_EQ(0, histfile_fill(&h, 0, &s));
	text = write_hf(&h);
	ASSERT_NE(NULL, text);
	ASSERT_EQ(0, read_hf(&back, text)) TH_LOG("%s", err);
	EXPECT_EQ(h.buckets, back.buckets);
	EXPECT_EQ(0, memcmp(h.col[0].count, back.col[0].count, 40 * sizeof(uint64_t)));
	EXPECT_EQ(h.col[0].overflows, back.col[0].overflows);
	EXPECT_EQ(h.col[0].max, back.col[0].max);
	free(text);
	histfile_free(&back);
	histfile_free(&h);
	samples_free(&s);
}

/* the log2 histogram and its plot */

TEST(histogram_buckets_match_the_module)
{
	struct hist h = { 0 };

	EXPECT_EQ(0U, hist_bucket(0));
	EXPECT_EQ(0U, hist_bucket(1023));
	EXPECT_EQ(1U, hist_bucket(1024));
	EXPECT_EQ(1U, hist_bucket(2047));
	EXPECT_EQ(2U, hist_bucket(2048));
	EXPECT_EQ(HIST_BUCKETS - 1, hist_bucket(UINT64_MAX));
	EXPECT_EQ(1024ULL, hist_bucket_lo(1));
	hist_add(&h, 5);
	hist_add(&h, 3000);
	hist_add(&h, -1);
	EXPECT_EQ(3ULL, h.count);
	EXPECT_EQ(1ULL, h.early);
	EXPECT_EQ(1ULL, h.bucket[0]);
	EXPECT_EQ(1ULL, h.bucket[2]);
}

/* a count axis of powers of ten, so that one sample shows beside 10^5 */
TEST(histogram_svg_has_a_log_axis)
{
	struct hist h = { 0 };
	char path[] = "/tmp/hwtctl-svgXXXXXX", *text, *bar;
	int fd = mkstemp(path), i;
	FILE *f;

	ASSERT_LE(0, fd);
	close(fd);
	for (i = 0; i < 100000; i++)
		hist_add(&h, 100);
	hist_add(&h, 100000);
	ASSERT_EQ(0, hist_svg(path, &h, "a <title> & more", "min 1 us"));
	f = fopen(path, "r");
	ASSERT_NE(NULL, f);
	text = calloc(1, 1 << 16);
	ASSERT_NE(NULL, text);
	ASSERT_LT(0, fread(text, 1, (1 << 16) - 1, f));
	fclose(f);
	unlink(path);
	EXPECT_EQ(0, strncmp(text, "<?xml", 5));
	EXPECT_NE(NULL, strstr(text, "a &lt;title&gt; &amp; more"));
	EXPECT_NE(NULL, strstr(text, "(log scale)"));
	EXPECT_NE(NULL, strstr(text, ">100000</text>"));
	EXPECT_NE(NULL, strstr(text, ">10</text>"));
	/* the single sample's bar shows: 14 of the plot's 260 pixels */
	bar = strstr(text, ": 1</title>");
	ASSERT_NE(NULL, bar);
	while (bar > text && strncmp(bar, "height=\"", 8))
		bar--;
	EXPECT_LT(10, atoi(bar + 8)) TH_LOG("%.80s", bar);
	free(text);
	EXPECT_EQ(-ENOENT, hist_svg("/nonexistent/dir/x.svg", &h, "t", ""));
}

TEST_HARNESS_MAIN
