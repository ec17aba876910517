// SPDX-License-Identifier: GPL-2.0
/*
 * hwtimerctl: durations ("250ms", "1.5s") and absolute times (ISO 8601),
 * parsed exactly in integer nanoseconds: no floating point, so "0.1s" is
 * 100000000 ns, not 99999999.
 */
#define _GNU_SOURCE
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "parse.h"

static const struct {
	const char *name;
	uint64_t ns;
} units[] = {
	{ "ns", 1 },
	{ "us", NSEC_PER_USEC },
	{ "ms", NSEC_PER_MSEC },
	{ "s", NSEC_PER_SEC },
	{ "m", 60 * NSEC_PER_SEC },
	{ "min", 60 * NSEC_PER_SEC },
	{ "h", 3600 * NSEC_PER_SEC },
	{ "d", 86400 * NSEC_PER_SEC },
};

/*
 * Digits, optionally with a fraction, times @scale ns: *ns is the whole
 * part times @scale plus the fraction times @scale, rounded down to a ns
 * (exactly, in 128 bits: @scale need not be a power of ten, as for "m").
 * Returns the end of the number, or NULL on no digits or overflow.
 */
static const char *parse_scaled(const char *p, uint64_t scale, uint64_t *ns)
{
	uint64_t whole = 0, frac = 0, div = 1;
	int digits = 0;

	while (isdigit((unsigned char)*p)) {
		uint64_t d = (uint64_t)(*p++ - '0');

		if (whole > (UINT64_MAX - d) / 10)
			return NULL;
		whole = whole * 10 + d;
		digits++;
	}
	if (*p == '.') {
		p++;
		while (isdigit((unsigned char)*p)) {
			/* 18 digits are finer than a ns of any unit: drop the rest */
			if (div < 1000000000000000000ULL) {
				frac = frac * 10 + (uint64_t)(*p - '0');
				div *= 10;
			}
			p++;
			digits++;
		}
	}
	if (!digits || (whole && whole > UINT64_MAX / scale))
		return NULL;
	*ns = whole * scale;
	if (frac) {
		uint64_t f = (uint64_t)((unsigned __int128)frac * scale / div);

		if (*ns > UINT64_MAX - f)
			return NULL;
		*ns += f;
	}
	return p;
}

/**
 * parse_duration() - "250ms", "1.5s", "10us", "2m" to ns
 * @s: the text: a decimal number and a unit, nothing else
 * @ns: the result
 *
 * Return: 0, -EINVAL for text that is not a duration, -ERANGE if it does
 * not fit 64 bits of ns.
 */
int parse_duration(const char *s, uint64_t *ns)
{
	const char *unit, *end;
	size_t i, digits, dots = 0;

	if (!s)
		return -EINVAL;
	for (unit = s; isdigit((unsigned char)*unit) || *unit == '.'; unit++)
		dots += *unit == '.';
	digits = (size_t)(unit - s) - dots;
	if (!digits || dots > 1)
		return -EINVAL;
	for (i = 0; i < sizeof(units) / sizeof(units[0]); i++) {
		if (strcmp(units[i].name, unit))
			continue;
		end = parse_scaled(s, units[i].ns, ns);
		/* the number is well formed: only overflow fails it */
		return end ? 0 : -ERANGE;
	}
	return -EINVAL;
}

/* Days from 1970-01-01 to a proleptic Gregorian date (Howard Hinnant). */
static long long days_from_civil(long long y, unsigned int m, unsigned int d)
{
	long long era;
	unsigned int yoe, doy, doe;

	y -= m <= 2;
	era = (y >= 0 ? y : y - 399) / 400;
	yoe = (unsigned int)(y - era * 400);
	doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
	doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
	return era * 146097 + (long long)doe - 719468;
}

static int two_digits(const char **p, unsigned int *v)
{
	if (!isdigit((unsigned char)(*p)[0]) || !isdigit((unsigned char)(*p)[1]))
		return -EINVAL;
	*v = (unsigned int)(((*p)[0] - '0') * 10 + ((*p)[1] - '0'));
	*p += 2;
	return 0;
}

/**
 * parse_time() - an absolute time to ns since the epoch (CLOCK_REALTIME)
 * @s: ISO 8601 "YYYY-MM-DDTHH:MM:SS[.frac][Z|+HH:MM|-HH:MM]" (a space may
 *     replace the T; without a zone the time is local), or "@SECONDS[.frac]"
 * @realtime_ns: the result
 *
 * Return: 0, -EINVAL for malformed text or an impossible date, -ERANGE for
 * a time before the epoch or beyond 64 bits of ns.
 */
