/* SPDX-License-Identifier: GPL-2.0 */
/*
 * /dev/hwtimer: many timers behind one file descriptor. The userspace
 * contract is in Documentation/userspace-api/hwtimer.rst (the structs in
 * uapi/linux/hwtimer.h); base.h opens with a glossary of the module's
 * nouns. The device is a file per concern:
 *
 *   dev_file.c     a file's life: open, release, fdinfo, the misc device
 *   dev_account.c  what timers cost and who pays: the limits, per-user
 *                  charges, timer objects
 *   dev_ids.c      a file's table of timers: entries, whose index is the
 *                  timer's id
 *   dev_timer.c    a file's timers on its wheels: arming, re-arming,
 *                  removal
 *   dev_queue.c    the record queue, where fired timers wait for read()
 *   dev_expiry.c   a file's bases: set up on first use, and expiry (the
 *                  bases' hrtimer callback)
 *   dev_timens.c   time namespaces: deadlines and times in a task's view
 *   dev_signal.c   wake-ups: eventfd entries, eventfds, readers and
 *                  pollers, signalled once the lock is dropped
 *   dev_prep.c     ADD, MOD and CANCEL checked, and what they need
 *                  allocated, with no lock held
 *   dev_ops.c      ADD, MOD and CANCEL run, a chunk of them under one
 *                  hold of the lock
 *   dev_ioctl.c    the ioctls: struct sizes, single ops, GET,
 *                  SET_EVENTFD, SLACK, RECORD_SIZE, INFO
 *   dev_batch.c    the bulk ioctls, BATCH and DRAIN, over pinned user
 *                  memory that their results cannot fail to reach
 *   dev_record.c   a timer's record: building it, and what delivering it
 *                  does to the timer
 *   dev_read.c     read() and poll()
 *   dev_ring.c     the expiry ring: records in memory the reader maps
 *   dev_uring.c    ADD, MOD and CANCEL submitted through io_uring
 *   dev_clockset.c HWTIMER_F_CANCEL_ON_SET: withdrawing timers when
 *                  CLOCK_REALTIME is set
 *
 * This header holds what they all share: the file, its timers and its
 * lock. Each file that the others call into declares what it exports in a
 * header named after it (dev_ring.h for dev_ring.c; dev_copy.h is a helper
 * of the ioctls), so a file's #include lines are the files it depends on.
 *
 * Every open file has its own timers, in a table by id (struct hwt_ids),
 * and up to three timer bases (one per clock, set up on first use).
 *
 * Locking. A file has five locks. Where two are held at once, they nest
 * in this order, never the other way:
 *
 *   @setup, @read_lock, @ids.grow	mutexes; never two of them at once
 *     -> @lock				spinlock, interrupts off
 *       -> @sig_lock			spinlock, interrupts off
 *
 * - @lock is the file's lock and its bases' lock: it guards the timers,
 *   their ids and the table's chunks, the wheels, the queue of expired
 *   timers whose records wait to be read, and the counters. Expiry takes
 *   it in the bases' hrtimer interrupt, so it is taken with hard
 *   interrupts off everywhere (on PREEMPT_RT, where expiry runs in the
 *   ktimers thread, it is a sleeping lock like any spinlock_t). A hold
 *   that collects wake-ups saves the interrupt state (hwt_lock_signals()).
 * - @setup serialises setting up a base or the ring, which are put in
 *   under @lock (dev_expiry.c, dev_ring.c), and charging their user for
 *   them (dev_account.c, dev_ring.c).
 * - @read_lock lets one reader at a time copy records off the queue
 *   (read(), RING_FLUSH) or change their size, taking @lock per chunk
 *   (dev_read.c).
 * - @ids.grow lets one thread at a time grow the table or give it back,
 *   which swaps chunks and directories in under @lock (dev_ids.c).
 * - @sig_lock is held by a run that signals eventfds once it has dropped
 *   @lock: taken before @lock is dropped, so that a MOD or CANCEL that
 *   ends an arming afterwards finds the run, and released after. It
 *   guards the wake-ups passes left (dev_signal.c), which a flush does
 *   taking both locks as a run does. Under it only the eventfds' and
 *   @wq's own wait-queue locks are taken.
 *
 * Beyond the file, hwt_cos_lock (dev_clockset.c) nests outside @lock, and
 * io_uring's uring_lock outside all of them (a command runs under it).
 * lockdep_assert_held() marks where an inner lock is taken under an outer
 * one in another function.
 *
 * Expiry runs where timerfd's does: in the bases' hrtimer interrupt, a
 * small pass (dev_expiry.c), which the hrtimer softirq and then a worker
 * take on when more is due than such a pass may do. It does little per
 * timer. It puts the timer's record into the expiry ring, or the timer on
 * the record queue, linked by ids in the place of the list link the wheel
 * no longer uses, and notes its eventfd, signalled once the lock is
 * dropped. Records on the queue are built by read(), which also re-arms
 * periodic timers. A timer is thus either on the wheel or on the queue,
 * never both, and the queue never holds more entries than there are
 * timers.
 *
 * Memory. A timer is a 40-byte entry of the file's table, whose id names
 * it: ADD takes a free entry and CANCEL gives it back, with no allocation
 * of their own. The table grows a chunk of entries at a time, as a page (a
 * first, smaller chunk keeps a file of few timers small). A timer with a
 * period, slack or an eventfd also has a 40-byte struct hwt_uext, which
 * MOD adds when a timer gains a period. The chunks and the struct
 * hwt_uext cache are accounted, so timers are charged to the memory
 * cgroup of whoever creates them, and module parameters cap the timers of
 * a file and of a user. What else a file pins counts against the user's
 * cap too, as the timers whose entries would take as many bytes: a
 * timer's struct hwt_uext, the file itself from open(), each base (a
 * wheel, 29 KiB at the default geometry) from the first timer on its
 * clock, and the expiry ring's record slots (dev_account.c).
 *
 * Teardown (release) follows timer_shutdown_sync(): mark the file dead so no
 * expiry re-arms anything, cancel the bases' hrtimers, then free.
 */
