// SPDX-License-Identifier: GPL-2.0
/*
 * /dev/hwtimer: the expiry ring. Setup and mmap() with every way they
 * refuse, records landing in the ring, a full ring that loses nothing,
 * periodic timers and the wake-up rules. A consumer that misbehaves is
 * ring_abuse_test's.
 */
#define _GNU_SOURCE
#include <poll.h>
#include <sys/eventfd.h>
#include <sys/mman.h>

#include "kselftest_harness.h"
#include "helpers.h"
#include "libhwtimer.h"
#include "ring_fixture.h"

HWT_RING_FIXTURE(ring)

static long set_eventfd(int fd, int efd)
{
	struct hwtimer_eventfd e = { .fd = efd };

	return t_ioctl(fd, HWTIMER_IOC_SET_EVENTFD, &e);
}

TEST_F(ring, setup_reports_the_layout)
{
	struct hwtimer_ring_setup rs = { .entries = 256, .rec_offset = 1,
					 .rec_stride = 2, .mmap_size = 3 };
	struct hwtimer_info info;

	ASSERT_EQ(0, t_ioctl(self->fd, HWTIMER_IOC_INFO, &info));
	ASSERT_TRUE(info.features & HWTIMER_FEAT_RING);
	/* the out fields are not read */
	ASSERT_EQ(0, t_ioctl(self->fd, HWTIMER_IOC_RING_SETUP, &rs));
	EXPECT_EQ(4096, rs.rec_offset);
	EXPECT_EQ(64, rs.rec_stride);
	EXPECT_LE(sizeof(struct hwtimer_record), rs.rec_stride);
	EXPECT_EQ(4096 + 256 * 64, rs.mmap_size);
}

TEST_F(ring, setup_refuses_bad_entries)
{
	struct hwtimer_ring_setup rs;

	EXPECT_EQ(-EINVAL, setup_ioctl(self->fd, 0, &rs));
	EXPECT_EQ(-EINVAL, setup_ioctl(self->fd, 3, &rs));
	EXPECT_EQ(-EINVAL, setup_ioctl(self->fd, HWTIMER_RING_MAX_ENTRIES * 2, &rs));
	EXPECT_EQ(-EINVAL, setup_ioctl(self->fd, 0x80000001u, &rs));
}

TEST_F(ring, setup_refuses_flags)
{
	struct hwtimer_ring_setup rs = { .entries = 8, .flags = 1 };

	EXPECT_EQ(-EINVAL, t_ioctl(self->fd, HWTIMER_IOC_RING_SETUP, &rs));
}

TEST_F(ring, setup_refuses_a_short_struct)
{
	unsigned long cmd = _IOWR(HWTIMER_IOC_MAGIC, 0x0a, __u64[2]);
	__u64 small[2] = { 8, 0 };

	EXPECT_EQ(-EINVAL, t_ioctl(self->fd, cmd, small));
}

TEST_F(ring, setup_refuses_an_unknown_tail)
{
	struct {
		struct hwtimer_ring_setup rs;
		__u64 tail;
	} big = { .rs.entries = 8, .tail = 1 };
	unsigned long cmd = _IOWR(HWTIMER_IOC_MAGIC, 0x0a, big);

	EXPECT_EQ(-E2BIG, t_ioctl(self->fd, cmd, &big));
	big.tail = 0;
	EXPECT_EQ(0, t_ioctl(self->fd, cmd, &big));
}

TEST_F(ring, setup_refuses_a_bad_pointer)
{
	EXPECT_EQ(-EFAULT, t_ioctl(self->fd, HWTIMER_IOC_RING_SETUP, (void *)8));
}

TEST_F(ring, a_second_setup_is_busy)
{
	struct hwtimer_ring_setup rs;

	ASSERT_EQ(0, setup_ioctl(self->fd, 8, &rs));
	EXPECT_EQ(-EBUSY, setup_ioctl(self->fd, 8, &rs));
	EXPECT_EQ(-EBUSY, setup_ioctl(self->fd, 16, &rs));
}

