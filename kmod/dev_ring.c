// SPDX-License-Identifier: GPL-2.0
/*
 * /dev/hwtimer: the expiry ring. Records go into memory the reader maps,
 * as perf's ring buffer and AF_XDP's rings do: the expiry pass is the only
 * producer, under the file's lock, and the consumer's index is untrusted.
 * Records that do not fit wait on the file's queue, as they do without a
 * ring, and HWTIMER_IOC_RING_FLUSH moves them in. The contract is in
 * Documentation/userspace-api/hwtimer.rst; see dev.h.
 *
 * The pages are allocated one by one, charged to the memory cgroup, and
 * mapped twice: into the kernel with vmap() for the producer, and into the
 * reader's mapping with vm_map_pages(). A mapping holds the file, so the
 * ring outlives every mapping of it and is freed with the file.
 *
 * They cannot be swapped out. As io_uring's rings since 5.12, they are
 * charged to the memory cgroup alone, not to RLIMIT_MEMLOCK, whose default
 * of 8 MiB would refuse an ordinary user the ring of a hundred thousand
 * timers. What bounds them per user is the module's own budget: a ring
 * counts as one timer per record slot against max_timers_per_user, over
 * all the user's files (hwt_ring_units(); EDQUOT past it), as a timer or
 * a stretch of the table of timers does.
 */
#include <linux/fs.h>
#include <linux/log2.h>
#include <linux/mm.h>
#include <linux/sched/signal.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/vmalloc.h>

#include "compat/compat.h"
#include "dev.h"
#include "dev_account.h"
#include "dev_copy.h"
#include "dev_queue.h"
#include "dev_record.h"
#include "dev_ring.h"
#include "dev_signal.h"
#include "dev_timens.h"

/* a record slot: a cache line, room for the record to grow */
#define HWT_RING_STRIDE		64
/* records a flush moves per hold of the lock */
#define HWT_FLUSH_CHUNK		64

static_assert(sizeof(struct hwtimer_record) <= HWT_RING_STRIDE);
static_assert(offsetof(struct hwtimer_ring, prod) == 0);
static_assert(offsetof(struct hwtimer_ring, flags) == 4);
static_assert(offsetof(struct hwtimer_ring, mask) == 8);
static_assert(offsetof(struct hwtimer_ring, rec_stride) == 12);
static_assert(offsetof(struct hwtimer_ring, queued) == 16);
static_assert(offsetof(struct hwtimer_ring, cons) == 128);
static_assert(offsetof(struct hwtimer_ring, wake) == 132);
static_assert(offsetof(struct hwtimer_ring, wake_at) == 136);
static_assert(sizeof(struct hwtimer_ring) == 256);

static_assert(offsetof(struct hwtimer_ring_setup, entries) == 0);
static_assert(offsetof(struct hwtimer_ring_setup, flags) == 4);
static_assert(offsetof(struct hwtimer_ring_setup, rec_offset) == 8);
static_assert(offsetof(struct hwtimer_ring_setup, rec_stride) == 12);
static_assert(offsetof(struct hwtimer_ring_setup, mmap_size) == 16);
static_assert(sizeof(struct hwtimer_ring_setup) ==
	      HWTIMER_RING_SETUP_SIZE_VER0);

/**
 * struct hwt_ring - a file's expiry ring
 * @hdr: the header, which the consumer maps too; the kernel only writes
 *	 its own fields and reads @hdr->cons, @hdr->wake and @hdr->wake_at
 * @recs: the first record slot
 * @pages: the pages mapped, header first
 * @npages: entries of @pages
 * @mask: entries of the ring, minus 1
 * @prod: the kernel's own copy of @hdr->prod, which it never reads back
 * @flags: the kernel's own copy of @hdr->flags
 * @queued: the kernel's own copy of @hdr->queued
 * @off: what to add to a time of each base to report it, in the view of
 *	 the task that set the ring up (hwt_view_offset())
 */
struct hwt_ring {
	struct hwtimer_ring *hdr;
	void *recs;
	struct page **pages;
	unsigned int npages;
	u32 mask;
	u32 prod;
	u32 flags;
	u64 queued;
	s64 off[HWT_NR_CLOCKS];
};