#ifndef _HWT_DEV_H
#define _HWT_DEV_H

#include <linux/list.h>
#include <linux/mutex.h>
#include <linux/spinlock.h>
#include <linux/wait.h>
#include <uapi/linux/hwtimer.h>

#include "base.h"

struct hwt_efd;
struct hwt_ring;
struct hwt_user;
struct ucounts;

/* struct hwt_utimer.state */
enum {
	HWT_U_IDLE,	/* not armed */
	HWT_U_PENDING,	/* on the wheel */
	HWT_U_FIRED,	/* on the record queue */
	HWT_U_CANCELED,	/* on the record queue, withdrawn by a clock set */
};

/* struct hwt_utimer.flags */
#define HWT_U_FIXED_DELAY	BIT(0)
#define HWT_U_NO_RECORD		BIT(1)
#define HWT_U_AUTOREMOVE	BIT(2)
#define HWT_U_EXT		BIT(3)	/* has a struct hwt_uext */
#define HWT_U_CANCEL_ON_SET	BIT(4)

/**
 * struct hwt_utimer - a timer of a /dev/hwtimer file, an entry of its table
 * @node: on the wheel (PENDING); deadline
 * @__node_entry: @node.entry, as the wheel's fields are named in the
 *		  overlay that names the owner's bits of @node
 * @__node_expires: @node.expires
 * @__node_lvl: @node.lvl
 * @__node_slack: @node.slack
 * @id: its id on the file, 1..HWT_ID_MAX; 0 in a free entry of the table
 * @gen: generation of its arming, from the file's counter (ADD, MOD)
 * @clk: index of its clock in hwt_clockids, or HWT_CLK_ELAPSED
 * @state: HWT_U_*
 * @flags: HWT_U_* flags
 * @fired: FIRED or CANCELED, or just expired: when it fired, in place of
 *	   @node.entry, which the wheel no longer uses
 * @qprev: FIRED or CANCELED: the id before it on the record queue, 0 at
 *	   its head (dev_queue.c)
 * @qnext: and the id after it, 0 at its tail
 * @cookie: the user's cookie, for a timer without HWT_U_EXT
 * @ext: with HWT_U_EXT, what it has besides, its cookie included
 * @next_free: in a free entry, the next free id (dev_ids.c)
 *
 * @id, @gen, @clk, @state and @flags are the owner's bits of @node
 * (HWT_NODE_OWNER_BITS), and @fired and the queue's links take @node's
 * list link while it is off the wheel, so that the timer is 40 bytes.
 */
