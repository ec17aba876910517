/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Helpers for hwtimer's userspace tests: thin wrappers over the raw ioctls
 * (the tests exercise the uapi itself, not a library). Each returns the
 * ioctl's result, or -errno. Their names start with t_, as liburing's
 * test/helpers.h does, so that none is taken for a function of the
 * module or of libhwtimer.
 */
#ifndef _HWT_TEST_HELPERS_H
#define _HWT_TEST_HELPERS_H

#include <errno.h>
#include <fcntl.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include <linux/hwtimer.h>

#include "need_device.h"
#include "pace.h"

#define MS	1000000ULL
#define SEC	1000000000ULL

static inline int t_open(void)
{
	return open("/dev/hwtimer", O_RDWR | O_CLOEXEC);
}

static inline long t_ioctl(int fd, unsigned long cmd, void *arg)
{
	long ret = ioctl(fd, cmd, arg);

	return ret < 0 ? -errno : ret;
}

static inline __u64 t_now_ns(clockid_t clk)
{
	struct timespec ts;

	clock_gettime(clk, &ts);
	return ts.tv_sec * SEC + ts.tv_nsec;
}

/* Pin the calling thread to CPU @cpu (below 64); 0 or -errno. */
static inline int t_pin_cpu(unsigned int cpu)
{
	unsigned long mask = 1UL << cpu;

	return syscall(SYS_sched_setaffinity, 0, sizeof(mask), &mask) ?
	       -errno : 0;
}

/* the flag an ADD on @clk needs: HWTIMER_F_REALTIME for CLOCK_REALTIME */
#define HWT_CLOCK_FLAGS(clk)	((clk) == CLOCK_REALTIME ? HWTIMER_F_REALTIME : 0)

/*
 * ADD a timer; on success *id is set. CLOCK_REALTIME takes
 * HWTIMER_F_REALTIME too, as the uapi asks.
 */
static inline long t_add(int fd, __u32 flags, clockid_t clk,
			 __u64 expires, __u64 period, __u64 cookie,
			   __u32 *id)
{
	struct hwtimer_op op = {
		.flags = flags | HWT_CLOCK_FLAGS(clk),
		.clockid = clk, .expires = expires,
		.period = period, .cookie = cookie,
	};
	long ret = t_ioctl(fd, HWTIMER_IOC_ADD, &op);

	if (!ret && id)
		*id = op.id;
	return ret;
}

static inline long t_add_efd(int fd, __u32 flags, __u64 expires,
			     __u64 period, int efd, __u32 *id)
{
	struct hwtimer_op op = {
		.flags = flags | HWTIMER_F_EVENTFD, .clockid = CLOCK_MONOTONIC,
		.expires = expires, .period = period, .eventfd = efd,
	};
	long ret = t_ioctl(fd, HWTIMER_IOC_ADD, &op);

	if (!ret && id)
		*id = op.id;
	return ret;
}

static inline long t_mod(int fd, __u32 id, __u32 flags,
			 __u64 expires, __u64 period, __u32 *gen)
{
	struct hwtimer_op op = {
		.id = id, .flags = flags, .expires = expires, .period = period,
	};
	long ret = t_ioctl(fd, HWTIMER_IOC_MOD, &op);

	if (ret >= 0 && gen)
		*gen = op.gen;
	return ret;
}

static inline long t_cancel(int fd, __u32 id)
{
	struct hwtimer_op op = { .id = id };

	return t_ioctl(fd, HWTIMER_IOC_CANCEL, &op);
}

static inline long t_get(int fd, __u32 id, struct hwtimer_get *g)
{
	memset(g, 0, sizeof(*g));
	g->id = id;
	return t_ioctl(fd, HWTIMER_IOC_GET, g);
}

/* A timer's HWTIMER_STATE_*, or -errno. */
static inline long t_get_state(int fd, __u32 id)
{
	struct hwtimer_get g;
	long ret = t_get(fd, id, &g);

	return ret ? ret : (long)g.state;
}

/* read() records; returns how many, or -errno. */
static inline long t_read(int fd, struct hwtimer_record *recs, size_t n)
{
	ssize_t ret = read(fd, recs, n * sizeof(*recs));

	return ret < 0 ? -errno : ret / (long)sizeof(*recs);
}

static inline long t_set_nonblock(int fd)
{
	return fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK) ? -errno : 0;
}

/* The file has no timers and no records: errors changed nothing. */
static inline int t_file_is_empty(int fd)
{
	struct hwtimer_drain d = { 0 };
	struct hwtimer_record r;
	int fl = fcntl(fd, F_GETFL);
	long n;

	fcntl(fd, F_SETFL, fl | O_NONBLOCK);
	n = t_read(fd, &r, 1);
	fcntl(fd, F_SETFL, fl);
	return n == -EAGAIN && t_ioctl(fd, HWTIMER_IOC_DRAIN, &d) == 0 &&
	       d.count == 0 && d.remaining == 0;
}

/*
 * Where a limit of the module is set: its parameter in sysfs or, for the
 * per-user limits of a kernel that counts them in its ucounts (the
 * in-tree build), the initial user namespace's sysctl.
 */
