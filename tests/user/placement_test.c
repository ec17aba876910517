// SPDX-License-Identifier: GPL-2.0
/*
 * Where a file's expiry runs, read from its fdinfo counters rather than
 * from timings: in the hrtimer's own interrupt (hard_passes), as timerfd's
 * does, but on PREEMPT_RT, where it runs in the ktimers thread; a herd
 * goes on in softirq context (continued) or, on PREEMPT_RT, in the worker
 * (handed_off); a pass runs on the CPU where its hrtimer was armed, the
 * reader's when the reader arms its own timers (passes_on_reader_cpu,
 * passes_elsewhere); and a pass whose records nobody waits for wakes
 * nobody, and leaves no wake-up to the worker.
 */
#define _GNU_SOURCE
#include <sched.h>
#include <sys/utsname.h>

#include "kselftest_harness.h"
#include "helpers.h"

#define NSPREAD	64	/* timers 1 ms apart, each read as it fires */
#define NHERD	2000	/* timers due at one instant */

static bool preempt_rt(void)
{
	struct utsname u;

	return !uname(&u) && strstr(u.version, "PREEMPT_RT");
}

/*
 * @n one-shot timers, the first @first ns from now, then one every @gap;
 * the id of the last, or 0 if an ADD failed
 */
static __u32 add_spread(int fd, unsigned int n, __u64 first,
			__u64 gap)
{
	__u64 now = t_now_ns(CLOCK_MONOTONIC);
	__u32 id = 0;
	unsigned int i;

	for (i = 0; i < n; i++)
		if (t_add(fd, HWTIMER_F_ABS | HWTIMER_F_AUTOREMOVE,
			  CLOCK_MONOTONIC, now + first + i * gap, 0, i, &id))
			return 0;
	return id;
}

/* read() @n records, blocking: the reader sleeps while they are due */
static void read_all(struct __test_metadata *_metadata, int fd, unsigned int n)
{
	struct hwtimer_record r[64];

	while (n) {
		long k = t_read(fd, r, n < 64 ? n : 64);

		ASSERT_LT(0, k);
		n -= k;
	}
}

FIXTURE(placement) {
	int fd;
};

FIXTURE_SETUP(placement)
{
	if (!hwt_device_present())
		SKIP(return, HWT_NO_DEVICE);
	self->fd = t_open();
	ASSERT_LE(0, self->fd);
}

FIXTURE_TEARDOWN(placement)
{
	close(self->fd);
}

TEST_F(placement, expiry_runs_in_the_interrupt_but_on_rt)
{
	ASSERT_NE(0, add_spread(self->fd, NSPREAD, 2 * MS, MS));
	read_all(_metadata, self->fd, NSPREAD);
	/* none in the interrupt on PREEMPT_RT, some everywhere else */
	EXPECT_EQ(preempt_rt(), !t_fdinfo_u64(self->fd, "hard_passes"));
	EXPECT_LT(0ULL, t_fdinfo_u64(self->fd, "wakeups"));
}

/*
 * A herd is more than a pass in the interrupt may take: the run goes on
 * in softirq context at once; on PREEMPT_RT a run is one pass and the
 * worker takes the rest (base.h).
 */
TEST_F(placement, a_herd_goes_on_past_the_interrupt)
{
	bool armed = false;
	unsigned int i;
	__u64 margin;

	/*
	 * Every ADD before the deadline, or the herd is a few small ones: a
	 * host that stalled the ADDs past it gets a new file and more time.
	 */
	for (margin = t_ms(200) * MS; !armed && margin <= 13 * SEC;
	     margin *= 4) {
		__u64 at = t_now_ns(CLOCK_MONOTONIC) + margin;

		for (i = 0; i < NHERD; i++)
			ASSERT_EQ(0, t_add(self->fd, HWTIMER_F_ABS |
					   HWTIMER_F_AUTOREMOVE,
					   CLOCK_MONOTONIC, at, 0, i, NULL));
		armed = t_now_ns(CLOCK_MONOTONIC) < at;
		if (!armed) {
			close(self->fd);
			self->fd = t_open();
			ASSERT_LE(0, self->fd);
		}
	}
	if (!armed)
		SKIP(return, "could not add %d timers within 13 s", NHERD);
	read_all(_metadata, self->fd, NHERD);
	EXPECT_LT(0ULL, t_fdinfo_u64(self->fd, "deferred"));
	if (preempt_rt()) {
		EXPECT_EQ(0ULL, t_fdinfo_u64(self->fd, "continued"));
		EXPECT_LT(0ULL, t_fdinfo_u64(self->fd, "handed_off"));
	} else {
		EXPECT_LT(0ULL, t_fdinfo_u64(self->fd, "hard_passes"));
		EXPECT_LT(0ULL, t_fdinfo_u64(self->fd, "continued") +
				t_fdinfo_u64(self->fd, "handed_off"));
	}
}

/*
 * A reader that arms its own timers has its hrtimer armed on its CPU, and
 * the passes re-arm it where they run: every pass that woke it ran there.
 */
TEST_F(placement, expiry_runs_on_the_cpu_that_armed_it)
{
	unsigned int cpu;

	if (sysconf(_SC_NPROCESSORS_ONLN) < 2)
		SKIP(return, "needs two CPUs");
	for (cpu = 0; cpu < 2; cpu++) {
		int fd = t_open();

		ASSERT_LE(0, fd);
		ASSERT_EQ(0, t_pin_cpu(cpu));
		ASSERT_NE(0, add_spread(fd, NSPREAD, 2 * MS, MS));
		read_all(_metadata, fd, NSPREAD);
		EXPECT_LT(0ULL, t_fdinfo_u64(fd, "passes_on_reader_cpu"));
		EXPECT_EQ(0ULL, t_fdinfo_u64(fd, "passes_elsewhere"));
		close(fd);
	}
}

/*
 * Records nobody waits for: the passes count no reader woken and leave
 * no wake-up to the worker.
 */
TEST_F(placement, no_wakeup_when_nobody_waits)
{
	struct hwtimer_record r[NSPREAD];
	__u32 last = add_spread(self->fd, NSPREAD, MS, 100 * 1000);

	ASSERT_NE(0, last);
	while (t_get_state(self->fd, last) == HWTIMER_STATE_PENDING)
		usleep(10000);
	EXPECT_EQ(NSPREAD, t_read(self->fd, r, NSPREAD));
	EXPECT_EQ(0ULL, t_fdinfo_u64(self->fd, "passes_on_reader_cpu"));
	EXPECT_EQ(0ULL, t_fdinfo_u64(self->fd, "passes_elsewhere"));
	EXPECT_EQ(0ULL, t_fdinfo_u64(self->fd, "wakeups_handed_off"));
}

HWT_HARNESS_MAIN
