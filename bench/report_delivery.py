# SPDX-License-Identifier: GPL-2.0
"""Delivery in the guests, for bench/report.py: the rate curve of each way a
program can keep many timers (dev_bench rate) and one timer at a time
(hwtimerctl latency --compare, bench/latency_cli.sh), now and with the
module of an older commit (bench/guests.sh's "before" runs), and issue 39's
targets on them.
"""
from report_fmt import fmt_ns, ratio

HEAP = 'userspace heap + one timerfd'
RING, READ, EVENTFD = 'hwtimer expiry ring', 'hwtimer read()', 'hwtimer eventfd + read()'
# /proc/stat counts busy time in ticks of USER_HZ, 100 on x86
TICK_NS = 10e6
# one timer at a time: hwtimerctl latency's series, as bench/latency_cli.sh runs it
CLI_SERIES = [('fire', 'hwtimer, the kernel\'s fire time - deadline'),
              ('wakeup', 'hwtimer, read() return - deadline'),
              ('timerfd', 'timerfd + epoll, read() return - deadline')]


def delivery_only(label):
    """Whether a guest ran the delivery rows alone (bench/guests.sh: PREEMPT_RT)."""
    return label.endswith('-rt')


def rate_rows(secs):
    return [r for r in (secs or {}).get('bench:dev_bench', []) if r.get('group') == 'rate']


def cli_row(secs):
    return next((r for r in (secs or {}).get('bench:latency_cli', [])
                 if r.get('group') == 'latency_cli'), None)


def find(rows, name, rate):
    return next((r for r in rows if r['name'] == name and r['rate'] == rate), None)


def heap_ratio(rows, name, rate, key):
    """@name's @key at @rate over the heap's, or None."""
    r, h = find(rows, name, rate), find(rows, HEAP, rate)
    if not r or not h or not h.get(key):
        return None
    return r[key] / h[key]


def then_now(was, now):
    """A cell: the before run's figure, an arrow, this run's."""
    if was is None:
        return now
    return f'{was} → {now}'


def rate_table(label, secs, old, commit):
    """The rate curve of one guest, each figure before and now."""
    rows, was = rate_rows(secs), rate_rows(old)
    if not rows and not was:
        return []
    names = list(dict.fromkeys(r['name'] for r in rows + was))
    rates = sorted({r['rate'] for r in rows + was})
    md = ['### The rate curve: timers at each rate', '',
          'Each way a program can keep many timers, at each rate in one guest run, for a '
          'second or for 10,000 timers, whichever is longer '
          '(`dev_bench rate`): lateness (when the program saw the expiry minus the deadline), '
          'every CPU\'s busy time per timer from /proc/stat (user, nice, system, interrupts, '
          'softirqs; counted in 10 ms ticks, so to '
          f'{fmt_ns(TICK_NS / max(rates[0], 10000))} per timer at {rates[0]:,}/s), and for hwtimer the '
          'kernel\'s own lateness, exact, from the records (fire time - deadline). A way '
          'that is 10 ms late or more at p99 fell behind.', '']
    if was:
        md += [f'Each cell is `before → now`: before is the module of {commit} in the same '
               'guest with this tree\'s `dev_bench`.', '']
    md += ['| rate | way | late p50 | late p99 | late max | CPU per timer | fired p50 (kernel) '
           '| fired p99 (kernel) | p99 / heap\'s | CPU / heap\'s |',
           '|---|---|---|---|---|---|---|---|---|---|']

    def cell(r, key):
        if not r or key not in r:
            return None
        return fmt_ns(r[key]) + (' (behind)' if key == 'late_p99_ns' and not r['kept_up'] else '')

    def hcell(rs, name, x, key):
        v = heap_ratio(rs, name, x, key)
        return None if v is None else f'{v:.2f}x'
    for x in rates:
        for name in names:
            r, b = find(rows, name, x), find(was, name, x)
            if not r and not b:
                continue
            keys = ['late_p50_ns', 'late_p99_ns', 'late_max_ns', 'cpu_ns_per_timer']
            if name.startswith('hwtimer'):
                keys += ['fired_late_p50_ns', 'fired_late_p99_ns']
            cells = [then_now(cell(b, k), cell(r, k) or 'n/a') for k in keys]
            cells += [''] * (6 - len(keys))
            cells += ['' if name == HEAP else
                      then_now(hcell(was, name, x, k), hcell(rows, name, x, k) or 'n/a')
                      for k in ('late_p99_ns', 'cpu_ns_per_timer')]
            md.append(f'| {x:,}/s | {name} | ' + ' | '.join(cells) + ' |')
    md.append('')
    return md


