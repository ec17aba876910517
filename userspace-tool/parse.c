// SPDX-License-Identifier: GPL-2.0
/*
 * hwtimerctl: durations ("250ms", "1h30m", "2min 30s", as systemd.time(7)
 * spells them) and absolute times (ISO 8601), parsed exactly in integer
 * nanoseconds: no floating point, so "0.1s" is 100000000 ns, not 99999999;
 * counts and CPU lists.
 */
#define _GNU_SOURCE
#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "parse.h"

/* systemd.time(7)'s units, as systemd spells them, and ns */
static const struct {
	const char *name;
	uint64_t ns;
} units[] = {
	{ "ns", 1 }, { "nsec", 1 },
	{ "us", NSEC_PER_USEC }, { "usec", NSEC_PER_USEC },
	{ "\xc2\xb5s", NSEC_PER_USEC },		/* U+00B5 MICRO SIGN */
	{ "\xce\xbcs", NSEC_PER_USEC },		/* U+03BC GREEK SMALL LETTER MU */
	{ "ms", NSEC_PER_MSEC }, { "msec", NSEC_PER_MSEC },
	{ "s", NSEC_PER_SEC }, { "sec", NSEC_PER_SEC },
	{ "second", NSEC_PER_SEC }, { "seconds", NSEC_PER_SEC },
	{ "m", 60 * NSEC_PER_SEC }, { "min", 60 * NSEC_PER_SEC },
	{ "minute", 60 * NSEC_PER_SEC }, { "minutes", 60 * NSEC_PER_SEC },
	{ "h", 3600 * NSEC_PER_SEC }, { "hr", 3600 * NSEC_PER_SEC },
	{ "hour", 3600 * NSEC_PER_SEC }, { "hours", 3600 * NSEC_PER_SEC },
	{ "d", 86400 * NSEC_PER_SEC }, { "day", 86400 * NSEC_PER_SEC },
	{ "days", 86400 * NSEC_PER_SEC },
	{ "w", 604800 * NSEC_PER_SEC }, { "week", 604800 * NSEC_PER_SEC },
	{ "weeks", 604800 * NSEC_PER_SEC },
};

/* systemd's units of no fixed length, refused here */
static const char *const vague_units[] = {
	"M", "month", "months", "y", "year", "years",
};

static int __attribute__((format(printf, 4, 5)))
why_fail(int err, char *why, size_t len, const char *fmt, ...)
{
	va_list ap;

	if (why && len) {
		va_start(ap, fmt);
		vsnprintf(why, len, fmt, ap);
		va_end(ap);
	}
	return err;
}

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


/* the bytes of a unit: letters, and the bytes of UTF-8's "µ" and "μ" */
static bool unit_byte(char c)
{
	return isalpha((unsigned char)c) || (unsigned char)c >= 0x80;
}

static bool unit_is(const char *name, const char *u, size_t n)
{
	return strlen(name) == n && !memcmp(name, u, n);
}

/* the ns of unit @u of @n bytes, or 0 */
static uint64_t unit_ns(const char *u, size_t n)
{
	size_t i;

	for (i = 0; i < sizeof(units) / sizeof(units[0]); i++)
		if (unit_is(units[i].name, u, n))
			return units[i].ns;
	return 0;
}

static bool vague_unit(const char *u, size_t n)
{
	size_t i;

	for (i = 0; i < sizeof(vague_units) / sizeof(vague_units[0]); i++)
		if (unit_is(vague_units[i], u, n))
			return true;
	return false;
}

/*
 * One part of a duration, a number and its unit at *@p, scaled to *@ns;
 * *@p moves past it. Return: 0, or -EINVAL or -ERANGE with @why set.
 */
static int duration_part(const char **p, uint64_t *ns, char *why, size_t len)
{
	const char *num = *p, *unit;
	size_t nlen, ulen, dots = 0, i;
	uint64_t scale;

	if (*num == '-' || *num == '+')
		return why_fail(-EINVAL, why, len,
				"a duration has no sign: write it without the '%c'", *num);
	while (isdigit((unsigned char)**p) || **p == '.')
		(*p)++;
	nlen = (size_t)(*p - num);
	*p += strspn(*p, " \t");
	unit = *p;
	while (**p && unit_byte(**p))
		(*p)++;
	ulen = (size_t)(*p - unit);
	if (!nlen && ulen)
		return why_fail(-EINVAL, why, len, "no number before '%.*s'", (int)ulen, unit);
	if (!nlen && isprint((unsigned char)*num))
		return why_fail(-EINVAL, why, len, "unexpected '%c': write the parts one "
				"after another (1h30m) or apart with spaces ('1h 30m')", *num);
	if (!nlen)
		return why_fail(-EINVAL, why, len, "unexpected byte 0x%02x", (unsigned char)*num);
	for (i = 0; i < nlen; i++)
		dots += num[i] == '.';
	if (dots > 1)
		return why_fail(-EINVAL, why, len, "'%.*s' has more than one decimal point",
				(int)nlen, num);
	if (nlen == dots)
		return why_fail(-EINVAL, why, len, "'%.*s' is not a number", (int)nlen, num);
	if (!ulen)
		return why_fail(-EINVAL, why, len, "'%.*s' has no unit: add one, e.g. %.*sms "
				"or %.*ss", (int)nlen, num, (int)nlen, num, (int)nlen, num);
	scale = unit_ns(unit, ulen);
	if (!scale && vague_unit(unit, ulen))
		return why_fail(-EINVAL, why, len, "'%.*s' is not taken: months and years "
				"vary in length; use days (d) or weeks (w)", (int)ulen, unit);
	if (!scale)
		return why_fail(-EINVAL, why, len, "unknown unit '%.*s': use ns, us, ms, s, "
				"min, h, d or w (or usec, msec, sec, minutes, hours, days, "
				"weeks, ...)", (int)ulen, unit);
	if (!parse_scaled(num, scale, ns))
		return why_fail(-ERANGE, why, len, "it is longer than 2^64 ns (about 584 years)");
	return 0;
}