int parse_time(const char *s, uint64_t *realtime_ns)
{
	unsigned int year, mon, day, hh, mm, ss, zh, zm;
	const char *p = s;
	long long secs, off = 0;
	uint64_t frac = 0;
	int zone = 0, i;
	static const unsigned int mdays[] = {
		31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31,
	};

	if (!s || !*s)
		return -EINVAL;
	if (*p == '@') {
		const char *end;

		if (!isdigit((unsigned char)p[1]))
			return -EINVAL;
		end = parse_scaled(p + 1, NSEC_PER_SEC, realtime_ns);
		return !end ? -ERANGE : *end ? -EINVAL : 0;
	}
	year = 0;
	for (i = 0; i < 4; i++) {
		if (!isdigit((unsigned char)*p))
			return -EINVAL;
		year = year * 10 + (unsigned int)(*p++ - '0');
	}
	if (*p++ != '-' || two_digits(&p, &mon) || *p++ != '-' ||
	    two_digits(&p, &day) || (*p != 'T' && *p != 't' && *p != ' '))
		return -EINVAL;
	p++;
	if (two_digits(&p, &hh) || *p++ != ':' || two_digits(&p, &mm) ||
	    *p++ != ':' || two_digits(&p, &ss))
		return -EINVAL;
	if (*p == '.' || *p == ',') {
		uint64_t scale = NSEC_PER_SEC / 10;

		p++;
		if (!isdigit((unsigned char)*p))
			return -EINVAL;
		for (; isdigit((unsigned char)*p); p++, scale /= 10)
			frac += (uint64_t)(*p - '0') * scale;
	}
	if (*p == 'Z' || *p == 'z') {
		zone = 1;
		p++;
	} else if (*p == '+' || *p == '-') {
		int sign = *p++ == '-' ? -1 : 1;

		if (two_digits(&p, &zh))
			return -EINVAL;
		if (*p == ':')
			p++;
		if (two_digits(&p, &zm) || zh > 23 || zm > 59)
			return -EINVAL;
		zone = 1;
		off = sign * (long long)(zh * 3600 + zm * 60);
	}
	if (*p)
		return -EINVAL;
	if (mon < 1 || mon > 12 || day < 1 || day > mdays[mon - 1] ||
	    hh > 23 || mm > 59 || ss > 60)
		return -EINVAL;
	if (mon == 2 && day == 29 &&
	    !(year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)))
		return -EINVAL;

	if (zone) {
		secs = days_from_civil(year, mon, day) * 86400LL +
		       hh * 3600 + mm * 60 + ss - off;
	} else {
		struct tm tm = {
			.tm_year = (int)year - 1900, .tm_mon = (int)mon - 1,
			.tm_mday = (int)day, .tm_hour = (int)hh, .tm_min = (int)mm,
			.tm_sec = (int)ss, .tm_isdst = -1,
		};
		time_t t;

		errno = 0;
		t = mktime(&tm);
		if (t == (time_t)-1 && errno)
			return -ERANGE;
		secs = (long long)t;
	}
	if (secs < 0)
		return -ERANGE;
	if ((uint64_t)secs > (UINT64_MAX - frac) / NSEC_PER_SEC)
		return -ERANGE;
	*realtime_ns = (uint64_t)secs * NSEC_PER_SEC + frac;
	return 0;
}

/**
 * format_duration() - ns to text with a unit and 4 significant digits
 * @buf: the buffer
 * @len: its size
 * @ns: the duration
 *
 * Past a year the unit is "y", years of 365 days: output only, not a unit
 * that parse_duration() takes.
 *
 * Return: @buf.
 */
char *format_duration(char *buf, size_t len, uint64_t ns)
{
	static const struct { const char *u; double div; } f[] = {
		{ "y", 365 * 86400e9 }, { "d", 86400e9 }, { "h", 3600e9 },
		{ "min", 60e9 },
		{ "s", 1e9 }, { "ms", 1e6 }, { "us", 1e3 },
	};
	size_t i;

	for (i = 0; i < sizeof(f) / sizeof(f[0]); i++) {
		if ((double)ns >= f[i].div) {
			snprintf(buf, len, "%.4g %s", (double)ns / f[i].div, f[i].u);
			return buf;
		}
	}
	snprintf(buf, len, "%llu ns", (unsigned long long)ns);
	return buf;
}