struct hwt_utimer {
	union {
		struct hwt_node node;
		struct {
			struct list_head __node_entry;
			u64 __node_expires;
			u64 __node_lvl : HWT_NODE_LVL_BITS;
			u64 __node_slack : HWT_NODE_SLACK_BITS;
			u64 id : 26;
			u64 gen : 24;
			u64 clk : 2;
			u64 state : 2;
			u64 flags : 5;
		};
		struct {
			u64 fired;
			u32 qprev;
			u32 qnext;
		};
	};
	union {
		u64 cookie;
		struct hwt_uext *ext;
		u32 next_free;
	};
};

/*
 * struct hwt_utimer.clk: the index of the timer's base in hwt_clockids, or
 * HWT_CLK_ELAPSED for a CLOCK_REALTIME timer armed with a relative delay.
 * POSIX measures such a delay as elapsed time, which a step of the clock
 * does not change, so the timer lives on the CLOCK_MONOTONIC base, as
 * hrtimer puts relative CLOCK_REALTIME timers (__hrtimer_init()); it still
 * reports CLOCK_REALTIME and times on it. An absolute deadline follows the
 * clock: such a timer is HWT_CLK_REAL, and a MOD moves a timer between the
 * two. A file that arms CLOCK_REALTIME timers sets up both bases.
 */
#define HWT_CLK_MONO		0
#define HWT_CLK_BOOT		1
#define HWT_CLK_REAL		2
#define HWT_CLK_ELAPSED		HWT_NR_CLOCKS

/* what struct hwt_utimer's bit-fields hold */
static_assert(HWT_CLK_ELAPSED < 4, "struct hwt_utimer.clk is 2 bits");
static_assert(HWT_U_CANCELED < 4, "struct hwt_utimer.state is 2 bits");
static_assert(HWT_U_CANCEL_ON_SET < 32, "struct hwt_utimer.flags is 5 bits");

/* The base a timer of clock index @clk lives on. */
static inline unsigned int hwt_base_idx(unsigned int clk)
{
	return clk == HWT_CLK_ELAPSED ? HWT_CLK_MONO : clk;
}

/* The clock a timer of clock index @clk reports. */
static inline clockid_t hwt_uclockid(unsigned int clk)
{
	return hwt_clockids[clk == HWT_CLK_ELAPSED ? HWT_CLK_REAL : clk];
}

/* ids fit 26 bits, so that the timer stays 40 bytes */
#define HWT_ID_MAX	((1U << 26) - 1)

/**
 * struct hwt_uext - what a timer with a period, slack or an eventfd has
 *		     besides its entry
 * @period: its period, 0 for a one-shot timer
 * @slack: how late it may fire after each deadline (the wheel's
 *	   struct hwt_wheel.slack_of)
 * @due: the deadline of the current arming as asked for; a fixed-rate
 *	period's grid starts here, even where the wheel raised the timer's
 *	deadline to a tick it had not processed yet
 * @efd: its eventfd, or NULL
 * @cookie: the user's cookie, which the entry holds for other timers
 */
struct hwt_uext {
	u64 period;
	u64 slack;
	u64 due;
	struct hwt_efd *efd;
	u64 cookie;
};

/*
 * The overlays name the wheel's fields where struct hwt_node has them,
 * the owner's bits must fit in the node's, and the fire time and the
 * queue's links only take the list link: the timer stays 40 bytes (see
 * the top of this file).
 */
static_assert(offsetof(struct hwt_utimer, __node_entry) ==
	      offsetof(struct hwt_utimer, node.entry));
static_assert(offsetof(struct hwt_utimer, __node_expires) ==
	      offsetof(struct hwt_utimer, node.expires));
static_assert(offsetof(struct hwt_utimer, qnext) + sizeof(u32) <=
	      offsetof(struct hwt_utimer, node.expires));
static_assert(offsetof(struct hwt_utimer, cookie) == sizeof(struct hwt_node));
static_assert(sizeof(struct hwt_utimer) == sizeof(struct hwt_node) + 8);
static_assert(!IS_ENABLED(CONFIG_64BIT) || sizeof(struct hwt_utimer) == 40);

