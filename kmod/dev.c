// SPDX-License-Identifier: GPL-2.0
/*
 * /dev/hwtimer: many timers behind one file descriptor. The userspace
 * contract is in uapi/linux/hwtimer.h.
 *
 * Every open file has its own timers, in an xarray by id, and up to three
 * timer bases (one per clock, set up on first use). The xarray's spinlock is
 * the file's lock and its bases' lock: it guards the timers, the wheels,
 * the queue of expired timers whose records wait to be read, and the
 * counters. It is taken with interrupts disabled, as every base lock is, and
 * the xarray uses the irq-safe lock variants when it has to drop it to
 * allocate.
 *
 * Expiry runs in the bases' soft hrtimer callbacks and does little per
 * timer: it moves the timer onto the record queue (the list link the wheel
 * no longer uses) and signals eventfds. Records are built by read(), which
 * also re-arms periodic timers; a timer is thus either on the wheel or on
 * the queue, never both, and the queue can never hold more entries than
 * there are timers.
 *
 * Memory: a one-shot timer without an eventfd is a 48-byte struct
 * hwt_utimer; periodic timers and timers with an eventfd take an 80-byte
 * struct hwt_utimer_ext, and MOD moves a timer to the larger object when it
 * gains a period. Both caches are SLAB_ACCOUNT and the xarray accounts its
 * nodes, so timers are charged to the memory cgroup of whoever creates them,
 * and module parameters cap the timers of a file and of a user.
 *
 * Teardown (release) follows timer_shutdown_sync(): mark the file dead so no
 * expiry re-arms anything, cancel the bases' hrtimers, then free.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/cred.h>
#include <linux/eventfd.h>
#include <linux/fs.h>
#include <linux/miscdevice.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/pagemap.h>
#include <linux/poll.h>
#include <linux/refcount.h>
#include <linux/sched.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/uaccess.h>
#include <linux/wait.h>
#include <linux/xarray.h>
#include <uapi/linux/hwtimer.h>

#include "compat/compat.h"
#include "hwt.h"
#include "hwt_trace.h"

#define HWT_MAX_BATCH	65536
#define HWT_CHUNK	64	/* batch entries handled per lock hold */
#define HWT_READ_CHUNK	64	/* records built per lock hold */
#define HWT_DRAIN_CHUNK	256
#define HWT_FREE_CHUNK	256	/* timers freed per lock hold on release */

static unsigned int hwt_max_timers_per_fd = 1U << 21;
module_param_named(max_timers_per_fd, hwt_max_timers_per_fd, uint, 0644);
MODULE_PARM_DESC(max_timers_per_fd,
		 "Timers one open /dev/hwtimer may hold; ENOSPC past it (default 2097152)");

static unsigned int hwt_max_timers_per_user = 1U << 23;
module_param_named(max_timers_per_user, hwt_max_timers_per_user, uint, 0644);
MODULE_PARM_DESC(max_timers_per_user,
		 "Timers one user may hold over all its files; EDQUOT past it (default 8388608)");

/*
 * A periodic HWTIMER_F_NO_RECORD timer is re-armed by the expiry itself, in
 * softirq context, which no cgroup pays for and no read() paces: each user
 * may have the kernel do at most this many such re-arms per second, over
 * all its files (each timer counts NSEC_PER_SEC / period of them).
 */
static unsigned int hwt_max_rearms_per_user = 20000;
module_param_named(max_rearms_per_user, hwt_max_rearms_per_user, uint, 0644);
MODULE_PARM_DESC(max_rearms_per_user,
		 "Re-arms per second one user's NO_RECORD periodic timers may cost; EDQUOT past it (default 20000)");

/* struct hwt_utimer.state */
enum {
	HWT_U_IDLE,	/* not armed */
	HWT_U_PENDING,	/* on the wheel */
	HWT_U_FIRED,	/* on the record queue */
};

/* struct hwt_utimer.flags */
#define HWT_U_FIXED_DELAY	BIT(0)
#define HWT_U_NO_RECORD		BIT(1)
#define HWT_U_AUTOREMOVE	BIT(2)
#define HWT_U_EXT		BIT(3)	/* a struct hwt_utimer_ext */

/**
 * struct hwt_utimer - a timer of a /dev/hwtimer file
 * @node: on the wheel (PENDING) or on the record queue (FIRED); deadline
 * @__node_entry: @node.entry, as the wheel's fields are named in the
 *		  overlay that names the owner's bits of @node
 * @__node_expires: @node.expires
 * @__node_lvl: @node.lvl
 * @id: its id in the file's xarray, 1..HWT_ID_MAX
 * @gen: generation of its arming, bumped by ADD, MOD
 * @clk: index of its clock in hwt_clockids
 * @state: HWT_U_*
 * @flags: HWT_U_* flags
 * @cookie: the user's cookie
 * @fired: when it last fired
 *
 * @id, @gen, @clk, @state and @flags are the owner's bits of @node
 * (HWT_NODE_OWNER_BITS), so that the timer stays 48 bytes.
 */
struct hwt_utimer {
	union {
		struct hwt_node node;
		struct {
			struct list_head __node_entry;
			u64 __node_expires;
			u64 __node_lvl : HWT_NODE_LVL_BITS;
			u64 id : 28;
			u64 gen : 24;
			u64 clk : 2;
			u64 state : 2;
			u64 flags : 4;
		};
	};
	u64 cookie;
	u64 fired;
};

/* ids fit 28 bits, so that the timer stays 48 bytes */
#define HWT_ID_MAX	((1U << 28) - 1)

/**
 * struct hwt_efd - an eventfd the file signals, shared by the timers that
 * were added with it one after another
 * @ctx: the eventfd
 * @ref: its timers, the file (as its eventfd, or as the last one added),
 *	 and expiry runs that are about to signal it after dropping the lock
 *
 * Expiry signals eventfds once the file's lock is dropped, so it needs a
 * reference that outlives the lock: the eventfd core does not export one on
 * a bare context, and this one is shared by every timer of the entry.
 */
struct hwt_efd {
	struct eventfd_ctx *ctx;
	refcount_t ref;
};

/**
 * struct hwt_utimer_ext - a timer with a period or an eventfd
 * @t: the timer
 * @period: its period, 0 for a one-shot timer
 * @slack: the slack applied to each period's deadline
 * @due: the deadline of the current arming before slack was applied; a
 *	fixed-rate period's grid starts here, so slack never makes it drift
 * @efd: its eventfd, or NULL
 */
struct hwt_utimer_ext {
	struct hwt_utimer t;
	u64 period;
	u64 slack;
	u64 due;
	struct hwt_efd *efd;
};

/**
 * struct hwt_user - timers held by one user over all files
 * @uid: the user
 * @ref: open files of the user
 * @timers: timers the user holds
 * @rearms: re-arms per second its NO_RECORD periodic timers cost
 */
struct hwt_user {
	kuid_t uid;
	refcount_t ref;
	atomic_long_t timers;
	atomic_long_t rearms;
};

/**
 * struct hwt_file - an open /dev/hwtimer
 * @timers: id -> struct hwt_utimer; its xa_lock is the file's lock
 * @base: one timer base per clock, set up on first use
 * @clocks: bit c set once @base[c] is set up
 * @setup: serialises setting up a base
 * @read_lock: one reader at a time copies records off @ready
 * @ready: FIRED timers, oldest first
 * @wq: readers and pollers wait here for records
 * @efd: the file's eventfd, or NULL
 * @last_efd: the eventfd of the last ADD with one, for the next to share
 * @user: the user who opened the file
 * @rearms: what the file's NO_RECORD periodic timers charge @user
 * @next_id: cursor of the cyclic id allocator
 * @ntimers: timers on the file
 * @nready: entries of @ready
 * @dead: being released: expiries must not re-arm anything
 * @stats: counters of the file's own (the owner fields); its bases count
 *	   the rest
 */
