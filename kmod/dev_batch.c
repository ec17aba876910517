// SPDX-License-Identifier: GPL-2.0
/*
 * /dev/hwtimer: the bulk ioctls, BATCH and DRAIN. Each works in chunks, and
 * pins the user memory a chunk reads and writes before the chunk takes
 * effect: entries are read and results written through the pins, so a
 * result can never fail to reach the caller once its operation ran, even
 * if another thread unmaps the array meanwhile. A chunk that cannot be
 * pinned (the memory is not there, or not writable) does not run. Pinning
 * a page or two per chunk also costs less than the five user accesses per
 * entry that copy_struct_from_user() and friends would make. A chunk's
 * entries are copied through the pins in one go each way, and each entry
 * from and to that copy with a copy of known size, which the compiler
 * makes inline. See dev.h.
 */
#include <linux/highmem.h>
#include <linux/mm.h>
#include <linux/sched/signal.h>
#include <linux/slab.h>
#include <linux/uaccess.h>
#include <linux/uio.h>

#include "dev.h"
#include "dev_batch.h"
#include "dev_copy.h"
#include "dev_ids.h"
#include "dev_ops.h"
#include "dev_signal.h"
#include "dev_timer.h"

#define HWT_DRAIN_CHUNK	256

/* pages a pin spans: a chunk's at most two, a whole inline batch's more */
#define HWT_UPIN_PAGES	(HWT_NOWAIT_BYTES / PAGE_SIZE + 1)
static_assert(HWT_UPIN_PAGES >= 2);

/**
 * struct hwt_upin - user memory pinned for writing
 * @pages: the pages it spans
 * @nr: entries of @pages
 * @off: where it starts in @pages[0]
 */
struct hwt_upin {
	struct page *pages[HWT_UPIN_PAGES];
	unsigned int nr;
	unsigned int off;
};

/*
 * Pin @len bytes (1..HWT_NOWAIT_BYTES) at @u: -EFAULT unless all are there
 * and writable, or what pinning failed with (-ENOMEM, say). With @nofault,
 * pages that are not in memory are not faulted in (FOLL_NOFAULT): -EFAULT
 * for them too, and nothing waits for I/O or a userfaultfd.
 */
static int hwt_upin(struct hwt_upin *p, const void __user *u, size_t len,
		    bool nofault)
{
	unsigned long addr = (unsigned long)u;
	int ret;

	p->off = offset_in_page(addr);
	p->nr = DIV_ROUND_UP(p->off + len, PAGE_SIZE);
	if (WARN_ON_ONCE(p->nr > HWT_UPIN_PAGES))
		return -EFAULT;
	ret = pin_user_pages_fast(addr & PAGE_MASK, p->nr,
				  FOLL_WRITE | (nofault ? FOLL_NOFAULT : 0),
				  p->pages);
	if (ret == p->nr)
		return 0;
	if (ret > 0)
		unpin_user_pages(p->pages, ret);
	return ret < 0 ? ret : -EFAULT;
}

static void hwt_unpin(struct hwt_upin *p)
{
	unpin_user_pages_dirty_lock(p->pages, p->nr, true);
}

/*
 * A chunk of a batch's entries: pinned user memory, its own pin or a part
 * of one that holds the whole batch (at @at in @pin), or a copy of a
 * registered buffer's bytes (@buf), written back when the chunk is done.
 */
struct hwt_chunk {
	struct hwt_upin own;
	const struct hwt_upin *pin;
	size_t at;
	void *buf;
	size_t len;
};

/*
 * Get the @len bytes at offset @at of @src: -EFAULT if they are not there.
 * @whole, if not NULL, has pinned all of @src's user memory already.
 * Chunks are got and put in order: a registered buffer's iterators move
 * on with each.
 */
static int hwt_chunk_get(struct hwt_chunk *c, const struct hwt_batch_src *src,
			 const struct hwt_upin *whole, size_t at, size_t len,
			 void *buf)
{
	c->len = len;
	c->buf = NULL;
	c->pin = &c->own;
	c->at = 0;
	if (src->in) {
		c->buf = buf;
		return copy_from_iter(buf, len, src->in) == len ? 0 : -EFAULT;
	}
	if (whole) {
		c->pin = whole;
		c->at = at;
		return 0;
	}
	return hwt_upin(&c->own, src->uops + at, len, false);
}

/*
 * Done with a chunk whose first @ran bytes' entries ran: its own pages
 * unpinned, or those bytes of its copy written back.
 */
