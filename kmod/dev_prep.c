// SPDX-License-Identifier: GPL-2.0
/*
 * /dev/hwtimer: what an ADD, MOD or CANCEL asks for, checked, and what it
 * needs allocated, with no lock held, before dev_ops.c runs a chunk of
 * them under the file's lock. See dev.h.
 */
#include <linux/eventfd.h>
#include <linux/slab.h>

#include "dev.h"
#include "dev_account.h"
#include "dev_clockset.h"
#include "dev_expiry.h"
#include "dev_prep.h"
#include "dev_signal.h"

/*
 * A periodic re-arm lies up to period + slack ahead: both within range. A
 * NO_RECORD timer's period is also at least HWTIMER_NO_RECORD_MIN_PERIOD_NS,
 * since the kernel re-arms it on its own (see hwt_max_rearms_per_user).
 */
bool hwt_period_in_range(const struct hwt_prepped_op *s, bool no_record)
{
	u64 period = s->op.period;

	if (no_record && period && period < HWTIMER_NO_RECORD_MIN_PERIOD_NS)
		return false;
	return period <= hwt_geo.max_delay && s->slack <= hwt_geo.max_delay &&
	       period + s->slack <= hwt_geo.max_delay;
}

/*
 * Each operation's prep validates it and allocates what it needs, with no
 * lock held (hwt_prep() checks what they share first). A plain timer (no
 * period, slack or eventfd) needs nothing but its entry, which hwt_do_add()
 * takes. Fields an operation writes back (an ADD's @id, @gen without
 * HWTIMER_F_GEN, @result, a CANCEL's @expires) are not read. With
 * @nowait, -EAGAIN for an operation that would wait on a mutex another
 * thread holds (a base's set-up, the clock sets' list) or for a clock
 * set's walk (CANCEL_ON_SET).
 */
int hwt_prep_add(struct hwt_file *hf, struct hwt_prepped_op *s, bool nowait)
{
	struct hwtimer_op *op = &s->op;
	u32 f = op->flags;
	bool realtime;
	int clk, ret;

	if ((f & HWTIMER_F_FIXED_DELAY) && !op->period)
		return -EINVAL;
	if ((f & HWTIMER_F_AUTOREMOVE) && op->period)
		return -EINVAL;
	if ((f & HWTIMER_F_NO_RECORD) && !(f & HWTIMER_F_EVENTFD))
		return -EINVAL;
	if (!(f & HWTIMER_F_EVENTFD) && op->eventfd)
		return -EINVAL;
	/* no one gets the clock that can be set by leaving it 0 */
	realtime = op->clockid == CLOCK_REALTIME;
	if (!!(f & HWTIMER_F_REALTIME) != realtime)
		return -EINVAL;
	if ((f & HWTIMER_F_CANCEL_ON_SET) &&
	    (!(f & HWTIMER_F_ABS) || op->clockid != CLOCK_REALTIME))
		return -EINVAL;
	/* a withdrawal is a record, which a NO_RECORD timer never queues */
	if ((f & HWTIMER_F_CANCEL_ON_SET) && (f & HWTIMER_F_NO_RECORD))
		return -EINVAL;
	if (!hwt_period_in_range(s, f & HWTIMER_F_NO_RECORD))
		return -ERANGE;
	clk = hwt_clock_index(op->clockid);
	if (clk < 0)
		return clk;
	/* a relative CLOCK_REALTIME deadline is elapsed time */
	s->clk = clk == HWT_CLK_REAL && !(f & HWTIMER_F_ABS) ?
		 HWT_CLK_ELAPSED : clk;
	/* the bases count against the user's timers from their set-up */
	ret = hwt_file_base(hf, clk, nowait);
	if (!ret && (f & HWTIMER_F_CANCEL_ON_SET))
		ret = hwt_cos_join(hf, nowait);
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
	if (!op->period && !s->slack && !s->ctx)
		return 0;
	s->ext = hwt_uext_alloc();
	return s->ext ? 0 : -ENOMEM;
}

int hwt_prep_mod(struct hwt_file *hf, struct hwt_prepped_op *s, bool nowait)
{
	struct hwtimer_op *op = &s->op;
	u32 f = op->flags;
	int ret;

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
	if (!hwt_period_in_range(s, false))
		return -ERANGE;
	/*
	 * so does the clock, which must be CLOCK_REALTIME, and the timer,
	 * which must queue records: hwt_do_mod()
	 */
	if (f & HWTIMER_F_CANCEL_ON_SET) {
		ret = hwt_cos_join(hf, nowait);
		if (ret)
			return ret;
	}
	if (op->period || s->slack) {
		/* in case the timer has none yet */
		s->ext = hwt_uext_alloc();
		if (!s->ext)
			return -ENOMEM;
	}
	return 0;
}

int hwt_prep_cancel(struct hwt_file *hf, struct hwt_prepped_op *s,
		    bool nowait)
{
	const struct hwtimer_op *op = &s->op;

	if (op->clockid || op->eventfd || op->period || op->slack || op->cookie)
		return -EINVAL;
	return 0;
}

/* Free what hwt_prep() allocated and hwt_run_ops() did not use. */
void hwt_prepped_free(struct hwt_prepped_op *preps, unsigned int n)
{
	unsigned int i;

	for (i = 0; i < n; i++) {
		struct hwt_prepped_op *s = &preps[i];

		/* a plain timer's prep allocated nothing */
		if (likely(!s->ext && !s->ctx && !s->efd))
			continue;
		hwt_uext_free(s->ext);
		if (s->ctx)
			eventfd_ctx_put(s->ctx);
		kfree(s->efd);
	}
}
