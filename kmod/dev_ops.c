// SPDX-License-Identifier: GPL-2.0
/*
 * /dev/hwtimer: ADD, MOD and CANCEL. Each operation is validated and gets
 * what it needs allocated with no lock held (hwt_prep(), with each op's
 * own prep in dev_prep.c), then a chunk of them runs under one hold of
 * the file's lock (hwt_run_ops()), each with a result of its own. See
 * dev.h.
 */
#include <linux/bitops.h>
#include <linux/eventfd.h>
#include <linux/indirect_call_wrapper.h>
#include <linux/nospec.h>
#include <linux/slab.h>

#include "dev.h"
#include "dev_account.h"
#include "dev_clockset.h"
#include "dev_expiry.h"
#include "dev_ids.h"
#include "dev_ops.h"
#include "dev_prep.h"
#include "dev_signal.h"
#include "dev_timens.h"
#include "dev_timer.h"

/* The HWT_U_* flags a timer keeps, from HWTIMER_F_* flags of an ADD */
static inline u32 hwt_uflags(u32 f)
{
	return (f & HWTIMER_F_FIXED_DELAY ? HWT_U_FIXED_DELAY : 0) |
	       (f & HWTIMER_F_NO_RECORD ? HWT_U_NO_RECORD : 0) |
	       (f & HWTIMER_F_AUTOREMOVE ? HWT_U_AUTOREMOVE : 0) |
	       (f & HWTIMER_F_CANCEL_ON_SET ? HWT_U_CANCEL_ON_SET : 0);
}

/* What the operations of a chunk share under one hold of the lock */
struct hwt_run_state {
	struct hwt_nows nows;
	unsigned int prepaid;	/* see hwt_do_add() */
};

/*
 * An entry for a new timer, whose id it is: the one freed last, so that ids
 * stay dense. A stale id may name a newer timer: HWTIMER_F_GEN guards
 * against that. If the table must grow, the lock is dropped for it, and
 * @nows forgotten; another thread may take the room made meanwhile, so
 * this tries again until the table can grow no more. ERR_PTR(-EDQUOT) if
 * the entry would take the user past its limit (hwt_ids_get()).
 */
static struct hwt_utimer *hwt_alloc_entry(struct hwt_file *hf,
					  struct hwt_run_state *rs)
{
	struct hwt_utimer *t;
	int err;

	for (;;) {
		t = hwt_ids_get(hf, &rs->prepaid);
		if (t)
			return t;
		hwt_unlock(hf);
		hwt_nows_forget(&rs->nows);
		err = hwt_ids_reserve(hf, 1, false);
		hwt_lock(hf);
		if (err)
			return ERR_PTR(err);
	}
}

/* The file's entry for @s's eventfd: its last one, or @s's new entry. */
static struct hwt_efd *hwt_efd_of(struct hwt_file *hf, struct hwt_prepped_op *s)
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

/*
 * @rs->prepaid: units a chunk charged its user at once for its ADDs; each
 * whose entry needs one takes it, or charges its own once they are gone
 */
static int hwt_do_add(struct hwt_file *hf, struct hwt_prepped_op *s,
		      struct hwt_run_state *rs)
{
	struct hwt_nows *nows = &rs->nows;
	struct hwtimer_op *op = &s->op;
	unsigned int clk = s->clk;
	unsigned long rearms = hwt_rearms(hwt_uflags(op->flags), op->period);
	u64 now, deadline, asked;
	struct hwt_utimer *t;
	int ret;

