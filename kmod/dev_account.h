/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _HWT_DEV_ACCOUNT_H
#define _HWT_DEV_ACCOUNT_H

#include <linux/math64.h>
#include <linux/refcount.h>
#include <linux/uidgid.h>

#include "dev.h"

struct cred;

/**
 * struct hwt_user - what one user holds over all its files
 * @uid: the user who pays: see hwt_payer()
 * @ref: open files of the user
 * @rearms: re-arms per second its NO_RECORD periodic timers cost
 * @pass_rearms: periodic timers expiry passes re-armed in the current
 *		 second, their records having gone to a ring (low 32 bits),
 *		 and the jiffies that second began at (high 32 bits)
 */
struct hwt_user {
	kuid_t uid;
	refcount_t ref;
#ifndef HWT_COMPAT_UCOUNTS
	/**
	 * @timers: timers the user holds, counted as what they take: the
	 * entries of the files' tables of timers, a timer's or free
	 * (dev_ids.c), the record slots of the expiry rings (dev_ring.c), and
	 * the timers' struct hwt_uext, the files and their bases, as the
	 * entries that would take as many bytes (HWT_UEXT_UNITS,
	 * hwt_file_units, hwt_base_units). Where the kernel has counts of
	 * hwtimer's own in its ucounts, they are counted there instead.
	 */
	atomic_long_t timers;
#endif
	atomic_long_t rearms;
	atomic64_t pass_rearms;
};

/* limits: module parameters (dev_account.c) */
extern unsigned int hwt_max_timers_per_fd;
#ifndef HWT_COMPAT_UCOUNTS
extern unsigned int hwt_max_timers_per_user;
extern unsigned int hwt_max_files_per_user;
#endif
extern unsigned int hwt_max_rearms_per_user;

/* what a file, and each base it sets up, count against the user's timers */
extern unsigned int hwt_file_units;
extern unsigned int hwt_base_units;
/* and what a timer's struct hwt_uext counts as, besides its entry */
#define HWT_UEXT_UNITS	1

int hwt_user_get(struct hwt_file *hf, const struct cred *cred);
void hwt_user_put(struct hwt_file *hf);
bool hwt_charge(struct hwt_file *hf, unsigned int n);
void hwt_uncharge(struct hwt_file *hf, unsigned int n);
long hwt_user_charged(const struct hwt_file *hf);
u32 hwt_user_max_timers(void);
u32 hwt_user_max_files(void);
void hwt_file_uncharge(struct hwt_file *hf);
bool __hwt_rearms_charge(struct hwt_file *hf, unsigned long n);
void __hwt_rearms_uncharge(struct hwt_file *hf, unsigned long n);
bool hwt_pass_rearm_take(struct hwt_file *hf);
struct hwt_uext *hwt_uext_alloc(void);
void hwt_uext_free(struct hwt_uext *e);
int hwt_account_init(void);
void hwt_account_exit(void);

/*
 * NO_RECORD periodic timers: the re-arms per second a timer costs its user
 * if the kernel re-arms it. Every other timer costs none, and the charges
 * below are a compare for it.
 */
static inline unsigned long hwt_rearms(u32 uflags, u64 period)
{
	if (!(uflags & HWT_U_NO_RECORD) || !period)
		return 0;
	return DIV64_U64_ROUND_UP(NSEC_PER_SEC, period);
}

/* Charge @n re-arms per second to the file's user; false past the cap. */
static inline bool hwt_rearms_charge(struct hwt_file *hf, unsigned long n)
{
	return !n || __hwt_rearms_charge(hf, n);
}

static inline void hwt_rearms_uncharge(struct hwt_file *hf, unsigned long n)
{
	if (n)
		__hwt_rearms_uncharge(hf, n);
}

#endif /* _HWT_DEV_ACCOUNT_H */
