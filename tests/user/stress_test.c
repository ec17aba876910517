// SPDX-License-Identifier: GPL-2.0
/*
 * Stress with a conservation ledger. Threads in two processes share one
 * /dev/hwtimer file (through fork), and the child also hammers a file of
 * its own. They add, modify, cancel, get, batch, read, poll and drain, dup
 * and close the fd, and hand eventfds to timers only to close them at once.
 * Every outcome the kernel reports goes into a ledger in shared memory.
 * When the run ends, every timer must be accounted for:
 *
 *  - no id is handed out while its timer lives (ids are reused, last freed
 *    first; only an AUTOREMOVE timer's id may come back before the
 *    ledger has seen its record), and no one-shot arming is reported
 *    twice (no (id, gen) record twice);
 *  - a one-shot timer never yields more records than it had armings;
 *  - after a final drain and read, each file holds exactly the timers the
 *    ledger says are alive, none pending, no record queued;
 *  - each file's fdinfo counters equal the ledger's: added, cancelled,
 *    drained, records; and fired = armings - cancelled - drained;
 *  - the global sysfs counters moved by the sum of the files';
 *  - periodic timers fired (records plus overruns) once per elapsed period.
 *
 * HWT_STRESS_SECONDS (default 20) and HWT_STRESS_SEED set the run; the seed
 * is printed so a failure reproduces. The splat scan of the harness runs
 * after it, as after every test. Under fault injection (the VM harness
 * makes hwtimer's allocations fail at random) an operation may fail with
 * ENOMEM and must then have changed nothing: the ledger stays exact. The
 * failures seen are counted and printed.
 */
#define _GNU_SOURCE
#include <poll.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <sys/eventfd.h>
#include <sys/mman.h>
#include <sys/wait.h>

#include "kselftest_harness.h"
#include "helpers.h"
#include "stress_ledger.h"

static __u64 seed;

/* Workers */

struct worker {
	int fd;
	struct ledger *l;
	unsigned int rnd;
	int periodic_owner;
	__u32 recent[64];	/* ids this worker added lately */
	unsigned int nrecent;
};

static __u32 rnd32(struct worker *w)
{
	return (__u32)rand_r(&w->rnd) << 16 ^ (__u32)rand_r(&w->rnd);
}

/* An id this worker added lately, or any; never a periodic timer's. */
static __u32 some_id(struct worker *w)
{
	__u32 id;

	do {
		id = w->nrecent ? w->recent[rnd32(w) % (w->nrecent < 64 ? w->nrecent : 64)] :
				  1 + rnd32(w) % 1000;
	} while (id < MAX_IDS && w->l->t[id].periodic);
	return id;
}

static void remember(struct worker *w, __u32 id)
{
	w->recent[w->nrecent++ % 64] = id;
}

static void drain_records(struct worker *w)
{
	struct hwtimer_record r[64];
	long n, i;

	do {
		n = read(w->fd, r, sizeof(r));
		if (n <= 0)
			break;
		n /= (long)sizeof(r[0]);
		pthread_mutex_lock(&w->l->lock);
		for (i = 0; i < n; i++)
			on_record(w->l, &r[i]);
		pthread_mutex_unlock(&w->l->lock);
	} while (n == 64);
}

static void do_add(struct worker *w, int with_efd)
{
	struct hwtimer_op op = {
		.clockid = rnd32(w) % 4 ? CLOCK_MONOTONIC : CLOCK_BOOTTIME,
		.expires = rnd32(w) % (20 * MS), .cookie = rnd32(w),
	};
	int efd = -1;
	long ret;

	if (rnd32(w) % 8 == 0)
		op.flags |= HWTIMER_F_AUTOREMOVE;
	if (with_efd) {
		efd = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
		op.flags |= HWTIMER_F_EVENTFD;
		op.eventfd = efd;
	}
	pthread_mutex_lock(&w->l->lock);
	ret = t_ioctl(w->fd, HWTIMER_IOC_ADD, &op);
	if (!ret)
		on_add(w->l, &op);
	else if (ret == -ENOMEM)
		atomic_fetch_add(&sh->nomem, 1);
	pthread_mutex_unlock(&w->l->lock);
	if (!ret)
		remember(w, op.id);
	/* the timer keeps its own reference: pull the eventfd from under it */
	if (efd >= 0)
		close(efd);
}

