// SPDX-License-Identifier: GPL-2.0
/*
 * /dev/hwtimer: a file's bases and their expiry. A clock's base is set up
 * on first use; expiry is the bases' hrtimer callback, which queues records
 * and notes the eventfds to signal once it has dropped the file's lock, and
 * the worker a backlog is handed to. See dev.h.
 *
 * Where expiry runs. As timerfd's does, in the hrtimer's own interrupt: a
 * timer due is delivered, and its reader woken, without a hop to the
 * hrtimer softirq, which a busy CPU may leave to ksoftirqd, a nice 0
 * thread that then waits behind the very reader it is to wake. What a hard
 * interrupt does is bounded tighter than a pass (HWT_HARD_BUDGET units,
 * wake-ups for HWT_HARD_NS); when more is due, the base's soft hrtimer
 * (struct hwt_file_run.more) takes the run on in softirq context at once, as
 * a soft base's run goes on (base.h), and hands a backlog to the worker.
 * On PREEMPT_RT, where the file's lock sleeps, hrtimer runs the bases'
 * hrtimers in the ktimers thread (they are neither soft nor hard ones, as
 * timerfd's), and every pass is a soft one.
 */
#include <linux/bitops.h>

#include "compat/compat.h"
#include "dev.h"
#include "dev_account.h"
#include "dev_clockset.h"
#include "dev_expiry.h"
#include "dev_queue.h"
#include "dev_ring.h"
#include "dev_signal.h"
#include "dev_timer.h"
#include "hwt_trace.h"

/* units a pass in hard interrupt context does at most */
#define HWT_HARD_BUDGET		64
static_assert(HWT_HARD_BUDGET <= HWT_PASS_MIN);
/* after which time it leaves wake-ups (but the first) to the worker */
#define HWT_HARD_NS		5000

static enum hrtimer_restart hwt_file_tick(struct hrtimer *hrt);
static enum hrtimer_restart hwt_file_more(struct hrtimer *hrt);
static enum hrtimer_restart hwt_file_ahead(struct hrtimer *hrt);
static void hwt_file_drain(struct work_struct *work);

/* Set up the base of clock index @clk, with @hf->setup held. */
static int hwt_file_base_init(struct hwt_file *hf, unsigned int clk)
{
	struct hwt_file_run *run = &hf->run[clk];
	int ret;

	lockdep_assert_held(&hf->setup);
	ret = hwt_base_init(&hf->base[clk], hwt_clockids[clk], hwt_file_tick,
			    HRTIMER_MODE_ABS, hwt_utimer_slack,
			    GFP_KERNEL_ACCOUNT);
	if (ret)
		return ret;
	hf->base[clk].owner = hf;
	run->base = &hf->base[clk];
	hwt_hrtimer_setup(&run->more, hwt_file_more, hwt_clockids[clk],
			  HRTIMER_MODE_REL_SOFT);
	hwt_hrtimer_setup(&run->ahead, hwt_file_ahead, hwt_clockids[clk],
			  HRTIMER_MODE_REL_SOFT);
	INIT_WORK(&run->drain, hwt_file_drain);
	/* the base is complete before anyone sees the bit */
	smp_mb__before_atomic();
	set_bit(clk, &hf->clocks);
	return 0;
}

/**
 * hwt_file_bases_setup() - set up the bases @need that a file lacks
 * @hf: the file, no lock held
 * @need: the bases' clock indexes, as bits (hwt_file_base())
 * @nowait: io_uring's inline issue: -EAGAIN rather than wait for another
 *	    thread's set-up
 *
 * Each base counts against the user's max_timers_per_user from its set-up
 * to the file's release (hwt_base_units): those missing are charged
 * together first, and a file past its user's limit gets none. What a base
 * that failed to set up was charged goes back.
 *
 * Context: process context, no lock held; may sleep unless @nowait.
 * Return: 0, -EDQUOT, -ENOMEM, or -EAGAIN (@nowait only).
 */
