// SPDX-License-Identifier: GPL-2.0
/*
 * /dev/hwtimer: the ioctls. Struct sizes come from the ioctl number, so
 * that structs can grow; the single-op ioctls, GET, SET_EVENTFD, SLACK,
 * RECORD_SIZE and INFO here, BATCH and DRAIN in dev_batch.c. See dev.h and
 * the contract, Documentation/userspace-api/hwtimer.rst. RING_SETUP and
 * RING_FLUSH are in dev_ring.c.
 */
#include <linux/eventfd.h>
#include <linux/fs.h>
#include <linux/uaccess.h>

#include "dev.h"
#include "dev_account.h"
#include "dev_batch.h"
#include "dev_clockset.h"
#include "dev_copy.h"
#include "dev_ids.h"
#include "dev_ioctl.h"
#include "dev_ops.h"
#include "dev_ring.h"
#include "dev_signal.h"
#include "dev_timens.h"

/*
 * The uapi's layout, which programs were built against: a struct only grows
 * at its end, with a new HWTIMER_*_SIZE_VER<n>, and the ioctl numbers carry
 * its size. Its first version's fields stay where they are.
 */
static_assert(offsetof(struct hwtimer_info, api_version) == 0);
static_assert(offsetof(struct hwtimer_info, levels) == 4);
static_assert(offsetof(struct hwtimer_info, features) == 8);
static_assert(offsetof(struct hwtimer_info, tick_ns) == 16);
static_assert(offsetof(struct hwtimer_info, max_delay_ns) == 24);
static_assert(offsetof(struct hwtimer_info, slots_per_level) == 32);
static_assert(offsetof(struct hwtimer_info, record_size) == 36);
static_assert(offsetof(struct hwtimer_info, max_timers_per_fd) == 40);
static_assert(offsetof(struct hwtimer_info, max_timers_per_user) == 44);
static_assert(offsetof(struct hwtimer_info, max_batch) == 48);
static_assert(offsetof(struct hwtimer_info, max_files_per_user) == 52);
static_assert(offsetof(struct hwtimer_info, level_shift) == 56);
static_assert(offsetof(struct hwtimer_info, cascade_early) == 60);
static_assert(sizeof(struct hwtimer_info) == HWTIMER_INFO_SIZE_VER1);

static_assert(offsetof(struct hwtimer_op, op) == 0);
static_assert(offsetof(struct hwtimer_op, flags) == 4);
static_assert(offsetof(struct hwtimer_op, id) == 8);
static_assert(offsetof(struct hwtimer_op, gen) == 12);
static_assert(offsetof(struct hwtimer_op, clockid) == 16);
static_assert(offsetof(struct hwtimer_op, eventfd) == 20);
static_assert(offsetof(struct hwtimer_op, expires) == 24);
static_assert(offsetof(struct hwtimer_op, period) == 32);
static_assert(offsetof(struct hwtimer_op, slack) == 40);
static_assert(offsetof(struct hwtimer_op, cookie) == 48);
static_assert(offsetof(struct hwtimer_op, result) == 56);
static_assert(offsetof(struct hwtimer_op, padding) == 60);
static_assert(sizeof(struct hwtimer_op) == HWTIMER_OP_SIZE_VER0);

static_assert(offsetof(struct hwtimer_get, id) == 0);
static_assert(offsetof(struct hwtimer_get, flags) == 4);
static_assert(offsetof(struct hwtimer_get, state) == 8);
static_assert(offsetof(struct hwtimer_get, timer_flags) == 12);
static_assert(offsetof(struct hwtimer_get, clockid) == 16);
static_assert(offsetof(struct hwtimer_get, gen) == 20);
static_assert(offsetof(struct hwtimer_get, expires) == 24);
static_assert(offsetof(struct hwtimer_get, remaining) == 32);
static_assert(offsetof(struct hwtimer_get, period) == 40);
static_assert(offsetof(struct hwtimer_get, cookie) == 48);
static_assert(offsetof(struct hwtimer_get, overruns) == 56);
static_assert(sizeof(struct hwtimer_get) == HWTIMER_GET_SIZE_VER0);

static_assert(offsetof(struct hwtimer_batch, ops) == 0);
static_assert(offsetof(struct hwtimer_batch, count) == 8);
static_assert(offsetof(struct hwtimer_batch, op_size) == 12);
static_assert(offsetof(struct hwtimer_batch, flags) == 16);
static_assert(offsetof(struct hwtimer_batch, done) == 20);
static_assert(sizeof(struct hwtimer_batch) == HWTIMER_BATCH_SIZE_VER0);

static_assert(offsetof(struct hwtimer_drain, ids) == 0);
static_assert(offsetof(struct hwtimer_drain, max) == 8);
static_assert(offsetof(struct hwtimer_drain, count) == 12);
static_assert(offsetof(struct hwtimer_drain, flags) == 16);
static_assert(offsetof(struct hwtimer_drain, remaining) == 20);
static_assert(sizeof(struct hwtimer_drain) == HWTIMER_DRAIN_SIZE_VER0);

