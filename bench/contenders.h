/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What a timer facility would use instead of the wheel, for core_bench.c:
 * a binary heap (libuv), a 4-ary heap (Go), a red-black tree (hrtimer; the
 * BSD <sys/tree.h> from libbsd) and a model of the kernel's own timer_list
 * wheel. All sit behind the same operations (struct impl), on a fake clock
 * in ns. Included by core_bench.c after the wheel core.
 */
#ifndef _HWT_BENCH_CONTENDERS_H
#define _HWT_BENCH_CONTENDERS_H

#include <stdlib.h>
#include <string.h>

/* libbsd leaves __unused undefined (Debian #522773); its RB_GENERATE_STATIC needs it */
#define __unused __attribute__((__unused__))
#include <bsd/sys/tree.h>

/* the wheel's tick, 2^shift ns: the module's default unless -s says */
static unsigned int shift = 12;

/* An hlist, as the kernel's, for the timer_list model */
struct tl_node {
	struct tl_node *next, **pprev;
};

struct tl_head {
	struct tl_node *first;
};

static inline void tl_add_head(struct tl_node *n, struct tl_head *h)
{
	struct tl_node *first = h->first;

	n->next = first;
	if (first)
		first->pprev = &n->next;
	h->first = n;
	n->pprev = &h->first;
}

static inline void tl_del(struct tl_node *n)
{
	struct tl_node *next = n->next, **pprev = n->pprev;

	*pprev = next;
	if (next)
		next->pprev = pprev;
}

static inline bool tl_is_singular(struct tl_node *n, struct tl_head *h)
{
	return !n->next && n->pprev == &h->first;
}

/* hlist_move_list() onto the front of @to */
static inline void tl_splice(struct tl_head *from, struct tl_head *to)
{
	struct tl_node *first = from->first, *last = first;

	from->first = NULL;
	while (last->next)
		last = last->next;
	last->next = to->first;
	if (to->first)
		to->first->pprev = &last->next;
	to->first = first;
	first->pprev = &to->first;
}

/* One timer, with room for each structure's links. */
struct btimer {
	u64 expires;
	u64 slack;				/* geometry_bench() only */
	union {
		struct hwt_node node;			/* wheel */
		struct { u32 idx; } heap;		/* heaps: index in the array */
		struct {
			RB_ENTRY(btimer) rb;
			u64 seq;			/* ties broken by insertion */
		} rb;
		struct {
			struct tl_node entry;
			u32 idx;			/* its bucket */
		} tl;					/* timer_list model */
	};
	u32 pending;
};

struct impl {
	const char *name;
	size_t bytes;				/* per timer, links included */
	void (*init)(u64 now, size_t max);
	void (*fini)(void);
	void (*add)(struct btimer *t, u64 expires);
	void (*del)(struct btimer *t);
	void (*mod)(struct btimer *t, u64 expires);
	struct btimer *(*pop)(u64 now);		/* one due timer or NULL */
	bool (*next)(u64 *when);		/* earliest time one is due */
};


/* d-ary min-heaps of pointers, each timer knowing its index (libuv, Go) */

static struct btimer **heap;
static size_t heap_n;

static inline void heap_set(size_t i, struct btimer *t)
{
	heap[i] = t;
	t->heap.idx = (u32)i;
}

#define HEAP_FUNCS(D)							\
static void heap##D##_up(size_t i)					\
{									\
	struct btimer *t = heap[i];						\
									\
	while (i) {							\
		size_t p = (i - 1) / D;					\
									\
		if (heap[p]->expires <= t->expires)			\
			break;						\
		heap_set(i, heap[p]);					\
		i = p;							\
	}								\
	heap_set(i, t);							\
}									\
									\
static void heap##D##_down(size_t i)					\
{									\
	struct btimer *t = heap[i];						\
									\
	for (;;) {							\
		size_t c = i * D + 1, best = c, k;			\
									\
		if (c >= heap_n)					\
			break;						\
		for (k = 1; k < D && c + k < heap_n; k++)		\
			if (heap[c + k]->expires < heap[best]->expires)	\
				best = c + k;				\
		if (heap[best]->expires >= t->expires)			\
			break;						\
		heap_set(i, heap[best]);				\
		i = best;						\
	}								\
	heap_set(i, t);							\
}									\
									\
static void heap##D##_add(struct btimer *t, u64 expires)			\
{									\
	t->expires = expires;						\
	heap_set(heap_n++, t);						\
	heap##D##_up(heap_n - 1);					\
}									\
									\