static void do_batch(struct worker *w)
{
	struct hwtimer_op ops[16];
	struct hwtimer_batch b = {
		.ops = (uintptr_t)ops, .count = 16, .op_size = sizeof(ops[0]),
	};
	long ret;
	int i;

	memset(ops, 0, sizeof(ops));
	for (i = 0; i < 16; i++) {
		switch (rnd32(w) % 3) {
		case 0:
			ops[i].op = HWTIMER_OP_CANCEL;
			ops[i].id = some_id(w);
			break;
		case 1:
			ops[i].op = HWTIMER_OP_MOD;
			ops[i].id = some_id(w);
			ops[i].expires = rnd32(w) % (30 * MS);
			break;
		default:
			ops[i].op = HWTIMER_OP_ADD;
			ops[i].clockid = CLOCK_MONOTONIC;
			ops[i].expires = rnd32(w) % (20 * MS);
		}
	}
	/* the ledger sees the batch as one step: hold its lock across it */
	pthread_mutex_lock(&w->l->lock);
	ret = t_ioctl(w->fd, HWTIMER_IOC_BATCH, &b);
	if (ret == -ENOMEM)
		atomic_fetch_add(&sh->nomem, 1);
	for (i = 0; ret > 0 && i < ret; i++) {
		if (ops[i].result == -ENOMEM)
			atomic_fetch_add(&sh->nomem, 1);
		if (ops[i].op == HWTIMER_OP_ADD && !ops[i].result)
			on_add(w->l, &ops[i]);
		else if (ops[i].op == HWTIMER_OP_MOD)
			on_mod(w->l, ops[i].id, ops[i].result);
		else if (ops[i].op == HWTIMER_OP_CANCEL)
			on_cancel(w->l, ops[i].id, ops[i].result);
	}
	pthread_mutex_unlock(&w->l->lock);
	for (i = 0; ret > 0 && i < ret; i++)
		if (ops[i].op == HWTIMER_OP_ADD && !ops[i].result)
			remember(w, ops[i].id);
}

static void *work(void *arg)
{
	struct worker *w = arg;
	struct pollfd p = { .fd = w->fd, .events = POLLIN };
	struct hwtimer_get g;
	__u32 id;
	long ret;

	while (!atomic_load(&sh->stop)) {
		__u32 r = rnd32(w) % 100;

		atomic_fetch_add(&sh->ops, 1);
		if (r < 25) {
			do_add(w, r < 3);
		} else if (r < 40) {
			id = some_id(w);
			pthread_mutex_lock(&w->l->lock);
			ret = t_mod(w->fd, id, 0, rnd32(w) % (30 * MS), 0, NULL);
			on_mod(w->l, id, ret);
			pthread_mutex_unlock(&w->l->lock);
		} else if (r < 55) {
			id = some_id(w);
			pthread_mutex_lock(&w->l->lock);
			ret = t_cancel(w->fd, id);
			on_cancel(w->l, id, ret);
			pthread_mutex_unlock(&w->l->lock);
		} else if (r < 60) {
			t_get(w->fd, some_id(w), &g);
		} else if (r < 70) {
			do_batch(w);
		} else if (r < 90) {
			drain_records(w);
		} else if (r < 95) {
			poll(&p, 1, 1);
			drain_records(w);
		} else if (r < 99) {
			/* a second descriptor of the same file, gone again */
			int d = dup(w->fd);

			if (d >= 0)
				close(d);
		} else {
			struct hwtimer_eventfd e = { .fd = eventfd(0, EFD_CLOEXEC) };

			t_ioctl(w->fd, HWTIMER_IOC_SET_EVENTFD, &e);
			close(e.fd);
		}
	}
	return NULL;
}

static void add_periodic(int fd, struct ledger *l, int n)
{
	int i;

	for (i = 0; i < n; i++) {
		struct hwtimer_op op = {
			.flags = HWTIMER_F_ABS, .clockid = CLOCK_MONOTONIC,
			.expires = t_now_ns(CLOCK_MONOTONIC) + PERIOD, .period = PERIOD,
		};

		pthread_mutex_lock(&l->lock);
		if (!t_ioctl(fd, HWTIMER_IOC_ADD, &op))
			on_add(l, &op);
		pthread_mutex_unlock(&l->lock);
	}
}

static void run_workers(int fd, struct ledger *l, int nthreads, unsigned int salt)
{
	pthread_t th[4];
	struct worker w[4];
	int i;

	for (i = 0; i < nthreads; i++) {
		memset(&w[i], 0, sizeof(w[i]));
		w[i].fd = fd;
		w[i].l = l;
		w[i].rnd = (unsigned int)seed * 31 + salt * 7 + (unsigned int)i;
		pthread_create(&th[i], NULL, work, &w[i]);
	}
	for (i = 0; i < nthreads; i++)
		pthread_join(th[i], NULL);
}

