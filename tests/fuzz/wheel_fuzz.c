// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer on the wheel core, differential against a reference model (a
 * plain array searched for its minimum), as the KUnit differential test
 * but driven by coverage instead of a fixed seed.
 *
 * The input is a program: byte 0 picks the tick (2^10 .. 2^30 ns), byte 1
 * the number of levels (all of time, or fewer, so that nodes are parked
 * beyond the horizon), 8 bytes the start time (near 0, near 2^64, or
 * anywhere: the clock wraps); then each op is one byte of opcode and node,
 * and a varint of delay. Time passes in passes of a budget the op picks,
 * passes may be cut short with work half done, and the clock may be set
 * back. Herds of 64 to 447 more nodes come at one key or a few ticks, and
 * are deleted and modified in part, mid-cascade: 64 nodes alone never
 * build the big and half-cascaded slots they make. A fifth of the nodes
 * have slack, and no window hwt_wheel_next_range() gives may end after a
 * node's deadline plus slack. Big slots are cascaded ahead
 * (hwt_wheel_ahead()) at random, or the way the timer base does: after
 * each drain, waking for hwt_wheel_next_ahead() too; or never. After
 * every expiry the node popped must be one whose key the model holds as
 * the earliest, never early, at most one tick late, and the wheel's next
 * time is never after a deadline (but after a set-back); every pass spends
 * exactly the units of the nodes it moves or returns; cascading ahead does
 * nothing while a node is due, and after a drain leaves nothing to do
 * before its next time; the model and the wheel must agree on what is
 * pending.
 *
 * Build: clang -fsanitize=fuzzer,address,undefined (see the Makefile's
 * fuzz-check); tests/fuzz/corpus holds the seed corpus.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "wheel.c"
#include "wheel_geometry.c"
#include "wheel_cascade.c"
#include "wheel_clock.c"
#include "wheel_look.c"

#define NODES	64		/* addressed by an op's byte */
#define HERD	448		/* more, for herds */
#define ALL	(NODES + HERD)

struct model {
	struct hwt_wheel *w;
	struct hwt_node n[ALL];
	u64 key[ALL];
	u64 slack[ALL];
	bool queued[ALL];
	u64 now;
};

/* the model being run: struct hwt_wheel.slack_of's */
static struct model *fm;

static u64 fuzz_slack(const struct hwt_node *n)
{
	return fm->slack[n - fm->n];
}

static const uint8_t *in;
static size_t left;

static uint64_t take_varint(void)
{
	uint64_t v = 0;
	unsigned int s = 0;

	while (left && s < 64) {
		uint8_t b = *in++;

		left--;
		v |= (uint64_t)(b & 0x7f) << s;
		s += 7;
		if (!(b & 0x80))
			break;
	}
	return v;
}

static uint8_t take_byte(void)
{
	if (!left)
		return 0;
	left--;
	return *in++;
}

static u64 key_of(struct model *m, u64 expires)
{
	return hwt_wheel_key(m->w, expires);
}

/*
 * The earliest time by which a node the model holds must be returned: its
 * deadline plus slack (hwt_wheel_late()); after a set-back, when slots
 * wake at their starts, never before its key.
 */
static bool model_late(struct model *m, u64 *late)
{
	bool any = false;
	u64 best = 0;
	int i;

	for (i = 0; i < ALL; i++) {
		u64 l = m->n[i].expires + m->slack[i];

		if (!m->queued[i])
			continue;
		if (m->w->skewed && (s64)(l - m->key[i]) < 0)
			l = m->key[i];
		if (!any || (s64)(l - best) < 0)
			best = l;
		any = true;
	}
	*late = best;
	return any;
}

/* The earliest deadline the model holds. */
static bool model_first(struct model *m, u64 *first)
{
	bool any = false;
	u64 best = 0;
	int i;

	for (i = 0; i < ALL; i++) {
		if (!m->queued[i])
			continue;
		if (!any || (s64)(m->n[i].expires - best) < 0)
			best = m->n[i].expires;
		any = true;
	}
	*first = best;
	return any;
}

/* The earliest key the model holds, relative to the clock. */
static bool model_head(struct model *m, u64 *key)
{
	bool any = false;
	u64 best = 0;
	int i;

	for (i = 0; i < ALL; i++) {
		if (!m->queued[i])
			continue;
		if (!any || m->key[i] - m->w->clk < best - m->w->clk)
			best = m->key[i];
		any = true;
	}
	*key = best;
	return any;
}

static void check(bool ok)
{
	if (!ok)
		abort();
}

/*
 * How far the clock may be set back: no key, nor the wheel's clock before
 * an earlier set-back, may end up @limit ns or more ahead of it. @limit is
 * at most 2^62, well inside what the modular clock can tell ahead from
 * behind (real clocks stay inside it: 2^62 ns is 146 years), and at most
 * the furthest any add reaches, so that the final run drains everything.
 */
