// SPDX-License-Identifier: GPL-2.0
/*
 * /dev/hwtimer: a file's life. open() and the last close() (release),
 * /proc/PID/fdinfo, and the misc device with its sysfs files. The design
 * is in dev.h, the userspace contract in Documentation/userspace-api/hwtimer.rst.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/cred.h>
#include <linux/fs.h>
#include <linux/miscdevice.h>
#include <linux/module.h>
#include <linux/sched.h>
#include <linux/seq_file.h>
#include <linux/slab.h>

#include "dev.h"
#include "dev_account.h"
#include "dev_clockset.h"
#include "dev_expiry.h"
#include "dev_file.h"
#include "dev_ids.h"
#include "dev_ioctl.h"
#include "dev_read.h"
#include "dev_ring.h"
#include "dev_signal.h"
#include "dev_uring.h"
#include "hwt_trace.h"
#include "sysfs.h"

#define HWT_FREE_CHUNK	256	/* timers freed per lock hold on release */

/*
 * /proc/PID/fdinfo/FD: the file's timers, queue and counters, one
 * "key:\tvalue" per line like timerfd's. Counters are the file's own plus
 * its bases'.
 */
static void hwt_show_fdinfo(struct seq_file *m, struct file *file)
{
	struct hwt_file *hf = file->private_data;
	struct hwt_stats st;
	unsigned int clk, i, pending = 0;

	hwt_lock(hf);
	st = hf->stats;
	for (clk = 0; clk < HWT_NR_CLOCKS; clk++) {
		const struct hwt_stats *b = &hf->base[clk].stats;

		if (!test_bit_acquire(clk, &hf->clocks))
			continue;
		pending += hwt_base_pending(&hf->base[clk]);
		hwt_stats_fold(&st, b);
	}
	seq_printf(m, "timers:\t%u\n", hf->ntimers);
	/* the table's entries; the key predates that word */
	seq_printf(m, "id_slots:\t%u\n", hf->ids.cap);
	seq_printf(m, "pending:\t%u\n", pending);
	seq_printf(m, "ready:\t%u\n", hf->nready);
	seq_printf(m, "max_timers:\t%u\n",
		   min(READ_ONCE(hwt_max_timers_per_fd), HWT_ID_MAX));
	/* in timers, as max_timers_per_user counts: see dev_account.c */
	seq_printf(m, "charged:\t%lu\n",
		   hwt_file_units + hweight_long(READ_ONCE(hf->clocks)) *
		   hwt_base_units + hwt_ids_units_of(&hf->ids) +
		   hf->nexts * HWT_UEXT_UNITS);
	seq_printf(m, "user_charged:\t%ld\n", hwt_user_charged(hf));
	seq_printf(m, "eventfd:\t%d\n", !!hf->efd);
	seq_printf(m, "rearms_per_s:\t%lu\n", hf->rearms);
	seq_printf(m, "slack:\t%llu\n", hf->slack);
	hwt_ring_show(m, hf);
	hwt_unlock(hf);
	for (i = 0; i < HWT_NR_COUNTERS; i++)
		seq_printf(m, "%s:\t%llu\n", hwt_counter_names[i], st.count[i]);
	for (i = 0; i < HWT_NR_MAXIMA; i++)
		seq_printf(m, "%s:\t%llu\n", hwt_maximum_names[i], st.max[i]);
	seq_puts(m, "lateness_hist:\t");
	for (i = 0; i < HWT_HIST_BUCKETS; i++)
		seq_printf(m, "%s%llu", i ? " " : "", st.late_hist[i]);
	seq_putc(m, '\n');
}

static int hwt_open(struct inode *inode, struct file *file)
{
	struct hwt_file *hf;
	int ret;

	hf = kzalloc(sizeof(*hf), GFP_KERNEL_ACCOUNT);
	if (!hf)
		return -ENOMEM;
	ret = hwt_user_get(hf, file->f_cred);
	if (ret) {
		kfree(hf);
		return ret;
	}
	/* the file counts against its user's timers, as its bases will */
	if (!hwt_charge(hf, hwt_file_units)) {
		hwt_user_put(hf);
		kfree(hf);
		return -EDQUOT;
	}
	spin_lock_init(&hf->lock);
	hf->rec_size = HWTIMER_RECORD_SIZE_VER0;
	/* the opener's prctl(PR_SET_TIMERSLACK), as its nanosleep() gets */
	if (current->timer_slack_ns != current->default_timer_slack_ns)
		hf->slack = min_t(u64, current->timer_slack_ns,
				  hwt_geo.max_delay);
	mutex_init(&hf->setup);
	mutex_init(&hf->read_lock);
	spin_lock_init(&hf->sig_lock);
	INIT_LIST_HEAD(&hf->sig_left);
	INIT_WORK(&hf->sig_work, hwt_signals_left);
	hf->reader_cpu = -1;
	mutex_init(&hf->ids.grow);
	INIT_LIST_HEAD(&hf->cos_link);
	init_waitqueue_head(&hf->wq);
	file->private_data = hf;
	return stream_open(inode, file);
}

