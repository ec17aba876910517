#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# make bench: the three layers of benchmarks, then BENCHMARKS.md and the
# plots. It reuses the VM harness (tests/vm), needs no debug kernel, and
# reports figures only: nothing here fails on speed.
#
#  1. native: the wheel core against heaps and a red-black tree, N = 10^3
#     .. 10^7 (bench/core_bench.c), plus instruction counts from callgrind;
#     the engine at scale: the wheel and the pass rule under streams,
#     backlogs and bursts of timers (bench/engine_bench.c);
#  2. in a guest on Debian's stock 6.12 and 6.1: the userspace API against
#     timerfd, POSIX timers and io_uring (bench/dev_bench.c), and what
#     adversarial loads do to a real-time probe's latency
#     (bench/storm_bench.c); on 6.12-rt too, the rate curve of delivery
#     and hwtimerctl latency, and both again with the module of
#     HWT_BENCH_BEFORE_GUEST (bench/guests.sh);
#  3. the in-kernel API against hrtimer and timer_list
#     (kmod/bench/hwtimer_bench.c): natively, in User-Mode Linux built from
#     tests/vm/uml-bench.config (no debug options), and in the same guests;
#  then layer 2's rate curve and cost rows again in guests of 6.1 and 6.12
#  under QEMU's instruction counting, where every figure is a count of
#  instructions and repeats from run to run (bench/icount.sh).
#
# Environment: BENCH_MAX_N (default 10000000) bounds layer 1; BENCH_ICOUNT=0
# skips the icount guests.
set -uo pipefail
. "$(dirname "$0")/../scripts/common.sh"

out=$HWT_OUT/bench
mkdir -p "$out"
raw=$out/raw
rm -rf "$raw"
mkdir -p "$raw"
max_n=${BENCH_MAX_N:-10000000}

"$HWT_TOP/scripts/deps.sh" || die "cannot install the harness packages"
bench_pkgs=(libbsd-dev liburing-dev valgrind)
missing=()
for p in "${bench_pkgs[@]}"; do
	dpkg-query -W -f='${Status}\n' "$p" 2>/dev/null | grep -q '^install ok installed$' ||
		missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
	log "installing ${missing[*]}"
	DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends \
		"${missing[@]}" >"$out/apt.log" 2>&1 || die "apt-get install failed (see $out/apt.log)"
fi

# 1. native
log "layer 1: the wheel core against heaps and an rbtree, natively (N up to $max_n)"
gcc -O2 -g -std=gnu11 -Wall -Wextra -Wno-unused-parameter -Wno-sign-compare -DHWT_SHIM_FAST \
	-I"$HWT_TOP/tests/native/include" -I"$HWT_TOP/kmod" -I"$HWT_TOP/kmod/include" \
	"$HWT_TOP/bench/core_bench.c" -o "$out/core_bench" || die "cannot build core_bench"
"$out/core_bench" -n "$max_n" > "$raw/native.jsonl" || die "core_bench failed"
"$out/core_bench" -w geometry -n 100000 >> "$raw/native.jsonl" || die "core_bench -w geometry failed"
# by N from 10^4, the contenders taking turns, medians of three
"$out/core_bench" -w sweep -m 10000 -n "$max_n" -r 3 -o 100000 >> "$raw/native.jsonl" ||
	die "core_bench -w sweep failed"
log "layer 1: the engine at scale (the module's wheel and pass rule, simulated clock)"
gcc -O2 -g -std=gnu11 -Wall -Wextra -Wno-unused-parameter -Wno-sign-compare -DHWT_SHIM_FAST \
	-I"$HWT_TOP/tests/native/include" -I"$HWT_TOP/kmod" -I"$HWT_TOP/kmod/include" \
	"$HWT_TOP/bench/engine_bench.c" -o "$out/engine_bench" || die "cannot build engine_bench"
