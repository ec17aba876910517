/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Locks, atomics, bit ops, per-CPU data and CPUs, for one thread on one
 * CPU. The locks are out of line (bench/native/kshim.c), under the
 * kernel's names, so that callgrind counts them apart: each is a plain
 * store where the kernel's non-debug x86 lock is a call, a cli or pushf,
 * a preempt count and a lock cmpxchg (unlock: a store, sti or popf, the
 * preempt count). Atomics are plain loads and stores, as one lock-prefixed
 * instruction is one instruction to callgrind too.
 */
#ifndef _KSHIM_SYNC_H
#define _KSHIM_SYNC_H

#include "kshim/core.h"

/* locks */
typedef struct { int locked; } raw_spinlock_t;
typedef struct { int locked; } spinlock_t;
struct mutex { int locked; };
struct lock_class_key { int unused; };
struct lockdep_map { int unused; };

void _raw_spin_lock(void *l);
void _raw_spin_unlock(void *l);
void _raw_spin_lock_irq(void *l);
void _raw_spin_unlock_irq(void *l);
unsigned long _raw_spin_lock_irqsave(void *l);
void _raw_spin_unlock_irqrestore(void *l, unsigned long flags);
void _raw_spin_lock_bh(void *l);
void _raw_spin_unlock_bh(void *l);
void mutex_lock(struct mutex *m);
int mutex_trylock(struct mutex *m);
void mutex_unlock(struct mutex *m);
int mutex_lock_interruptible(struct mutex *m);
/* interrupts: a flag, as pushf; cli and popf keep one */
extern unsigned long kshim_irq_on;

#define spin_lock_init(l)		((l)->locked = 0)
#define raw_spin_lock_init(l)		((l)->locked = 0)
#define mutex_init(m)			((m)->locked = 0)
#define mutex_destroy(m)		((void)0)
#define DEFINE_MUTEX(name)		struct mutex name = { 0 }
#define spin_lock(l)			_raw_spin_lock(l)
#define spin_unlock(l)			_raw_spin_unlock(l)
#define spin_lock_irq(l)		_raw_spin_lock_irq(l)
#define spin_unlock_irq(l)		_raw_spin_unlock_irq(l)
#define spin_lock_irqsave(l, f)		((f) = _raw_spin_lock_irqsave(l))
#define spin_unlock_irqrestore(l, f)	_raw_spin_unlock_irqrestore(l, f)
#define spin_lock_bh(l)			_raw_spin_lock_bh(l)
#define spin_unlock_bh(l)		_raw_spin_unlock_bh(l)
#define raw_spin_lock(l)		_raw_spin_lock(l)
#define raw_spin_unlock(l)		_raw_spin_unlock(l)
#define raw_spin_lock_nested(l, s)	_raw_spin_lock(l)
#define raw_spin_lock_irqsave(l, f)	((f) = _raw_spin_lock_irqsave(l))
#define raw_spin_unlock_irqrestore(l, f) _raw_spin_unlock_irqrestore(l, f)
#define local_irq_save(f)	do { (f) = kshim_irq_on; kshim_irq_on = 0; } while (0)
#define local_irq_restore(f)	(kshim_irq_on = (f))
#define lockdep_assert_held(l)		((void)(l))
#define lockdep_init_map(m, n, k, s)	((void)0)
#define lock_map_acquire(m)		((void)0)
#define lock_map_release(m)		((void)0)
#define lockdep_copy_map(a, b)		((void)0)

