// SPDX-License-Identifier: GPL-2.0
/*
 * Unprivileged users: any user may use /dev/hwtimer (mode 0666, as anyone
 * may create a timerfd), within the per-user limit, which gives EDQUOT past
 * it; one user's limit is not another's; no user reaches another's timers;
 * and only root may change the limits; a user's files count against a
 * limit of their own (EMFILE); an expiry ring's record slots count as
 * timers against the same limit (EDQUOT), not against RLIMIT_MEMLOCK, and
 * a failed set-up gives them back; and the uids of a user namespace share
 * the limits of the user who created it. Each case forks a child that
 * drops to an unprivileged uid; the parent (root) sets the limit around it.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <liburing.h>
#include <sched.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/resource.h>

#include "kselftest_harness.h"
#include "helpers.h"
#include "libhwtimer.h"
#include "as_user.h"

FIXTURE(unpriv) {
	long long old_limit;
};

FIXTURE_SETUP(unpriv)
{
	if (!hwt_device_present())
		SKIP(return, HWT_NO_DEVICE);
	if (geteuid())
		SKIP(return, "needs root to switch users");
	/* 5 timers, over at most two files with a base each */
	self->old_limit = t_param_set("max_timers_per_user", t_budget(2, 2, 5));
	ASSERT_NE(-1, self->old_limit);
}

FIXTURE_TEARDOWN(unpriv)
{
	if (!geteuid())
		t_param_set("max_timers_per_user", self->old_limit);
}

/* 5 timers, then EDQUOT, over two files of the same user */
static int use_within_limit(void *arg)
{
	int a = t_open(), b = t_open(), i;
	struct hwtimer_record r;

	if (a < 0 || b < 0)
		return 1;
	for (i = 0; i < 3; i++)
		if (t_add(a, 0, CLOCK_MONOTONIC, 10 * SEC, 0, 0, NULL))
			return 2;
	for (i = 0; i < 2; i++)
		if (t_add(b, 0, CLOCK_MONOTONIC, 10 * SEC, 0, 0, NULL))
			return 3;
	if (t_add(a, 0, CLOCK_MONOTONIC, 10 * SEC, 0, 0, NULL) != -EDQUOT ||
	    t_add(b, 0, CLOCK_MONOTONIC, 10 * SEC, 0, 0, NULL) != -EDQUOT)
		return 4;
	/* a cancel gives one back, and the timer it allows fires */
	if (t_ioctl(b, HWTIMER_IOC_DRAIN, &(struct hwtimer_drain){ 0 }))
		return 5;
	if (t_add(b, 0, CLOCK_MONOTONIC, MS, 0, 0, NULL) || t_read(b, &r, 1) != 1)
		return 6;
	return 0;
}

TEST_F(unpriv, user_works_within_its_limit_and_gets_edquot_past_it)
{
	EXPECT_EQ(0, as_user(UID_A, use_within_limit, NULL));
}

/* holds 5 timers, then waits for the parent's word on a pipe */
static int hold_five(void *arg)
{
	int *p = arg, fd = t_open(), i;
	char c;

	for (i = 0; i < 5; i++)
		if (t_add(fd, 0, CLOCK_MONOTONIC, 10 * SEC, 0, 0, NULL))
			return 1;
	if (write(p[1], "x", 1) != 1 || read(p[0], &c, 1) != 1)
		return 2;
	return 0;
}

static int five_more(void *arg)
{
	int fd = t_open(), i;

	for (i = 0; i < 5; i++)
		if (t_add(fd, 0, CLOCK_MONOTONIC, 10 * SEC, 0, 0, NULL))
			return 1;
	return 0;
}

