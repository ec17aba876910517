// SPDX-License-Identifier: GPL-2.0
/*
 * Bounded kernel work: what one user's timers can make the kernel do in one
 * go. Structural checks, not timings:
 *  - a million timers in one wheel slot: no pass over a base spends more
 *    than wheel/pass_budget units expiring and moving them (the hwt_tick
 *    tracepoint), and passes are really cut short;
 *  - a read() whose copy to the user stalls (userfaultfd) while the wheel's
 *    clock moves never rebases a CLOCK_MONOTONIC wheel;
 *  - HWTIMER_F_NO_RECORD periodic timers: the period floor (ERANGE) and the
 *    per-user cap on re-arms per second (EDQUOT), released on cancel, MOD
 *    and close;
 *  - a backlog of many passes drains without the hrtimer: the passes go
 *    on in the same softirq run or in the base's worker;
 *  - an eventfd shared by many timers is signalled once per pass, not once
 *    per timer;
 *  - a long BATCH or read() stops for a signal with what it did.
 */
#define _GNU_SOURCE
#include <linux/userfaultfd.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <sys/eventfd.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/time.h>

#include "kselftest_harness.h"
#include "helpers.h"

FIXTURE(bound) {
	int fd;
};

FIXTURE_SETUP(bound)
{
	if (!hwt_device_present())
		SKIP(return, HWT_NO_DEVICE);
	self->fd = t_open();
	ASSERT_LE(0, self->fd);
}

FIXTURE_TEARDOWN(bound)
{
	close(self->fd);
}

static long batch(int fd, struct hwtimer_op *ops, __u32 n)
{
	struct hwtimer_batch b = {
		.ops = (uintptr_t)ops, .count = n, .op_size = sizeof(*ops),
	};

	return t_ioctl(fd, HWTIMER_IOC_BATCH, &b);
}

/*
 * Add @n one-shot MONOTONIC timers, timer i at @base + i * @step % @mod
 * (@mod 0: no modulo), cookie i. Returns 0, or the first error.
 */
static long add_many(int fd, __u32 n, __u32 flags, __u64 base,
		     __u64 step, __u64 mod)
{
	static struct hwtimer_op ops[4096];
	__u32 i, k, chunk;
	long ret;

	for (i = 0; i < n; i += chunk) {
		chunk = n - i < 4096 ? n - i : 4096;
		for (k = 0; k < chunk; k++) {
			__u64 off = (__u64)(i + k) * step;

			ops[k] = (struct hwtimer_op){
				.op = HWTIMER_OP_ADD, .flags = flags,
				.clockid = CLOCK_MONOTONIC, .cookie = i + k,
				.expires = base + (mod ? off % mod : off),
			};
		}
		ret = batch(fd, ops, chunk);
		if (ret != chunk)
			return ret < 0 ? ret : -EIO;
		for (k = 0; k < chunk; k++)
			if (ops[k].result)
				return ops[k].result;
	}
	return 0;
}

/* ns one ADD of add_many() takes here, timed over @n on a scratch file */
static __u64 add_cost(__u32 n)
{
	__u64 t0 = t_now_ns(CLOCK_MONOTONIC);
	int fd = t_open();

	if (fd < 0 || add_many(fd, n, 0, 3600 * SEC, 1, 0))
		return 0;
	close(fd);
	return (t_now_ns(CLOCK_MONOTONIC) - t0) / n + 1;
}

static int wait_pending_zero(int fd, unsigned int seconds)
{
	unsigned int i;

	for (i = 0; i < seconds * 20; i++) {
		if (!t_fdinfo_u64(fd, "pending"))
			return 0;
		usleep(50 * 1000);
	}
	return -1;
}

/*
 * A million timers in one level-2 slot: that slot cascades, and then each
 * of its 32 level-1 slots. No pass spends more than its budget: a unit per
 * timer expired and per node placed, less per node moved along with the
 * node of its key before it (so a pass may move more nodes than its
 * budget, but never for fewer units than a quarter of them).
 */
