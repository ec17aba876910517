// SPDX-License-Identifier: GPL-2.0
/*
 * /dev/hwtimer: a file's ids. An array indexed by id holds each timer; the
 * free entries form a stack threaded through the array, so taking and
 * freeing an id is O(1) and touches one word, and ids stay dense: a file
 * never has an id above the most timers it ever held at once. The array
 * only grows, by doubling (hwt_ids_reserve()): the larger one is allocated
 * with no lock held and filled a chunk per hold of the file's lock, while
 * writes to entries already copied go to both, then swapped in under the
 * lock, which every reader holds. So no hold copies more than a chunk,
 * however many timers the file has. See dev.h.
 */
#include <linux/mm.h>
#include <linux/slab.h>

#include "dev.h"
#include "dev_account.h"
#include "dev_ids.h"

#define HWT_IDS_MIN	64	/* entries of a file's first array */
#define HWT_IDS_COPY	4096	/* entries copied per hold while it grows */
#define HWT_IDS_KEEP	4096	/* an empty file keeps an array this small */
/*
 * Entries beyond HWT_IDS_KEEP charged to the user as one timer: the array
 * stays as large as the file's busiest moment while any timer is left,
 * so it counts against max_timers_per_user too (EDQUOT).
 */
#define HWT_IDS_PER_TIMER	16

/* a timer's entry holds its pointer, whose bit 0 tells it from a free one */
static_assert(__alignof__(struct hwt_utimer) > 1);

/**
 * hwt_ids_charged() - what an id array of @cap entries charges its user
 * @cap: its entries
 *
 * Return: timers' worth, counted in struct hwt_user.timers.
 */
u32 hwt_ids_charged(u32 cap)
{
	return cap > HWT_IDS_KEEP ?
	       DIV_ROUND_UP(cap - HWT_IDS_KEEP, HWT_IDS_PER_TIMER) : 0;
}

/* a free entry: the next free id, tagged so it is no pointer */
static inline unsigned long hwt_ids_link(u32 next)
{
	return (unsigned long)next << 1 | 1;
}

/* Ids a hwt_ids_get() can take without the array growing. */
static u32 hwt_ids_room(const struct hwt_ids *ids)
{
	return ids->nfree + (ids->cap - ids->top);
}

/**
 * hwt_ids_get() - give @t the id that was freed last, or a fresh one
 * @ids: the file's ids, its lock held
 * @t: the timer
 *
 * Return: the id, or 0 if the array is full: hwt_ids_reserve() first.
 */
u32 hwt_ids_get(struct hwt_ids *ids, struct hwt_utimer *t)
{
	u32 id;

	if (ids->free) {
		id = ids->free;
		ids->free = ids->entry[id - 1] >> 1;
		ids->nfree--;
	} else if (ids->top < ids->cap) {
		id = ++ids->top;
	} else {
		return 0;
	}
	hwt_ids_set(ids, id - 1, (unsigned long)t);
	return id;
}

/* Free @id, which hwt_ids_get() handed out: it is the next one taken. */
void hwt_ids_put(struct hwt_ids *ids, u32 id)
{
	hwt_ids_set(ids, id - 1, hwt_ids_link(ids->free));
	ids->free = id;
	ids->nfree++;
}

/**
 * hwt_ids_reserve() - make room for @n ids without the lock
 * @hf: the file, its lock not held
 * @n: ids about to be taken
 *
 * Grows the array, to twice its size or more, if fewer than @n ids are
 * left; other threads may still take them first, so callers that find
 * none left under the lock drop it and call again. The entries are copied
 * HWT_IDS_COPY per hold of the lock, so no hold copies more than that.
 * The larger array is charged to the user (hwt_ids_charged()).
 *
 * Context: process context, no lock held; may sleep.
 * Return: 0, -EDQUOT past the user's max_timers_per_user, or -ENOMEM.
 */
