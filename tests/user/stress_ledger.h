/* SPDX-License-Identifier: GPL-2.0 */
/*
 * stress_test's ledger: what it knows of every timer id of a file, in
 * memory both of its processes share, and how each outcome the kernel
 * reports moves it. stress_test.c has the workers that drive it and the
 * checks it must pass at the end; include this once, from there.
 */
#ifndef _HWT_STRESS_LEDGER_H
#define _HWT_STRESS_LEDGER_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "helpers.h"

#define MAX_IDS		(1024U * 1024)
#define MAX_GENS	6
#define NPERIODIC	8
#define PERIOD		(20 * MS)

/* What the ledger knows of one timer id. */
struct tl {
	__u8 alive;		/* added and not yet removed */
	__u8 periodic;
	__u8 untracked;		/* too many armings to keep gens for */
	__u8 ngens;
	__u8 dropped;		/* periodic: the last cancel dropped a record */
	__u8 autoremove;
	__u32 first_gen;	/* the ADD's: older records are an earlier timer's */
	__u32 armings;		/* ADD, and MODs that re-armed an idle timer */
	__u32 ended;		/* armings cancelled or drained while pending */
	__u32 reads;
	__u32 gens[MAX_GENS];
	__u64 fires;		/* periodic: records plus overruns */
	__u64 first_deadline;
	__u64 stopped;		/* periodic: when the final cancel ran */
};

/* The ledger of one file, in memory shared by both processes. */
struct ledger {
	pthread_mutex_t lock;
	__u64 adds, cancels1, cancels0, drained, records, mods0, mods1;
	__u64 removed;		/* ids gone: cancel, drain-unlisted, autoremove */
	__u64 fired_before;	/* expiries of the earlier timers of reused ids */
	__u64 violations;
	char why[256];
	struct tl t[MAX_IDS];
};

struct shared {
	atomic_int stop;
	atomic_ulong ops;
	atomic_ulong nomem;
	struct ledger l[2];	/* [0] the shared file, [1] the child's own */
};

static struct shared *sh;

static void violation(struct ledger *l, const char *fmt, __u32 id, __u64 v)
{
	if (!l->violations++)
		snprintf(l->why, sizeof(l->why), fmt, id, (unsigned long long)v);
}

static struct tl *tl_of(struct ledger *l, __u32 id)
{
	return id && id < MAX_IDS ? &l->t[id] : NULL;
}

/*
 * Every arming of a one-shot ends exactly once: it expires, or is
 * cancelled or drained while pending. A periodic timer expires once per
 * record it queued: those read, and one a cancel dropped.
 */
static __u64 tl_fired(const struct tl *t)
{
	return t->periodic ? t->reads + t->dropped : t->armings - t->ended;
}

/* Ledger updates, each under the ledger's lock. */

static void on_add(struct ledger *l, const struct hwtimer_op *op)
{
	struct tl *t = tl_of(l, op->id);

	l->adds++;
	if (!t)
		return;
	/*
	 * A reused id: a live timer's never comes back, but one that
	 * AUTOREMOVE took may, before the reader told the ledger
	 */
	if (t->alive && !t->autoremove)
		violation(l, "id %u handed out while its timer lives (%llu armings)",
			  op->id, t->armings);
	l->fired_before += tl_fired(t);
	memset(t, 0, sizeof(*t));
	t->alive = 1;
	t->autoremove = !!(op->flags & HWTIMER_F_AUTOREMOVE);
	t->first_gen = op->gen;
	t->periodic = op->period != 0;
	t->armings = 1;
	t->first_deadline = op->expires;
}

static void on_mod(struct ledger *l, __u32 id, long ret)
{
	struct tl *t = tl_of(l, id);

	if (ret == -ENOMEM)
		atomic_fetch_add(&sh->nomem, 1);
	/* 0 or 2: it was not pending, and is armed again */
	if (ret == 1)
		l->mods1++;
	else if (ret == 0 || ret == 2)
		l->mods0++;
	if (t && (ret == 0 || ret == 2))
		t->armings++;
}

static void on_cancel(struct ledger *l, __u32 id, long ret)
{
	struct tl *t = tl_of(l, id);

	if (ret == -ENOMEM)
		atomic_fetch_add(&sh->nomem, 1);
	if (ret < 0)
		return;
	if (ret == 1)
		l->cancels1++;
	else
		l->cancels0++;
	l->removed++;
	if (t) {
		if (!t->alive)
			violation(l, "cancel of dead id %u succeeded (%llu)", id, ret);
		t->alive = 0;
		t->ended += ret == 1;
		/* 2: it had fired, and its unread record was dropped */
		t->dropped = t->periodic && ret == 2;
	}
}

static void on_record(struct ledger *l, const struct hwtimer_record *r)
{
	struct tl *t = tl_of(l, r->id);
	int i;

	l->records++;
	if (r->fired < r->deadline)
		violation(l, "id %u fired early by %llu ns", r->id, r->deadline - r->fired);
	if (r->flags & HWTIMER_REC_REMOVED)
		l->removed++;
	/*
	 * Generations count up per file: one before the ADD's belongs to an
	 * earlier timer of the id, whose record was read before the ledger
	 * saw its end
	 */
	if (!t || (__s32)((r->gen - t->first_gen) << 8) < 0)
		return;
	t->reads++;
	if (r->flags & HWTIMER_REC_PERIODIC) {
		t->fires += 1 + r->overruns;
		return;
	}
	if (t->reads > t->armings)
		violation(l, "id %u: more records than armings (%llu)", r->id, t->reads);
	for (i = 0; i < t->ngens; i++)
		if (t->gens[i] == r->gen)
			violation(l, "id %u: generation %llu delivered twice", r->id, r->gen);
	if (t->ngens < MAX_GENS)
		t->gens[t->ngens++] = r->gen;
	else
		t->untracked = 1;
	if (r->flags & HWTIMER_REC_REMOVED)
		t->alive = 0;
}

static void on_drain(struct ledger *l, const __u32 *ids, __u32 n)
{
	__u32 i, id;

	l->drained += n;
	for (i = 0; i < n; i++) {
		struct tl *t = tl_of(l, ids[i]);

		if (t && !t->alive)
			violation(l, "drain listed dead id %u (%llu)", ids[i], 0);
		if (t)
			t->ended++;
	}
	/* every id of the file is gone, listed or not */
	for (id = 1; id < MAX_IDS; id++) {
		if (l->t[id].alive) {
			l->t[id].alive = 0;
			l->removed++;
		}
	}
}

static void ledger_init(struct ledger *l)
{
	pthread_mutexattr_t a;

	pthread_mutexattr_init(&a);
	pthread_mutexattr_setpshared(&a, PTHREAD_PROCESS_SHARED);
	pthread_mutex_init(&l->lock, &a);
}

#endif /* _HWT_STRESS_LEDGER_H */
