// SPDX-License-Identifier: GPL-2.0
/*
 * /dev/hwtimer: every operation's behaviour, and every validation path with
 * a test of its own (botching-up-ioctls.rst). Errors must leave the file
 * exactly as it was.
 */
#define _GNU_SOURCE
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <sys/mman.h>
#include <sys/wait.h>

#include <sys/prctl.h>

#include "kselftest_harness.h"
#include "hwt_test.h"

/* ioctl numbers with another size than ours, for the size tests */
#define ADD_SIZED(sz)	_IOC(_IOC_READ | _IOC_WRITE, HWTIMER_IOC_MAGIC, 0x01, sz)
#define INFO_SIZED(sz)	_IOC(_IOC_READ, HWTIMER_IOC_MAGIC, 0x00, sz)

FIXTURE(dev) {
	int fd;
};

FIXTURE_SETUP(dev)
{
	self->fd = hwt_open();
	ASSERT_LE(0, self->fd) TH_LOG("open /dev/hwtimer: %s", strerror(errno));
}

FIXTURE_TEARDOWN(dev)
{
	close(self->fd);
}

/* The file has no timers and no records: errors changed nothing. */
static int file_is_empty(int fd)
{
	struct hwtimer_drain d = { 0 };
	struct hwtimer_record r;
	int fl = fcntl(fd, F_GETFL);
	long n;

	fcntl(fd, F_SETFL, fl | O_NONBLOCK);
	n = hwt_read(fd, &r, 1);
	fcntl(fd, F_SETFL, fl);
	return n == -EAGAIN && hwt_ioctl(fd, HWTIMER_IOC_DRAIN, &d) == 0 &&
	       d.count == 0 && d.remaining == 0;
}

/* INFO */

TEST_F(dev, info_reports_geometry_and_features)
{
	struct hwtimer_info info;
	FILE *f = fopen("/sys/module/hwtimer/parameters/tick_ns", "r");
	unsigned long long tick = 0;

	ASSERT_NE(NULL, f);
	ASSERT_EQ(1, fscanf(f, "%llu", &tick));
	fclose(f);
	memset(&info, 0xff, sizeof(info));
	ASSERT_EQ(0, hwt_ioctl(self->fd, HWTIMER_IOC_INFO, &info));
	EXPECT_EQ(HWTIMER_API_VERSION, info.api_version);
	EXPECT_EQ(tick, info.tick_ns);
	EXPECT_EQ(0ULL, info.tick_ns & (info.tick_ns - 1));
	EXPECT_LE(1U, info.levels);
	EXPECT_EQ(64U, info.slots_per_level);
	EXPECT_EQ(sizeof(struct hwtimer_record), info.record_size);
	EXPECT_LE(365 * 24 * 3600 * SEC, info.max_delay_ns);
	EXPECT_NE(0ULL, info.features & HWTIMER_FEAT_BATCH);
	EXPECT_NE(0ULL, info.features & HWTIMER_FEAT_CLOCK_REALTIME);
	EXPECT_LE(1U, info.max_batch);
	EXPECT_EQ(0U, info.padding);
}

TEST_F(dev, info_zeroes_a_longer_struct)
{
	unsigned char buf[sizeof(struct hwtimer_info) + 16];

	memset(buf, 0xff, sizeof(buf));
	ASSERT_EQ(0, hwt_ioctl(self->fd, INFO_SIZED(sizeof(buf)), buf));
	for (size_t i = sizeof(struct hwtimer_info); i < sizeof(buf); i++)
		EXPECT_EQ(0, buf[i]);
}

TEST_F(dev, info_rejects_a_short_struct)
{
	unsigned char buf[16];

	EXPECT_EQ(-EINVAL, hwt_ioctl(self->fd, INFO_SIZED(sizeof(buf)), buf));
}

TEST_F(dev, unknown_ioctl_is_enotty)
{
	char buf[64] = { 0 };

	EXPECT_EQ(-ENOTTY, hwt_ioctl(self->fd, _IO(HWTIMER_IOC_MAGIC, 0x3f), NULL));
	EXPECT_EQ(-ENOTTY, hwt_ioctl(self->fd, _IOWR('x', 0x01, struct hwtimer_op), buf));
	/* right number, wrong direction */
	EXPECT_EQ(-ENOTTY, hwt_ioctl(self->fd, _IOR(HWTIMER_IOC_MAGIC, 0x01, struct hwtimer_op), buf));
	EXPECT_TRUE(file_is_empty(self->fd));
}

/* ADD and its records */

TEST_F(dev, add_fires_once_with_a_full_record)
{
	struct hwtimer_op op = {
		.clockid = CLOCK_MONOTONIC, .expires = 10 * MS, .cookie = 0xc0ffee,
	};
	struct hwtimer_record r[4];
	struct hwtimer_get g;
	uint64_t before = now_ns(CLOCK_MONOTONIC), after;

	ASSERT_EQ(0, hwt_ioctl(self->fd, HWTIMER_IOC_ADD, &op));
	EXPECT_NE(0U, op.id);
	EXPECT_NE(0U, op.gen);
	EXPECT_EQ(0U, op.op);
	ASSERT_EQ(1, hwt_read(self->fd, r, 4));
	after = now_ns(CLOCK_MONOTONIC);
	EXPECT_EQ(op.id, r[0].id);
	EXPECT_EQ(op.gen, r[0].gen);
	EXPECT_EQ(0xc0ffeeULL, r[0].cookie);
	EXPECT_LE(before + 10 * MS, r[0].deadline);
	EXPECT_LE(r[0].deadline, r[0].fired);
	EXPECT_LE(r[0].fired, after);
	EXPECT_EQ(0ULL, r[0].overruns);
	EXPECT_EQ(0U, r[0].flags);
	EXPECT_EQ((uint32_t)CLOCK_MONOTONIC, r[0].clockid);
	ASSERT_EQ(0, hwt_get(self->fd, op.id, &g));
	EXPECT_EQ(HWTIMER_STATE_IDLE, g.state);
	ASSERT_EQ(0, hwt_set_nonblock(self->fd));
	EXPECT_EQ(-EAGAIN, hwt_read(self->fd, r, 4));
}

TEST_F(dev, add_accepts_zero_op_or_its_own)
{
	struct hwtimer_op op = {
		.op = HWTIMER_OP_ADD, .clockid = CLOCK_MONOTONIC, .expires = SEC,
	};

	EXPECT_EQ(0, hwt_ioctl(self->fd, HWTIMER_IOC_ADD, &op));
	EXPECT_EQ((uint32_t)HWTIMER_OP_ADD, op.op);
	op.op = HWTIMER_OP_MOD;
	op.id = 0;
	op.gen = 0;
	EXPECT_EQ(-EINVAL, hwt_ioctl(self->fd, HWTIMER_IOC_ADD, &op));
}

#define ADD_EINVAL(name, field, value)					\
TEST_F(dev, name)							\
{									\
	struct hwtimer_op op = {					\
		.clockid = CLOCK_MONOTONIC, .expires = MS,		\
	};								\
	op.field = value;						\
	EXPECT_EQ(-EINVAL, hwt_ioctl(self->fd, HWTIMER_IOC_ADD, &op));	\
	EXPECT_TRUE(file_is_empty(self->fd));				\
}