static u64 setback_room(struct model *m, u64 limit)
{
	u64 far = m->w->skewed ? m->w->high - m->w->clk : 0;
	int i;

	for (i = 0; i < ALL; i++)
		if (m->queued[i] && m->key[i] - m->w->clk > far)
			far = m->key[i] - m->w->clk;
	return far < limit ? limit - far : 0;
}

/*
 * What the wheel keeps of each level's next event, when it says it is
 * current, is what a look at every level finds (the look is then undone).
 */
static void check_events(struct model *m)
{
	struct hwt_wheel *w = m->w;
	struct hwt_events kept = w->ev;
	unsigned int fresh = w->fresh;

	if (!(fresh & HWT_FRESH_BEST) || kept.best_lvl == HWT_LVL_NONE)
		return;
	w->fresh = 0;
	hwt_events_look(w);
	check(kept.best_lvl == w->ev.best_lvl && kept.best == w->ev.best &&
	      kept.soonest == w->ev.soonest);
	/* the other levels' earliest, if there are other levels */
	check(hweight32(w->occupied) < 2 ||
	      (kept.second == w->ev.second && kept.others == w->ev.others));
	w->ev = kept;
	w->fresh = fresh;
}

/*
 * One call of hwt_wheel_pop() with @budget at m->now: it spends one unit
 * per node returned or placed and one per HWT_CHEAP_PER_UNIT moved without
 * a placement, and what it returns is the model's head, due. Returns false
 * when it returned nothing.
 */
static bool pass(struct model *m, unsigned int budget, bool *spent)
{
	unsigned int left = budget;
	u64 units = hwt_wheel_work_units(m->w), head;
	struct hwt_node *n = hwt_wheel_pop(m->w, m->now, &left);
	int id;

	check(hwt_wheel_work_units(m->w) - units + !!n == budget - left);
	*spent = !left;
	if (!n)
		return false;
	id = (int)(n - m->n);
	check(id >= 0 && id < ALL && m->queued[id]);
	check(model_head(m, &head) && head == m->key[id]);
	check((s64)(m->now - n->expires) >= 0);	/* never early */
	check(m->now - n->expires < hwt_wheel_tick(m->w));
	m->queued[id] = false;
	return true;
}

/*
 * One call of hwt_wheel_ahead() with @budget at m->now: it spends exactly
 * the units of the nodes it moves, says work is left only with its budget
 * spent, and does nothing while the model holds a node due. Returns what
 * it returned.
 */
static bool ahead(struct model *m, unsigned int budget)
{
	unsigned int left = budget;
	u64 units = hwt_wheel_work_units(m->w), first;
	bool due = model_first(m, &first) && (s64)(first - m->now) <= 0;
	bool more = hwt_wheel_ahead(m->w, m->now, &left);

	check(hwt_wheel_work_units(m->w) - units == budget - left);
	check(!more || !left);
	check(!due || (left == budget && !more));
	return more;
}

/*
 * Pop everything due at m->now, @budget nodes per pass; with @early, then
 * cascade ahead as the timer base does, a budget at a time, until nothing
 * is left to do at m->now.
 */
static void drain(struct model *m, unsigned int budget, bool early)
{
	bool spent = false;
	u64 when;

	while (pass(m, budget, &spent) || spent)
		;
	if (!early)
		return;
	while (ahead(m, budget))
		;
	check(!hwt_wheel_next_ahead(m->w, &when) || (s64)(when - m->now) > 0);
}

/*
 * Let time pass up to @until, the way the timer base does: with @early,
 * waking for hwt_wheel_next_ahead() too and cascading ahead after each
 * drain; without, never cascading ahead.
 */
static void advance(struct model *m, u64 until, unsigned int budget,
		    bool early)
{
	u64 when, latest, first, t;

	for (;;) {
		drain(m, budget, early);
		if (!hwt_wheel_next_range(m->w, &when, &latest))
			break;
		/* a lower bound: no node is due before it, nor late before its end */
		check((s64)(latest - when) >= 0);
		check(!model_late(m, &t) || (s64)(t - latest) >= 0);
		/* not after a deadline: none fires a tick late (not after a set-back) */
		check(m->w->skewed || !model_first(m, &t) || (s64)(when - t) <= 0);
		if (early && hwt_wheel_next_ahead(m->w, &t) &&
		    (s64)(t - when) < 0)
			when = t;
		if ((s64)(when - until) > 0)
			break;
		check((s64)(when - m->now) > 0);
		m->now = when;
	}
	m->now = until;
	drain(m, budget, early);
	/* nothing the model holds is due */
	if (model_first(m, &first))
		check((s64)(first - m->now) > 0);
}