	if (hf->ntimers >= READ_ONCE(hwt_max_timers_per_fd))
		return -ENOSPC;
	/*
	 * Take the entry first, with its charge: growing the table drops the
	 * lock, so that all the rest happens under one hold; nobody looks up
	 * @t before.
	 */
	t = hwt_alloc_entry(hf, rs);
	if (IS_ERR(t))
		return PTR_ERR(t);
	/* the lock may have been dropped: check the limit again */
	ret = hwt_deadline(hf, clk, op, nows, &now, &deadline, &asked);
	if (!ret && hf->ntimers >= READ_ONCE(hwt_max_timers_per_fd))
		ret = -ENOSPC;
	/* what it has besides its entry counts as much again */
	if (!ret && s->ext && !hwt_charge(hf, HWT_UEXT_UNITS))
		ret = -EDQUOT;
	if (!ret && !hwt_rearms_charge(hf, rearms)) {
		if (s->ext)
			hwt_uncharge(hf, HWT_UEXT_UNITS);
		ret = -EDQUOT;
	}
	if (ret) {
		hwt_ids_put(hf, t);
		return ret;
	}

	t->clk = clk;
	t->state = HWT_U_IDLE;
	t->flags = hwt_uflags(op->flags);
	if (s->ext) {
		struct hwt_uext *e = s->ext;

		e->period = op->period;
		e->due = asked;
		e->efd = s->ctx ? hwt_efd_of(hf, s) : NULL;
		e->cookie = op->cookie;
		t->ext = e;
		t->flags |= HWT_U_EXT;
		s->ext = NULL;
		hf->nexts++;
	} else {
		t->cookie = op->cookie;
	}
	hwt_utimer_set_slack(t, s->slack);
	s->added = t;
	hwt_utimer_arm(hf, t, deadline, now);
	hf->ntimers++;
	hwt_stat_add(&hf->stats, HWT_C_ADDED, 1);
	op->id = t->id;
	op->gen = t->gen;
	return 0;
}

/* Give a timer what timers with a period or slack have; its entry stays. */
static void hwt_upgrade(struct hwt_utimer *t, struct hwt_uext *e)
{
	e->cookie = t->cookie;
	t->ext = e;
	t->flags |= HWT_U_EXT;
}

/*
 * The clock index a MOD arms @t on: a CLOCK_REALTIME timer measures a
 * relative delay as elapsed time and follows the clock to an absolute
 * deadline (see HWT_CLK_ELAPSED).
 */
static unsigned int hwt_mod_clk(const struct hwt_utimer *t,
				const struct hwtimer_op *op)
{
	if (t->clk != HWT_CLK_REAL && t->clk != HWT_CLK_ELAPSED)
		return t->clk;
	return op->flags & HWTIMER_F_ABS ? HWT_CLK_REAL : HWT_CLK_ELAPSED;
}

/* @t's deadline on the base of clock index @clk, for comparisons. */
static u64 hwt_expires_on(const struct hwt_utimer *t, unsigned int clk)
{
	s64 mono_to_real;

	if (hwt_base_idx(clk) == hwt_base_idx(t->clk))
		return t->node.expires;
	mono_to_real = hwt_view_offset(HWT_CLK_ELAPSED);
	return clk == HWT_CLK_REAL ? t->node.expires + mono_to_real :
				     t->node.expires - mono_to_real;
}

/*
 * What MOD and CANCEL report of the arming they end: 1 if it was pending, 2
 * if it fired and its record, not read yet, goes with it, 0 if neither.
 */
static int hwt_arming_was(const struct hwt_utimer *t)
{
	switch (t->state) {
	case HWT_U_PENDING:
		return 1;
	case HWT_U_FIRED:
	case HWT_U_CANCELED:
		return 2;
	default:
		return 0;
	}
}

/*
 * The timer of a MOD or CANCEL, if its generation is the one asked for:
 * with HWTIMER_F_GEN, an arming that is over is stale (ESTALE), whether
 * its id names a newer timer, a free entry, or none the table still has;
 * an id the file never handed out names no timer (ENOENT), as without it.
 */
static struct hwt_utimer *hwt_op_timer(struct hwt_file *hf,
				       const struct hwtimer_op *op, int *err)
{
	struct hwt_utimer *t = hwt_lookup(hf, op->id);
	bool gen = op->flags & HWTIMER_F_GEN;

	*err = gen && op->id && op->id <= hf->ids.hwm ? -ESTALE : -ENOENT;
	if (t && gen && t->gen != op->gen)
		t = NULL;
	return t;
}

