// SPDX-License-Identifier: GPL-2.0
/*
 * What a user's budget, max_timers_per_user, pays for, as an ordinary
 * user: a file's table of timers by its size (review F1), so that a file
 * that added many timers and keeps one pays for the table it keeps, and
 * the kernel memory a user holds stays within what its budget says; an
 * expiry ring past the budget is refused before anything of it is
 * allocated (F4); a timer's extra struct counts as a timer; and a file and
 * its bases count against the budget, so that files with a timer on every
 * clock hold no more memory than the budget says (H1). The budget's edge
 * is budget_edge_test's. Most cases fork a child that drops to an
 * unprivileged uid; the parent (root) sets the limit around it.
 */
#define _GNU_SOURCE
#include <glob.h>
#include <stdio.h>
#include <stdlib.h>

#include "kselftest_harness.h"
#include "helpers.h"
#include "as_user.h"
#include "budget_fixture.h"

/* write "1" to @path, if it is there */
static void poke(const char *path)
{
	int fd = open(path, O_WRONLY);

	if (fd < 0)
		return;
	if (write(fd, "1", 1) != 1)
		perror(path);
	close(fd);
}

/*
 * Slab: of /proc/meminfo, in KiB, of live objects: every cache shrunk
 * first, which on a KASAN kernel also empties its quarantine of freed
 * objects (kasan_cache_shrink()), then every CPU's pending vmstat deltas
 * folded in (vm.stat_refresh), without which a reading can be off by a
 * megabyte on two CPUs. 0 if it cannot be read. Root only.
 */
static unsigned long long slab_kib_now(void)
{
	char line[256];
	unsigned long long kib = 0;
	glob_t caches;
	size_t i;
	FILE *f;

	if (!glob("/sys/kernel/slab/*/shrink", 0, NULL, &caches)) {
		for (i = 0; i < caches.gl_pathc; i++)
			poke(caches.gl_pathv[i]);
		globfree(&caches);
	}
	poke("/proc/sys/vm/stat_refresh");
	f = fopen("/proc/meminfo", "r");
	while (f && fgets(line, sizeof(line), f))
		if (sscanf(line, "Slab: %llu kB", &kib) == 1)
			break;
	if (f)
		fclose(f);
	return kib;
}

/* the pipes between a case's unprivileged child and its root parent */
static int slab_ask[2], slab_answer[2];

/* in the child: the parent's reading of slab_kib_now() */
static unsigned long long slab_kib(void)
{
	unsigned long long kib = 0;
	char c = 0;

	if (write(slab_ask[1], &c, 1) != 1 ||
	    read(slab_answer[0], &kib, sizeof(kib)) != sizeof(kib))
		return 0;
	return kib;
}

/*
 * as_user(), with the parent reading the slab whenever the child asks
 * (slab_kib()): stat_refresh is root's, and the child is not.
 */
static int as_user_weighed(uid_t uid, int (*fn)(void *), void *arg)
{
	unsigned long long kib;
	int status;
	pid_t pid;
	char c;

	if (pipe(slab_ask) || pipe(slab_answer))
		return -1;
	pid = fork();
	if (pid < 0)
		return -1;
	if (!pid) {
		close(slab_ask[0]);
		close(slab_answer[1]);
		_exit(become(uid) ? 100 : fn(arg));
	}
	close(slab_ask[1]);
	close(slab_answer[0]);
	while (read(slab_ask[0], &c, 1) == 1) {
		kib = slab_kib_now();
		if (write(slab_answer[1], &kib, sizeof(kib)) != sizeof(kib))
			break;
	}
	close(slab_ask[0]);
	close(slab_answer[1]);
	if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status))
		return -1;
	return WEXITSTATUS(status);
}

#define HOARD_BUDGET	65536
#define HOARD_TIMERS	8192
#define HOARD_FILES	64

/*
 * What a timer held grows the slab by here, in bytes (*@bytes): HOARD_TIMERS
 * timers added to @fd, which is closed then.
 */
static int held_bytes(int fd, unsigned long long *bytes)
{
	static struct hwtimer_op ops[HOARD_TIMERS];
	unsigned long long slab0 = slab_kib();

	adds(ops, HOARD_TIMERS);
	if (batch_all(fd, ops, HOARD_TIMERS))
		return -1;
	*bytes = (slab_kib() - slab0) * 1024 / HOARD_TIMERS;
	close(fd);
	return 0;
}

