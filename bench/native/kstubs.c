// SPDX-License-Identifier: GPL-2.0
/*
 * The module's files that bench/op_bench.c does not build, and that its
 * op path never reaches: wake-ups (dev_signal.c), the expiry ring
 * (dev_ring.c), clock sets (dev_clockset.c), read() and poll()
 * (dev_read.c) and sysfs (sysfs.c). Their functions are named here, with
 * the module's own prototypes, so that the files the bench does build
 * link; each aborts the bench if it is reached, but those that set up or
 * tear down nothing on the path (init, and an absent eventfd's put).
 */
#include "dev.h"
#include "dev_clockset.h"
#include "dev_read.h"
#include "dev_ring.h"
#include "dev_signal.h"
#include "sysfs.h"

/* dev_signal.c */
struct hwt_efd *hwt_efd_new(struct eventfd_ctx *ctx)
{
	KSHIM_NOT_HERE();
}

void hwt_efd_put(struct hwt_efd *e)
{
	if (e)
		KSHIM_NOT_HERE();
}

void hwt_signal_later(struct hwt_file *hf, struct hwt_signals *sig,
		      struct hwt_efd *e)
{
	KSHIM_NOT_HERE();
}

void hwt_signals_wait(struct hwt_file *hf)
{
	KSHIM_NOT_HERE();
}

void hwt_signals_left(struct work_struct *work)
{
	KSHIM_NOT_HERE();
}

void hwt_signals_flush(struct hwt_file *hf)
{
	KSHIM_NOT_HERE();
}

void hwt_wake_readers(struct hwt_file *hf, struct hwt_signals *sig)
{
	KSHIM_NOT_HERE();
}

void hwt_unlock_signal(struct hwt_file *hf, struct hwt_signals *sig)
{
	KSHIM_NOT_HERE();
}

/* dev_ring.c */
long hwt_ioc_ring_setup(struct hwt_file *hf, void __user *uarg, size_t usize)
{
	KSHIM_NOT_HERE();
}

long hwt_ioc_ring_flush(struct hwt_file *hf)
{
	KSHIM_NOT_HERE();
}

int hwt_mmap(struct file *file, struct vm_area_struct *vma)
{
	KSHIM_NOT_HERE();
}

void hwt_ring_begin(struct hwt_file *hf, struct hwt_ring_pass *p)
{
	KSHIM_NOT_HERE();
}

bool hwt_ring_put(struct hwt_file *hf, struct hwt_ring_pass *p,
		  struct hwt_utimer *t, struct hwt_nows *nows)
{
	KSHIM_NOT_HERE();
}

void hwt_ring_end(struct hwt_file *hf, struct hwt_ring_pass *p,
		  struct hwt_signals *sig)
{
	KSHIM_NOT_HERE();
}

void hwt_ring_queue_changed(struct hwt_file *hf, unsigned int full)
{
	KSHIM_NOT_HERE();
}

bool hwt_ring_readable(struct hwt_file *hf)
{
	KSHIM_NOT_HERE();
}

void hwt_ring_show(struct seq_file *m, struct hwt_file *hf)
{
	KSHIM_NOT_HERE();
}

void hwt_ring_free(struct hwt_file *hf)
{
	KSHIM_NOT_HERE();
}

/* dev_clockset.c */
bool hwt_cos_stale(const struct hwt_file *hf)
{
	KSHIM_NOT_HERE();
}

void hwt_cos_withdrawn(struct hwt_file *hf, struct hwt_utimer *t, u64 now,
		       struct hwt_signals *sig)
{
	KSHIM_NOT_HERE();
}

void hwt_cos_sync(struct hwt_file *hf)
{
	KSHIM_NOT_HERE();
}

int hwt_cos_join(struct hwt_file *hf, bool nowait)
{
	KSHIM_NOT_HERE();
}

void hwt_cos_leave(struct hwt_file *hf)
{
	KSHIM_NOT_HERE();
}

int hwt_clockset_init(void)
{
	return 0;
}

void hwt_clockset_exit(void)
{
}

/* dev_read.c */
ssize_t hwt_read(struct file *file, char __user *buf, size_t count,
		 loff_t *ppos)
{
	KSHIM_NOT_HERE();
}

__poll_t hwt_poll(struct file *file, poll_table *wait)
{
	KSHIM_NOT_HERE();
}

/* sysfs.c */
const struct attribute_group *hwt_sysfs_groups[] = { NULL };

int hwt_sysfs_init(void)
{
	return 0;
}

void hwt_sysfs_exit(void)
{
}