TEST_F(unpriv, one_users_limit_is_not_anothers)
{
	int up[2], down[2], status;
	pid_t pid;
	char c;

	ASSERT_EQ(0, pipe(up));
	ASSERT_EQ(0, pipe(down));
	pid = fork();
	ASSERT_LE(0, pid);
	if (!pid) {
		int p[2] = { down[0], up[1] };

		_exit(become(UID_A) ? 100 : hold_five(p));
	}
	/* our ends only: a child that dies early gives EOF, not a hang */
	close(up[1]);
	close(down[0]);
	ASSERT_EQ(1, read(up[0], &c, 1));
	/* A is at its limit; B still has all of its own */
	EXPECT_EQ(0, as_user(UID_B, five_more, NULL));
	ASSERT_EQ(1, write(down[1], "x", 1));
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	EXPECT_EQ(0, WEXITSTATUS(status));
}

/* the ids another user's file holds mean nothing on this user's file */
static int touch_ids(void *arg)
{
	uint32_t id = *(uint32_t *)arg;
	struct hwtimer_get g;
	int fd = t_open();

	if (fd < 0)
		return 1;
	if (t_get(fd, id, &g) != -ENOENT || t_cancel(fd, id) != -ENOENT ||
	    t_mod(fd, id, 0, MS, 0, NULL) != -ENOENT)
		return 2;
	return 0;
}

TEST_F(unpriv, no_user_reaches_anothers_timers)
{
	struct hwtimer_get g;
	uint32_t id;
	int fd = t_open();

	ASSERT_LE(0, fd);
	ASSERT_EQ(0, t_add(fd, 0, CLOCK_MONOTONIC, 10 * SEC, 0, 0, &id));
	EXPECT_EQ(0, as_user(UID_A, touch_ids, &id));
	EXPECT_EQ(0, t_get(fd, id, &g));
	EXPECT_EQ(HWTIMER_STATE_PENDING, g.state);
	close(fd);
}

/* open files until EMFILE: the limit of 3 is the user's, not a file's */
static int open_past_limit(void *arg)
{
	int fd[4], i;

	for (i = 0; i < 3; i++) {
		fd[i] = t_open();
		if (fd[i] < 0)
			return 1;
	}
	fd[3] = t_open();
	if (fd[3] >= 0 || errno != EMFILE)
		return 2;
	/* one closed, one more may open */
	close(fd[0]);
	fd[0] = t_open();
	return fd[0] < 0 ? 3 : 0;
}

TEST_F(unpriv, files_past_the_users_limit_emfile)
{
	long long old = t_param_set("max_files_per_user", 3);
	struct hwtimer_info info;
	int fd = t_open();

	ASSERT_NE(-1, old);
	ASSERT_LE(0, fd);
	ASSERT_EQ(0, t_ioctl(fd, HWTIMER_IOC_INFO, &info));
	EXPECT_EQ(3U, info.max_files_per_user);
	/* root has one open: A has all three of its own */
	EXPECT_EQ(0, as_user(UID_A, open_past_limit, NULL));
	close(fd);
	t_param_set("max_files_per_user", old);
}

/* ADDs on @fd until one fails; how many succeeded, or -1 if not EDQUOT */
static long add_until_edquot(int fd)
{
	long n = 0, ret;

	while (!(ret = t_add(fd, 0, CLOCK_MONOTONIC, 60 * SEC, 0, 0, NULL)))
		n++;
	return ret == -EDQUOT ? n : -1;
}

/*
 * As A: a file's table counts by its slots (fdinfo's id_slots says how
 * many it has), a timer's or free, but for a page's worth of free ones
 * (102), for as long as the file keeps it. File a grows its table past
 * 4,096 slots and keeps one timer. With the limit then set (through a
 * descriptor root opened) to what the user holds (fdinfo's user_charged:
 * the files, a's base and table) plus b's base and 1,000, file b, whose
 * table stays small, gets exactly 1,000 timers. Once a is empty, its table
 * and timer are given back, and b gets that many more.
 */