TEST_F(ring, mmap_and_flush_need_a_ring)
{
	void *p = mmap(NULL, 8192, PROT_READ | PROT_WRITE, MAP_SHARED, self->fd, 0);

	EXPECT_EQ(MAP_FAILED, p);
	EXPECT_EQ(ENODEV, errno);
	EXPECT_EQ(-ENODEV, t_ioctl(self->fd, HWTIMER_IOC_RING_FLUSH, NULL));
}

TEST_F(ring, mmap_refuses_another_length)
{
	struct hwtimer_ring_setup rs;
	void *p;

	ASSERT_EQ(0, setup_ioctl(self->fd, 128, &rs));
	p = mmap(NULL, rs.mmap_size - 4096, PROT_READ, MAP_SHARED, self->fd, 0);
	EXPECT_EQ(MAP_FAILED, p);
	EXPECT_EQ(EINVAL, errno);
	p = mmap(NULL, rs.mmap_size + 4096, PROT_READ, MAP_SHARED, self->fd, 0);
	EXPECT_EQ(MAP_FAILED, p);
	EXPECT_EQ(EINVAL, errno);
}

TEST_F(ring, mmap_refuses_an_offset)
{
	struct hwtimer_ring_setup rs;
	void *p;

	ASSERT_EQ(0, setup_ioctl(self->fd, 128, &rs));
	p = mmap(NULL, rs.mmap_size, PROT_READ, MAP_SHARED, self->fd, 4096);
	EXPECT_EQ(MAP_FAILED, p);
	EXPECT_EQ(EINVAL, errno);
}

TEST_F(ring, mmap_refuses_a_private_mapping)
{
	struct hwtimer_ring_setup rs;
	void *p;

	ASSERT_EQ(0, setup_ioctl(self->fd, 128, &rs));
	p = mmap(NULL, rs.mmap_size, PROT_READ | PROT_WRITE, MAP_PRIVATE,
		 self->fd, 0);
	EXPECT_EQ(MAP_FAILED, p);
	EXPECT_EQ(EINVAL, errno);
}

TEST_F(ring, the_mapping_cannot_grow)
{
	struct hwtimer_ring_setup rs;
	void *p, *q;

	ASSERT_EQ(0, setup_ioctl(self->fd, 64, &rs));
	p = mmap(NULL, rs.mmap_size, PROT_READ | PROT_WRITE, MAP_SHARED, self->fd, 0);
	ASSERT_NE(MAP_FAILED, p);
	q = mremap(p, rs.mmap_size, rs.mmap_size + 4096, MREMAP_MAYMOVE);
	EXPECT_EQ(MAP_FAILED, q);
	EXPECT_EQ(0, munmap(p, rs.mmap_size));
}

/* records land in the ring, in order, and read() has none */
TEST_F(ring, records_land_in_the_ring)
{
	struct hwtimer_record rec, recs[3];
	struct hwtimer_ring *h;
	uint32_t id[3];
	int i;

	ASSERT_EQ(0, hwtimer_ring_setup(self->fd, 16, &self->map));
	h = self->map.hdr;
	EXPECT_EQ(15, h->mask);
	EXPECT_EQ(64, h->rec_stride);
	for (i = 0; i < 3; i++)
		ASSERT_EQ(0, t_add(self->fd, 0, CLOCK_MONOTONIC, (i + 1) * 5 * MS,
				     0, 100 + i, &id[i]));
	ASSERT_EQ(0, wait_prod(h, 3));
	for (i = 0; i < 3; i++) {
		struct hwtimer_record *r = slot(&self->map, i);

		EXPECT_EQ(id[i], r->id);
		EXPECT_EQ(100 + i, r->cookie);
		EXPECT_EQ(CLOCK_MONOTONIC, r->clockid);
		EXPECT_LE(r->deadline, r->fired);
		EXPECT_EQ(0, r->flags);
	}
	EXPECT_EQ(0, h->flags);
	/* a delivered one-shot timer is idle, and read() has nothing */
	EXPECT_EQ(HWTIMER_STATE_IDLE, t_get_state(self->fd, id[0]));
	ASSERT_EQ(0, t_set_nonblock(self->fd));
	EXPECT_EQ(-EAGAIN, t_read(self->fd, &rec, 1));
	EXPECT_EQ(3, hwtimer_ring_harvest(&self->map, recs, 3));
	EXPECT_EQ(id[2], recs[2].id);
	EXPECT_EQ(3, LOAD(&h->cons));
}