static int hwt_release(struct inode *inode, struct file *file)
{
	struct hwt_file *hf = file->private_data;
	struct hwt_utimer *t;
	unsigned int n;
	u32 pos = 1;
	bool more;

	/* 1. no expiry may re-arm a base's hrtimer any more */
	hwt_lock(hf);
	hf->dead = true;
	hwt_unlock(hf);
	/* ... nor a clock set withdraw a timer */
	hwt_cos_leave(hf);
	/* 2. wait for running expiries, and disarm */
	hwt_file_bases_stop(hf);
	/*
	 * 3. nothing else can touch the timers now: free what they have
	 * besides their entries, a chunk at a time, giving the CPU up in between
	 */
	do {
		u32 scan = HWT_IDS_SCAN;

		n = 0;
		hwt_lock(hf);
		while ((t = hwt_ids_next(&hf->ids, &pos, &scan))) {
			/* closing the file cancels what was pending */
			if (t->state == HWT_U_PENDING) {
				hwt_stat_add(&hf->stats, HWT_C_CANCELLED, 1);
				trace_hwt_cancel(hwt_uclockid(t->clk), &t->node,
						 t->id, t->node.expires);
			}
			if (t->flags & HWT_U_EXT)
				hwt_uext_free(t->ext);
			if (++n == HWT_FREE_CHUNK)
				break;
		}
		more = hwt_ids_more(&hf->ids, pos);
		hwt_unlock(hf);
		cond_resched();
	} while (more);
	/* 4. give back what was charged, and free the rest */
	hwt_file_uncharge(hf);
	hwt_ids_destroy(hf);
	hwt_file_bases_free(hf);
	hwt_efd_put(hf->efd);
	hwt_efd_put(hf->last_efd);
	hwt_ring_free(hf);
	hwt_user_put(hf);
	mutex_destroy(&hf->ids.grow);
	mutex_destroy(&hf->read_lock);
	mutex_destroy(&hf->setup);
	kfree(hf->rbuf);
	kfree(hf);
	return 0;
}

static const struct file_operations hwt_fops = {
	.owner = THIS_MODULE,
	.open = hwt_open,
	.release = hwt_release,
	.read = hwt_read,
	.poll = hwt_poll,
	.unlocked_ioctl = hwt_ioctl,
	.compat_ioctl = compat_ptr_ioctl,
	.show_fdinfo = hwt_show_fdinfo,
	.mmap = hwt_mmap,
#ifdef CONFIG_IO_URING
	.uring_cmd = hwt_uring_cmd,
#endif
};

static struct miscdevice hwt_misc = {
	.minor = MISC_DYNAMIC_MINOR,
	.name = "hwtimer",
	.fops = &hwt_fops,
	.groups = hwt_sysfs_groups,
	.mode = 0666,	/* like timerfd, anyone may have timers */
};

/* The workers bases hand a backlog to: per CPU, nice -20 (base.h) */
struct workqueue_struct *hwt_pass_wq;

int hwt_dev_init(void)
{
	int ret;

	hwt_pass_wq = alloc_workqueue("hwtimer_pass", WQ_HIGHPRI, 0);
	if (!hwt_pass_wq)
		return -ENOMEM;
	ret = hwt_account_init();
	if (ret)
		goto fail_wq;
	ret = hwt_sysfs_init();
	if (ret)
		goto fail;
	ret = hwt_clockset_init();
	if (ret)
		goto fail_sysfs;
	ret = misc_register(&hwt_misc);
	if (ret)
		goto fail_clockset;
	return 0;
fail_clockset:
	hwt_clockset_exit();
fail_sysfs:
	hwt_sysfs_exit();
fail:
	hwt_account_exit();
fail_wq:
	destroy_workqueue(hwt_pass_wq);
	return ret;
}

void hwt_dev_exit(void)
{
	misc_deregister(&hwt_misc);
	hwt_clockset_exit();
	hwt_sysfs_exit();
	hwt_account_exit();
	destroy_workqueue(hwt_pass_wq);
}