struct hwt_file {
	struct xarray timers;
	struct hwt_base base[HWT_NR_CLOCKS];
	unsigned long clocks;
	struct mutex setup;		/* see @setup above */
	struct mutex read_lock;		/* see @read_lock above */
	struct list_head ready;
	wait_queue_head_t wq;
	struct hwt_efd *efd;
	struct hwt_efd *last_efd;
	struct hwt_user *user;
	unsigned long rearms;
	u32 next_id;
	u32 ntimers;
	u32 nready;
	bool dead;
	struct hwt_stats stats;
};

/*
 * One operation of a batch, with what it needs allocated beforehand: a
 * timer object and, for an eventfd, its context and an entry for it in case
 * it is not the file's last one.
 */
struct hwt_slot {
	struct hwtimer_op op;
	struct hwt_utimer *fresh;
	struct eventfd_ctx *ctx;
	struct hwt_efd *efd;
};

static struct kmem_cache *hwt_timer_cache, *hwt_ext_cache;
static DEFINE_XARRAY(hwt_users);
static DEFINE_MUTEX(hwt_users_lock);

/* process context and the soft hrtimer only: see hwt.h */
#define hwt_lock(hf)	xa_lock_bh(&(hf)->timers)
#define hwt_unlock(hf)	xa_unlock_bh(&(hf)->timers)

/* The HWT_U_* flags a timer keeps, from HWTIMER_F_* flags of an ADD... */
static inline u32 hwt_uflags(u32 f)
{
	return (f & HWTIMER_F_FIXED_DELAY ? HWT_U_FIXED_DELAY : 0) |
	       (f & HWTIMER_F_NO_RECORD ? HWT_U_NO_RECORD : 0) |
	       (f & HWTIMER_F_AUTOREMOVE ? HWT_U_AUTOREMOVE : 0);
}

/* ...and back, for GET */
static inline u32 hwt_uapi_flags(u32 f)
{
	return (f & HWT_U_FIXED_DELAY ? HWTIMER_F_FIXED_DELAY : 0) |
	       (f & HWT_U_NO_RECORD ? HWTIMER_F_NO_RECORD : 0) |
	       (f & HWT_U_AUTOREMOVE ? HWTIMER_F_AUTOREMOVE : 0);
}

static inline struct hwt_utimer_ext *hwt_ext(struct hwt_utimer *t)
{
	return container_of(t, struct hwt_utimer_ext, t);
}

static inline u64 hwt_period(struct hwt_utimer *t)
{
	return t->flags & HWT_U_EXT ? hwt_ext(t)->period : 0;
}

static inline struct hwt_efd *hwt_efd(struct hwt_utimer *t)
{
	return t->flags & HWT_U_EXT ? hwt_ext(t)->efd : NULL;
}

static struct hwt_efd *hwt_efd_new(struct eventfd_ctx *ctx)
{
	struct hwt_efd *e = kmalloc(sizeof(*e), GFP_KERNEL_ACCOUNT);

	if (e) {
		e->ctx = ctx;
		refcount_set(&e->ref, 1);
	}
	return e;
}

static void hwt_efd_put(struct hwt_efd *e)
{
	if (e && refcount_dec_and_test(&e->ref)) {
		eventfd_ctx_put(e->ctx);
		kfree(e);
	}
}

/* The re-arms per second a timer costs its user if the kernel re-arms it. */
static unsigned long hwt_rearms(u32 uflags, u64 period)
{
	if (!(uflags & HWT_U_NO_RECORD) || !period)
		return 0;
	return DIV64_U64_ROUND_UP(NSEC_PER_SEC, period);
}

/* Charge @n re-arms per second to the file's user; false past the cap. */
static bool hwt_rearms_charge(struct hwt_file *hf, unsigned long n)
{
	struct hwt_user *u = hf->user;

	if (!n)
		return true;
	if (atomic_long_add_return(n, &u->rearms) >
	    READ_ONCE(hwt_max_rearms_per_user)) {
		atomic_long_sub(n, &u->rearms);
		return false;
	}
	hf->rearms += n;
	return true;
}

static void hwt_rearms_uncharge(struct hwt_file *hf, unsigned long n)
{
	atomic_long_sub(n, &hf->user->rearms);
	hf->rearms -= n;
}

/* Per-user accounting */

static struct hwt_user *hwt_user_get(kuid_t uid)
{
	unsigned long key = __kuid_val(uid);
	struct hwt_user *u;

	mutex_lock(&hwt_users_lock);
	u = xa_load(&hwt_users, key);
	if (u) {
		refcount_inc(&u->ref);
	} else {
		u = kzalloc(sizeof(*u), GFP_KERNEL);
		if (u) {
			u->uid = uid;
			refcount_set(&u->ref, 1);
			atomic_long_set(&u->timers, 0);
			if (xa_err(xa_store(&hwt_users, key, u, GFP_KERNEL))) {
				kfree(u);
				u = NULL;
			}
		}
	}
	mutex_unlock(&hwt_users_lock);
	return u;
}

static void hwt_user_put(struct hwt_user *u)
{
	mutex_lock(&hwt_users_lock);
	if (refcount_dec_and_test(&u->ref)) {
		WARN_ON_ONCE(atomic_long_read(&u->timers));
		xa_erase(&hwt_users, __kuid_val(u->uid));
		kfree(u);
	}
	mutex_unlock(&hwt_users_lock);
}

static bool hwt_user_charge(struct hwt_user *u)
{
	if (atomic_long_inc_return(&u->timers) <= READ_ONCE(hwt_max_timers_per_user))
		return true;
	atomic_long_dec(&u->timers);
	return false;
}

/* Timer objects */

static void hwt_timer_free(struct hwt_utimer *t)
{
	if (t->flags & HWT_U_EXT) {
		hwt_efd_put(hwt_ext(t)->efd);
		kmem_cache_free(hwt_ext_cache, hwt_ext(t));
	} else {
		kmem_cache_free(hwt_timer_cache, t);
	}
}

/* Free timers removed under the lock, once it is dropped. */
static void hwt_free_list(struct hwt_file *hf, struct list_head *dead)
{
	struct hwt_utimer *t, *next;

	list_for_each_entry_safe(t, next, dead, node.entry) {
		atomic_long_dec(&hf->user->timers);
		hwt_timer_free(t);
	}
}

static struct hwt_utimer *hwt_lookup(struct hwt_file *hf, u32 id)
{
	return xa_load(&hf->timers, id);
}

/* Take a timer off the wheel or the record queue. */
static void hwt_disarm(struct hwt_file *hf, struct hwt_utimer *t)
{
	if (t->state == HWT_U_PENDING) {
		hwt_base_del(&hf->base[t->clk], &t->node, t->id);
	} else if (t->state == HWT_U_FIRED) {
		list_del_init(&t->node.entry);
		WRITE_ONCE(hf->nready, hf->nready - 1);
	}
	t->state = HWT_U_IDLE;
}

/* Delete a timer; it goes on @dead, to be freed after the lock is dropped. */
static void hwt_remove(struct hwt_file *hf, struct hwt_utimer *t,
		       struct list_head *dead)
{
	hwt_rearms_uncharge(hf, hwt_rearms(t->flags, hwt_period(t)));
	hwt_disarm(hf, t);
	__xa_erase(&hf->timers, t->id);
	hf->ntimers--;
	list_add(&t->node.entry, dead);
}

/* Arm or re-arm @t for @deadline; every arming is a new generation. */
static void hwt_arm(struct hwt_file *hf, struct hwt_utimer *t, u64 deadline,
		    u64 now)
{
	struct hwt_base *b = &hf->base[t->clk];

	if (t->state == HWT_U_PENDING) {
		hwt_base_mod(b, &t->node, deadline, now, t->id);
	} else {
		hwt_disarm(hf, t);
		t->node.expires = deadline;
		hwt_base_add(b, &t->node, now, t->id);
	}
	t->state = HWT_U_PENDING;
	t->gen++;
}