TEST_F_TIMEOUT(bound, one_slot_runs_stay_within_budget, 1200)
{
	const size_t tracelen = 64 << 20;
	unsigned long long budget = t_sysfs_u64("wheel/pass_budget");
	__u64 l2, start, per;
	unsigned long long passes = 0, fired = 0, moved = 0, most = 0, units = 0;
	struct hwtimer_info info = { 0 };
	__u32 n = 1000000;
	char *trace, *p;

	if (getenv("HWT_BOUND_N"))
		n = strtoul(getenv("HWT_BOUND_N"), NULL, 0);
	ASSERT_NE(~0ULL, budget);
	ASSERT_LT(0ULL, budget);
	if (access(TRACEFS "/events/hwtimer/hwt_tick/enable", W_OK))
		SKIP(return, "no tracefs with hwtimer events");
	ASSERT_EQ(0, t_ioctl(self->fd, HWTIMER_IOC_INFO, &info));
	l2 = info.tick_ns << (2 * info.level_shift);

	/*
	 * Time 16384 ADDs, and put the slot well after all of them. Where an
	 * ADD is slow (the debug kernel: KASAN, lockdep), arm fewer than a
	 * million, so that arming takes a minute at most: the bound on a run
	 * does not depend on how many timers wait in the slot.
	 */
	per = add_cost(16384);
	ASSERT_LT(0ULL, per);
	if (!getenv("HWT_BOUND_N") && per * n > 60 * SEC)
		n = 60 * SEC / per < 100000 ? 100000 : 60 * SEC / per;
	start = t_now_ns(CLOCK_MONOTONIC) + 2 * per * n + SEC;
	start = (start + l2 - 1) / l2 * l2;

	ASSERT_EQ(0, t_write_file(TRACEFS "/buffer_size_kb", "32768"));
	ASSERT_EQ(0, t_write_file(TRACEFS "/trace", ""));
	ASSERT_EQ(0, t_write_file(TRACEFS "/events/hwtimer/hwt_tick/enable", "1"));
	ASSERT_EQ(0, add_many(self->fd, n, HWTIMER_F_ABS, start,
			      7919ULL * 104729, l2));
	TH_LOG("%u timers in the level-2 slot at +%.1f s, %.1f us per ADD", n,
	       (double)(start - t_now_ns(CLOCK_MONOTONIC)) / SEC, per / 1e3);
	EXPECT_EQ(0, wait_pending_zero(self->fd, (start - t_now_ns(CLOCK_MONOTONIC)) / SEC + 600));
	ASSERT_EQ(0, t_write_file(TRACEFS "/events/hwtimer/hwt_tick/enable", "0"));
	EXPECT_EQ((unsigned long long)n, t_fdinfo_u64(self->fd, "ready"));

	trace = malloc(tracelen);
	ASSERT_NE(NULL, trace);
	ASSERT_LT(0, t_read_file(TRACEFS "/trace", trace, tracelen));
	for (p = trace; (p = strstr(p, "hwt_tick: ")); p++) {
		unsigned int f, c, u;

		ASSERT_NE(NULL, strstr(p, " units="));
		f = strtoul(strstr(p, " fired=") + 7, NULL, 10);
		c = strtoul(strstr(p, " cascaded=") + 10, NULL, 10);
		u = strtoul(strstr(p, " units=") + 7, NULL, 10);
		ASSERT_LE(u, budget) TH_LOG("pass %llu: %u fired, %u moved, %u units",
					    passes, f, c, u);
		/* each expiry a unit, each move at most one, at least a quarter */
		ASSERT_LE(u, f + c);
		ASSERT_LE(f + c / 4, u);
		if (u > most)
			most = u;
		fired += f;
		moved += c;
		units += u;
		passes++;
	}
	free(trace);
	TH_LOG("%llu passes, %llu fired, %llu moved, %llu units, at most %llu of %llu in one",
	       passes, fired, moved, units, most, budget);
	/*
	 * The load was cut into many runs: each stopped at the budget, or at
	 * the time limit where units are slow (emulation, cold caches).
	 */
	EXPECT_LT(0ULL, t_fdinfo_u64(self->fd, "deferred"));
	EXPECT_LE((unsigned long long)n, fired);
	EXPECT_LE((unsigned long long)n, moved);
	EXPECT_LE(units / budget, passes);
}

/*
 * 100,000 timers due at once, many passes' worth: each pass that leaves
 * work is followed by another at once, in the same softirq run while the
 * CPU is free, then in the base's worker, never by the hrtimer. So the
 * hrtimer is armed a few times per level the timers cascade through, not
 * once per pass as when each pass re-armed it for "now".
 */
