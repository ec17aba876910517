/* SPDX-License-Identifier: GPL-2.0 */
/*
 * hwtimerctl: parsing and printing of durations and absolute times.
 */
#ifndef HWTCTL_PARSE_H
#define HWTCTL_PARSE_H

#include <stddef.h>
#include <stdint.h>

#define NSEC_PER_USEC	1000ULL
#define NSEC_PER_MSEC	1000000ULL
#define NSEC_PER_SEC	1000000000ULL

#define DURATION_FORMS	"a number with a unit: ns, us, ms, s, m (or min), h or d " \
			"(e.g. 250ms, 1.5s, 10us, 2m)"
#define TIME_FORMS	"ISO 8601: YYYY-MM-DDTHH:MM:SS[.frac][Z|+HH:MM|-HH:MM] " \
			"(local time without a zone), or @SECONDS since the epoch"

int parse_duration(const char *s, uint64_t *ns);
int parse_time(const char *s, uint64_t *realtime_ns);
char *format_duration(char *buf, size_t len, uint64_t ns);

#endif /* HWTCTL_PARSE_H */