static int hwt_do_mod(struct hwt_file *hf, struct hwt_prepped_op *s,
		      struct hwt_run_state *rs)
{
	struct hwt_nows *nows = &rs->nows;
	struct hwtimer_op *op = &s->op;
	u64 now, deadline, asked;
	int pending, was, ret;
	struct hwt_utimer *t;
	unsigned int clk;
	bool upgrade;

	t = hwt_op_timer(hf, op, &ret);
	if (!t)
		return ret;
	pending = t->state == HWT_U_PENDING;
	was = hwt_arming_was(t);
	clk = hwt_mod_clk(t, op);
	if ((op->flags & HWTIMER_F_CANCEL_ON_SET) &&
	    (clk != HWT_CLK_REAL || (t->flags & HWT_U_NO_RECORD)))
		return -EINVAL;
	ret = hwt_deadline(hf, clk, op, nows, &now, &deadline, &asked);
	if (ret)
		return ret;
	if ((op->flags & HWTIMER_F_IF_IDLE) && pending)
		goto out;
	if ((op->flags & HWTIMER_F_IF_EARLIER) && pending &&
	    (s64)(deadline - hwt_expires_on(t, clk)) >= 0)
		goto out;
	if ((op->flags & HWTIMER_F_PERIOD) && op->period &&
	    (t->flags & HWT_U_AUTOREMOVE))
		return -EINVAL;
	if ((op->flags & HWTIMER_F_PERIOD) &&
	    !hwt_period_in_range(s, t->flags & HWT_U_NO_RECORD))
		return -ERANGE;
	/* a timer that gains what a plain one lacks counts as much again */
	upgrade = (op->period || s->slack) && !(t->flags & HWT_U_EXT);
	if (upgrade && !hwt_charge(hf, HWT_UEXT_UNITS))
		return -EDQUOT;
	if (op->flags & HWTIMER_F_PERIOD) {
		unsigned long had = hwt_rearms(t->flags, hwt_period(t));
		unsigned long will = hwt_rearms(t->flags, op->period);

		if (will > had && !hwt_rearms_charge(hf, will - had)) {
			if (upgrade)
				hwt_uncharge(hf, HWT_UEXT_UNITS);
			return -EDQUOT;
		}
		if (will < had)
			hwt_rearms_uncharge(hf, had - will);
		if (t->flags & HWT_U_EXT)
			hwt_ext(t)->period = op->period;
		t->flags &= ~HWT_U_FIXED_DELAY;
		if (op->flags & HWTIMER_F_FIXED_DELAY)
			t->flags |= HWT_U_FIXED_DELAY;
	}
	if (upgrade) {
		hwt_upgrade(t, s->ext);
		s->ext = NULL;
		hf->nexts++;
		if (op->flags & HWTIMER_F_PERIOD)
			hwt_ext(t)->period = op->period;
	}
	if (t->flags & HWT_U_EXT)
		hwt_ext(t)->due = asked;
	hwt_utimer_set_slack(t, s->slack);
	if (clk != t->clk) {
		/* relative <-> absolute CLOCK_REALTIME: another base */
		hwt_utimer_disarm(hf, t);
		t->clk = clk;
	}
	t->flags &= ~HWT_U_CANCEL_ON_SET;
	if (op->flags & HWTIMER_F_CANCEL_ON_SET)
		t->flags |= HWT_U_CANCEL_ON_SET;
	pending = was;
	s->ended = hwt_signalling(t);
	hwt_utimer_arm(hf, t, deadline, now);
	hwt_stat_add(&hf->stats, HWT_C_MODIFIED, 1);
out:
	op->gen = t->gen;
	return pending;
}

