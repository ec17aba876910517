// SPDX-License-Identifier: GPL-2.0
/*
 * libhwtimer: every call against the real module, the batch builder with
 * 10^4 operations, and the negative-errno convention (errno untouched).
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/eventfd.h>
#include <sys/time.h>

#include "kselftest_harness.h"
#include "need_device.h"
#include "pace.h"
#include "libhwtimer.h"

#define MS	1000000ULL
#define SEC	1000000000ULL

FIXTURE(lib) {
	int fd;
};

FIXTURE_SETUP(lib)
{
	if (!hwt_device_present())
		SKIP(return, HWT_NO_DEVICE);
	self->fd = hwtimer_open(HWTIMER_OPEN_CLOEXEC);
	ASSERT_LE(0, self->fd) TH_LOG("hwtimer_open: %s", hwtimer_strerror(self->fd));
}

FIXTURE_TEARDOWN(lib)
{
	close(self->fd);
}

TEST(open_flags)
{
	int fd = hwtimer_open(HWTIMER_OPEN_CLOEXEC | HWTIMER_OPEN_NONBLOCK);
	struct hwtimer_record r;

	if (!hwt_device_present())
		SKIP(return, HWT_NO_DEVICE);
	ASSERT_LE(0, fd);
	EXPECT_NE(0, fcntl(fd, F_GETFD) & FD_CLOEXEC);
	EXPECT_NE(0, fcntl(fd, F_GETFL) & O_NONBLOCK);
	EXPECT_EQ(-EAGAIN, hwtimer_read(fd, &r, 1));
	close(fd);
	EXPECT_EQ(-EINVAL, hwtimer_open(1U << 5));
}

TEST_F(lib, info)
{
	struct hwtimer_info in;

	ASSERT_EQ(0, hwtimer_info(self->fd, &in));
	EXPECT_EQ(HWTIMER_API_VERSION, in.api_version);
	EXPECT_EQ(sizeof(struct hwtimer_record), in.record_size);
	EXPECT_EQ(-EBADF, hwtimer_info(-1, &in));
}

TEST_F(lib, add_read_get_cancel)
{
	struct hwtimer_record r;
	struct hwtimer_get g;
	int a, b;

	errno = 0;
	a = hwtimer_add(self->fd, CLOCK_MONOTONIC, 5 * MS, 0, 0, 11);
	ASSERT_LT(0, a);
	b = hwtimer_add(self->fd, CLOCK_MONOTONIC, 10 * SEC, 0, 0, 22);
	ASSERT_LT(0, b);
	ASSERT_EQ(1, hwtimer_read(self->fd, &r, 1));
	EXPECT_EQ((uint32_t)a, r.id);
	EXPECT_EQ(11ULL, r.cookie);
	ASSERT_EQ(0, hwtimer_get(self->fd, (uint32_t)b, &g));
	EXPECT_EQ(HWTIMER_STATE_PENDING, g.state);
	EXPECT_EQ(22ULL, g.cookie);
	EXPECT_EQ(1, hwtimer_mod(self->fd, (uint32_t)b, 20 * SEC, 0));
	EXPECT_EQ(1, hwtimer_cancel(self->fd, (uint32_t)b));
	EXPECT_EQ(-ENOENT, hwtimer_cancel(self->fd, (uint32_t)b));
	EXPECT_EQ(-ENOENT, hwtimer_get(self->fd, (uint32_t)b, &g));
	/* the library reports through its return value only */
	EXPECT_EQ(0, errno);
}

TEST_F(lib, add_and_mod_refuse_what_they_cannot_carry)
{
	int id = hwtimer_add(self->fd, CLOCK_MONOTONIC, SEC, 0, 0, 0);

	ASSERT_LT(0, id);
	/* no eventfd argument: hwtimer_submit_op() is for that */
	EXPECT_EQ(-EINVAL, hwtimer_add(self->fd, CLOCK_MONOTONIC, SEC, 0,
				       HWTIMER_F_EVENTFD, 0));
	/* no period argument */
	EXPECT_EQ(-EINVAL, hwtimer_mod(self->fd, (uint32_t)id, SEC, HWTIMER_F_PERIOD));
	EXPECT_EQ(-ERANGE, hwtimer_add(self->fd, CLOCK_MONOTONIC, ~0ULL, 0, 0, 0));
	EXPECT_EQ(-EINVAL, hwtimer_add(self->fd, 12345, SEC, 0, 0, 0));
}

TEST_F(lib, submit_op_with_eventfd)
{
	int efd = eventfd(0, EFD_CLOEXEC);
	struct hwtimer_op op = {
		.op = HWTIMER_OP_ADD, .flags = HWTIMER_F_EVENTFD | HWTIMER_F_NO_RECORD,
		.clockid = CLOCK_MONOTONIC, .expires = 5 * MS, .eventfd = efd,
	};
	struct pollfd p = { .fd = efd, .events = POLLIN };
	uint64_t v;
	int id;

	ASSERT_LE(0, efd);
	id = hwtimer_submit_op(self->fd, &op);
	ASSERT_LT(0, id);
	EXPECT_EQ((uint32_t)id, op.id);
	ASSERT_EQ(1, poll(&p, 1, t_ms(5000)));
	ASSERT_EQ(8, read(efd, &v, 8));
	EXPECT_EQ(1ULL, v);
	op = (struct hwtimer_op){ .op = 99 };
	EXPECT_EQ(-EINVAL, hwtimer_submit_op(self->fd, &op));
	close(efd);
}