/*
 * The hoarder: on file after file, add HOARD_TIMERS timers, cancel all but
 * the last, and keep the file, until an ADD fails with EDQUOT or
 * HOARD_FILES files are held. Then what the files hold, by fdinfo (their
 * tables' entries), must be within twice what the budget allows,
 * HOARD_BUDGET timers, and so must the slab they grew (/proc/meminfo):
 * twice HOARD_BUDGET timers at what a timer held by a file grows the slab
 * by on this kernel, measured first (45 bytes on a stock kernel, more with
 * a debug kernel's redzones and kmemleak's objects). Freed objects that
 * KASAN holds in quarantine are let go before each reading.
 */
static int hoard(void *arg)
{
	static struct hwtimer_op ops[HOARD_TIMERS];
	unsigned long long slab0, entries = 0, held_kib, timer_bytes;
	int fd[HOARD_FILES], nfd, i, quota = 0;
	long ret;

	/* what HOARD_TIMERS timers that stay cost here */
	fd[0] = t_open();
	if (fd[0] < 0)
		return 1;
	if (held_bytes(fd[0], &timer_bytes))
		return 2;
	printf("# a timer held grows the slab by %llu bytes\n", timer_bytes);
	if (timer_bytes < TIMER_BYTES)
		timer_bytes = TIMER_BYTES;

	slab0 = slab_kib();
	for (nfd = 0; nfd < HOARD_FILES && !quota; nfd++) {
		fd[nfd] = t_open();
		if (fd[nfd] < 0)
			return 1;
		adds(ops, HOARD_TIMERS);
		ret = batch_all(fd[nfd], ops, HOARD_TIMERS);
		if (ret == -EDQUOT)
			quota = 1;
		else if (ret)
			return 2;
		/* the ids are 1..n: all go but the highest */
		for (i = 0; i < HOARD_TIMERS - 1; i++)
			ops[i] = (struct hwtimer_op){
				.op = HWTIMER_OP_CANCEL, .id = i + 1,
			};
		if (!quota && batch_all(fd[nfd], ops, HOARD_TIMERS - 1))
			return 3;
	}
	for (i = 0; i < nfd; i++)
		entries += t_fdinfo_u64(fd[i], "id_slots");
	held_kib = slab_kib() - slab0;
#define HOARD_FMT	"# %d files, %s: %llu entries held, slab grew %llu KiB; the budget's worth is %llu KiB\n"
	printf(HOARD_FMT,
	       nfd, quota ? "then EDQUOT" : "no EDQUOT", entries, held_kib,
	       HOARD_BUDGET * timer_bytes / 1024);
#undef HOARD_FMT
	if (!quota)
		return 4;
	if (entries > 2ULL * HOARD_BUDGET)
		return 5;
	if (held_kib * 1024 > 2ULL * HOARD_BUDGET * timer_bytes)
		return 6;
	return 0;
}

/*
 * Review F1: a table counts by its size, not by the timers left in it.
 * Adding many timers, cancelling all but one and keeping the file, over
 * and over, reaches EDQUOT within the budget, and the memory it holds is
 * what the budget's timers would take, within a factor of 2.
 */
TEST_F_TIMEOUT(budget, tables_kept_by_one_timer_count_in_full, 600)
{
	ASSERT_NE(-1, t_param_set("max_timers_per_user", HOARD_BUDGET));
	EXPECT_EQ(0, as_user_weighed(UID_A, hoard, NULL));
}

/* the clocks a file's timers can use: each kind of timer, once */
static long add_on(int fd, int kind)
{
	switch (kind) {
	case 0:
		return t_add(fd, 0, CLOCK_MONOTONIC, 3600 * SEC, 0, 0, NULL);
	case 1:
		return t_add(fd, 0, CLOCK_BOOTTIME, 3600 * SEC, 0, 0, NULL);
	case 2:	/* absolute: on the CLOCK_REALTIME base, and MONOTONIC's */
		return t_add(fd, HWTIMER_F_ABS, CLOCK_REALTIME,
			     t_now_ns(CLOCK_REALTIME) + 3600 * SEC, 0, 0, NULL);
	default: /* relative: elapsed time, on the CLOCK_MONOTONIC base */
		return t_add(fd, 0, CLOCK_REALTIME, 3600 * SEC, 0, 0, NULL);
	}
}

#define KINDS	4

/*
 * As A, with root setting max_timers_per_user: a file counts from
 * open() (fdinfo's "charged", and the user's "user_charged"), each base
 * from the first timer on its clock, once, and a timer its entry; at the
 * limit open() fails with EDQUOT, and an ADD whose base does not fit
 * fails with EDQUOT and sets none up; a closed file gives all back.
 */