static void hwt_chunk_put(struct hwt_chunk *c, const struct hwt_batch_src *src,
			  size_t ran)
{
	if (!c->buf) {
		if (c->pin == &c->own)
			hwt_unpin(&c->own);
		return;
	}
	/* a registered buffer's pages are there: it cannot come up short */
	WARN_ON_ONCE(copy_to_iter(c->buf, ran, src->out) != ran);
	iov_iter_advance(src->out, c->len - ran);
}

/* Copy @len bytes from (@out false) or to (@out true) offset @at of @c. */
static void hwt_chunk_copy(struct hwt_chunk *c, size_t at, void *buf,
			   size_t len, bool out)
{
	const struct hwt_upin *p = c->pin;

	if (c->buf) {
		if (out)
			memcpy(c->buf + at, buf, len);
		else
			memcpy(buf, c->buf + at, len);
		return;
	}
	at += c->at + p->off;
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

/*
 * Read the @osize-byte entry at @e, a chunk's copy, into @op, as
 * copy_struct_from_user() would: a shorter entry is zero-extended, and a
 * longer one whose tail is not zero (a newer op than this kernel knows)
 * fails alone, with E2BIG. Its @result is an output, not read.
 */
static void hwt_read_op(const void *e, size_t osize, struct hwtimer_op *op)
{
	size_t k = min(osize, sizeof(*op));

	if (likely(osize == sizeof(*op))) {
		memcpy(op, e, sizeof(*op));	/* a copy of known size, inline */
	} else {
		memset((void *)op + k, 0, sizeof(*op) - k);
		memcpy(op, e, k);
	}
	op->result = 0;
	if (osize > k && memchr_inv(e + k, 0, osize - k)) {
		memset(op, 0, sizeof(*op));
		op->result = -E2BIG;
	}
}

/*
 * Write @op back into its entry at @e, a chunk's copy: whole, or only the
 * @result of an entry it refused; the rest of the entry stays as read.
 */
static void hwt_write_op(void *e, size_t osize, const struct hwtimer_op *op)
{
	if (!op->op) {
		memcpy(e + offsetof(struct hwtimer_op, result), &op->result,
		       sizeof(op->result));
		return;
	}
	if (likely(osize == sizeof(*op)))
		memcpy(e, op, sizeof(*op));
	else
		memcpy(e, op, min(osize, sizeof(*op)));
}

/**
 * hwt_batch_check() - what BATCH, and its io_uring command, refuse at once
 * @count: entries
 * @op_size: the size of each
 * @flags: HWTIMER_BATCH_*
 *
 * Return: 0, -EINVAL or -E2BIG.
 */
int hwt_batch_check(u32 count, u32 op_size, u32 flags)
{
	if (flags & ~HWTIMER_BATCH_STOP_ON_ERROR)
		return -EINVAL;
	if (op_size < HWTIMER_OP_SIZE_VER0 || op_size % 8)
		return -EINVAL;
	if (op_size > PAGE_SIZE || count > HWT_MAX_BATCH)
		return -E2BIG;
	return 0;
}

/*
 * What io_uring's inline issue (HWT_RUN_NOWAIT) does before the first
 * entry runs, so that it never sleeps on the batch's memory: refuse a
 * batch past HWT_NOWAIT_BYTES, and pin a user array whole, without
 * faulting anything in. -EAGAIN sends the command to io-wq, which runs it
 * as BATCH does, faulting in what it must.
 */
static int hwt_batch_nowait(const struct hwt_batch_src *src, size_t bytes,
			    struct hwt_upin *whole)
{
	if (bytes > HWT_NOWAIT_BYTES)
		return -EAGAIN;
	if (src->in || !bytes)
		return 1;	/* a registered buffer is pinned already */
	return hwt_upin(whole, src->uops, bytes, true) ? -EAGAIN : 0;
}

/**
 * hwt_batch_run() - run a batch's entries, a chunk at a time
 * @hf: the file
 * @src: where the entries are
 * @count: how many, checked by hwt_batch_check()
 * @osize: the size of each
 * @flags: HWT_RUN_STOP, HWT_RUN_NOWAIT
 * @done: set to how many ran, their results written back
 *
 * A chunk whose memory is not there does not run, and ends the batch; so
 * does a signal, between chunks. With HWT_RUN_NOWAIT, nothing sleeps
 * before the first entry runs (see hwt_batch_nowait() and hwt_run_ops());
 * once it has, the rest runs as it would without the flag.
 *
 * Return: 0, or -errno for what ended the batch early; -EAGAIN only with
 * HWT_RUN_NOWAIT and nothing run.
 */
long hwt_batch_run(struct hwt_file *hf, const struct hwt_batch_src *src,
		   u32 count, size_t osize, unsigned int flags, u32 *done)
{
	struct hwt_upin whole, *pinned = NULL;
	struct hwt_prepped_op *preps;
	void *buf = NULL;
	unsigned int per;
	long ret = 0;

	*done = 0;
	if (flags & HWT_RUN_NOWAIT) {
		ret = hwt_batch_nowait(src, (size_t)count * osize, &whole);
		if (ret < 0)
			return ret;
		pinned = ret ? NULL : &whole;
		ret = 0;
	}
	/* a chunk spans at most a page's worth of bytes: two pages pinned */
	per = min_t(size_t, HWT_CHUNK, PAGE_SIZE / osize);
	preps = kmalloc_array(min(count, per) ?: 1, sizeof(*preps),
			      GFP_KERNEL);
	/* a chunk's entries are copied in and out whole, each from there */
	if (preps)
		buf = kmalloc(min(count, per) * osize ?: 1, GFP_KERNEL);
	if (!preps || !buf) {
		ret = -ENOMEM;
		goto out;
	}
	while (*done < count) {
		unsigned int i, n = min(per, count - *done);
		struct hwt_chunk chunk;
		int ran;

		ret = hwt_chunk_get(&chunk, src, pinned, *done * osize,
				    n * osize, buf);
		if (ret)
			break;
		/* a registered buffer's chunk is in @buf already */
		if (!chunk.buf)
			hwt_chunk_copy(&chunk, 0, buf, n * osize, false);
		for (i = 0; i < n; i++)
			hwt_read_op(buf + i * osize, osize, &preps[i].op);
		/* only the first chunk may still go to io-wq */
		ran = hwt_run_ops(hf, preps, n,
				  *done ? flags & ~HWT_RUN_NOWAIT : flags);
		if (ran < 0) {
			hwt_chunk_put(&chunk, src, 0);
			ret = ran;
			break;
		}
		for (i = 0; i < ran; i++)
			hwt_write_op(buf + i * osize, osize, &preps[i].op);
		if (!chunk.buf)
			hwt_chunk_copy(&chunk, 0, buf, ran * osize, true);
		hwt_chunk_put(&chunk, src, ran * osize);
		*done += ran;
		if (ran < n ||
		    ((flags & HWT_RUN_STOP) && preps[ran - 1].op.result < 0))
			break;
		/*
		 * A signal ends it: @done tells the caller where to go on.
		 * Not signal_pending(): task_work (io_uring's, say) sets
		 * TIF_NOTIFY_SIGNAL, which a short count cannot restart.
		 */
		if (*done < count && task_sigpending(current))
			break;
		cond_resched();
	}
out:
	if (pinned)
		hwt_unpin(pinned);
	kfree(buf);
	kfree(preps);
	return ret;
}

/* HWTIMER_IOC_BATCH: see struct hwtimer_batch */
long hwt_ioc_batch(struct hwt_file *hf, void __user *uarg, size_t usize)
{
	struct hwtimer_batch hb;
	struct hwt_batch_src src = {};
	u32 done;
	long ret;

	ret = hwt_copy_in(&hb, sizeof(hb), HWTIMER_BATCH_SIZE_VER0, uarg,
			  usize);
	if (ret)
		return ret;
	ret = hwt_batch_check(hb.count, hb.op_size, hb.flags);
	if (ret)
		return ret;
	src.uops = u64_to_user_ptr(hb.ops);
	ret = hwt_batch_run(hf, &src, hb.count, hb.op_size,
			    hb.flags & HWTIMER_BATCH_STOP_ON_ERROR ?
			    HWT_RUN_STOP : 0, &done);
	/* the return value says it too, should this store fault */
	if (put_user(done, (u32 __user *)(uarg +
					   offsetof(struct hwtimer_batch, done))) &&
	    !done)
		return -EFAULT;
	return done ? done : ret;
}

/* HWTIMER_IOC_DRAIN: see struct hwtimer_drain */
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
		struct hwt_chunk chunk = { .pin = &chunk.own };

		if (d.max) {
			room = min_t(u32, room, d.max - d.count);
			/* the ids taken must reach the caller: pin them first */
			if (hwt_upin(&chunk.own, uids + d.count,
				     room * sizeof(*ids), false)) {
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
			hwt_chunk_copy(&chunk, 0, ids, k * sizeof(*ids), true);
			hwt_unpin(&chunk.own);
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
