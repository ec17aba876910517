# SPDX-License-Identifier: GPL-2.0
"""The rows counted in instructions, for bench/report.py: dev_bench's rate
curve and cost rows in the icount guests of bench/icount.sh, where 1 ns of
the guest's clocks is one instruction executed, and issue 46's targets on
them. RAW/icount-LABEL.results, and beside it, if there,
RAW/icount-LABEL-before.results (a run of an older module: then each cell
is `before → now`).
"""
import glob
import os

HEAP = 'userspace heap + one timerfd'
RING, READ, EVENTFD = 'hwtimer expiry ring', 'hwtimer read()', 'hwtimer eventfd + read()'
TFD = 'timerfd + epoll'
KAPI, KAPI_REF = 'hwtimer', 'hrtimer (softirq)'
KAPI_COST_REF = 'timer_list'
# the targets: the most over the heap's lateness, p50 / p99 / max
BOUND = (1.2, 1.5, 3.0)
KEYS = ('late_p50_ns', 'late_p99_ns', 'late_max_ns')


def load(raw, sections):
    """{label: {'secs': .., 'host': .., 'before': secs or None}}, by label"""
    out = {}
    for path in sorted(glob.glob(os.path.join(raw, 'icount-*.results'))):
        label = os.path.basename(path)[len('icount-'):-len('.results')]
        if label.endswith('-before'):
            continue
        secs = sections(path)[0]
        bpath = os.path.join(raw, f'icount-{label}-before.results')
        out[label] = {'secs': secs,
                      'host': next(iter(secs.get('icount:host', [])), {}),
                      'before': sections(bpath)[0] if os.path.exists(bpath) else None}
    return out


def instr(v):
    """a count of instructions (ns under icount shift 0)"""
    return 'n/a' if v is None else f'{v:,.0f}'


def rows(secs, group):
    return [r for r in (secs or {}).get('bench:dev_bench', []) if r.get('group') == group]


def find(rs, name, rate):
    return next((r for r in rs if r['name'] == name and r['rate'] == rate), None)


def then_now(was, now):
    return now if was is None or was == now else f'{was} → {now}'


def over(rs, name, ref, rate, key):
    """@name's @key over @ref's at @rate; None where @ref fell behind"""
    r, h = find(rs, name, rate), find(rs, ref, rate)
    if not r or not h or not h.get(key) or not h.get('kept_up', True):
        return None
    return r[key] / h[key]


def saturated(r):
    """whether the CPUs were busy for the whole delivery: CPU per timer at
    least the gap between deadlines (work and time are one count here)"""
    return r.get('cpu_ns_per_timer', 0) >= 0.95e9 / r['rate']


def how(label, g):
    """how a guest ran, in words"""
    host = g['host']
    if not host:
        return f'stock {label}'
    smp = host.get('smp')
    online = next((r['online'] for r in g['secs'].get('bench:dev_bench', [])
                   if r.get('group') == 'icount_cpus'), smp)
    cpus = f'{smp} vCPU{"s" if smp != 1 else ""}'
    if 'maxcpus=1' in host.get('boot', '') and smp > 1:
        cpus += f' (booted on one, the rest brought online; `{host["boot"]}`)'
    if online != smp:
        cpus += f', **{online} online**'
    return (f'stock {label} ({host.get("release", "?")}), {cpus}, '
            f'`-icount shift={host.get("shift")},sleep=off`, `-cpu {host.get("cpu")}`, '
            f'{host.get("wall_s", 0):,} s of wall time for the whole guest')