TEST_F_TIMEOUT(bound, backlog_drains_without_rearming, 900)
{
	unsigned long long budget = t_sysfs_u64("wheel/pass_budget");
	unsigned long long deferred, arms, cont, handed;
	struct hwtimer_info info = { 0 };
	__u64 start, per;
	__u32 n = 100000;

	if (getenv("HWT_BACKLOG_N"))
		n = strtoul(getenv("HWT_BACKLOG_N"), NULL, 0);
	ASSERT_EQ(0, t_ioctl(self->fd, HWTIMER_IOC_INFO, &info));
	per = add_cost(4096);
	ASSERT_LT(0ULL, per);
	start = t_now_ns(CLOCK_MONOTONIC) + 3 * per * n + SEC;
	ASSERT_EQ(0, add_many(self->fd, n, HWTIMER_F_ABS, start, 0, 0));
	EXPECT_EQ(0, wait_pending_zero(self->fd, (start - t_now_ns(CLOCK_MONOTONIC)) / SEC + 600));
	EXPECT_EQ((unsigned long long)n, t_fdinfo_u64(self->fd, "ready"));

	deferred = t_fdinfo_u64(self->fd, "deferred");
	arms = t_fdinfo_u64(self->fd, "arms");
	cont = t_fdinfo_u64(self->fd, "continued");
	handed = t_fdinfo_u64(self->fd, "handed_off");
#define BACKLOG_FMT	"%u timers: %llu passes left work, %llu went on in the run, %llu in the worker, %llu arms"
	TH_LOG(BACKLOG_FMT,
	       n, deferred, cont, handed, arms);
#undef BACKLOG_FMT
	EXPECT_LE(n / budget / 2, deferred);
	EXPECT_LT(0ULL, cont + handed);
	/* the first ADD, each level's early cascade and the last pass */
	EXPECT_GE(2ULL * info.levels + 4, arms);
}

/*
 * The same backlog, of periodic NO_RECORD timers: the pass re-arms each one,
 * and the re-arms fill level-3 slots to the size that is cascaded ahead,
 * tens of times during the backlog. Until the run has caught up it arms the
 * hrtimer itself, so none of those re-arms arms it for what is already due:
 * that would wake the base again and again, behind the run's back. The
 * timers must all be in before they are due, or each chunk of ADDs after
 * that wakes the base (those are ADDs, not re-arms). Their cost is measured
 * on ADDs of their own kind first: each takes an eventfd and an
 * allocation, where a plain one takes a slot of the table (in the debug
 * guest 2x a plain ADD's cost when those allocated too, and far more
 * since). A machine slower than that estimate gets a new file and thrice
 * the time, up to twice.
 */
static void rearm_ops(struct hwtimer_op *ops, __u32 i, __u32 chunk,
		      __u64 start, int efd)
{
	__u32 k;

	for (k = 0; k < chunk; k++)
		/* periods 256 us apart: ~40 level-3 slots of re-arms */
		ops[k] = (struct hwtimer_op){
			.op = HWTIMER_OP_ADD,
			.flags = HWTIMER_F_ABS | HWTIMER_F_NO_RECORD |
				 HWTIMER_F_EVENTFD,
			.clockid = CLOCK_MONOTONIC, .eventfd = efd,
			.expires = start,
			.period = 2 * SEC + (__u64)(i + k) * 256000,
		};
}

TEST_F_TIMEOUT(bound, rearms_during_a_backlog_do_not_wake_it, 900)
{
	static struct hwtimer_op ops[4096];
	int efd = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK), scratch;
	struct hwtimer_info info = { 0 };
	unsigned long long w0, wakeups;
	__u32 n = 20000, i, k, chunk, margin = 3;
	__u64 start, per;

	ASSERT_LE(0, efd);
	ASSERT_EQ(0, t_ioctl(self->fd, HWTIMER_IOC_INFO, &info));
	scratch = t_open();
	ASSERT_LE(0, scratch);
	per = t_now_ns(CLOCK_MONOTONIC);
	rearm_ops(ops, 0, 4096, per + 3600 * SEC, efd);
	ASSERT_EQ(4096, batch(scratch, ops, 4096));
	per = (t_now_ns(CLOCK_MONOTONIC) - per) / 4096 + 1;
	close(scratch);