static int hwt_do_cancel(struct hwt_file *hf, struct hwt_prepped_op *s,
			 struct hwt_run_state *rs)
{
	struct hwt_nows *nows = &rs->nows;
	struct hwtimer_op *op = &s->op;
	struct hwt_utimer *t;
	int was, ret;

	t = hwt_op_timer(hf, op, &ret);
	if (!t)
		return ret;
	was = hwt_arming_was(t);
	op->gen = t->gen;
	op->expires = 0;
	if (was == 1) {
		u64 now = hwt_now_once(hf, nows, t->clk);

		if ((s64)(t->node.expires - now) > 0)
			op->expires = t->node.expires - now;
		hwt_stat_add(&hf->stats, HWT_C_CANCELLED, 1);
	}
	s->ended = hwt_signalling(t);
	hwt_utimer_remove(hf, t);
	return was;
}

/**
 * struct hwt_opdef - what an operation is (io_uring's opdef.c has one the
 * same way): adding an op is a row
 * @flags: the HWTIMER_F_* flags it takes (EINVAL for others)
 * @prep: validates it and allocates what it needs, no lock held
 * @run: runs it under the file's lock; its @result
 */
struct hwt_opdef {
	u32 flags;
	int (*prep)(struct hwt_file *hf, struct hwt_prepped_op *s, bool nowait);
	int (*run)(struct hwt_file *hf, struct hwt_prepped_op *s,
		   struct hwt_run_state *rs);
};

static const struct hwt_opdef hwt_opdefs[] = {
	[HWTIMER_OP_ADD] = { HWT_ADD_FLAGS, hwt_prep_add, hwt_do_add },
	[HWTIMER_OP_MOD] = { HWT_MOD_FLAGS, hwt_prep_mod, hwt_do_mod },
	[HWTIMER_OP_CANCEL] = { HWT_CANCEL_FLAGS, hwt_prep_cancel, hwt_do_cancel },
};

/* The row of @op, or NULL for an unknown one. */
static const struct hwt_opdef *hwt_opdef(u32 op)
{
	if (op >= ARRAY_SIZE(hwt_opdefs) || !hwt_opdefs[op].prep)
		return NULL;
	return &hwt_opdefs[array_index_nospec(op, ARRAY_SIZE(hwt_opdefs))];
}

/* What every operation checks, then its own prep. */
static int hwt_prep(struct hwt_file *hf, struct hwt_prepped_op *s,
		    bool nowait)
{
	const struct hwt_opdef *def;

	if (s->op.padding)
		return -EINVAL;
	/* ADD and MOD that give no slack take the file's */
	s->slack = s->op.slack ?: READ_ONCE(hf->slack);
	def = hwt_opdef(s->op.op);
	if (!def || (s->op.flags & ~def->flags))
		return -EINVAL;
	s->def = def;
	/* direct calls on the hot path, as the network stack makes them */
	return INDIRECT_CALL_3(def->prep, hwt_prep_add, hwt_prep_cancel,
			       hwt_prep_mod, hf, s, nowait);
}

/**
 * hwt_run_ops() - run a chunk of operations
 * @hf: the file
 * @preps: at most HWT_CHUNK operations; a @result already set (negative)
 *	   fails its operation without running it
 * @n: entries of @preps
 * @flags: HWT_RUN_STOP: stop at the first failure
 *	   (HWTIMER_BATCH_STOP_ON_ERROR); HWT_RUN_NOWAIT: io_uring's inline
 *	   issue, which must not sleep
 *
 * Each is validated and gets what it needs allocated, then they run under
 * one hold of the lock, each with its own result.
 *
 * With HWT_RUN_NOWAIT, what would wait on a mutex before the first
 * operation runs (a base's set-up, the clock sets' walk, the table's
 * growth) makes the whole chunk fail with -EAGAIN instead, having changed
 * nothing, and io_uring runs it again from io-wq. Once operations ran, the
 * chunk finishes, as it would without the flag: an ADD whose entry another
 * thread took meanwhile grows the table, and an operation that ended an
 * arming whose eventfd a run is signalling waits for that run, as
 * hrtimer_cancel() does (dev_signal.c bounds that wait).
 *
 * Return: how many ran: all, or up to the first failure with
 * HWT_RUN_STOP; -EAGAIN, with HWT_RUN_NOWAIT only, if none did.
 */
