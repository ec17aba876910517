// SPDX-License-Identifier: GPL-2.0
/*
 * hwtimerctl bench: arm + cancel cost against timerfd on this machine, and
 * where hwtimerctl was built with liburing, through io_uring against
 * io_uring's own timeouts.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <string.h>
#include <sys/timerfd.h>
#include <unistd.h>
#ifdef HWT_HAVE_LIBURING
#include <liburing.h>
#endif

#include "cli.h"

#define URING_BATCH	256

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

#ifdef HWT_HAVE_LIBURING
/* wait for @n CQEs; the first error among them, or 0 */
static int uring_reap(struct io_uring *ring, unsigned int n, uint32_t *ids)
{
	struct io_uring_cqe *cqe;
	unsigned int i;
	int err = 0;

	for (i = 0; i < n; i++) {
		int ret = io_uring_wait_cqe(ring, &cqe);

		if (ret)
			return ret;
		if (ids)
			ids[cqe->user_data] = (uint32_t)cqe->res;
		if (cqe->res < 0 && !err && !(cqe->res == -ECANCELED && !ids))
			err = cqe->res;
		io_uring_cqe_seen(ring, cqe);
	}
	return err;
}

/* ADD then CANCEL as SQEs, URING_BATCH per submission */
static double bench_hwtimer_uring(struct io_uring *ring, int fd, uint64_t n)
{
	uint32_t ids[URING_BATCH];
	uint64_t i, t0 = now_ns(CLOCK_MONOTONIC);
	unsigned int k;

	for (i = 0; i < n; i += URING_BATCH) {
		for (k = 0; k < URING_BATCH; k++)
			hwtimer_uring_prep_add(io_uring_get_sqe(ring), fd, CLOCK_MONOTONIC,
					       3600 * NSEC_PER_SEC + k, 0, k);
		io_uring_submit(ring);
		check(uring_reap(ring, URING_BATCH, ids), "io_uring HWTIMER_URING_ADD");
		for (k = 0; k < URING_BATCH; k++)
			hwtimer_uring_prep_cancel(io_uring_get_sqe(ring), fd, ids[k], k);
		io_uring_submit(ring);
		check(uring_reap(ring, URING_BATCH, NULL), "io_uring HWTIMER_URING_CANCEL");
	}
	return (double)(now_ns(CLOCK_MONOTONIC) - t0) / (double)i;
}

/* ADD then CANCEL, URING_BATCH operations in one HWTIMER_URING_BATCH SQE */
static double bench_hwtimer_uring_vec(struct io_uring *ring, int fd, uint64_t n)
{
	static struct hwtimer_op ops[URING_BATCH];
	uint64_t t0 = now_ns(CLOCK_MONOTONIC), i;
	unsigned int k, pass;

	for (i = 0; i < n; i += URING_BATCH) {
		for (pass = 0; pass < 2; pass++) {
			for (k = 0; k < URING_BATCH; k++)
				ops[k] = pass ? (struct hwtimer_op){
					.op = HWTIMER_OP_CANCEL, .id = ops[k].id,
				} : (struct hwtimer_op){
					.op = HWTIMER_OP_ADD,
					.clockid = CLOCK_MONOTONIC,
					.expires = 3600 * NSEC_PER_SEC + k,
				};
			hwtimer_uring_prep_batch(io_uring_get_sqe(ring), fd, ops,
						 URING_BATCH, 0, 0);
			io_uring_submit(ring);
			check(uring_reap(ring, 1, NULL), "io_uring HWTIMER_URING_BATCH");
		}
	}
	return (double)(now_ns(CLOCK_MONOTONIC) - t0) / (double)i;
}

/* io_uring's own: TIMEOUT then TIMEOUT_REMOVE, as many per submission */
static double bench_uring_timeout(struct io_uring *ring, uint64_t n)
{
	struct __kernel_timespec ts = { .tv_sec = 3600 };
	uint64_t i, t0 = now_ns(CLOCK_MONOTONIC);
	unsigned int k;

	for (i = 0; i < n; i += URING_BATCH) {
		for (k = 0; k < URING_BATCH; k++) {
			struct io_uring_sqe *sqe = io_uring_get_sqe(ring);

			io_uring_prep_timeout(sqe, &ts, 0, 0);
			sqe->user_data = k + 1;
		}
		io_uring_submit(ring);
		for (k = 0; k < URING_BATCH; k++) {
			struct io_uring_sqe *sqe = io_uring_get_sqe(ring);

			io_uring_prep_timeout_remove(sqe, k + 1, 0);
			sqe->user_data = 0;
		}
		io_uring_submit(ring);
		/* each pair completes twice: the removal and the timeout */
		check(uring_reap(ring, 2 * URING_BATCH, NULL), "io_uring TIMEOUT_REMOVE");
	}
	return (double)(now_ns(CLOCK_MONOTONIC) - t0) / (double)i;
}

