// SPDX-License-Identifier: GPL-2.0
/*
 * /dev/hwtimer: the bulk ioctls, BATCH and DRAIN. Each works in chunks, and
 * pins the user memory a chunk reads and writes before the chunk takes
 * effect: entries are read and results written through the pins, so a
 * result can never fail to reach the caller once its operation ran, even
 * if another thread unmaps the array meanwhile. A chunk that cannot be
 * pinned (the memory is not there, or not writable) does not run. Pinning
 * a page or two per chunk also costs less than the five user accesses per
 * entry that copy_struct_from_user() and friends would make. See dev.h.
 */
#include <linux/highmem.h>
#include <linux/mm.h>
#include <linux/sched/signal.h>
#include <linux/slab.h>
#include <linux/uaccess.h>

#include "dev.h"
#include "dev_account.h"
#include "dev_batch.h"
#include "dev_copy.h"
#include "dev_ids.h"
#include "dev_ops.h"
#include "dev_signal.h"
#include "dev_timer.h"

#define HWT_DRAIN_CHUNK	256

/**
 * struct hwt_upin - user memory of at most a page, pinned for writing
 * @pages: the one or two pages it spans
 * @nr: entries of @pages
 * @off: where it starts in @pages[0]
 */
struct hwt_upin {
	struct page *pages[2];
	unsigned int nr;
	unsigned int off;
};

/* Pin @len bytes (1..PAGE_SIZE) at @u; -EFAULT unless all are writable. */
static int hwt_upin(struct hwt_upin *p, const void __user *u, size_t len)
{
	unsigned long addr = (unsigned long)u;
	int ret;

	p->off = offset_in_page(addr);
	p->nr = DIV_ROUND_UP(p->off + len, PAGE_SIZE);
	ret = pin_user_pages_fast(addr & PAGE_MASK, p->nr, FOLL_WRITE,
				  p->pages);
	if (ret == p->nr)
		return 0;
	if (ret > 0)
		unpin_user_pages(p->pages, ret);
	return -EFAULT;
}

static void hwt_unpin(struct hwt_upin *p)
{
	unpin_user_pages_dirty_lock(p->pages, p->nr, true);
}

/* Copy @len bytes from (@out false) or to (@out true) offset @at of @p. */
static void hwt_upin_copy(struct hwt_upin *p, size_t at, void *buf,
			  size_t len, bool out)
{
	at += p->off;
	while (len) {
		struct page *page = p->pages[at >> PAGE_SHIFT];
		size_t o = offset_in_page(at), n = min(len, PAGE_SIZE - o);

		if (out)
			memcpy_to_page(page, o, buf, n);
		else
			memcpy_from_page(buf, page, o, n);
		at += n;
		buf += n;
		len -= n;
	}
}

/* Whether @len bytes at offset @at of @p are all zero. */
static bool hwt_upin_zero(struct hwt_upin *p, size_t at, size_t len)
{
	u8 buf[64];

	while (len) {
		size_t n = min(len, sizeof(buf));

		hwt_upin_copy(p, at, buf, n, false);
		if (memchr_inv(buf, 0, n))
			return false;
		at += n;
		len -= n;
	}
	return true;
}

/*
 * Read entry @i of a chunk of @osize-byte entries into @op, as
 * copy_struct_from_user() would: a shorter entry is zero-extended, and a
 * longer one whose tail is not zero (a newer op than this kernel knows)
 * fails alone, with E2BIG. Its @result is an output, not read.
 */
static void hwt_read_op(struct hwt_upin *p, unsigned int i, size_t osize,
			struct hwtimer_op *op)
{
	size_t k = min(osize, sizeof(*op));

	if (k < sizeof(*op))
		memset((void *)op + k, 0, sizeof(*op) - k);
	hwt_upin_copy(p, i * osize, op, k, false);
	op->result = 0;
	if (osize > k && !hwt_upin_zero(p, i * osize + k, osize - k)) {
		memset(op, 0, sizeof(*op));
		op->result = -E2BIG;
	}
}

/* Write entry @i back: whole, or only the @result of an entry it refused. */
static void hwt_write_op(struct hwt_upin *p, unsigned int i, size_t osize,
			 struct hwtimer_op *op)
{
	size_t at = i * osize;

	if (!op->op) {
		at += offsetof(struct hwtimer_op, result);
		hwt_upin_copy(p, at, &op->result, sizeof(op->result), true);
		return;
	}
	hwt_upin_copy(p, at, op, min(osize, sizeof(*op)), true);
}

