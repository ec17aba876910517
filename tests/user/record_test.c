// SPDX-License-Identifier: GPL-2.0
/*
 * /dev/hwtimer: delivery. read() and its records, poll(), eventfds,
 * NO_RECORD and AUTOREMOVE timers, and the record size a file asks for.
 * Every validation path has a test of its own.
 */
#define _GNU_SOURCE
#include <poll.h>
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <sys/mman.h>

#include "kselftest_harness.h"
#include "helpers.h"

FIXTURE(record) {
	int fd;
};

FIXTURE_SETUP(record)
{
	if (!hwt_device_present())
		SKIP(return, HWT_NO_DEVICE);
	self->fd = t_open();
	ASSERT_LE(0, self->fd)
		TH_LOG("open /dev/hwtimer: %s", strerror(errno));
}

FIXTURE_TEARDOWN(record)
{
	close(self->fd);
}

static long record_size(int fd, __u32 size, __u32 *known)
{
	struct hwtimer_record_size rs = { .size = size, .known = 12345 };
	long ret = t_ioctl(fd, HWTIMER_IOC_RECORD_SIZE, &rs);

	if (!ret && known)
		*known = rs.known;
	return ret ? ret : rs.size;
}

/* records are 48 bytes until the file asks for its own size */
TEST_F(record, record_size_is_opt_in)
{
	struct hwtimer_info info;
	__u32 known;

	ASSERT_EQ(0, t_ioctl(self->fd, HWTIMER_IOC_INFO, &info));
	EXPECT_EQ(HWTIMER_RECORD_SIZE_VER0, record_size(self->fd, 0, &known));
	EXPECT_EQ(HWTIMER_RECORD_SIZE_VER0, known);
	EXPECT_LE(HWTIMER_RECORD_SIZE_VER0, info.record_size);
	EXPECT_EQ(64, record_size(self->fd, 64, &known));
	EXPECT_EQ(info.record_size, known);
	EXPECT_EQ(64, record_size(self->fd, 0, NULL));
}

/* a larger record: the fields the kernel fills, then zeros */
TEST_F(record, larger_records_are_zero_extended)
{
	unsigned char buf[3 * 64];
	struct hwtimer_record r;
	__u32 id, id2;
	int i;

	ASSERT_EQ(64, record_size(self->fd, 64, NULL));
	ASSERT_EQ(0, t_add(self->fd, 0, CLOCK_MONOTONIC, MS, 0, 77, &id));
	ASSERT_EQ(0, t_add(self->fd, 0, CLOCK_MONOTONIC, MS, 0, 78, &id2));
	memset(buf, 0xa5, sizeof(buf));
	/* room for two and a half: two records, 128 bytes */
	while (t_get_state(self->fd, id) != HWTIMER_STATE_FIRED ||
	       t_get_state(self->fd, id2) != HWTIMER_STATE_FIRED)
		usleep(1000);
	ASSERT_EQ(128, read(self->fd, buf, 160));
	memcpy(&r, buf, sizeof(r));
	EXPECT_EQ(id, r.id);
	EXPECT_EQ(77ULL, r.cookie);
	for (i = sizeof(r); i < 64; i++)
		EXPECT_EQ(0, buf[i]);
	memcpy(&r, buf + 64, sizeof(r));
	EXPECT_EQ(78ULL, r.cookie);
	EXPECT_EQ(0xa5, buf[128]);
	/* one 64-byte record needs 64 bytes of room */
	EXPECT_EQ(-1, read(self->fd, buf, 63));
	EXPECT_EQ(EINVAL, errno);
}

TEST_F(record, record_size_bad_einval)
{
	struct hwtimer_record_size rs = { .size = 40 };

	EXPECT_EQ(-EINVAL, t_ioctl(self->fd, HWTIMER_IOC_RECORD_SIZE, &rs));
	rs.size = 52;	/* not a multiple of 8 */
	EXPECT_EQ(-EINVAL, t_ioctl(self->fd, HWTIMER_IOC_RECORD_SIZE, &rs));
	rs.size = HWTIMER_RECORD_SIZE_MAX + 8;
	EXPECT_EQ(-EINVAL, t_ioctl(self->fd, HWTIMER_IOC_RECORD_SIZE, &rs));
	EXPECT_EQ(HWTIMER_RECORD_SIZE_VER0, record_size(self->fd, 0, NULL));
}

