/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What dev_bench.c (floors, arm + cancel, memory, main), dev_bench_uring.c
 * (arm + cancel through io_uring), dev_bench_expiry.c (expiry, lateness),
 * dev_bench_cpu.c (CPU time) and dev_bench_victim.c (the rest of the
 * machine under a load) share.
 */
#ifndef HWT_DEV_BENCH_H
#define HWT_DEV_BENCH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define MS	1000000ULL
#define SEC	1000000000ULL
#define FAR	(3600 * SEC)		/* never fires during a run */

extern const char *kernel;

uint64_t now_ns(void);
/* dev_bench_cpu.c: every CPU's busy time so far, ns, and its source */
uint64_t busy_ns(void);
const char *busy_from(void);
/* busy_ns(), and the reader's CPU time from now to the next busy_ns() */
uint64_t busy_start(void);
uint64_t reader_ns(void);
void die(const char *what, int err);
/* one JSON object per line on stdout */
void emit(const char *group, const char *name, const char *metric,
	  double value, const char *extra);
/*
 * Expiry: @n timers, the first due @lead after arming starts, then one
 * every @gap ns (0: a herd, all at once). The lead leaves arming, even
 * emulated, over before the first is due.
 */
struct load {
	const char *group;
	size_t n;
	uint64_t lead;
	uint64_t gap;
	uint64_t rate;		/* a second, for the rate curve; else 0 */
};

/* How a program takes hwtimer's records. */
enum way {
	WAY_READ,		/* read(), blocking */
	WAY_RING,		/* the expiry ring, poll() when it is empty */
	WAY_EVENTFD,		/* the file's eventfd, then read() */
};

/* What a hwtimer way saw of one timer, for dev_bench_trace.c. */
struct rec_log {
	uint32_t id;
	uint64_t deadline;
	uint64_t fired;		/* the record's */
	uint64_t seen;		/* when the program had it */
};

extern const struct load *ld;	/* the load being run */
extern struct rec_log *rec_log;	/* indexed by cookie, when set */

uint64_t deadline_of(uint64_t start, size_t i);
void expiry_hwtimer(int64_t *late, uint64_t slack, enum way way,
		    const char *name);
void expiry_uheap(int64_t *late);
void expiry_all(void);
void rate_all(void);
void herd_all(void);
void latency_all(void);
void uring_cmd_all(void);
void trace_rate(uint64_t rate, bool all);
/* dev_bench_victim.c: a cyclictest-like victim under each load */
void victim_all(void);

#endif /* HWT_DEV_BENCH_H */
