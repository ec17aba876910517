/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What dev_bench.c (floors, arm + cancel, memory, main), dev_bench_uring.c
 * (arm + cancel through io_uring) and dev_bench_expiry.c (expiry, lateness)
 * share.
 */
#ifndef HWT_DEV_BENCH_H
#define HWT_DEV_BENCH_H

#include <stdint.h>

#define MS	1000000ULL
#define SEC	1000000000ULL
#define FAR	(3600 * SEC)		/* never fires during a run */

extern const char *kernel;

uint64_t now_ns(void);
void die(const char *what, int err);
/* one JSON object per line on stdout */
void emit(const char *group, const char *name, const char *metric,
	  double value, const char *extra);
void expiry_all(void);
void rate_all(void);
void herd_all(void);
void latency_all(void);
void uring_cmd_all(void);

#endif /* HWT_DEV_BENCH_H */