static_assert(offsetof(struct hwtimer_eventfd, fd) == 0);
static_assert(offsetof(struct hwtimer_eventfd, flags) == 4);
static_assert(sizeof(struct hwtimer_eventfd) == HWTIMER_EVENTFD_SIZE_VER0);

static_assert(offsetof(struct hwtimer_slack, slack) == 0);
static_assert(offsetof(struct hwtimer_slack, flags) == 8);
static_assert(offsetof(struct hwtimer_slack, padding) == 12);
static_assert(sizeof(struct hwtimer_slack) == HWTIMER_SLACK_SIZE_VER0);

static_assert(offsetof(struct hwtimer_record, id) == 0);
static_assert(offsetof(struct hwtimer_record, gen) == 4);
static_assert(offsetof(struct hwtimer_record, cookie) == 8);
static_assert(offsetof(struct hwtimer_record, deadline) == 16);
static_assert(offsetof(struct hwtimer_record, fired) == 24);
static_assert(offsetof(struct hwtimer_record, overruns) == 32);
static_assert(offsetof(struct hwtimer_record, flags) == 40);
static_assert(offsetof(struct hwtimer_record, clockid) == 44);
static_assert(sizeof(struct hwtimer_record) == HWTIMER_RECORD_SIZE_VER0);

static_assert(offsetof(struct hwtimer_record_size, size) == 0);
static_assert(offsetof(struct hwtimer_record_size, known) == 4);
static_assert(sizeof(struct hwtimer_record_size) ==
	      HWTIMER_RECORD_SIZE_SIZE_VER0);

/* The HWTIMER_F_* flags of a timer's HWT_U_* flags, for GET */
static inline u32 hwt_uapi_flags(u32 f)
{
	return (f & HWT_U_FIXED_DELAY ? HWTIMER_F_FIXED_DELAY : 0) |
	       (f & HWT_U_NO_RECORD ? HWTIMER_F_NO_RECORD : 0) |
	       (f & HWT_U_AUTOREMOVE ? HWTIMER_F_AUTOREMOVE : 0) |
	       (f & HWT_U_CANCEL_ON_SET ? HWTIMER_F_CANCEL_ON_SET : 0);
}

/* ioctl plumbing: struct sizes come from the ioctl number */

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
			    HWTIMER_FEAT_CANCEL_ON_SET |
			    HWTIMER_FEAT_GEN | HWTIMER_FEAT_RECORD_SIZE |
			    HWTIMER_FEAT_RING |
			    (IS_ENABLED(CONFIG_IO_URING) ?
			     HWTIMER_FEAT_URING_CMD |
			     HWTIMER_FEAT_URING_BATCH : 0),
		.tick_ns = hwt_geo.tick_ns,
		.max_delay_ns = hwt_geo.max_delay,
		.slots_per_level = HWT_LVL_SIZE,
		.record_size = sizeof(struct hwtimer_record),
		.max_timers_per_fd = min(READ_ONCE(hwt_max_timers_per_fd),
					 HWT_ID_MAX),
		.max_timers_per_user = hwt_user_max_timers(),
		.max_files_per_user = hwt_user_max_files(),
		.max_batch = HWT_MAX_BATCH,
		.level_shift = HWT_LVL_BITS,
		.cascade_early = HWT_CASCADE_EARLY,
	};

	if (usize < HWTIMER_INFO_SIZE_VER0)
		return -EINVAL;
	return hwt_copy_out(uarg, usize, &info, sizeof(info));
}

/*
 * The out fields of a single op, which is all it writes back: its result,
 * an ADD's id and generation, a MOD's generation, a CANCEL's generation
 * and time left.
 */
static int hwt_op_out(struct hwtimer_op __user *u, const struct hwtimer_op *op)
{
	if (put_user(op->result, &u->result))
		return -EFAULT;
	switch (op->op) {
	case HWTIMER_OP_ADD:
		if (put_user(op->id, &u->id))
			return -EFAULT;
		fallthrough;
	case HWTIMER_OP_MOD:
		return put_user(op->gen, &u->gen);
	default:
		if (put_user(op->expires, &u->expires))
			return -EFAULT;
		return put_user(op->gen, &u->gen);
	}
}

/*
 * ADD, MOD or CANCEL on its own. Results go back into the caller's struct,
 * its out fields only. An ADD whose result cannot be written back is
 * undone (hwt_undo_adds()), but MOD and CANCEL cannot be, so for them the
 * out fields must be writable before they run: they are written first
 * with what was read.
 */
static long hwt_ioc_op(struct hwt_file *hf, void __user *uarg, size_t usize,
		       u32 opcode)
{
	struct hwtimer_op __user *u = uarg;
	struct hwt_prepped_op s;
	u32 given;
	int ret;

	ret = hwt_copy_in(&s.op, sizeof(s.op), HWTIMER_OP_SIZE_VER0, uarg,
			  usize);
	if (ret)
		return ret;
	given = s.op.op;
	if (given && given != opcode)
		return -EINVAL;
	s.op.op = opcode;
	if (opcode != HWTIMER_OP_ADD && hwt_op_out(u, &s.op))
		return -EFAULT;
	s.op.result = 0;
	hwt_run_ops(hf, &s, 1, 0);
	ret = s.op.result;
	if (ret < 0)
		return ret;
	if (hwt_op_out(u, &s.op)) {
		hwt_undo_adds(hf, &s, 1);
		return -EFAULT;
	}
	return ret;
}