/*
 * The absolute deadline of an ADD or MOD: @due as asked for, @deadline with
 * the slack applied.
 */
static int hwt_deadline(struct hwt_file *hf, unsigned int clk,
			const struct hwtimer_op *op, u64 *now, u64 *due,
			u64 *deadline)
{
	struct hwt_base *b = &hf->base[clk];
	int ret;

	*now = hwt_base_now(b);
	ret = hwt_base_deadline(b, *now, op->expires, op->flags & HWTIMER_F_ABS,
				due);
	*deadline = *due;
	if (ret || !op->slack)
		return ret;
	return hwt_base_deadline(b, *now, hwt_slack_expires(*due, op->slack),
				 true, deadline);
}

/*
 * Re-arm a periodic timer that fired: for the next period that ends after
 * @when, on the fixed-rate grid or @period after the fire time. The periods
 * missed up to @when are counted as overruns; if more ended since (@when was
 * read before a record went out), the timer is simply due at once and the
 * next record counts them. @now is a clock read made under this hold of
 * the lock, for the wheel.
 */
static void hwt_rearm_period(struct hwt_file *hf, struct hwt_utimer *t,
			     u64 when, u64 now)
{
	struct hwt_utimer_ext *e = hwt_ext(t);
	u64 over;

	e->due = hwt_period_next(e->due, t->fired, when, e->period,
				 t->flags & HWT_U_FIXED_DELAY, &over);
	t->node.expires = hwt_slack_expires(e->due, e->slack);
	hwt_base_add(&hf->base[t->clk], &t->node, now, t->id);
	t->state = HWT_U_PENDING;
	hwt_stat_add(&hf->stats, HWT_C_OVERRUNS, over);
}

static enum hrtimer_restart hwt_file_tick(struct hrtimer *hrt);

/* Set up the base of clock @clk on first use. */
static int hwt_file_base(struct hwt_file *hf, unsigned int clk)
{
	int ret = 0;

	/* pairs with the barrier before set_bit() below */
	if (test_bit_acquire(clk, &hf->clocks))
		return 0;
	mutex_lock(&hf->setup);
	if (!test_bit(clk, &hf->clocks)) {
		ret = hwt_base_init(&hf->base[clk], &hf->timers.xa_lock,
				    hwt_clockids[clk], hwt_file_tick,
				    GFP_KERNEL_ACCOUNT);
		if (!ret) {
			hf->base[clk].owner = hf;
			/* the base is complete before anyone sees the bit */
			smp_mb__before_atomic();
			set_bit(clk, &hf->clocks);
		}
	}
	mutex_unlock(&hf->setup);
	return ret;
}

/* Expiry */

/* distinct eventfds one expiry run signals at most; then it ends early */
#define HWT_PASS_EFDS	8

/**
 * struct hwt_signals - what an expiry run wakes once it dropped the lock
 * @efd: distinct eventfds of the timers it expired, each with a reference
 * @nefd: entries of @efd
 * @file: the file's eventfd, with a reference, if records were queued
 * @poll: records were queued: wake readers and pollers
 *
 * eventfd_signal() and wake_up() walk their wait queues, as long as their
 * users made them: they are done once per run and outside the file's lock.
 */
struct hwt_signals {
	struct hwt_efd *efd[HWT_PASS_EFDS];
	unsigned int nefd;
	struct hwt_efd *file;
	bool poll;
};

static void hwt_signal_later(struct hwt_signals *sig, struct hwt_efd *e)
{
	unsigned int i;

	for (i = 0; i < sig->nefd; i++)
		if (sig->efd[i]->ctx == e->ctx)
			return;
	refcount_inc(&e->ref);
	sig->efd[sig->nefd++] = e;
}

static void hwt_signal_now(struct hwt_file *hf, struct hwt_signals *sig)
{
	unsigned int i;

	for (i = 0; i < sig->nefd; i++) {
		hwt_eventfd_signal(sig->efd[i]->ctx);
		hwt_efd_put(sig->efd[i]);
	}
	if (sig->file) {
		hwt_eventfd_signal(sig->file->ctx);
		hwt_efd_put(sig->file);
	}
	if (sig->poll)
		wake_up_interruptible_poll(&hf->wq, EPOLLIN | EPOLLRDNORM);
}

static enum hrtimer_restart hwt_file_tick(struct hrtimer *hrt)
{
	struct hwt_base *b = container_of(hrt, struct hwt_base, hrt);
	struct hwt_file *hf = b->owner;
	struct hwt_signals sig = {};
	struct hwt_expiry x;
	struct hwt_node *n;
	unsigned int queued = 0;
	LIST_HEAD(dead);

	hwt_lock(hf);
	if (hf->dead) {
		hwt_unlock(hf);
		return HRTIMER_NORESTART;
	}
	hwt_base_expiry_begin(b, &x);
	/* each timer may add an eventfd: stop while there is room for one */
	while (sig.nefd < HWT_PASS_EFDS && (n = hwt_base_expire_next(b, &x))) {
		struct hwt_utimer *t = container_of(n, struct hwt_utimer, node);
		struct hwt_efd *efd = hwt_efd(t);

		trace_hwt_expire(b->clockid, t, t->id, n->expires, x.now);
		t->fired = x.now;
		t->state = HWT_U_IDLE;
		if (efd)
			hwt_signal_later(&sig, efd);
		if (!(t->flags & HWT_U_NO_RECORD)) {
			t->state = HWT_U_FIRED;
			list_add_tail(&n->entry, &hf->ready);
			WRITE_ONCE(hf->nready, hf->nready + 1);
			queued++;
		} else if (hwt_period(t)) {
			/* nothing waits to be read: re-arm at once */
			hwt_rearm_period(hf, t, x.now, x.now);
		} else if (t->flags & HWT_U_AUTOREMOVE) {
			hwt_remove(hf, t, &dead);
		}
	}
	if (sig.nefd == HWT_PASS_EFDS)
		x.left = 0;	/* more may be due: go on in another run */
	hwt_base_expiry_end(b, &x);
	if (queued) {
		hwt_stat_max(&hf->stats, HWT_M_READY, hf->nready);
		if (hf->efd) {
			refcount_inc(&hf->efd->ref);
			sig.file = hf->efd;
		}
		sig.poll = true;
	}
	hwt_unlock(hf);
	/* release() waits for this callback before it frees @hf */
	hwt_signal_now(hf, &sig);
	hwt_free_list(hf, &dead);
	return HRTIMER_NORESTART;
}

/* Operations */

#define HWT_ADD_FLAGS	(HWTIMER_F_ABS | HWTIMER_F_FIXED_DELAY | \
			 HWTIMER_F_EVENTFD | HWTIMER_F_NO_RECORD | \
			 HWTIMER_F_AUTOREMOVE)
#define HWT_MOD_FLAGS	(HWTIMER_F_ABS | HWTIMER_F_FIXED_DELAY | \
			 HWTIMER_F_PERIOD | HWTIMER_F_IF_EARLIER | \
			 HWTIMER_F_IF_IDLE)

static struct hwt_utimer *hwt_alloc(bool ext)
{
	struct hwt_utimer *t;

	if (ext) {
		struct hwt_utimer_ext *e = kmem_cache_zalloc(hwt_ext_cache,
							     GFP_KERNEL_ACCOUNT);

		if (!e)
			return NULL;
		t = &e->t;
		t->flags = HWT_U_EXT;
	} else {
		t = kmem_cache_zalloc(hwt_timer_cache, GFP_KERNEL_ACCOUNT);
		if (!t)
			return NULL;
	}
	INIT_LIST_HEAD(&t->node.entry);
	return t;
}

/*
 * A periodic re-arm lies up to period + slack ahead: both within range. A
 * NO_RECORD timer's period is also at least HWTIMER_NO_RECORD_MIN_PERIOD_NS,
 * since the kernel re-arms it on its own (see hwt_max_rearms_per_user).
 */
