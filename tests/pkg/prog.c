// SPDX-License-Identifier: GPL-2.0
/*
 * What a user of the Debian packages writes: tests/vm/pkg_check.sh builds
 * it in its chroot against libhwtimer-dev, with
 *	cc prog.c $(pkg-config --cflags --libs hwtimer)
 * so linked against libhwtimer.so.1, and pkg_test.sh runs it in a stock
 * guest on the module DKMS built there. It arms a 10 ms timer and reads
 * its record; it fails if anything is off.
 */
#include <stdio.h>
#include <libhwtimer.h>

int main(void)
{
	struct hwtimer_info info;
	struct hwtimer_record rec;
	int fd, id, n;

	/* the library it runs with is at least the one it was built against */
	if (!hwtimer_version_at_least(LIBHWTIMER_VERSION_MAJOR,
				      LIBHWTIMER_VERSION_MINOR)) {
		fprintf(stderr, "built against libhwtimer %s, running %d.%d\n",
			LIBHWTIMER_VERSION, hwtimer_major_version(),
			hwtimer_minor_version());
		return 1;
	}
	fd = hwtimer_open(HWTIMER_OPEN_CLOEXEC);
	if (fd < 0) {
		fprintf(stderr, "hwtimer_open: %s\n", hwtimer_strerror(fd));
		return 1;
	}
	n = hwtimer_info(fd, &info);
	if (n < 0) {
		fprintf(stderr, "hwtimer_info: %s\n", hwtimer_strerror(n));
		return 1;
	}
	id = hwtimer_add(fd, CLOCK_MONOTONIC, 10 * 1000000ULL, 0, 0, 42);
	if (id < 0) {
		fprintf(stderr, "hwtimer_add: %s\n", hwtimer_strerror(id));
		return 1;
	}
	n = hwtimer_read(fd, &rec, 1);
	if (n != 1 || rec.id != (unsigned int)id || rec.cookie != 42 ||
	    rec.fired < rec.deadline) {
		fprintf(stderr, "hwtimer_read: %d, id %u, cookie %llu\n", n,
			rec.id, (unsigned long long)rec.cookie);
		return 1;
	}
	printf("libhwtimer %s (running %d.%d), module API %u, tick %llu ns: "
	       "timer %d fired %llu ns after its deadline\n", LIBHWTIMER_VERSION,
	       hwtimer_major_version(), hwtimer_minor_version(),
	       info.api_version, (unsigned long long)info.tick_ns, id,
	       (unsigned long long)(rec.fired - rec.deadline));
	return 0;
}
