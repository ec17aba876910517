#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Attribute every late expiry of a traced rate run to a cause (issue 39).

Reads the results of bench/trace_rate.sh: for each rate, dev_bench's
"late WAY ID DEADLINE FIRED SEEN" lines (timers the program saw later than
twice the heap's p99) and the kernel's trace of that run. Each late timer
is followed from its deadline to the program:

  armed late    the hrtimer was programmed for after the timer's key
  interrupt     the timer interrupt came after the hrtimer's expiry (the
                platform: an emulated APIC timer, a halted vCPU)
  softirq hop   from the interrupt to the soft hrtimer's callback
  cut short     passes of the same run before the one that took it (each
                spent its budget) or the wait for the worker it was
                handed to
  cascade ahead cascade work in its pass, before it was taken
  expiries ahead other timers its pass took before it
  wake-up       from the timer's expiry to the program's wake-up: the rest
                of the pass and the wake-up itself (a worker's, if handed
                off)
  scheduling    from the wake-up until the program ran
  reader busy   from then (or from the expiry, if the program never slept)
                until it had the record: its own work on earlier records

and charged to the part that took longest. Times are the trace's: on
CLOCK_MONOTONIC with microsecond resolution (trace_clock "mono"), or, with
a counter clock ("x86-tsc", as bench/trace_rate.sh uses under icount),
the counter mapped onto CLOCK_MONOTONIC through the passes' own clock
reads (hwt_pass now=), to the nanosecond.

With --icount SHIFT (bench/trace_rate.sh under HWT_QEMU_ICOUNT) the guest's
clocks counted instructions, 2^SHIFT ns each, and the tables say so.

