/* SPDX-License-Identifier: GPL-2.0 */
/*
 * hwtimerctl latency, in four files: cmd_latency.c sets the run up (the
 * options against the module, scheduling, affinity, memory) and ends it;
 * latency_oneshot.c and latency_periodic.c take the samples, one mode each;
 * latency_report.c prints them (text or JSON), writes the histogram file
 * and the plot, and sets a cyclictest run beside them.
 */
#ifndef HWTCTL_LATENCY_H
#define HWTCTL_LATENCY_H

#include "cli.h"
#include "histfile.h"
#include "samples.h"

/**
 * struct series - the lateness samples of one way of waiting
 * @key: its JSON key
 * @title: its heading
 * @s: every sample, in ns
 * @h: their log2 histogram, for the text and the plot
 * @overruns: periods that ended while the waiter slept on (periodic mode)
 */
struct series {
	const char *key;
	const char *title;
	struct samples s;
	struct hist h;
	uint64_t overruns;
};

/**
 * struct latency_run - one run of hwtimerctl latency
 * @o: its options
 * @fire: hwtimer, as the kernel measured it: fire time - deadline
 * @wake: hwtimer, as this reader saw it: its wakeup - deadline
 * @tfd: timerfd, as this reader saw it (--compare)
 * @ct: the cyclictest run of --compare-histfile
 * @expiries: the hwtimer expiries measured, overruns included
 * @progress: the progress line
 */
struct latency_run {
	const struct latency_opts *o;
	struct series fire;
	struct series wake;
	struct series tfd;
	struct histfile ct;
	uint64_t expiries;
	struct progress progress;
};

void series_add(struct series *s, int64_t ns);
void latency_oneshot(struct latency_run *r, int fd);
void latency_periodic(struct latency_run *r, int fd);
void latency_report(struct latency_run *r);

#endif /* HWTCTL_LATENCY_H */
