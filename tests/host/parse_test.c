// SPDX-License-Identifier: GPL-2.0
/*
 * hwtimerctl's parsers, on the host: durations (systemd.time(7)'s
 * spellings, and every refusal with its reason), absolute times, counts
 * and CPU lists, exact to the nanosecond (no floating point on the way in).
 * args_test has the command lines, samples_test what latency computes.
 */
#define _GNU_SOURCE
#include <stdlib.h>
#include <time.h>

#include "kselftest_harness.h"
#include "parse.h"

static uint64_t dur(const char *s)
{
	uint64_t ns = 0xdeadbeef;

	return parse_duration(s, &ns, NULL, 0) ? 0xdeadbeef : ns;
}

/* parse_duration()'s refusal of @s: its errno, and its reason in @why */
static int dur_why(const char *s, char *why)
{
	uint64_t ns;

	why[0] = 0;
	return parse_duration(s, &ns, why, PARSE_WHY_LEN);
}

#define S	NSEC_PER_SEC

TEST(duration_units)
{
	EXPECT_EQ(250 * NSEC_PER_MSEC, dur("250ms"));
	EXPECT_EQ(1500 * NSEC_PER_MSEC, dur("1.5s"));
	EXPECT_EQ(10 * NSEC_PER_USEC, dur("10us"));
	EXPECT_EQ(120 * S, dur("2m"));
	EXPECT_EQ(120 * S, dur("2min"));
	EXPECT_EQ(3 * 3600 * S, dur("3h"));
	EXPECT_EQ(86400 * S, dur("1d"));
	EXPECT_EQ(7ULL, dur("7ns"));
	EXPECT_EQ(0ULL, dur("0s"));
}

TEST(duration_systemd_spellings)
{
	EXPECT_EQ(7ULL, dur("7nsec"));
	EXPECT_EQ(10 * NSEC_PER_USEC, dur("10usec"));
	EXPECT_EQ(10 * NSEC_PER_USEC, dur("10\xc2\xb5s"));	/* MICRO SIGN */
	EXPECT_EQ(10 * NSEC_PER_USEC, dur("10\xce\xbcs"));	/* GREEK MU */
	EXPECT_EQ(5 * NSEC_PER_MSEC, dur("5msec"));
	EXPECT_EQ(S, dur("1sec"));
	EXPECT_EQ(S, dur("1second"));
	EXPECT_EQ(2 * S, dur("2seconds"));
	EXPECT_EQ(60 * S, dur("1minute"));
	EXPECT_EQ(120 * S, dur("2minutes"));
	EXPECT_EQ(3600 * S, dur("1hr"));
	EXPECT_EQ(3600 * S, dur("1hour"));
	EXPECT_EQ(7200 * S, dur("2hours"));
	EXPECT_EQ(86400 * S, dur("1day"));
	EXPECT_EQ(2 * 86400 * S, dur("2days"));
	EXPECT_EQ(604800 * S, dur("1w"));
	EXPECT_EQ(604800 * S, dur("1week"));
	EXPECT_EQ(2 * 604800 * S, dur("2weeks"));
}

TEST(duration_concatenations)
{
	EXPECT_EQ(5400 * S, dur("1h30m"));
	EXPECT_EQ(150 * S, dur("2min 30s"));
	EXPECT_EQ(5410 * S, dur("1h 30min 10s"));
	EXPECT_EQ(3600 * S, dur("1 h"));
	EXPECT_EQ(5 * S, dur("  5s  "));
	EXPECT_EQ(7200 * S, dur("1.5h30m"));
	EXPECT_EQ(9 * 86400 * S, dur("1w2d"));
	EXPECT_EQ(2 * S, dur("1s 1s"));
	EXPECT_EQ(S + 500 * NSEC_PER_USEC, dur("1s\t500us"));
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
	EXPECT_EQ(90 * S, dur("1.5m"));
	/* exact, rounded down: 333333333333 * 3600e9 / 1e12 */
	EXPECT_EQ(1199999999998ULL, dur("0.333333333333h"));
	EXPECT_EQ(7407407340ULL, dur("0.12345678901m"));
	EXPECT_EQ(10666666666661ULL, dur("0.1234567901234d"));
	EXPECT_EQ(1800 * S, dur("0.5h"));
}

TEST(duration_without_unit_says_add_one)
{
	char why[PARSE_WHY_LEN];

	EXPECT_EQ(-EINVAL, dur_why("10", why));
	EXPECT_STREQ("'10' has no unit: add one, e.g. 10ms or 10s", why);
	EXPECT_EQ(-EINVAL, dur_why("1h 30", why));
	EXPECT_STREQ("'30' has no unit: add one, e.g. 30ms or 30s", why);
}

