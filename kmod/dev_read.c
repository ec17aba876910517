// SPDX-License-Identifier: GPL-2.0
/*
 * /dev/hwtimer: records. read() copies them to the caller before it takes
 * them off the queue, and re-arms periodic timers as it takes their
 * records; poll() says whether any wait. See dev.h.
 */
#include <linux/fs.h>
#include <linux/sched/signal.h>
#include <linux/slab.h>
#include <linux/uaccess.h>

#include "dev.h"
#include "dev_clockset.h"
#include "dev_expiry.h"
#include "dev_read.h"
#include "dev_queue.h"
#include "dev_record.h"
#include "dev_ring.h"
#include "dev_timens.h"

#define HWT_READ_CHUNK	48	/* records built per lock hold: its buffer fits a page */

/* Records */

/**
 * struct hwt_peek - a record copied off the queue, not yet taken
 * @t: the timer it came from
 * @id: its id, with @gen to recognise the same arming again
 * @gen: its generation
 * @now: when a periodic timer's overruns were counted, and is re-armed
 * @canceled: a clock set withdrew it (HWTIMER_F_CANCEL_ON_SET): no re-arm
 */
struct hwt_peek {
	struct hwt_utimer *t;
	u32 id;
	u32 gen;
	bool canceled;
	u64 now;
};

/* Build records for the first @max timers of the queue; take none. */
static unsigned int hwt_peek_records(struct hwt_file *hf,
				     struct hwtimer_record *recs,
				     struct hwt_peek *peek, unsigned int max)
{
	struct hwt_nows now = {};
	s64 off[HWT_CLK_ELAPSED + 1];
	unsigned long known = 0;
	struct hwt_utimer *t;
	unsigned int n = 0;

	/* the reader's lock, then the file's: see dev.h, "Locking" */
	lockdep_assert_held(&hf->read_lock);
	hwt_lock(hf);
	for (t = hwt_queue_first(hf); t; t = hwt_queue_next(hf, t)) {
		struct hwt_peek *p;

		if (n == max)
			break;
		p = &peek[n];
		p->t = t;
		p->id = t->id;
		p->gen = t->gen;
		p->canceled = t->state == HWT_U_CANCELED;
		/* the overruns the re-arm in hwt_take_records() counts */
		p->now = hwt_period(t) && !p->canceled ?
			 hwt_now_once(hf, &now, t->clk) : 0;
		/* times go out in the reader's view: see hwt_view_offset() */
		if (!(known & BIT(t->clk))) {
			off[t->clk] = hwt_view_offset(t->clk);
			known |= BIT(t->clk);
		}
		hwt_fill_record(&recs[n], t, off[t->clk], p->canceled, p->now);
		n++;
	}
	hwt_unlock(hf);
	return n;
}

/*
 * Take the records hwt_peek_records() built, once they reached the caller:
 * as many as are still at the head of the queue, from the same arming and
 * as built. A MOD or CANCEL in between took the rest away, and a clock set
 * may have withdrawn one (HWTIMER_F_CANCEL_ON_SET) after its record said it
 * fired: those do not count as read, and the next read() builds them again.
 * Periodic timers are re-armed, AUTOREMOVE ones deleted.
 */
static unsigned int hwt_take_records(struct hwt_file *hf,
				     const struct hwt_peek *peek,
				     unsigned int n)
{
	struct hwt_nows now = {};
	struct hwt_utimer *t;
	unsigned int i;

	lockdep_assert_held(&hf->read_lock);
	hwt_lock(hf);
	for (i = 0; i < n && (t = hwt_queue_first(hf)); i++) {
		bool canceled = t->state == HWT_U_CANCELED;

		if (t != peek[i].t || t->id != peek[i].id ||
		    t->gen != peek[i].gen || canceled != peek[i].canceled)
			break;
		hwt_record_taken(hf, t, peek[i].canceled, peek[i].now, &now);
	}
	hwt_stat_add(&hf->stats, HWT_C_RECORDS, i);
	hwt_unlock(hf);
	return i;
}

/* read()'s buffer: a chunk of records and what it needs to take them */
struct hwt_rbuf {
	struct hwtimer_record recs[HWT_READ_CHUNK];
	struct hwt_peek peek[HWT_READ_CHUNK];
};