static void heap##D##_del(struct btimer *t)					\
{									\
	size_t i = t->heap.idx;						\
									\
	if (i == --heap_n)						\
		return;							\
	heap_set(i, heap[heap_n]);					\
	heap##D##_down(i);						\
	heap##D##_up(heap[i]->heap.idx);				\
}									\
									\
static void heap##D##_mod(struct btimer *t, u64 expires)			\
{									\
	t->expires = expires;						\
	heap##D##_down(t->heap.idx);					\
	heap##D##_up(t->heap.idx);					\
}									\
									\
static struct btimer *heap##D##_pop(u64 now)				\
{									\
	struct btimer *t;							\
									\
	if (!heap_n || heap[0]->expires > now)				\
		return NULL;						\
	t = heap[0];							\
	heap##D##_del(t);						\
	return t;							\
}

HEAP_FUNCS(2)
HEAP_FUNCS(4)

static void heap_init(u64 now, size_t max)
{
	heap = malloc(max * sizeof(*heap));
	heap_n = 0;
}

static void heap_fini(void)
{
	free(heap);
}

static bool heap_next(u64 *when)
{
	if (!heap_n)
		return false;
	*when = heap[0]->expires;
	return true;
}

/* A red-black tree keyed by (expires, seq), as hrtimer's timerqueue */

static inline int tm_cmp(const struct btimer *a, const struct btimer *b)
{
	if (a->expires != b->expires)
		return a->expires < b->expires ? -1 : 1;
	return a->rb.seq < b->rb.seq ? -1 : a->rb.seq > b->rb.seq;
}

RB_HEAD(tmtree, btimer);
RB_GENERATE_STATIC(tmtree, btimer, rb.rb, tm_cmp)

static struct tmtree tree;
static struct btimer *tree_first;	/* cached leftmost, as timerqueue does */
static u64 tree_seq;

static void rb_init(u64 now, size_t max)
{
	RB_INIT(&tree);
	tree_first = NULL;
}

static void rb_fini(void)
{
}

static void rb_add(struct btimer *t, u64 expires)
{
	t->expires = expires;
	t->rb.seq = tree_seq++;
	RB_INSERT(tmtree, &tree, t);
	if (!tree_first || tm_cmp(t, tree_first) < 0)
		tree_first = t;
}

static void rb_del(struct btimer *t)
{
	if (t == tree_first)
		tree_first = RB_NEXT(tmtree, &tree, t);
	RB_REMOVE(tmtree, &tree, t);
}

static void rb_mod(struct btimer *t, u64 expires)
{
	rb_del(t);
	rb_add(t, expires);
}

static bool rb_next(u64 *when)
{
	if (!tree_first)
		return false;
	*when = tree_first->expires;
	return true;
}

static struct btimer *rb_pop(u64 now)
{
	struct btimer *t = tree_first;

	if (!t || t->expires > now)
		return NULL;
	rb_del(t);
	return t;
}

/*
 * The kernel's own wheel, as kernel/time/timer.c (6.12) keeps it: 9 levels
 * of 64 buckets, each 8 times coarser than the one below; the bucket picked
 * by the delay's magnitude, with the deadline rounded up to the bucket
 * (calc_wheel_index()); an hlist per bucket and a pending bit per bucket;
 * the bucket kept in the timer, so that a delete does no arithmetic; a
 * modify to the same bucket only updates the timer (mod_timer()); the next
 * expiry cached and looked up again lazily (next_expiry_recalc). It never
 * cascades: a timer fires with its bucket, up to an eighth of its delay
 * late. Its jiffy is the wheel's tick.
 */
#define TL_CLK_SHIFT	3
#define TL_CLK_DIV	(1UL << TL_CLK_SHIFT)
#define TL_CLK_MASK	(TL_CLK_DIV - 1)
#define TL_LVL_SHIFT(n)	((n) * TL_CLK_SHIFT)
#define TL_LVL_GRAN(n)	(1UL << TL_LVL_SHIFT(n))
#define TL_LVL_BITS	6
#define TL_LVL_SIZE	(1UL << TL_LVL_BITS)
#define TL_LVL_MASK	(TL_LVL_SIZE - 1)
#define TL_LVL_OFFS(n)	((n) * TL_LVL_SIZE)
#define TL_LVL_START(n)	((TL_LVL_SIZE - 1) << (((n) - 1) * TL_CLK_SHIFT))
#define TL_DEPTH	9
#define TL_CUTOFF	TL_LVL_START(TL_DEPTH)
#define TL_MAX		(TL_CUTOFF - TL_LVL_GRAN(TL_DEPTH - 1))
#define TL_NEXT_MAX	((1UL << 30) - 1)