def cli_table(secs, old, commit):
    """One timer at a time: hwtimer and timerfd, as hwtimerctl latency --compare saw them."""
    r, b = cli_row(secs), cli_row(old)
    if not r and not b:
        return []
    n, spread = (r or b)['timers'], int((r or b)['spread_ns'])
    md = ['### One timer at a time: `hwtimerctl latency --compare`', '',
          f'{n:,} one-shot timers, their deadlines {fmt_ns(spread / n)} apart '
          f'(`hwtimerctl latency -n {n} --spread {spread / 1e9:g}s --compare`, '
          '`bench/latency_cli.sh`), then the same deadlines on timerfds, one each, in an '
          'epoll, in the same run. Exact percentiles of every sample.' +
          (f' Each cell is `before → now`: before is the module of {commit} in the same guest.'
           if b else ''), '',
          '| series | samples | p50 | p90 | p99 | p99.9 | max | early | p50 / timerfd\'s '
          '| p99 / timerfd\'s |', '|---|---|---|---|---|---|---|---|---|---|']

    def cell(row, key, sub):
        s = (row or {}).get(key)
        if not s:
            return None
        return f'{s[sub]:,}' if sub in ('count', 'early') else fmt_ns(s[sub])

    def vs(row, key, sub):
        s, t = (row or {}).get(key), (row or {}).get('timerfd')
        return ratio(s[sub], t[sub]) if s and t else None
    subs = ('count', 'p50_ns', 'p90_ns', 'p99_ns', 'p99_9_ns', 'max_ns', 'early')
    for key, what in CLI_SERIES:
        cells = [then_now(cell(b, key, sub), cell(r, key, sub) or 'n/a') for sub in subs]
        cells += ['', ''] if key == 'timerfd' else \
            [then_now(vs(b, key, sub), vs(r, key, sub) or 'n/a') for sub in ('p50_ns', 'p99_ns')]
        md.append(f'| {what} | ' + ' | '.join(cells) + ' |')
    md.append('')
    return md


def targets(label, secs, old, verdict):
    """Issue 39's targets on one guest: [(target, measured, verdict)]."""
    rows, was, out = rate_rows(secs), rate_rows(old), []
    # the most p99 and p50 over the heap's, at each rate; PREEMPT_RT 2x
    if delivery_only(label):
        most = {x: (2, 2) for x in (3000, 10000, 30000, 100000)}
    else:
        most = {3000: (1.5, 1.2), 10000: (1.5, 1.2), 30000: (1.5, 1.2), 100000: (2, 1.2)}
    rates = sorted(most)

    def bound(i):
        """"1.5x at 3,000/10,000/30,000/s, 2x at 100,000/s": the rates of each limit"""
        by = {}
        for x in rates:
            by.setdefault(most[x][i], []).append(x)
        return ', '.join(f'{m}x at ' + '/'.join(f'{x:,}' for x in xs) + '/s'
                         for m, xs in by.items())

    def series(rs, name, key):
        """[(rate, @key over the heap's)] where both were measured (a heap
        whose run took no tick of CPU has no ratio)"""
        return [(x, heap_ratio(rs, name, x, key)) for x in rates
                if heap_ratio(rs, name, x, key) is not None]

    def listed(now, then):
        """"3,000/s 1.20x, ..." and the before run's at the same rates"""
        def x_of(d, x):
            return f'{d[x]:.2f}x' if x in d else 'n/a'
        now, then = dict(now), dict(then)
        at = [x for x in rates if x in now or x in then]
        return ', '.join(f'{x:,}/s {x_of(now, x)}' for x in at) + \
            (' (was ' + ', '.join(x_of(then, x) for x in at) + ')' if then else '')
    for name in (RING, READ):
        for key, i, what in (('late_p99_ns', 0, 'p99'), ('late_p50_ns', 1, 'p50')):
            now = series(rows, name, key)
            if not now:
                continue
            out.append((f'{label}: {name}: lateness {what} within {bound(i)} of heap + one '
                        'timerfd\'s', listed(now, series(was, name, key)),
                        verdict(all(v <= most[x][i] for x, v in now))))
    def fired(rs):
        """{way: the kernel's fired - deadline p99 at 10,000/s}"""
        return {name: r['fired_late_p99_ns'] for name, r in
                ((name, find(rs, name, 10000)) for name in (RING, READ, EVENTFD))
                if r and 'fired_late_p99_ns' in r}
    now, then = fired(rows), fired(was)
    if now:
        out.append((f'{label}: the kernel\'s own fired - deadline p99 <= 100 us at 10,000/s',
                    ', '.join(f'{n[len("hwtimer "):]} {fmt_ns(v)}' for n, v in now.items()) +
                    (' (was ' + ', '.join(fmt_ns(then.get(n)) for n in now) + ')'
                     if then else ''),
                    verdict(all(v <= 100e3 for v in now.values()))))
    for name in (RING, READ):
        now = series(rows, name, 'cpu_ns_per_timer')
        if now:
            out.append((f'{label}: {name}: CPU per delivered timer no more than heap + one '
                        'timerfd\'s, 3,000 .. 100,000/s',
                        listed(now, series(was, name, 'cpu_ns_per_timer')),
                        verdict(all(v <= 1 for _, v in now))))
    r, b = cli_row(secs), cli_row(old)
    if r and 'wakeup' in r and 'timerfd' in r:
        h, t = r['wakeup']['p99_ns'], r['timerfd']['p99_ns']
        out.append((f'{label}: one timer at a time (hwtimerctl latency --compare): p99 no later '
                    'than timerfd\'s', f'{fmt_ns(h)} against {fmt_ns(t)}' +
                    (f' (was {fmt_ns(b["wakeup"]["p99_ns"])} against '
                     f'{fmt_ns(b["timerfd"]["p99_ns"])})' if b and 'wakeup' in b else ''),
                    verdict(h <= t)))
    return out