TEST_F(record, record_size_bad_pointer_efault)
{
	EXPECT_EQ(-EFAULT, t_ioctl(self->fd, HWTIMER_IOC_RECORD_SIZE, (void *)8));
}

TEST_F(record, read_short_buffer_einval)
{
	char buf[sizeof(struct hwtimer_record) - 1];

	EXPECT_EQ(-1, read(self->fd, buf, sizeof(buf)));
	EXPECT_EQ(EINVAL, errno);
}

TEST_F(record, read_bad_buffer_efault_keeps_the_record)
{
	struct hwtimer_record r;
	struct hwtimer_get g;
	__u32 id;

	ASSERT_EQ(0, t_add(self->fd, 0, CLOCK_MONOTONIC, MS, 0, 0, &id));
	do {
		ASSERT_EQ(0, t_get(self->fd, id, &g));
	} while (g.state != HWTIMER_STATE_FIRED);
	/* a mapping the kernel cannot write to */
	void *ro = mmap(NULL, 4096, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	ASSERT_NE(MAP_FAILED, ro);
	EXPECT_EQ(-1, read(self->fd, ro, sizeof(r)));
	EXPECT_EQ(EFAULT, errno);
	munmap(ro, 4096);
	/* nothing was lost */
	ASSERT_EQ(1, t_read(self->fd, &r, 1));
	EXPECT_EQ(id, r.id);
}

TEST_F(record, nonblocking_read_eagain)
{
	struct hwtimer_record r;

	ASSERT_EQ(0, t_set_nonblock(self->fd));
	EXPECT_EQ(-EAGAIN, t_read(self->fd, &r, 1));
}

TEST_F(record, many_records_in_one_read)
{
	struct hwtimer_record r[64];
	int i, got = 0;

	for (i = 0; i < 50; i++)
		ASSERT_EQ(0, t_add(self->fd, 0, CLOCK_MONOTONIC, MS, 0, i, NULL));
	usleep(200 * 1000);
	while (got < 50) {
		long n = t_read(self->fd, r, 64);

		ASSERT_LT(0, n);
		got += n;
	}
	EXPECT_EQ(50, got);
}

TEST_F(record, poll_and_epoll_report_records)
{
	struct pollfd p = { .fd = self->fd, .events = POLLIN };
	struct epoll_event ev = { .events = EPOLLIN }, out;
	struct hwtimer_record r;
	int ep = epoll_create1(EPOLL_CLOEXEC);

	ASSERT_LE(0, ep);
	ASSERT_EQ(0, epoll_ctl(ep, EPOLL_CTL_ADD, self->fd, &ev));
	EXPECT_EQ(0, poll(&p, 1, 0));
	ASSERT_EQ(0, t_add(self->fd, 0, CLOCK_MONOTONIC, 5 * MS, 0, 0, NULL));
	EXPECT_EQ(1, epoll_wait(ep, &out, 1, t_ms(5000)));
	EXPECT_EQ(1, poll(&p, 1, 0));
	EXPECT_NE(0, p.revents & POLLIN);
	ASSERT_EQ(1, t_read(self->fd, &r, 1));
	EXPECT_EQ(0, poll(&p, 1, 0));
	close(ep);
}

/* eventfds */

TEST_F(record, timer_eventfd_is_signalled)
{
	int efd = eventfd(0, EFD_CLOEXEC);
	struct pollfd p = { .fd = efd, .events = POLLIN };
	__u64 v = 0;

	ASSERT_LE(0, efd);
	ASSERT_EQ(0, t_add_efd(self->fd, 0, 5 * MS, 0, efd, NULL));
	ASSERT_EQ(1, poll(&p, 1, t_ms(5000)));
	ASSERT_EQ(8, read(efd, &v, 8));
	EXPECT_EQ(1ULL, v);
	close(efd);
}

TEST_F(record, eventfd_closed_before_expiry_is_harmless)
{
	struct hwtimer_record r;
	int efd = eventfd(0, EFD_CLOEXEC);

	ASSERT_LE(0, efd);
	ASSERT_EQ(0, t_add_efd(self->fd, 0, 10 * MS, 0, efd, NULL));
	close(efd);	/* the timer keeps its own reference */
	ASSERT_EQ(1, t_read(self->fd, &r, 1));
}

TEST_F(record, saturated_eventfd_loses_no_record)
{
	__u64 max = 0xfffffffffffffffeULL;
	struct hwtimer_record r;
	int efd = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);

	ASSERT_LE(0, efd);
	ASSERT_EQ(8, write(efd, &max, 8));
	ASSERT_EQ(0, t_add_efd(self->fd, 0, MS, 0, efd, NULL));
	ASSERT_EQ(1, t_read(self->fd, &r, 1));
	EXPECT_EQ(0ULL, r.overruns);
	close(efd);
}

