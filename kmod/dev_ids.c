// SPDX-License-Identifier: GPL-2.0
/*
 * /dev/hwtimer: a file's timers, in a table of entries by id. The id names
 * the entry: an ADD takes a free one and a CANCEL gives it back, with no
 * allocation of their own. The free entries form a stack threaded through
 * the table, so taking and freeing is O(1), and ids stay dense: a file
 * never has an id above the most timers it ever held at once, and a churn
 * of timers reuses the same entries.
 *
 * The table is a directory of chunks: a small first one, so that a file
 * of a few timers stays small, then a page each. It grows a chunk at a
 * time (hwt_ids_reserve()). The chunk is allocated with no lock held and
 * put in under the lock; a larger directory is filled with no lock held
 * either, since only the one thread that grows the table writes it, then
 * swapped in under the lock, which every reader holds. So growing never
 * copies under the lock, however many timers the file has. See dev.h.
 */
#include <linux/mm.h>
#include <linux/slab.h>

#include "dev.h"
#include "dev_account.h"
#include "dev_ids.h"

/*
 * Free entries a table may hold without paying for them. Every entry
 * counts as a timer against max_timers_per_user, a timer's or a free one,
 * but for this many free ones: a table that grows a chunk at a time once
 * it is full never has more, so a file pays for its timers alone until it
 * cancels some, and then for the table it keeps (it cannot shrink while
 * ids are in use). An entry costs what a timer costs, so the budget bounds
 * the table's memory as it bounds the timers'.
 */
#define HWT_IDS_SPARE	HWT_IDS_PER_CHUNK

/* the first chunk fits a small kmalloc() object, each later one a page */
static_assert(HWT_IDS_CHUNK0 * sizeof(struct hwt_utimer) <= 512);
static_assert(HWT_IDS_PER_CHUNK * sizeof(struct hwt_utimer) <= PAGE_SIZE);

/* What a table of @cap entries, @room of them free, charges its user. */
static u32 hwt_ids_units(u32 cap, u32 room)
{
	return cap - min_t(u32, room, HWT_IDS_SPARE);
}

/* Entries a table of @nchunks chunks has. */
static u32 hwt_ids_cap(u32 nchunks)
{
	return nchunks ? HWT_IDS_CHUNK0 + (nchunks - 1) * HWT_IDS_PER_CHUNK : 0;
}

/* Ids a hwt_ids_get() can take without the table growing. */
static u32 hwt_ids_room(const struct hwt_ids *ids)
{
	return ids->nfree + (ids->cap - ids->top);
}

/* What @ids charges its user now; the file's lock held. */
u32 hwt_ids_units_of(const struct hwt_ids *ids)
{
	return hwt_ids_units(ids->cap, hwt_ids_room(ids));
}

/**
 * hwt_ids_get() - an entry for a new timer: the one freed last, or a new one
 * @hf: the file, its lock held
 * @prepaid: units the caller charged the user beforehand; one is taken
 *	     if the entry needs it, else one is charged
 *
 * An entry taken from the spare ones (HWT_IDS_SPARE) starts to count
 * against the user's max_timers_per_user.
 *
 * Return: the entry, zeroed but for its id; NULL if the table is full
 * (hwt_ids_reserve() first), or ERR_PTR(-EDQUOT) past the user's limit.
 */
struct hwt_utimer *hwt_ids_get(struct hwt_file *hf, unsigned int *prepaid)
{
	struct hwt_ids *ids = &hf->ids;
	u32 room = hwt_ids_room(ids), id;
	struct hwt_utimer *t;

	lockdep_assert_held(&hf->lock);
	if (!room)
		return NULL;
	if (room <= HWT_IDS_SPARE) {
		if (*prepaid)
			(*prepaid)--;
		else if (!hwt_charge(hf, 1))
			return ERR_PTR(-EDQUOT);
	}
	if (ids->free) {
		id = ids->free;
		t = hwt_ids_entry(ids, id - 1);
		ids->free = t->next_free;
		ids->nfree--;
	} else {
		id = ++ids->top;
		t = hwt_ids_entry(ids, id - 1);
		ids->hwm = max(ids->hwm, id);
	}
	memset(t, 0, sizeof(*t));
	t->id = id;
	return t;
}

