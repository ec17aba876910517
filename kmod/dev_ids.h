/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _HWT_DEV_IDS_H
#define _HWT_DEV_IDS_H

#include "dev.h"

/* Write entry @i, and its copy if the array is growing past it. */
static inline void hwt_ids_set(struct hwt_ids *ids, u32 i, unsigned long v)
{
	ids->entry[i] = v;
	if (unlikely(ids->next) && i < ids->copied)
		ids->next[i] = v;
}

/* The timer of @id, or NULL; the file's lock held. */
static inline struct hwt_utimer *hwt_lookup(struct hwt_file *hf, u32 id)
{
	const struct hwt_ids *ids = &hf->ids;
	unsigned long v;

	lockdep_assert_held(&hf->lock);
	/* id 0 wraps past @top */
	if (id - 1 >= ids->top)
		return NULL;
	v = ids->entry[id - 1];
	return v & 1 ? NULL : (struct hwt_utimer *)v;
}

/* entries a walk of the ids looks at per hold of the lock (hwt_ids_next()) */
#define HWT_IDS_SCAN	4096

/* Whether a walk of the ids that stopped at @pos has entries left to see. */
static inline bool hwt_ids_more(const struct hwt_ids *ids, u32 pos)
{
	return pos <= ids->top;
}

/* Put @t in the entry of its id, in place of the timer it replaces. */
static inline void hwt_ids_replace(struct hwt_file *hf, struct hwt_utimer *t)
{
	hwt_ids_set(&hf->ids, t->id - 1, (unsigned long)t);
}

u32 hwt_ids_get(struct hwt_ids *ids, struct hwt_utimer *t);
void hwt_ids_put(struct hwt_ids *ids, u32 id);
int hwt_ids_reserve(struct hwt_file *hf, u32 n);
void hwt_ids_shrink(struct hwt_file *hf);
u32 hwt_ids_charged(u32 cap);
struct hwt_utimer *hwt_ids_next(struct hwt_ids *ids, u32 *pos, u32 *scan);
void hwt_ids_destroy(struct hwt_file *hf);

#endif /* _HWT_DEV_IDS_H */