static bool hwt_period_in_range(const struct hwtimer_op *op, bool no_record)
{
	if (no_record && op->period &&
	    op->period < HWTIMER_NO_RECORD_MIN_PERIOD_NS)
		return false;
	return op->period <= hwt_geo.max_delay && op->slack <= hwt_geo.max_delay &&
	       op->period + op->slack <= hwt_geo.max_delay;
}

/* Validate an operation and allocate what it needs; no lock held. */
static int hwt_prep(struct hwt_file *hf, struct hwt_slot *s)
{
	struct hwtimer_op *op = &s->op;
	u32 f = op->flags;
	int clk, ret;

	if (op->padding || op->gen)
		return -EINVAL;

	switch (op->op) {
	case HWTIMER_OP_ADD:
		if ((f & ~HWT_ADD_FLAGS) || op->id)
			return -EINVAL;
		if ((f & HWTIMER_F_FIXED_DELAY) && !op->period)
			return -EINVAL;
		if ((f & HWTIMER_F_AUTOREMOVE) && op->period)
			return -EINVAL;
		if ((f & HWTIMER_F_NO_RECORD) && !(f & HWTIMER_F_EVENTFD))
			return -EINVAL;
		if (!(f & HWTIMER_F_EVENTFD) && op->eventfd)
			return -EINVAL;
		if (!hwt_period_in_range(op, f & HWTIMER_F_NO_RECORD))
			return -ERANGE;
		clk = hwt_clock_index(op->clockid);
		if (clk < 0)
			return clk;
		ret = hwt_file_base(hf, clk);
		if (ret)
			return ret;
		if (f & HWTIMER_F_EVENTFD) {
			s->ctx = eventfd_ctx_fdget(op->eventfd);
			if (IS_ERR(s->ctx)) {
				ret = PTR_ERR(s->ctx);
				s->ctx = NULL;
				return ret;
			}
			/* used unless the file's last eventfd is this one */
			s->efd = hwt_efd_new(NULL);
			if (!s->efd)
				return -ENOMEM;
		}
		s->fresh = hwt_alloc(op->period || s->ctx);
		return s->fresh ? 0 : -ENOMEM;
	case HWTIMER_OP_MOD:
		if (f & ~HWT_MOD_FLAGS)
			return -EINVAL;
		if ((f & HWTIMER_F_IF_EARLIER) && (f & HWTIMER_F_IF_IDLE))
			return -EINVAL;
		if (op->clockid || op->eventfd || op->cookie)
			return -EINVAL;
		if (!(f & HWTIMER_F_PERIOD) &&
		    (op->period || (f & HWTIMER_F_FIXED_DELAY)))
			return -EINVAL;
		if ((f & HWTIMER_F_FIXED_DELAY) && !op->period)
			return -EINVAL;
		/* the NO_RECORD floor needs the timer: hwt_do_mod() */
		if (!hwt_period_in_range(op, false))
			return -ERANGE;
		if (op->period) {
			/* in case the timer must move to a larger object */
			s->fresh = hwt_alloc(true);
			if (!s->fresh)
				return -ENOMEM;
		}
		return 0;
	case HWTIMER_OP_CANCEL:
		if (f || op->clockid || op->eventfd || op->expires ||
		    op->period || op->slack || op->cookie)
			return -EINVAL;
		return 0;
	default:
		return -EINVAL;
	}
}

/*
 * The next id after the last one handed out, wrapping at HWT_ID_MAX, so
 * that an id is not reused soon after its timer is gone. Unlike
 * __xa_alloc_cyclic(), which falls back to the lowest free id on any error,
 * an allocation failure here is ENOMEM and nothing else. May drop the lock
 * to allocate.
 */
static int hwt_alloc_id(struct hwt_file *hf, u32 *id, struct hwt_utimer *t)
{
	u32 from = clamp_t(u32, hf->next_id, 1, HWT_ID_MAX);
	int ret;

	ret = __xa_alloc(&hf->timers, id, t, XA_LIMIT(from, HWT_ID_MAX),
			 GFP_KERNEL_ACCOUNT);
	if (ret == -EBUSY && from > 1)
		ret = __xa_alloc(&hf->timers, id, t, XA_LIMIT(1, HWT_ID_MAX),
				 GFP_KERNEL_ACCOUNT);
	if (!ret)
		hf->next_id = *id + 1;
	return ret;
}

/* The file's entry for @s's eventfd: its last one, or @s's new entry. */
static struct hwt_efd *hwt_efd_of(struct hwt_file *hf, struct hwt_slot *s)
{
	struct hwt_efd *e = hf->last_efd;

	if (e && e->ctx == s->ctx) {
		refcount_inc(&e->ref);
		return e;	/* @s's reference on the context is dropped */
	}
	e = s->efd;
	e->ctx = s->ctx;
	refcount_set(&e->ref, 2);	/* the timer's, and as the last one */
	s->efd = NULL;
	s->ctx = NULL;
	hwt_efd_put(hf->last_efd);
	hf->last_efd = e;
	return e;
}

static int hwt_do_add(struct hwt_file *hf, struct hwt_slot *s)
{
	struct hwtimer_op *op = &s->op;
	struct hwt_utimer *t = s->fresh;
	unsigned int clk = hwt_clock_index(op->clockid);
	unsigned long rearms = hwt_rearms(hwt_uflags(op->flags), op->period);
	u64 now, due, deadline;
	u32 id;
	int ret;

	if (hf->ntimers >= READ_ONCE(hwt_max_timers_per_fd))
		return -ENOSPC;
	if (!hwt_user_charge(hf->user))
		return -EDQUOT;
	/*
	 * Take the id first: it is stored only once allocated, and nothing
	 * else of @t is visible until the lock is held again for good.
	 */
	ret = hwt_alloc_id(hf, &id, t);
	if (ret < 0) {
		atomic_long_dec(&hf->user->timers);
		return ret == -EBUSY ? -ENOSPC : ret;
	}
	/* the lock may have been dropped: read the clock, check the limit */
	ret = hwt_deadline(hf, clk, op, &now, &due, &deadline);
	if (!ret && hf->ntimers >= READ_ONCE(hwt_max_timers_per_fd))
		ret = -ENOSPC;
	if (!ret && !hwt_rearms_charge(hf, rearms))
		ret = -EDQUOT;
	if (ret) {
		__xa_erase(&hf->timers, id);
		atomic_long_dec(&hf->user->timers);
		return ret;
	}

	t->id = id;
	t->cookie = op->cookie;
	t->clk = clk;
	t->state = HWT_U_IDLE;
	t->flags |= hwt_uflags(op->flags);
	if (t->flags & HWT_U_EXT) {
		hwt_ext(t)->period = op->period;
		hwt_ext(t)->slack = op->slack;
		hwt_ext(t)->due = due;
		hwt_ext(t)->efd = s->ctx ? hwt_efd_of(hf, s) : NULL;
	}
	s->fresh = NULL;
	hwt_arm(hf, t, deadline, now);
	hf->ntimers++;
	hwt_stat_add(&hf->stats, HWT_C_ADDED, 1);
	op->id = id;
	op->gen = t->gen;
	return 0;
}

/* Give a timer the larger object, to hold a period. */
static struct hwt_utimer *hwt_upgrade(struct hwt_file *hf,
				      struct hwt_utimer *t,
				      struct hwt_utimer *fresh)
{
	struct hwt_utimer_ext *e = hwt_ext(fresh);

	e->t = *t;
	e->t.flags |= HWT_U_EXT;
	if (t->state == HWT_U_PENDING || t->state == HWT_U_FIRED)
		list_replace(&t->node.entry, &e->t.node.entry);
	else
		INIT_LIST_HEAD(&e->t.node.entry);
	/* the slot exists: storing into it allocates nothing */
	__xa_store(&hf->timers, t->id, &e->t, 0);
	kmem_cache_free(hwt_timer_cache, t);
	return &e->t;
}