def rate_table(label, g):
    rs, was = rows(g['secs'], 'rate'), rows(g['before'], 'rate')
    if not rs:
        return [f'No rate rows from the icount guest on stock {label} '
                f'(qemu rc={g["host"].get("qemu_rc", "?")}).', '']
    names = list(dict.fromkeys(r['name'] for r in rs))
    rates = sorted({r['rate'] for r in rs})
    src = {r.get('cpu_from', 'proc_stat') for r in rs}
    md = [f'### Delivery counted in instructions: {how(label, g)}', '',
          'The rate curve of make bench (`dev_bench rate`: each way a program can keep '
          'many timers, due uniformly within a second or over 10,000 timers, all armed '
          'ahead), in a guest whose clocks count instructions: **every figure is in '
          'instructions (1 ns = 1 instruction)**' +
          (', executed by either vCPU (both advance one count)' if g['host'].get('smp', 1) > 1
           else '') + '. Lateness is when the program saw the expiry minus the deadline; '
          '"x heap" is p50 / p99 / max over the heap + one timerfd\'s in the same run '
          '(for eventfd + read(), over timerfd + epoll\'s). CPU per timer is every CPU\'s '
          'busy time over the run per timer, ' +
          ('interrupts and softirqs on idle CPUs included (the tick\'s idle time, to the '
           'microsecond, bench/hwt_cputime.c)' if src == {'tick_idle'} else
           'from /proc/stat\'s 10 ms ticks (hwt_cputime.ko was not there)') +
          '; "never idle" where that is the gap between deadlines or more: the machine '
          'was busy for the whole delivery (work and time are one count here), and how '
          'late it came out is the measure. The reader\'s is its thread\'s own CPU time '
          '(sum_exec_runtime). Fired: the kernel\'s own fire time - deadline, from hwtimer\'s '
          'records; passes: hwtimer\'s passes that ran on the reader\'s CPU and on another '
          '(fdinfo; a file with an eventfd counts neither).' + (' Each cell is `before → now`.' if was else ''), '',
          '| rate | way | late p50 | late p99 | late max | x heap (p50 / p99 / max) '
          '| CPU per timer | reader\'s CPU per timer | fired p50 | fired p99 '
          '| passes: reader\'s CPU / another |',
          '|---|---|---|---|---|---|---|---|---|---|---|']

    def cell(r, key):
        if not r or key not in r:
            return None
        if key == 'late_p99_ns' and not r['kept_up']:
            return instr(r[key]) + ' (behind)'
        if key == 'cpu_ns_per_timer' and saturated(r):
            return instr(r[key]) + ' (never idle)'
        return instr(r[key])

    def where(r):
        if not r or 'passes_on_reader_cpu' not in r:
            return '' if r else None
        return f'{r["passes_on_reader_cpu"]:,} / {r["passes_elsewhere"]:,}'

    def ratios(rs_, name, x):
        ref = TFD if name == EVENTFD else HEAP
        v = [over(rs_, name, ref, x, k) for k in KEYS]
        return None if None in v else ' / '.join(f'{a:.2f}' for a in v)
    for x in rates:
        for name in names:
            r, b = find(rs, name, x), find(was, name, x)
            if not r:
                continue
            keys = list(KEYS) + ['cpu_ns_per_timer', 'reader_ns_per_timer']
            cells = [then_now(cell(b, k), cell(r, k) or 'n/a') for k in keys[:3]]
            cells.append('' if name in (HEAP, TFD) else
                         then_now(ratios(was, name, x), ratios(rs, name, x) or 'n/a'))
            cells += [then_now(cell(b, k), cell(r, k) or 'n/a') for k in keys[3:]]
            cells += [then_now(cell(b, k), cell(r, k) or '') for k in
                      ('fired_late_p50_ns', 'fired_late_p99_ns')]
            cells.append(then_now(where(b), where(r)))
            md.append(f'| {x:,}/s | {name} | ' + ' | '.join(cells) + ' |')
    md.append('')
    return md


