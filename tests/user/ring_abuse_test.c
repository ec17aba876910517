// SPDX-License-Identifier: GPL-2.0
/*
 * /dev/hwtimer: an expiry ring whose consumer misbehaves. One scribbles
 * over the whole header while timers expire, one unmaps the ring under
 * them, one forks with it mapped, one closes the file and keeps the
 * mapping, one paces 1 us periodic timers with plain stores to @cons.
 * Run on the KASAN kernel, where an access out of bounds is a splat that
 * fails the run; and nothing may be lost.
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <sys/mman.h>
#include <sys/wait.h>

#include "kselftest_harness.h"
#include "helpers.h"
#include "libhwtimer.h"
#include "ring_fixture.h"

HWT_RING_FIXTURE(ring_abuse)

/* the kernel's own producer index, from /proc/self/fdinfo; -1 if none */
static long kernel_prod(int fd)
{
	return (long)t_fdinfo_u64(fd, "ring_prod");
}

struct scribbler {
	struct hwtimer_ring *h;
	int fd;
	volatile int stop;
};

static void *scribble(void *arg)
{
	struct scribbler *s = arg;
	uint32_t x = 12345, good = 0;

	while (!s->stop) {
		x = x * 1103515245 + 12345;
		/* where the kernel really is: the header may say otherwise */
		if (!(x & 0x3f))
			good = kernel_prod(s->fd);
		switch (x >> 28) {
		case 0: STORE(&s->h->cons, x); break;
		case 1: STORE(&s->h->cons, good + (x & 7)); break;
		case 2: STORE(&s->h->cons, good - (x & 0xffff)); break;
		case 3: STORE(&s->h->wake, x); break;
		case 4: STORE(&s->h->wake_at, x); break;
		case 5: STORE(&s->h->prod, x); break;
		case 6: STORE(&s->h->mask, x); break;
		case 7: STORE(&s->h->flags, x); break;
		/* half the time, a consumer that keeps up: the kernel writes */
		default: STORE(&s->h->cons, good); break;
		}
		if (!(x & 0xff))
			usleep(100);
	}
	return NULL;
}

/*
 * A consumer that writes garbage into the header while timers expire: the
 * kernel must stay inside the ring (KASAN watches), and nothing is lost.
 */
TEST_F(ring_abuse, garbage_in_the_header_stays_in_bounds)
{
	struct scribbler s = { .stop = 0 };
	struct hwtimer_record recs[64];
	unsigned int total = 0;
	pthread_t th;
	long prod;
	int n, i;

	ASSERT_EQ(0, hwtimer_ring_setup(self->fd, 16, &self->map));
	s.h = self->map.hdr;
	s.fd = self->fd;
	ASSERT_EQ(0, pthread_create(&th, NULL, scribble, &s));
	for (i = 0; i < 20; i++) {
		ASSERT_EQ(0, add_many(self->fd, 200, (i % 4) * MS, i * 200));
		usleep(5000);
		t_ioctl(self->fd, HWTIMER_IOC_RING_FLUSH, NULL);
	}
	/* every timer fires while the header is garbage (a slow guest: 10 s) */
	for (i = 0; i < 1000 && t_fdinfo_u64(self->fd, "pending"); i++)
		usleep(10 * 1000);
	EXPECT_EQ(0, t_fdinfo_u64(self->fd, "pending"));
	s.stop = 1;
	pthread_join(th, NULL);
	/*
	 * The kernel's own state is intact: take its index from t_fdinfo (the
	 * header's was scribbled over) and consume up to it
	 */
	prod = kernel_prod(self->fd);
	ASSERT_LE(0, prod);
	STORE(&s.h->wake, 0);
	STORE(&s.h->cons, (uint32_t)prod);
	/* a flush writes the kernel's fields of the header again */
	EXPECT_LE(0, t_ioctl(self->fd, HWTIMER_IOC_RING_FLUSH, NULL));
	EXPECT_EQ(15, LOAD(&s.h->mask));
	EXPECT_EQ(self->map.stride, LOAD(&s.h->rec_stride));
	EXPECT_EQ(kernel_prod(self->fd), LOAD(&s.h->prod));
	while ((n = hwtimer_ring_harvest(&self->map, recs, 64)) > 0) {
		for (i = 0; i < n; i++)
			EXPECT_GT(4000, recs[i].cookie);
		total += n;
	}
	EXPECT_LE(0, n);
	/* nothing is left fired and undelivered */
	EXPECT_EQ(0, LOAD(&s.h->flags) & HWTIMER_RING_QUEUED);
	EXPECT_EQ(0, t_ioctl(self->fd, HWTIMER_IOC_RING_FLUSH, NULL));
	/* the kernel did write while the header was garbage */
	EXPECT_LT(0, prod);
	TH_LOG("%u records after the scribbling, kernel index %ld", total, prod);
}

struct unmapper {
	int fd;
	size_t size;
	volatile int stop;
	unsigned long maps;
	unsigned long records;
};

static void *map_unmap(void *arg)
{
	struct unmapper *u = arg;

	while (!u->stop) {
		struct hwtimer_ring *h = mmap(NULL, u->size, PROT_READ | PROT_WRITE,
					      MAP_SHARED, u->fd, 0);
		uint32_t prod;

		if (h == MAP_FAILED)
			break;
		prod = LOAD(&h->prod);
		u->records += prod - h->cons;
		STORE(&h->cons, prod);
		munmap(h, u->size);
		u->maps++;
	}
	return NULL;
}