static int hwt_do_mod(struct hwt_file *hf, struct hwt_slot *s)
{
	struct hwtimer_op *op = &s->op;
	struct hwt_utimer *t = hwt_lookup(hf, op->id);
	u64 now, due, deadline;
	int pending, ret;

	if (!t)
		return -ENOENT;
	pending = t->state == HWT_U_PENDING;
	ret = hwt_deadline(hf, t->clk, op, &now, &due, &deadline);
	if (ret)
		return ret;
	if ((op->flags & HWTIMER_F_IF_IDLE) && pending)
		goto out;
	if ((op->flags & HWTIMER_F_IF_EARLIER) && pending &&
	    (s64)(deadline - t->node.expires) >= 0)
		goto out;
	if ((op->flags & HWTIMER_F_PERIOD) && op->period &&
	    (t->flags & HWT_U_AUTOREMOVE))
		return -EINVAL;
	if (op->flags & HWTIMER_F_PERIOD) {
		unsigned long was = hwt_rearms(t->flags, hwt_period(t));
		unsigned long will = hwt_rearms(t->flags, op->period);

		if (!hwt_period_in_range(op, t->flags & HWT_U_NO_RECORD))
			return -ERANGE;
		if (will > was && !hwt_rearms_charge(hf, will - was))
			return -EDQUOT;
		if (will < was)
			hwt_rearms_uncharge(hf, was - will);
		if (op->period && !(t->flags & HWT_U_EXT)) {
			t = hwt_upgrade(hf, t, s->fresh);
			s->fresh = NULL;
		}
		if (t->flags & HWT_U_EXT)
			hwt_ext(t)->period = op->period;
		t->flags &= ~HWT_U_FIXED_DELAY;
		if (op->flags & HWTIMER_F_FIXED_DELAY)
			t->flags |= HWT_U_FIXED_DELAY;
	}
	if (t->flags & HWT_U_EXT) {
		hwt_ext(t)->slack = op->slack;
		hwt_ext(t)->due = due;
	}
	hwt_arm(hf, t, deadline, now);
	hwt_stat_add(&hf->stats, HWT_C_MODIFIED, 1);
out:
	op->gen = t->gen;
	return pending;
}

static int hwt_do_cancel(struct hwt_file *hf, struct hwt_slot *s,
			 struct list_head *dead)
{
	struct hwt_utimer *t = hwt_lookup(hf, s->op.id);
	int pending;

	if (!t)
		return -ENOENT;
	pending = t->state == HWT_U_PENDING;
	if (pending)
		hwt_stat_add(&hf->stats, HWT_C_CANCELLED, 1);
	hwt_remove(hf, t, dead);
	return pending;
}

/*
 * Run @n prepared operations under one hold of the lock; each gets its
 * result. Returns how many ran: all, or up to the first failure if @stop.
 */
static unsigned int hwt_run_ops(struct hwt_file *hf, struct hwt_slot *slots,
				unsigned int n, bool stop)
{
	unsigned int i, ran = n;
	LIST_HEAD(dead);

	for (i = 0; i < n; i++) {
		struct hwt_slot *s = &slots[i];

		s->fresh = NULL;
		s->ctx = NULL;
		s->efd = NULL;
		/* a result set on input is the caller's error, or ours */
		if (!s->op.result)
			s->op.result = hwt_prep(hf, s);
	}

	hwt_lock(hf);
	for (i = 0; i < n; i++) {
		struct hwt_slot *s = &slots[i];

		if (stop && i && slots[i - 1].op.result < 0) {
			ran = i;
			break;
		}
		if (s->op.result)
			continue;
		switch (s->op.op) {
		case HWTIMER_OP_ADD:
			s->op.result = hwt_do_add(hf, s);
			break;
		case HWTIMER_OP_MOD:
			s->op.result = hwt_do_mod(hf, s);
			break;
		case HWTIMER_OP_CANCEL:
			s->op.result = hwt_do_cancel(hf, s, &dead);
			break;
		}
	}
	hwt_unlock(hf);

	hwt_free_list(hf, &dead);
	for (i = 0; i < n; i++) {
		if (slots[i].fresh)
			hwt_timer_free(slots[i].fresh);
		if (slots[i].ctx)
			eventfd_ctx_put(slots[i].ctx);
		kfree(slots[i].efd);
	}
	return ran;
}

/* ioctl plumbing: struct sizes come from the ioctl number */

#define HWT_IOC_NOSIZE(cmd)	((cmd) & ~(_IOC_SIZEMASK << _IOC_SIZESHIFT))

/*
 * A struct shorter than the first version is refused; a shorter one than
 * ours but not than that is zero-extended; a longer one needs a zero tail.
 */
static int hwt_copy_in(void *dst, size_t ksize, size_t ver0,
		       const void __user *src, size_t usize)
{
	if (usize < ver0)
		return -EINVAL;
	return copy_struct_from_user(dst, ksize, src, usize);
}

static int hwt_copy_out(void __user *dst, size_t usize, const void *src,
			size_t ksize)
{
	if (copy_to_user(dst, src, min(usize, ksize)))
		return -EFAULT;
	if (usize > ksize && clear_user(dst + ksize, usize - ksize))
		return -EFAULT;
	return 0;
}

static long hwt_ioc_info(void __user *uarg, size_t usize)
{
	struct hwtimer_info info = {
		.api_version = HWTIMER_API_VERSION,
		.levels = hwt_geo.levels,
		.features = HWTIMER_FEAT_BATCH | HWTIMER_FEAT_PERIODIC |
			    HWTIMER_FEAT_FIXED_DELAY | HWTIMER_FEAT_SLACK |
			    HWTIMER_FEAT_EVENTFD | HWTIMER_FEAT_DRAIN |
			    HWTIMER_FEAT_CLOCK_BOOTTIME |
			    HWTIMER_FEAT_CLOCK_REALTIME |
			    HWTIMER_FEAT_AUTOREMOVE,
		.tick_ns = hwt_geo.tick_ns,
		.max_delay_ns = hwt_geo.max_delay,
		.slots_per_level = HWT_LVL_SIZE,
		.record_size = sizeof(struct hwtimer_record),
		.max_timers_per_fd = min(READ_ONCE(hwt_max_timers_per_fd),
					 HWT_ID_MAX),
		.max_timers_per_user = READ_ONCE(hwt_max_timers_per_user),
		.max_batch = HWT_MAX_BATCH,
	};

	if (usize < HWTIMER_INFO_SIZE_VER0)
		return -EINVAL;
	return hwt_copy_out(uarg, usize, &info, sizeof(info));
}

/*
 * Results go back into the caller's struct, so it must be writable before
 * we act on it: store back its first word and a zero @result (checked or
 * made zero already) near its end, which touches both pages of a struct
 * that straddles two. fault_in_safe_writeable() would walk the page tables
 * for the same answer, at many times the cost of the whole operation.
 */
static int hwt_probe_op(struct hwtimer_op __user *uop)
{
	u32 first;

	if (get_user(first, &uop->op) || put_user(first, &uop->op) ||
	    put_user(0, &uop->result))
		return -EFAULT;
	return 0;
}

static long hwt_ioc_op(struct hwt_file *hf, void __user *uarg, size_t usize,
		       u32 opcode)
{
	struct hwt_slot s;
	u32 given;
	int ret;

	ret = hwt_copy_in(&s.op, sizeof(s.op), HWTIMER_OP_SIZE_VER0, uarg,
			  usize);
	if (ret)
		return ret;
	given = s.op.op;
	if ((given && given != opcode) || s.op.result)
		return -EINVAL;
	/* the new id and generation must reach the caller */
	if (opcode != HWTIMER_OP_CANCEL && hwt_probe_op(uarg))
		return -EFAULT;
	s.op.op = opcode;
	hwt_run_ops(hf, &s, 1, false);
	ret = s.op.result;
	if (ret < 0)
		return ret;
	if (opcode != HWTIMER_OP_CANCEL) {
		s.op.op = given;
		s.op.result = 0;
		/*
		 * A longer struct's tail was checked to be zero: leave it;
		 * an older, shorter one gets what it has room for.
		 */
		if (copy_to_user(uarg, &s.op, min(usize, sizeof(s.op))))
			return -EFAULT;
	}
	return ret;
}