/* the io_uring rows, or why there are none */
static unsigned int bench_uring(int fd, uint64_t n, double *hw, double *vec,
				double *own)
{
	struct io_uring ring;
	int ret = io_uring_queue_init(2 * URING_BATCH, &ring, 0);

	if (ret) {
		fprintf(stderr, "hwtimerctl: no io_uring rows: %s%s\n", strerror(-ret),
			ret == -EPERM ? " (kernel.io_uring_disabled, or a security "
			"policy, forbids io_uring here)" : "");
		return 0;
	}
	*hw = bench_hwtimer_uring(&ring, fd, n);
	*vec = bench_hwtimer_uring_vec(&ring, fd, n);
	*own = bench_uring_timeout(&ring, n);
	io_uring_queue_exit(&ring);
	return 3;
}
#else
static unsigned int bench_uring(int fd, uint64_t n, double *hw, double *vec,
				double *own)
{
	(void)fd;
	(void)n;
	(void)hw;
	(void)vec;
	(void)own;
	return 0;
}
#endif

int cmd_bench(int argc, char **argv)
{
	struct {
		const char *name;
		double ns;
	} r[8];
	struct bench_opts o;
	struct progress p;
	char err[ARGS_ERR_LEN];
	unsigned int i, rows = 5;
	uint64_t n;
	int fd;

	cmd_args(bench_args(argc, argv, &o, err, sizeof(err)), err);
	n = o.count;
	fd = open_dev();
	progress_start(&p, "bench", 6, o.quiet);
	r[0].name = "timerfd create+settime+close";
	r[0].ns = bench_timerfd(n);
	progress_update(&p, 1);
	r[1].name = "timerfd settime arm+disarm";
	r[1].ns = bench_timerfd_rearm(n);
	progress_update(&p, 2);
	r[2].name = "hwtimer ADD+CANCEL, one ioctl each";
	r[2].ns = bench_hwtimer_single(fd, n);
	progress_update(&p, 3);
	r[3].name = "hwtimer ADD+CANCEL, batches of 16";
	r[3].ns = bench_hwtimer_batch(fd, n, 16);
	progress_update(&p, 4);
	r[4].name = "hwtimer ADD+CANCEL, batches of 256";
	r[4].ns = bench_hwtimer_batch(fd, n, 256);
	progress_update(&p, 5);
	if (bench_uring(fd, n, &r[5].ns, &r[6].ns, &r[7].ns)) {
		r[5].name = "hwtimer ADD+CANCEL, io_uring, 256 SQEs";
		r[6].name = "hwtimer ADD+CANCEL, io_uring, 256 per SQE";
		r[7].name = "io_uring TIMEOUT+REMOVE, 256 SQEs";
		rows = 8;
	}
	progress_update(&p, 6);
	progress_end(&p);
	close(fd);

	if (o.json) {
		json_begin();
		printf(",\"timers\":%llu,\"results\":[", (unsigned long long)n);
		for (i = 0; i < rows; i++)
			printf("%s{\"name\":\"%s\",\"ns_per_timer\":%.1f,"
			       "\"speedup_vs_timerfd\":%.2f}", i ? "," : "",
			       r[i].name, r[i].ns, r[0].ns / r[i].ns);
		printf("]}\n");
		return 0;
	}
	printf("arm + cancel of one timer, %llu timers each, on this machine:\n\n",
	       (unsigned long long)n);
	printf("%-38s %12s %10s\n", "method", "ns/timer", "vs timerfd");
	for (i = 0; i < rows; i++)
		printf("%-38s %12.1f %9.2fx\n", r[i].name, r[i].ns, r[0].ns / r[i].ns);
	printf("\nFor lateness, run 'hwtimerctl latency'. Inside a VM without KVM the\n"
	       "absolute figures are emulated; only the ratios mean something.\n");
	return 0;
}