static int ids_count_against_the_limit(void *arg)
{
	int limit = *(int *)arg, a = t_open(), b = t_open(), i;
	struct hwtimer_drain d = { 0 };
	unsigned long long slots, held, user;
	char v[32];

	if (a < 0 || b < 0)
		return 1;
	for (i = 0; i < 4097; i++)
		if (t_add(a, 0, CLOCK_MONOTONIC, 60 * SEC, 0, 0, NULL))
			return 2;
	for (i = 1; i <= 4096; i++)
		if (t_cancel(a, i) != 1)
			return 3;
	slots = t_fdinfo_u64(a, "id_slots");
	if (slots <= 4096 || slots == ~0ULL)
		return 4;
	held = slots - 102;
	user = t_fdinfo_u64(a, "user_charged");
	if (user == ~0ULL)
		user = held;
	snprintf(v, sizeof(v), "%llu", user + t_costs().base + 1000);
	if (pwrite(limit, v, strlen(v), 0) != (ssize_t)strlen(v))
		return 5;
	if (add_until_edquot(b) != 1000)
		return 6;
	if (t_ioctl(a, HWTIMER_IOC_DRAIN, &d) || d.count != 1)
		return 7;
	return add_until_edquot(b) == (long)held ? 0 : 8;
}

TEST_F(unpriv, a_big_id_array_counts_against_the_limit)
{
	int limit;

	ASSERT_NE(-1, t_param_set("max_timers_per_user", t_budget(2, 2, 5000)));
	limit = open("/sys/module/hwtimer/parameters/max_timers_per_user",
		     O_WRONLY | O_CLOEXEC);
	ASSERT_LE(0, limit);
	EXPECT_EQ(0, as_user(UID_A, ids_count_against_the_limit, &limit));
	close(limit);
}

static long ring_setup(int fd, uint32_t entries)
{
	struct hwtimer_ring_setup rs = { .entries = entries };

	return t_ioctl(fd, HWTIMER_IOC_RING_SETUP, &rs);
}

/*
 * As A, with 600 timers to spend besides two files, a timer and its base,
 * and 64 KiB of RLIMIT_MEMLOCK: a ring of 4096 records (65 pages, 4160
 * slots) is refused, one of 512 (9 pages, 576 slots, over the
 * RLIMIT_MEMLOCK it no longer counts against) fits, a second of 512 on
 * another file is refused, and closing the first file gives its slots
 * back.
 */
static int rings_within_budget(void *arg)
{
	struct rlimit rl = { 64 << 10, 64 << 10 };
	int a = t_open(), b = t_open();

	if (a < 0 || b < 0 || setrlimit(RLIMIT_MEMLOCK, &rl))
		return 1;
	if (t_add(b, 0, CLOCK_MONOTONIC, 10 * SEC, 0, 0, NULL))
		return 2;
	if (ring_setup(a, 4096) != -EDQUOT)
		return 3;
	if (ring_setup(a, 512))
		return 4;
	/* 24 slots are left for timers */
	if (ring_setup(b, 512) != -EDQUOT)
		return 5;
	close(a);
	return ring_setup(b, 512) ? 6 : 0;
}

/* An expiry ring's slots count as timers against its user's limit. */
TEST_F(unpriv, ring_slots_count_against_the_user_limit_edquot)
{
	ASSERT_NE(-1, t_param_set("max_timers_per_user", t_budget(2, 1, 601)));
	EXPECT_EQ(0, as_user(UID_A, rings_within_budget, NULL));
}

/*
 * As A: a RING_SETUP whose result cannot be written back (the struct lies
 * in a read-only page, which the kernel reads but cannot write) fails with
 * EFAULT, eight times, each time with a ring of 512 that would take 576 of
 * the 600 slots: none of them keeps its charge, and a ring then fits.
 */
static int ring_efault_gives_back(void *arg)
{
	struct hwtimer_ring_setup *rs;
	int fd = t_open(), i;

	rs = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS,
		  -1, 0);
	if (fd < 0 || rs == MAP_FAILED)
		return 1;
	rs->entries = 512;
	if (mprotect(rs, 4096, PROT_READ))
		return 2;
	for (i = 0; i < 8; i++)
		if (t_ioctl(fd, HWTIMER_IOC_RING_SETUP, rs) != -EFAULT)
			return 3;
	return ring_setup(fd, 512) ? 4 : 0;
}