static int costs_counted(void *arg)
{
	const struct limit_chan *limit = arg;
	int fd, more, k;
	struct t_costs c = t_costs();
	unsigned long long bases0;
	struct hwtimer_info info;

	if (set_limit(limit, c.file + 3 * c.base + KINDS))
		return 1;
	/* a wheel's levels have 64 slots, a list head each, at least */
	fd = t_open();
	if (fd < 0 || t_ioctl(fd, HWTIMER_IOC_INFO, &info))
		return 2;
	close(fd);
	printf("# a file counts as %llu timers, a base as %llu (%u levels)\n",
	       c.file, c.base, info.levels);
	if (!c.file || c.base < info.levels * 64ULL * 16 / TIMER_BYTES)
		return 3;
	fd = t_open();
	if (fd < 0 || t_fdinfo_u64(fd, "charged") != c.file ||
	    t_fdinfo_u64(fd, "user_charged") != c.file)
		return 4;
	/* MONOTONIC, BOOTTIME, REALTIME (and MONOTONIC), then none more */
	for (k = 0; k < KINDS; k++) {
		unsigned long long want = c.file + (k < 3 ? k + 1 : 3) * c.base +
					  k + 1;

		if (add_on(fd, k) || t_fdinfo_u64(fd, "charged") != want ||
		    t_fdinfo_u64(fd, "user_charged") != want)
			return 10 + k;
	}
	/* the user is at its limit: no file more */
	more = t_open();
	if (more >= 0 || errno != EDQUOT)
		return 5;
	close(fd);
	/* all given back */
	fd = t_open();
	if (fd < 0 || t_fdinfo_u64(fd, "user_charged") != c.file)
		return 6;
	/* room for one base and its timer, and a unit short of a second */
	if (set_limit(limit, c.file + 2 * c.base))
		return 7;
	if (add_on(fd, 0))
		return 8;
	bases0 = t_sysfs_u64("wheel/bases");
	if (add_on(fd, 1) != -EDQUOT ||
	    t_fdinfo_u64(fd, "charged") != c.file + c.base + 1 ||
	    t_sysfs_u64("wheel/bases") != bases0)
		return 9;
	/* what is left holds a file */
	more = t_open();
	if (more < 0)
		return 20;
	close(more);
	close(fd);
	return 0;
}

/*
 * Review H1: every byte a file pins counts against its user's
 * max_timers_per_user, as the timers whose entries take as many bytes:
 * the file itself, and each of its bases, a wheel of 29 KiB at the
 * default geometry.
 */
TEST_F(budget, a_file_and_its_bases_count_against_the_budget)
{
	EXPECT_EQ(0, as_user_with_limit(costs_counted));
}

/* a timer's period, or -1 */
static long long get_period(int fd, __u32 id)
{
	struct hwtimer_get g;

	return t_get(fd, id, &g) ? -1 : (long long)g.period;
}

/* an ADD of a plain timer, or of one with slack, which has more besides */
static long add_plain(int fd, __u64 slack, __u32 *id)
{
	struct hwtimer_op op = {
		.clockid = CLOCK_MONOTONIC, .expires = 3600 * SEC,
		.slack = slack,
	};
	long ret = t_ioctl(fd, HWTIMER_IOC_ADD, &op);

	if (!ret && id)
		*id = op.id;
	return ret;
}

/*
 * As A, with root setting max_timers_per_user: a timer with a
 * period, slack or an eventfd has a 40-byte struct besides its entry,
 * which counts as a timer too, from the ADD or the MOD that gives it one
 * until the timer goes; at the limit, such an ADD or MOD fails with
 * EDQUOT and changes nothing.
 */