/**
 * struct hwt_ids - a file's timers: a table of entries, by id (dev_ids.c)
 * @dir: the table's chunks. dir[0] holds the first HWT_IDS_CHUNK0 ids, each
 *	 later one the next HWT_IDS_PER_CHUNK (hwt_ids_entry()).
 * @dirsize: entries @dir has room for
 * @nchunks: chunks in @dir
 * @cap: entries in those chunks
 * @top: ids up to @top have been handed out; the entries above are unused
 * @free: the id freed last, taken next; 0 if none
 * @nfree: free ids up to @top
 * @hwm: the highest id the file ever handed out, which outlives a table
 *	 given back: ids above it were never a timer's (ENOENT), the others
 *	 were (ESTALE with HWTIMER_F_GEN)
 * @grow: one thread at a time grows the table or gives it back; taken
 *	  before the file's lock (dev.h, "Locking")
 */
struct hwt_ids {
	struct hwt_utimer **dir;
	u32 dirsize;
	u32 nchunks;
	u32 cap;
	u32 top;
	u32 free;
	u32 nfree;
	u32 hwm;
	struct mutex grow;		/* see @grow above */
};

/**
 * struct hwt_file_run - what a file's base needs to run besides its
 *			 hrtimer (dev_expiry.c); the in-kernel API's bases,
 *			 which expire in softirq context and cascade ahead
 *			 within their runs, need none of it
 * @more: a soft hrtimer that takes a run on in softirq context when the
 *	  pass in the hrtimer's interrupt left work due
 * @ahead: a soft hrtimer that cascades ahead, apart from expiry (struct
 *	   hwt_expiry.apart)
 * @drain: a work item that runs passes until the wheel has caught up,
 *	   for a backlog a run handed off
 * @base: the base these are for
 */
struct hwt_file_run {
	struct hrtimer more;
	struct hrtimer ahead;
	struct work_struct drain;
	struct hwt_base *base;
};

/**
 * struct hwt_file - an open /dev/hwtimer
 * @lock: the file's lock: see above
 * @ids: its timers by id
 * @base: one timer base per clock, set up on first use
 * @run: what each base's runs need besides, set up with it
 * @clocks: bit c set once @base[c] and @run[c] are set up, and @user
 *	    charged for them (hwt_file_bases_setup())
 * @setup: serialises setting up a base or the ring: see above
 * @read_lock: one reader at a time copies records off the record queue:
 *	       see above
 * @qhead: the id at the head of the record queue, oldest first; 0 if none
 * @qtail: the id at its tail
 * @wq: readers and pollers wait here for records
 * @efd: the file's eventfd, or NULL
 * @last_efd: the eventfd of the last ADD with one, for the next to share
 * @user: the user who opened the file
 * @rearms: what the file's NO_RECORD periodic timers charge @user
 * @slack: the slack of ADDs and MODs that give none (HWTIMER_IOC_SLACK)
 * @gen: the last generation handed out, so that an id's next timer never
 *	 repeats a generation of its last one (HWTIMER_F_GEN)
 * @rec_size: the size of the records read() returns (HWTIMER_IOC_RECORD_SIZE)
 * @rbuf: read()'s buffer, set up by the first read(), under @read_lock
 * @ring: the expiry ring, or NULL; set once, under @setup and the lock
 * @ntimers: timers on the file
 * @nexts: of those, the ones with a struct hwt_uext, which counts against
 *	   the user's timers as much again (dev_account.c)
 * @nready: timers on the record queue
 * @cos_link: on the list of files that clock sets walk (dev_clockset.c),
 *	      once it armed a HWTIMER_F_CANCEL_ON_SET timer
 * @cos_seq: the count of clock sets its HWTIMER_F_CANCEL_ON_SET timers were
 *	     armed under: sets up to it have withdrawn them (dev_clockset.c)
 * @sig_lock: held by a run while it signals timers' eventfds with the lock
 *	      dropped, taken before it drops the lock; a MOD, CANCEL or
 *	      DRAIN that ended an arming whose eventfd a run is signalling
 *	      takes it too, to wait for that run (hwt_signals_wait()); guards
 *	      @sig_left
 * @sig_left: eventfds whose wake-ups passes left, out of time (struct
 *	      hwt_efd.left); readers and pollers are woken first, never left
 * @sig_nleft: entries of @sig_left, which a flush goes through at most
 *	       of those it finds when it starts
 * @sig_work: does the wake-ups passes left
 * @reader_cpu: the CPU a reader or poller last waited on, for the counts
 *		of where passes woke one (HWT_C_READER_CPU, HWT_C_OTHER_CPU)
 * @dead: being released: expiries must not re-arm anything
 * @stats: counters of the file's own (the owner fields); its bases count
 *	   the rest
 */
