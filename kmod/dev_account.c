// SPDX-License-Identifier: GPL-2.0
/*
 * /dev/hwtimer: what timers cost and who pays. The limits (module
 * parameters), what each user holds over all its files, the re-arms its
 * NO_RECORD periodic timers cost, and what timers with a period, slack or
 * an eventfd have besides their entry. See dev.h.
 */
#include <linux/cred.h>
#include <linux/math64.h>
#include <linux/module.h>
#include <linux/slab.h>
#include <linux/user_namespace.h>

#include "compat/compat.h"
#include "dev.h"
#include "dev_account.h"
#include "dev_signal.h"

unsigned int hwt_max_timers_per_fd = 1U << 21;
module_param_named(max_timers_per_fd, hwt_max_timers_per_fd, uint, 0644);
MODULE_PARM_DESC(max_timers_per_fd,
		 "Timers one open /dev/hwtimer may hold; ENOSPC past it (default 2097152)");

/*
 * A user's files and the timers they hold. Each open file costs its user
 * itself and its timer bases (a wheel per clock it uses) besides its
 * timers, which all count against max_timers_per_user (hwt_file_units,
 * hwt_base_units); as inotify caps instances besides watches, a user may
 * also have only max_files_per_user files open at once, over all its
 * processes.
 *
 * Where the kernel counts them in its ucounts (UCOUNT_HWTIMER_FILES and
 * UCOUNT_HWTIMER_TIMERS, in the kernel's own tree), the limits are the
 * user namespace's sysctls user.max_hwtimer_files and
 * user.max_hwtimer_timers, per namespace and for every namespace above,
 * as inotify's are; out of tree they are these module parameters, and
 * the module counts per user.
 */
#ifndef HWT_COMPAT_UCOUNTS
unsigned int hwt_max_timers_per_user = 1U << 23;
module_param_named(max_timers_per_user, hwt_max_timers_per_user, uint, 0644);
MODULE_PARM_DESC(max_timers_per_user,
		 "Timers one user may hold over all its files; EDQUOT past it (default 8388608)");

unsigned int hwt_max_files_per_user = 4096;
module_param_named(max_files_per_user, hwt_max_files_per_user, uint, 0644);
MODULE_PARM_DESC(max_files_per_user,
		 "Files of /dev/hwtimer one user may have open; EMFILE past it (default 4096)");
#endif

/*
 * A periodic HWTIMER_F_NO_RECORD timer is re-armed by the expiry itself, in
 * softirq context, which no cgroup pays for and no read() paces: each user
 * may have the kernel do at most this many such re-arms per second, over
 * all its files (each timer counts NSEC_PER_SEC / period of them). Record
 * timers whose records go to an expiry ring are re-armed by the pass too:
 * they get what NO_RECORD timers leave, each second (hwt_pass_rearm_take()).
 */
unsigned int hwt_max_rearms_per_user = 20000;
module_param_named(max_rearms_per_user, hwt_max_rearms_per_user, uint, 0644);
MODULE_PARM_DESC(max_rearms_per_user,
		 "Re-arms per second one user's NO_RECORD periodic timers may cost; EDQUOT past it (default 20000)");

/*
 * What a file, and each base it sets up, count as against
 * max_timers_per_user: the timers whose entries take as many bytes as
 * their allocations do, rounded up as the allocator rounds them (a wheel
 * of 29,128 bytes at the default geometry takes 32 KiB: 820 timers). Set
 * at load, from the geometry.
 */
unsigned int hwt_file_units;
unsigned int hwt_base_units;

static struct kmem_cache *hwt_uext_cache;
static DEFINE_XARRAY(hwt_users);
static DEFINE_MUTEX(hwt_users_lock);

/* Per-user accounting */

/*
 * Who pays for a file: the user who opened it or, if that user lives in a
 * user namespace, the user who created the outermost one. ucounts charges
 * every level up to the initial namespace for the same reason (as for
 * inotify's limits): the uids of a namespace, a subordinate range say,
 * must not multiply their creator's limits.
 */
static kuid_t hwt_payer(const struct cred *cred)
{
	const struct user_namespace *ns = cred->user_ns;
	kuid_t uid = cred->euid;

	for (; ns != &init_user_ns; ns = ns->parent)
		uid = ns->owner;
	return uid;
}

/*
 * The account of @uid, with one more file counted in it; with
 * hwt_users_lock held. ERR_PTR(-EMFILE) past max_files_per_user (where the
 * module counts files), or ERR_PTR(-ENOMEM).
 */
static struct hwt_user *hwt_user_find_get(kuid_t uid)
{
	unsigned long key = __kuid_val(uid);
	struct hwt_user *u;