/* What a ring of @npages pages charges its user: a timer per record slot. */
static unsigned int hwt_ring_units(unsigned int npages)
{
	return npages * (PAGE_SIZE / HWT_RING_STRIDE);
}

static void hwt_ring_destroy(struct hwt_ring *r)
{
	unsigned int i;

	if (r->hdr)
		vunmap(r->hdr);
	for (i = 0; i < r->npages; i++)
		if (r->pages[i])
			__free_page(r->pages[i]);
	kvfree(r->pages);
	kfree(r);
}

/*
 * Writes the kernel's fields of the header from its own copies: the
 * consumer may have written over them (the kernel never reads them back).
 * Under the file's lock, or before the ring is published.
 */
static void hwt_ring_restore(struct hwt_ring *r)
{
	struct hwtimer_ring *h = r->hdr;

	WRITE_ONCE(h->flags, r->flags);
	WRITE_ONCE(h->mask, r->mask);
	WRITE_ONCE(h->rec_stride, HWT_RING_STRIDE);
	WRITE_ONCE(h->queued, r->queued);
	/* the records before the index that says they are there */
	smp_store_release(&h->prod, r->prod);
}

/* The pages a ring of @entries records takes: the header's, then theirs. */
static unsigned int hwt_ring_npages(u32 entries)
{
	return 1 + DIV_ROUND_UP(entries * HWT_RING_STRIDE, PAGE_SIZE);
}

static struct hwt_ring *hwt_ring_alloc(u32 entries)
{
	unsigned int i, npages = hwt_ring_npages(entries);
	struct hwt_ring *r;

	r = kzalloc(sizeof(*r), GFP_KERNEL_ACCOUNT);
	if (!r)
		return NULL;
	r->pages = kvcalloc(npages, sizeof(*r->pages), GFP_KERNEL_ACCOUNT);
	if (!r->pages)
		goto fail;
	r->npages = npages;
	for (i = 0; i < npages; i++) {
		r->pages[i] = alloc_page(GFP_KERNEL_ACCOUNT | __GFP_ZERO);
		if (!r->pages[i])
			goto fail;
	}
	r->hdr = vmap(r->pages, npages, VM_MAP, PAGE_KERNEL);
	if (!r->hdr)
		goto fail;
	r->recs = (void *)r->hdr + PAGE_SIZE;
	r->mask = entries - 1;
	hwt_ring_restore(r);
	/* times go out in the view of the task that sets the ring up */
	for (i = 0; i < HWT_NR_CLOCKS; i++)
		r->off[i] = hwt_view_offset(i);
	return r;
fail:
	hwt_ring_destroy(r);
	return NULL;
}

long hwt_ioc_ring_setup(struct hwt_file *hf, void __user *uarg, size_t usize)
{
	struct hwtimer_ring_setup rs;
	unsigned int units;
	struct hwt_ring *r;
	int ret;

	ret = hwt_copy_in(&rs, sizeof(rs), HWTIMER_RING_SETUP_SIZE_VER0, uarg,
			  usize);
	if (ret)
		return ret;
	if (rs.flags || !is_power_of_2(rs.entries) ||
	    rs.entries > HWTIMER_RING_MAX_ENTRIES)
		return -EINVAL;
	units = hwt_ring_units(hwt_ring_npages(rs.entries));
	mutex_lock(&hf->setup);
	if (hf->ring) {
		ret = -EBUSY;
		goto out;
	}
	/* charged first: past the budget, nothing is allocated */
	if (!hwt_charge(hf, units)) {
		ret = -EDQUOT;
		goto out;
	}
	r = hwt_ring_alloc(rs.entries);
	if (!r) {
		ret = -ENOMEM;
		goto uncharge;
	}
	/* the out fields are not read: see hwtimer.rst */
	rs.rec_offset = PAGE_SIZE;
	rs.rec_stride = HWT_RING_STRIDE;
	rs.mmap_size = (u64)r->npages << PAGE_SHIFT;
	if (copy_to_user(uarg, &rs, min(usize, sizeof(rs)))) {
		hwt_ring_destroy(r);
		ret = -EFAULT;
		goto uncharge;
	}
	hwt_lock(hf);
	/* mmap() and poll() look without the lock: the ring is complete */
	smp_store_release(&hf->ring, r);
	/* records queued before the ring came wait there: say so */
	hwt_ring_queue_changed(hf, 0);
	hwt_unlock(hf);
	goto out;
uncharge:
	hwt_uncharge(hf, units);
out:
	mutex_unlock(&hf->setup);
	return ret;
}