def cost_table(label, g):
    """floors and arm + cancel, in instructions"""
    rs = rows(g['secs'], 'floor') + rows(g['secs'], 'arm_cancel')
    was = {(r['group'], r['name']): r for r in
           rows(g['before'], 'floor') + rows(g['before'], 'arm_cancel')}
    if not rs:
        return []
    heap = next((r['value'] for r in rs if r['name'] == HEAP), None)
    md = [f'### What an operation costs, in instructions: stock {label}', '',
          'The cost rows of make bench (`dev_bench floor arm_cancel uring`) in the same '
          'guest: instructions per operation (floors) or per timer armed and cancelled, '
          '1,000 others pending in a FIFO, median of repeats.', '',
          '| operation | instructions | / heap + one timerfd |', '|---|---|---|']
    for r in rs:
        b = was.get((r['group'], r['name']))
        vs = '' if r['group'] == 'floor' or not heap else f'{r["value"] / heap:.2f}x'
        cell = then_now(instr(b['value']) if b else None, instr(r['value']))
        md.append(f'| {r["name"]} | {cell} | {vs} |')
    md.append('')
    return md


def kapi_rows(secs):
    """hwtimer_bench.ko's lateness runs, in the dev_bench section"""
    return [r for r in (secs or {}).get('bench:dev_bench', [])
            if r.get('workload') == 'lateness']


def kapi_cost_rows(secs):
    """hwtimer_bench.ko's cancel + arm rows, in the dev_bench section"""
    return [r for r in (secs or {}).get('bench:dev_bench', []) if 'cancel_arm_ns' in r]


def kapi_cost_table(label, g):
    """the in-kernel API's cancel + arm beside hrtimer's and timer_list's"""
    rs = kapi_cost_rows(g['secs'])
    if not rs:
        return []
    was = {(r['impl'], r['n']): r for r in kapi_cost_rows(g['before'])}
    ref = {r['n']: r for r in rs if r['impl'] == KAPI_COST_REF}
    md = [f"### A driver's cancel + arm, in instructions: stock {label}", '',
          'hwtimer_bench.ko in the same guest: N timers pending 100-160 s ahead, then '
          'cancel + arm of a random one at a random 100-160 s, per pair; arm and '
          'cancel alone while filling and emptying. The loop\'s own instructions '
          '(a random number, a deadline) are in every row.', '',
          '| timer | pending | cancel + arm | arm | cancel | cancel + arm / timer_list\'s |',
          '|---|---|---|---|---|---|']
    for r in rs:
        b = was.get((r['impl'], r['n']))
        cells = [then_now(instr(b[k]) if b else None, instr(r[k]))
                 for k in ('cancel_arm_ns', 'arm_ns', 'cancel_ns')]
        t = ref.get(r['n'])
        vs = f'{r["cancel_arm_ns"] / t["cancel_arm_ns"]:.2f}x' if t and t['cancel_arm_ns'] else ''
        md.append(f'| {r["impl"]} | {r["n"]:,} | ' + ' | '.join(cells) + f' | {vs} |')
    md.append('')
    return md


def kapi_table(label, g):
    """the in-kernel API's lateness beside hrtimer's, in instructions"""
    rs = kapi_rows(g['secs'])
    if not rs:
        return []
    was = {r['impl']: r for r in kapi_rows(g['before'])}
    soft = next((r for r in rs if r['impl'] == KAPI_REF), None)
    md = [f"### A driver's one-shots, in instructions: stock {label}", '',
          f'hwtimer_bench.ko\'s lateness runs in the same guest: {rs[0]["timers"]:,} '
          'timers one at a time, each 0.5-5 ms ahead and armed once the one before '
          'fired; lateness is the callback\'s clock read minus the deadline.', '',
          '| timer | late p50 | late p99 | late max | early | x soft hrtimer (p50 / p99) |',
          '|---|---|---|---|---|---|']
    for r in rs:
        b = was.get(r['impl'])
        cells = [then_now(instr(b[k]) if b else None, instr(r[k])) for k in KEYS]
        vs = '' if r is soft or not soft else ' / '.join(
            f'{r[k] / soft[k]:.2f}' if soft[k] else 'n/a' for k in KEYS[:2])
        md.append(f'| {r["impl"]} | ' + ' | '.join(cells) + f' | {r["early"]} | {vs} |')
    md.append('')
    return md


