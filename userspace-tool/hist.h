/* SPDX-License-Identifier: GPL-2.0 */
/*
 * hwtimerctl: log2 lateness histograms, printed as text or drawn as SVG
 * (on a log count axis). Exact statistics come from samples.h.
 * The buckets are the module's (hwtimer sysfs stats/lateness_hist):
 * bucket 0 is [0, 1024) ns, bucket k > 0 is [2^(k+9), 2^(k+10)) ns, and the
 * last bucket is open-ended.
 */
#ifndef HWTCTL_HIST_H
#define HWTCTL_HIST_H

#include <stdint.h>
#include <stdio.h>

#define HIST_BUCKETS	32

struct hist {
	uint64_t bucket[HIST_BUCKETS];
	uint64_t count;
	uint64_t early;		/* samples below zero: must stay 0 */
};

unsigned int hist_bucket(uint64_t ns);
uint64_t hist_bucket_lo(unsigned int b);
void hist_add(struct hist *h, int64_t ns);
void hist_print(FILE *f, const struct hist *h, const char *title);
int hist_svg(const char *path, const struct hist *h, const char *title, const char *subtitle);

#endif /* HWTCTL_HIST_H */