static struct {
	unsigned long clk;
	unsigned long next_expiry;
	bool recalc;
	bool pending;
	u64 pending_map[TL_DEPTH];	/* a word per level */
	struct tl_head vectors[TL_DEPTH * TL_LVL_SIZE];
	struct tl_head expired;		/* buckets collected, being expired */
} tlb;

static inline unsigned int tl_calc_index(unsigned long expires,
					 unsigned int lvl,
					 unsigned long *bucket_expiry)
{
	expires = (expires >> TL_LVL_SHIFT(lvl)) + 1;
	*bucket_expiry = expires << TL_LVL_SHIFT(lvl);
	return TL_LVL_OFFS(lvl) + (expires & TL_LVL_MASK);
}

static unsigned int tl_wheel_index(unsigned long expires, unsigned long clk,
				   unsigned long *bucket_expiry)
{
	unsigned long delta = expires - clk;

	if (delta < TL_LVL_START(1))
		return tl_calc_index(expires, 0, bucket_expiry);
	if (delta < TL_LVL_START(2))
		return tl_calc_index(expires, 1, bucket_expiry);
	if (delta < TL_LVL_START(3))
		return tl_calc_index(expires, 2, bucket_expiry);
	if (delta < TL_LVL_START(4))
		return tl_calc_index(expires, 3, bucket_expiry);
	if (delta < TL_LVL_START(5))
		return tl_calc_index(expires, 4, bucket_expiry);
	if (delta < TL_LVL_START(6))
		return tl_calc_index(expires, 5, bucket_expiry);
	if (delta < TL_LVL_START(7))
		return tl_calc_index(expires, 6, bucket_expiry);
	if (delta < TL_LVL_START(8))
		return tl_calc_index(expires, 7, bucket_expiry);
	if ((long)delta < 0) {
		*bucket_expiry = clk;
		return clk & TL_LVL_MASK;
	}
	if (delta >= TL_CUTOFF)
		expires = clk + TL_MAX;
	return tl_calc_index(expires, TL_DEPTH - 1, bucket_expiry);
}

static void tl_enqueue(struct btimer *t, unsigned int idx,
		       unsigned long bucket_expiry)
{
	tl_add_head(&t->tl.entry, &tlb.vectors[idx]);
	tlb.pending_map[idx / TL_LVL_SIZE] |= 1ULL << (idx % TL_LVL_SIZE);
	t->tl.idx = idx;
	if ((long)(bucket_expiry - tlb.next_expiry) < 0) {
		tlb.next_expiry = bucket_expiry;
		tlb.pending = true;
		tlb.recalc = false;
	}
}

static void tl_detach(struct btimer *t)
{
	unsigned int idx = t->tl.idx;

	if (tl_is_singular(&t->tl.entry, &tlb.vectors[idx])) {
		tlb.pending_map[idx / TL_LVL_SIZE] &= ~(1ULL << (idx % TL_LVL_SIZE));
		tlb.recalc = true;
	}
	tl_del(&t->tl.entry);
}

static void tl_init(u64 now, size_t max)
{
	unsigned int i;

	tlb.clk = now >> shift;
	tlb.next_expiry = tlb.clk + TL_NEXT_MAX;
	tlb.recalc = false;
	tlb.pending = false;
	memset(tlb.pending_map, 0, sizeof(tlb.pending_map));
	for (i = 0; i < TL_DEPTH * TL_LVL_SIZE; i++)
		tlb.vectors[i].first = NULL;
	tlb.expired.first = NULL;
}

static void tl_fini(void)
{
}

/* mod_timer() of an idle timer: its deadline in jiffies, rounded down */
static void tl_add(struct btimer *t, u64 expires)
{
	unsigned long bucket_expiry, jif = expires >> shift;
	unsigned int idx = tl_wheel_index(jif, tlb.clk, &bucket_expiry);

	t->expires = expires;
	tl_enqueue(t, idx, bucket_expiry);
}

static void tl_cancel(struct btimer *t)
{
	tl_detach(t);
}

/* mod_timer() of a pending timer: the same bucket only updates it */
static void tl_mod(struct btimer *t, u64 expires)
{
	unsigned long bucket_expiry, jif = expires >> shift;
	unsigned int idx = tl_wheel_index(jif, tlb.clk, &bucket_expiry);

	if (idx == t->tl.idx) {
		t->expires = expires;
		return;
	}
	tl_detach(t);
	t->expires = expires;
	tl_enqueue(t, idx, bucket_expiry);
}

static int tl_next_pending(unsigned int lvl, unsigned int clk)
{
	u64 map = tlb.pending_map[lvl], after = map >> clk;

	if (after)
		return __builtin_ctzll(after);
	map &= (1ULL << clk) - 1;
	return map ? (int)(__builtin_ctzll(map) + TL_LVL_SIZE - clk) : -1;
}