/**
 * hwt_ids_prepay() - charge at once what a chunk's ADDs can need
 * @hf: the file, its lock held
 * @adds: ADDs the chunk is about to run
 *
 * hwt_ids_get() charges an entry only while the table's room is at most
 * HWT_IDS_SPARE: the free entries above those were paid for with the
 * table. So of @adds entries taken from the room the table has now, only
 * those past its first room - HWT_IDS_SPARE cost a unit; nothing else is
 * charged, so that the user's other files are not refused for units this
 * chunk will never take. Charged in one go if that fits the user's limit;
 * otherwise hwt_ids_get() charges one at a time, and at the limit the
 * first ADDs that fit succeed. An entry taken after the lock was dropped
 * to grow the table charges its own once these are gone.
 *
 * Return: the units charged, which the caller hands to hwt_ids_get() and
 * gives back what is left of with hwt_uncharge().
 */
unsigned int hwt_ids_prepay(struct hwt_file *hf, unsigned int adds)
{
	u32 room = hwt_ids_room(&hf->ids);
	unsigned int need = adds;

	lockdep_assert_held(&hf->lock);
	if (room > HWT_IDS_SPARE)
		need -= min_t(u32, adds, room - HWT_IDS_SPARE);
	if (need < 2 || !hwt_charge(hf, need))
		return 0;
	return need;
}

/*
 * Give @t's entry back: its id is the next one taken. An entry that joins
 * the spare ones gives its unit back; one past them keeps it, as the
 * table's (hwt_ids_units()).
 */
void hwt_ids_put(struct hwt_file *hf, struct hwt_utimer *t)
{
	struct hwt_ids *ids = &hf->ids;
	u32 id = t->id;

	lockdep_assert_held(&hf->lock);
	if (hwt_ids_room(ids) < HWT_IDS_SPARE)
		hwt_uncharge(hf, 1);
	t->id = 0;
	t->next_free = ids->free;
	ids->free = id;
	ids->nfree++;
}

/*
 * Make room in the directory for one chunk more: a larger directory,
 * filled without the lock, which only this thread (holding @ids->grow)
 * writes; swapped in under the lock.
 */
static int hwt_ids_grow_dir(struct hwt_file *hf, gfp_t gfp)
{
	struct hwt_ids *ids = &hf->ids;
	struct hwt_utimer **dir, **old;
	u32 size = max(2 * ids->dirsize, 8U);

	lockdep_assert_held(&ids->grow);
	dir = kvmalloc_array(size, sizeof(*dir), gfp);
	if (!dir)
		return -ENOMEM;
	if (ids->nchunks)
		memcpy(dir, ids->dir, ids->nchunks * sizeof(*dir));
	hwt_lock(hf);
	old = ids->dir;
	ids->dir = dir;
	ids->dirsize = size;
	hwt_unlock(hf);
	kvfree(old);
	return 0;
}

/**
 * hwt_ids_reserve() - make room for @n ids without the lock
 * @hf: the file, its lock not held
 * @n: ids about to be taken, at most HWT_IDS_SPARE
 * @nowait: io_uring's inline issue: -EAGAIN rather than wait for the
 *	    table's mutex or for memory
 *
 * Adds chunks until @n entries are free; other threads may still take them
 * first, so callers that find none left under the lock drop it and call
 * again. A chunk's entries beyond the spare ones are charged to the user
 * when it is put in (hwt_ids_units()): never when the table was full.
 *
 * Context: process context, no lock held; may sleep unless @nowait.
 * Return: 0; -ENOSPC if the table holds HWT_ID_MAX entries and fewer than @n
 * are free, -EDQUOT past the user's max_timers_per_user, -ENOMEM, or
 * -EAGAIN (@nowait only).
 */