TEST_F(unpriv, ring_setup_efault_keeps_no_charge)
{
	ASSERT_NE(-1, t_param_set("max_timers_per_user", t_budget(1, 0, 600)));
	EXPECT_EQ(0, as_user(UID_A, ring_efault_gives_back, NULL));
}

/*
 * As A, under the default limits and RLIMIT_MEMLOCK (8 MiB): a ring of
 * 131,072 records (8 MiB and a page) for 100,000 timers, which all land in
 * it.
 */
#define BIG_N	100000

static int big_ring(void *arg)
{
	static struct hwtimer_record recs[1024];
	struct hwtimer_ring_map map = { 0 };
	struct hwtimer_vec v;
	uint64_t at = t_now_ns(CLOCK_MONOTONIC) + 200 * MS;
	int fd = t_open(), got = 0, k;
	uint32_t i;

	if (fd < 0)
		return 1;
	if (hwtimer_ring_setup(fd, 131072, &map))
		return 2;
	if (hwtimer_vec_init(&v, 4096))
		return 3;
	for (i = 0; i < BIG_N;) {
		hwtimer_vec_reset(&v);
		for (; i < BIG_N && v.count < v.capacity; i++)
			hwtimer_vec_add(&v, CLOCK_MONOTONIC, at, 0,
					HWTIMER_F_ABS | HWTIMER_F_AUTOREMOVE, i);
		if (hwtimer_vec_submit(fd, &v, HWTIMER_BATCH_STOP_ON_ERROR) != (int)v.count)
			return 4;
	}
	hwtimer_vec_free(&v);
	while (got < BIG_N) {
		k = hwtimer_ring_harvest(&map, recs, 1024);
		if (k < 0)
			return 5;
		if (!k && hwtimer_ring_wait(&map, 60000) <= 0)
			return 6;
		got += k;
	}
	hwtimer_ring_unmap(&map);
	close(fd);
	return 0;
}

TEST_F_TIMEOUT(unpriv, ordinary_user_ring_for_100k_timers, 300)
{
	struct rlimit rl = { 8 << 20, 8 << 20 };

	ASSERT_NE(-1, t_param_set("max_timers_per_user", 8388608));
	/* the kernel's default, whatever the guest's init left */
	ASSERT_EQ(0, setrlimit(RLIMIT_MEMLOCK, &rl));
	EXPECT_EQ(0, as_user(UID_A, big_ring, NULL));
}

static int write_proc(pid_t pid, const char *name, const char *s)
{
	char path[64];
	int fd, ok;

	snprintf(path, sizeof(path), "/proc/%d/%s", (int)pid, name);
	fd = open(path, O_WRONLY);
	if (fd < 0)
		return -1;
	ok = write(fd, s, strlen(s)) == (ssize_t)strlen(s);
	close(fd);
	return ok ? 0 : -1;
}

/*
 * As A: 3 timers, then a user namespace whose uids the parent maps to a
 * range of their own (a subordinate range, as newuidmap would), and 2
 * more timers as one of those uids before EDQUOT: they all count as A's.
 */
static int in_a_user_namespace(int *up, int *down)
{
	int a = t_open(), b, i;
	char c;

	for (i = 0; i < 3; i++)
		if (t_add(a, 0, CLOCK_MONOTONIC, 10 * SEC, 0, 0, NULL))
			return 1;
	if (unshare(CLONE_NEWUSER))
		return 2;
	if (write(up[1], "x", 1) != 1 || read(down[0], &c, 1) != 1 || c != 'm')
		return 3;
	/* uid 5 of the namespace: kuid 200005, a user of its own outside */
	if (setresgid(5, 5, 5) || setresuid(5, 5, 5) || geteuid() != 5)
		return 4;
	b = t_open();
	if (b < 0)
		return 5;
	for (i = 0; i < 2; i++)
		if (t_add(b, 0, CLOCK_MONOTONIC, 10 * SEC, 0, 0, NULL))
			return 6;
	return t_add(b, 0, CLOCK_MONOTONIC, 10 * SEC, 0, 0, NULL) == -EDQUOT ? 0 : 7;
}

