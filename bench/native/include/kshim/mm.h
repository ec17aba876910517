/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Memory: the slab as malloc(), user memory as the process's own (a user
 * pointer is a pointer), pinned pages as the user pages' addresses.
 * copy_{from,to}_user() are out of line as the kernel's are, a memcpy()
 * without the access_ok() check, the stac/clac pair and the fault table;
 * pin_user_pages_fast() and unpin_user_pages_dirty_lock() record the pin
 * and walk no page table, take no page reference: in the kernel they cost
 * a GUP-fast walk and a folio reference per page each way.
 */
#ifndef _KSHIM_MM_H
#define _KSHIM_MM_H

#include "kshim/core.h"

#define GFP_KERNEL		0x1u
#define GFP_NOWAIT		0x2u
#define __GFP_ACCOUNT		0x4u
#define __GFP_NOWARN		0x8u
#define __GFP_ZERO		0x10u
#define GFP_KERNEL_ACCOUNT	(GFP_KERNEL | __GFP_ACCOUNT)
#define SLAB_ACCOUNT		0x1u

void *kmalloc(size_t size, gfp_t gfp);
void *kzalloc(size_t size, gfp_t gfp);
void kfree(const void *p);
size_t kmalloc_size_roundup(size_t size);
#define kmalloc_array(n, size, gfp)	kmalloc((n) * (size), gfp)
#define kzalloc_node(size, gfp, node)	kzalloc(size, gfp)
#define kvmalloc_array(n, size, gfp)	kmalloc((n) * (size), gfp)
#define kvzalloc(size, gfp)		kzalloc(size, gfp)
#define kvfree(p)			kfree(p)

struct kmem_cache { size_t size; };
struct kmem_cache *kmem_cache_create(const char *name, unsigned int size,
				     unsigned int align, unsigned int flags,
				     void (*ctor)(void *));
void kmem_cache_destroy(struct kmem_cache *s);
void *kmem_cache_zalloc(struct kmem_cache *s, gfp_t gfp);
void kmem_cache_free(struct kmem_cache *s, void *p);

/* user memory */
unsigned long _copy_from_user(void *to, const void __user *from, unsigned long n);
unsigned long _copy_to_user(void __user *to, const void *from, unsigned long n);
#define copy_from_user(to, from, n)	_copy_from_user(to, from, n)
#define copy_to_user(to, from, n)	_copy_to_user(to, from, n)
#define put_user(x, ptr)	({ *(ptr) = (x); 0; })
#define get_user(x, ptr)	({ (x) = *(ptr); 0; })
void *memchr_inv(const void *start, int c, size_t bytes);
unsigned long clear_user(void __user *to, unsigned long n);
int check_zeroed_user(const void __user *from, size_t size);

/* <linux/uaccess.h>'s copy_struct_from_user(), as the kernel has it */
static __always_inline int copy_struct_from_user(void *dst, size_t ksize,
						 const void __user *src,
						 size_t usize)
{
	size_t size = min(ksize, usize);
	size_t rest = max(ksize, usize) - size;

	if (usize < ksize) {
		memset((char *)dst + size, 0, rest);
	} else if (usize > ksize) {
		int ret = check_zeroed_user((const char *)src + size, rest);

		if (ret <= 0)
			return ret ?: -E2BIG;
	}
	if (copy_from_user(dst, src, size))
		return -EFAULT;
	return 0;
}

/* pages: a struct page * is the page's address */
struct page;
#define FOLL_WRITE	0x01
#define FOLL_NOFAULT	0x02
int pin_user_pages_fast(unsigned long start, int nr_pages,
			unsigned int gup_flags, struct page **pages);
void unpin_user_pages(struct page **pages, unsigned long npages);
void unpin_user_pages_dirty_lock(struct page **pages, unsigned long npages,
				 bool make_dirty);
extern unsigned long kshim_pins;

static inline void *page_address(const struct page *page)
{
	return (void *)page;
}

#define kmap_local_page(page)	page_address(page)
#define kunmap_local(addr)	((void)(addr))

static inline void memcpy_from_page(char *to, struct page *page,
				    size_t offset, size_t len)
{
	char *from = kmap_local_page(page);

	memcpy(to, from + offset, len);
	kunmap_local(from);
}

static inline void memcpy_to_page(struct page *page, size_t offset,
				  const char *from, size_t len)
{
	char *to = kmap_local_page(page);

	memcpy(to + offset, from, len);
	kunmap_local(to);
}

/* io_uring's registered buffers: not modelled */
struct iov_iter { int unused; };
#define ITER_SOURCE	1
#define ITER_DEST	0
size_t copy_from_iter(void *addr, size_t bytes, struct iov_iter *i);
size_t copy_to_iter(const void *addr, size_t bytes, struct iov_iter *i);
void iov_iter_advance(struct iov_iter *i, size_t bytes);

struct vm_area_struct { vm_flags_t vm_flags; };

#endif