int hwt_ids_reserve(struct hwt_file *hf, u32 n, bool nowait)
{
	gfp_t gfp = nowait ? GFP_NOWAIT | __GFP_ACCOUNT | __GFP_NOWARN :
			     GFP_KERNEL_ACCOUNT;
	struct hwt_ids *ids = &hf->ids;
	int ret = 0;

	/* a look without the lock says whether to take it: it only grows */
	if (data_race(hwt_ids_room(ids)) >= n)
		return 0;
	if (!nowait)
		mutex_lock(&ids->grow);
	else if (!mutex_trylock(&ids->grow))
		return -EAGAIN;
	for (;;) {
		u32 room, have = ids->cap, cap, extra = 0;
		struct hwt_utimer *chunk;

		hwt_lock(hf);
		room = hwt_ids_room(ids);
		hwt_unlock(hf);
		if (room >= n)
			break;
		cap = min_t(u32, hwt_ids_cap(ids->nchunks + 1), HWT_ID_MAX);
		if (cap <= have) {
			ret = -ENOSPC;
			break;
		}
		ret = nowait ? -EAGAIN : -ENOMEM;
		if (ids->nchunks == ids->dirsize && hwt_ids_grow_dir(hf, gfp))
			break;
		chunk = kmalloc((cap - have) * sizeof(*chunk), gfp);
		if (!chunk)
			break;
		/* what the chunk costs depends on the room it joins: locked */
		lockdep_assert_held(&ids->grow);
		hwt_lock(hf);
		room = hwt_ids_room(ids);
		extra = hwt_ids_units(cap, room + cap - have) -
			hwt_ids_units(have, room);
		ret = extra && !hwt_charge(hf, extra) ? -EDQUOT : 0;
		if (!ret) {
			ids->dir[ids->nchunks++] = chunk;
			ids->cap = cap;
		}
		hwt_unlock(hf);
		if (ret) {
			kfree(chunk);
			break;
		}
	}
	mutex_unlock(&ids->grow);
	return ret;
}

/*
 * Leave @ids empty, holding no chunk, as a new file's table starts; the
 * ids it handed out stay counted (@hwm).
 */
static void hwt_ids_reset(struct hwt_ids *ids)
{
	ids->dir = NULL;
	ids->dirsize = 0;
	ids->nchunks = 0;
	ids->cap = 0;
	ids->top = 0;
	ids->free = 0;
	ids->nfree = 0;
}

/* Free @ids' chunks and directory, which nothing can look at any more. */
static void hwt_ids_free(struct hwt_utimer **dir, u32 nchunks)
{
	while (nchunks)
		kfree(dir[--nchunks]);
	kvfree(dir);
}

/**
 * hwt_ids_shrink() - give back the table of a file that holds no timer
 * @hf: the file, its lock not held
 *
 * A file's table only grows while it has timers: entries in use cannot
 * move. Once it holds none, every entry is free, so the table goes, unless
 * it is the first chunk alone, and the next ADD starts a small one again,
 * from id 1. DRAIN and CANCEL call this; a file emptied by its AUTOREMOVE
 * timers keeps its table until one of them runs.
 *
 * Context: process context, no lock held; may sleep.
 */
void hwt_ids_shrink(struct hwt_file *hf)
{
	struct hwt_ids *ids = &hf->ids;
	struct hwt_utimer **dir = NULL;
	u32 units = 0, nchunks = 0;

	/* a look without the lock says whether to take it: checked again */
	if (data_race(hf->ntimers) || data_race(ids->cap) <= HWT_IDS_CHUNK0)
		return;
	mutex_lock(&ids->grow);
	hwt_lock(hf);
	if (!hf->ntimers && ids->cap > HWT_IDS_CHUNK0) {
		units = hwt_ids_units(ids->cap, hwt_ids_room(ids));
		dir = ids->dir;
		nchunks = ids->nchunks;
		hwt_ids_reset(ids);
	}
	hwt_unlock(hf);
	mutex_unlock(&ids->grow);
	hwt_uncharge(hf, units);
	hwt_ids_free(dir, nchunks);
}

/**
 * hwt_ids_next() - the timer of the lowest id at or after *@pos
 * @ids: the file's table, its lock held
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
		struct hwt_utimer *t = hwt_ids_entry(ids, i - 1);

		--*scan;
		if (t->id) {
			*pos = i + 1;
			return t;
		}
	}
	*pos = i;
	return NULL;
}

/*
 * Free a closing file's table, and give back what it was charged: its
 * timers' entries with the rest.
 */
void hwt_ids_destroy(struct hwt_file *hf)
{
	struct hwt_ids *ids = &hf->ids;

	hwt_uncharge(hf, hwt_ids_units(ids->cap, hwt_ids_room(ids)));
	hwt_ids_free(ids->dir, ids->nchunks);
	hwt_ids_reset(ids);
}