/*
 * Copy @n records to @buf, each in a slot of @rsize bytes (the file's
 * record size): zero-extended past what the kernel fills.
 */
static int hwt_copy_records(char __user *buf, size_t rsize,
			    const struct hwtimer_record *recs, unsigned int n)
{
	const size_t k = sizeof(*recs);
	unsigned int i;

	if (rsize == k)
		return copy_to_user(buf, recs, n * k) ? -EFAULT : 0;
	for (i = 0; i < n; i++, buf += rsize)
		if (copy_to_user(buf, &recs[i], min(rsize, k)) ||
		    (rsize > k && clear_user(buf + k, rsize - k)))
			return -EFAULT;
	return 0;
}

/*
 * Records are copied to the caller before they are taken off the queue, so
 * that a fault (a bad buffer, or a page fault that fails) loses none. One
 * reader at a time, so that two never copy the same records, and the
 * reader lock also guards the file's buffer, allocated by the first read()
 * and kept: a read() allocates nothing. A long read() gives the CPU up
 * between chunks, and a signal ends it with what it has.
 */
ssize_t hwt_read(struct file *file, char __user *buf, size_t count,
		 loff_t *ppos)
{
	struct hwt_file *hf = file->private_data;
	size_t rsize, max, done = 0;
	struct hwt_rbuf *rb;
	ssize_t ret = 0;

	/* records of timers a clock set withdrew come out as such */
	hwt_cos_sync(hf);
	if (mutex_lock_interruptible(&hf->read_lock))
		return -ERESTARTSYS;
	rsize = hf->rec_size;
	max = count / rsize;
	if (!max) {
		ret = -EINVAL;
		goto out;
	}
	if (!hf->rbuf) {
		hf->rbuf = kmalloc(sizeof(*rb), GFP_KERNEL_ACCOUNT);
		if (!hf->rbuf) {
			ret = -ENOMEM;
			goto out;
		}
	}
	rb = hf->rbuf;
	while (done < max) {
		unsigned int n = min_t(size_t, HWT_READ_CHUNK, max - done);

		n = hwt_peek_records(hf, rb->recs, rb->peek, n);
		if (n) {
			ret = hwt_copy_records(buf + done * rsize, rsize,
					       rb->recs, n);
			if (ret)
				break;
			n = hwt_take_records(hf, rb->peek, n);
			done += n;
			/* nothing more queued: no look that would find nothing */
			if (done && !READ_ONCE(hf->nready))
				break;
			/* a signal, not task_work: see hwt_batch_run() */
			if (done < max && task_sigpending(current))
				break;
			cond_resched();
			continue;
		}
		if (done)
			break;
		/* it waits for the next records, here or elsewhere */
		WRITE_ONCE(hf->reader_cpu, raw_smp_processor_id());
		hwt_file_bases_follow(hf);
		if (file->f_flags & O_NONBLOCK) {
			ret = -EAGAIN;
			break;
		}
		/* wait without the reader lock: another reader may take them */
		mutex_unlock(&hf->read_lock);
		ret = wait_event_interruptible(hf->wq, READ_ONCE(hf->nready));
		if (ret)
			return ret;
		if (mutex_lock_interruptible(&hf->read_lock))
			return -ERESTARTSYS;
		/* the record size may have changed meanwhile */
		if (hf->rec_size != rsize) {
			rsize = hf->rec_size;
			max = count / rsize;
			if (!max) {
				ret = -EINVAL;
				break;
			}
		}
	}
out:
	mutex_unlock(&hf->read_lock);
	return done ? done * rsize : ret;
}

__poll_t hwt_poll(struct file *file, poll_table *wait)
{
	struct hwt_file *hf = file->private_data;
	__poll_t mask;

	poll_wait(file, &hf->wq, wait);
	mask = READ_ONCE(hf->nready) || hwt_ring_readable(hf) ?
	       EPOLLIN | EPOLLRDNORM : 0;
	/* a poller about to wait: see hwt_file_bases_follow() */
	if (!mask && !poll_does_not_wait(wait)) {
		WRITE_ONCE(hf->reader_cpu, raw_smp_processor_id());
		hwt_file_bases_follow(hf);
	}
	return mask;
}
