#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""The path from a timer's deadline to its reader, step by step (issue 46).

Reads the results of bench/path_trace.sh: dev_bench's "timer WAY ID
DEADLINE FIRED SEEN" lines (every timer of each way, the heap's included)
and the function tracer's trace of the run, on the x86-tsc clock, which
under icount counts instructions; it is mapped onto CLOCK_MONOTONIC through
hwtimer's passes (late_breakdown.clock_map()).

For each timer, the traced calls from its deadline to the moment the
program had it (SEEN) make its path: "function@CPU", the CPU being R (the
one the reader returned to userspace on) or O (the other). The path most
timers of a way took is its typical path; for the timers that took it, the
table gives each step's median instructions since the deadline and since
the step before. The last step, "seen", is the program's own clock read
after it had the record (for the heap, after read() of its timerfd
returned). Every traced call adds the tracer's own instructions, which the
table reports too (the least gap between a call and one it makes at once,
hrtimer_interrupt -> __hrtimer_run_queues): subtract that per step.

usage: path_breakdown.py RESULTS KERNEL_LABEL
"""
import bisect
import collections
import os
import re
import statistics
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import late_breakdown as lb  # noqa: E402

FUNC = re.compile(r'^\s*(.+?)-(\d+)\s+(?:\(\s*\S+\)\s+)?\[(\d+)\]\s+\S+\s+(\d+(?:\.\d+)?): '
                  r'(\S+) <-(\S+)$')
WAYS = ('heap', 'ring', 'read', 'eventfd')


def load(text):
    """events [(ts, cpu, name, task)] in time order, and the ways' marks"""
    lines, evs, marks = [], [], {}
    for raw in text.splitlines():
        m = lb.LINE.match(raw)
        if m:
            lines.append(m.groups())
            continue
        m = FUNC.match(raw)
        if m:
            task, _pid, cpu, ts, fn, _caller = m.groups()
            evs.append((ts, int(cpu), fn, task))
    mono = lb.clock_map(lines)
    out = [(mono(ts), cpu, fn, task) for ts, cpu, fn, task in evs]
    for task, _pid, cpu, ts, event, rest in lines:
        w = rest.split()
        if event == 'tracing_mark_write' and len(w) >= 3 and w[0] == 'hwt-way':
            marks[(w[1], w[2])] = mono(ts)
        elif event in ('sched_wakeup', 'sched_switch', 'hwt_pass', 'hwt_expire'):
            out.append((mono(ts), int(cpu), event, task))
    out.sort(key=lambda e: e[0])
    return out, marks


def tracer_cost(evs):
    """the least gap between hrtimer_interrupt and the __hrtimer_run_queues it calls"""
    last, gaps = {}, []
    for ts, cpu, fn, _t in evs:
        if fn == 'hrtimer_interrupt':
            last[cpu] = ts
        elif fn == '__hrtimer_run_queues' and cpu in last:
            gaps.append(ts - last.pop(cpu))
    return min(gaps) if gaps else None


def paths(evs, tss, timers):
    """{signature: [[(step, since deadline)]]} of the timers given"""
    out = collections.defaultdict(list)
    for _id, deadline, _fired, seen in timers:
        i, j = bisect.bisect_left(tss, deadline), bisect.bisect_right(tss, seen)
        span = evs[i:j]
        rcpu = next((c for _ts, c, fn, _t in reversed(span)
                     if fn == 'syscall_exit_to_user_mode'), None)
        steps = [(f'{fn}@{"R" if c == rcpu else "O"}', ts - deadline)
                 for ts, c, fn, _t in span]
        steps.append(('seen', seen - deadline))
        out[tuple(s for s, _ in steps)].append(steps)
    return out


def table(way, timers, evs, tss):
    ps = paths(evs, tss, timers)
    if not ps:
        return [f'No timers of {way} in the trace.', '']
    sig, runs = max(ps.items(), key=lambda kv: len(kv[1]))
    late = sorted(t[3] - t[1] for t in timers)
    md = [f'#### {way}: {len(runs):,} of {len(timers):,} timers took this path '
          f'({len(ps)} paths in all); seen - deadline, traced: p50 {late[len(late) // 2]:,}', '',
          '| step | since the deadline | since the step before |', '|---|---|---|']
    prev = 0
    for k, step in enumerate(sig):
        v = statistics.median(r[k][1] for r in runs)
        md.append(f'| {step} | {v:,.0f} | {v - prev:,.0f} |')
        prev = v
    md.append('')
    return md


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    runs = lb.parse_results(sys.argv[1])
    for rate, (bench, text) in sorted(runs.items()):
        evs, marks = load(text)
        tss = [e[0] for e in evs]
        cost = tracer_cost(evs)
        print(f'### The path, step by step: stock {sys.argv[2]}, {rate:,} timers/s, '
              'icount (1 ns = 1 instruction)\n')
        print(f'The tracer\'s own cost per traced call: about {cost:,} instructions '
              '(hrtimer_interrupt -> __hrtimer_run_queues, least gap).\n'
              if cost is not None else '')
        timers = collections.defaultdict(list)
        for line in bench:
            w = line.split()
            if len(w) == 6 and w[0] == 'timer':
                timers[w[1]].append(tuple(int(x) for x in w[2:]))
        for way in WAYS:
            lo = marks.get((way, 'begin'), 0)
            hi = marks.get((way, 'end'), 1 << 62)
            ts = [t for t in timers.get(way, []) if lo <= t[1] <= hi]
            print('\n'.join(table(way, ts, evs, tss)))


if __name__ == '__main__':
    main()