VICTIM_IDLE = 'idle'
VICTIM_LOADS = (RING, READ)
VICTIM_REFS = ('stress-ng --timer', 'stress-ng --hrtimers')


def victim_table(label, g):
    """the cyclictest-like victim, idle and under each load"""
    rs, was = rows(g['secs'], 'victim'), {r['name']: r for r in rows(g['before'], 'victim')}
    if not rs:
        return []
    idle = next((r for r in rs if r['name'] == VICTIM_IDLE), None)
    md = [f'### The rest of the machine under a load, in instructions: stock {label}', '',
          '`dev_bench victim` (bench/dev_bench_victim.c) in the same guest: on every CPU a '
          'SCHED_FIFO 99 thread, pinned, memory locked, wakes every '
          f'{rs[0]["period_ns"] / 1000:.0f} us on an absolute CLOCK_MONOTONIC deadline, as '
          '`cyclictest -m -p 99 -n -a CPU` does, and notes how late; idle, then while each '
          f'load\'s {rs[0]["rate"]:,} timers a second come due: hwtimer\'s ring and read() '
          'and the heap + one timerfd (dev_bench rate\'s loads), and the shapes of '
          'stress-ng\'s timer and hrtimers '
          'stressors at the same rate (one periodic POSIX timer signalling a handler; 32 '
          'processes with one each). All CPUs\' samples together; worst CPU apart. Busy: '
          'every CPU\'s busy time over the load\'s run, arming or forking and the victims '
          'included, per timer (idle: per 10 us).', '',
          '| load | samples | late p50 | late p99 | late max | worst CPU p99 / max '
          '| p99 / max x idle | busy per timer |', '|---|---|---|---|---|---|---|---|']
    for r in rs:
        b = was.get(r['name'])
        cells = [then_now(instr(b[k]) if b else None, instr(r[k])) for k in KEYS]
        vs = '' if r is idle or not idle else ' / '.join(
            f'{r[k] / max(idle[k], 1):.2f}' for k in KEYS[1:])
        md.append(f'| {r["name"]} | {r["samples"]:,} | ' + ' | '.join(cells) +
                  f' | {instr(r["cpu_p99_ns"])} / {instr(r["cpu_max_ns"])} | {vs} '
                  f'| {instr(r.get("busy_ns_per_timer"))} |')
    md.append('')
    return md


def section(icounts):
    """BENCHMARKS.md's section of the icount guests"""
    if not icounts:
        return []
    md = ['## Counted in instructions: the icount guests', '',
          'The same stock kernels under QEMU\'s instruction counting (`bench/icount.sh`): '
          'a time measured in these guests is the number of instructions executed on the '
          'way, whatever the host was doing, so these rows repeat from run to run where '
          'the multi-threaded rows above move several times. Every instruction costs the '
          'same (no caches, no memory stalls): they rank the work on a path, and the '
          'multi-threaded rows stay as the check of realism.', '']
    for label, g in icounts.items():
        md += rate_table(label, g)
        md += cost_table(label, g)
        md += kapi_cost_table(label, g)
        md += kapi_table(label, g)
        md += victim_table(label, g)
    return md


def victim_targets(label, g, verdict):
    """the victim's p99 and max under hwtimer's loads against the stressors'"""
    out = []
    v = {r['name']: r for r in rows(g['secs'], 'victim')}
    refs = [v[x] for x in VICTIM_REFS if x in v]
    for name in VICTIM_LOADS:
        if name in v and refs:
            # no worse than under either: the milder one's
            mild = {k: min(r[k] for r in refs) for k in KEYS[1:]}
            out.append((f'icount {label}: a cyclictest-like victim under {name} at '
                        f'{v[name]["rate"]:,}/s: p99 and max no worse than under '
                        'stress-ng\'s timer stressors\' shapes',
                        ' / '.join(f'{instr(v[name][k])} vs {instr(mild[k])}'
                                   for k in KEYS[1:]),
                        verdict(all(v[name][k] <= mild[k] for k in KEYS[1:]))))
    return out