/* an AUTOREMOVE timer is gone once its record is in the ring */
TEST_F(ring, autoremove_deletes_on_delivery)
{
	uint32_t id;

	ASSERT_EQ(0, hwtimer_ring_setup(self->fd, 8, &self->map));
	ASSERT_EQ(0, t_add(self->fd, HWTIMER_F_AUTOREMOVE, CLOCK_MONOTONIC,
			     MS, 0, 1, &id));
	ASSERT_EQ(0, wait_prod(self->map.hdr, 1));
	EXPECT_EQ(HWTIMER_REC_REMOVED, slot(&self->map, 0)->flags);
	EXPECT_EQ(-ENOENT, t_get_state(self->fd, id));
}

/*
 * A record in the ring is delivered, read or not: CANCEL returns 0 for its
 * arming, DRAIN leaves it, and the id comes back with the next ADD. The
 * generation tells the ended arming's record from the new timer.
 */
TEST_F(ring, a_record_in_the_ring_is_delivered)
{
	struct hwtimer_op op = {
		.clockid = CLOCK_MONOTONIC, .expires = MS, .cookie = 1,
	};
	struct hwtimer_drain d = { 0 };
	struct hwtimer_record *r;
	uint32_t id, gen;

	ASSERT_EQ(0, hwtimer_ring_setup(self->fd, 8, &self->map));
	ASSERT_EQ(0, t_ioctl(self->fd, HWTIMER_IOC_ADD, &op));
	id = op.id;
	gen = op.gen;
	ASSERT_EQ(0, wait_prod(self->map.hdr, 1));
	r = slot(&self->map, 0);
	EXPECT_EQ(id, r->id);
	EXPECT_EQ(gen, r->gen);
	/* delivered: not "fired, record dropped" (2) */
	EXPECT_EQ(0, t_cancel(self->fd, id));
	EXPECT_EQ(0, t_ioctl(self->fd, HWTIMER_IOC_DRAIN, &d));
	EXPECT_EQ(0, d.count);
	EXPECT_EQ(1, LOAD(&self->map.hdr->prod));
	/* the id again, with another generation */
	op = (struct hwtimer_op){
		.clockid = CLOCK_MONOTONIC, .expires = 3600 * SEC, .cookie = 2,
	};
	ASSERT_EQ(0, t_ioctl(self->fd, HWTIMER_IOC_ADD, &op));
	EXPECT_EQ(id, op.id);
	EXPECT_NE(gen, op.gen);
	EXPECT_EQ(gen, r->gen);
	EXPECT_EQ(1, r->cookie);
}

/* a full ring loses nothing: the rest waits on the queue, in order */
TEST_F(ring, a_full_ring_loses_nothing)
{
	struct hwtimer_record recs[64];
	struct hwtimer_ring *h;
	int n, total = 0, i;
	uint64_t seen = 0;

	ASSERT_EQ(0, hwtimer_ring_setup(self->fd, 4, &self->map));
	h = self->map.hdr;
	ASSERT_EQ(0, add_many(self->fd, 20, 2 * MS, 0));
	while (hwtimer_ring_ready(&self->map) < 4 || !(LOAD(&h->flags) & HWTIMER_RING_QUEUED))
		usleep(1000);
	/* all 20 fired: 4 in the ring, 16 queued */
	for (i = 0; i < 500 && LOAD(&h->queued) < 16; i++)
		usleep(1000);
	EXPECT_EQ(16, LOAD(&h->queued));
	EXPECT_EQ(4, LOAD(&h->prod));
	/* the kernel wrote nothing past the ring's four slots */
	for (i = 4 * 64; i < 4096; i++)
		ASSERT_EQ(0, self->map.recs[i]);
	/* harvest flushes as it goes: every cookie once */
	while (total < 20) {
		n = hwtimer_ring_harvest(&self->map, recs, 3);
		ASSERT_LE(0, n);
		if (!n)
			break;
		for (i = 0; i < n; i++) {
			ASSERT_GT(20, recs[i].cookie);
			EXPECT_EQ(0, seen & (1ULL << recs[i].cookie));
			seen |= 1ULL << recs[i].cookie;
		}
		total += n;
	}
	EXPECT_EQ(20, total);
	EXPECT_EQ((1ULL << 20) - 1, seen);
	EXPECT_EQ(0, LOAD(&h->flags));
}

