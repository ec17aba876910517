// SPDX-License-Identifier: GPL-2.0
/*
 * hwtimerctl bench: arm + cancel cost against timerfd on this machine.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <getopt.h>
#include <string.h>
#include <sys/timerfd.h>

#include "cli.h"

/* bench */

static double bench_hwtimer_single(int fd, uint64_t n)
{
	uint64_t i, t0 = now_ns(CLOCK_MONOTONIC);

	for (i = 0; i < n; i++) {
		int id = hwtimer_add(fd, CLOCK_MONOTONIC, 3600 * NSEC_PER_SEC + i, 0, 0, 0);

		check(id, "HWTIMER_IOC_ADD");
		check(hwtimer_cancel(fd, (uint32_t)id), "HWTIMER_IOC_CANCEL");
	}
	return (double)(now_ns(CLOCK_MONOTONIC) - t0) / (double)n;
}

static double bench_hwtimer_batch(int fd, uint64_t n, uint32_t batch)
{
	struct hwtimer_vec v;
	uint64_t i, t0;

	check(hwtimer_vec_init(&v, batch), "allocating a batch");
	t0 = now_ns(CLOCK_MONOTONIC);
	for (i = 0; i < n; i += batch) {
		uint32_t k;

		hwtimer_vec_reset(&v);
		for (k = 0; k < batch; k++)
			hwtimer_vec_add(&v, CLOCK_MONOTONIC, 3600 * NSEC_PER_SEC + k, 0, 0, 0);
		check(hwtimer_vec_submit(fd, &v, 0), "HWTIMER_IOC_BATCH");
		for (k = 0; k < batch; k++) {
			uint32_t id = v.ops[k].id;

			check(v.ops[k].result, "adding a timer");
			v.ops[k] = (struct hwtimer_op){
				.op = HWTIMER_OP_CANCEL, .id = id,
			};
		}
		check(hwtimer_vec_submit(fd, &v, 0), "HWTIMER_IOC_BATCH");
	}
	hwtimer_vec_free(&v);
	return (double)(now_ns(CLOCK_MONOTONIC) - t0) / (double)((n + batch - 1) / batch * batch);
}

static double bench_timerfd(uint64_t n)
{
	struct itimerspec its = { .it_value = { .tv_sec = 3600 } };
	uint64_t i, t0 = now_ns(CLOCK_MONOTONIC);

	for (i = 0; i < n; i++) {
		int tfd = timerfd_create(CLOCK_MONOTONIC, TFD_CLOEXEC);

		if (tfd < 0 || timerfd_settime(tfd, 0, &its, NULL))
			die("timerfd: %s", strerror(errno));
		close(tfd);
	}
	return (double)(now_ns(CLOCK_MONOTONIC) - t0) / (double)n;
}

static double bench_timerfd_rearm(uint64_t n)
{
	struct itimerspec arm = { .it_value = { .tv_sec = 3600 } }, off = { 0 };
	int tfd = timerfd_create(CLOCK_MONOTONIC, TFD_CLOEXEC);
	uint64_t i, t0;

	if (tfd < 0)
		die("timerfd_create: %s", strerror(errno));
	t0 = now_ns(CLOCK_MONOTONIC);
	for (i = 0; i < n; i++)
		if (timerfd_settime(tfd, 0, &arm, NULL) ||
		    timerfd_settime(tfd, 0, &off, NULL))
			die("timerfd_settime: %s", strerror(errno));
	close(tfd);
	return (double)(now_ns(CLOCK_MONOTONIC) - t0) / (double)n;
}

int cmd_bench(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "count", required_argument, NULL, 'n' },
		{ "json", no_argument, NULL, 'J' },
		{ NULL, 0, NULL, 0 },
	};
	struct {
		const char *name;
		double ns;
	} r[5];
	uint64_t n = 20000;
	int c, json = 0, fd;
	unsigned int i;

	while ((c = getopt_long(argc, argv, "n:J", longopts, NULL)) != -1) {
		switch (c) {
		case 'n':
			n = arg_count("count", optarg, 100000000);
			break;
		case 'J':
			json = 1;
			break;
		default:
			errtryhelp();
		}
	}
	if (optind != argc)
		usage_error("'bench' takes no arguments");
	fd = open_dev();
	r[0].name = "timerfd create+settime+close";
	r[0].ns = bench_timerfd(n);
	r[1].name = "timerfd settime arm+disarm";
	r[1].ns = bench_timerfd_rearm(n);
	r[2].name = "hwtimer ADD+CANCEL, one ioctl each";
	r[2].ns = bench_hwtimer_single(fd, n);
	r[3].name = "hwtimer ADD+CANCEL, batches of 16";
	r[3].ns = bench_hwtimer_batch(fd, n, 16);
	r[4].name = "hwtimer ADD+CANCEL, batches of 256";
	r[4].ns = bench_hwtimer_batch(fd, n, 256);
	close(fd);

	if (json) {
		printf("{\"timers\":%llu,\"results\":[", (unsigned long long)n);
		for (i = 0; i < 5; i++)
			printf("%s{\"name\":\"%s\",\"ns_per_timer\":%.1f,"
			       "\"speedup_vs_timerfd\":%.2f}", i ? "," : "",
			       r[i].name, r[i].ns, r[0].ns / r[i].ns);
		printf("]}\n");
		return 0;
	}
	printf("arm + cancel of one timer, %llu timers each, on this machine:\n\n",
	       (unsigned long long)n);
	printf("%-38s %12s %10s\n", "method", "ns/timer", "vs timerfd");
	for (i = 0; i < 5; i++)
		printf("%-38s %12.1f %9.2fx\n", r[i].name, r[i].ns, r[0].ns / r[i].ns);
	printf("\nFor lateness, run 'hwtimerctl latency'. Inside a VM without KVM the\n"
	       "absolute figures are emulated; only the ratios mean something.\n");
	return 0;
}
