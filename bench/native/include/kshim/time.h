/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Clocks and hrtimers. The clocks read a fake time that the bench moves
 * (kshim_clock_advance()), out of line under the kernel's names so that
 * callgrind counts a read apart: a load, where the kernel's ktime_get_ns()
 * is a seqcount loop around a clocksource read (rdtsc) and a multiply and
 * shift. An hrtimer is armed and cancelled by recording it, and never
 * fires.
 */
#ifndef _KSHIM_TIME_H
#define _KSHIM_TIME_H

#include "kshim/core.h"

u64 ktime_get_ns(void);
u64 ktime_get_boottime_ns(void);
u64 ktime_get_real_ns(void);
u64 ktime_get_coarse_ns(void);
u64 ktime_get_coarse_boottime_ns(void);
unsigned long long sched_clock(void);
u64 local_clock(void);
ktime_t ktime_mono_to_real(ktime_t mono);
void kshim_clock_advance(u64 ns);

extern unsigned long volatile jiffies;
#define HZ	250

static inline s64 ktime_to_ns(ktime_t kt) { return kt; }
static inline ktime_t ns_to_ktime(u64 ns) { return (ktime_t)ns; }

struct timespec64 {
	s64 tv_sec;
	long tv_nsec;
};

static inline s64 timespec64_to_ns(const struct timespec64 *ts)
{
	return ts->tv_sec * NSEC_PER_SEC + ts->tv_nsec;
}

enum hrtimer_mode {
	HRTIMER_MODE_ABS	= 0x00,
	HRTIMER_MODE_REL	= 0x01,
	HRTIMER_MODE_PINNED	= 0x02,
	HRTIMER_MODE_SOFT	= 0x04,
	HRTIMER_MODE_HARD	= 0x08,
	HRTIMER_MODE_ABS_SOFT	= HRTIMER_MODE_ABS | HRTIMER_MODE_SOFT,
	HRTIMER_MODE_REL_SOFT	= HRTIMER_MODE_REL | HRTIMER_MODE_SOFT,
};

enum hrtimer_restart { HRTIMER_NORESTART, HRTIMER_RESTART };

struct hrtimer_cpu_base { int cpu; };
struct hrtimer_clock_base { struct hrtimer_cpu_base *cpu_base; };

struct hrtimer {
	ktime_t expires;
	ktime_t softexpires;
	enum hrtimer_restart (*function)(struct hrtimer *);
	struct hrtimer_clock_base *base;
	bool queued;
};

/* what the bench reads back: arms and cancels of every hrtimer */
struct kshim_hrtimer_stats {
	unsigned long starts;
	unsigned long cancels;
};
extern struct kshim_hrtimer_stats kshim_hrtimers;

void hrtimer_init(struct hrtimer *t, clockid_t clockid, enum hrtimer_mode mode);
void hrtimer_start_range_ns(struct hrtimer *t, ktime_t tim, u64 range,
			    enum hrtimer_mode mode);
int hrtimer_try_to_cancel(struct hrtimer *t);
int hrtimer_cancel(struct hrtimer *t);

static inline void hrtimer_start(struct hrtimer *t, ktime_t tim,
				 enum hrtimer_mode mode)
{
	hrtimer_start_range_ns(t, tim, 0, mode);
}

static inline void hrtimer_set_expires_range_ns(struct hrtimer *t, ktime_t tim,
						u64 delta)
{
	t->softexpires = tim;
	t->expires = tim + delta;
}

static inline ktime_t hrtimer_get_softexpires(const struct hrtimer *t)
{
	return t->softexpires;
}

static inline ktime_t hrtimer_get_expires(const struct hrtimer *t)
{
	return t->expires;
}

static inline bool hrtimer_is_queued(const struct hrtimer *t)
{
	return READ_ONCE(t->queued);
}

#endif