/* queued records come back through read() too, and that clears the flag */
TEST_F(ring, read_takes_what_was_queued)
{
	struct hwtimer_record recs[16];
	struct hwtimer_ring *h;

	ASSERT_EQ(0, hwtimer_ring_setup(self->fd, 2, &self->map));
	h = self->map.hdr;
	ASSERT_EQ(0, add_many(self->fd, 6, MS, 0));
	while (LOAD(&h->queued) < 4)
		usleep(1000);
	EXPECT_TRUE(LOAD(&h->flags) & HWTIMER_RING_QUEUED);
	EXPECT_EQ(4, t_read(self->fd, recs, 16));
	EXPECT_EQ(0, LOAD(&h->flags));
	/* and the flush has nothing left to move */
	STORE(&h->cons, 2);
	EXPECT_EQ(0, t_ioctl(self->fd, HWTIMER_IOC_RING_FLUSH, NULL));
}

/*
 * HWTIMER_RING_QUEUED says what the queue holds: records queued before the
 * ring was set up wait there, and a CANCEL that drops the last one clears
 * it.
 */
TEST_F(ring, queued_flag_at_setup_and_after_cancel)
{
	uint32_t id;
	int i;

	ASSERT_EQ(0, t_add(self->fd, 0, CLOCK_MONOTONIC, MS, 0, 7, &id));
	for (i = 0; i < 2000 && t_fdinfo_u64(self->fd, "ready") != 1; i++)
		usleep(1000);
	ASSERT_EQ(1ULL, t_fdinfo_u64(self->fd, "ready"));
	ASSERT_EQ(0, hwtimer_ring_setup(self->fd, 64, &self->map));
	EXPECT_TRUE(LOAD(&self->map.hdr->flags) & HWTIMER_RING_QUEUED);
	/* its unread record goes with the arming: result 2 */
	EXPECT_EQ(2, t_cancel(self->fd, id));
	EXPECT_EQ(0ULL, t_fdinfo_u64(self->fd, "ready"));
	EXPECT_EQ(0, LOAD(&self->map.hdr->flags));
}

/* a periodic timer's records keep coming, and a full ring counts overruns */
TEST_F(ring, periodic_timers_rearm_and_count_overruns)
{
	struct hwtimer_record rec[4];
	struct hwtimer_ring *h;
	uint32_t id;
	long state;

	ASSERT_EQ(0, hwtimer_ring_setup(self->fd, 1, &self->map));
	h = self->map.hdr;
	ASSERT_EQ(0, t_add(self->fd, 0, CLOCK_MONOTONIC, 10 * MS, 10 * MS, 9,
			     &id));
	ASSERT_EQ(0, wait_prod(h, 1));
	EXPECT_EQ(HWTIMER_REC_PERIODIC, slot(&self->map, 0)->flags);
	/* the ring is full: the next expiry waits, and periods pass */
	usleep(200 * 1000);
	EXPECT_EQ(1, LOAD(&h->prod));
	EXPECT_TRUE(LOAD(&h->flags) & HWTIMER_RING_QUEUED);
	EXPECT_EQ(HWTIMER_STATE_FIRED, t_get_state(self->fd, id));
	ASSERT_EQ(2, hwtimer_ring_harvest(&self->map, rec, 2));
	EXPECT_EQ(9, rec[1].cookie);
	EXPECT_EQ(HWTIMER_REC_PERIODIC, rec[1].flags);
	EXPECT_LE(5, rec[1].overruns) TH_LOG("%llu overruns",
					     (unsigned long long)rec[1].overruns);
	/* delivered, so re-armed (and maybe fired again since) */
	state = t_get_state(self->fd, id);
	EXPECT_TRUE(state == HWTIMER_STATE_PENDING || state == HWTIMER_STATE_FIRED);
}