again:
	start = t_now_ns(CLOCK_MONOTONIC) + margin * per * n + SEC;
	for (i = 0; i < n; i += chunk) {
		chunk = n - i < 4096 ? n - i : 4096;
		rearm_ops(ops, i, chunk, start, efd);
		ASSERT_EQ((long)chunk, batch(self->fd, ops, chunk));
		for (k = 0; k < chunk && !ops[k].result; k++)
			;
		ASSERT_EQ(chunk, k) TH_LOG("ADD %u: %d", i + k, ops[k].result);
	}
	if (t_now_ns(CLOCK_MONOTONIC) >= start && margin < 27) {
		TH_LOG("ADDs outlasted %u x their estimate of %llu ns: again",
		       margin, (unsigned long long)per);
		close(self->fd);
		self->fd = t_open();
		ASSERT_LE(0, self->fd);
		margin *= 3;
		goto again;
	}
	ASSERT_GT(start, t_now_ns(CLOCK_MONOTONIC));
	/* the backlog's own cascades wake the base a few times before start */
	w0 = t_fdinfo_u64(self->fd, "wakeups");
	for (i = 0; i < 20 * 600 && t_fdinfo_u64(self->fd, "fired") < n; i++)
		usleep(50 * 1000);
	wakeups = t_fdinfo_u64(self->fd, "wakeups") - w0;
	TH_LOG("%u re-armed timers: %llu wakeups, %llu passes in the run, %llu in the worker",
	       n, wakeups, t_fdinfo_u64(self->fd, "continued"),
	       t_fdinfo_u64(self->fd, "handed_off"));
	ASSERT_LE((unsigned long long)n, t_fdinfo_u64(self->fd, "fired"));
	EXPECT_GE((unsigned long long)info.levels + 2, wakeups);
	close(efd);
}

/* userfaultfd: hold each fault on a registered page for 5 ms */
struct stall {
	int uffd;
	long size;
	unsigned int faults;
	atomic_int stop;
};

static void *stall_faults(void *arg)
{
	struct stall *st = arg;
	static char zero[1 << 16];

	while (!atomic_load(&st->stop)) {
		struct pollfd p = { .fd = st->uffd, .events = POLLIN };
		struct uffd_msg msg;
		struct uffdio_copy copy;

		if (poll(&p, 1, 50) <= 0)
			continue;
		if (read(st->uffd, &msg, sizeof(msg)) != sizeof(msg) ||
		    msg.event != UFFD_EVENT_PAGEFAULT)
			continue;
		usleep(5000);
		copy = (struct uffdio_copy){
			.dst = msg.arg.pagefault.address & ~(__u64)(st->size - 1),
			.src = (uintptr_t)zero, .len = st->size,
		};
		ioctl(st->uffd, UFFDIO_COPY, &copy);
		st->faults++;
	}
	return NULL;
}

/*
 * A periodic record read() while the wheel's clock moves (another periodic
 * timer expires every millisecond) and the copy of the record stalls for
 * 5 ms: re-arming the timer must not take the stalled time for "now", which
 * would be behind the wheel and rebase a MONOTONIC wheel.
 */