int hwt_mmap(struct file *file, struct vm_area_struct *vma)
{
	struct hwt_file *hf = file->private_data;
	/* pairs with the release in hwt_ioc_ring_setup(): a complete ring */
	struct hwt_ring *r = smp_load_acquire(&hf->ring);

	if (!r)
		return -ENODEV;
	/* a private mapping would copy the pages the consumer writes */
	if (!(vma->vm_flags & VM_MAYSHARE) || vma->vm_pgoff ||
	    vma_pages(vma) != r->npages)
		return -EINVAL;
	hwt_vm_flags_set(vma, VM_DONTEXPAND | VM_DONTDUMP);
	return vm_map_pages(vma, r->pages, r->npages);
}

/**
 * hwt_ring_begin() - start putting records into the ring
 * @hf: the file; its lock held
 * @p: the pass, to hand to hwt_ring_put() and hwt_ring_end()
 *
 * Reads the consumer's index once: the room it leaves is what this hold of
 * the lock may fill. An index that claims more room than the ring has
 * leaves none.
 */
void hwt_ring_begin(struct hwt_file *hf, struct hwt_ring_pass *p)
{
	struct hwt_ring *r = hf->ring;
	u32 used;

	lockdep_assert_held(&hf->lock);
	p->room = 0;
	if (!r)
		return;
	p->start = r->prod;
	/* pairs with the consumer's release: it is done with those slots */
	used = r->prod - smp_load_acquire(&r->hdr->cons);
	if (used <= r->mask)
		p->room = r->mask + 1 - used;
}

/* What to add to a time of @clk to report it: see hwt_view_offset() */
static s64 hwt_ring_off(const struct hwt_ring *r, unsigned int clk)
{
	return clk == HWT_CLK_ELAPSED ? hwt_view_offset(clk) : r->off[clk];
}

/**
 * hwt_ring_put() - deliver a timer's record into the ring
 * @hf: the file; its lock held
 * @p: the pass (hwt_ring_begin())
 * @t: a timer the pass expired, or one from the head of the queue
 * @nows: the clock reads of this hold of the lock
 *
 * As read() taking the record would (hwt_record_taken()): a periodic timer
 * is re-armed, its missed periods counted as overruns, and an AUTOREMOVE
 * one deleted.
 *
 * Return: false, and @t untouched, if the ring has no room.
 */
bool hwt_ring_put(struct hwt_file *hf, struct hwt_ring_pass *p,
		  struct hwt_utimer *t, struct hwt_nows *nows)
{
	struct hwt_ring *r = hf->ring;
	bool canceled;
	u64 now = 0;

	lockdep_assert_held(&hf->lock);
	if (!p->room)
		return false;
	p->room--;
	canceled = t->state == HWT_U_CANCELED;
	if (hwt_period(t) && !canceled)
		now = hwt_now_once(hf, nows, t->clk);
	hwt_fill_record(r->recs + (r->prod & r->mask) * HWT_RING_STRIDE, t,
			hwt_ring_off(r, t->clk), canceled, now);
	/* poll() reads it without the lock */
	WRITE_ONCE(r->prod, r->prod + 1);
	hwt_record_taken(hf, t, canceled, now, nows);
	return true;
}

/* Whether the consumer asked to be woken by records @old up to @new. */
static bool hwt_ring_wants_wake(const struct hwtimer_ring *h, u32 old,
				u32 new)
{
	switch (READ_ONCE(h->wake)) {
	case HWTIMER_RING_WAKE_NONE:
		return false;
	case HWTIMER_RING_WAKE_AT:
		/* virtio's vring_need_event(): @wake_at is in [old, new) */
		return (u32)(new - READ_ONCE(h->wake_at) - 1) < (u32)(new - old);
	default:
		return READ_ONCE(h->cons) == old;
	}
}

/**
 * hwt_ring_end() - publish what a pass put into the ring
 * @hf: the file; its lock held
 * @p: the pass
 * @sig: where to note the wake-up, if the consumer asked for one
 */