TEST(duration_unknown_unit_names_it)
{
	char why[PARSE_WHY_LEN];

	EXPECT_EQ(-EINVAL, dur_why("1x", why));
	EXPECT_EQ(0, strncmp(why, "unknown unit 'x': use ns, us, ms, s, min, h, d or w", 50))
		TH_LOG("%s", why);
	EXPECT_EQ(-EINVAL, dur_why("1secs", why));
	EXPECT_NE(NULL, strstr(why, "unknown unit 'secs'"));
	EXPECT_EQ(-EINVAL, dur_why("1e3s", why));
	EXPECT_NE(NULL, strstr(why, "unknown unit 'e'"));
}

TEST(duration_has_no_sign)
{
	char why[PARSE_WHY_LEN];

	EXPECT_EQ(-EINVAL, dur_why("-1s", why));
	EXPECT_STREQ("a duration has no sign: write it without the '-'", why);
	EXPECT_EQ(-EINVAL, dur_why("+1s", why));
	EXPECT_STREQ("a duration has no sign: write it without the '+'", why);
	EXPECT_EQ(-EINVAL, dur_why("1s -1s", why));
}

TEST(duration_unit_without_number)
{
	char why[PARSE_WHY_LEN];

	EXPECT_EQ(-EINVAL, dur_why("ms", why));
	EXPECT_STREQ("no number before 'ms'", why);
	EXPECT_EQ(-EINVAL, dur_why("1h min", why));
	EXPECT_STREQ("no number before 'min'", why);
}

TEST(duration_malformed_numbers)
{
	char why[PARSE_WHY_LEN];

	EXPECT_EQ(-EINVAL, dur_why("1.2.3s", why));
	EXPECT_STREQ("'1.2.3' has more than one decimal point", why);
	EXPECT_EQ(-EINVAL, dur_why(".s", why));
	EXPECT_STREQ("'.' is not a number", why);
}

TEST(duration_months_and_years_refused)
{
	char why[PARSE_WHY_LEN];

	EXPECT_EQ(-EINVAL, dur_why("1M", why));
	EXPECT_STREQ("'M' is not taken: months and years vary in length; use days (d) "
		     "or weeks (w)", why);
	EXPECT_EQ(-EINVAL, dur_why("2years", why));
	EXPECT_EQ(-EINVAL, dur_why("1month", why));
	EXPECT_EQ(-EINVAL, dur_why("1y", why));
}

TEST(duration_separators)
{
	char why[PARSE_WHY_LEN];

	EXPECT_EQ(-EINVAL, dur_why("1s,2s", why));
	EXPECT_EQ(0, strncmp(why, "unexpected ',': write the parts one after another", 48))
		TH_LOG("%s", why);
	EXPECT_EQ(-EINVAL, dur_why("5s!", why));
	EXPECT_EQ(-EINVAL, dur_why("5s\x01", why));
	EXPECT_STREQ("unexpected byte 0x01", why);
}

TEST(duration_empty)
{
	char why[PARSE_WHY_LEN];
	uint64_t ns;

	EXPECT_EQ(-EINVAL, dur_why("", why));
	EXPECT_STREQ("it is empty", why);
	EXPECT_EQ(-EINVAL, dur_why(" \t", why));
	EXPECT_STREQ("it is empty", why);
	EXPECT_EQ(-EINVAL, parse_duration(NULL, &ns, why, sizeof(why)));
	/* no room for a reason is fine */
	EXPECT_EQ(-EINVAL, parse_duration("1x", &ns, NULL, 0));
}

TEST(duration_overflow_erange)
{
	char why[PARSE_WHY_LEN];
	uint64_t ns;

	EXPECT_EQ(0, parse_duration("18446744073709551615ns", &ns, NULL, 0));
	EXPECT_EQ(UINT64_MAX, ns);
	EXPECT_EQ(-ERANGE, dur_why("18446744073709551616ns", why));
	EXPECT_STREQ("it is longer than 2^64 ns (about 584 years)", why);
	EXPECT_EQ(-ERANGE, dur_why("1000000d", why));
	/* each part fits, their sum does not */
	EXPECT_EQ(-ERANGE, dur_why("200000d 200000d", why));
}

TEST(count_bounds)
{
	uint64_t v = 0;

	EXPECT_EQ(0, parse_count("42", 1, 100, &v));
	EXPECT_EQ(42ULL, v);
	EXPECT_EQ(0, parse_count("18446744073709551615", 1, UINT64_MAX, &v));
	EXPECT_EQ(-ERANGE, parse_count("0", 1, 100, &v));
	EXPECT_EQ(-ERANGE, parse_count("101", 1, 100, &v));
	EXPECT_EQ(-ERANGE, parse_count("18446744073709551616", 1, UINT64_MAX, &v));
	EXPECT_EQ(-EINVAL, parse_count("", 1, 100, &v));
	EXPECT_EQ(-EINVAL, parse_count("-1", 1, 100, &v));
	EXPECT_EQ(-EINVAL, parse_count("1e3", 1, 10000, &v));
	EXPECT_EQ(-EINVAL, parse_count(" 1", 1, 100, &v));
}