int hwt_file_bases_setup(struct hwt_file *hf, unsigned long need, bool nowait)
{
	unsigned long more;
	unsigned int clk;
	int ret = 0;

	if (!nowait)
		mutex_lock(&hf->setup);
	else if (!mutex_trylock(&hf->setup))
		return -EAGAIN;
	more = need & ~hf->clocks;
	if (more && !hwt_charge(hf, hweight_long(more) * hwt_base_units)) {
		ret = -EDQUOT;
		goto out;
	}
	for_each_set_bit(clk, &more, HWT_NR_CLOCKS) {
		ret = hwt_file_base_init(hf, clk);
		if (ret)
			break;
	}
	if (ret)
		hwt_uncharge(hf, hweight_long(more & ~hf->clocks) *
			     hwt_base_units);
out:
	mutex_unlock(&hf->setup);
	return ret;
}

/**
 * hwt_file_bases_stop() - a closing file's bases run no more
 * @hf: the file, @dead set, so that no pass re-arms anything
 *
 * Waits for running expiries and disarms; a pass may hand its base to the
 * worker until it sees @dead, and the worker never re-arms then. The
 * wake-ups the passes left are done now, not dropped.
 */
void hwt_file_bases_stop(struct hwt_file *hf)
{
	unsigned int clk;

	for (clk = 0; clk < HWT_NR_CLOCKS; clk++) {
		if (!test_bit(clk, &hf->clocks))
			continue;
		/* each may start those after it */
		hrtimer_cancel(&hf->base[clk].hrt);
		hrtimer_cancel(&hf->run[clk].more);
		cancel_work_sync(&hf->run[clk].drain);
		hrtimer_cancel(&hf->run[clk].ahead);
	}
	cancel_work_sync(&hf->sig_work);
	hwt_signals_flush(hf);
}

/*
 * Whether @b's hrtimer is queued on another CPU than this one; a look
 * without the lock, for hwt_file_bases_follow(): the hrtimer's base is
 * always some CPU's.
 */
static bool hwt_hrtimer_elsewhere(struct hwt_base *b)
{
	struct hrtimer_clock_base *base = READ_ONCE(b->hrt.base);

	return hrtimer_is_queued(&b->hrt) &&
	       base->cpu_base->cpu != raw_smp_processor_id();
}

/**
 * hwt_file_bases_follow() - bring the bases' hrtimers to a waiting reader
 * @hf: the file, not locked
 *
 * A reader that is about to wait for records (read() or poll() with
 * nothing to take, or read() without blocking that found nothing, as a
 * program that waits on the file's eventfd does) calls it on its CPU. A
 * base's hrtimer stays on the CPU it was armed on, and a pass there wakes
 * the reader on another: an idle CPU woken for the interrupt, a wake-up
 * across CPUs, the reader's CPU woken in turn. So an hrtimer that waits on
 * another CPU is started again here, where the reader will be woken,
 * unless a run owns the base. It costs one hrtimer start when the reader
 * moved, and a look at each base otherwise.
 */
void hwt_file_bases_follow(struct hwt_file *hf)
{
	unsigned int clk;

	/*
	 * Not on PREEMPT_RT: there the pass runs in the ktimers thread, which
	 * wakes the reader on the other CPU, and an hrtimer that followed it
	 * would move at every wait.
	 */
	if (IS_ENABLED(CONFIG_PREEMPT_RT))
		return;
	for (clk = 0; clk < HWT_NR_CLOCKS; clk++) {
		struct hwt_base *b = &hf->base[clk];

		/* pairs with the barrier before set_bit() in hwt_file_base_init() */
		if (!test_bit_acquire(clk, &hf->clocks) ||
		    !hwt_hrtimer_elsewhere(b))
			continue;
		hwt_lock(hf);
		if (!b->running && b->armed != U64_MAX &&
		    hwt_hrtimer_elsewhere(b)) {
			ktime_t soft = hrtimer_get_softexpires(&b->hrt);

			hrtimer_start_range_ns(&b->hrt, soft,
					       ktime_to_ns(hrtimer_get_expires(&b->hrt)) -
					       ktime_to_ns(soft),
					       b->mode | HRTIMER_MODE_PINNED);
		}
		hwt_unlock(hf);
	}
}

/* Free a closed file's bases, whose timers are freed already. */
void hwt_file_bases_free(struct hwt_file *hf)
{
	unsigned int clk;

	for (clk = 0; clk < HWT_NR_CLOCKS; clk++)
		if (test_bit(clk, &hf->clocks))
			hwt_base_destroy_freed(&hf->base[clk]);
}

/* Expiry */