TEST_F_TIMEOUT(bound, stalled_read_never_rebases_monotonic, 120)
{
	struct uffdio_api api = { .api = UFFD_API };
	struct stall st = { .size = sysconf(_SC_PAGESIZE) };
	struct pollfd p = { .fd = self->fd, .events = POLLIN };
	int efd = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
	unsigned int i, got = 0;
	pthread_t th;

	ASSERT_LE(0, efd);
	st.uffd = syscall(SYS_userfaultfd, O_CLOEXEC | O_NONBLOCK);
	if (st.uffd < 0)
		SKIP(return, "no userfaultfd: %s", strerror(errno));
	ASSERT_EQ(0, ioctl(st.uffd, UFFDIO_API, &api));
	ASSERT_EQ(0, pthread_create(&th, NULL, stall_faults, &st));

	ASSERT_EQ(0, add_many(self->fd, 20000, 0, 3600 * SEC, 1, 0));
	ASSERT_EQ(0, t_add(self->fd, 0, CLOCK_MONOTONIC, MS, MS, 1, NULL));
	ASSERT_EQ(0, t_add_efd(self->fd, HWTIMER_F_NO_RECORD, MS, MS, efd, NULL));
	for (i = 0; i < 20; i++) {
		/* a fresh page each time: its first touch is the copy */
		struct uffdio_register reg = {
			.mode = UFFDIO_REGISTER_MODE_MISSING,
			.range.len = st.size,
		};
		void *page = mmap(NULL, st.size, PROT_READ | PROT_WRITE,
				  MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

		ASSERT_NE(MAP_FAILED, page);
		reg.range.start = (uintptr_t)page;
		ASSERT_EQ(0, ioctl(st.uffd, UFFDIO_REGISTER, &reg));
		ASSERT_EQ(1, poll(&p, 1, t_ms(5000)));
		if (read(self->fd, page, sizeof(struct hwtimer_record)) > 0)
			got++;
		munmap(page, st.size);
	}
	atomic_store(&st.stop, 1);
	pthread_join(th, NULL);
	TH_LOG("%u reads, %u stalled copies", got, st.faults);
	EXPECT_EQ(20U, got);
	EXPECT_EQ(20U, st.faults);
	EXPECT_EQ(0ULL, t_fdinfo_u64(self->fd, "rebases"));
	close(st.uffd);
	close(efd);
}

static long add_norecord(int fd, int efd, __u64 period, __u32 *id)
{
	return t_add_efd(fd, HWTIMER_F_NO_RECORD, period, period, efd, id);
}

/* A NO_RECORD periodic timer's period has a floor; a record timer's not. */
TEST_F(bound, norecord_period_floor_erange)
{
	const __u64 floor = HWTIMER_NO_RECORD_MIN_PERIOD_NS;
	int efd = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
	__u32 id;

	ASSERT_LE(0, efd);
	EXPECT_EQ(-ERANGE, add_norecord(self->fd, efd, 1, NULL));
	EXPECT_EQ(-ERANGE, add_norecord(self->fd, efd, floor - 1, NULL));
	ASSERT_EQ(0, add_norecord(self->fd, efd, floor, &id));
	/* MOD may not take it below either */
	EXPECT_EQ(-ERANGE, t_mod(self->fd, id, HWTIMER_F_PERIOD, SEC, floor / 2, NULL));
	EXPECT_EQ(1, t_mod(self->fd, id, HWTIMER_F_PERIOD, SEC, 10 * floor, NULL));
	/* a timer whose records pace its re-arms may be as fast as it likes */
	EXPECT_EQ(0, t_add(self->fd, 0, CLOCK_MONOTONIC, SEC, 1, 0, NULL));
	close(efd);
}

/* The re-arms per second of a user's NO_RECORD timers are capped. */
TEST_F(bound, norecord_rearms_capped_per_user_edquot)
{
	long long old = t_param_set("max_rearms_per_user", 5000);
	int efd = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK), fd2;
	__u32 id[5], i;

	ASSERT_LE(0, efd);
	ASSERT_LE(0, old);
	/* 1000 re-arms per second each */
	for (i = 0; i < 5; i++)
		ASSERT_EQ(0, add_norecord(self->fd, efd, MS, &id[i]));
	EXPECT_EQ(5000ULL, t_fdinfo_u64(self->fd, "rearms_per_s"));
	EXPECT_EQ(-EDQUOT, add_norecord(self->fd, efd, MS, NULL));
	/* a second file of the same user shares the cap */
	fd2 = t_open();
	ASSERT_LE(0, fd2);
	EXPECT_EQ(-EDQUOT, add_norecord(fd2, efd, SEC, NULL));
	/* cancelling gives it back */
	ASSERT_EQ(1, t_cancel(self->fd, id[0]));
	EXPECT_EQ(0, add_norecord(fd2, efd, 2 * MS, NULL));
	EXPECT_EQ(0, add_norecord(fd2, efd, 2 * MS, NULL));
	EXPECT_EQ(-EDQUOT, add_norecord(fd2, efd, SEC, NULL));
	/* a faster period costs more, a slower one gives back */
	EXPECT_EQ(-EDQUOT, t_mod(self->fd, id[1], HWTIMER_F_PERIOD, MS, MS / 2, NULL));
	EXPECT_EQ(1, t_mod(self->fd, id[1], HWTIMER_F_PERIOD, MS, 2 * MS, NULL));
	EXPECT_EQ(3500ULL, t_fdinfo_u64(self->fd, "rearms_per_s"));
	EXPECT_EQ(0, add_norecord(fd2, efd, 2 * MS, NULL));
	/* timers with records are not charged */
	EXPECT_EQ(0, t_add(self->fd, 0, CLOCK_MONOTONIC, MS, MS, 0, NULL));
	/* closing a file gives back all of its charge */
	close(fd2);
	EXPECT_EQ(0, add_norecord(self->fd, efd, MS, NULL));
	EXPECT_EQ(0, add_norecord(self->fd, efd, 2 * MS, NULL));
	EXPECT_EQ(-EDQUOT, add_norecord(self->fd, efd, SEC, NULL));
	t_param_set("max_rearms_per_user", old);
	close(efd);
}