usage: late_breakdown.py RESULTS KERNEL_LABEL [--icount SHIFT]
"""
import base64
import bisect
import collections
import gzip
import re
import sys

LINE = re.compile(r'^\s*(.+?)-(\d+)\s+(?:\(\s*\S+\)\s+)?\[(\d+)\]\s+\S+\s+(\d+(?:\.\d+)?): (\w+): (.*)$')
NOW = re.compile(r'clock=1 .*now=(\d+)')
KV = re.compile(r'(\w+)=(\S+)')
TICK = 4096     # the default tick: a deadline is due at its key

CAUSES = ['armed late', 'interrupt', 'softirq hop', 'cut short', 'cascade ahead',
          'expiries ahead', 'wake-up', 'scheduling', 'reader busy', 'not in the trace']
HWTIMER_CAUSES = {'armed late', 'cut short', 'cascade ahead', 'expiries ahead', 'wake-up'}


def parse_results(path):
    """{rate: (bench_lines, trace_text)}"""
    runs, rate, mode, bench, b64 = {}, None, None, [], []
    for line in open(path, errors='replace'):
        line = line.rstrip('\n')
        if line.startswith('=== rate '):
            rate, mode, bench, b64 = int(line.split()[2]), 'bench', [], []
        elif line.startswith('=== trace '):
            mode = 'trace'
        elif line.startswith('=== end '):
            text = gzip.decompress(base64.b64decode(''.join(b64))).decode(errors='replace')
            runs[rate] = (bench, text)
            mode = None
        elif mode == 'bench':
            bench.append(line)
        elif mode == 'trace':
            b64.append(line.strip())
    return runs


def clock_map(lines):
    """ns of CLOCK_MONOTONIC from a trace's timestamps: seconds of the mono
    clock, or counts of a counter clock, mapped through the passes of
    CLOCK_MONOTONIC bases, whose now= was read just before their event: the
    slope from the first and last, the offset from the one read last before
    its event (the smallest lag)"""
    pairs = [(int(ts), int(n.group(1))) for _t, _p, _c, ts, ev, rest in lines
             if ev == 'hwt_pass' and '.' not in ts for n in [NOW.search(rest)] if n]
    if not pairs:
        return lambda ts: round(float(ts) * 1e9)
    (c0, m0), (c1, m1) = pairs[0], pairs[-1]
    a = (m1 - m0) / (c1 - c0) if c1 > c0 else 1.0
    b = max(m - a * c for c, m in pairs)
    return lambda ts: round(float(ts) * 1e9) if '.' in ts else round(a * int(ts) + b)


class Trace:
    def __init__(self, text):
        self.ev = collections.defaultdict(list)     # (event, cpu) -> [(ts, fields, task)]
        self.any = collections.defaultdict(list)    # event -> [(ts, cpu, fields, task)]
        self.marks = {}
        lines = [m.groups() for m in map(LINE.match, text.splitlines()) if m]
        mono = clock_map(lines)
        for task, _pid, cpu, ts, event, rest in lines:
            ts = mono(ts)
            cpu = int(cpu)
            if event == 'tracing_mark_write':
                w = rest.split()
                if len(w) >= 3 and w[0] == 'hwt-way':
                    self.marks[(w[1], w[2])] = ts
                continue
            f = dict(KV.findall(rest))
            f['_raw'] = rest
            self.ev[(event, cpu)].append((ts, f, task))
            self.any[event].append((ts, cpu, f, task))
        self.ts = {k: [e[0] for e in v] for k, v in self.ev.items()}
        self.expired = collections.defaultdict(list)    # (id, expires) -> [(event, cpu)]
        for (event, cpu), evs in self.ev.items():
            if event == 'hwt_expire':
                for e in evs:
                    self.expired[(e[1].get('id'), e[1].get('expires'))].append((e, cpu))
        # by the object they are about, over every CPU, in time order
        self.by = {}
        for event, field in (('hrtimer_start', 'hrtimer'), ('hwt_pass', 'base'),
                             ('hwt_tick', 'base')):
            d = collections.defaultdict(list)
            for ts, _c, f, task in self.any.get(event, []):
                d[f.get(field)].append((ts, f, task))
            for v in d.values():
                v.sort(key=lambda e: e[0])
            self.by[event] = (d, {k: [e[0] for e in v] for k, v in d.items()})
        self.cpus = sorted({c for (_e, c) in self.ev})

    def before(self, event, cpu, ts, pred=None):
        """the last @event on @cpu at or before @ts"""
        evs, tss = self.ev.get((event, cpu), []), self.ts.get((event, cpu), [])
        i = bisect.bisect_right(tss, ts) - 1
        while i >= 0:
            if pred is None or pred(evs[i]):
                return evs[i]
            i -= 1
        return None

    def after(self, event, cpu, ts, pred=None):
        evs, tss = self.ev.get((event, cpu), []), self.ts.get((event, cpu), [])
        i = bisect.bisect_left(tss, ts)
        while i < len(evs):
            if pred is None or pred(evs[i]):
                return evs[i]
            i += 1
        return None

    def reader_events(self, reader, lo, hi):
        """(ts, state) of the program in (lo, hi]: 'S' asleep, 'R' runnable, 'run'"""
        if not hasattr(self, '_reader'):
            evs = []
            for ts, _c, f, _t in self.any.get('sched_switch', []):
                if f.get('prev_pid') == reader:
                    st = f.get('prev_state', 'S')
                    evs.append((ts, 'R' if st.startswith('R') else 'S'))
                if f.get('next_pid') == reader:
                    evs.append((ts, 'run'))
            for ts, _c, f, _t in self.any.get('sched_wakeup', []):
                if f.get('pid') == reader:
                    evs.append((ts, 'R'))
            evs.sort()
            self._reader = evs
            self._reader_ts = [e[0] for e in evs]
        i = bisect.bisect_right(self._reader_ts, lo)
        j = bisect.bisect_right(self._reader_ts, hi)
        return self._reader[i:j]

    def last_of(self, event, obj, ts):
        """the last @event about @obj (an hrtimer, a base) before @ts, any CPU"""
        d, tss = self.by[event]
        i = bisect.bisect_left(tss.get(obj, []), ts) - 1
        return d[obj][i] if i >= 0 else None

    def count(self, event, cpu, lo, hi):
        tss = self.ts.get((event, cpu), [])
        return bisect.bisect_left(tss, hi) - bisect.bisect_right(tss, lo)


STATE_CAUSE = {'S': 'wake-up', 'R': 'scheduling', 'run': 'reader busy'}


def reader_state(tr, reader, ts):
    """the program's state at @ts: asleep, runnable or running"""
    tr.reader_events(reader, 0, 0)
    i = bisect.bisect_right(tr._reader_ts, ts) - 1
    return tr._reader[i][1] if i >= 0 else 'run'


def key_of(deadline):
    return (deadline + TICK - 1) // TICK * TICK