int hwt_run_ops(struct hwt_file *hf, struct hwt_prepped_op *preps,
		unsigned int n, unsigned int flags)
{
	bool stop = flags & HWT_RUN_STOP, nowait = flags & HWT_RUN_NOWAIT;
	struct hwt_run_state rs = {};
	unsigned int i, adds, ran = n;
	bool ended = false, cancelled = false, again = false;

	for (i = 0; i < n; i++) {
		struct hwt_prepped_op *s = &preps[i];

		s->ext = NULL;
		s->added = NULL;
		s->ctx = NULL;
		s->efd = NULL;
		s->ended = false;
		if (!s->op.result && !again)
			s->op.result = hwt_prep(hf, s, nowait);
		again |= nowait && s->op.result == -EAGAIN;
	}
	/*
	 * Entries for the ADDs, grown without the lock (hwt_alloc_entry() grows
	 * again if others took them), then, under the lock, what of their
	 * charge to the user the table's room leaves them, in one go
	 * (hwt_ids_prepay()). The growth comes first, so that what it charges
	 * is never refused for units that a prepayment holds; what is left
	 * of it goes back as soon as the lock is dropped.
	 */
	for (i = 0, adds = 0; i < n && !again; i++)
		adds += preps[i].op.op == HWTIMER_OP_ADD && !preps[i].op.result;
	if (adds)
		again = hwt_ids_reserve(hf, adds, nowait) == -EAGAIN;
	if (again) {
		hwt_prepped_free(preps, n);
		return -EAGAIN;
	}

	hwt_lock(hf);
	if (adds > 1)
		rs.prepaid = hwt_ids_prepay(hf, adds);
	for (i = 0; i < n; i++) {
		struct hwt_prepped_op *s = &preps[i];

		if (stop && i && preps[i - 1].op.result < 0) {
			ran = i;
			break;
		}
		if (s->op.result)
			continue;
		/* its prep succeeded: @def is known */
		s->op.result = INDIRECT_CALL_3(s->def->run,
					       hwt_do_add, hwt_do_cancel,
					       hwt_do_mod, hf, s, &rs);
		ended |= s->ended;
		cancelled |= s->op.result >= 0 && s->op.op == HWTIMER_OP_CANCEL;
	}
	hwt_unlock(hf);
	if (rs.prepaid)
		hwt_uncharge(hf, rs.prepaid);
	/* no eventfd of an arming a MOD or CANCEL ended is signalled after */
	if (ended)
		hwt_signals_wait(hf);

	if (cancelled)
		hwt_ids_shrink(hf);
	hwt_prepped_free(preps, n);
	return ran;
}

/**
 * hwt_undo_adds() - delete the timers ADDs of a chunk created
 * @hf: the file
 * @preps: operations hwt_run_ops() ran
 * @n: entries of @preps
 *
 * For results that could not reach the caller: a timer whose id the caller
 * never learnt is gone again, unless someone has re-armed it since.
 */
void hwt_undo_adds(struct hwt_file *hf, struct hwt_prepped_op *preps,
		   unsigned int n)
{
	unsigned int i;

	hwt_lock(hf);
	for (i = 0; i < n; i++) {
		struct hwt_prepped_op *s = &preps[i];
		struct hwt_utimer *t;

		if (!s->added)
			continue;
		t = hwt_lookup(hf, s->op.id);
		if (t == s->added && t->gen == s->op.gen)
			hwt_utimer_remove(hf, t);
	}
	hwt_unlock(hf);
}
