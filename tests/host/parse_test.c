// SPDX-License-Identifier: GPL-2.0
/*
 * hwtimerctl's duration and time parsing and its histogram, on the host:
 * every accepted form, every rejected one, and exactness (no floating
 * point on the way in).
 */
#define _GNU_SOURCE
#include <stdlib.h>
#include <time.h>

#include "kselftest_harness.h"
#include "hist.h"
#include "parse.h"

static uint64_t dur(const char *s)
{
	uint64_t ns = 0xdeadbeef;

	return parse_duration(s, &ns) ? 0xdeadbeef : ns;
}

TEST(duration_units)
{
	EXPECT_EQ(250 * NSEC_PER_MSEC, dur("250ms"));
	EXPECT_EQ(1500 * NSEC_PER_MSEC, dur("1.5s"));
	EXPECT_EQ(10 * NSEC_PER_USEC, dur("10us"));
	EXPECT_EQ(120 * NSEC_PER_SEC, dur("2m"));
	EXPECT_EQ(120 * NSEC_PER_SEC, dur("2min"));
	EXPECT_EQ(3 * 3600 * NSEC_PER_SEC, dur("3h"));
	EXPECT_EQ(86400 * NSEC_PER_SEC, dur("1d"));
	EXPECT_EQ(7ULL, dur("7ns"));
	EXPECT_EQ(0ULL, dur("0s"));
}

TEST(duration_fractions_are_exact)
{
	EXPECT_EQ(100000000ULL, dur("0.1s"));
	EXPECT_EQ(1ULL, dur("0.000000001s"));
	/* finer than a nanosecond is dropped, not rounded */
	EXPECT_EQ(1ULL, dur("1.9ns"));
	EXPECT_EQ(500ULL, dur(".5us"));
	EXPECT_EQ(2000ULL, dur("2.us"));
	/* units that are not powers of ten of a ns */
	EXPECT_EQ(90 * NSEC_PER_SEC, dur("1.5m"));
	/* exact, rounded down: 333333333333 * 3600e9 / 1e12 */
	EXPECT_EQ(1199999999998ULL, dur("0.333333333333h"));
	EXPECT_EQ(7407407340ULL, dur("0.12345678901m"));
	EXPECT_EQ(10666666666661ULL, dur("0.1234567901234d"));
	EXPECT_EQ(1800 * NSEC_PER_SEC, dur("0.5h"));
}

TEST(duration_rejects_malformed)
{
	uint64_t ns;

	EXPECT_EQ(-EINVAL, parse_duration("", &ns));
	EXPECT_EQ(-EINVAL, parse_duration("10", &ns));
	EXPECT_EQ(-EINVAL, parse_duration("ms", &ns));
	EXPECT_EQ(-EINVAL, parse_duration("1x", &ns));
	EXPECT_EQ(-EINVAL, parse_duration("-1s", &ns));
	EXPECT_EQ(-EINVAL, parse_duration("1.2.3s", &ns));
	EXPECT_EQ(-EINVAL, parse_duration("1 s", &ns));
	EXPECT_EQ(-EINVAL, parse_duration("1sec", &ns));
	EXPECT_EQ(-EINVAL, parse_duration(".s", &ns));
	EXPECT_EQ(-EINVAL, parse_duration(NULL, &ns));
}

TEST(duration_overflow_erange)
{
	uint64_t ns;

	EXPECT_EQ(0, parse_duration("18446744073709551615ns", &ns));
	EXPECT_EQ(UINT64_MAX, ns);
	EXPECT_EQ(-ERANGE, parse_duration("18446744073709551616ns", &ns));
	EXPECT_EQ(-ERANGE, parse_duration("1000000d", &ns));
}

TEST(time_iso8601_utc_and_offsets)
{
	uint64_t t;

	ASSERT_EQ(0, parse_time("1970-01-01T00:00:00Z", &t));
	EXPECT_EQ(0ULL, t);
	ASSERT_EQ(0, parse_time("2026-11-22T14:05:49Z", &t));
	EXPECT_EQ(1795356349ULL * NSEC_PER_SEC, t);
	ASSERT_EQ(0, parse_time("2026-11-22T15:05:49+01:00", &t));
	EXPECT_EQ(1795356349ULL * NSEC_PER_SEC, t);
	ASSERT_EQ(0, parse_time("2026-11-22T09:35:49-0430", &t));
	EXPECT_EQ(1795356349ULL * NSEC_PER_SEC, t);
	ASSERT_EQ(0, parse_time("2026-11-22 14:05:49.25Z", &t));
	EXPECT_EQ(1795356349ULL * NSEC_PER_SEC + 250 * NSEC_PER_MSEC, t);
	ASSERT_EQ(0, parse_time("2024-02-29T00:00:00Z", &t));
	ASSERT_EQ(0, parse_time("@1795356349.5", &t));
	EXPECT_EQ(1795356349ULL * NSEC_PER_SEC + 500 * NSEC_PER_MSEC, t);
}

TEST(time_local_without_zone)
{
	uint64_t t;

	setenv("TZ", "UTC", 1);
	tzset();
	ASSERT_EQ(0, parse_time("2026-11-22T14:05:49", &t));
	EXPECT_EQ(1795356349ULL * NSEC_PER_SEC, t);
}

TEST(time_rejects_malformed)
{
	uint64_t t;

	EXPECT_EQ(-EINVAL, parse_time("", &t));
	EXPECT_EQ(-EINVAL, parse_time("2026-11-22", &t));
	EXPECT_EQ(-EINVAL, parse_time("2026-13-01T00:00:00Z", &t));
	EXPECT_EQ(-EINVAL, parse_time("2026-02-30T00:00:00Z", &t));
	EXPECT_EQ(-EINVAL, parse_time("2025-02-29T00:00:00Z", &t));
	EXPECT_EQ(-EINVAL, parse_time("2026-11-22T24:00:00Z", &t));
	EXPECT_EQ(-EINVAL, parse_time("2026-11-22T10:00:00+25:00", &t));
	EXPECT_EQ(-EINVAL, parse_time("2026-11-22T10:00:00Zjunk", &t));
	EXPECT_EQ(-EINVAL, parse_time("2026-11-22T10:00:00.Z", &t));
	EXPECT_EQ(-EINVAL, parse_time("@", &t));
	EXPECT_EQ(-EINVAL, parse_time("@12x", &t));
	EXPECT_EQ(-ERANGE, parse_time("1969-12-31T23:59:59Z", &t));
	EXPECT_EQ(-ERANGE, parse_time("9999-01-01T00:00:00Z", &t));
}

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
	EXPECT_EQ(3000ULL, h.max);
	EXPECT_EQ(1024ULL, hist_percentile(&h, 50));
	EXPECT_EQ(4096ULL, hist_percentile(&h, 99));
}

TEST(histogram_svg_is_written)
{
	struct hist h = { 0 };
	char path[] = "/tmp/hwtctl-svgXXXXXX", buf[64] = "";
	int fd = mkstemp(path);
	FILE *f;

	ASSERT_LE(0, fd);
	close(fd);
	hist_add(&h, 100000);
	ASSERT_EQ(0, hist_svg(path, &h, "a <title> & more"));
	f = fopen(path, "r");
	ASSERT_NE(NULL, f);
	ASSERT_NE(NULL, fgets(buf, sizeof(buf), f));
	fclose(f);
	unlink(path);
	EXPECT_EQ(0, strncmp(buf, "<?xml", 5));
	EXPECT_EQ(-ENOENT, hist_svg("/nonexistent/dir/x.svg", &h, "t"));
}

TEST_HARNESS_MAIN
