/* SPDX-License-Identifier: GPL-2.0 */
/*
 * hwtimerctl: parsing and printing of durations, absolute times, counts and
 * CPU lists. Nothing here exits or prints: each parser returns -errno and,
 * where asked, a sentence saying what was wrong with the text.
 */
#ifndef HWTCTL_PARSE_H
#define HWTCTL_PARSE_H

#include <sched.h>		/* cpu_set_t: includers define _GNU_SOURCE */
#include <stddef.h>
#include <stdint.h>

#define NSEC_PER_USEC	1000ULL
#define NSEC_PER_MSEC	1000000ULL
#define NSEC_PER_SEC	1000000000ULL

#define DURATION_FORMS	"numbers with units: ns, us, ms, s, min, h, d or w, " \
			"or systemd.time(7)'s spellings (usec, msec, sec, minutes, " \
			"hours, days, weeks, ...), e.g. 250ms, 1.5s, 1h30m, '2min 30s'"
#define TIME_FORMS	"ISO 8601: YYYY-MM-DDTHH:MM:SS[.frac][Z|+HH:MM|-HH:MM] " \
			"(local time without a zone), or @SECONDS since the epoch"
#define CPULIST_FORMS	"CPU numbers and ranges, e.g. 0, 2-3 or 0,2-3"

/* room for any reason the parsers give, with the text quoted in it */
#define PARSE_WHY_LEN	256

int parse_duration(const char *s, uint64_t *ns, char *why, size_t len);
int parse_time(const char *s, uint64_t *realtime_ns);
int parse_count(const char *s, uint64_t min, uint64_t max, uint64_t *v);
int parse_cpulist(const char *s, cpu_set_t *set, char *why, size_t len);
char *format_duration(char *buf, size_t len, uint64_t ns);

#endif /* HWTCTL_PARSE_H */