/* 256 timers due together on one eventfd: one signal per pass, not 256. */
TEST_F(bound, shared_eventfd_signalled_once_per_pass)
{
	static struct hwtimer_op ops[256];
	static struct hwtimer_record recs[256];
	int efd = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
	__u64 at = t_now_ns(CLOCK_MONOTONIC) + 50 * MS, v = 0;
	unsigned long long runs;
	long got = 0, r;
	__u32 i;

	ASSERT_LE(0, efd);
	for (i = 0; i < 256; i++)
		ops[i] = (struct hwtimer_op){
			.op = HWTIMER_OP_ADD, .clockid = CLOCK_MONOTONIC,
			.flags = HWTIMER_F_ABS | HWTIMER_F_EVENTFD,
			.eventfd = efd, .expires = at,
		};
	ASSERT_EQ(256, batch(self->fd, ops, 256));
	while (got < 256) {
		r = t_read(self->fd, recs, 256);
		ASSERT_LT(0, r);
		got += r;
	}
	ASSERT_EQ(8, read(efd, &v, 8));
	runs = t_fdinfo_u64(self->fd, "wakeups") + t_fdinfo_u64(self->fd, "continued") +
	       t_fdinfo_u64(self->fd, "handed_off");
	TH_LOG("256 expiries, %llu passes, eventfd counter %llu", runs,
	       (unsigned long long)v);
	EXPECT_LE(1ULL, v);
	EXPECT_LE(v, runs);
	EXPECT_GT(256ULL, v);
	close(efd);
}

static void on_alarm(int sig)
{
}

/* A signal every millisecond, without SA_RESTART; 0 stops it. */
static void alarm_every_ms(int on)
{
	struct itimerval it = { .it_value.tv_usec = on ? 1000 : 0,
				.it_interval.tv_usec = on ? 1000 : 0 };
	struct sigaction sa = { .sa_handler = on_alarm };

	sigaction(SIGALRM, &sa, NULL);
	setitimer(ITIMER_REAL, &it, NULL);
}

/* A long BATCH stops for a signal; done says where to go on. */
TEST_F_TIMEOUT(bound, batch_stops_for_signal, 300)
{
	const __u32 n = 65536;
	struct hwtimer_op *ops = calloc(n, sizeof(*ops));
	struct hwtimer_drain d = { 0 };
	__u32 i, done = 0, calls = 0;

	ASSERT_NE(NULL, ops);
	for (i = 0; i < n; i++)
		ops[i] = (struct hwtimer_op){
			.op = HWTIMER_OP_ADD, .clockid = CLOCK_MONOTONIC,
			.expires = 3600 * SEC + i,
		};
	alarm_every_ms(1);
	while (done < n) {
		long ret = batch(self->fd, ops + done, n - done);

		if (ret == -EINTR)
			continue;
		ASSERT_LT(0, ret);
		done += ret;
		calls++;
	}
	alarm_every_ms(0);
	TH_LOG("%u entries in %u calls", n, calls);
	EXPECT_LT(1U, calls);
	for (i = 0; i < n; i++)
		ASSERT_EQ(0, ops[i].result) TH_LOG("entry %u", i);
	EXPECT_EQ((unsigned long long)n, t_fdinfo_u64(self->fd, "timers"));
	ASSERT_EQ(0, t_ioctl(self->fd, HWTIMER_IOC_DRAIN, &d));
	free(ops);
}

/* A long read() stops for a signal with the records it has, none lost. */
TEST_F_TIMEOUT(bound, read_stops_for_signal, 300)
{
	const __u32 n = 100000;
	struct hwtimer_record *recs = calloc(n, sizeof(*recs));
	char *seen = calloc(n, 1);
	__u32 got = 0, calls = 0;

	ASSERT_NE(NULL, recs);
	ASSERT_NE(NULL, seen);
	ASSERT_EQ(0, add_many(self->fd, n, 0, MS, 0, 0));
	ASSERT_EQ(0, wait_pending_zero(self->fd, 120));
	alarm_every_ms(1);
	while (got < n) {
		long r = t_read(self->fd, recs, n - got), k;

		if (r == -EINTR)
			continue;
		ASSERT_LT(0, r);
		for (k = 0; k < r; k++) {
			ASSERT_GT(n, recs[k].cookie);
			ASSERT_EQ(0, seen[recs[k].cookie]);
			seen[recs[k].cookie] = 1;
		}
		got += r;
		calls++;
	}
	alarm_every_ms(0);
	TH_LOG("%u records in %u reads", n, calls);
	EXPECT_LT(1U, calls);
	free(seen);
	free(recs);
}

HWT_HARNESS_MAIN