TEST_F(unpriv, user_namespace_uids_share_their_creators_limit)
{
	int up[2], down[2], status;
	pid_t pid;
	char c;

	ASSERT_EQ(0, pipe(up));
	ASSERT_EQ(0, pipe(down));
	pid = fork();
	ASSERT_LE(0, pid);
	if (!pid)
		_exit(become(UID_A) ? 100 : in_a_user_namespace(up, down));
	close(up[1]);
	close(down[0]);
	ASSERT_EQ(1, read(up[0], &c, 1));
	ASSERT_EQ(0, write_proc(pid, "uid_map", "0 200000 10\n"));
	ASSERT_EQ(0, write_proc(pid, "gid_map", "0 200000 10\n"));
	ASSERT_EQ(1, write(down[1], "m", 1));
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	EXPECT_EQ(0, WEXITSTATUS(status));
}

static int change_limit(void *arg)
{
	FILE *f = fopen("/sys/module/hwtimer/parameters/max_timers_per_user", "w");

	/* sysfs checks the mode at open: 0644 is root's to write */
	if (f) {
		fclose(f);
		return 1;
	}
	return errno == EACCES ? 0 : 2;
}

static int read_stats(void *arg)
{
	FILE *f = fopen("/sys/class/misc/hwtimer/stats/fired", "r");
	char buf[32];

	if (!f || !fgets(buf, sizeof(buf), f))
		return 1;
	fclose(f);
	return 0;
}

TEST_F(unpriv, only_root_changes_limits_anyone_reads_stats)
{
	EXPECT_EQ(0, as_user(UID_A, change_limit, NULL));
	EXPECT_EQ(0, as_user(UID_A, read_stats, NULL));
}

/*
 * As A with a limit of 5 timers besides its file and base: one io_uring
 * SQE of 8 ADDs runs them all, each with its own result: 5 timers, then
 * EDQUOT for the rest, and nothing else taken or lost.
 */
static int uring_batch_at_the_limit(void *arg)
{
	struct hwtimer_op ops[8];
	struct io_uring_cqe *cqe;
	struct io_uring ring;
	int fd = t_open(), i, res;

	if (fd < 0)
		return 1;
	if (io_uring_queue_init(4, &ring, 0))
		return 100;	/* no io_uring for this user: not the point */
	memset(ops, 0, sizeof(ops));
	for (i = 0; i < 8; i++)
		ops[i] = (struct hwtimer_op){
			.op = HWTIMER_OP_ADD, .clockid = CLOCK_MONOTONIC,
			.expires = 60 * SEC,
		};
	hwtimer_uring_prep_batch(io_uring_get_sqe(&ring), fd, ops, 8, 0, 0);
	if (io_uring_submit(&ring) != 1 || io_uring_wait_cqe(&ring, &cqe))
		return 2;
	res = cqe->res;
	io_uring_cqe_seen(&ring, cqe);
	if (res != 8)
		return 3;
	for (i = 0; i < 8; i++)
		if (ops[i].result != (i < 5 ? 0 : -EDQUOT))
			return 4;
	if (t_fdinfo_u64(fd, "timers") != 5)
		return 5;
	io_uring_queue_exit(&ring);
	return 0;
}

TEST_F(unpriv, a_batch_through_io_uring_stops_at_the_users_limit)
{
	int ret;

	ASSERT_NE(-1, t_param_set("max_timers_per_user", t_budget(1, 1, 5)));
	ret = as_user(UID_A, uring_batch_at_the_limit, NULL);

	if (ret == 100)
		SKIP(return, "io_uring not allowed to an ordinary user here");
	EXPECT_EQ(0, ret);
}

HWT_HARNESS_MAIN
