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
 * and a varint of delay. After every expiry the node popped must be one
 * whose key the model holds as the earliest, never early, at most one tick
 * late; the model and the wheel must agree on what is pending.
 *
 * Build: clang -fsanitize=fuzzer,address,undefined (see the Makefile's
 * fuzz-check); tests/fuzz/corpus holds the seed corpus.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "wheel.c"

#define NODES	64

struct model {
	struct hwt_wheel *w;
	struct hwt_node n[NODES];
	u64 key[NODES];
	bool queued[NODES];
	u64 now;
};

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

/* The earliest key the model holds, relative to the clock. */
static bool model_head(struct model *m, u64 *key)
{
	bool any = false;
	u64 best = 0;
	int i;

	for (i = 0; i < NODES; i++) {
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

/* Let time pass up to @until, the way the timer base does. */
static void advance(struct model *m, u64 until)
{
	struct hwt_node *n;
	u64 when, head;

	for (;;) {
		while ((n = hwt_wheel_pop(m->w, m->now))) {
			int id = (int)(n - m->n);

			check(id >= 0 && id < NODES && m->queued[id]);
			check(model_head(m, &head) && head == m->key[id]);
			check((s64)(m->now - n->expires) >= 0);	/* never early */
			check(m->now - n->expires < hwt_wheel_tick(m->w));
			m->queued[id] = false;
		}
		if (!hwt_wheel_next(m->w, &when) || (s64)(when - until) > 0)
			break;
		check((s64)(when - m->now) > 0);
		m->now = when;
	}
	m->now = until;
	while ((n = hwt_wheel_pop(m->w, m->now))) {
		int id = (int)(n - m->n);

		check(id >= 0 && id < NODES && m->queued[id]);
		check((s64)(m->now - n->expires) >= 0);
		check(m->now - n->expires < hwt_wheel_tick(m->w));
		m->queued[id] = false;
	}
	/* nothing the model holds is due */
	if (model_head(m, &head))
		check((s64)(head - m->now) > 0);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static uint8_t store[sizeof(struct hwt_wheel) + HWT_LEVELS_MAX * sizeof(struct hwt_level)];
	struct model m;
	unsigned int shift, levels, max, i, pending;
	u64 start, horizon;

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
	m.now = m.w->clk;
	horizon = hwt_wheel_horizon(m.w);
	/* what callers accept: below 2^62 ns; beyond the horizon is parked */
	if (horizon > 1ULL << 62)
		horizon = 1ULL << 62;

	while (left) {
		uint8_t op = take_byte();
		unsigned int id = op % NODES;
		u64 d = take_varint() % (horizon * 3 < horizon ? horizon : horizon * 3);

		if (levels == 0 || levels == max)
			d %= horizon;
		switch (op >> 6) {
		case 0:		/* add, or modify a queued node */
		case 1:
			if (m.queued[id]) {
				hwt_wheel_mod(m.w, &m.n[id], m.now + d);
			} else {
				hwt_wheel_forward(m.w, m.now);
				m.n[id].expires = m.now + d;
				hwt_wheel_add(m.w, &m.n[id]);
				m.queued[id] = true;
			}
			m.key[id] = key_of(&m, m.n[id].expires);
			check((s64)(m.key[id] - m.w->clk) > 0);
			break;
		case 2:		/* delete */
			if (m.queued[id]) {
				hwt_wheel_del(m.w, &m.n[id]);
				m.queued[id] = false;
			}
			break;
		default:	/* let time pass */
			advance(&m, m.now + d % (horizon / 2 + 1));
			break;
		}
		for (pending = 0, i = 0; i < NODES; i++)
			pending += m.queued[i];
		check(m.w->pending == pending);
	}
	/* in steps the modular clock can tell apart: below 2^63 each */
	for (i = 0; i < 4; i++)
		advance(&m, m.now + horizon);
	check(hwt_wheel_empty(m.w));
	return 0;
}