void hwt_ring_end(struct hwt_file *hf, struct hwt_ring_pass *p,
		  struct hwt_signals *sig)
{
	struct hwt_ring *r = hf->ring;

	lockdep_assert_held(&hf->lock);
	if (!r || r->prod == p->start)
		return;
	/* the records before the index that says they are there */
	smp_store_release(&r->hdr->prod, r->prod);
	/*
	 * The index before looking at the consumer's: it stores @cons, issues
	 * a full barrier and loads @prod before it sleeps (hwtimer.rst),
	 * so either it sees these records or this sees where it stopped.
	 */
	smp_mb();
	hwt_stat_add(&hf->stats, HWT_C_RECORDS, r->prod - p->start);
	if (hwt_ring_wants_wake(r->hdr, p->start, r->prod))
		hwt_wake_readers(hf, sig);
}

/**
 * hwt_ring_queue_changed() - records went onto the queue or off it
 * @hf: the file; its lock held
 * @full: records that took the queue instead of the ring, which was full
 *	  or had records queued before them
 *
 * Keeps HWTIMER_RING_QUEUED and the count of records the ring had no room
 * for up to date.
 */
void hwt_ring_queue_changed(struct hwt_file *hf, unsigned int full)
{
	struct hwt_ring *r = hf->ring;
	u32 flags;

	lockdep_assert_held(&hf->lock);
	if (!r)
		return;
	if (full) {
		r->queued += full;
		WRITE_ONCE(r->hdr->queued, r->queued);
	}
	flags = hf->nready ? HWTIMER_RING_QUEUED : 0;
	if (flags != r->flags) {
		r->flags = flags;
		WRITE_ONCE(r->hdr->flags, flags);
	}
}

long hwt_ioc_ring_flush(struct hwt_file *hf)
{
	/* pairs with the release in hwt_ioc_ring_setup() */
	struct hwt_ring *r = smp_load_acquire(&hf->ring);
	long moved = 0;
	unsigned int n;

	if (!r)
		return -ENODEV;
	/* no read() is halfway through the records at the head */
	if (mutex_lock_interruptible(&hf->read_lock))
		return -ERESTARTSYS;
	do {
		struct hwt_signals sig = {};
		struct hwt_nows nows = {};
		struct hwt_ring_pass p;
		struct hwt_utimer *t;

		hwt_lock_signals(hf, &sig);
		hwt_ring_begin(hf, &p);
		for (n = 0; n < HWT_FLUSH_CHUNK && (t = hwt_queue_first(hf));
		     n++)
			if (!hwt_ring_put(hf, &p, t, &nows))
				break;
		hwt_ring_end(hf, &p, &sig);
		hwt_ring_restore(r);
		hwt_unlock_signal(hf, &sig);
		moved += n;
		cond_resched();
	} while (n == HWT_FLUSH_CHUNK && !task_sigpending(current));
	mutex_unlock(&hf->read_lock);
	return moved;
}

/* poll(): whether the ring holds records; without the lock */
bool hwt_ring_readable(struct hwt_file *hf)
{
	/* pairs with the release in hwt_ioc_ring_setup() */
	struct hwt_ring *r = smp_load_acquire(&hf->ring);

	return r && READ_ONCE(r->hdr->cons) != READ_ONCE(r->prod);
}

/* /proc/PID/fdinfo; the file's lock held */
void hwt_ring_show(struct seq_file *m, struct hwt_file *hf)
{
	struct hwt_ring *r = hf->ring;

	lockdep_assert_held(&hf->lock);
	if (!r)
		return;
	seq_printf(m, "ring_entries:\t%u\n", r->mask + 1);
	seq_printf(m, "ring_prod:\t%u\n", r->prod);
	seq_printf(m, "ring_cons:\t%u\n", READ_ONCE(r->hdr->cons));
	seq_printf(m, "ring_queued:\t%llu\n", r->queued);
}

/* release(): no mapping is left, nor any expiry */
void hwt_ring_free(struct hwt_file *hf)
{
	struct hwt_ring *r = hf->ring;

	if (!r)
		return;
	hwt_uncharge(hf, hwt_ring_units(r->npages));
	hwt_ring_destroy(r);
}