/**
 * parse_duration() - a duration, as systemd.time(7) writes them, to ns
 * @s: the text: one or more parts, each a decimal number (a fraction
 *     allowed) and a unit, one after another ("1h30m") or apart with
 *     blanks ("2min 30s"); blanks may also separate a number from its unit
 * @ns: the result, the sum of the parts, exact to the ns (finer digits are
 *      dropped)
 * @why: if not NULL, set to what was wrong with @s on failure
 * @len: the size of @why
 *
 * Unlike systemd, a number needs its unit (there is no default unit), and
 * months and years, whose length varies, are refused.
 *
 * Return: 0, -EINVAL for text that is not a duration, -ERANGE if it does
 * not fit 64 bits of ns.
 */
int parse_duration(const char *s, uint64_t *ns, char *why, size_t len)
{
	const char *p = s;
	uint64_t total = 0, part;
	bool any = false;
	int ret;

	if (!s)
		return why_fail(-EINVAL, why, len, "it is empty");
	for (;;) {
		p += strspn(p, " \t");
		if (!*p)
			break;
		ret = duration_part(&p, &part, why, len);
		if (ret)
			return ret;
		if (total > UINT64_MAX - part)
			return why_fail(-ERANGE, why, len,
					"it is longer than 2^64 ns (about 584 years)");
		total += part;
		any = true;
	}
	if (!any)
		return why_fail(-EINVAL, why, len, "it is empty");
	*ns = total;
	return 0;
}

/**
 * parse_count() - a whole number within bounds
 * @s: decimal digits, nothing else (no sign, no blanks)
 * @min: the least value taken
 * @max: the greatest value taken
 * @v: the result
 *
 * Return: 0, -EINVAL for text that is not a whole number, -ERANGE for one
 * outside [@min, @max].
 */
int parse_count(const char *s, uint64_t min, uint64_t max, uint64_t *v)
{
	uint64_t n = 0;
	const char *p;

	if (!s || !*s)
		return -EINVAL;
	for (p = s; *p; p++) {
		if (!isdigit((unsigned char)*p))
			return -EINVAL;
		if (n > (UINT64_MAX - (uint64_t)(*p - '0')) / 10)
			return -ERANGE;
		n = n * 10 + (uint64_t)(*p - '0');
	}
	if (n < min || n > max)
		return -ERANGE;
	*v = n;
	return 0;
}

/* a CPU number at *@p, moving *@p past it; -ERANGE past CPU_SETSIZE */
static int cpu_number(const char **p, unsigned long *cpu)
{
	unsigned long n = 0;

	for (; isdigit((unsigned char)**p); (*p)++) {
		n = n * 10 + (unsigned long)(**p - '0');
		if (n >= CPU_SETSIZE)
			return -ERANGE;
	}
	*cpu = n;
	return 0;
}

/**
 * parse_cpulist() - a list of CPUs, as taskset -c and cyclictest -a take it
 * @s: comma-separated CPU numbers and ranges "A-B", e.g. "0,2-3"
 * @set: the result
 * @why: if not NULL, set to what was wrong with @s on failure
 * @len: the size of @why
 *
 * Return: 0, -EINVAL for a malformed list, -ERANGE for a CPU number from
 * CPU_SETSIZE on.
 */
int parse_cpulist(const char *s, cpu_set_t *set, char *why, size_t len)
{
	const char *p = s;
	unsigned long lo, hi, c;

	CPU_ZERO(set);
	if (!s || !*s)
		return why_fail(-EINVAL, why, len, "it is empty");
	for (;;) {
		if (*p == ',' || !*p)
			return why_fail(-EINVAL, why, len, "it has an empty item: expected %s",
					CPULIST_FORMS);
		if (!isdigit((unsigned char)*p))
			return why_fail(-EINVAL, why, len, "unexpected '%c': expected %s",
					*p, CPULIST_FORMS);
		if (cpu_number(&p, &lo))
			return why_fail(-ERANGE, why, len, "CPUs are numbered below %d",
					CPU_SETSIZE);
		hi = lo;
		if (*p == '-') {
			p++;
			if (!isdigit((unsigned char)*p))
				return why_fail(-EINVAL, why, len, "the range from %lu has no "
						"end: write %lu-N", lo, lo);
			if (cpu_number(&p, &hi))
				return why_fail(-ERANGE, why, len, "CPUs are numbered below %d",
						CPU_SETSIZE);
			if (hi < lo)
				return why_fail(-EINVAL, why, len, "the range %lu-%lu runs "
						"backwards: write %lu-%lu", lo, hi, hi, lo);
		}
		for (c = lo; c <= hi; c++)
			CPU_SET(c, set);
		if (!*p)
			return 0;
		if (*p != ',')
			return why_fail(-EINVAL, why, len, "unexpected '%c': expected %s",
					*p, CPULIST_FORMS);
		p++;
	}
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
