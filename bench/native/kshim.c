// SPDX-License-Identifier: GPL-2.0
/*
 * The out-of-line half of bench/native/include/kshim: the kernel
 * infrastructure the module's op path calls, for one task on one CPU,
 * compiled apart so that callgrind counts each call as the kernel makes
 * it, under the kernel's name (bench/op_breakdown.py sorts them into
 * categories by name). What each costs here against the kernel is said
 * where it is defined; bench/native/README sums it up.
 */
#include <linux/hrtimer.h>
#include <linux/io_uring.h>
#include <linux/mm.h>
#include <linux/sched.h>
#include <linux/spinlock.h>
#include <linux/timer.h>
#include <linux/workqueue.h>

#include "kshim/trace.h"

struct task_struct kshim_task;
struct user_namespace init_user_ns;
unsigned long volatile jiffies;
unsigned long kshim_irq_on = 1;
struct kshim_hrtimer_stats kshim_hrtimers;
unsigned long kshim_pins;
struct miscdevice *kshim_misc;

static noinline void kshim_deadlock(void *l)
{
	fprintf(stderr, "op_bench: lock %p taken twice\n", l);
	abort();
}

/*
 * Locks: a test and a store. The kernel's (non-debug, x86-64) are calls
 * too, each a cli or pushf/cli, a preempt count increment and a lock
 * cmpxchg, and on unlock a byte store, sti or popf and the preempt count's
 * decrement and test: a few instructions more, and the cmpxchg's cycles.
 */
void _raw_spin_lock(void *l)
{
	int *locked = l;

	if (*locked)
		kshim_deadlock(l);
	*locked = 1;
}

void _raw_spin_unlock(void *l)
{
	*(int *)l = 0;
}

void _raw_spin_lock_irq(void *l)
{
	kshim_irq_on = 0;
	_raw_spin_lock(l);
}

void _raw_spin_unlock_irq(void *l)
{
	*(int *)l = 0;
	kshim_irq_on = 1;
}

unsigned long _raw_spin_lock_irqsave(void *l)
{
	unsigned long flags = kshim_irq_on;

	kshim_irq_on = 0;
	_raw_spin_lock(l);
	return flags;
}

void _raw_spin_unlock_irqrestore(void *l, unsigned long flags)
{
	*(int *)l = 0;
	kshim_irq_on = flags;
}

void _raw_spin_lock_bh(void *l)
{
	_raw_spin_lock(l);
}

void _raw_spin_unlock_bh(void *l)
{
	_raw_spin_unlock(l);
}

void mutex_lock(struct mutex *m)
{
	_raw_spin_lock(&m->locked);
}

int mutex_trylock(struct mutex *m)
{
	if (m->locked)
		return 0;
	m->locked = 1;
	return 1;
}

void mutex_unlock(struct mutex *m)
{
	m->locked = 0;
}

int mutex_lock_interruptible(struct mutex *m)
{
	mutex_lock(m);
	return 0;
}

/*
 * Clocks: the fake time, read with a load. The kernel's ktime_get_ns() is
 * a seqcount loop around the clocksource's read (rdtsc, through an
 * indirect call), a multiply and a shift, some 30-60 instructions; the
 * coarse clock is the seqcount loop and a load.
 */
static u64 kshim_now = 1000 * (u64)NSEC_PER_SEC;
static const u64 kshim_boot_off = 5 * (u64)NSEC_PER_SEC;
static const u64 kshim_real_off = 1700000000 * (u64)NSEC_PER_SEC;
#define KSHIM_TICK_NS	(NSEC_PER_SEC / HZ)

void kshim_clock_advance(u64 ns)
{
	kshim_now += ns;
	jiffies = kshim_now / KSHIM_TICK_NS;
}

u64 ktime_get_ns(void)
{
	return READ_ONCE(kshim_now);
}

u64 ktime_get_boottime_ns(void)
{
	return READ_ONCE(kshim_now) + kshim_boot_off;
}

u64 ktime_get_real_ns(void)
{
	return READ_ONCE(kshim_now) + kshim_real_off;
}

u64 ktime_get_coarse_ns(void)
{
	u64 now = READ_ONCE(kshim_now);

	return now - now % KSHIM_TICK_NS;
}

u64 ktime_get_coarse_boottime_ns(void)
{
	return ktime_get_coarse_ns() + kshim_boot_off;
}