/*
 * One pass over @b (see base.h): records go to the ring or the queue,
 * spent AUTOREMOVE timers go, and eventfds are signalled once the lock is
 * dropped. @hard: in the hrtimer's interrupt, where the pass is smaller.
 * Cascading ahead is left to hwt_file_ahead(). Returns what the pass left
 * (hwt_base_expiry_end()).
 *
 * @restart: for a pass in @b's hrtimer callback, set if the pass armed the
 * hrtimer again, which the callback then does by returning
 * HRTIMER_RESTART (struct hwt_base.in_callback); NULL elsewhere.
 */
static enum hwt_end hwt_file_pass(struct hwt_base *b, enum hwt_pass_kind kind,
				  bool hard, bool *restart)
{
	struct hwt_file *hf = b->owner;
	struct hwt_signals sig = {};
	struct hwt_nows nows = {};
	struct hwt_ring_pass ring;
	struct hwt_expiry x;
	struct hwt_node *n;
	unsigned int queued = 0, withdrawn = 0;
	enum hwt_end left;

	hwt_lock_signals(hf, &sig);
	if (hf->dead) {
		hwt_unlock_signal(hf, &sig);
		return HWT_END_DONE;
	}
	b->in_callback = !!restart;
	/*
	 * A hard pass's budget never outgrows its time: it reads no clock
	 * to bound it, and bounds its wake-ups from the first one
	 * (hwt_unlock_signal()).
	 */
	hwt_base_expiry_begin(b, &x, kind, hard ? 0 : hwt_cpu_clock());
	x.apart = true;
	sig.start = x.pass.start;
	sig.bound = HWT_PASS_NS;
	if (hard) {
		x.pass.left = min_t(unsigned int, x.pass.left, HWT_HARD_BUDGET);
		sig.bound = HWT_HARD_NS;
		hwt_stat_add(&hf->stats, HWT_C_HARD_PASSES, 1);
	}
	nows.now[b - hf->base] = x.now;
	/* records go to the ring unless some wait on the queue already */
	hwt_ring_begin(hf, &ring);
	if (hf->nready)
		ring.room = 0;
	/* each timer may add an eventfd: stop while there is room for one */
	while (sig.nefd < HWT_PASS_EFDS && (n = hwt_base_expire_next(b, &x))) {
		struct hwt_utimer *t = container_of(n, struct hwt_utimer, node);
		struct hwt_efd *efd = hwt_efd(t);

		if (unlikely(t->flags & HWT_U_CANCEL_ON_SET) &&
		    hwt_cos_stale(hf)) {
			/* armed before a set the walk has not reached yet */
			hwt_cos_withdrawn(hf, t, x.now, &sig);
			ring.room = 0;
			withdrawn++;
			continue;
		}
		trace_hwt_expire(b->clockid, t, t->id, n->expires, x.now);
		t->fired = x.now;
		t->state = HWT_U_IDLE;
		if (efd)
			hwt_signal_later(hf, &sig, efd);
		if (!(t->flags & HWT_U_NO_RECORD)) {
			/* a periodic one is re-armed in the ring's put: paced */
			if (ring.room &&
			    (!hwt_period(t) || hwt_pass_rearm_take(hf)) &&
			    hwt_ring_put(hf, &ring, t, &nows))
				continue;
			/* the ring is full or paced, or there is none */
			ring.room = 0;
			t->state = HWT_U_FIRED;
			hwt_queue_push(hf, t);
			queued++;
		} else if (hwt_period(t)) {
			/* nothing waits to be read: re-arm at once */
			hwt_utimer_rearm_period(hf, t, x.now, x.now);
		} else if (t->flags & HWT_U_AUTOREMOVE) {
			hwt_utimer_remove(hf, t);
		}
	}
	if (sig.nefd == HWT_PASS_EFDS)
		x.pass.left = 0;	/* more may be due: go on */
	left = hwt_base_expiry_end(b, &x);
	if (queued || withdrawn)
		hwt_queued_records(hf, &sig, queued);
	hwt_ring_end(hf, &ring, &sig);
	if (restart) {
		*restart = b->restart;
		b->in_callback = false;
		b->restart = false;
	}
	/* release() waits for this pass before it frees @hf */
	hwt_unlock_signal(hf, &sig);
	return left;
}

