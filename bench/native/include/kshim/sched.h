/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The task, work items, wait queues, eventfds, credentials, files and the
 * misc device: what the module's files name, for a process with one task
 * that never sleeps. What the op path must not reach (a wake-up, an
 * eventfd, queued work) aborts the bench (KSHIM_NOT_HERE in kshim.c).
 */
#ifndef _KSHIM_SCHED_H
#define _KSHIM_SCHED_H

#include "kshim/core.h"
#include "kshim/sync.h"
#include "kshim/mm.h"

struct nsproxy;
typedef int __kernel_rwf_t;

struct task_struct {
	u64 timer_slack_ns;
	u64 default_timer_slack_ns;
	struct nsproxy *nsproxy;
};
extern struct task_struct kshim_task;
#define current		(&kshim_task)
/* no signal, never a reason to reschedule */
#define cond_resched()		((void)0)
#define task_sigpending(t)	((void)(t), 0)
#define signal_pending(t)	((void)(t), 0)
#define need_resched()		0

/* work items: initialised, never queued on the measured path */
struct work_struct;
typedef void (*work_func_t)(struct work_struct *work);
struct work_struct { work_func_t func; };
struct workqueue_struct { int unused; };
#define INIT_WORK(w, f)		((w)->func = (f))
#define WQ_UNBOUND	0x2
#define WQ_HIGHPRI	0x10
struct workqueue_struct *alloc_workqueue(const char *fmt, unsigned int flags,
					 int max_active, ...);
void destroy_workqueue(struct workqueue_struct *wq);
bool queue_work(struct workqueue_struct *wq, struct work_struct *work);
bool cancel_work(struct work_struct *work);
bool cancel_work_sync(struct work_struct *work);
bool flush_work(struct work_struct *work);

/* wait queues */
typedef struct { int unused; } wait_queue_head_t;
#define init_waitqueue_head(q)	((void)(q))
void __wake_up(wait_queue_head_t *q, unsigned int mode, int nr, void *key);
#define wake_up(q)		__wake_up(q, 1, 1, NULL)
#define wake_up_all(q)		__wake_up(q, 1, 0, NULL)
#define wake_up_interruptible(q) __wake_up(q, 1, 1, NULL)
#define wake_up_interruptible_poll(q, m) __wake_up(q, 1, 1, NULL)
#define wq_has_sleeper(q)	0
typedef struct poll_table_struct { int unused; } poll_table;
#define EPOLLIN		0x1
#define EPOLLRDNORM	0x40

/* eventfds */
struct eventfd_ctx;
struct eventfd_ctx *eventfd_ctx_fdget(int fd);
void eventfd_ctx_put(struct eventfd_ctx *ctx);
void eventfd_signal(struct eventfd_ctx *ctx);

/* credentials */
typedef unsigned int uid_t;
typedef struct { uid_t val; } kuid_t;
#define __kuid_val(uid)	((uid).val)
struct user_namespace {
	struct user_namespace *parent;
	kuid_t owner;
};
extern struct user_namespace init_user_ns;
struct cred {
	kuid_t euid;
	struct user_namespace *user_ns;
};

/* an xarray, for the users' accounts: a list, searched at open() only */
struct kshim_xa_entry;
struct xarray { struct kshim_xa_entry *head; };
#define DEFINE_XARRAY(name)	struct xarray name = { NULL }
void *xa_load(struct xarray *xa, unsigned long index);
void *xa_store(struct xarray *xa, unsigned long index, void *entry, gfp_t gfp);
void *xa_erase(struct xarray *xa, unsigned long index);
static inline int xa_err(void *entry) { return 0; }
static inline bool xa_empty(const struct xarray *xa) { return !xa->head; }

/* files and the misc device */
struct inode { int unused; };
struct seq_file { int unused; };
struct io_uring_cmd;
struct file;
struct file_operations {
	void *owner;
	int (*open)(struct inode *, struct file *);
	int (*release)(struct inode *, struct file *);
	ssize_t (*read)(struct file *, char __user *, size_t, loff_t *);
	__poll_t (*poll)(struct file *, poll_table *);
	long (*unlocked_ioctl)(struct file *, unsigned int, unsigned long);
	long (*compat_ioctl)(struct file *, unsigned int, unsigned long);
	void (*show_fdinfo)(struct seq_file *, struct file *);
	int (*mmap)(struct file *, struct vm_area_struct *);
	int (*uring_cmd)(struct io_uring_cmd *ioucmd, unsigned int issue_flags);
};
struct file {
	void *private_data;
	const struct cred *f_cred;
	const struct file_operations *f_op;
};
static inline int stream_open(struct inode *inode, struct file *file)
{
	return 0;
}
long compat_ptr_ioctl(struct file *file, unsigned int cmd, unsigned long arg);
struct attribute_group;
#define MISC_DYNAMIC_MINOR	255
struct miscdevice {
	int minor;
	const char *name;
	const struct file_operations *fops;
	const struct attribute_group **groups;
	unsigned short mode;
};
int misc_register(struct miscdevice *misc);
void misc_deregister(struct miscdevice *misc);
/* what misc_register() was given: the bench opens its fops */
extern struct miscdevice *kshim_misc;

static inline void seq_printf(struct seq_file *m, const char *fmt, ...) { }
static inline void seq_puts(struct seq_file *m, const char *s) { }
static inline void seq_putc(struct seq_file *m, char c) { }

#endif