def attribute(tr, way, tid, deadline, fired, seen, reader):
    """{cause: ns} for one late timer"""
    lo, hi = tr.marks.get((way, 'begin'), 0), tr.marks.get((way, 'end'), 1 << 62)
    exp = None
    for e, cpu in tr.expired.get((str(tid), str(deadline)), []):
        if lo <= e[0] <= hi and (exp is None or e[0] < exp[0][0]):
            exp = (e, cpu)
    if not exp:
        return {'not in the trace': seen - deadline}
    (ets, _ef, _et), cpu = exp
    parts = collections.Counter()
    p = tr.before('hwt_pass', cpu, ets)
    if not p:
        return {'not in the trace': seen - deadline}
    run, base = p, p[1].get('base')
    # back to the pass the hrtimer started: the run's passes before it were cut short
    while run and run[1].get('kind') == 'continued':
        run = tr.last_of('hwt_pass', base, run[0])
    key = key_of(deadline)
    if p[1].get('kind') == 'handed_off' or not run or run[1].get('kind') != 'wakeup':
        # handed off: the worker started once the base's previous pass ended
        prev = tr.last_of('hwt_tick', base, p[0])
        prev_end = prev[0] if prev else None
        start = max(key, prev_end) if prev_end else key
        parts['cut short'] += max(0, p[0] - start)
        t0 = max(key, start)
    else:
        x = tr.before('hrtimer_expire_entry', cpu, run[0])
        # the hrtimer may have been armed from either CPU
        a = x and tr.last_of('hrtimer_start', x[1].get('hrtimer'), x[0])
        irq = x and tr.before('local_timer_entry', cpu, x[0])
        t0 = key
        if a:
            armed = int(a[1].get('softexpires', a[1].get('expires', key)))
            if armed > key:
                parts['armed late'] += armed - key
                t0 = armed
        if irq and irq[0] > t0:
            parts['interrupt'] += irq[0] - t0
            t0 = irq[0]
        if x and x[0] > t0:
            parts['softirq hop'] += x[0] - t0
            t0 = x[0]
        if p[0] > t0:
            parts['cut short' if p is not run else 'softirq hop'] += p[0] - t0
            t0 = p[0]
    t0 = max(t0, p[0])
    if ets > t0:
        casc = tr.count('hwt_cascade', cpu, t0, ets)
        parts['cascade ahead' if casc else 'expiries ahead'] += ets - t0
        t0 = ets
    # from the expiry to the program: asleep (not yet woken), runnable but
    # not running (woken, or preempted), or running
    state, t = reader_state(tr, reader, t0), t0
    for ts, st in tr.reader_events(reader, t0, seen):
        parts[STATE_CAUSE[state]] += ts - t
        state, t = st, ts
    parts[STATE_CAUSE[state]] += max(0, seen - t)
    return parts


SHIFT = None    # --icount SHIFT: the guest's ns were 2^SHIFT per instruction


def fmt_us(ns):
    if SHIFT is not None:
        return f'{ns / (1 << SHIFT):,.0f} instr'
    return f'{ns / 1000:,.0f} us'


def main():
    global SHIFT
    args = sys.argv[1:]
    if '--icount' in args:
        i = args.index('--icount')
        SHIFT = int(args[i + 1])
        del args[i:i + 2]
    runs = parse_results(args[0])
    label = args[1] if len(args) > 1 else ''
    out = []
    for rate in sorted(runs):
        bench, text = runs[rate]
        tr = Trace(text)
        bar = heap = None
        late = collections.defaultdict(list)
        for line in bench:
            w = line.split()
            if w[:1] == ['bar']:
                bar, heap = int(w[1]), int(w[3])
            elif w[:1] == ['late']:
                late[w[1]].append(tuple(int(v) for v in w[2:6]))
        pids = collections.Counter(e[2].get('pid') for e in tr.any.get('sched_wakeup', []))
        reader = pids.most_common(1)[0][0] if pids else None
        out += [f'### {rate:,} timers a second, stock {label}', '',
                f'Late: seen more than {fmt_us(bar or 0)} after the deadline (twice the heap'
                f' + one timerfd p99 of {fmt_us(heap or 0)} in the same run).', '',
                '| way | late timers | ' + ' | '.join(CAUSES) + ' |',
                '|---|---|' + '---|' * len(CAUSES)]
        for way in ('ring', 'read', 'eventfd'):
            counts, total = collections.Counter(), collections.Counter()
            for tid, d, f, s in late.get(way, []):
                parts = attribute(tr, way, tid, d, f, s, reader)
                main_cause = max(parts, key=parts.get) if parts else 'not in the trace'
                counts[main_cause] += 1
                for k, v in parts.items():
                    total[k] += v
            n = len(late.get(way, []))
            cells = []
            for c in CAUSES:
                if not counts[c] and not total[c]:
                    cells.append('')
                    continue
                cells.append(f'{counts[c]} ({fmt_us(total[c] / n)})' if n else '')
            out.append(f'| {way} | {n} | ' + ' | '.join(cells) + ' |')
        hw = ', '.join(sorted(HWTIMER_CAUSES))
        out += ['', f'Each cell: the late timers charged to that cause (the part that took '
                f'longest), and in brackets that part\'s mean over every late timer. '
                f'hwtimer\'s own causes: {hw}.', '']
        for line in bench:
            if line.startswith('{'):
                out.append('    ' + line)
        out.append('')
    print('\n'.join(out))


if __name__ == '__main__':
    main()