/* 10^5 timers, harvested through a small ring, each exactly once */
TEST_F_TIMEOUT(ring, harvests_1e5_timers_exactly_once, 300)
{
	const unsigned int n = 100000;
	struct hwtimer_record recs[256];
	unsigned char *seen = calloc(n, 1);
	unsigned int total = 0, dup = 0, i;
	uint64_t last;
	int got;

	ASSERT_NE(NULL, seen);
	ASSERT_EQ(0, hwtimer_ring_setup(self->fd, 1024, &self->map));
	ASSERT_EQ(0, add_many(self->fd, n, 20 * MS, 0));
	last = t_now_ns(CLOCK_MONOTONIC);
	/* until all are in, or none came for 5 s of the reference's time */
	while (total < n &&
	       t_now_ns(CLOCK_MONOTONIC) - last < (uint64_t)t_ms(5000) * MS) {
		got = hwtimer_ring_harvest(&self->map, recs, 256);
		ASSERT_LE(0, got);
		if (!got) {
			usleep(1000);
			continue;
		}
		last = t_now_ns(CLOCK_MONOTONIC);
		for (i = 0; i < (unsigned int)got; i++) {
			ASSERT_GT(n, recs[i].cookie);
			dup += seen[recs[i].cookie]++;
		}
		total += got;
	}
	EXPECT_EQ(n, total);
	EXPECT_EQ(0, dup);
	free(seen);
}

/* poll() says EPOLLIN while the ring holds records */
TEST_F(ring, poll_sees_the_ring)
{
	struct pollfd pfd = { .fd = self->fd, .events = POLLIN };
	struct hwtimer_record rec;

	ASSERT_EQ(0, hwtimer_ring_setup(self->fd, 8, &self->map));
	EXPECT_EQ(0, poll(&pfd, 1, 0));
	ASSERT_EQ(0, t_add(self->fd, 0, CLOCK_MONOTONIC, MS, 0, 1, NULL));
	EXPECT_EQ(1, poll(&pfd, 1, t_ms(5000)));
	EXPECT_EQ(1, hwtimer_ring_harvest(&self->map, &rec, 1));
	EXPECT_EQ(0, poll(&pfd, 1, 0));
}

/*
 * What the non-blocking eventfd @efd counted, once it is signalled or
 * @wait_ms have gone: a wake-up that is due is waited for, not assumed
 * done after a fixed time.
 */
static uint64_t efd_count(int efd, int wait_ms)
{
	struct pollfd pfd = { .fd = efd, .events = POLLIN };
	uint64_t v = 0;

	if (wait_ms)
		poll(&pfd, 1, wait_ms);

	if (read(efd, &v, sizeof(v)) != sizeof(v))
		return 0;
	return v;
}

/* fire one timer @delay ns from now and wait for its record */
static int fire_one(int fd, struct hwtimer_ring *h, uint32_t prod)
{
	if (t_add(fd, 0, CLOCK_MONOTONIC, 2 * MS, 0, prod, NULL))
		return -1;
	if (wait_prod(h, prod + 1))
		return -1;
	usleep(5000);	/* the wake-up follows the index */
	return 0;
}

/* a ring of 8, and the file's eventfd (non-blocking), returned */
static int ring_with_eventfd(int fd, struct hwtimer_ring_map *map)
{
	int efd = eventfd(0, EFD_NONBLOCK);

	if (efd < 0)
		return -errno;
	if (set_eventfd(fd, efd) || hwtimer_ring_setup(fd, 8, map)) {
		close(efd);
		return -1;
	}
	return efd;
}