ADD_EINVAL(add_unknown_flag_einval, flags, 1U << 31)
ADD_EINVAL(add_mod_only_flag_einval, flags, HWTIMER_F_IF_EARLIER)
ADD_EINVAL(add_nonzero_padding_einval, padding, 1)
ADD_EINVAL(add_nonzero_id_einval, id, 7)
ADD_EINVAL(add_nonzero_gen_einval, gen, 7)
ADD_EINVAL(add_nonzero_result_einval, result, 1)
ADD_EINVAL(add_eventfd_without_flag_einval, eventfd, 3)
ADD_EINVAL(add_bad_clock_einval, clockid, CLOCK_PROCESS_CPUTIME_ID)
ADD_EINVAL(add_fixed_delay_without_period_einval, flags, HWTIMER_F_FIXED_DELAY)
ADD_EINVAL(add_no_record_without_eventfd_einval, flags, HWTIMER_F_NO_RECORD)

TEST_F(dev, add_autoremove_periodic_einval)
{
	EXPECT_EQ(-EINVAL, hwt_add(self->fd, HWTIMER_F_AUTOREMOVE,
				   CLOCK_MONOTONIC, MS, MS, 0, NULL));
	EXPECT_TRUE(file_is_empty(self->fd));
}

TEST_F(dev, add_bad_eventfd_ebadf)
{
	EXPECT_EQ(-EBADF, hwt_add_efd(self->fd, 0, MS, 0, 999, NULL));
	EXPECT_EQ(-EBADF, hwt_add_efd(self->fd, 0, MS, 0, -1, NULL));
	EXPECT_TRUE(file_is_empty(self->fd));
}

TEST_F(dev, add_non_eventfd_fd_einval)
{
	int p[2];

	ASSERT_EQ(0, pipe(p));
	EXPECT_EQ(-EINVAL, hwt_add_efd(self->fd, 0, MS, 0, p[0], NULL));
	close(p[0]);
	close(p[1]);
	EXPECT_TRUE(file_is_empty(self->fd));
}

TEST_F(dev, add_out_of_range_erange)
{
	struct hwtimer_info info;

	ASSERT_EQ(0, hwt_ioctl(self->fd, HWTIMER_IOC_INFO, &info));
	EXPECT_EQ(-ERANGE, hwt_add(self->fd, 0, CLOCK_MONOTONIC, ~0ULL, 0, 0, NULL));
	EXPECT_EQ(-ERANGE, hwt_add(self->fd, 0, CLOCK_MONOTONIC,
				   info.max_delay_ns + 1, 0, 0, NULL));
	EXPECT_EQ(-ERANGE, hwt_add(self->fd, HWTIMER_F_ABS, CLOCK_MONOTONIC,
				   1ULL << 63, 0, 0, NULL));
	EXPECT_EQ(-ERANGE, hwt_add(self->fd, 0, CLOCK_MONOTONIC, MS,
				   info.max_delay_ns + 1, 0, NULL));
	EXPECT_TRUE(file_is_empty(self->fd));
	/* the limit itself is fine */
	EXPECT_EQ(0, hwt_add(self->fd, 0, CLOCK_MONOTONIC, info.max_delay_ns,
			     0, 0, NULL));
}

TEST_F(dev, add_period_plus_slack_out_of_range_erange)
{
	struct hwtimer_info info;
	struct hwtimer_op op = { .clockid = CLOCK_MONOTONIC, .expires = MS };

	ASSERT_EQ(0, hwt_ioctl(self->fd, HWTIMER_IOC_INFO, &info));
	/* each alone is in range; a re-arm would land beyond the limit */
	op.period = info.max_delay_ns / 2 + 1;
	op.slack = info.max_delay_ns / 2 + 1;
	EXPECT_EQ(-ERANGE, hwt_ioctl(self->fd, HWTIMER_IOC_ADD, &op));
	EXPECT_TRUE(file_is_empty(self->fd));
}

TEST_F(dev, add_slack_out_of_range_erange)
{
	struct hwtimer_op op = {
		.clockid = CLOCK_MONOTONIC, .expires = MS, .slack = ~0ULL,
	};

	EXPECT_EQ(-ERANGE, hwt_ioctl(self->fd, HWTIMER_IOC_ADD, &op));
	EXPECT_TRUE(file_is_empty(self->fd));
}