static int extras_counted(void *arg)
{
	const struct limit_chan *limit = arg;
	int fd;
	struct t_costs c = t_costs();
	unsigned long long base;
	__u32 plain, slack;

	if (set_limit(limit, c.file + c.base + 3))
		return 1;
	fd = t_open();
	if (fd < 0 || add_plain(fd, 0, &plain))
		return 2;
	base = c.file + c.base + 1;
	if (t_fdinfo_u64(fd, "charged") != base)
		return 3;
	/* its entry and its struct besides: the budget is spent */
	if (add_plain(fd, MS, &slack) ||
	    t_fdinfo_u64(fd, "user_charged") != base + 2)
		return 4;
	if (add_plain(fd, 0, NULL) != -EDQUOT)
		return 5;
	if (t_cancel(fd, slack) != 1 ||
	    t_fdinfo_u64(fd, "user_charged") != base)
		return 6;
	/* room for one: not for an entry and a struct */
	if (set_limit(limit, base + 1))
		return 7;
	if (add_plain(fd, MS, NULL) != -EDQUOT ||
	    t_fdinfo_u64(fd, "user_charged") != base)
		return 8;
	/* a MOD that gives the plain timer a period takes the one */
	if (t_mod(fd, plain, HWTIMER_F_PERIOD, SEC, SEC, NULL) != 1 ||
	    t_fdinfo_u64(fd, "user_charged") != base + 1)
		return 9;
	/* and one that changes it keeps it */
	if (t_mod(fd, plain, HWTIMER_F_PERIOD, SEC, 2 * SEC, NULL) != 1 ||
	    t_fdinfo_u64(fd, "charged") != base + 1)
		return 10;
	close(fd);
	fd = t_open();
	if (fd < 0 || t_fdinfo_u64(fd, "user_charged") != c.file)
		return 11;
	/* a MOD at the limit fails and leaves the timer plain */
	if (set_limit(limit, base) || add_plain(fd, 0, &plain) ||
	    t_mod(fd, plain, HWTIMER_F_PERIOD, SEC, SEC, NULL) != -EDQUOT ||
	    get_period(fd, plain) != 0)
		return 12;
	close(fd);
	return 0;
}

/*
 * Review H1: what a timer with a period, slack or an eventfd has besides
 * its entry counts against the budget as a timer.
 */
TEST_F(budget, a_timers_extra_struct_counts_as_a_timer)
{
	EXPECT_EQ(0, as_user_with_limit(extras_counted));
}

#define PIN_BUDGET	65536
#define PIN_FILES	256
/*
 * Slabs grow by whole slab pages (8 objects of 4 KiB, one of 32 KiB, in
 * 32 KiB at a time), so the slab a few dozen files grew is their objects'
 * bytes give or take a couple of such pages: two runs on stock 6.12 held
 * 2,500 and 2,580 KiB for 2,560 KiB of budget. Before the files counted,
 * PIN_FILES files held 25 MiB.
 */
#define PIN_SLAB_KIB	64

/*
 * The pinner: files, each with a timer of every kind (so a base on every
 * clock), until open() fails; a file whose ADD fails with EDQUOT is kept
 * all the same, and the next one opened. Then the slab they grew
 * (/proc/meminfo, as hoard() reads it) must be within the budget's bytes:
 * PIN_BUDGET timers at what a timer held grows the slab by on this kernel,
 * measured first, and what opening any file costs (its struct file, which
 * RLIMIT_NOFILE bounds), measured on /dev/null, give or take PIN_SLAB_KIB.
 */
static int pin(void *arg)
{
	unsigned long long slab0, held_kib, timer_bytes, budget_kib, file_bytes;
	int fd[PIN_FILES + 1], nfd, i, k, full = 0, open_err = 0, edquot = 0;

	/* what HOARD_TIMERS timers that stay cost here, past the first */
	fd[0] = t_open();
	if (fd[0] < 0 || t_add(fd[0], 0, CLOCK_MONOTONIC, 3600 * SEC, 0, 0, NULL))
		return 1;
	if (held_bytes(fd[0], &timer_bytes))
		return 2;
	if (timer_bytes < TIMER_BYTES)
		timer_bytes = TIMER_BYTES;

	/*
	 * What open() costs any file (a struct file, bounded by RLIMIT_NOFILE,
	 * not by hwtimer's budget): as many opens of /dev/null
	 */
	slab0 = slab_kib();
	for (nfd = 0; nfd <= PIN_FILES; nfd++)
		fd[nfd] = open("/dev/null", O_RDONLY | O_CLOEXEC);
	file_bytes = (slab_kib() - slab0) * 1024 / (PIN_FILES + 1);
	for (nfd = 0; nfd <= PIN_FILES; nfd++)
		if (fd[nfd] >= 0)
			close(fd[nfd]);

	slab0 = slab_kib();
	for (nfd = 0; nfd <= PIN_FILES; nfd++) {
		fd[nfd] = t_open();
		if (fd[nfd] < 0) {
			open_err = errno;
			break;
		}
		for (k = 0; k < KINDS; k++) {
			long ret = add_on(fd[nfd], k);

			if (ret == -EDQUOT) {
				edquot++;
				break;
			}
			if (ret)
				return 3;
		}
		full += k == KINDS;
	}
	held_kib = slab_kib() - slab0;
	budget_kib = (PIN_BUDGET * timer_bytes + nfd * file_bytes) / 1024 +
		     PIN_SLAB_KIB;
	printf("# %d files (%d with a timer of every kind, %d ADDs refused), then open(): %s\n",
	       nfd, full, edquot, strerror(open_err));
#define PIN_FMT	"# the slab grew %llu KiB, %llu bytes a file; the budget's worth is %llu KiB (a timer: %llu bytes), with what open() costs any file (%llu bytes)\n"
	printf(PIN_FMT,
	       held_kib, nfd ? held_kib * 1024 / nfd : 0, budget_kib, timer_bytes,
	       file_bytes);
#undef PIN_FMT
	for (i = 0; i < nfd; i++)
		close(fd[i]);
	if (open_err != EDQUOT && open_err != EMFILE)
		return 4;
	return held_kib <= budget_kib ? 0 : 5;
}