static long hwt_ioc_get(struct hwt_file *hf, void __user *uarg, size_t usize)
{
	struct hwtimer_get g;
	struct hwt_utimer *t;
	u64 now, period;
	int ret;
	u32 id;

	ret = hwt_copy_in(&g, sizeof(g), HWTIMER_GET_SIZE_VER0, uarg, usize);
	if (ret)
		return ret;
	id = g.id;
	/* the rest are out fields, not read */
	if (g.flags)
		return -EINVAL;
	memset(&g, 0, sizeof(g));
	g.id = id;

	hwt_lock(hf);
	t = hwt_lookup(hf, id);
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
	g.expires = hwt_reported_deadline(t) + hwt_view_offset(t->clk);
	if (t->state == HWT_U_PENDING && (s64)(t->node.expires - now) > 0)
		g.remaining = t->node.expires - now;
	g.period = period;
	g.cookie = hwt_cookie(t);
	if (t->state == HWT_U_FIRED && period)
		hwt_period_next(hwt_ext(t)->due, t->fired, now, period,
				t->flags & HWT_U_FIXED_DELAY, &g.overruns);
	hwt_unlock(hf);
	return copy_to_user(uarg, &g, min(usize, sizeof(g))) ? -EFAULT : 0;
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
	if ((sl.flags & ~HWTIMER_SLACK_SET) || sl.padding)
		return -EINVAL;
	/* without HWTIMER_SLACK_SET, @slack is an out field, not read */
	if (!(sl.flags & HWTIMER_SLACK_SET))
		sl.slack = 0;
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

static long hwt_ioc_record_size(struct hwt_file *hf, void __user *uarg,
				size_t usize)
{
	struct hwtimer_record_size rs;
	int ret;

	ret = hwt_copy_in(&rs, sizeof(rs), HWTIMER_RECORD_SIZE_SIZE_VER0, uarg,
			  usize);
	if (ret)
		return ret;
	if (rs.size && (rs.size < HWTIMER_RECORD_SIZE_VER0 ||
			rs.size > HWTIMER_RECORD_SIZE_MAX || rs.size % 8))
		return -EINVAL;
	/* the reader lock: no read() is halfway through its records */
	if (mutex_lock_interruptible(&hf->read_lock))
		return -ERESTARTSYS;
	if (rs.size)
		hf->rec_size = rs.size;
	rs.size = hf->rec_size;
	mutex_unlock(&hf->read_lock);
	rs.known = min_t(u32, rs.size, sizeof(struct hwtimer_record));
	return copy_to_user(uarg, &rs, min(usize, sizeof(rs))) ? -EFAULT : 0;
}

long hwt_ioctl(struct file *file, unsigned int cmd, unsigned long arg)
{
	struct hwt_file *hf = file->private_data;
	void __user *uarg = (void __user *)arg;
	size_t usize = _IOC_SIZE(cmd);

	switch (HWTIMER_IOC_BASE(cmd)) {
	case HWTIMER_IOC_BASE(HWTIMER_IOC_INFO):
		return hwt_ioc_info(uarg, usize);
	case HWTIMER_IOC_BASE(HWTIMER_IOC_ADD):
		return hwt_ioc_op(hf, uarg, usize, HWTIMER_OP_ADD);
	case HWTIMER_IOC_BASE(HWTIMER_IOC_MOD):
		return hwt_ioc_op(hf, uarg, usize, HWTIMER_OP_MOD);
	case HWTIMER_IOC_BASE(HWTIMER_IOC_CANCEL):
		return hwt_ioc_op(hf, uarg, usize, HWTIMER_OP_CANCEL);
	case HWTIMER_IOC_BASE(HWTIMER_IOC_GET):
		return hwt_ioc_get(hf, uarg, usize);
	case HWTIMER_IOC_BASE(HWTIMER_IOC_BATCH):
		return hwt_ioc_batch(hf, uarg, usize);
	case HWTIMER_IOC_BASE(HWTIMER_IOC_DRAIN):
		return hwt_ioc_drain(hf, uarg, usize);
	case HWTIMER_IOC_BASE(HWTIMER_IOC_SET_EVENTFD):
		return hwt_ioc_set_eventfd(hf, uarg, usize);
	case HWTIMER_IOC_BASE(HWTIMER_IOC_SLACK):
		return hwt_ioc_slack(hf, uarg, usize);
	case HWTIMER_IOC_BASE(HWTIMER_IOC_RECORD_SIZE):
		return hwt_ioc_record_size(hf, uarg, usize);
	case HWTIMER_IOC_BASE(HWTIMER_IOC_RING_SETUP):
		return hwt_ioc_ring_setup(hf, uarg, usize);
	case HWTIMER_IOC_RING_FLUSH:
		/* a clock set's walk goes first, as for read() */
		hwt_cos_sync(hf);
		return hwt_ioc_ring_flush(hf);
	default:
		return -ENOTTY;
	}
}
