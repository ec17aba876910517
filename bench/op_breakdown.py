#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Where an ADD + CANCEL pair's instructions go, from a callgrind output
file of bench/op_bench.c (valgrind --tool=callgrind --toggle-collect=
'measure_*' --compress-pos=no --compress-strings=no).

Every instruction callgrind counted is given to a category by the source
line it ran for: by the file and the function whose lines enclose it
(inlined code counts where its source is, e.g. dev_ids.h's
hwt_ids_entry() inlined into dev_ops.c is the id table's), or, for code
inlined from a generic header (list.h, bitops.h), by the function it was
inlined into. A call out of the tree (libc's memcpy(), malloc(), a
timerfd_settime()) counts whole, callees included, at its call site. The
categories (CATEGORIES, RULES below) add up to the total; the harness
(op_bench.c building the ops, checking results, moving the fake clock) is
counted apart, and the door's count per pair is the rest.

usage: op_breakdown.py CALLGRIND_OUT --door DOOR --pairs N --pending N
                       [--run OP_BENCH_JSON] [--top TOP] [--table]
prints one JSON line for bench/opcost.sh's opcost.jsonl, or with --table a
readable table (and, with --top, the costliest functions of each
category).
"""
import argparse
import json
import os
import re
import sys
from collections import defaultdict

# What a pair's instructions are spent on, in the order reports show them
CATEGORIES = [
    ("copy", "copy in/out: the op structs, SQE bytes and results, pinning"),
    ("prep", "prep and validation"),
    ("lock", "the lock: calls and irq state"),
    ("clock", "the clock read"),
    ("ids", "the id table"),
    ("account", "accounting: the user's charges, the counters"),
    ("run", "the op's own run: deadlines, the timer's state, generations"),
    ("base", "the base (base.c): sync, arming the hrtimer"),
    ("wheel", "the wheel (wheel*.c)"),
    ("alloc", "allocation: the call's buffers, what prep frees"),
    ("call", "the call's own plumbing: dispatch, the chunk loop"),
    ("heap", "the userspace heap (bench/uheap.c) and its timerfd"),
    ("other", "other: disabled tracepoints, the rest"),
]
HARNESS = "harness"

# (file, function regex or None, category): the first that matches wins.
# Files are relative to the tree's top; a function is the one whose source
# lines enclose the instruction, or for a generic header the symbol.
RULES = [
    ("bench/op_bench.c", None, HARNESS),
    ("bench/native/kshim.c", r"kshim_clock_advance", HARNESS),
    ("bench/uheap.c", None, "heap"),
    ("bench/native/kshim.c", r"_raw_spin_.*|mutex_.*|kshim_deadlock", "lock"),
    ("bench/native/kshim.c", r"ktime_.*|sched_clock", "clock"),
    ("bench/native/kshim.c",
     r"_copy_.*|clear_user|check_zeroed_user|memchr_inv|pin_user_pages_fast|"
     r"unpin_.*", "copy"),
    ("bench/native/kshim.c", r"kmalloc.*|kzalloc|kfree|kmem_cache_.*", "alloc"),
    ("bench/native/kshim.c", r"hrtimer_.*", "base"),
    ("bench/native/include/kshim/mm.h", None, "copy"),
    ("bench/native/include/kshim/time.h", None, "base"),
    ("bench/native/include/kshim/trace.h", None, "other"),
    ("kmod/dev_copy.h", None, "copy"),
    ("kmod/dev_batch.c",
     r"hwt_upin|hwt_unpin|hwt_chunk_.*|hwt_read_op|hwt_write_op|"
     r"hwt_batch_nowait", "copy"),
    ("kmod/dev_batch.c", r"hwt_batch_check", "prep"),
    ("kmod/dev_batch.c", None, "call"),
    ("kmod/dev_ioctl.c", r"hwt_op_out|hwt_copy_out", "copy"),
    ("kmod/dev_ioctl.c", None, "call"),
    ("kmod/dev_uring.c", r"hwt_uring_check_.*", "prep"),
    ("kmod/dev_uring.c", r"hwt_uring_bytes|hwt_uring_short|hwt_uring_long",
     "copy"),
    ("kmod/dev_uring.c", None, "call"),
    ("kmod/dev_prep.c", r"hwt_prepped_free", "alloc"),
    ("kmod/dev_prep.[ch]", None, "prep"),
    ("kmod/dev_ops.c", r"hwt_prep|hwt_opdef", "prep"),
    ("kmod/dev_expiry.h", None, "prep"),
    ("kmod/base.c", r"hwt_clock_index", "prep"),
    ("kmod/dev_ids.[ch]", None, "ids"),
    ("kmod/dev_account.c", r"hwt_uext_alloc|hwt_uext_free", "alloc"),
    ("kmod/dev_account.[ch]", None, "account"),
    ("kmod/base.h", r"hwt_stat_add|hwt_gstat_add|hwt_stat_max", "account"),
    ("kmod/base.h", r"hwt_base_now|hwt_base_floor|hwt_base_abs_now", "clock"),
    ("kmod/dev.h", r"hwt_now_once|hwt_nows_forget", "clock"),
    ("kmod/api.c", r"hwt_lock_arm|hwt_unlock_arm", "lock"),
    ("kmod/kbase.c", r"hwt_kbase_lock_timer", "lock"),
    ("kmod/dev_signal.h", r"hwt_lock_signals", "lock"),
    ("kmod/base.[ch]", None, "base"),
    ("kmod/base_expiry.c", None, "base"),
    ("kmod/base_impl.h", None, "base"),
    ("kmod/pass.h", None, "base"),
    ("kmod/wheel*", None, "wheel"),
    ("kmod/include/linux/hwt_node.h", None, "wheel"),
    ("kmod/dev_ops.c", None, "run"),
    ("kmod/dev_timer.[ch]", None, "run"),
    ("kmod/dev_timens.c", None, "run"),
    ("kmod/dev_queue.[ch]", None, "run"),
    ("kmod/dev_signal.h", None, "run"),
    ("kmod/dev.h", None, "run"),
    ("kmod/api.c", None, "run"),
    ("kmod/kbase.[ch]", None, "run"),
]

# headers whose inline code counts as the function it is inlined into
GENERIC = re.compile(r"^(tests/native/include/|bench/native/include/kshim/"
                     r"(core|sync|sched)\.h|bench/native/include/linux/)")


def glob_match(pattern, path):
    return re.fullmatch(pattern.replace(".", r"\.").replace("*", ".*"),
                        path) is not None


def categorize(path, func):
    for pat, fre, cat in RULES:
        if glob_match(pat, path) and (fre is None or
                                      (func and re.fullmatch(fre, func))):
            return cat
    return "other"


_SIG = re.compile(r"([A-Za-z_][A-Za-z0-9_]*)\s*\(")


def function_lines(path):
    """{line: function} for the functions of a C source or header, in the
    kernel's style: a signature from column 0, a body from a '{' in column
    0 to a '}' in column 0."""
    lines = {}
    try:
        with open(path, encoding="utf-8", errors="replace") as f:
            text = f.read().split("\n")
    except OSError:
        return lines
    start = name = None
    body = False
    for i, l in enumerate(text, 1):
        if body:
            lines[i] = name
            if l.startswith("}"):
                body = False
                start = name = None
            continue
        if not l or l[0] in " \t#/*":
            if l.startswith("#"):
                start = name = None
            continue
        if l.startswith("{") and name:
            for k in range(start, i + 1):
                lines[k] = name
            body = True
            continue
        m = _SIG.search(l)
        if m and not l.rstrip().endswith(";") and not l.startswith("}"):
            start, name = i, m.group(1)
        elif l.rstrip().endswith(";") or l.startswith("}"):
            start = name = None
    return lines


def base_symbol(sym):
    """hwt_base_arm.part.0 -> hwt_base_arm; 'name'-only symbols as they are"""
    sym = sym.split("'")[0]
    return re.sub(r"\.(part|constprop|isra|cold|lto_priv)\.\d+.*$", "", sym)


def parse(path, top):
    """Self costs by (file, line, symbol file, symbol); calls' inclusive
    costs by (caller file, line, caller symbol); the totals."""
    top = os.path.realpath(top) + "/"
    self_cost = defaultdict(int)
    call_cost = defaultdict(int)
    totals = None
    fl = fi = fn = None
    cfl = cfn = None
    in_call = cfl_given = False

    def rel(p):
        p = os.path.realpath(p) if p.startswith("/") else p
        return p[len(top):] if p.startswith(top) else None

    with open(path, encoding="utf-8", errors="replace") as f:
        for line in f:
            line = line.rstrip("\n")
            if not line:
                continue
            c = line[0]
            if c.isdigit():
                pos, cost = line.split()[:2]
                cost = int(cost)
                if in_call:
                    in_call = cfl_given = False
                    call_cost[(fi, int(pos), fl, fn, cfl, cfn)] += cost
                else:
                    self_cost[(fi, int(pos), fl, fn)] += cost
                continue
            key, _, val = line.partition("=")
            if key == "fl":
                fl = fi = rel(val)
            elif key in ("fi", "fe"):
                fi = rel(val)
            elif key == "fn":
                fn = val
                fi = fl
            elif key in ("cfl", "cfi"):
                cfl = rel(val)
                cfl_given = True
            elif key == "cfn":
                cfn = val
                # a callee in the caller's file has no cfl= of its own
                if not cfl_given:
                    cfl = fl
            elif key == "calls":
                in_call = True
            elif line.startswith("totals:"):
                totals = int(line.split()[1])
            elif line.startswith("summary:") and totals is None:
                totals = int(line.split()[1])
    return self_cost, call_cost, totals


def breakdown(path, top):
    self_cost, call_cost, totals = parse(path, top)
    flines = {}

    def func_at(file, line):
        if file not in flines:
            flines[file] = function_lines(os.path.join(top, file))
        return flines[file].get(line)

    cats = defaultdict(int)
    funcs = defaultdict(lambda: defaultdict(int))
    marked = defaultdict(int)

    def give(file, line, symfile, sym, cost):
        if file is None:
            return False	# out of the tree: counted at its call site
        if GENERIC.match(file) and symfile and not GENERIC.match(symfile):
            file, func = symfile, base_symbol(sym)
        else:
            func = func_at(file, line) or base_symbol(sym)
        cat = categorize(file, func)
        cats[cat] += cost
        funcs[cat][f"{file}:{func}"] += cost
        return True

    for (file, line, symfile, sym), cost in self_cost.items():
        give(file, line, symfile, sym, cost)
    src = {}
    for (file, line, symfile, sym, cfile, cfn), cost in call_cost.items():
        if cfile is None:
            give(file, line, symfile, sym, cost)
        if file and file.startswith("bench/op_bench.c"):
            if file not in src:
                with open(os.path.join(top, file), encoding="utf-8") as f:
                    src[file] = f.read().split("\n")
            m = re.search(r"door: (\w+)", src[file][line - 1]
                          if line <= len(src[file]) else "")
            if m:
                marked[m.group(1)] += cost
    return cats, funcs, marked, totals


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("cgout")
    ap.add_argument("--door", required=True)
    ap.add_argument("--pairs", type=int, required=True)
    ap.add_argument("--pending", type=int, required=True)
    ap.add_argument("--top", type=int, default=0)
    ap.add_argument("--table", action="store_true")
    ap.add_argument("--run", help="op_bench's own JSON line, for its "
                    "counts of hrtimer arms")
    ap.add_argument("--tree", default=os.path.join(os.path.dirname(
        os.path.abspath(__file__)), ".."))
    a = ap.parse_args()

    cats, funcs, marked, totals = breakdown(a.cgout, a.tree)
    counted = sum(cats.values())
    if totals is None or counted != totals:
        sys.exit(f"op_breakdown: categories add up to {counted}, "
                 f"callgrind's total is {totals}")
    p = a.pairs
    door = counted - cats.get(HARNESS, 0)
    per = {k: round(cats.get(k, 0) / p, 1) for k, _ in CATEGORIES}
    # rounding apart, the categories add up to the pair
    row = {"layer": "callgrind_ops", "door": a.door, "pending": a.pending,
           "pairs": p, "per": "pair", "instr": round(door / p, 1),
           "harness": round(cats.get(HARNESS, 0) / p, 1),
           "breakdown": {k: v for k, v in per.items() if v}}
    if "add" in marked and "cancel" in marked:
        row["per_op"] = {"add": round(marked["add"] / p, 1),
                         "cancel": round(marked["cancel"] / p, 1)}
    elif "pairs" in marked:
        row["per_op"] = {"mean": round(marked["pairs"] / p / 2, 1)}
    if a.run:
        ran = json.loads(a.run)
        if ran.get("door") != a.door or ran.get("pairs") != p:
            sys.exit(f"op_breakdown: --run is not of {a.door}, {p} pairs")
        for k in ("per_call", "hrtimer_starts", "hrtimer_cancels"):
            if k in ran:
                row[k] = ran[k]
    if not a.table:
        print(json.dumps(row))
        return
    print(f"{a.door}: {row['instr']} instructions per ADD + CANCEL pair "
          f"({a.pending} pending; harness {row['harness']} besides)")
    for k, desc in CATEGORIES:
        if cats.get(k):
            print(f"  {k:8} {cats[k] / p:8.1f}  {100 * cats[k] / door:5.1f}%"
                  f"  {desc}")
            top = sorted(funcs[k].items(), key=lambda kv: -kv[1])[:a.top]
            for name, cost in top:
                print(f"  {'':8} {cost / p:8.1f}         {name}")
    if "per_op" in row:
        print("  per op:", ", ".join(f"{k} {v}" for k, v in
                                     row["per_op"].items()))


if __name__ == "__main__":
    main()