static inline void t_param_path(char *path, size_t len, const char *name)
{
	static const char *const sysctl[][2] = {
		{ "max_timers_per_user", "/proc/sys/user/max_hwtimer_timers" },
		{ "max_files_per_user", "/proc/sys/user/max_hwtimer_files" },
	};
	unsigned int i;

	snprintf(path, len, "/sys/module/hwtimer/parameters/%s", name);
	if (!access(path, F_OK))
		return;
	for (i = 0; i < ARRAY_SIZE(sysctl); i++)
		if (!strcmp(name, sysctl[i][0]) && !access(sysctl[i][1], F_OK))
			snprintf(path, len, "%s", sysctl[i][1]);
}

/* Set a limit of the module (t_param_path()); returns the old value. */
static inline long long t_param_set(const char *name, long long v)
{
	char path[128];
	long long old = -1;
	FILE *f;

	t_param_path(path, sizeof(path), name);
	f = fopen(path, "r");
	if (!f || fscanf(f, "%lld", &old) != 1)
		old = -1;
	if (f)
		fclose(f);
	f = fopen(path, "w");
	if (f) {
		fprintf(f, "%lld", v);
		fclose(f);
	}
	return old;
}

/* Files of sysfs, tracefs and procfs */

#define SYSFS	"/sys/class/misc/hwtimer"
#define TRACEFS	"/sys/kernel/tracing"

/* Read a file into @buf, NUL-terminated; its length, or -errno. */
static inline int t_read_file(const char *path, char *buf, size_t len)
{
	FILE *f = fopen(path, "r");
	size_t n;

	if (!f)
		return -errno;
	n = fread(buf, 1, len - 1, f);
	buf[n] = 0;
	fclose(f);
	return (int)n;
}

static inline int t_write_file(const char *path, const char *s)
{
	FILE *f = fopen(path, "w");
	int ret = 0;

	if (!f)
		return -errno;
	if (fputs(s, f) < 0)
		ret = -EIO;
	if (fclose(f))
		ret = -errno;
	return ret;
}

static inline unsigned long long t_sysfs_u64(const char *name)
{
	char path[256], buf[64];

	snprintf(path, sizeof(path), SYSFS "/%s", name);
	if (t_read_file(path, buf, sizeof(buf)) <= 0)
		return ~0ULL;
	return strtoull(buf, NULL, 10);
}

/* A "key:\tvalue" line of this process's fdinfo for @fd. */
static inline int t_fdinfo(int fd, const char *key, char *val, size_t len)
{
	char path[64], line[1024];
	size_t klen = strlen(key);
	FILE *f;
	int ret = -ENOENT;

	snprintf(path, sizeof(path), "/proc/self/fdinfo/%d", fd);
	f = fopen(path, "r");
	if (!f)
		return -errno;
	while (fgets(line, sizeof(line), f)) {
		if (strncmp(line, key, klen) || line[klen] != ':')
			continue;
		snprintf(val, len, "%s", line + klen + 1 + strspn(line + klen + 1, " \t"));
		val[strcspn(val, "\n")] = 0;
		ret = 0;
		break;
	}
	fclose(f);
	return ret;
}

static inline unsigned long long t_fdinfo_u64(int fd, const char *key)
{
	char v[512];

	return t_fdinfo(fd, key, v, sizeof(v)) ? ~0ULL : strtoull(v, NULL, 10);
}

/*
 * What a file, and each timer base it sets up (one per clock its timers
 * use; a CLOCK_REALTIME timer uses CLOCK_MONOTONIC's too), count against
 * max_timers_per_user besides its timers, in timers: fdinfo's "charged"
 * of a file of our own, with no timer, then with one. Both 0 from a module
 * that counts neither (it shows no "charged"). Measured the first time,
 * within the caller's budget, which must allow a file and a base: call it
 * before a case sets a small one.
 */
struct t_costs {
	unsigned long long file;
	unsigned long long base;
};

static inline struct t_costs t_costs(void)
{
	static struct t_costs c;
	static int measured;
	unsigned long long with;
	int fd;

	if (measured)
		return c;
	fd = t_open();
	if (fd < 0)
		return c;
	c.file = t_fdinfo_u64(fd, "charged");
	if (c.file == ~0ULL) {
		c.file = 0;
		measured = 1;
	} else if (!t_add(fd, 0, CLOCK_MONOTONIC, 3600 * SEC, 0, 0, NULL)) {
		with = t_fdinfo_u64(fd, "charged");
		/* the timer's entry is the last unit */
		c.base = with - c.file - 1;
		measured = 1;
	}
	close(fd);
	return c;
}

/*
 * A max_timers_per_user that holds @files files, @bases bases (over all of
 * them) and @timers timers: the budget a case of N timers sets.
 */
static inline long long t_budget(unsigned int files, unsigned int bases,
				 unsigned long long timers)
{
	struct t_costs c = t_costs();

	return files * c.file + bases * c.base + timers;
}

#endif /* _HWT_TEST_HELPERS_H */