/*
 * Review H1: opening files with a timer on each clock until open() fails,
 * with EDQUOT or EMFILE (here at PIN_FILES), an ordinary user holds no
 * more slab than its budget's bytes: its files and their bases count
 * against max_timers_per_user. Before, each file pinned three wheels of
 * 29 KiB that no limit counted.
 */
TEST_F_TIMEOUT(budget, files_with_every_clock_hold_no_more_than_the_budget, 600)
{
	long long old_files = t_param_set("max_files_per_user", PIN_FILES);

	ASSERT_NE(-1, old_files);
	ASSERT_NE(-1, t_param_set("max_timers_per_user", PIN_BUDGET));
	EXPECT_EQ(0, as_user_weighed(UID_A, pin, NULL));
	t_param_set("max_files_per_user", old_files);
}

#define PAGE_ALLOC	TRACEFS "/events/kmem/mm_page_alloc/"

/* Pages this process allocated during @fn(@fd, @entries), by tracepoint. */
static long pages_during(long (*fn)(int, __u32), int fd, __u32 entries,
			 long *ret)
{
	char line[512], filter[64];
	long n = 0;
	FILE *f;

	snprintf(filter, sizeof(filter), "common_pid == %d", getpid());
	if (t_write_file(PAGE_ALLOC "filter", filter) ||
	    t_write_file(TRACEFS "/trace", "") ||
	    t_write_file(PAGE_ALLOC "enable", "1"))
		return -1;
	*ret = fn(fd, entries);
	t_write_file(PAGE_ALLOC "enable", "0");
	f = fopen(TRACEFS "/trace", "r");
	while (f && fgets(line, sizeof(line), f))
		n += !!strstr(line, "mm_page_alloc:");
	if (f)
		fclose(f);
	t_write_file(PAGE_ALLOC "filter", "0");
	return f ? n : -1;
}

static long ring_setup(int fd, __u32 entries)
{
	struct hwtimer_ring_setup rs = { .entries = entries };

	return t_ioctl(fd, HWTIMER_IOC_RING_SETUP, &rs);
}

/*
 * Review F4: RING_SETUP charges the ring's record slots before it
 * allocates the ring (up to 16 MiB of pages, and their vmap()). The
 * kernel's page allocation tracepoint, filtered to this process, sees a
 * ring of 256 records within the budget take its 5 pages, and none taken
 * for a ring of 262,144 records (4,097 pages) past it, which fails with
 * EDQUOT.
 */
TEST_F(budget, a_ring_past_the_budget_allocates_nothing)
{
	long within, past, ret = 1;
	int a, b;

	if (access(PAGE_ALLOC "enable", W_OK))
		SKIP(return, "no kmem tracepoints here");
	/* 256 records: 5 pages, 320 record slots; the two files besides */
	ASSERT_NE(-1, t_param_set("max_timers_per_user", t_budget(2, 0, 1000)));
	a = t_open();
	b = t_open();
	ASSERT_LE(0, a);
	ASSERT_LE(0, b);
	within = pages_during(ring_setup, a, 256, &ret);
	EXPECT_EQ(0, ret);
	ASSERT_NE(-1, t_param_set("max_timers_per_user", t_budget(2, 0, 5)));
	past = pages_during(ring_setup, b, 262144, &ret);
	EXPECT_EQ(-EDQUOT, ret);
	TH_LOG("pages allocated: %ld by a ring within the budget, %ld by one past it",
	       within, past);
	EXPECT_LE(5, within);
	EXPECT_GT(4, past);
	close(b);
	close(a);
}

HWT_HARNESS_MAIN