static long hwt_ioc_batch(struct hwt_file *hf, void __user *uarg,
			  size_t usize)
{
	struct hwtimer_batch hb;
	struct hwt_slot *slots;
	void __user *uops;
	size_t osize;
	u32 done = 0;
	long ret;

	ret = hwt_copy_in(&hb, sizeof(hb), HWTIMER_BATCH_SIZE_VER0, uarg,
			  usize);
	if (ret)
		return ret;
	if ((hb.flags & ~HWTIMER_BATCH_STOP_ON_ERROR) || hb.done)
		return -EINVAL;
	if (hb.op_size < HWTIMER_OP_SIZE_VER0 || hb.op_size % 8)
		return -EINVAL;
	if (hb.op_size > PAGE_SIZE)
		return -E2BIG;
	if (hb.count > HWT_MAX_BATCH)
		return -E2BIG;
	osize = hb.op_size;
	uops = u64_to_user_ptr(hb.ops);

	slots = kmalloc_array(min_t(u32, hb.count, HWT_CHUNK) ?: 1,
			      sizeof(*slots), GFP_KERNEL);
	if (!slots)
		return -ENOMEM;
	while (done < hb.count) {
		unsigned int i, n = min_t(u32, HWT_CHUNK, hb.count - done);
		unsigned int ran;

		for (i = 0; i < n; i++) {
			void __user *uop = uops + (done + i) * osize;
			struct hwtimer_op *op = &slots[i].op;

			ret = copy_struct_from_user(op, sizeof(*op), uop, osize);
			/* its result must reach the caller */
			if (!ret && hwt_probe_op(uop))
				ret = -EFAULT;
			if (ret == -E2BIG) {
				/* a newer entry than we know: fail it alone */
				memset(op, 0, sizeof(*op));
				op->result = -E2BIG;
			} else if (ret) {
				goto out;
			} else if (op->result) {
				op->result = -EINVAL;
			}
		}
		ran = hwt_run_ops(hf, slots, n,
				  hb.flags & HWTIMER_BATCH_STOP_ON_ERROR);
		for (i = 0; i < ran; i++) {
			void __user *uop = uops + (done + i) * osize;
			struct hwtimer_op *op = &slots[i].op;

			if (op->result == -E2BIG && !op->op)
				ret = put_user(op->result, (s32 __user *)(uop +
					offsetof(struct hwtimer_op, result)));
			else
				ret = copy_to_user(uop, op, min(osize, sizeof(*op))) ?
				      -EFAULT : 0;
			if (ret) {
				done += i;
				goto out;
			}
		}
		done += ran;
		if (ran < n || ((hb.flags & HWTIMER_BATCH_STOP_ON_ERROR) &&
				slots[ran - 1].op.result < 0))
			break;
		/* @done tells the caller where to go on */
		if (done < hb.count && signal_pending(current))
			break;
		cond_resched();
	}
	ret = 0;
out:
	kfree(slots);
	if (put_user(done, (u32 __user *)(uarg +
					   offsetof(struct hwtimer_batch, done))))
		ret = -EFAULT;
	return done ? done : ret;
}

static long hwt_ioc_get(struct hwt_file *hf, void __user *uarg, size_t usize)
{
	struct hwtimer_get g;
	struct hwt_utimer *t;
	u64 now, period;
	int ret;

	ret = hwt_copy_in(&g, sizeof(g), HWTIMER_GET_SIZE_VER0, uarg, usize);
	if (ret)
		return ret;
	if (g.flags || g.state || g.timer_flags || g.clockid || g.gen ||
	    g.expires || g.remaining || g.period || g.cookie || g.overruns)
		return -EINVAL;

	hwt_lock(hf);
	t = hwt_lookup(hf, g.id);
	if (!t) {
		hwt_unlock(hf);
		return -ENOENT;
	}
	now = hwt_base_now(&hf->base[t->clk]);
	period = hwt_period(t);
	g.state = t->state == HWT_U_PENDING ? HWTIMER_STATE_PENDING :
		  t->state == HWT_U_FIRED ? HWTIMER_STATE_FIRED :
		  HWTIMER_STATE_IDLE;
	g.timer_flags = hwt_uapi_flags(t->flags) |
			(hwt_efd(t) ? HWTIMER_F_EVENTFD : 0);
	g.clockid = hwt_clockids[t->clk];
	g.gen = t->gen;
	g.expires = t->node.expires;
	if (t->state == HWT_U_PENDING && (s64)(t->node.expires - now) > 0)
		g.remaining = t->node.expires - now;
	g.period = period;
	g.cookie = t->cookie;
	if (t->state == HWT_U_FIRED && period)
		hwt_period_next(hwt_ext(t)->due, t->fired, now, period,
				t->flags & HWT_U_FIXED_DELAY, &g.overruns);
	hwt_unlock(hf);
	return copy_to_user(uarg, &g, min(usize, sizeof(g))) ? -EFAULT : 0;
}

static long hwt_ioc_drain(struct hwt_file *hf, void __user *uarg,
			  size_t usize)
{
	struct hwtimer_drain d;
	unsigned long budget = ULONG_MAX;
	u32 __user *uids;
	u32 *ids;
	long ret;

	ret = hwt_copy_in(&d, sizeof(d), HWTIMER_DRAIN_SIZE_VER0, uarg, usize);
	if (ret)
		return ret;
	if (d.flags || d.count || d.remaining || (d.max && !d.ids))
		return -EINVAL;
	uids = u64_to_user_ptr(d.ids);
	ids = kmalloc_array(HWT_DRAIN_CHUNK, sizeof(*ids), GFP_KERNEL);
	if (!ids)
		return -ENOMEM;

	/*
	 * Chunk by chunk, each under one hold of the lock. The timers there
	 * were when DRAIN started bound the work, so that another thread
	 * adding timers cannot keep it going; so does a signal. Either way
	 * the caller sees what is left in @remaining and can call again.
	 */
	while (budget) {
		unsigned int k = 0, seen = 0, room = HWT_DRAIN_CHUNK;
		unsigned long index = 0;
		struct hwt_utimer *t;
		LIST_HEAD(dead);

		if (d.max) {
			room = min_t(u32, room, d.max - d.count);
			/* the ids taken must reach the caller */
			if (fault_in_writeable((char __user *)(uids + d.count),
					       room * sizeof(*uids))) {
				ret = d.count ? 0 : -EFAULT;
				break;
			}
		}
		hwt_lock(hf);
		if (budget == ULONG_MAX)
			budget = hf->ntimers;
		xa_for_each(&hf->timers, index, t) {
			if (t->state == HWT_U_PENDING) {
				if (d.max && k == room)
					break;
				ids[k++] = t->id;
				hwt_stat_add(&hf->stats, HWT_C_DRAINED, 1);
			}
			hwt_remove(hf, t, &dead);
			if (++seen == HWT_DRAIN_CHUNK)
				break;
		}
		budget -= min_t(unsigned long, budget, seen);
		d.remaining = hf->ntimers;
		hwt_unlock(hf);
		hwt_free_list(hf, &dead);

		if (d.max && copy_to_user(uids + d.count, ids, k * sizeof(*ids))) {
			ret = d.count ? 0 : -EFAULT;
			break;
		}
		d.count += k;
		if (!seen || !d.remaining || (d.max && d.count == d.max) ||
		    signal_pending(current))
			break;
		cond_resched();
	}
	kfree(ids);
	if (!ret && copy_to_user(uarg, &d, min(usize, sizeof(d))))
		ret = -EFAULT;
	return ret;
}