/* Read every queued record; allocation failures are tried again. */
static void read_all(int fd, struct ledger *l)
{
	struct hwtimer_record r;
	long n;

	while ((n = t_read(fd, &r, 1)) == 1 || n == -ENOMEM)
		if (n == 1)
			on_record(l, &r);
}

/* Whether fdinfo's @key differs from @want; if so, @msg says how. */
static bool fdinfo_differs(int fd, const char *key, unsigned long long want,
			   char *msg, size_t len)
{
	unsigned long long v = t_fdinfo_u64(fd, key);

	if (v == want)
		return false;
	snprintf(msg, len, "fdinfo %s = %llu, ledger says %llu", key, v, want);
	return true;
}

/* How many of periodic @t's deadlines come at or before @when. */
static long long due_by(const struct tl *t, __u64 when)
{
	return when > t->first_deadline ?
	       (long long)((when - t->first_deadline) / PERIOD) + 1 : 0;
}

/*
 * End of the run for one file: stop the periodic timers, drain, read what
 * is left, and compare the file with the ledger. Returns 0 or a message.
 */
static const char *settle(int fd, struct ledger *l, char *msg,
			  size_t len)
{
	__u32 *ids = calloc(MAX_IDS, sizeof(*ids));
	struct hwtimer_drain d;
	unsigned long long alive = 0, armings = 0, fired;
	__u64 read_at;
	__u32 id;

	t_set_nonblock(fd);
	pthread_mutex_lock(&l->lock);
	/* records first, then the periodic timers: their count must add up */
	read_at = t_now_ns(CLOCK_MONOTONIC);
	read_all(fd, l);
	for (id = 1; id < MAX_IDS; id++) {
		struct tl *t = &l->t[id];
		long ret;

		if (!t->alive || !t->periodic)
			continue;
		t->stopped = t_now_ns(CLOCK_MONOTONIC);
		do
			ret = t_cancel(fd, id);
		while (ret == -ENOMEM);
		on_cancel(l, id, ret);
	}
	/* a drain that met an allocation failure is simply tried again */
	for (;;) {
		long ret;

		memset(&d, 0, sizeof(d));
		d.ids = (uintptr_t)ids;
		d.max = MAX_IDS;
		ret = t_ioctl(fd, HWTIMER_IOC_DRAIN, &d);
		if (ret == -ENOMEM)
			continue;
		if (!ret)
			on_drain(l, ids, d.count);
		break;
	}
	read_all(fd, l);
	pthread_mutex_unlock(&l->lock);
	free(ids);

	for (id = 1; id < MAX_IDS; id++) {
		struct tl *t = &l->t[id];

		armings += t->armings;
		alive += t->alive;
		if (t->periodic && t->armings) {
			/*
			 * Deadlines first_deadline + k * PERIOD: those before
			 * the records were read, at least, and those before the
			 * cancel at most; a host that stalls in between makes
			 * the two apart. One not cancelled here has none.
			 */
			long long hi = due_by(t, t->stopped);
			long long lo = t->stopped ? due_by(t, read_at) : hi;

			/*
			 * The last period may not have fired by the read, and
			 * a record the cancel dropped took its expiries along.
			 */
			if ((long long)t->fires < lo - 3 ||
			    (long long)t->fires > hi + 1)
				violation(l, "periodic id %u: %llu fires", id, t->fires);
		}
	}
	if (l->violations) {
		snprintf(msg, len, "%llu violations, first: %s",
			 (unsigned long long)l->violations, l->why);
		return msg;
	}
	if (fdinfo_differs(fd, "timers", 0, msg, len) ||	/* drained: nothing left */
	    fdinfo_differs(fd, "pending", 0, msg, len) ||
	    fdinfo_differs(fd, "ready", 0, msg, len) ||
	    fdinfo_differs(fd, "added", l->adds, msg, len) ||
	    fdinfo_differs(fd, "cancelled", l->cancels1, msg, len) ||
	    fdinfo_differs(fd, "drained", l->drained, msg, len) ||
	    fdinfo_differs(fd, "records", l->records, msg, len))
		return msg;
	/* what each timer expired: see tl_fired() */
	fired = l->fired_before;
	for (id = 1; id < MAX_IDS; id++)
		fired += tl_fired(&l->t[id]);
	if (fdinfo_differs(fd, "fired", fired, msg, len))
		return msg;
#define FILE_FMT	"file: %llu added, %llu armings, %llu records, %llu cancelled, %llu drained, %llu fired\n"
	ksft_print_msg(FILE_FMT,
		       (unsigned long long)l->adds, armings, (unsigned long long)l->records,
		       (unsigned long long)l->cancels1, (unsigned long long)l->drained, fired);
#undef FILE_FMT
	return NULL;
}