struct hwt_file {
	spinlock_t lock;		/* see @lock above */
	struct hwt_ids ids;
	struct hwt_base base[HWT_NR_CLOCKS];
	struct hwt_file_run run[HWT_NR_CLOCKS];
	unsigned long clocks;
	struct mutex setup;		/* see @setup above */
	struct mutex read_lock;		/* see @read_lock above */
	u32 qhead;
	u32 qtail;
	wait_queue_head_t wq;
	struct hwt_efd *efd;
	struct hwt_efd *last_efd;
	struct hwt_user *user;
#ifdef HWT_COMPAT_UCOUNTS
	/**
	 * @ucounts: the opener's, in its user namespace: the file counts in
	 * its UCOUNT_HWTIMER_FILES, and its timers in its
	 * UCOUNT_HWTIMER_TIMERS (dev_account.c)
	 */
	struct ucounts *ucounts;
#endif
	unsigned long rearms;
	u64 slack;
	u32 gen;
	u32 rec_size;
	void *rbuf;
	struct hwt_ring *ring;
	u32 ntimers;
	u32 nexts;
	u32 nready;
	struct list_head cos_link;
	u32 cos_seq;
	spinlock_t sig_lock;		/* see @sig_lock above */
	struct list_head sig_left;
	u32 sig_nleft;
	struct work_struct sig_work;
	int reader_cpu;
	bool dead;
	struct hwt_stats stats;
};

/* batch entries run per hold of the lock */
#define HWT_CHUNK	64
/* the workers of bases that a backlog was handed to (dev_file.c) */
extern struct workqueue_struct *hwt_pass_wq;

/* expiry takes it in hard interrupt context: see above */
#define hwt_lock(hf)	spin_lock_irq(&(hf)->lock)
#define hwt_unlock(hf)	spin_unlock_irq(&(hf)->lock)

static inline struct hwt_uext *hwt_ext(struct hwt_utimer *t)
{
	return t->ext;
}

static inline u64 hwt_period(struct hwt_utimer *t)
{
	return t->flags & HWT_U_EXT ? t->ext->period : 0;
}

static inline u64 hwt_cookie(struct hwt_utimer *t)
{
	return t->flags & HWT_U_EXT ? t->ext->cookie : t->cookie;
}

/*
 * The deadline a timer reports (records, GET): a periodic timer's is the
 * point of its grid, even where the wheel raised its arming to a tick it
 * had already processed (a grid point that passed before the re-arm, or a
 * first deadline in the past), so that what is reported stays on the grid
 * and the overruns count from it. Never after the time it fires.
 */
static inline u64 hwt_reported_deadline(struct hwt_utimer *t)
{
	return hwt_period(t) ? hwt_ext(t)->due : t->node.expires;
}

static inline struct hwt_efd *hwt_efd(struct hwt_utimer *t)
{
	return t->flags & HWT_U_EXT ? t->ext->efd : NULL;
}

/*
 * Clock reads made under one hold of the file's lock, one per base, 0 until
 * made: every operation of a chunk, or every record of a read(), takes the
 * same "now". Forget them (hwt_nows_forget()) whenever the lock is dropped:
 * the wheels must only see reads made under the hold they are used in (see
 * hwt_base_sync()).
 */
struct hwt_nows {
	u64 now[HWT_NR_CLOCKS];
};

static inline void hwt_nows_forget(struct hwt_nows *c)
{
	memset(c, 0, sizeof(*c));
}

static inline u64 hwt_now_once(struct hwt_file *hf, struct hwt_nows *c,
			       unsigned int clk)
{
	unsigned int b = hwt_base_idx(clk);

	if (!c->now[b])
		c->now[b] = hwt_base_now(&hf->base[b]);
	return c->now[b];
}

#endif /* _HWT_DEV_H */
