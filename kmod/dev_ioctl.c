// SPDX-License-Identifier: GPL-2.0
/*
 * /dev/hwtimer: the ioctls. Struct sizes come from the ioctl number (or
 * a batch's op_size), so that structs can grow; the single-op ioctls,
 * BATCH, GET, DRAIN, SET_EVENTFD, SLACK and INFO. See dev.h and the uapi header.
 */
#include <linux/pagemap.h>
#include <linux/sched/signal.h>
#include <linux/slab.h>
#include <linux/uaccess.h>

#include "dev.h"

#define HWT_MAX_BATCH	65536
#define HWT_CHUNK	64	/* batch entries handled per lock hold */
#define HWT_DRAIN_CHUNK	256

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
			    HWTIMER_FEAT_AUTOREMOVE |
			    HWTIMER_FEAT_SLACK_DEFAULT |
			    HWTIMER_FEAT_CLOCK_POSIX |
			    HWTIMER_FEAT_CANCEL_ON_SET,
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
		/*
		 * A signal ends it: @done tells the caller where to go on.
		 * Not signal_pending(): task_work (io_uring's, say) sets
		 * TIF_NOTIFY_SIGNAL, which a short count cannot restart.
		 */
		if (done < hb.count && task_sigpending(current))
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
	now = hwt_base_now(&hf->base[hwt_base_idx(t->clk)]);
	period = hwt_period(t);
	g.state = t->state == HWT_U_PENDING ? HWTIMER_STATE_PENDING :
		  t->state == HWT_U_FIRED ? HWTIMER_STATE_FIRED :
		  t->state == HWT_U_CANCELED ? HWTIMER_STATE_CANCELED :
		  HWTIMER_STATE_IDLE;
	g.timer_flags = hwt_uapi_flags(t->flags) |
			(hwt_efd(t) ? HWTIMER_F_EVENTFD : 0);
	g.clockid = hwt_uclockid(t->clk);
	g.gen = t->gen;
	g.expires = t->node.expires + hwt_view_offset(t->clk);
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
		    task_sigpending(current))
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

static long hwt_ioc_slack(struct hwt_file *hf, void __user *uarg,
			  size_t usize)
{
	struct hwtimer_slack sl;
	u64 old;
	int ret;

	ret = hwt_copy_in(&sl, sizeof(sl), HWTIMER_SLACK_SIZE_VER0, uarg,
			  usize);
	if (ret)
		return ret;
	if ((sl.flags & ~HWTIMER_SLACK_SET) || sl.padding ||
	    (!(sl.flags & HWTIMER_SLACK_SET) && sl.slack))
		return -EINVAL;
	if (sl.slack > hwt_geo.max_delay)
		return -ERANGE;
	hwt_lock(hf);
	old = hf->slack;
	if (sl.flags & HWTIMER_SLACK_SET)
		WRITE_ONCE(hf->slack, sl.slack);
	hwt_unlock(hf);
	sl.slack = old;
	return copy_to_user(uarg, &sl, min(usize, sizeof(sl))) ? -EFAULT : 0;
}

long hwt_ioctl(struct file *file, unsigned int cmd, unsigned long arg)
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
	case HWT_IOC_NOSIZE(HWTIMER_IOC_SLACK):
		return hwt_ioc_slack(hf, uarg, usize);
	default:
		return -ENOTTY;
	}
}