	lockdep_assert_held(&hwt_users_lock);
	u = xa_load(&hwt_users, key);
	if (u) {
#ifndef HWT_COMPAT_UCOUNTS
		if (refcount_read(&u->ref) >= READ_ONCE(hwt_max_files_per_user))
			return ERR_PTR(-EMFILE);
#endif
		refcount_inc(&u->ref);
		return u;
	}
#ifndef HWT_COMPAT_UCOUNTS
	if (!READ_ONCE(hwt_max_files_per_user))
		return ERR_PTR(-EMFILE);
#endif
	u = kzalloc(sizeof(*u), GFP_KERNEL);
	if (!u)
		return ERR_PTR(-ENOMEM);
	u->uid = uid;
	refcount_set(&u->ref, 1);
	if (xa_err(xa_store(&hwt_users, key, u, GFP_KERNEL))) {
		kfree(u);
		return ERR_PTR(-ENOMEM);
	}
	return u;
}

/**
 * hwt_user_get() - charge a new file to its user
 * @hf: the file
 * @cred: the credentials it is opened with
 *
 * Counts the file in its user's account (@hf->user) and, where the kernel
 * counts hwtimer's files and timers, in the ucounts of @cred's user in its
 * namespace (@hf->ucounts), which its timers are charged to.
 *
 * Return: 0; -EMFILE if the user has as many files open as it may, or
 * -ENOMEM.
 */
int hwt_user_get(struct hwt_file *hf, const struct cred *cred)
{
	struct hwt_user *u;

#ifdef HWT_COMPAT_UCOUNTS
	hf->ucounts = inc_ucount(cred->user_ns, cred->euid,
				 UCOUNT_HWTIMER_FILES);
	if (!hf->ucounts)
		return -EMFILE;
#endif
	mutex_lock(&hwt_users_lock);
	u = hwt_user_find_get(hwt_payer(cred));
	mutex_unlock(&hwt_users_lock);
	if (IS_ERR(u)) {
#ifdef HWT_COMPAT_UCOUNTS
		dec_ucount(hf->ucounts, UCOUNT_HWTIMER_FILES);
#endif
		return PTR_ERR(u);
	}
	hf->user = u;
	return 0;
}

/* The file is closed: it no longer counts in its user's account. */
void hwt_user_put(struct hwt_file *hf)
{
	struct hwt_user *u = hf->user;

	mutex_lock(&hwt_users_lock);
	if (refcount_dec_and_test(&u->ref)) {
#ifndef HWT_COMPAT_UCOUNTS
		WARN_ON_ONCE(atomic_long_read(&u->timers));
#endif
		xa_erase(&hwt_users, __kuid_val(u->uid));
		kfree(u);
	}
	mutex_unlock(&hwt_users_lock);
#ifdef HWT_COMPAT_UCOUNTS
	dec_ucount(hf->ucounts, UCOUNT_HWTIMER_FILES);
#endif
}

/*
 * Add @n to @count if that keeps it within @cap; false, and nothing added,
 * past it. Never over @cap even for a moment, so that a charge that fails
 * never makes another that fits fail too.
 */
static bool hwt_charge_within(atomic_long_t *count, unsigned long n,
			      unsigned long cap)
{
	long old = atomic_long_read(count);

	do {
		if (n > cap || old > (long)(cap - n))
			return false;
	} while (!atomic_long_try_cmpxchg(count, &old, old + n));
	return true;
}

/*
 * Charge @n timers to the file's user at once; false, and nothing charged,
 * past max_timers_per_user. Any context.
 */
bool hwt_charge(struct hwt_file *hf, unsigned int n)
{
#ifdef HWT_COMPAT_UCOUNTS
	return charge_ucounts(hf->ucounts, UCOUNT_HWTIMER_TIMERS, n);
#else
	return hwt_charge_within(&hf->user->timers, n,
				 READ_ONCE(hwt_max_timers_per_user));
#endif
}

/* Give back @n timers hwt_charge() charged to the file's user. */
void hwt_uncharge(struct hwt_file *hf, unsigned int n)
{
#ifdef HWT_COMPAT_UCOUNTS
	uncharge_ucounts(hf->ucounts, UCOUNT_HWTIMER_TIMERS, n);
#else
	atomic_long_sub(n, &hf->user->timers);
#endif
}

/* What the file's user holds, in timers, as fdinfo shows it */
long hwt_user_charged(const struct hwt_file *hf)
{
#ifdef HWT_COMPAT_UCOUNTS
	return atomic_long_read(&hf->ucounts->ucount[UCOUNT_HWTIMER_TIMERS]);
#else
	return atomic_long_read(&hf->user->timers);
#endif
}

#ifdef HWT_COMPAT_UCOUNTS
/* The tightest of the limits on @type over the caller's namespaces */
static u32 hwt_ucount_max(enum ucount_type type)
{
	const struct user_namespace *ns;
	long max = INT_MAX;

	for (ns = current_user_ns(); ns; ns = ns->parent)
		max = min(max, READ_ONCE(ns->ucount_max[type]));
	return max;
}
#endif

/* max_timers_per_user as it applies to the caller, for HWTIMER_INFO */
u32 hwt_user_max_timers(void)
{
#ifdef HWT_COMPAT_UCOUNTS
	return hwt_ucount_max(UCOUNT_HWTIMER_TIMERS);
#else
	return READ_ONCE(hwt_max_timers_per_user);
#endif
}