long hwt_ioc_batch(struct hwt_file *hf, void __user *uarg, size_t usize)
{
	struct hwtimer_batch hb;
	struct hwt_prepped_op *preps;
	unsigned int per;
	void __user *uops;
	size_t osize;
	u32 done = 0;
	long ret;

	ret = hwt_copy_in(&hb, sizeof(hb), HWTIMER_BATCH_SIZE_VER0, uarg,
			  usize);
	if (ret)
		return ret;
	if (hb.flags & ~HWTIMER_BATCH_STOP_ON_ERROR)
		return -EINVAL;
	if (hb.op_size < HWTIMER_OP_SIZE_VER0 || hb.op_size % 8)
		return -EINVAL;
	if (hb.op_size > PAGE_SIZE)
		return -E2BIG;
	if (hb.count > HWT_MAX_BATCH)
		return -E2BIG;
	osize = hb.op_size;
	uops = u64_to_user_ptr(hb.ops);
	/* a chunk spans at most a page's worth of bytes: two pages pinned */
	per = min_t(size_t, HWT_CHUNK, PAGE_SIZE / osize);

	preps = kmalloc_array(min(hb.count, per) ?: 1, sizeof(*preps),
			      GFP_KERNEL);
	if (!preps)
		return -ENOMEM;
	while (done < hb.count) {
		unsigned int i, n = min(per, hb.count - done);
		struct hwt_upin pin;
		unsigned int ran;

		ret = hwt_upin(&pin, uops + done * osize, n * osize);
		if (ret)
			break;
		for (i = 0; i < n; i++)
			hwt_read_op(&pin, i, osize, &preps[i].op);
		ran = hwt_run_ops(hf, preps, n,
				  hb.flags & HWTIMER_BATCH_STOP_ON_ERROR);
		for (i = 0; i < ran; i++)
			hwt_write_op(&pin, i, osize, &preps[i].op);
		hwt_unpin(&pin);
		done += ran;
		if (ran < n || ((hb.flags & HWTIMER_BATCH_STOP_ON_ERROR) &&
				preps[ran - 1].op.result < 0))
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
	kfree(preps);
	/* the return value says it too, should this store fault */
	if (put_user(done, (u32 __user *)(uarg +
					   offsetof(struct hwtimer_batch, done))) &&
	    !done)
		return -EFAULT;
	return done ? done : ret;
}

long hwt_ioc_drain(struct hwt_file *hf, void __user *uarg, size_t usize)
{
	struct hwtimer_drain d;
	unsigned long budget = ULONG_MAX;
	u32 __user *uids;
	bool ended = false;
	u32 *ids, pos = 1;
	long ret;

	ret = hwt_copy_in(&d, sizeof(d), HWTIMER_DRAIN_SIZE_VER0, uarg, usize);
	if (ret)
		return ret;
	if (d.flags || (d.max && !d.ids))
		return -EINVAL;
	d.count = 0;
	uids = u64_to_user_ptr(d.ids);
	ids = kmalloc_array(HWT_DRAIN_CHUNK, sizeof(*ids), GFP_KERNEL);
	if (!ids)
		return -ENOMEM;

	/*
	 * Chunk by chunk, each under one hold of the lock, in the order of
	 * ids. The timers there were when DRAIN started bound the work, so
	 * that another thread adding timers cannot keep it going; so does a
	 * signal. Either way the caller sees what is left in @remaining and
	 * can call again.
	 */
	while (budget) {
		unsigned int k = 0, seen = 0, room = HWT_DRAIN_CHUNK;
		u32 at = pos, scan = HWT_IDS_SCAN;
		struct hwt_utimer *t;
		bool more;
		struct hwt_upin pin;

		if (d.max) {
			room = min_t(u32, room, d.max - d.count);
			/* the ids taken must reach the caller: pin them first */
			if (hwt_upin(&pin, uids + d.count, room * sizeof(*ids))) {
				ret = d.count ? 0 : -EFAULT;
				break;
			}
		}
		hwt_lock(hf);
		if (budget == ULONG_MAX)
			budget = hf->ntimers;
		/* ids from @pos on: each chunk goes on where the last ended */
		while ((t = hwt_ids_next(&hf->ids, &at, &scan))) {
			if (t->state == HWT_U_PENDING) {
				if (d.max && k == room) {
					at = t->id;	/* the next call's */
					break;
				}
				ids[k++] = t->id;
				hwt_stat_add(&hf->stats, HWT_C_DRAINED, 1);
			}
			ended |= hwt_signalling(t);
			hwt_utimer_remove(hf, t);
			if (++seen == HWT_DRAIN_CHUNK)
				break;
		}
		pos = at;
		more = hwt_ids_more(&hf->ids, pos);
		budget -= min_t(unsigned long, budget, seen);
		d.remaining = hf->ntimers;
		hwt_unlock(hf);

		if (d.max) {
			hwt_upin_copy(&pin, 0, ids, k * sizeof(*ids), true);
			hwt_unpin(&pin);
		}
		d.count += k;
		if (!more || !d.remaining || (d.max && d.count == d.max) ||
		    task_sigpending(current))
			break;
		cond_resched();
	}
	kfree(ids);
	/* as for CANCEL: no eventfd of a drained timer is signalled after */
	if (ended)
		hwt_signals_wait(hf);
	hwt_ids_shrink(hf);
	if (copy_to_user(uarg, &d, min(usize, sizeof(d))) && !ret)
		ret = -EFAULT;
	return ret;
}