: > "$raw/engine.jsonl"
for R in 1500 20000; do
	for rule in rearm run; do
		for load in "-w stream -r 100000 -d 60000 -t 20" "-w stream -r 100000 -d 2000 -t 10" \
			"-w stream -r 1000000 -d 2000 -t 10" "-w drain" "-w burst" "-w herd"; do
			# shellcheck disable=SC2086
			"$out/engine_bench" -R $R -p $rule $load >> "$raw/engine.jsonl" ||
				die "engine_bench $load failed"
		done
	done
done
log "layer 1: instruction counts (valgrind --tool=callgrind)"
: > "$raw/callgrind.jsonl"
# callgrind BIN IMPL LABEL WORKLOADS...: instructions per operation
callgrind() {
	local bin=$1 impl=$2 label=$3 w n=100000 ops=100000 ir per
	shift 3
	for w in "$@"; do
		valgrind --tool=callgrind --callgrind-out-file="$out/cg.out" \
			--toggle-collect='measure_*' "$bin" -m $n -n $n -r 1 \
			-i "$impl" -w "$w" -o $ops > "$out/cg.stdout" 2>/dev/null ||
			die "callgrind on $label/$w failed"
		ir=$(sed -n 's/^totals: *\([0-9]*\).*/\1/p' "$out/cg.out")
		case $w in expire|burst_pop) per=$n ;; *) per=$ops ;; esac
		printf '{"layer":"callgrind","impl":"%s","workload":"%s","n":%s,"instr_per_op":%s}\n' \
			"$label" "$w" "$n" "$(awk -v a="$ir" -v b="$per" 'BEGIN { printf "%.1f", a / b }')" \
			>> "$raw/callgrind.jsonl"
	done
}
for impl in wheel heap2 heap4 rbtree timer_list; do
	callgrind "$out/core_bench" $impl $impl arm_cancel modify expire burst_pop
done
# what the workloads cost around no structure: each one's own share is the rest
callgrind "$out/core_bench" null null arm_cancel modify
# the op path's doors, counted the same way (bench/opcost.sh)
"$HWT_TOP/bench/opcost.sh" "$out" "$raw" || die "the op path's counts failed"
# beside them, what the wheel did per operation: nodes moved, levels looked
# at, looks at every level (a counting build, wheel_impl.h's look hooks)
gcc -O2 -g -std=gnu11 -w -DHWT_SHIM_FAST -DHWT_WHEEL_COUNT \
	-I"$HWT_TOP/tests/native/include" -I"$HWT_TOP/kmod" -I"$HWT_TOP/kmod/include" \
	"$HWT_TOP/bench/core_bench.c" -o "$out/core_bench_count" || die "cannot build the counting core_bench"
: > "$raw/counts.jsonl"
for w in arm_cancel modify expire burst_pop; do
	"$out/core_bench_count" -m 100000 -n 100000 -r 1 -i wheel -w $w -o 100000 |
		sed 's/"layer":"native"/"layer":"counts"/' >> "$raw/counts.jsonl" ||
		die "the counting core_bench failed on $w"
done
# D1 misses per operation by N, from callgrind's cache simulation (10^7
# pending take too long under it)
log "layer 1: D1 misses per operation (valgrind --tool=callgrind --cache-sim=yes)"
: > "$raw/d1.jsonl"
for n in 10000 100000 1000000; do
	[ "$n" -le "$max_n" ] || continue
	for impl in wheel heap2 rbtree timer_list; do
		for w in arm_cancel expire; do
			valgrind --tool=callgrind --cache-sim=yes --callgrind-out-file="$out/cg.out" \
				--toggle-collect='measure_*' "$out/core_bench" -m $n -n $n -r 1 \
				-i $impl -w $w -o 100000 > "$out/cg.stdout" 2>/dev/null ||
				die "callgrind --cache-sim on $impl/$w/$n failed"
			# totals: Ir Dr Dw I1mr D1mr D1mw ILmr DLmr DLmw
			awk -v impl=$impl -v w=$w -v n=$n '
				/^totals:/ { per = w == "expire" ? n : 100000
				  printf "{\"layer\":\"d1\",\"impl\":\"%s\",\"workload\":\"%s\",\"n\":%d,\"d1_misses_per_op\":%.2f}\n",
					impl, w, n, ($6 + $7) / per }' "$out/cg.out" >> "$raw/d1.jsonl"
		done
	done