/* max_files_per_user as it applies to the caller, for HWTIMER_INFO */
u32 hwt_user_max_files(void)
{
#ifdef HWT_COMPAT_UCOUNTS
	return hwt_ucount_max(UCOUNT_HWTIMER_FILES);
#else
	return READ_ONCE(hwt_max_files_per_user);
#endif
}

/**
 * hwt_file_uncharge() - a closing file gives its user back what it charged
 * @hf: the file, whose timers are freed
 *
 * Its periodic timers' re-arms, its timers' struct hwt_uext, its bases and
 * itself. Timers are charged by the entries of the table they take, which
 * go with the table (hwt_ids_destroy()); the ring's charge goes with the
 * ring (hwt_ring_free()).
 */
void hwt_file_uncharge(struct hwt_file *hf)
{
	hwt_rearms_uncharge(hf, hf->rearms);
	hwt_uncharge(hf, hweight_long(hf->clocks) * hwt_base_units +
		     hf->nexts * HWT_UEXT_UNITS + hwt_file_units);
}

/* NO_RECORD periodic timers: the re-arms the kernel does on its own */

/* hwt_rearms_charge() of @n > 0 */
bool __hwt_rearms_charge(struct hwt_file *hf, unsigned long n)
{
	struct hwt_user *u = hf->user;

	if (!hwt_charge_within(&u->rearms, n,
			       READ_ONCE(hwt_max_rearms_per_user)))
		return false;
	hf->rearms += n;
	return true;
}

/* hwt_rearms_uncharge() of @n > 0 */
void __hwt_rearms_uncharge(struct hwt_file *hf, unsigned long n)
{
	atomic_long_sub(n, &hf->user->rearms);
	hf->rearms -= n;
}

/**
 * hwt_pass_rearm_take() - may an expiry pass re-arm a periodic timer itself
 * @hf: the file, whose expiry pass would put the timer's record into its
 *	ring and re-arm it
 *
 * A record that goes to the ring is delivered at once, so its periodic
 * timer would be re-armed in the pass, which nothing paces but the
 * consumer's plain store to the ring's header: the NO_RECORD case again.
 * Such re-arms count, over every file of the user, against what its
 * NO_RECORD timers leave of hwt_max_rearms_per_user, per second. Past it
 * the pass queues the record instead (HWTIMER_RING_QUEUED), and the timer
 * is re-armed by the FLUSH or read() that takes it, which the user pays
 * for as a system call.
 *
 * Return: true if the pass may re-arm one more timer now.
 */
bool hwt_pass_rearm_take(struct hwt_file *hf)
{
	struct hwt_user *u = hf->user;
	u32 now = jiffies;
	long cap = (long)READ_ONCE(hwt_max_rearms_per_user) -
		   atomic_long_read(&u->rearms);
	s64 old = atomic64_read(&u->pass_rearms), new;

	/*
	 * The second's start and its count in one word, so that passes on
	 * other CPUs never count into a second one of them has just ended.
	 * A window that looks more than a second old is over, even across
	 * the wrap of its 32 bits of jiffies.
	 */
	do {
		if (now - (u32)(old >> 32) >= HZ)
			new = (s64)((u64)now << 32);
		else
			new = old;
		if (cap <= 0 || (u32)new >= (unsigned long)cap)
			return false;
		new++;
	} while (!atomic64_try_cmpxchg(&u->pass_rearms, &old, new));
	return true;
}

/* What timers with a period, slack or an eventfd have besides their entry */

/* A zeroed struct hwt_uext; no lock held. */
struct hwt_uext *hwt_uext_alloc(void)
{
	return kmem_cache_zalloc(hwt_uext_cache, GFP_KERNEL_ACCOUNT);
}

/* Free @e, with its reference on its eventfd; any context. */
void hwt_uext_free(struct hwt_uext *e)
{
	if (e) {
		hwt_efd_put(e->efd);
		kmem_cache_free(hwt_uext_cache, e);
	}
}

int hwt_account_init(void)
{
	const size_t unit = sizeof(struct hwt_utimer);

	hwt_file_units = DIV_ROUND_UP(kmalloc_size_roundup(sizeof(struct hwt_file)),
				      unit);
	hwt_base_units = DIV_ROUND_UP(kmalloc_size_roundup(hwt_wheel_size(hwt_geo.levels)),
				      unit);
	hwt_uext_cache = kmem_cache_create("hwtimer_uext",
					   sizeof(struct hwt_uext), 0,
					   SLAB_ACCOUNT | HWT_SLAB_NO_MERGE,
					   NULL);
	return hwt_uext_cache ? 0 : -ENOMEM;
}

void hwt_account_exit(void)
{
	kmem_cache_destroy(hwt_uext_cache);
	hwt_uext_cache = NULL;
	WARN_ON_ONCE(!xa_empty(&hwt_users));
}
