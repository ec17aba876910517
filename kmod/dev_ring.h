/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _HWT_DEV_RING_H
#define _HWT_DEV_RING_H

#include "dev.h"

struct hwt_signals;
struct seq_file;
struct vm_area_struct;

/*
 * What one hold of the file's lock puts into the ring: the room it has,
 * read once, and where @prod was when it began.
 */
struct hwt_ring_pass {
	u32 room;
	u32 start;
};

long hwt_ioc_ring_setup(struct hwt_file *hf, void __user *uarg, size_t usize);
long hwt_ioc_ring_flush(struct hwt_file *hf);
int hwt_mmap(struct file *file, struct vm_area_struct *vma);
void hwt_ring_begin(struct hwt_file *hf, struct hwt_ring_pass *p);
bool hwt_ring_put(struct hwt_file *hf, struct hwt_ring_pass *p,
		  struct hwt_utimer *t, struct hwt_nows *nows);
void hwt_ring_end(struct hwt_file *hf, struct hwt_ring_pass *p,
		  struct hwt_signals *sig);
void hwt_ring_queue_changed(struct hwt_file *hf, unsigned int full);
bool hwt_ring_readable(struct hwt_file *hf);
void hwt_ring_show(struct seq_file *m, struct hwt_file *hf);
void hwt_ring_free(struct hwt_file *hf);

#endif /* _HWT_DEV_RING_H */