TEST_F(record, file_eventfd_is_signalled)
{
	struct hwtimer_eventfd e = { .fd = eventfd(0, EFD_CLOEXEC) };
	struct pollfd p = { .fd = e.fd, .events = POLLIN };
	struct hwtimer_record r;

	ASSERT_LE(0, e.fd);
	ASSERT_EQ(0, t_ioctl(self->fd, HWTIMER_IOC_SET_EVENTFD, &e));
	ASSERT_EQ(0, t_add(self->fd, 0, CLOCK_MONOTONIC, 5 * MS, 0, 0, NULL));
	ASSERT_EQ(1, poll(&p, 1, t_ms(5000)));
	ASSERT_EQ(1, t_read(self->fd, &r, 1));
	e.fd = -1;
	EXPECT_EQ(0, t_ioctl(self->fd, HWTIMER_IOC_SET_EVENTFD, &e));
	close(p.fd);
}

TEST_F(record, set_eventfd_bad_fd_ebadf)
{
	struct hwtimer_eventfd e = { .fd = 999 };

	EXPECT_EQ(-EBADF, t_ioctl(self->fd, HWTIMER_IOC_SET_EVENTFD, &e));
}

TEST_F(record, set_eventfd_reserved_einval)
{
	struct hwtimer_eventfd e = { .fd = -1, .flags = 1 };

	EXPECT_EQ(-EINVAL, t_ioctl(self->fd, HWTIMER_IOC_SET_EVENTFD, &e));
	e.flags = 0;
	e.fd = -2;
	EXPECT_EQ(-EINVAL, t_ioctl(self->fd, HWTIMER_IOC_SET_EVENTFD, &e));
}

TEST_F(record, no_record_periodic_only_signals)
{
	int efd = eventfd(0, EFD_CLOEXEC);
	struct hwtimer_record r;
	__u64 v = 0;

	ASSERT_LE(0, efd);
	ASSERT_EQ(0, t_add_efd(self->fd, HWTIMER_F_NO_RECORD, 2 * MS, 2 * MS,
			       efd, NULL));
	usleep(100 * 1000);
	ASSERT_EQ(8, read(efd, &v, 8));
	EXPECT_LE(2ULL, v);
	ASSERT_EQ(0, t_set_nonblock(self->fd));
	EXPECT_EQ(-EAGAIN, t_read(self->fd, &r, 1));
	close(efd);
}

TEST_F(record, autoremove_deletes_once_read)
{
	struct hwtimer_record r;
	struct hwtimer_get g;
	__u32 id;

	ASSERT_EQ(0, t_add(self->fd, HWTIMER_F_AUTOREMOVE, CLOCK_MONOTONIC,
			   MS, 0, 0, &id));
	ASSERT_EQ(1, t_read(self->fd, &r, 1));
	EXPECT_EQ((__u32)HWTIMER_REC_REMOVED, r.flags);
	EXPECT_EQ(-ENOENT, t_get(self->fd, id, &g));
	EXPECT_TRUE(t_file_is_empty(self->fd));
}

HWT_HARNESS_MAIN