/* Queue node @id at @expires, or move it there if it is queued. */
static void arm(struct model *m, unsigned int id, u64 expires)
{
	if (m->queued[id]) {
		hwt_wheel_mod(m->w, &m->n[id], expires);
	} else {
		hwt_wheel_forward(m->w, m->now);
		m->n[id].expires = expires;
		/* a fifth of the nodes get slack of up to 128 ticks */
		m->slack[id] = id % 5 == 1 ? (expires ^ expires >> 17) %
			       (hwt_wheel_tick(m->w) << 7) : 0;
		m->n[id].slack = !!m->slack[id];
		hwt_wheel_add(m->w, &m->n[id]);
		m->queued[id] = true;
	}
	m->key[id] = key_of(m, m->n[id].expires);
	check((s64)(m->key[id] - m->w->clk) >= 0);
}

/* A herd: the free herd nodes, @count at most, at @at or a few ticks on. */
static void herd(struct model *m, u64 at, unsigned int count,
		 unsigned int spread)
{
	u64 tick = hwt_wheel_tick(m->w);
	unsigned int id, k = 0;

	for (id = NODES; id < ALL && k < count; id++)
		if (!m->queued[id])
			arm(m, id, at + (k++ % spread) * tick);
}

/* Delete every @step-th queued herd node and move the ones after them. */
static void herd_edit(struct model *m, unsigned int step, u64 d)
{
	unsigned int id;

	for (id = NODES; id < ALL; id += step) {
		if (!m->queued[id])
			continue;
		hwt_wheel_del(m->w, &m->n[id]);
		m->queued[id] = false;
		if (id + 1 < ALL && m->queued[id + 1])
			arm(m, id + 1, m->now + d);
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static uint8_t store[sizeof(struct hwt_wheel) + HWT_LEVELS_MAX * sizeof(struct hwt_level)];
	struct model m;
	unsigned int shift, levels, max, i, pending;
	u64 start, horizon, reach;

	in = data;
	left = size;
	shift = HWT_SHIFT_MIN + take_byte() % (HWT_SHIFT_MAX - HWT_SHIFT_MIN + 1);
	max = hwt_wheel_max_levels(shift);
	levels = take_byte() % (max + 1);	/* 0: all of time */
	start = 0;
	for (i = 0; i < 8; i++)
		start = start << 8 | take_byte();
	memset(&m, 0, sizeof(m));
	m.w = (struct hwt_wheel *)store;
	check(hwt_wheel_init(m.w, shift, levels, start) == 0);
	m.w->slack_of = fuzz_slack;
	fm = &m;
	m.now = m.w->clk;
	horizon = hwt_wheel_horizon(m.w);
	/* what callers accept: below 2^62 ns; beyond the horizon is parked */
	if (horizon > 1ULL << 62)
		horizon = 1ULL << 62;
	/* the furthest an add reaches */
	reach = levels == 0 || levels == max ? horizon :
		min_t(u64, 3 * horizon, 1ULL << 62);

	while (left) {
		uint8_t op = take_byte();
		unsigned int id = op % NODES;
		u64 d = take_varint() % (horizon * 3 < horizon ? horizon : horizon * 3);

		if (levels == 0 || levels == max)
			d %= horizon;
		unsigned int budget = id < 56 ? 1 + id % 8 : ~0U;
		bool spent;

		switch (op >> 5) {
		case 0:		/* add, or modify a queued node */
		case 1:
		case 2:
			arm(&m, id, m.now + d);
			break;
		case 3:		/* delete */
			if (m.queued[id]) {
				hwt_wheel_del(m.w, &m.n[id]);
				m.queued[id] = false;
			}
			break;
		case 4:		/* a pass cut short: work may be left half done */
			if (id >= 48 && id < 56)
				ahead(&m, 1 + id % 8);	/* or one ahead */
			else
				pass(&m, budget, &spent);
			break;
		case 5:		/* the clock is set back */
			m.now -= d % (setback_room(&m, reach) + 1);
			hwt_wheel_rebase(m.w, m.now);
			break;
		case 7:		/* a herd, or part of one deleted and moved */
			if (op & 16)
				herd(&m, m.now + d, 64 + take_varint() % HERD,
				     1 + (op & 3));
			else
				herd_edit(&m, 2 + (op & 15), d);
			break;
		default:	/* let time pass, cascading ahead or not */
			advance(&m, m.now + d % (horizon / 2 + 1), budget,
				op & 1);
			break;
		}
		for (pending = 0, i = 0; i < ALL; i++)
			pending += m.queued[i];
		check(hwt_wheel_pending(m.w) == pending);
		check_events(&m);
	}
	/* in steps the modular clock can tell apart: below 2^63 each */
	for (i = 0; i < 4; i++)
		advance(&m, m.now + horizon, ~0U, i & 1);
	check(hwt_wheel_empty(m.w));
	return 0;
}