/* atomics: plain */
typedef struct { int counter; } atomic_t;
typedef struct { long counter; } atomic_long_t;
typedef struct { s64 counter; } atomic64_t;
typedef struct { atomic_t refs; } refcount_t;
#define ATOMIC_INIT(i)		{ (i) }
#define atomic_read(v)		READ_ONCE((v)->counter)
#define atomic_read_acquire(v)	READ_ONCE((v)->counter)
#define atomic_set(v, i)	WRITE_ONCE((v)->counter, (i))
#define atomic_inc(v)		((v)->counter++)
#define atomic_dec(v)		((v)->counter--)
#define atomic_long_read(v)	READ_ONCE((v)->counter)
#define atomic_long_set(v, i)	WRITE_ONCE((v)->counter, (i))
#define atomic_long_sub(i, v)	((v)->counter -= (i))
#define atomic_long_add(i, v)	((v)->counter += (i))
#define atomic64_read(v)	READ_ONCE((v)->counter)
#define __kshim_try_cmpxchg(v, old, new) ({				\
	bool __ok = (v)->counter == *(old);				\
	if (__ok)							\
		(v)->counter = (new);					\
	else								\
		*(old) = (v)->counter;					\
	__ok;								\
})
#define atomic_long_try_cmpxchg(v, o, n)	__kshim_try_cmpxchg(v, o, n)
#define atomic64_try_cmpxchg(v, o, n)		__kshim_try_cmpxchg(v, o, n)
#define refcount_set(r, n)	atomic_set(&(r)->refs, n)
#define refcount_read(r)	atomic_read(&(r)->refs)
#define refcount_inc(r)		atomic_inc(&(r)->refs)
#define refcount_dec_and_test(r) (--(r)->refs.counter == 0)
#define smp_mb()			barrier()
#define smp_mb__before_atomic()		barrier()
#define smp_load_acquire(p)		READ_ONCE(*(p))
#define smp_store_release(p, v)		WRITE_ONCE(*(p), v)

/* bit ops on unsigned long words */
#define set_bit(nr, addr)	(*(addr) |= 1UL << (nr))
#define clear_bit(nr, addr)	(*(addr) &= ~(1UL << (nr)))
#define test_bit(nr, addr)	((READ_ONCE(*(addr)) >> (nr)) & 1)
#define test_bit_acquire(nr, addr)	test_bit(nr, addr)
#define hweight_long(w)		__builtin_popcountl(w)
#define for_each_set_bit(bit, addr, size)				\
	for ((bit) = 0; (bit) < (size); (bit)++)			\
		if (!test_bit(bit, addr)) {} else

/* one CPU */
#define DEFINE_PER_CPU(type, name)	type name
#define DECLARE_PER_CPU(type, name)	extern type name
#define per_cpu(var, cpu)		(*((void)(cpu), &(var)))
#define per_cpu_ptr(ptr, cpu)		((void)(cpu), (ptr))
#define this_cpu_add(var, n)		((var) += (n))
#define this_cpu_inc(var)		((var)++)
#define this_cpu_read(var)		(var)
#define this_cpu_write(var, v)		((var) = (v))
#define smp_processor_id()		0
#define raw_smp_processor_id()		0
#define nr_cpu_ids			1U
#define cpu_possible(cpu)		((cpu) == 0)
#define cpu_to_node(cpu)		0
#define for_each_possible_cpu(cpu)	for ((cpu) = 0; (cpu) < 1; (cpu)++)
#define preempt_disable()		barrier()
#define preempt_enable()		barrier()

typedef struct __call_single_data {
	void (*func)(void *info);
	void *info;
} call_single_data_t;
#define INIT_CSD(csd, f, i)	do { (csd)->func = (f); (csd)->info = (i); } while (0)
int smp_call_function_single_async(int cpu, call_single_data_t *csd);
void on_each_cpu(void (*func)(void *), void *info, int wait);

/* CPU hotplug: a state's startup runs for the one CPU, as for each online */
enum cpuhp_state { CPUHP_BP_PREPARE_DYN = 1, CPUHP_AP_ONLINE_DYN = 2 };
int cpuhp_setup_state(enum cpuhp_state state, const char *name,
		      int (*startup)(unsigned int cpu),
		      int (*teardown)(unsigned int cpu));
void cpuhp_remove_state(int state);

#endif
