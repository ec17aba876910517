/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the expiry ring's suites (ring_test, ring_abuse_test) share: the
 * fixture, one open /dev/hwtimer with a ring map, named after each suite,
 * and helpers to set a
 * ring up, reach its slots and fire timers into it. Include it once, after
 * kselftest_harness.h, helpers.h and libhwtimer.h.
 */
#ifndef _HWT_RING_FIXTURE_H
#define _HWT_RING_FIXTURE_H

#define LOAD(p)		__atomic_load_n((p), __ATOMIC_ACQUIRE)
#define STORE(p, v)	__atomic_store_n((p), (v), __ATOMIC_RELEASE)

static long setup_ioctl(int fd, uint32_t entries, struct hwtimer_ring_setup *rs)
{
	memset(rs, 0, sizeof(*rs));
	rs->entries = entries;
	return t_ioctl(fd, HWTIMER_IOC_RING_SETUP, rs);
}

/* record slot @i of a mapped ring (its layout as the setup reported it) */
static struct hwtimer_record *slot(const struct hwtimer_ring_map *m, uint32_t i)
{
	return (void *)(m->recs + (size_t)(i & m->mask) * m->stride);
}

/* wait until the ring's producer index reaches @n, up to 5 s */
static int wait_prod(struct hwtimer_ring *h, uint32_t n)
{
	int i;

	for (i = 0; i < 5000; i++) {
		if (LOAD(&h->prod) - n < 0x80000000u)
			return 0;
		usleep(1000);
	}
	return -1;
}

/* add @n one-shot timers due in @delay ns, with cookies base..base+n-1 */
static int add_many(int fd, unsigned int n, uint64_t delay, uint64_t base)
{
	struct hwtimer_vec v;
	unsigned int i;
	int ret;

	if (hwtimer_vec_init(&v, 4096))
		return -ENOMEM;
	for (i = 0; i < n; i++) {
		hwtimer_vec_add(&v, CLOCK_MONOTONIC, delay, 0, 0, base + i);
		if (v.count == v.capacity || i == n - 1) {
			ret = hwtimer_vec_submit(fd, &v, 0);
			if (ret != (int)v.count) {
				hwtimer_vec_free(&v);
				return ret < 0 ? ret : -EIO;
			}
			hwtimer_vec_reset(&v);
		}
	}
	hwtimer_vec_free(&v);
	return 0;
}

/* The fixture, named after the suite that uses it: HWT_RING_FIXTURE(ring). */
#define HWT_RING_FIXTURE(name)						\
FIXTURE(name) {								\
	int fd;								\
	struct hwtimer_ring_map map;					\
};									\
									\
FIXTURE_SETUP(name)							\
{									\
	if (!hwt_device_present())							\
		SKIP(return, HWT_NO_DEVICE);						\
	self->fd = t_open();						\
	ASSERT_LE(0, self->fd);						\
	memset(&self->map, 0, sizeof(self->map));			\
}									\
									\
FIXTURE_TEARDOWN(name)							\
{									\
	hwtimer_ring_unmap(&self->map);					\
	close(self->fd);						\
}

#endif /* _HWT_RING_FIXTURE_H */