static long hwt_ioc_set_eventfd(struct hwt_file *hf, void __user *uarg,
				size_t usize)
{
	struct hwt_efd *efd = NULL, *old;
	struct eventfd_ctx *ctx;
	struct hwtimer_eventfd e;
	int ret;

	ret = hwt_copy_in(&e, sizeof(e), HWTIMER_EVENTFD_SIZE_VER0, uarg,
			  usize);
	if (ret)
		return ret;
	if (e.flags || e.fd < -1)
		return -EINVAL;
	if (e.fd >= 0) {
		ctx = eventfd_ctx_fdget(e.fd);
		if (IS_ERR(ctx))
			return PTR_ERR(ctx);
		efd = hwt_efd_new(ctx);
		if (!efd) {
			eventfd_ctx_put(ctx);
			return -ENOMEM;
		}
	}
	hwt_lock(hf);
	old = hf->efd;
	hf->efd = efd;
	hwt_unlock(hf);
	hwt_efd_put(old);
	return 0;
}

static long hwt_ioctl(struct file *file, unsigned int cmd, unsigned long arg)
{
	struct hwt_file *hf = file->private_data;
	void __user *uarg = (void __user *)arg;
	size_t usize = _IOC_SIZE(cmd);

	switch (HWT_IOC_NOSIZE(cmd)) {
	case HWT_IOC_NOSIZE(HWTIMER_IOC_INFO):
		return hwt_ioc_info(uarg, usize);
	case HWT_IOC_NOSIZE(HWTIMER_IOC_ADD):
		return hwt_ioc_op(hf, uarg, usize, HWTIMER_OP_ADD);
	case HWT_IOC_NOSIZE(HWTIMER_IOC_MOD):
		return hwt_ioc_op(hf, uarg, usize, HWTIMER_OP_MOD);
	case HWT_IOC_NOSIZE(HWTIMER_IOC_CANCEL):
		return hwt_ioc_op(hf, uarg, usize, HWTIMER_OP_CANCEL);
	case HWT_IOC_NOSIZE(HWTIMER_IOC_GET):
		return hwt_ioc_get(hf, uarg, usize);
	case HWT_IOC_NOSIZE(HWTIMER_IOC_BATCH):
		return hwt_ioc_batch(hf, uarg, usize);
	case HWT_IOC_NOSIZE(HWTIMER_IOC_DRAIN):
		return hwt_ioc_drain(hf, uarg, usize);
	case HWT_IOC_NOSIZE(HWTIMER_IOC_SET_EVENTFD):
		return hwt_ioc_set_eventfd(hf, uarg, usize);
	default:
		return -ENOTTY;
	}
}

/* Records */

/**
 * struct hwt_peek - a record copied off the queue, not yet taken
 * @t: the timer it came from
 * @id: its id, with @gen to recognise the same arming again
 * @gen: its generation
 * @now: when a periodic timer's overruns were counted, and is re-armed
 */
struct hwt_peek {
	struct hwt_utimer *t;
	u32 id;
	u32 gen;
	u64 now;
};

/* The time on clock @clk, read once per hold of the lock into @now[]. */
static u64 hwt_now_once(struct hwt_file *hf, u64 *now, unsigned int clk)
{
	if (!now[clk])
		now[clk] = hwt_base_now(&hf->base[clk]);
	return now[clk];
}

/* Build records for the first @max timers of the queue; take none. */
static unsigned int hwt_peek_records(struct hwt_file *hf,
				     struct hwtimer_record *recs,
				     struct hwt_peek *peek, unsigned int max)
{
	u64 now[HWT_NR_CLOCKS] = {};
	struct hwt_utimer *t;
	unsigned int n = 0;

	hwt_lock(hf);
	list_for_each_entry(t, &hf->ready, node.entry) {
		struct hwtimer_record *r;
		struct hwt_peek *p;

		if (n == max)
			break;
		r = &recs[n];
		p = &peek[n];
		r->id = t->id;
		r->gen = t->gen;
		r->cookie = t->cookie;
		r->deadline = t->node.expires;
		r->fired = t->fired;
		r->overruns = 0;
		r->flags = 0;
		r->clockid = hwt_clockids[t->clk];
		p->t = t;
		p->id = t->id;
		p->gen = t->gen;
		if (hwt_period(t)) {
			/* the overruns the re-arm in hwt_take_records() counts */
			p->now = hwt_now_once(hf, now, t->clk);
			hwt_period_next(hwt_ext(t)->due, t->fired, p->now,
					hwt_period(t), t->flags & HWT_U_FIXED_DELAY,
					&r->overruns);
			r->flags |= HWTIMER_REC_PERIODIC;
		} else if (t->flags & HWT_U_AUTOREMOVE) {
			r->flags |= HWTIMER_REC_REMOVED;
		}
		n++;
	}
	hwt_unlock(hf);
	return n;
}

/*
 * Take the records hwt_peek_records() built, once they reached the caller:
 * as many as are still at the head of the queue, from the same arming. A
 * MOD or CANCEL in between took the rest away, and they do not count as
 * read. Periodic timers are re-armed, AUTOREMOVE ones deleted.
 */
static unsigned int hwt_take_records(struct hwt_file *hf,
				     const struct hwt_peek *peek,
				     unsigned int n, struct list_head *dead)
{
	u64 now[HWT_NR_CLOCKS] = {};
	unsigned int i;

	hwt_lock(hf);
	for (i = 0; i < n && !list_empty(&hf->ready); i++) {
		struct hwt_utimer *t = list_first_entry(&hf->ready,
							struct hwt_utimer,
							node.entry);

		if (t != peek[i].t || t->id != peek[i].id ||
		    t->gen != peek[i].gen)
			break;
		hwt_disarm(hf, t);	/* off the queue */
		if (hwt_period(t))
			/* the wheel gets a fresh clock read: see hwt_base_sync() */
			hwt_rearm_period(hf, t, peek[i].now,
					 hwt_now_once(hf, now, t->clk));
		else if (t->flags & HWT_U_AUTOREMOVE)
			hwt_remove(hf, t, dead);
	}
	hwt_stat_add(&hf->stats, HWT_C_RECORDS, i);
	hwt_unlock(hf);
	return i;
}

/*
 * Records are copied to the caller before they are taken off the queue, so
 * that a fault (a bad buffer, or a page fault that fails) loses none. One
 * reader at a time, so that two never copy the same records. A long read()
 * gives the CPU up between chunks, and a signal ends it with what it has.
 */
static ssize_t hwt_read(struct file *file, char __user *buf, size_t count,
			loff_t *ppos)
{
	const size_t rsize = sizeof(struct hwtimer_record);
	struct hwt_file *hf = file->private_data;
	size_t max = count / rsize, done = 0;
	struct hwtimer_record *recs;
	struct hwt_peek *peek;
	ssize_t ret = 0;

	if (!max)
		return -EINVAL;
	recs = kmalloc_array(HWT_READ_CHUNK, rsize, GFP_KERNEL);
	peek = kmalloc_array(HWT_READ_CHUNK, sizeof(*peek), GFP_KERNEL);
	if (!recs || !peek) {
		ret = -ENOMEM;
		goto out;
	}
	if (mutex_lock_interruptible(&hf->read_lock)) {
		ret = -ERESTARTSYS;
		goto out;
	}
	while (done < max) {
		unsigned int n = min_t(size_t, HWT_READ_CHUNK, max - done);
		LIST_HEAD(dead);

		n = hwt_peek_records(hf, recs, peek, n);
		if (n) {
			if (copy_to_user(buf + done * rsize, recs, n * rsize)) {
				ret = -EFAULT;
				break;
			}
			n = hwt_take_records(hf, peek, n, &dead);
			hwt_free_list(hf, &dead);
			done += n;
			if (done < max && signal_pending(current))
				break;
			cond_resched();
			continue;
		}
		if (done)
			break;
		if (file->f_flags & O_NONBLOCK) {
			ret = -EAGAIN;
			break;
		}
		/* wait without the reader lock: another reader may take them */
		mutex_unlock(&hf->read_lock);
		ret = wait_event_interruptible(hf->wq, READ_ONCE(hf->nready));
		if (ret)
			goto out;
		if (mutex_lock_interruptible(&hf->read_lock)) {
			ret = -ERESTARTSYS;
			goto out;
		}
	}
	mutex_unlock(&hf->read_lock);
out:
	kfree(peek);
	kfree(recs);
	return done ? done * rsize : ret;
}