unsigned long long sched_clock(void)
{
	return READ_ONCE(kshim_now);
}

/* what the module timed its passes on before hwt_cpu_clock() */
u64 local_clock(void)
{
	return sched_clock();
}

ktime_t ktime_mono_to_real(ktime_t mono)
{
	return mono + (ktime_t)kshim_real_off;
}

/* hrtimers: armed and cancelled on paper; they never fire */
void hrtimer_init(struct hrtimer *t, clockid_t clockid, enum hrtimer_mode mode)
{
	memset(t, 0, sizeof(*t));
}

void hrtimer_start_range_ns(struct hrtimer *t, ktime_t tim, u64 range,
			    enum hrtimer_mode mode)
{
	t->softexpires = tim;
	t->expires = tim + (ktime_t)range;
	t->queued = true;
	kshim_hrtimers.starts++;
}

int hrtimer_try_to_cancel(struct hrtimer *t)
{
	int was = t->queued;

	t->queued = false;
	kshim_hrtimers.cancels++;
	return was;
}

int hrtimer_cancel(struct hrtimer *t)
{
	return hrtimer_try_to_cancel(t);
}

int del_timer(struct timer_list *t)
{
	KSHIM_NOT_HERE();
}

/*
 * The slab: malloc(). SLUB's fast path is a per-CPU freelist pop with a
 * cmpxchg16b, about as long as glibc's tcache path, and memcg accounting
 * (GFP_KERNEL_ACCOUNT) adds to it.
 */
void *kmalloc(size_t size, gfp_t gfp)
{
	return gfp & __GFP_ZERO ? calloc(1, size) : malloc(size);
}

void *kzalloc(size_t size, gfp_t gfp)
{
	return calloc(1, size);
}

void kfree(const void *p)
{
	free((void *)p);
}

/* the kmalloc size classes: 8 .. 192 as the kernel's, then powers of two */
size_t kmalloc_size_roundup(size_t size)
{
	static const size_t classes[] = { 8, 16, 32, 64, 96, 128, 192 };
	size_t c = 256;
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(classes); i++)
		if (size <= classes[i])
			return classes[i];
	while (c < size)
		c <<= 1;
	return c;
}

struct kmem_cache *kmem_cache_create(const char *name, unsigned int size,
				     unsigned int align, unsigned int flags,
				     void (*ctor)(void *))
{
	struct kmem_cache *s = malloc(sizeof(*s));

	if (s)
		s->size = size;
	return s;
}

void kmem_cache_destroy(struct kmem_cache *s)
{
	free(s);
}

void *kmem_cache_zalloc(struct kmem_cache *s, gfp_t gfp)
{
	return calloc(1, s->size);
}

void kmem_cache_free(struct kmem_cache *s, void *p)
{
	free(p);
}

/*
 * User memory is this process's: a copy is a memcpy(). The kernel's
 * _copy_from_user() adds might_fault(), access_ok(), stac/clac and, on a
 * CPU with FSRM, one rep movsb (many instructions to an instruction
 * counter that counts its iterations, as QEMU's icount does).
 */
unsigned long _copy_from_user(void *to, const void __user *from,
			      unsigned long n)
{
	memcpy(to, from, n);
	return 0;
}

unsigned long _copy_to_user(void __user *to, const void *from,
			    unsigned long n)
{
	memcpy(to, from, n);
	return 0;
}

unsigned long clear_user(void __user *to, unsigned long n)
{
	memset(to, 0, n);
	return 0;
}

int check_zeroed_user(const void __user *from, size_t size)
{
	const unsigned char *p = from;

	while (size--)
		if (*p++)
			return 0;
	return 1;
}

/* lib/string.c's memchr_inv(), bytewise */
void *memchr_inv(const void *start, int c, size_t bytes)
{
	const unsigned char *p = start;

	for (; bytes; p++, bytes--)
		if (*p != (unsigned char)c)
			return (void *)p;
	return NULL;
}

/*
 * Pinning: the user pages' addresses, counted. The kernel walks the page
 * tables (GUP-fast) and takes a folio reference per page, and unpinning
 * drops it and dirties the folio: per page and way, tens of instructions
 * with atomics, none of which is here.
 */