/* What a base of a file needs to run besides its hrtimer. */
static struct hwt_file_run *hwt_run_of(struct hwt_base *b)
{
	struct hwt_file *hf = b->owner;

	return &hf->run[b - hf->base];
}

/* Cascading ahead is left to do: in softirq context, apart (base.h). */
static void hwt_file_ahead_later(struct hwt_base *b, enum hwt_end left)
{
	if (left == HWT_END_AHEAD)
		hrtimer_start(&hwt_run_of(b)->ahead, 0, HRTIMER_MODE_REL_SOFT);
}

/*
 * A run of passes in softirq context, while hwt_run_more() says so; then
 * the base's worker takes the rest (base.h). @restart: as hwt_file_pass()'s,
 * for the first pass.
 */
static void hwt_file_run_soft(struct hwt_base *b, enum hwt_pass_kind kind,
			      bool *restart)
{
	u64 start = hwt_cpu_clock();
	enum hwt_end left;

	while ((left = hwt_file_pass(b, kind, false, restart)) ==
	       HWT_END_DUE) {
		if (!hwt_run_more(start)) {
			queue_work(hwt_pass_wq, &hwt_run_of(b)->drain);
			return;
		}
		kind = HWT_PASS_CONTINUED;
		restart = NULL;
	}
	hwt_file_ahead_later(b, left);
}

/*
 * The bases' hrtimer callback. Their hrtimers are neither soft nor hard
 * ones, as timerfd's: they expire in hard interrupt context, but on
 * PREEMPT_RT, where hrtimer moves them to the softirq (the ktimers
 * thread). In a hard interrupt, one small pass, and if it left work due,
 * the run goes on in softirq context (hwt_file_more()); on PREEMPT_RT a
 * soft base's run.
 */
static enum hrtimer_restart hwt_file_tick(struct hrtimer *hrt)
{
	struct hwt_base *b = container_of(hrt, struct hwt_base, hrt);
	bool restart = false;
	enum hwt_end left;

	if (IS_ENABLED(CONFIG_PREEMPT_RT)) {
		hwt_file_run_soft(b, HWT_PASS_WAKEUP, &restart);
	} else {
		left = hwt_file_pass(b, HWT_PASS_WAKEUP, true, &restart);
		if (left == HWT_END_DUE)
			hrtimer_start(&hwt_run_of(b)->more, 0,
				      HRTIMER_MODE_REL_SOFT);
		hwt_file_ahead_later(b, left);
	}
	/* armed by the pass: enqueued again as it returns */
	return restart ? HRTIMER_RESTART : HRTIMER_NORESTART;
}

/* A hard pass left work due: go on in softirq context. */
static enum hrtimer_restart hwt_file_more(struct hrtimer *hrt)
{
	hwt_file_run_soft(container_of(hrt, struct hwt_file_run, more)->base,
			  HWT_PASS_CONTINUED, NULL);
	return HRTIMER_NORESTART;
}

/* A base's worker: passes until the wheel has caught up. */
static void hwt_file_drain(struct work_struct *work)
{
	struct hwt_base *b = container_of(work, struct hwt_file_run,
					  drain)->base;
	enum hwt_end left;

	while ((left = hwt_file_pass(b, HWT_PASS_HANDED_OFF, false, NULL)) ==
	       HWT_END_DUE)
		cond_resched();
	hwt_file_ahead_later(b, left);
}

/*
 * Cascading ahead, apart from expiry: passes of it in softirq context, with
 * the hrtimer armed for what is due meanwhile, while hwt_run_more() says
 * so; then again in a later softirq run, so that other work gets the CPU in
 * between. A pass holds the file's lock as an expiry's does, no longer.
 */
static enum hrtimer_restart hwt_file_ahead(struct hrtimer *hrt)
{
	struct hwt_file_run *run = container_of(hrt, struct hwt_file_run,
						ahead);
	struct hwt_base *b = run->base;
	struct hwt_file *hf = b->owner;
	u64 start = hwt_cpu_clock();
	bool more;

	do {
		hwt_lock(hf);
		more = !hf->dead && hwt_base_ahead_pass(b);
		hwt_unlock(hf);
	} while (more && hwt_run_more(start));
	if (more)
		hrtimer_start(&run->ahead, 0, HRTIMER_MODE_REL_SOFT);
	return HRTIMER_NORESTART;
}