static void *stop_after(void *arg)
{
	sleep(*(unsigned int *)arg);
	atomic_store(&sh->stop, 1);
	return NULL;
}

FIXTURE(stress) {
	int dummy;
};

FIXTURE_SETUP(stress)
{
	if (!hwt_device_present())
		SKIP(return, HWT_NO_DEVICE);
}

FIXTURE_TEARDOWN(stress)
{
}

TEST_F_TIMEOUT(stress, ledger_balances, 600)
{
	const char *env = getenv("HWT_STRESS_SECONDS");
	unsigned int secs = env ? (unsigned int)atoi(env) : 20;
	unsigned long long g_added, g_cancelled, g_drained, g_records;
	char msg[512];
	const char *bad;
	int fd, own, status;
	pid_t child;

	env = getenv("HWT_STRESS_SEED");
	seed = env ? strtoull(env, NULL, 0) : (__u64)time(NULL);
	ksft_print_msg("stress: seed %llu, %u s (HWT_STRESS_SEED, HWT_STRESS_SECONDS)\n",
		       (unsigned long long)seed, secs);
	sh = mmap(NULL, sizeof(*sh), PROT_READ | PROT_WRITE,
		  MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	ASSERT_NE(MAP_FAILED, sh);
	ledger_init(&sh->l[0]);
	ledger_init(&sh->l[1]);
	g_added = t_sysfs_u64("stats/added");
	g_cancelled = t_sysfs_u64("stats/cancelled");
	g_drained = t_sysfs_u64("stats/drained");
	g_records = t_sysfs_u64("stats/records");

	while ((fd = t_open()) < 0 && errno == ENOMEM)
		;
	ASSERT_LE(0, fd);
	/* workers poll and read without blocking, so they see the stop flag */
	ASSERT_EQ(0, t_set_nonblock(fd));
	add_periodic(fd, &sh->l[0], NPERIODIC);

	child = fork();
	ASSERT_LE(0, child);
	if (!child) {
		/* the shared file from two threads here, and a file of our own */
		pid_t sub;

		while ((own = t_open()) < 0 && errno == ENOMEM)
			;
		if (own < 0 || t_set_nonblock(own))
			_exit(1);
		add_periodic(own, &sh->l[1], NPERIODIC);
		sub = fork();
		if (!sub) {
			run_workers(own, &sh->l[1], 2, 3);
			_exit(0);
		}
		run_workers(fd, &sh->l[0], 2, 2);
		waitpid(sub, NULL, 0);
		bad = settle(own, &sh->l[1], msg, sizeof(msg));
		if (bad) {
			fprintf(stderr, "# own file: %s\n", bad);
			_exit(2);
		}
		close(own);
		_exit(0);
	}
	{
		pthread_t stopper;

		pthread_create(&stopper, NULL, stop_after, &secs);
		run_workers(fd, &sh->l[0], 2, 1);
		pthread_join(stopper, NULL);
	}
	ASSERT_EQ(child, waitpid(child, &status, 0));
	EXPECT_EQ(0, WEXITSTATUS(status));
	bad = settle(fd, &sh->l[0], msg, sizeof(msg));
	EXPECT_EQ(NULL, bad) TH_LOG("shared file: %s", bad);
	close(fd);

	ksft_print_msg("stress: %lu operations in %u s, %lu failed with ENOMEM\n",
		       atomic_load(&sh->ops), secs, atomic_load(&sh->nomem));
	if (getenv("HWT_EXPECT_NOMEM"))
		EXPECT_LT(0UL, atomic_load(&sh->nomem));
	/* the global counters moved by what the two files did, no more */
	EXPECT_EQ(g_added + sh->l[0].adds + sh->l[1].adds, t_sysfs_u64("stats/added"));
	EXPECT_EQ(g_cancelled + sh->l[0].cancels1 + sh->l[1].cancels1,
		  t_sysfs_u64("stats/cancelled"));
	EXPECT_EQ(g_drained + sh->l[0].drained + sh->l[1].drained,
		  t_sysfs_u64("stats/drained"));
	EXPECT_EQ(g_records + sh->l[0].records + sh->l[1].records,
		  t_sysfs_u64("stats/records"));
	munmap(sh, sizeof(*sh));
}

HWT_HARNESS_MAIN