/* by default, the file's eventfd only when the consumer had caught up */
TEST_F(ring, wakes_only_a_consumer_that_caught_up)
{
	struct hwtimer_ring *h;
	int efd = ring_with_eventfd(self->fd, &self->map);

	ASSERT_LE(0, efd);
	h = self->map.hdr;
	ASSERT_EQ(0, fire_one(self->fd, h, 0));
	EXPECT_EQ(1, efd_count(efd, t_ms(5000)));
	/* not consumed: the next record wakes no one */
	ASSERT_EQ(0, fire_one(self->fd, h, 1));
	EXPECT_EQ(0, efd_count(efd, 0));
	/* caught up: woken again */
	STORE(&h->cons, 2);
	ASSERT_EQ(0, fire_one(self->fd, h, 2));
	EXPECT_EQ(1, efd_count(efd, t_ms(5000)));
	close(efd);
}

/* HWTIMER_RING_WAKE_AT: woken by the record at that index, not before */
TEST_F(ring, wakes_at_the_index_asked)
{
	struct hwtimer_ring *h;
	int efd = ring_with_eventfd(self->fd, &self->map);

	ASSERT_LE(0, efd);
	h = self->map.hdr;
	STORE(&h->wake_at, 2);
	STORE(&h->wake, HWTIMER_RING_WAKE_AT);
	ASSERT_EQ(0, fire_one(self->fd, h, 0));
	EXPECT_EQ(0, efd_count(efd, 0));
	ASSERT_EQ(0, fire_one(self->fd, h, 1));
	EXPECT_EQ(0, efd_count(efd, 0));
	ASSERT_EQ(0, fire_one(self->fd, h, 2));
	EXPECT_EQ(1, efd_count(efd, t_ms(5000)));
	ASSERT_EQ(0, fire_one(self->fd, h, 3));
	EXPECT_EQ(0, efd_count(efd, 0));
	close(efd);
}

/* HWTIMER_RING_WAKE_NONE: a busy-polling consumer is never woken */
TEST_F(ring, a_busy_poller_is_never_woken)
{
	struct pollfd pfd;
	struct hwtimer_ring *h;
	int efd = ring_with_eventfd(self->fd, &self->map);

	ASSERT_LE(0, efd);
	h = self->map.hdr;
	STORE(&h->wake, HWTIMER_RING_WAKE_NONE);
	ASSERT_EQ(0, fire_one(self->fd, h, 0));
	STORE(&h->cons, 1);
	ASSERT_EQ(0, fire_one(self->fd, h, 1));
	EXPECT_EQ(0, efd_count(efd, 0));
	/* the ring is not empty, so poll() still says so when asked */
	pfd.fd = self->fd;
	pfd.events = POLLIN;
	EXPECT_EQ(1, poll(&pfd, 1, 0));
	close(efd);
}

/* the library's wait: sleeps until a record lands */
TEST_F(ring, the_library_waits_for_records)
{
	struct hwtimer_record rec;

	ASSERT_EQ(0, hwtimer_ring_setup(self->fd, 8, &self->map));
	EXPECT_EQ(0, hwtimer_ring_wait(&self->map, 0));
	ASSERT_EQ(0, t_add(self->fd, 0, CLOCK_MONOTONIC, 10 * MS, 0, 5, NULL));
	EXPECT_EQ(1, hwtimer_ring_wait(&self->map, 5000));
	ASSERT_EQ(1, hwtimer_ring_harvest(&self->map, &rec, 1));
	EXPECT_EQ(5, rec.cookie);
}

/* /proc/PID/fdinfo shows the ring */
TEST_F(ring, fdinfo_shows_the_ring)
{
	char path[64], buf[4096];

	ASSERT_EQ(0, hwtimer_ring_setup(self->fd, 32, &self->map));
	snprintf(path, sizeof(path), "/proc/self/fdinfo/%d", self->fd);
	ASSERT_LT(0, t_read_file(path, buf, sizeof(buf)));
	EXPECT_NE(NULL, strstr(buf, "ring_entries:\t32\n"));
	EXPECT_NE(NULL, strstr(buf, "ring_queued:\t0\n"));
}

HWT_HARNESS_MAIN