/* next_timer_interrupt() */
static unsigned long tl_next_expiry(void)
{
	unsigned long clk = tlb.clk, next = tlb.clk + TL_NEXT_MAX, adj;
	unsigned int lvl;

	for (lvl = 0; lvl < TL_DEPTH; lvl++) {
		int pos = tl_next_pending(lvl, clk & TL_LVL_MASK);
		unsigned long lvl_clk = clk & TL_CLK_MASK;

		if (pos >= 0) {
			unsigned long tmp = (clk + (unsigned long)pos) <<
					    TL_LVL_SHIFT(lvl);

			if ((long)(tmp - next) < 0)
				next = tmp;
			if ((unsigned long)pos <= ((TL_CLK_DIV - lvl_clk) & TL_CLK_MASK))
				break;
		}
		adj = lvl_clk ? 1 : 0;
		clk >>= TL_CLK_SHIFT;
		clk += adj;
	}
	tlb.recalc = false;
	tlb.pending = next != tlb.clk + TL_NEXT_MAX;
	return next;
}

/* collect_expired_timers(): the buckets due at the next expiry */
static void tl_collect(void)
{
	unsigned long clk = tlb.clk = tlb.next_expiry;
	unsigned int i;

	for (i = 0; i < TL_DEPTH; i++) {
		unsigned int idx = (clk & TL_LVL_MASK) + i * TL_LVL_SIZE;
		u64 bit = 1ULL << (idx % TL_LVL_SIZE);

		if (tlb.pending_map[i] & bit) {
			tlb.pending_map[i] &= ~bit;
			tl_splice(&tlb.vectors[idx], &tlb.expired);
		}
		if (clk & TL_CLK_MASK)
			break;
		clk >>= TL_CLK_SHIFT;
	}
}

static bool tl_next(u64 *when)
{
	if (tlb.recalc)
		tlb.next_expiry = tl_next_expiry();
	if (!tlb.pending && !tlb.expired.first)
		return false;
	*when = tlb.expired.first ? tlb.clk << shift : tlb.next_expiry << shift;
	return true;
}

/* __run_timers(), a timer at a time */
static struct btimer *tl_pop(u64 now)
{
	unsigned long jif = now >> shift;
	struct tl_node *e;

	for (;;) {
		e = tlb.expired.first;
		if (e) {
			tl_del(e);
			return container_of(e, struct btimer, tl.entry);
		}
		if (tlb.recalc)
			tlb.next_expiry = tl_next_expiry();
		if ((long)(jif - tlb.clk) < 0 ||
		    (long)(jif - tlb.next_expiry) < 0 || !tlb.pending)
			return NULL;
		tl_collect();
		tlb.clk++;
		tlb.next_expiry = tl_next_expiry();
	}
}

#define HEAP_BYTES	(sizeof(u64) + sizeof(u32) + sizeof(void *))

static const struct impl heap2_impl = {
	"heap2", HEAP_BYTES, heap_init, heap_fini, heap2_add, heap2_del,
	heap2_mod, heap2_pop, heap_next
};

static const struct impl heap4_impl = {
	"heap4", HEAP_BYTES, heap_init, heap_fini, heap4_add, heap4_del,
	heap4_mod, heap4_pop, heap_next
};

static const struct impl rbtree_impl = {
	"rbtree", sizeof(u64) + sizeof(((struct btimer *)0)->rb), rb_init,
	rb_fini, rb_add, rb_del, rb_mod, rb_pop, rb_next
};

/*
 * Nothing at all: what the workloads cost around the structure (drawing
 * deadlines, the loop), which callgrind subtracts to give each structure's
 * own share. Not a contender: core_bench runs it only when asked (-i null).
 */
static struct btimer *null_pop(u64 now)
{
	return NULL;
}

static bool null_next(u64 *when)
{
	return false;
}

static void null_init(u64 now, size_t max)
{
}

static void null_fini(void)
{
}

static void null_del(struct btimer *t)
{
}

static void null_add(struct btimer *t, u64 expires)
{
	t->expires = expires;
}

static const struct impl null_impl = {
	"null", 0, null_init, null_fini, null_add, null_del, null_add,
	null_pop, null_next
};

/* timer_list: an hlist node, the deadline and the flags word */
static const struct impl timer_list_impl = {
	"timer_list", sizeof(u64) + sizeof(((struct btimer *)0)->tl), tl_init,
	tl_fini, tl_add, tl_cancel, tl_mod, tl_pop, tl_next
};

#endif /* _HWT_BENCH_CONTENDERS_H */