static __poll_t hwt_poll(struct file *file, poll_table *wait)
{
	struct hwt_file *hf = file->private_data;

	poll_wait(file, &hf->wq, wait);
	return READ_ONCE(hf->nready) ? EPOLLIN | EPOLLRDNORM : 0;
}

/*
 * /proc/PID/fdinfo/FD: the file's timers, queue and counters, one
 * "key:\tvalue" per line like timerfd's. Counters are the file's own plus
 * its bases'.
 */
static void hwt_show_fdinfo(struct seq_file *m, struct file *file)
{
	struct hwt_file *hf = file->private_data;
	struct hwt_stats st;
	unsigned int clk, i, pending = 0;

	hwt_lock(hf);
	st = hf->stats;
	for (clk = 0; clk < HWT_NR_CLOCKS; clk++) {
		const struct hwt_stats *b = &hf->base[clk].stats;

		if (!test_bit_acquire(clk, &hf->clocks))
			continue;
		pending += hf->base[clk].wheel->pending;
		hwt_stats_fold(&st, b);
	}
	seq_printf(m, "timers:\t%u\n", hf->ntimers);
	seq_printf(m, "pending:\t%u\n", pending);
	seq_printf(m, "ready:\t%u\n", hf->nready);
	seq_printf(m, "max_timers:\t%u\n",
		   min(READ_ONCE(hwt_max_timers_per_fd), HWT_ID_MAX));
	seq_printf(m, "eventfd:\t%d\n", !!hf->efd);
	seq_printf(m, "rearms_per_s:\t%lu\n", hf->rearms);
	hwt_unlock(hf);
	for (i = 0; i < HWT_NR_COUNTERS; i++)
		seq_printf(m, "%s:\t%llu\n", hwt_counter_names[i], st.count[i]);
	for (i = 0; i < HWT_NR_MAXIMA; i++)
		seq_printf(m, "%s:\t%llu\n", hwt_maximum_names[i], st.max[i]);
	seq_puts(m, "lateness_hist:\t");
	for (i = 0; i < HWT_HIST_BUCKETS; i++)
		seq_printf(m, "%s%llu", i ? " " : "", st.late_hist[i]);
	seq_putc(m, '\n');
}

static int hwt_open(struct inode *inode, struct file *file)
{
	struct hwt_file *hf;

	hf = kzalloc(sizeof(*hf), GFP_KERNEL_ACCOUNT);
	if (!hf)
		return -ENOMEM;
	hf->user = hwt_user_get(file->f_cred->uid);
	if (!hf->user) {
		kfree(hf);
		return -ENOMEM;
	}
	xa_init_flags(&hf->timers, XA_FLAGS_ALLOC1 | XA_FLAGS_LOCK_BH |
		      XA_FLAGS_ACCOUNT);
	mutex_init(&hf->setup);
	mutex_init(&hf->read_lock);
	INIT_LIST_HEAD(&hf->ready);
	init_waitqueue_head(&hf->wq);
	file->private_data = hf;
	return stream_open(inode, file);
}

static int hwt_release(struct inode *inode, struct file *file)
{
	struct hwt_file *hf = file->private_data;
	XA_STATE(xas, &hf->timers, 0);
	struct hwt_utimer *t;
	unsigned int clk, n;

	/* 1. no expiry may re-arm a base's hrtimer any more */
	hwt_lock(hf);
	hf->dead = true;
	hwt_unlock(hf);
	/* 2. wait for running expiries, and disarm */
	for (clk = 0; clk < HWT_NR_CLOCKS; clk++)
		if (test_bit(clk, &hf->clocks))
			hrtimer_cancel(&hf->base[clk].hrt);
	/*
	 * 3. nothing else can touch the timers now: free them and their
	 * xarray slots a chunk at a time, giving the CPU up in between
	 */
	do {
		n = 0;
		xas_lock_bh(&xas);
		xas_for_each(&xas, t, ULONG_MAX) {
			/* the advanced API shows the reserved id 0 */
			if (xa_is_zero(t))
				continue;
			/* closing the file cancels what was pending */
			if (t->state == HWT_U_PENDING) {
				hwt_stat_add(&hf->stats, HWT_C_CANCELLED, 1);
				trace_hwt_cancel(hwt_clockids[t->clk], &t->node,
						 t->id, t->node.expires);
			}
			xas_store(&xas, NULL);
			hwt_timer_free(t);
			if (++n == HWT_FREE_CHUNK) {
				xas_pause(&xas);
				break;
			}
		}
		xas_unlock_bh(&xas);
		cond_resched();
	} while (n == HWT_FREE_CHUNK);
	atomic_long_sub(hf->ntimers, &hf->user->timers);
	atomic_long_sub(hf->rearms, &hf->user->rearms);
	xa_destroy(&hf->timers);
	for (clk = 0; clk < HWT_NR_CLOCKS; clk++) {
		struct hwt_base *b = &hf->base[clk];

		if (!test_bit(clk, &hf->clocks))
			continue;
		/* the timers are gone: forget them, then free the wheel */
		hwt_wheel_clear(b->wheel);
		hwt_base_destroy(b);
	}
	hwt_efd_put(hf->efd);
	hwt_efd_put(hf->last_efd);
	hwt_user_put(hf->user);
	mutex_destroy(&hf->read_lock);
	mutex_destroy(&hf->setup);
	kfree(hf);
	return 0;
}

static const struct file_operations hwt_fops = {
	.owner = THIS_MODULE,
	.open = hwt_open,
	.release = hwt_release,
	.read = hwt_read,
	.poll = hwt_poll,
	.unlocked_ioctl = hwt_ioctl,
	.compat_ioctl = compat_ptr_ioctl,
	.show_fdinfo = hwt_show_fdinfo,
};

static struct miscdevice hwt_misc = {
	.minor = MISC_DYNAMIC_MINOR,
	.name = "hwtimer",
	.fops = &hwt_fops,
	.groups = hwt_sysfs_groups,
	.mode = 0666,	/* like timerfd, anyone may have timers */
};

int hwt_dev_init(void)
{
	int ret;

	hwt_timer_cache = kmem_cache_create("hwtimer_timer",
					    sizeof(struct hwt_utimer), 0,
					    SLAB_ACCOUNT | HWT_SLAB_NO_MERGE,
					    NULL);
	hwt_ext_cache = kmem_cache_create("hwtimer_timer_ext",
					  sizeof(struct hwt_utimer_ext), 0,
					  SLAB_ACCOUNT | HWT_SLAB_NO_MERGE,
					  NULL);
	if (!hwt_timer_cache || !hwt_ext_cache) {
		ret = -ENOMEM;
		goto fail;
	}
	ret = hwt_sysfs_init();
	if (ret)
		goto fail;
	ret = misc_register(&hwt_misc);
	if (ret) {
		hwt_sysfs_exit();
		goto fail;
	}
	return 0;
fail:
	kmem_cache_destroy(hwt_ext_cache);
	kmem_cache_destroy(hwt_timer_cache);
	return ret;
}

void hwt_dev_exit(void)
{
	misc_deregister(&hwt_misc);
	hwt_sysfs_exit();
	kmem_cache_destroy(hwt_ext_cache);
	kmem_cache_destroy(hwt_timer_cache);
	WARN_ON_ONCE(!xa_empty(&hwt_users));
}