TEST(cpulist_forms)
{
	cpu_set_t set;

	ASSERT_EQ(0, parse_cpulist("0", &set, NULL, 0));
	EXPECT_EQ(1, CPU_COUNT(&set));
	EXPECT_TRUE(CPU_ISSET(0, &set));
	ASSERT_EQ(0, parse_cpulist("2-3", &set, NULL, 0));
	EXPECT_EQ(2, CPU_COUNT(&set));
	EXPECT_TRUE(CPU_ISSET(3, &set));
	ASSERT_EQ(0, parse_cpulist("0,2-4,7", &set, NULL, 0));
	EXPECT_EQ(5, CPU_COUNT(&set));
	EXPECT_FALSE(CPU_ISSET(1, &set));
	ASSERT_EQ(0, parse_cpulist("1023", &set, NULL, 0));
}

TEST(cpulist_empty_items)
{
	char why[PARSE_WHY_LEN];
	cpu_set_t set;

	EXPECT_EQ(-EINVAL, parse_cpulist("", &set, why, sizeof(why)));
	EXPECT_STREQ("it is empty", why);
	EXPECT_EQ(-EINVAL, parse_cpulist("1,,2", &set, why, sizeof(why)));
	EXPECT_NE(NULL, strstr(why, "an empty item"));
	EXPECT_EQ(-EINVAL, parse_cpulist("1,", &set, why, sizeof(why)));
	EXPECT_NE(NULL, strstr(why, "an empty item"));
}

TEST(cpulist_not_numbers)
{
	char why[PARSE_WHY_LEN];
	cpu_set_t set;

	EXPECT_EQ(-EINVAL, parse_cpulist("a", &set, why, sizeof(why)));
	EXPECT_EQ(0, strncmp(why, "unexpected 'a': expected CPU numbers", 36)) TH_LOG("%s", why);
	EXPECT_EQ(-EINVAL, parse_cpulist("1;2", &set, why, sizeof(why)));
	EXPECT_EQ(0, strncmp(why, "unexpected ';'", 14));
}

TEST(cpulist_ranges)
{
	char why[PARSE_WHY_LEN];
	cpu_set_t set;

	EXPECT_EQ(-EINVAL, parse_cpulist("3-1", &set, why, sizeof(why)));
	EXPECT_STREQ("the range 3-1 runs backwards: write 1-3", why);
	EXPECT_EQ(-EINVAL, parse_cpulist("2-", &set, why, sizeof(why)));
	EXPECT_STREQ("the range from 2 has no end: write 2-N", why);
	EXPECT_EQ(-ERANGE, parse_cpulist("1024", &set, why, sizeof(why)));
	EXPECT_STREQ("CPUs are numbered below 1024", why);
	EXPECT_EQ(-ERANGE, parse_cpulist("0-99999999999999999999", &set, why, sizeof(why)));
}

TEST(time_iso8601_utc_and_offsets)
{
	uint64_t t;

	ASSERT_EQ(0, parse_time("1970-01-01T00:00:00Z", &t));
	EXPECT_EQ(0ULL, t);
	ASSERT_EQ(0, parse_time("2026-11-22T14:05:49Z", &t));
	EXPECT_EQ(1795356349ULL * S, t);
	ASSERT_EQ(0, parse_time("2026-11-22T15:05:49+01:00", &t));
	EXPECT_EQ(1795356349ULL * S, t);
	ASSERT_EQ(0, parse_time("2026-11-22T09:35:49-0430", &t));
	EXPECT_EQ(1795356349ULL * S, t);
	ASSERT_EQ(0, parse_time("2026-11-22 14:05:49.25Z", &t));
	EXPECT_EQ(1795356349ULL * S + 250 * NSEC_PER_MSEC, t);
	ASSERT_EQ(0, parse_time("2024-02-29T00:00:00Z", &t));
	ASSERT_EQ(0, parse_time("@1795356349.5", &t));
	EXPECT_EQ(1795356349ULL * S + 500 * NSEC_PER_MSEC, t);
}

TEST(time_local_without_zone)
{
	uint64_t t;

	setenv("TZ", "UTC", 1);
	tzset();
	ASSERT_EQ(0, parse_time("2026-11-22T14:05:49", &t));
	EXPECT_EQ(1795356349ULL * S, t);
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

TEST_HARNESS_MAIN
