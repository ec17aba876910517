#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Summarise a hwtimer test run.

Each result log holds sections written by the guest (tests/vm/init.sh) or the
host:  "=== hwt-begin NAME", (K)TAP, "=== hwt-end NAME rc=N". Every section
is parsed by the kernel tree's own parser (tools/testing/kunit/kunit.py
parse --json); this script only adds up its verdicts. Each console log is
scanned for kernel splats, and any splat fails the run.

usage: report.py KUNIT_PY RUN... where RUN is LABEL:RESULTS_LOG[:CONSOLE_LOG[:QEMU_RC]]
Prints one line per failure and ends with "N passed, N failed, N skipped".
"""
import json
import os
import re
import subprocess
import sys
import tempfile

SPLAT = re.compile(
    r'BUG:|WARNING:|KASAN:|UBSAN:|ODEBUG:|Oops|general protection fault|'
    r'Kernel panic|unreferenced object|possible circular locking|'
    r'possible recursive locking|inconsistent lock state|'
    r'suspicious RCU usage|rcu: INFO:|detected stall|blocked for more than|'
    r'soft lockup|hard LOCKUP|list_(add|del) corruption|Call Trace:')


def sections(path):
    """Yield (name, lines, rc) for every section; rc is None if unfinished."""
    name, lines = None, []
    with open(path, errors='replace') as f:
        for raw in f:
            line = raw.rstrip('\r\n')
            m = re.match(r'=== hwt-begin (\S+)', line)
            if m:
                if name is not None:
                    yield name, lines, None
                name, lines = m.group(1), []
                continue
            m = re.match(r'=== hwt-end (\S+) rc=(-?\d+)', line)
            if m and name is not None:
                yield name, lines, int(m.group(2))
                name, lines = None, []
                continue
            if name is not None:
                lines.append(line)
    if name is not None:
        yield name, lines, None


def leaves(group, prefix):
    for case in group.get('test_cases', []):
        yield prefix + case['name'], case['status']
    for sub in group.get('sub_groups', []):
        yield from leaves(sub, prefix + sub['name'] + '.')


def diagnostics(lines, case, most=24):
    """The lines a failed case printed: between its result line and the
    result (or the harness's RUN line) before it."""
    name = case.rsplit('.', 1)[-1]
    result = re.compile(r'^\s*(not )?ok \d+ ')
    for i in range(len(lines) - 1, -1, -1):
        m = re.match(r'^\s*not ok \d+ (\S+)', lines[i])
        if not m or not m.group(1).endswith(name):
            continue
        j = i
        while j > 0 and not result.match(lines[j - 1]):
            j -= 1
            if re.match(r'^\s*#\s+RUN\s', lines[j]):
                break
        return lines[j:i][-most:]
    return []


def parse(kunit_py, lines):
    with tempfile.TemporaryDirectory() as tmp:
        src = os.path.join(tmp, 'in.tap')
        out = os.path.join(tmp, 'out.json')
        with open(src, 'w') as f:
            f.write('\n'.join(lines) + '\n')
        with open(src) as f:
            subprocess.run([sys.executable, kunit_py, 'parse', '--json=' + out],
                           stdin=f, stdout=subprocess.DEVNULL,
                           stderr=subprocess.DEVNULL)
        if not os.path.exists(out):
            return []
        with open(out) as f:
            return list(leaves(json.load(f), ''))


def main():
    kunit_py, runs = sys.argv[1], sys.argv[2:]
    passed = failed = skipped = 0

    def fail(what, detail=()):
        nonlocal failed
        failed += 1
        print(f'FAIL {what}')
        for d in detail:
            print(f'     {d}')

    for run in runs:
        label, results, console, qrc = (run.split(':') + [None, None])[:4]
        done = False
        if os.path.exists(results):
            for name, lines, rc in sections(results):
                where = f'{label}/{name}'
                if rc is None:
                    fail(f'{where}: did not finish (crash or timeout)',
                         lines[-10:])
                    continue
                cases = parse(kunit_py, lines)
                if not cases:
                    fail(f'{where}: no parsable results (rc={rc})', lines[-10:])
                    continue
                for case, status in cases:
                    if status == 'PASS':
                        passed += 1
                    elif status == 'SKIP':
                        skipped += 1
                    else:
                        fail(f'{where}: {case} ({status})',
                             diagnostics(lines, case))
                if rc != 0 and not any(s not in ('PASS', 'SKIP') for _, s in cases):
                    fail(f'{where}: exited with {rc} although every case passed')
            with open(results, errors='replace') as f:
                done = any(l.startswith('=== hwt-done') for l in f)
        if not done:
            why = 'timed out' if qrc == '124' else f'stopped early (qemu rc={qrc})'
            fail(f'{label}: the run {why} before the end')
        if console and os.path.exists(console):
            with open(console, errors='replace') as f:
                con = f.read().splitlines()
            hits = [i for i, l in enumerate(con) if SPLAT.search(l)]
            if hits:
                shown = []
                for i in hits[:5]:
                    shown += con[max(0, i - 2):i + 12] + ['...']
                fail(f'{label}: {len(hits)} kernel splat line(s) in {console}', shown)
            else:
                passed += 1
    print(f'{passed} passed, {failed} failed, {skipped} skipped')
    return 1 if failed else 0


if __name__ == '__main__':
    sys.exit(main())