def targets(icounts, verdict):
    """Issue 46's targets on the icount rows: [(target, measured, verdict)]"""
    out = []
    for label, g in icounts.items():
        out += victim_targets(label, g, verdict)
        rs = rows(g['secs'], 'rate')
        if not rs:
            continue
        mid = [x for x in (3000, 10000, 30000, 100000) if find(rs, HEAP, x)]
        for name, ref in ((RING, HEAP), (READ, HEAP), (EVENTFD, TFD)):
            got = {x: [over(rs, name, ref, x, k) for k in KEYS] for x in mid}
            got = {x: v for x, v in got.items() if None not in v}
            if got:
                ok = all(v[i] <= BOUND[i] for v in got.values() for i in range(3))
                out.append((f'icount {label}: {name}: lateness p50 / p99 / max within '
                            f'{BOUND[0]} / {BOUND[1]} / {BOUND[2]}x {ref}\'s, '
                            + '/'.join(f'{x:,}' for x in got) + '/s',
                            ', '.join(f'{x:,}/s ' + ' / '.join(f'{a:.2f}' for a in v)
                                      for x, v in got.items()), verdict(ok)))
            top = [over(rs, name, ref, 300000, k) for k in KEYS]
            if None not in top:
                out.append((f'icount {label}: {name}: at 300,000/s no worse than {ref}',
                            ' / '.join(f'{a:.2f}x' for a in top) + ' (p50 / p99 / max)',
                            verdict(all(a <= 1 for a in top))))
        for name in (RING, READ, EVENTFD):
            r = find(rs, name, 10000)
            if r and 'fired_late_p50_ns' in r:
                p50, p99 = r['fired_late_p50_ns'], r['fired_late_p99_ns']
                out.append((f'icount {label}: {name}: the kernel\'s fired - deadline at '
                            '10,000/s, p50 <= 1,000 and p99 <= 2,000 instructions',
                            f'{instr(p50)} / {instr(p99)}', verdict(p50 <= 1000 and p99 <= 2000)))
        k = {r['impl']: r for r in kapi_rows(g['secs'])}
        if KAPI in k and k.get(KAPI_REF):
            v = [k[KAPI][x] / max(k[KAPI_REF][x], 1) for x in KEYS[:2]]
            out.append((f'icount {label}: the in-kernel API\'s lateness within 1.2x of a '
                        'soft hrtimer\'s, p50 and p99',
                        ' / '.join(f'{a:.2f}x' for a in v) +
                        f' ({instr(k[KAPI]["late_p50_ns"])} / {instr(k[KAPI]["late_p99_ns"])})',
                        verdict(all(a <= 1.2 for a in v))))
        c = {(r['impl'], r['n']): r for r in kapi_cost_rows(g['secs'])}
        got = [(n, c[(KAPI, n)]['cancel_arm_ns'] / max(c[(KAPI_COST_REF, n)]['cancel_arm_ns'], 1))
               for n in sorted({n for _, n in c}) if (KAPI, n) in c and (KAPI_COST_REF, n) in c]
        if got:
            out.append((f'icount {label}: the in-kernel API\'s cancel + arm no dearer than '
                        'timer_list\'s del_timer() + mod_timer() (issue 48)',
                        ', '.join(f'{n:,} pending {v:.2f}x' for n, v in got),
                        verdict(all(v <= 1 for _, v in got))))
        for name in (RING, READ, EVENTFD):
            got = [(x, over(rs, name, HEAP, x, 'cpu_ns_per_timer')) for x in mid]
            got = [(x, v) for x, v in got if v is not None]
            if got:
                out.append((f'icount {label}: {name}: CPU per delivered timer, every CPU, '
                            'no more than the heap\'s',
                            ', '.join(f'{x:,}/s {v:.2f}x' for x, v in got),
                            verdict(all(v <= 1 for _, v in got))))
    return out
