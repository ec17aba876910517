/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _HWT_DEV_IDS_H
#define _HWT_DEV_IDS_H

#include "dev.h"

/* entries of a file's first chunk, and of each later one (a page) */
#define HWT_IDS_CHUNK0		12
#define HWT_IDS_PER_CHUNK	(PAGE_SIZE / sizeof(struct hwt_utimer))

/* The entry of id @i + 1, which the table has (@i below @ids->cap). */
static inline struct hwt_utimer *hwt_ids_entry(const struct hwt_ids *ids,
					       u32 i)
{
	if (i < HWT_IDS_CHUNK0)
		return &ids->dir[0][i];
	i -= HWT_IDS_CHUNK0;
	return &ids->dir[1 + i / HWT_IDS_PER_CHUNK][i % HWT_IDS_PER_CHUNK];
}

/* The timer of @id, or NULL; the file's lock held. */
static inline struct hwt_utimer *hwt_lookup(struct hwt_file *hf, u32 id)
{
	const struct hwt_ids *ids = &hf->ids;
	struct hwt_utimer *t;

	lockdep_assert_held(&hf->lock);
	/* id 0 wraps past @top */
	if (id - 1 >= ids->top)
		return NULL;
	t = hwt_ids_entry(ids, id - 1);
	return t->id == id ? t : NULL;
}

/* entries a walk of the ids looks at per hold of the lock (hwt_ids_next()) */
#define HWT_IDS_SCAN	4096

/* Whether a walk of the ids that stopped at @pos has entries left to see. */
static inline bool hwt_ids_more(const struct hwt_ids *ids, u32 pos)
{
	return pos <= ids->top;
}

struct hwt_utimer *hwt_ids_get(struct hwt_file *hf, unsigned int *prepaid);
unsigned int hwt_ids_prepay(struct hwt_file *hf, unsigned int adds);
u32 hwt_ids_units_of(const struct hwt_ids *ids);
void hwt_ids_put(struct hwt_file *hf, struct hwt_utimer *t);
int hwt_ids_reserve(struct hwt_file *hf, u32 n, bool nowait);
void hwt_ids_shrink(struct hwt_file *hf);
struct hwt_utimer *hwt_ids_next(struct hwt_ids *ids, u32 *pos, u32 *scan);
void hwt_ids_destroy(struct hwt_file *hf);

#endif /* _HWT_DEV_IDS_H */
