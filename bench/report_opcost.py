# SPDX-License-Identifier: GPL-2.0
"""Where an ADD + CANCEL pair's instructions go, for bench/report.py: each
door of the op path counted by callgrind natively (bench/op_bench.c, the
module's own files over bench/native's shims; bench/op_breakdown.py sorts
the instructions), RAW/opcost.jsonl. Nothing when that file is absent, as
in the raw directories of runs before it.
"""
from op_breakdown import CATEGORIES

DOORS = [
    ('batch', 'BATCH ioctl, 256 pairs per call'),
    ('uring_batch', 'io_uring HWTIMER_URING_BATCH, 256 pairs per command'),
    ('one', 'one ioctl per op'),
    ('uring_one', 'io_uring one-op commands'),
    ('kapi', 'in-kernel API: hwtimer_cancel() + hwtimer_start()'),
    ('uheap', 'userspace binary heap + one timerfd'),
]


def num(v):
    if v is None:
        return 'n/a'
    return f'{v:.1f}' if v < 10 else f'{v:,.0f}'


def then_now(was, now):
    return now if was is None or was == now else f'{was} → {now}'


def section(rows):
    """Markdown lines: the pair per door and pending count, then the
    breakdown of a pair by category at the largest pending count; where a
    tree before this one was run too (rows with "tree"), `before → now`."""
    rows = [r for r in rows if r.get('layer') == 'callgrind_ops']
    olds = [r for r in rows if r.get('tree')]
    rows = [r for r in rows if not r.get('tree')]
    if not rows:
        return []
    tree = olds[0]['tree'] if olds else None
    pendings = sorted({r['pending'] for r in rows})
    doors = [(d, name) for d, name in DOORS if any(r['door'] == d for r in rows)]

    def get(door, pending, rs=None):
        return next((r for r in (rows if rs is None else rs)
                     if r['door'] == door and r['pending'] == pending), None)

    def pair(door, pending):
        was = get(door, pending, olds)
        return then_now(num(was['instr']) if was else None,
                        num((get(door, pending) or {}).get('instr')))

    big = pendings[-1]
    md = ['### Where an ADD + CANCEL pair\'s instructions go (callgrind, native op path)', '',
          '`bench/op_bench.c` builds the module\'s own files for userspace over the shims of '
          '`bench/native` (locks, clocks, hrtimers, the slab, user memory), with the kernel\'s '
          'code generation (no SSE; an endbr64 and ftrace\'s nop at each function\'s entry), '
          'loads it with its '
          'own `module_init()`, opens the device through its `open()`, and counts under '
          'callgrind what a pair costs through each door: a CANCEL of a random pending timer '
          'and an ADD with a relative deadline of 1 .. 60 s, no slack, no eventfd. Each door '
          'is entered where the kernel enters it (the file\'s `->unlocked_ioctl` or '
          '`->uring_cmd`, the exported functions): the system call\'s own path and '
          'io_uring\'s are not in these counts, and what the shims stand for costs more in '
          'the kernel (a lock\'s cmpxchg and irq state, a clock read\'s rdtsc, a copy\'s '
          'stac/clac, pinning\'s page walk: `bench/native/README`). So these are the '
          'module\'s own instructions, a floor under the icount rows. The harness\'s '
          'work (building the ops, checking every result) is counted apart and left out.' +
          (f' Each cell is `before → now`, before being {tree}\'s module under this harness.'
           if tree else ''), '',
          '| door | ' + ' | '.join(f'per pair, {p:,} pending' for p in pendings) +
          f' | per op ({big:,} pending) |', '|---|' + '---|' * (len(pendings) + 1)]
    for d, name in doors:
        r = get(d, big)
        po = (r or {}).get('per_op', {})
        ops = (f'ADD {num(po["add"])}, CANCEL {num(po["cancel"])}' if 'add' in po else
               f'{num(po["mean"])} (ADD and CANCEL share the call)' if 'mean' in po else 'n/a')
        md.append(f'| {name} | ' + ' | '.join(pair(d, p) for p in pendings) + f' | {ops} |')
    md += ['', f'A pair by category, {big:,} pending (`bench/op_breakdown.py` has the rules: '
           'an instruction goes to the file and function its source line is in, so inlined '
           'code counts where it is written; a call out of the module, to `memcpy()` or '
           '`malloc()`, counts at its call site):', '',
           '| category | ' + ' | '.join(d for d, _ in doors) + ' |',
           '|---|' + '---|' * len(doors)]
    for k, desc in CATEGORIES:
        vals = [(get(d, big) or {}).get('breakdown', {}).get(k) for d, _ in doors]
        was = [(get(d, big, olds) or {}).get('breakdown', {}).get(k) for d, _ in doors]
        if any(vals) or any(was):
            md.append(f'| {desc} | ' + ' | '.join(
                then_now(num(b) if b else None, num(v) if v else '')
                for b, v in zip(was if olds else [None] * len(vals), vals)) + ' |')
    md.append('| **the pair** | ' + ' | '.join(f'**{pair(d, big)}**' for d, _ in doors) + ' |')
    md.append('| (the harness, not counted) | ' +
              ' | '.join(num((get(d, big) or {}).get('harness')) for d, _ in doors) + ' |')
    md.append('')
    return md