done
# the wheel core of HWT_BENCH_BEFORE (a commit), under the same harness;
# -DHWT_BENCH_BEFORE: a wheel whose pops cascaded ahead themselves
before=${HWT_BENCH_BEFORE:-44d230f}
if git -C "$HWT_TOP" cat-file -e "$before^{commit}" 2>/dev/null; then
	rm -rf "$out/before"
	mkdir -p "$out/before"
	git -C "$HWT_TOP" archive "$before" kmod | tar -x -C "$out/before"
	if gcc -O2 -g -std=gnu11 -w -DHWT_SHIM_FAST -DHWT_BENCH_BEFORE \
		-I"$HWT_TOP/tests/native/include" \
		-I"$out/before/kmod" -I"$out/before/kmod/include" -I"$HWT_TOP/bench" \
		"$HWT_TOP/bench/core_bench.c" -o "$out/core_bench_before" 2>"$out/before.log"; then
		callgrind "$out/core_bench_before" wheel "wheel at $before" \
			arm_cancel modify expire burst_pop
		# and its herd, for the before/after of the engine's herd rows
		if gcc -O2 -g -std=gnu11 -w -DHWT_SHIM_FAST -DHWT_BENCH_BEFORE \
			-I"$HWT_TOP/tests/native/include" \
			-I"$out/before/kmod" -I"$out/before/kmod/include" \
			"$HWT_TOP/bench/engine_bench.c" -o "$out/engine_bench_before" 2>>"$out/before.log"; then
			for R in 1500 20000; do
				"$out/engine_bench_before" -R $R -p run -w herd |
					sed "s/^{/{\"wheel\":\"$before\",/" >> "$raw/engine.jsonl"
			done
		fi
	else
		log "the wheel of $before does not build under this harness (see $out/before.log)"
	fi
fi

# 3, natively: the kernel as a host process, its code at this CPU's speed
log "layer 3 natively: hwtimer_bench.ko in User-Mode Linux"
ukdir=$("$HWT_TOP/tests/vm/kernel.sh" "$HWT_TOP/tests/vm/uml-bench.config") ||
	die "cannot build the UML kernel"
"$HWT_TOP/tests/vm/build.sh" "$ukdir" "$out/uml" || die "module build against UML failed"
"$HWT_TOP/tests/vm/initramfs.sh" "$out/uml/initrd.gz" "$out/uml/modules"
HWT_UML_MEM=2G "$HWT_TOP/tests/vm/uml.sh" "$ukdir" "$out/uml/initrd.gz" bench \
	"$out/uml.console" "$raw/uml.results" 1800 ||
	log "the UML run did not finish cleanly (see $out/uml.console)"

# 2 + 3. guests: stock 6.1 and 6.12 in full, the delivery rows on 6.12-rt,
# and those rows again with an older module (bench/guests.sh)
"$HWT_TOP/bench/guests.sh" "$out" "$raw" || die "the guests' part failed"
if [ "${BENCH_ICOUNT:-1}" != 0 ]; then
	log "layer 2 counted in instructions: icount guests"
	"$HWT_TOP/bench/icount.sh" "$out" "$raw" || die "the icount guests' part failed"
fi

log "writing BENCHMARKS.md and the plots"
python3 "$HWT_TOP/bench/report.py" "$raw" "$HWT_TOP" || die "report failed"
log "done: BENCHMARKS.md, bench/*.svg"