TEST_F(dev, add_bad_pointer_efault)
{
	void *ro = mmap(NULL, 4096, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	ASSERT_NE(MAP_FAILED, ro);
	EXPECT_EQ(-EFAULT, hwt_ioctl(self->fd, HWTIMER_IOC_ADD, NULL));
	EXPECT_EQ(-EFAULT, hwt_ioctl(self->fd, HWTIMER_IOC_ADD, (void *)1));
	/* readable but not writable: the new id could not be returned */
	EXPECT_EQ(-EFAULT, hwt_ioctl(self->fd, HWTIMER_IOC_ADD, ro));
	munmap(ro, 4096);
	EXPECT_TRUE(file_is_empty(self->fd));
}

/*
 * The kernel must not write the struct before it has read it: an op that
 * straddles a page boundary keeps every field (a fault-in that stores zeroes
 * into each page would corrupt the byte at the boundary).
 */
TEST_F(dev, add_struct_across_pages_is_read_intact)
{
	char *map = mmap(NULL, 8192, PROT_READ | PROT_WRITE,
			 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	struct hwtimer_op *op;
	struct hwtimer_get g;

	ASSERT_NE(MAP_FAILED, map);
	/* @cookie starts exactly on the second page */
	op = (struct hwtimer_op *)(map + 4096 - offsetof(struct hwtimer_op, cookie));
	memset(op, 0, sizeof(*op));
	op->op = HWTIMER_OP_ADD;
	op->clockid = CLOCK_MONOTONIC;
	op->expires = SEC;
	op->cookie = 0x1122334455667788ULL;
	ASSERT_EQ(0, hwt_ioctl(self->fd, HWTIMER_IOC_ADD, op));
	EXPECT_EQ((uint32_t)HWTIMER_OP_ADD, op->op);
	ASSERT_EQ(0, hwt_get(self->fd, op->id, &g));
	EXPECT_EQ(0x1122334455667788ULL, g.cookie);
	munmap(map, 8192);
}

TEST_F(dev, batch_entry_across_pages_is_read_intact)
{
	char *map = mmap(NULL, 8192, PROT_READ | PROT_WRITE,
			 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	struct hwtimer_batch b = { .count = 1, .op_size = sizeof(struct hwtimer_op) };
	struct hwtimer_op *op;
	struct hwtimer_get g;

	ASSERT_NE(MAP_FAILED, map);
	op = (struct hwtimer_op *)(map + 4096 - offsetof(struct hwtimer_op, cookie));
	memset(op, 0, sizeof(*op));
	op->op = HWTIMER_OP_ADD;
	op->clockid = CLOCK_MONOTONIC;
	op->expires = SEC;
	op->cookie = 0x1122334455667788ULL;
	b.ops = (uintptr_t)op;
	ASSERT_EQ(1, hwt_ioctl(self->fd, HWTIMER_IOC_BATCH, &b));
	ASSERT_EQ(0, op->result);
	ASSERT_EQ(0, hwt_get(self->fd, op->id, &g));
	EXPECT_EQ(0x1122334455667788ULL, g.cookie);
	munmap(map, 8192);
}

TEST_F(dev, add_short_struct_einval)
{
	struct hwtimer_op op = { .clockid = CLOCK_MONOTONIC, .expires = MS };

	EXPECT_EQ(-EINVAL, hwt_ioctl(self->fd, ADD_SIZED(32), &op));
	EXPECT_TRUE(file_is_empty(self->fd));
}

TEST_F(dev, add_longer_struct_with_zero_tail_works)
{
	struct { struct hwtimer_op op; uint64_t future[2]; } big = {
		.op = { .clockid = CLOCK_MONOTONIC, .expires = SEC },
	};

	EXPECT_EQ(0, hwt_ioctl(self->fd, ADD_SIZED(sizeof(big)), &big));
	EXPECT_NE(0U, big.op.id);
	EXPECT_EQ(0ULL, big.future[0]);
}

TEST_F(dev, add_longer_struct_with_unknown_field_e2big)
{
	struct { struct hwtimer_op op; uint64_t future[2]; } big = {
		.op = { .clockid = CLOCK_MONOTONIC, .expires = SEC },
		.future = { 0, 1 },
	};

	EXPECT_EQ(-E2BIG, hwt_ioctl(self->fd, ADD_SIZED(sizeof(big)), &big));
	EXPECT_TRUE(file_is_empty(self->fd));
}

TEST_F(dev, add_past_deadline_fires_at_once)
{
	uint64_t now = now_ns(CLOCK_MONOTONIC);
	struct hwtimer_record r;
	uint32_t id;

	ASSERT_EQ(0, hwt_add(self->fd, HWTIMER_F_ABS, CLOCK_MONOTONIC,
			     now - SEC, 0, 0, &id));
	ASSERT_EQ(1, hwt_read(self->fd, &r, 1));
	/* the deadline was raised to the time of arming */
	EXPECT_LE(now, r.deadline);
	EXPECT_LE(r.deadline, r.fired);
}

/* MOD */

TEST_F(dev, mod_rearms_with_a_new_generation)
{
	struct hwtimer_get g;
	uint32_t id, gen;

	ASSERT_EQ(0, hwt_add(self->fd, 0, CLOCK_MONOTONIC, 10 * SEC, 0, 0, &id));
	ASSERT_EQ(0, hwt_get(self->fd, id, &g));
	EXPECT_EQ(1, hwt_mod(self->fd, id, 0, 20 * SEC, 0, &gen));
	EXPECT_NE(g.gen, gen);
	ASSERT_EQ(0, hwt_get(self->fd, id, &g));
	EXPECT_EQ(gen, g.gen);
	EXPECT_EQ(HWTIMER_STATE_PENDING, g.state);
	EXPECT_LT(10 * SEC, g.remaining);
}

TEST_F(dev, mod_of_a_fired_timer_drops_its_record)
{
	struct hwtimer_record r;
	struct hwtimer_get g;
	uint32_t id;

	ASSERT_EQ(0, hwt_add(self->fd, 0, CLOCK_MONOTONIC, MS, 0, 0, &id));
	do {
		ASSERT_EQ(0, hwt_get(self->fd, id, &g));
	} while (g.state != HWTIMER_STATE_FIRED);
	EXPECT_EQ(0, hwt_mod(self->fd, id, 0, 10 * SEC, 0, NULL));
	ASSERT_EQ(0, hwt_set_nonblock(self->fd));
	EXPECT_EQ(-EAGAIN, hwt_read(self->fd, &r, 1));
}

TEST_F(dev, mod_if_earlier_is_a_kick)
{
	struct hwtimer_get g;
	uint64_t deadline;
	uint32_t id;

	ASSERT_EQ(0, hwt_add(self->fd, 0, CLOCK_MONOTONIC, 10 * SEC, 0, 0, &id));
	ASSERT_EQ(0, hwt_get(self->fd, id, &g));
	deadline = g.expires;
	EXPECT_EQ(1, hwt_mod(self->fd, id, HWTIMER_F_IF_EARLIER, 20 * SEC, 0, NULL));
	ASSERT_EQ(0, hwt_get(self->fd, id, &g));
	EXPECT_EQ(deadline, g.expires);
	EXPECT_EQ(1, hwt_mod(self->fd, id, HWTIMER_F_IF_EARLIER, SEC, 0, NULL));
	ASSERT_EQ(0, hwt_get(self->fd, id, &g));
	EXPECT_GT(deadline, g.expires);
}

TEST_F(dev, mod_if_idle_leaves_a_pending_timer)
{
	struct hwtimer_record r;
	struct hwtimer_get g;
	uint64_t deadline;
	uint32_t id;

	ASSERT_EQ(0, hwt_add(self->fd, 0, CLOCK_MONOTONIC, 20 * MS, 0, 0, &id));
	ASSERT_EQ(0, hwt_get(self->fd, id, &g));
	deadline = g.expires;
	EXPECT_EQ(1, hwt_mod(self->fd, id, HWTIMER_F_IF_IDLE, 10 * SEC, 0, NULL));
	ASSERT_EQ(0, hwt_get(self->fd, id, &g));
	EXPECT_EQ(deadline, g.expires);
	ASSERT_EQ(1, hwt_read(self->fd, &r, 1));
	/* now idle: it arms */
	EXPECT_EQ(0, hwt_mod(self->fd, id, HWTIMER_F_IF_IDLE, 10 * MS, 0, NULL));
	ASSERT_EQ(1, hwt_read(self->fd, &r, 1));
	EXPECT_EQ(id, r.id);
}

TEST_F(dev, mod_adds_a_period)
{
	struct hwtimer_record r;
	uint32_t id;
	int i;

	ASSERT_EQ(0, hwt_add(self->fd, 0, CLOCK_MONOTONIC, 10 * SEC, 0, 0, &id));
	EXPECT_EQ(1, hwt_mod(self->fd, id, HWTIMER_F_PERIOD, 5 * MS, 5 * MS, NULL));
	for (i = 0; i < 3; i++) {
		ASSERT_EQ(1, hwt_read(self->fd, &r, 1));
		EXPECT_EQ(id, r.id);
		EXPECT_EQ((uint32_t)HWTIMER_REC_PERIODIC, r.flags);
	}
}

TEST_F(dev, mod_unknown_id_enoent)
{
	EXPECT_EQ(-ENOENT, hwt_mod(self->fd, 12345, 0, MS, 0, NULL));
	EXPECT_EQ(-ENOENT, hwt_mod(self->fd, 0, 0, MS, 0, NULL));
}

#define MOD_EINVAL(name, field, value)					\
TEST_F(dev, name)							\
{									\
	struct hwtimer_op op = { .expires = MS };			\
	uint32_t id;							\
	ASSERT_EQ(0, hwt_add(self->fd, 0, CLOCK_MONOTONIC, SEC, 0, 0, &id)); \
	op.id = id;							\
	op.field = value;						\
	EXPECT_EQ(-EINVAL, hwt_ioctl(self->fd, HWTIMER_IOC_MOD, &op));	\
}

TEST_F(dev, mod_period_on_autoremove_einval)
{
	struct hwtimer_get g;
	uint32_t id;

	ASSERT_EQ(0, hwt_add(self->fd, HWTIMER_F_AUTOREMOVE, CLOCK_MONOTONIC,
			     10 * SEC, 0, 0, &id));
	EXPECT_EQ(-EINVAL, hwt_mod(self->fd, id, HWTIMER_F_PERIOD, SEC, SEC, NULL));
	ASSERT_EQ(0, hwt_get(self->fd, id, &g));
	EXPECT_EQ(0ULL, g.period);
	/* a period of 0 keeps it one-shot: fine */
	EXPECT_EQ(1, hwt_mod(self->fd, id, HWTIMER_F_PERIOD, SEC, 0, NULL));
}

MOD_EINVAL(mod_clockid_einval, clockid, CLOCK_MONOTONIC)
MOD_EINVAL(mod_cookie_einval, cookie, 1)
MOD_EINVAL(mod_eventfd_einval, eventfd, 1)
MOD_EINVAL(mod_period_without_flag_einval, period, MS)
MOD_EINVAL(mod_add_only_flag_einval, flags, HWTIMER_F_NO_RECORD)
MOD_EINVAL(mod_earlier_and_idle_einval, flags,
	   HWTIMER_F_IF_EARLIER | HWTIMER_F_IF_IDLE)
MOD_EINVAL(mod_nonzero_gen_einval, gen, 1)

/* CANCEL and GET */

TEST_F(dev, cancel_reports_pending_and_deletes)
{
	struct hwtimer_get g;
	uint32_t a, b;

	ASSERT_EQ(0, hwt_add(self->fd, 0, CLOCK_MONOTONIC, 10 * SEC, 0, 0, &a));
	ASSERT_EQ(0, hwt_add(self->fd, 0, CLOCK_MONOTONIC, MS, 0, 0, &b));
	EXPECT_EQ(1, hwt_cancel(self->fd, a));
	EXPECT_EQ(-ENOENT, hwt_get(self->fd, a, &g));
	EXPECT_EQ(-ENOENT, hwt_cancel(self->fd, a));
	do {
		ASSERT_EQ(0, hwt_get(self->fd, b, &g));
	} while (g.state != HWTIMER_STATE_FIRED);
	/* fired: not pending, and its record goes with it */
	EXPECT_EQ(0, hwt_cancel(self->fd, b));
	EXPECT_TRUE(file_is_empty(self->fd));
}

TEST_F(dev, cancel_reserved_field_einval)
{
	struct hwtimer_op op = { .expires = 1 };
	uint32_t id;

	ASSERT_EQ(0, hwt_add(self->fd, 0, CLOCK_MONOTONIC, SEC, 0, 0, &id));
	op.id = id;
	EXPECT_EQ(-EINVAL, hwt_ioctl(self->fd, HWTIMER_IOC_CANCEL, &op));
	op.expires = 0;
	op.flags = HWTIMER_F_ABS;
	EXPECT_EQ(-EINVAL, hwt_ioctl(self->fd, HWTIMER_IOC_CANCEL, &op));
	op.flags = 0;
	EXPECT_EQ(1, hwt_ioctl(self->fd, HWTIMER_IOC_CANCEL, &op));
}

TEST_F(dev, get_unknown_id_enoent)
{
	struct hwtimer_get g;

	EXPECT_EQ(-ENOENT, hwt_get(self->fd, 777, &g));
}

TEST_F(dev, get_reserved_field_einval)
{
	struct hwtimer_get g = { .state = 1 };
	uint32_t id;

	ASSERT_EQ(0, hwt_add(self->fd, 0, CLOCK_MONOTONIC, SEC, 0, 0, &id));
	g.id = id;
	EXPECT_EQ(-EINVAL, hwt_ioctl(self->fd, HWTIMER_IOC_GET, &g));
	memset(&g, 0, sizeof(g));
	g.id = id;
	g.flags = 1;
	EXPECT_EQ(-EINVAL, hwt_ioctl(self->fd, HWTIMER_IOC_GET, &g));
}

TEST_F(dev, get_reports_a_periodic_timer)
{
	struct hwtimer_op op = {
		.flags = HWTIMER_F_FIXED_DELAY, .clockid = CLOCK_BOOTTIME,
		.expires = SEC, .period = 2 * SEC, .cookie = 42,
	};
	struct hwtimer_get g;

	ASSERT_EQ(0, hwt_ioctl(self->fd, HWTIMER_IOC_ADD, &op));
	ASSERT_EQ(0, hwt_get(self->fd, op.id, &g));
	EXPECT_EQ(HWTIMER_STATE_PENDING, g.state);
	EXPECT_EQ((uint32_t)HWTIMER_F_FIXED_DELAY, g.timer_flags);
	EXPECT_EQ((uint32_t)CLOCK_BOOTTIME, g.clockid);
	EXPECT_EQ(op.gen, g.gen);
	EXPECT_EQ(2 * SEC, g.period);
	EXPECT_EQ(42ULL, g.cookie);
	EXPECT_GE(SEC, g.remaining);
	EXPECT_LT(0ULL, g.remaining);
}

/* read() and poll() */

TEST_F(dev, read_short_buffer_einval)
{
	char buf[sizeof(struct hwtimer_record) - 1];

	EXPECT_EQ(-1, read(self->fd, buf, sizeof(buf)));
	EXPECT_EQ(EINVAL, errno);
}

TEST_F(dev, read_bad_buffer_efault_keeps_the_record)
{
	struct hwtimer_record r;
	struct hwtimer_get g;
	uint32_t id;

	ASSERT_EQ(0, hwt_add(self->fd, 0, CLOCK_MONOTONIC, MS, 0, 0, &id));
	do {
		ASSERT_EQ(0, hwt_get(self->fd, id, &g));
	} while (g.state != HWTIMER_STATE_FIRED);
	/* a mapping the kernel cannot write to */
	void *ro = mmap(NULL, 4096, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	ASSERT_NE(MAP_FAILED, ro);
	EXPECT_EQ(-1, read(self->fd, ro, sizeof(r)));
	EXPECT_EQ(EFAULT, errno);
	munmap(ro, 4096);
	/* nothing was lost */
	ASSERT_EQ(1, hwt_read(self->fd, &r, 1));
	EXPECT_EQ(id, r.id);
}

TEST_F(dev, nonblocking_read_eagain)
{
	struct hwtimer_record r;

	ASSERT_EQ(0, hwt_set_nonblock(self->fd));
	EXPECT_EQ(-EAGAIN, hwt_read(self->fd, &r, 1));
}

TEST_F(dev, many_records_in_one_read)
{
	struct hwtimer_record r[64];
	int i, got = 0;

	for (i = 0; i < 50; i++)
		ASSERT_EQ(0, hwt_add(self->fd, 0, CLOCK_MONOTONIC, MS, 0, i, NULL));
	usleep(200 * 1000);
	while (got < 50) {
		long n = hwt_read(self->fd, r, 64);

		ASSERT_LT(0, n);
		got += n;
	}
	EXPECT_EQ(50, got);
}

TEST_F(dev, poll_and_epoll_report_records)
{
	struct pollfd p = { .fd = self->fd, .events = POLLIN };
	struct epoll_event ev = { .events = EPOLLIN }, out;
	struct hwtimer_record r;
	int ep = epoll_create1(EPOLL_CLOEXEC);

	ASSERT_LE(0, ep);
	ASSERT_EQ(0, epoll_ctl(ep, EPOLL_CTL_ADD, self->fd, &ev));
	EXPECT_EQ(0, poll(&p, 1, 0));
	ASSERT_EQ(0, hwt_add(self->fd, 0, CLOCK_MONOTONIC, 5 * MS, 0, 0, NULL));
	EXPECT_EQ(1, epoll_wait(ep, &out, 1, 5000));
	EXPECT_EQ(1, poll(&p, 1, 0));
	EXPECT_NE(0, p.revents & POLLIN);
	ASSERT_EQ(1, hwt_read(self->fd, &r, 1));
	EXPECT_EQ(0, poll(&p, 1, 0));
	close(ep);
}

/* eventfds */

TEST_F(dev, timer_eventfd_is_signalled)
{
	int efd = eventfd(0, EFD_CLOEXEC);
	struct pollfd p = { .fd = efd, .events = POLLIN };
	uint64_t v = 0;

	ASSERT_LE(0, efd);
	ASSERT_EQ(0, hwt_add_efd(self->fd, 0, 5 * MS, 0, efd, NULL));
	ASSERT_EQ(1, poll(&p, 1, 5000));
	ASSERT_EQ(8, read(efd, &v, 8));
	EXPECT_EQ(1ULL, v);
	close(efd);
}

TEST_F(dev, eventfd_closed_before_expiry_is_harmless)
{
	struct hwtimer_record r;
	int efd = eventfd(0, EFD_CLOEXEC);

	ASSERT_LE(0, efd);
	ASSERT_EQ(0, hwt_add_efd(self->fd, 0, 10 * MS, 0, efd, NULL));
	close(efd);	/* the timer keeps its own reference */
	ASSERT_EQ(1, hwt_read(self->fd, &r, 1));
}

TEST_F(dev, saturated_eventfd_loses_no_record)
{
	uint64_t max = 0xfffffffffffffffeULL;
	struct hwtimer_record r;
	int efd = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);

	ASSERT_LE(0, efd);
	ASSERT_EQ(8, write(efd, &max, 8));
	ASSERT_EQ(0, hwt_add_efd(self->fd, 0, MS, 0, efd, NULL));
	ASSERT_EQ(1, hwt_read(self->fd, &r, 1));
	EXPECT_EQ(0ULL, r.overruns);
	close(efd);
}

TEST_F(dev, file_eventfd_is_signalled)
{
	struct hwtimer_eventfd e = { .fd = eventfd(0, EFD_CLOEXEC) };
	struct pollfd p = { .fd = e.fd, .events = POLLIN };
	struct hwtimer_record r;

	ASSERT_LE(0, e.fd);
	ASSERT_EQ(0, hwt_ioctl(self->fd, HWTIMER_IOC_SET_EVENTFD, &e));
	ASSERT_EQ(0, hwt_add(self->fd, 0, CLOCK_MONOTONIC, 5 * MS, 0, 0, NULL));
	ASSERT_EQ(1, poll(&p, 1, 5000));
	ASSERT_EQ(1, hwt_read(self->fd, &r, 1));
	e.fd = -1;
	EXPECT_EQ(0, hwt_ioctl(self->fd, HWTIMER_IOC_SET_EVENTFD, &e));
	close(p.fd);
}

TEST_F(dev, set_eventfd_bad_fd_ebadf)
{
	struct hwtimer_eventfd e = { .fd = 999 };

	EXPECT_EQ(-EBADF, hwt_ioctl(self->fd, HWTIMER_IOC_SET_EVENTFD, &e));
}

TEST_F(dev, set_eventfd_reserved_einval)
{
	struct hwtimer_eventfd e = { .fd = -1, .flags = 1 };

	EXPECT_EQ(-EINVAL, hwt_ioctl(self->fd, HWTIMER_IOC_SET_EVENTFD, &e));
	e.flags = 0;
	e.fd = -2;
	EXPECT_EQ(-EINVAL, hwt_ioctl(self->fd, HWTIMER_IOC_SET_EVENTFD, &e));
}

TEST_F(dev, no_record_periodic_only_signals)
{
	int efd = eventfd(0, EFD_CLOEXEC);
	struct hwtimer_record r;
	uint64_t v = 0;

	ASSERT_LE(0, efd);
	ASSERT_EQ(0, hwt_add_efd(self->fd, HWTIMER_F_NO_RECORD, 2 * MS, 2 * MS,
				 efd, NULL));
	usleep(100 * 1000);
	ASSERT_EQ(8, read(efd, &v, 8));
	EXPECT_LE(2ULL, v);
	ASSERT_EQ(0, hwt_set_nonblock(self->fd));
	EXPECT_EQ(-EAGAIN, hwt_read(self->fd, &r, 1));
	close(efd);
}

TEST_F(dev, autoremove_deletes_once_read)
{
	struct hwtimer_record r;
	struct hwtimer_get g;
	uint32_t id;

	ASSERT_EQ(0, hwt_add(self->fd, HWTIMER_F_AUTOREMOVE, CLOCK_MONOTONIC,
			     MS, 0, 0, &id));
	ASSERT_EQ(1, hwt_read(self->fd, &r, 1));
	EXPECT_EQ((uint32_t)HWTIMER_REC_REMOVED, r.flags);
	EXPECT_EQ(-ENOENT, hwt_get(self->fd, id, &g));
	EXPECT_TRUE(file_is_empty(self->fd));
}

/*
 * Slack is a window after the deadline, which GET and records report as
 * given. A timer with 100 ms of slack fires from its deadline on, and no
 * later than the run that fires a timer without slack 50 ms after it: the
 * hrtimer is armed to fire by the earliest window's end. (That both usually
 * fire in one run is the wheel's business: hwtimer_wheel_range counts the
 * wakeups; an unrelated interrupt inside the window may run it earlier.)
 */
TEST_F(dev, slack_is_a_window_after_the_deadline)
{
	uint64_t t0 = now_ns(CLOCK_MONOTONIC) + 200 * MS;
	struct hwtimer_op a = {
		.flags = HWTIMER_F_ABS, .clockid = CLOCK_MONOTONIC,
		.expires = t0, .slack = 100 * MS, .cookie = 1,
	}, b = {
		.flags = HWTIMER_F_ABS, .clockid = CLOCK_MONOTONIC,
		.expires = t0 + 50 * MS, .cookie = 2,
	};
	struct hwtimer_record r[2], *ra, *rb;
	struct hwtimer_get g;

	ASSERT_EQ(0, hwt_ioctl(self->fd, HWTIMER_IOC_ADD, &a));
	ASSERT_EQ(0, hwt_ioctl(self->fd, HWTIMER_IOC_ADD, &b));
	ASSERT_EQ(0, hwt_get(self->fd, a.id, &g));
	EXPECT_EQ(t0, g.expires);
	ASSERT_EQ(1, hwt_read(self->fd, &r[0], 1));
	ASSERT_EQ(1, hwt_read(self->fd, &r[1], 1));
	ra = r[0].cookie == 1 ? &r[0] : &r[1];
	rb = r[0].cookie == 1 ? &r[1] : &r[0];
	EXPECT_EQ(t0, ra->deadline);
	EXPECT_LE(t0, ra->fired);
	EXPECT_LE(ra->fired, rb->fired);
	EXPECT_LE(t0 + 50 * MS, rb->fired);
}

/* SLACK: the file's default slack */

static long file_slack(int fd, uint32_t flags, uint64_t *slack)
{
	struct hwtimer_slack sl = { .slack = *slack, .flags = flags };
	long ret = hwt_ioctl(fd, HWTIMER_IOC_SLACK, &sl);

	*slack = sl.slack;
	return ret;
}

TEST_F(dev, slack_default_is_read_and_set)
{
	uint64_t v = 0;

	ASSERT_EQ(0, file_slack(self->fd, 0, &v));
	EXPECT_EQ(0ULL, v);
	v = MS;
	ASSERT_EQ(0, file_slack(self->fd, HWTIMER_SLACK_SET, &v));
	EXPECT_EQ(0ULL, v);		/* the one before */
	v = 0;
	ASSERT_EQ(0, file_slack(self->fd, 0, &v));
	EXPECT_EQ(MS, v);
	EXPECT_EQ(MS, fdinfo_u64(self->fd, "slack"));
}

/* an ADD without slack takes the file's: here, too much for its period */
TEST_F(dev, slack_default_applies_to_adds_without_slack)
{
	struct hwtimer_info info;
	struct hwtimer_op op = { .clockid = CLOCK_MONOTONIC, .expires = MS };
	uint64_t v;

	ASSERT_EQ(0, hwt_ioctl(self->fd, HWTIMER_IOC_INFO, &info));
	op.period = info.max_delay_ns / 2 + 1;
	EXPECT_EQ(0, hwt_ioctl(self->fd, HWTIMER_IOC_ADD, &op));
	v = info.max_delay_ns / 2 + 1;
	ASSERT_EQ(0, file_slack(self->fd, HWTIMER_SLACK_SET, &v));
	op.id = 0;
	op.gen = 0;
	EXPECT_EQ(-ERANGE, hwt_ioctl(self->fd, HWTIMER_IOC_ADD, &op));
	/* a slack of its own overrides the file's */
	op.slack = 1;
	EXPECT_EQ(0, hwt_ioctl(self->fd, HWTIMER_IOC_ADD, &op));
}

/*
 * A deadline near the end of ktime plus a long slack lies beyond what an
 * hrtimer can be armed for. It wrapped to a soft expiry long past: the next
 * time that CPU ran its soft hrtimers (here, for another timer of the same
 * file on another clock), the file's hrtimer fired, re-armed for the same
 * time and fired again, for ever.
 */
TEST_F(dev, slack_past_the_end_of_ktime_does_not_spin)
{
	struct hwtimer_info info;
	struct hwtimer_op op = {
		.flags = HWTIMER_F_ABS, .clockid = CLOCK_MONOTONIC,
	};
	struct hwtimer_record r;
	cpu_set_t one;

	/* both hrtimers on one CPU: the one that arms them */
	CPU_ZERO(&one);
	CPU_SET(sched_getcpu(), &one);
	ASSERT_EQ(0, sched_setaffinity(0, sizeof(one), &one));
	ASSERT_EQ(0, hwt_ioctl(self->fd, HWTIMER_IOC_INFO, &info));
	op.slack = info.max_delay_ns;
	op.expires = now_ns(CLOCK_MONOTONIC) + info.max_delay_ns;
	ASSERT_EQ(0, hwt_ioctl(self->fd, HWTIMER_IOC_ADD, &op));
	ASSERT_EQ(0, hwt_add(self->fd, 0, CLOCK_BOOTTIME, 10 * MS, 0, 0, NULL));
	ASSERT_EQ(1, hwt_read(self->fd, &r, 1));
	EXPECT_EQ(CLOCK_BOOTTIME, (int)r.clockid);
	usleep(100000);
	/* a wakeup or two, not one per microsecond */
	EXPECT_GE(4ULL, fdinfo_u64(self->fd, "wakeups"));
}

TEST_F(dev, slack_unknown_flag_einval)
{
	uint64_t v = 0;

	EXPECT_EQ(-EINVAL, file_slack(self->fd, 2, &v));
}

TEST_F(dev, slack_value_without_set_einval)
{
	uint64_t v = MS;

	EXPECT_EQ(-EINVAL, file_slack(self->fd, 0, &v));
}

TEST_F(dev, slack_nonzero_padding_einval)
{
	struct hwtimer_slack sl = { .padding = 1 };

	EXPECT_EQ(-EINVAL, hwt_ioctl(self->fd, HWTIMER_IOC_SLACK, &sl));
}

TEST_F(dev, slack_out_of_range_erange)
{
	uint64_t v = ~0ULL;

	EXPECT_EQ(-ERANGE, file_slack(self->fd, HWTIMER_SLACK_SET, &v));
	v = 0;
	ASSERT_EQ(0, file_slack(self->fd, 0, &v));
	EXPECT_EQ(0ULL, v);
}

TEST_F(dev, slack_short_struct_einval)
{
	struct hwtimer_slack sl = { 0 };
	unsigned long cmd = _IOC(_IOC_READ | _IOC_WRITE, HWTIMER_IOC_MAGIC,
				 _IOC_NR(HWTIMER_IOC_SLACK), 8);

	EXPECT_EQ(-EINVAL, hwt_ioctl(self->fd, cmd, &sl));
}

TEST_F(dev, slack_bad_pointer_efault)
{
	EXPECT_EQ(-EFAULT, hwt_ioctl(self->fd, HWTIMER_IOC_SLACK, NULL));
}

/* a file takes its opener's prctl(PR_SET_TIMERSLACK), as nanosleep() does */
TEST(slack_default_from_the_openers_timer_slack)
{
	int before = hwt_open(), after;
	uint64_t v = 0;

	ASSERT_LE(0, before);
	ASSERT_EQ(0, prctl(PR_SET_TIMERSLACK, 5 * MS, 0, 0, 0));
	after = hwt_open();
	ASSERT_LE(0, after);
	ASSERT_EQ(0, file_slack(after, 0, &v));
	EXPECT_EQ(5 * MS, v);
	v = 0;
	ASSERT_EQ(0, file_slack(before, 0, &v));
	EXPECT_EQ(0ULL, v);
	close(after);
	/* 0 restores the task's default slack */
	ASSERT_EQ(0, prctl(PR_SET_TIMERSLACK, 0, 0, 0, 0));
	after = hwt_open();
	ASSERT_EQ(0, file_slack(after, 0, &v));
	EXPECT_EQ(0ULL, v);
	close(after);
	close(before);
}

/* BATCH */

static long batch(int fd, struct hwtimer_op *ops, uint32_t n, uint32_t flags,
		  uint32_t *done)
{
	struct hwtimer_batch b = {
		.ops = (uintptr_t)ops, .count = n,
		.op_size = sizeof(*ops), .flags = flags,
	};
	long ret = hwt_ioctl(fd, HWTIMER_IOC_BATCH, &b);

	if (done)
		*done = b.done;
	return ret;
}

TEST_F(dev, batch_gives_each_op_its_result)
{
	struct hwtimer_op ops[4] = {
		{ .op = HWTIMER_OP_ADD, .clockid = CLOCK_MONOTONIC, .expires = SEC },
		{ .op = HWTIMER_OP_ADD, .clockid = 12345, .expires = SEC },
		{ .op = HWTIMER_OP_CANCEL, .id = 99999 },
		{ .op = HWTIMER_OP_ADD, .clockid = CLOCK_REALTIME, .expires = SEC },
	};
	uint32_t done;

	EXPECT_EQ(4, batch(self->fd, ops, 4, 0, &done));
	EXPECT_EQ(4U, done);
	EXPECT_EQ(0, ops[0].result);
	EXPECT_NE(0U, ops[0].id);
	EXPECT_EQ(-EINVAL, ops[1].result);
	EXPECT_EQ(-ENOENT, ops[2].result);
	EXPECT_EQ(0, ops[3].result);
	EXPECT_NE(ops[0].id, ops[3].id);
}

TEST_F(dev, batch_stop_on_error_stops)
{
	struct hwtimer_op ops[3] = {
		{ .op = HWTIMER_OP_ADD, .clockid = CLOCK_MONOTONIC, .expires = SEC },
		{ .op = HWTIMER_OP_CANCEL, .id = 99999 },
		{ .op = HWTIMER_OP_ADD, .clockid = CLOCK_MONOTONIC, .expires = SEC },
	};
	uint32_t done;

	EXPECT_EQ(2, batch(self->fd, ops, 3, HWTIMER_BATCH_STOP_ON_ERROR, &done));
	EXPECT_EQ(2U, done);
	EXPECT_EQ(-ENOENT, ops[1].result);
	EXPECT_EQ(0U, ops[2].id);
}

/* a failure on the last entry of a kernel-side chunk still stops the batch */
TEST_F(dev, batch_stop_on_error_at_every_position)
{
	const uint32_t n = 200;
	struct hwtimer_op *ops = calloc(n, sizeof(*ops));
	uint32_t bad, i, done;

	ASSERT_NE(NULL, ops);
	for (bad = 60; bad < 132; bad++) {
		for (i = 0; i < n; i++)
			ops[i] = (struct hwtimer_op){
				.op = HWTIMER_OP_ADD, .clockid = CLOCK_MONOTONIC,
				.expires = 10 * SEC,
			};
		ops[bad].clockid = 12345;
		EXPECT_EQ((long)bad + 1, batch(self->fd, ops, n,
					       HWTIMER_BATCH_STOP_ON_ERROR, &done));
		EXPECT_EQ(bad + 1, done);
		EXPECT_EQ(-EINVAL, ops[bad].result);
		EXPECT_EQ(0U, ops[bad + 1].id);
		ASSERT_EQ(0, hwt_ioctl(self->fd, HWTIMER_IOC_DRAIN,
				       &(struct hwtimer_drain){ 0 }));
	}
	free(ops);
}

TEST_F(dev, batch_of_thousands)
{
	const uint32_t n = 4096;
	struct hwtimer_op *ops = calloc(n, sizeof(*ops));
	uint32_t i;

	ASSERT_NE(NULL, ops);
	for (i = 0; i < n; i++) {
		ops[i].op = HWTIMER_OP_ADD;
		ops[i].clockid = CLOCK_MONOTONIC;
		ops[i].expires = 10 * SEC + i;
	}
	ASSERT_EQ((long)n, batch(self->fd, ops, n, 0, NULL));
	for (i = 0; i < n; i++) {
		ASSERT_EQ(0, ops[i].result);
		if (i)
			ASSERT_NE(ops[i - 1].id, ops[i].id);
		ops[i] = (struct hwtimer_op){ .op = HWTIMER_OP_CANCEL,
					      .id = ops[i].id };
	}
	ASSERT_EQ((long)n, batch(self->fd, ops, n, 0, NULL));
	for (i = 0; i < n; i++)
		ASSERT_EQ(1, ops[i].result);
	EXPECT_TRUE(file_is_empty(self->fd));
	free(ops);
}

TEST_F(dev, batch_too_many_e2big)
{
	struct hwtimer_info info;
	struct hwtimer_op op = { .op = HWTIMER_OP_ADD };

	ASSERT_EQ(0, hwt_ioctl(self->fd, HWTIMER_IOC_INFO, &info));
	EXPECT_EQ(-E2BIG, batch(self->fd, &op, info.max_batch + 1, 0, NULL));
}

TEST_F(dev, batch_bad_header_einval)
{
	struct hwtimer_op op = { .op = HWTIMER_OP_ADD, .clockid = CLOCK_MONOTONIC };
	struct hwtimer_batch b = {
		.ops = (uintptr_t)&op, .count = 1, .op_size = 32,
	};

	EXPECT_EQ(-EINVAL, hwt_ioctl(self->fd, HWTIMER_IOC_BATCH, &b));
	b.op_size = sizeof(op) + 4;	/* not a multiple of 8 */
	EXPECT_EQ(-EINVAL, hwt_ioctl(self->fd, HWTIMER_IOC_BATCH, &b));
	b.op_size = sizeof(op);
	b.flags = 1U << 7;
	EXPECT_EQ(-EINVAL, hwt_ioctl(self->fd, HWTIMER_IOC_BATCH, &b));
	b.flags = 0;
	b.done = 1;
	EXPECT_EQ(-EINVAL, hwt_ioctl(self->fd, HWTIMER_IOC_BATCH, &b));
	EXPECT_TRUE(file_is_empty(self->fd));
}

TEST_F(dev, batch_entry_larger_than_a_page_e2big)
{
	static char big[8192];
	struct hwtimer_batch b = {
		.ops = (uintptr_t)big, .count = 1, .op_size = sizeof(big),
	};

	EXPECT_EQ(-E2BIG, hwt_ioctl(self->fd, HWTIMER_IOC_BATCH, &b));
	EXPECT_TRUE(file_is_empty(self->fd));
}

TEST_F(dev, batch_bad_ops_pointer_efault)
{
	EXPECT_EQ(-EFAULT, batch(self->fd, (struct hwtimer_op *)8, 3, 0, NULL));
	EXPECT_TRUE(file_is_empty(self->fd));
}

TEST_F(dev, batch_newer_entry_fails_alone)
{
	struct { struct hwtimer_op op; uint64_t future; } ops[2] = {
		{ .op = { .op = HWTIMER_OP_ADD, .clockid = CLOCK_MONOTONIC,
			  .expires = SEC } },
		{ .op = { .op = HWTIMER_OP_ADD, .clockid = CLOCK_MONOTONIC,
			  .expires = SEC }, .future = 1 },
	};
	struct hwtimer_batch b = {
		.ops = (uintptr_t)ops, .count = 2, .op_size = sizeof(ops[0]),
	};

	EXPECT_EQ(2, hwt_ioctl(self->fd, HWTIMER_IOC_BATCH, &b));
	EXPECT_EQ(0, ops[0].op.result);
	EXPECT_EQ(-E2BIG, ops[1].op.result);
	EXPECT_EQ(1ULL, ops[1].future);
}

/* DRAIN */

TEST_F(dev, drain_returns_the_ids_that_never_fired)
{
	uint32_t ids[16], pending[5], fired_id;
	struct hwtimer_drain d = { .ids = (uintptr_t)ids, .max = 16 };
	struct hwtimer_get g;
	int i, j;

	for (i = 0; i < 5; i++)
		ASSERT_EQ(0, hwt_add(self->fd, 0, CLOCK_MONOTONIC, 10 * SEC, 0, 0,
				     &pending[i]));
	ASSERT_EQ(0, hwt_add(self->fd, 0, CLOCK_MONOTONIC, MS, 0, 0, &fired_id));
	do {
		ASSERT_EQ(0, hwt_get(self->fd, fired_id, &g));
	} while (g.state != HWTIMER_STATE_FIRED);
	ASSERT_EQ(0, hwt_ioctl(self->fd, HWTIMER_IOC_DRAIN, &d));
	EXPECT_EQ(5U, d.count);
	EXPECT_EQ(0U, d.remaining);
	for (i = 0; i < 5; i++) {
		for (j = 0; j < 5 && ids[j] != pending[i]; j++)
			;
		EXPECT_LT(j, 5);
	}
	EXPECT_EQ(-ENOENT, hwt_get(self->fd, fired_id, &g));
	EXPECT_TRUE(file_is_empty(self->fd));
}

TEST_F(dev, drain_in_steps_when_the_array_fills)
{
	uint32_t ids[2];
	struct hwtimer_drain d = { .ids = (uintptr_t)ids, .max = 2 };
	unsigned int total = 0;
	int i;

	for (i = 0; i < 5; i++)
		ASSERT_EQ(0, hwt_add(self->fd, 0, CLOCK_MONOTONIC, 10 * SEC, 0, 0, NULL));
	do {
		d.count = 0;
		d.remaining = 0;
		ASSERT_EQ(0, hwt_ioctl(self->fd, HWTIMER_IOC_DRAIN, &d));
		total += d.count;
	} while (d.remaining);
	EXPECT_EQ(5U, total);
	EXPECT_TRUE(file_is_empty(self->fd));
}

TEST_F(dev, drain_reserved_einval)
{
	struct hwtimer_drain d = { .flags = 1 };

	EXPECT_EQ(-EINVAL, hwt_ioctl(self->fd, HWTIMER_IOC_DRAIN, &d));
	d.flags = 0;
	d.max = 4;	/* no array */
	EXPECT_EQ(-EINVAL, hwt_ioctl(self->fd, HWTIMER_IOC_DRAIN, &d));
}

TEST_F(dev, drain_bad_array_efault_cancels_nothing)
{
	struct hwtimer_drain d = { .ids = 8, .max = 4 };
	uint32_t id;

	ASSERT_EQ(0, hwt_add(self->fd, 0, CLOCK_MONOTONIC, 10 * SEC, 0, 0, &id));
	EXPECT_EQ(-EFAULT, hwt_ioctl(self->fd, HWTIMER_IOC_DRAIN, &d));
	EXPECT_EQ(1, hwt_cancel(self->fd, id));
}

/* CLOCK_REALTIME set back: the wheel follows it, nothing is refused */
TEST_F(dev, realtime_set_back_keeps_working)
{
	struct timespec ts;
	struct hwtimer_record r;
	uint32_t id;

	if (geteuid())
		SKIP(return, "setting the clock needs root");
	ASSERT_EQ(0, hwt_add(self->fd, 0, CLOCK_REALTIME, 20 * MS, 0, 0, NULL));
	ASSERT_EQ(1, hwt_read(self->fd, &r, 1));
	ASSERT_EQ(0, clock_gettime(CLOCK_REALTIME, &ts));
	ts.tv_sec -= 3600;
	ASSERT_EQ(0, clock_settime(CLOCK_REALTIME, &ts));
	EXPECT_EQ(0, hwt_add(self->fd, 0, CLOCK_REALTIME, 20 * MS, 0, 7, &id));
	EXPECT_EQ(1, hwt_read(self->fd, &r, 1));
	EXPECT_EQ(7ULL, r.cookie);
	EXPECT_LE(r.deadline, r.fired);
	clock_gettime(CLOCK_REALTIME, &ts);
	ts.tv_sec += 3600;
	ASSERT_EQ(0, clock_settime(CLOCK_REALTIME, &ts));
}

/* Ownership and limits */

TEST_F(dev, files_cannot_see_each_others_timers)
{
	int other = hwt_open();
	struct hwtimer_get g;
	uint32_t id;

	ASSERT_LE(0, other);
	ASSERT_EQ(0, hwt_add(self->fd, 0, CLOCK_MONOTONIC, 10 * SEC, 0, 0, &id));
	EXPECT_EQ(-ENOENT, hwt_get(other, id, &g));
	EXPECT_EQ(-ENOENT, hwt_cancel(other, id));
	EXPECT_EQ(-ENOENT, hwt_mod(other, id, 0, MS, 0, NULL));
	EXPECT_EQ(0, hwt_get(self->fd, id, &g));
	close(other);
}

TEST_F(dev, fork_and_dup_share_the_timers)
{
	int dupfd = dup(self->fd);
	struct hwtimer_get g;
	uint32_t id;
	pid_t pid;
	int status;

	ASSERT_LE(0, dupfd);
	ASSERT_EQ(0, hwt_add(self->fd, 0, CLOCK_MONOTONIC, 10 * SEC, 0, 0, &id));
	EXPECT_EQ(0, hwt_get(dupfd, id, &g));
	pid = fork();
	ASSERT_LE(0, pid);
	if (!pid)
		_exit(hwt_cancel(self->fd, id) == 1 ? 0 : 1);
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	EXPECT_EQ(0, WEXITSTATUS(status));
	EXPECT_EQ(-ENOENT, hwt_get(dupfd, id, &g));
	close(dupfd);
}

TEST_F(dev, close_cancels_everything)
{
	int i, fd = hwt_open();

	ASSERT_LE(0, fd);
	for (i = 0; i < 1000; i++)
		ASSERT_EQ(0, hwt_add(fd, 0, CLOCK_MONOTONIC, i * 100000ULL, 0, 0, NULL));
	usleep(20 * 1000);	/* some fired, some are queued, most pending */
	close(fd);
}

TEST_F(dev, per_file_limit_enospc)
{
	long long old = hwt_param_set("max_timers_per_fd", 3);
	int i;

	ASSERT_NE(-1, old);
	for (i = 0; i < 3; i++)
		EXPECT_EQ(0, hwt_add(self->fd, 0, CLOCK_MONOTONIC, SEC, 0, 0, NULL));
	EXPECT_EQ(-ENOSPC, hwt_add(self->fd, 0, CLOCK_MONOTONIC, SEC, 0, 0, NULL));
	hwt_param_set("max_timers_per_fd", old);
	EXPECT_EQ(0, hwt_add(self->fd, 0, CLOCK_MONOTONIC, SEC, 0, 0, NULL));
}

TEST_F(dev, per_user_limit_edquot)
{
	long long old = hwt_param_set("max_timers_per_user", 3);
	int other = hwt_open();

	ASSERT_NE(-1, old);
	ASSERT_LE(0, other);
	EXPECT_EQ(0, hwt_add(self->fd, 0, CLOCK_MONOTONIC, SEC, 0, 0, NULL));
	EXPECT_EQ(0, hwt_add(self->fd, 0, CLOCK_MONOTONIC, SEC, 0, 0, NULL));
	EXPECT_EQ(0, hwt_add(other, 0, CLOCK_MONOTONIC, SEC, 0, 0, NULL));
	/* the limit spans the user's files */
	EXPECT_EQ(-EDQUOT, hwt_add(other, 0, CLOCK_MONOTONIC, SEC, 0, 0, NULL));
	EXPECT_EQ(-EDQUOT, hwt_add(self->fd, 0, CLOCK_MONOTONIC, SEC, 0, 0, NULL));
	close(other);
	/* closing a file gives its timers back */
	EXPECT_EQ(0, hwt_add(self->fd, 0, CLOCK_MONOTONIC, SEC, 0, 0, NULL));
	hwt_param_set("max_timers_per_user", old);
}

TEST_HARNESS_MAIN