/* munmap() racing expiry: the kernel writes through its own mapping */
TEST_F(ring_abuse, munmap_races_expiry)
{
	struct unmapper u = { .fd = self->fd };
	struct hwtimer_record recs[64];
	struct hwtimer_ring_setup rs;
	pthread_t th;
	int i, n;

	ASSERT_EQ(0, setup_ioctl(self->fd, 64, &rs));
	u.size = rs.mmap_size;
	ASSERT_EQ(0, pthread_create(&th, NULL, map_unmap, &u));
	for (i = 0; i < 20; i++) {
		ASSERT_EQ(0, add_many(self->fd, 100, (i % 3) * MS, 0));
		usleep(5000);
	}
	usleep(50 * 1000);
	u.stop = 1;
	pthread_join(th, NULL);
	EXPECT_LT(0, u.maps);
	/* mapped again, the ring has the rest: 2,000 records in all, once */
	self->map.hdr = mmap(NULL, u.size, PROT_READ | PROT_WRITE, MAP_SHARED,
			     self->fd, 0);
	ASSERT_NE(MAP_FAILED, self->map.hdr);
	self->map.recs = (unsigned char *)self->map.hdr + rs.rec_offset;
	self->map.mask = 63;
	self->map.stride = rs.rec_stride;
	self->map.size = u.size;
	self->map.fd = self->fd;
	while ((n = hwtimer_ring_harvest(&self->map, recs, 64)) > 0)
		u.records += n;
	EXPECT_EQ(2000, u.records);
}

/*
 * Periodic record timers of 1 us whose records go to the ring, and a
 * consumer that only stores @cons: the passes re-arm them at most
 * max_rearms_per_user times a second, as NO_RECORD ones; past that their
 * records wait on the queue, and a FLUSH delivers them and re-arms.
 */
TEST_F_TIMEOUT(ring_abuse, cons_stores_do_not_pace_a_rearm_storm, 120)
{
	const unsigned int n = 200, cap = 1000;
	long long old = t_param_set("max_rearms_per_user", cap);
	unsigned long long fired, later;
	uint64_t end;
	unsigned int i;

	ASSERT_LE(0, old);
	ASSERT_EQ(0, hwtimer_ring_setup(self->fd, 4096, &self->map));
	for (i = 0; i < n; i++)
		ASSERT_EQ(0, t_add(self->fd, 0, CLOCK_MONOTONIC, MS, 1000, i, NULL));
	end = t_now_ns(CLOCK_MONOTONIC) + 2 * SEC;
	while (t_now_ns(CLOCK_MONOTONIC) < end) {
		STORE(&self->map.hdr->cons, LOAD(&self->map.hdr->prod));
		usleep(10 * 1000);
	}
	fired = t_fdinfo_u64(self->fd, "fired");
	TH_LOG("%u timers of 1 us, 2 s of cons stores: %llu expiries, %llu queued",
	       n, fired, t_fdinfo_u64(self->fd, "ready"));
	/* the first expiry of each, and at most the cap in each second begun */
	EXPECT_GE(n + 3ULL * cap, fired);
	EXPECT_LT(0ULL, t_fdinfo_u64(self->fd, "ready"));
	EXPECT_NE(0U, LOAD(&self->map.hdr->flags) & HWTIMER_RING_QUEUED);
	/* a FLUSH, paid for by a system call, delivers them and re-arms */
	STORE(&self->map.hdr->cons, LOAD(&self->map.hdr->prod));
	EXPECT_LE(0, t_ioctl(self->fd, HWTIMER_IOC_RING_FLUSH, NULL));
	usleep(100 * 1000);
	later = t_fdinfo_u64(self->fd, "fired");
	EXPECT_LT(fired, later);
	t_param_set("max_rearms_per_user", old);
}

/* fork() shares the mapping: the child consumes, the parent sees it */
TEST_F(ring_abuse, fork_shares_the_ring)
{
	struct hwtimer_ring *h;
	int status;
	pid_t pid;

	ASSERT_EQ(0, hwtimer_ring_setup(self->fd, 8, &self->map));
	h = self->map.hdr;
	ASSERT_EQ(0, add_many(self->fd, 3, MS, 40));
	ASSERT_EQ(0, wait_prod(h, 3));
	pid = fork();
	ASSERT_LE(0, pid);
	if (!pid) {
		struct hwtimer_record recs[8];
		int n = hwtimer_ring_harvest(&self->map, recs, 8);

		/* and the child's own timers land in the same ring */
		if (n != 3 || recs[0].cookie != 40 ||
		    t_add(self->fd, 0, CLOCK_MONOTONIC, MS, 0, 50, NULL) ||
		    wait_prod(h, 4))
			_exit(1);
		_exit(0);
	}
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	EXPECT_EQ(0, WEXITSTATUS(status));
	EXPECT_EQ(3, LOAD(&h->cons));
	EXPECT_EQ(4, LOAD(&h->prod));
	EXPECT_EQ(50, slot(&self->map, 3)->cookie);
}

/* the mapping outlives close(); the last munmap() frees the ring */
TEST_F(ring_abuse, the_mapping_outlives_close)
{
	struct hwtimer_ring *h;

	ASSERT_EQ(0, hwtimer_ring_setup(self->fd, 8, &self->map));
	h = self->map.hdr;
	ASSERT_EQ(0, add_many(self->fd, 2, MS, 7));
	ASSERT_EQ(0, wait_prod(h, 2));
	close(self->fd);
	self->fd = t_open();
	EXPECT_EQ(2, LOAD(&h->prod));
	EXPECT_EQ(8, slot(&self->map, 1)->cookie);
}

HWT_HARNESS_MAIN