int pin_user_pages_fast(unsigned long start, int nr_pages,
			unsigned int gup_flags, struct page **pages)
{
	int i;

	for (i = 0; i < nr_pages; i++)
		pages[i] = (struct page *)(start + (unsigned long)i * PAGE_SIZE);
	kshim_pins += nr_pages;
	return nr_pages;
}

void unpin_user_pages(struct page **pages, unsigned long npages)
{
	kshim_pins -= npages;
}

void unpin_user_pages_dirty_lock(struct page **pages, unsigned long npages,
				 bool make_dirty)
{
	kshim_pins -= npages;
}

size_t copy_from_iter(void *addr, size_t bytes, struct iov_iter *i)
{
	KSHIM_NOT_HERE();
}

size_t copy_to_iter(const void *addr, size_t bytes, struct iov_iter *i)
{
	KSHIM_NOT_HERE();
}

void iov_iter_advance(struct iov_iter *i, size_t bytes)
{
	KSHIM_NOT_HERE();
}

/* one CPU */
int smp_call_function_single_async(int cpu, call_single_data_t *csd)
{
	KSHIM_NOT_HERE();
}

void on_each_cpu(void (*func)(void *), void *info, int wait)
{
	func(info);
}

int cpuhp_setup_state(enum cpuhp_state state, const char *name,
		      int (*startup)(unsigned int cpu),
		      int (*teardown)(unsigned int cpu))
{
	int ret = startup ? startup(0) : 0;

	return ret < 0 ? ret : (int)state;
}

void cpuhp_remove_state(int state)
{
}

/* work items: none is queued on the op path */
struct workqueue_struct *alloc_workqueue(const char *fmt, unsigned int flags,
					 int max_active, ...)
{
	static struct workqueue_struct wq;

	return &wq;
}

void destroy_workqueue(struct workqueue_struct *wq)
{
}

bool queue_work(struct workqueue_struct *wq, struct work_struct *work)
{
	KSHIM_NOT_HERE();
}

bool cancel_work(struct work_struct *work)
{
	KSHIM_NOT_HERE();
}

bool cancel_work_sync(struct work_struct *work)
{
	return false;
}

bool flush_work(struct work_struct *work)
{
	return false;
}

void __wake_up(wait_queue_head_t *q, unsigned int mode, int nr, void *key)
{
	KSHIM_NOT_HERE();
}

/* eventfds: the bench's ADDs have none */
struct eventfd_ctx *eventfd_ctx_fdget(int fd)
{
	KSHIM_NOT_HERE();
}

void eventfd_ctx_put(struct eventfd_ctx *ctx)
{
	KSHIM_NOT_HERE();
}

void eventfd_signal(struct eventfd_ctx *ctx)
{
	KSHIM_NOT_HERE();
}

/* the xarray of the users' accounts: a list */
struct kshim_xa_entry {
	struct kshim_xa_entry *next;
	unsigned long index;
	void *entry;
};

void *xa_load(struct xarray *xa, unsigned long index)
{
	struct kshim_xa_entry *e;

	for (e = xa->head; e; e = e->next)
		if (e->index == index)
			return e->entry;
	return NULL;
}

void *xa_store(struct xarray *xa, unsigned long index, void *entry, gfp_t gfp)
{
	struct kshim_xa_entry *e = malloc(sizeof(*e));

	if (!e)
		abort();
	e->index = index;
	e->entry = entry;
	e->next = xa->head;
	xa->head = e;
	return NULL;
}

void *xa_erase(struct xarray *xa, unsigned long index)
{
	struct kshim_xa_entry **p, *e;

	for (p = &xa->head; (e = *p); p = &e->next) {
		if (e->index == index) {
			void *old = e->entry;

			*p = e->next;
			free(e);
			return old;
		}
	}
	return NULL;
}

/* files and the misc device */
long compat_ptr_ioctl(struct file *file, unsigned int cmd, unsigned long arg)
{
	KSHIM_NOT_HERE();
}

int misc_register(struct miscdevice *misc)
{
	kshim_misc = misc;
	return 0;
}

void misc_deregister(struct miscdevice *misc)
{
	kshim_misc = NULL;
}

void io_uring_cmd_done(struct io_uring_cmd *cmd, ssize_t ret, u64 res2,
		       unsigned int issue_flags)
{
	KSHIM_NOT_HERE();
}