int hwt_ids_reserve(struct hwt_file *hf, u32 n)
{
	struct hwt_ids *ids = &hf->ids;
	unsigned long *arr, *old;
	u32 have, room, cap, extra;
	int ret = 0;

	/* a look without the lock says whether to take it: ids only grow */
	if (data_race(hwt_ids_room(ids)) >= n)
		return 0;
	mutex_lock(&ids->grow);
	hwt_lock(hf);
	have = ids->cap;
	room = hwt_ids_room(ids);
	hwt_unlock(hf);
	if (room >= n)
		goto out;
	cap = max3(have * 2, have + n - room, (u32)HWT_IDS_MIN);
	cap = min_t(u32, cap, HWT_ID_MAX);
	if (cap <= have)
		goto out;	/* no more ids: the caller's ENOSPC */
	extra = hwt_ids_charged(cap) - hwt_ids_charged(have);
	if (extra && !hwt_user_charge(hf->user, extra)) {
		ret = -EDQUOT;
		goto out;
	}
	arr = kvmalloc_array(cap, sizeof(*arr), GFP_KERNEL_ACCOUNT);
	if (!arr) {
		hwt_user_uncharge(hf->user, extra);
		ret = -ENOMEM;
		goto out;
	}

	hwt_lock(hf);
	ids->next = arr;
	ids->copied = 0;
	/* entries from @top on were never used: they need no copy */
	while (ids->copied < ids->top) {
		u32 k = min_t(u32, ids->top - ids->copied, HWT_IDS_COPY);

		memcpy(arr + ids->copied, ids->entry + ids->copied,
		       k * sizeof(*arr));
		ids->copied += k;
		if (ids->copied == ids->top)
			break;
		/* others may take and free ids meanwhile: hwt_ids_set() */
		hwt_unlock(hf);
		cond_resched();
		hwt_lock(hf);
	}
	old = ids->entry;
	ids->entry = arr;
	ids->cap = cap;
	ids->next = NULL;
	hwt_unlock(hf);
	kvfree(old);
out:
	mutex_unlock(&ids->grow);
	return ret;
}

/**
 * hwt_ids_shrink() - give back the id array of a file that holds no timer
 * @hf: the file, its lock not held
 *
 * A file's array only grows while it has timers: ids in use cannot move.
 * Once it holds none, every id is free, so an array larger than
 * HWT_IDS_KEEP entries goes, and the next ADD starts a small one again, from
 * id 1. DRAIN and CANCEL call this; a file emptied by its AUTOREMOVE
 * timers keeps its array until one of them runs.
 *
 * Context: process context, no lock held; may sleep.
 */
void hwt_ids_shrink(struct hwt_file *hf)
{
	struct hwt_ids *ids = &hf->ids;
	unsigned long *old = NULL;
	u32 charged = 0;

	/* a look without the lock says whether to take it: checked again */
	if (data_race(hf->ntimers) || data_race(ids->cap) <= HWT_IDS_KEEP)
		return;
	mutex_lock(&ids->grow);
	hwt_lock(hf);
	if (!hf->ntimers && ids->cap > HWT_IDS_KEEP) {
		charged = hwt_ids_charged(ids->cap);
		old = ids->entry;
		ids->entry = NULL;
		ids->cap = 0;
		ids->top = 0;
		ids->free = 0;
		ids->nfree = 0;
	}
	hwt_unlock(hf);
	mutex_unlock(&ids->grow);
	hwt_user_uncharge(hf->user, charged);
	kvfree(old);
}

/**
 * hwt_ids_next() - the timer of the lowest id at or after *@pos
 * @ids: the file's ids, its lock held
 * @pos: where to look from; set past the timer found, or to where the
 *	 look stopped
 * @scan: entries the caller may still look at under this hold of the lock,
 *	  counted down: a walk over a file that once held millions of timers
 *	  and now holds few gives the lock up between holds of this many
 *
 * Return: the timer, or NULL if there is none from *@pos on or *@scan ran
 * out; hwt_ids_more() tells which.
 */
struct hwt_utimer *hwt_ids_next(struct hwt_ids *ids, u32 *pos, u32 *scan)
{
	u32 i;

	for (i = max(*pos, 1U); i <= ids->top && *scan; i++) {
		unsigned long v = ids->entry[i - 1];

		--*scan;
		if (!(v & 1)) {
			*pos = i + 1;
			return (struct hwt_utimer *)v;
		}
	}
	*pos = i;
	return NULL;
}

/* Free a closing file's id array, and give back what it was charged. */
void hwt_ids_destroy(struct hwt_file *hf)
{
	struct hwt_ids *ids = &hf->ids;

	hwt_user_uncharge(hf->user, hwt_ids_charged(ids->cap));
	kvfree(ids->entry);
	ids->entry = NULL;
	ids->cap = 0;
	ids->top = 0;
}