TEST_F(lib, file_eventfd_and_drain)
{
	int efd = eventfd(0, EFD_CLOEXEC);
	uint32_t ids[8], remaining = 99;
	int i;

	ASSERT_LE(0, efd);
	EXPECT_EQ(0, hwtimer_set_eventfd(self->fd, efd));
	EXPECT_EQ(0, hwtimer_set_eventfd(self->fd, -1));
	EXPECT_EQ(-EBADF, hwtimer_set_eventfd(self->fd, 9999));
	for (i = 0; i < 5; i++)
		ASSERT_LT(0, hwtimer_add(self->fd, CLOCK_BOOTTIME, 10 * SEC, 0, 0, 0));
	EXPECT_EQ(5, hwtimer_drain(self->fd, ids, 8, &remaining));
	EXPECT_EQ(0U, remaining);
	EXPECT_EQ(0, hwtimer_drain(self->fd, NULL, 0, NULL));
	close(efd);
}

TEST_F(lib, read_errors)
{
	struct hwtimer_record r;

	EXPECT_EQ(-EINVAL, hwtimer_read(self->fd, &r, 0));
	EXPECT_EQ(-EBADF, hwtimer_read(-1, &r, 1));
}

TEST_F(lib, batch_builder_ten_thousand)
{
	const uint32_t n = 10000;
	struct hwtimer_vec v;
	struct hwtimer_record *recs = calloc(n, sizeof(*recs));
	uint32_t i, *ids = calloc(n, sizeof(*ids)), got = 0;

	ASSERT_NE(NULL, recs);
	ASSERT_NE(NULL, ids);
	ASSERT_EQ(-EINVAL, hwtimer_vec_init(&v, 0));
	ASSERT_EQ(0, hwtimer_vec_init(&v, n));
	for (i = 0; i < n; i++)
		ASSERT_NE(NULL, hwtimer_vec_add(&v, CLOCK_MONOTONIC, 10 * SEC + i, 0, 0, i));
	/* full: the builder refuses more */
	EXPECT_EQ(NULL, hwtimer_vec_cancel(&v, 1));
	ASSERT_EQ((int)n, hwtimer_vec_submit(self->fd, &v, 0));
	for (i = 0; i < n; i++) {
		ASSERT_EQ(0, v.ops[i].result);
		ids[i] = v.ops[i].id;
	}
	/* move half of them close, cancel the other half */
	hwtimer_vec_reset(&v);
	for (i = 0; i < n; i++) {
		if (i % 2)
			hwtimer_vec_mod(&v, ids[i], 5 * MS, 0);
		else
			hwtimer_vec_cancel(&v, ids[i]);
	}
	ASSERT_EQ((int)n, hwtimer_vec_submit(self->fd, &v, HWTIMER_BATCH_STOP_ON_ERROR));
	for (i = 0; i < n; i++)
		ASSERT_EQ(1, v.ops[i].result);
	while (got < n / 2) {
		int k = hwtimer_read(self->fd, recs, n);

		ASSERT_LT(0, k);
		for (i = 0; i < (uint32_t)k; i++)
			ASSERT_EQ(1U, recs[i].cookie % 2);
		got += (uint32_t)k;
	}
	EXPECT_EQ(n / 2, got);
	/* submitted again, the vector cancels the same timers: all fired */
	hwtimer_vec_reset(&v);
	for (i = 1; i < n; i += 2)
		hwtimer_vec_cancel(&v, ids[i]);
	ASSERT_EQ((int)(n / 2), hwtimer_vec_submit(self->fd, &v, 0));
	ASSERT_EQ(0, v.ops[0].result);
	ASSERT_EQ((int)(n / 2), hwtimer_vec_submit(self->fd, &v, 0));
	ASSERT_EQ(-ENOENT, v.ops[0].result);
	hwtimer_vec_free(&v);
	EXPECT_EQ(NULL, v.ops);
	free(recs);
	free(ids);
}

static void on_alarm(int sig)
{
}

/* The kernel stops a long batch for a signal; the library goes on. */
TEST_F_TIMEOUT(lib, vec_submit_finishes_across_signals, 300)
{
	const uint32_t n = 65536;
	struct itimerval it = { .it_value.tv_usec = 1000,
				.it_interval.tv_usec = 1000 };
	struct sigaction sa = { .sa_handler = on_alarm };
	struct hwtimer_vec v;
	uint32_t i;

	ASSERT_EQ(0, hwtimer_vec_init(&v, n));
	for (i = 0; i < n; i++)
		hwtimer_vec_add(&v, CLOCK_MONOTONIC, 3600 * SEC + i, 0, 0, i);
	sigaction(SIGALRM, &sa, NULL);
	setitimer(ITIMER_REAL, &it, NULL);
	ASSERT_EQ((int)n, hwtimer_vec_submit(self->fd, &v, 0));
	it.it_value.tv_usec = it.it_interval.tv_usec = 0;
	setitimer(ITIMER_REAL, &it, NULL);
	for (i = 0; i < n; i++)
		ASSERT_EQ(0, v.ops[i].result) TH_LOG("entry %u", i);
	hwtimer_vec_free(&v);
}

TEST(strerror_explains)
{
	EXPECT_NE(NULL, strstr(hwtimer_strerror(-ERANGE), "max_delay_ns"));
	EXPECT_NE(NULL, strstr(hwtimer_strerror(-EDQUOT), "max_timers_per_user"));
	EXPECT_NE(NULL, strstr(hwtimer_strerror(-EDQUOT), "max_rearms_per_user"));
	EXPECT_NE(NULL, strstr(hwtimer_strerror(ENOSPC), "max_timers_per_fd"));
	EXPECT_STREQ(strerror(EPIPE), hwtimer_strerror(-EPIPE));
}

HWT_HARNESS_MAIN
