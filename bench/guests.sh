#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# make bench, layers 2 and 3 in guests of Debian's stock kernels (run.sh
# calls it; it also runs alone, for the guests' rows without the rest).
#
#  - 6.1 and 6.12: every program of the guest's bench folder
#    (bench/dev_bench.c, bench/storm_bench.c, hwtimerctl latency through
#    bench/latency_cli.sh) and hwtimer_bench.ko, in one boot;
#  - 6.12-rt: the rate curve (dev_bench rate) and hwtimerctl latency alone,
#    a boot each: PREEMPT_RT is in the comparison of delivery, not in the
#    rest;
#  - "before", on every kernel: the rate curve and hwtimerctl latency again,
#    with the module of an older commit (HWT_BENCH_BEFORE_GUEST) built by
#    that commit's own tests/vm/build.sh against the same headers, and this
#    tree's dev_bench and hwtimerctl.
#
# Results: RAW/stock-LABEL.results and RAW/stock-LABEL-before.results,
# the guests' result channels one after another (bench/report.py).
#
# usage: bench/guests.sh OUT RAW
# environment:
#   BENCH_KERNELS   the labels of scripts/common.sh to run (default: all)
#   HWT_BENCH_BEFORE_GUEST  the commit of the "before" module (default
#                   b4d9430, the module before expiry in the hrtimer's
#                   interrupt); "none" skips the before runs
#   HWT_GUEST_LOCK  a file to flock around each boot, where guests share
#                   the machine
set -uo pipefail
. "$(dirname "$0")/../scripts/common.sh"

out=$1 raw=$2
mkdir -p "$out" "$raw"
kernels=${BENCH_KERNELS:-}
before=${HWT_BENCH_BEFORE_GUEST:-b4d9430}
src=$(hwt_src_dir)

log "building the library, hwtimerctl, dev_bench and storm_bench"
make -s -C "$HWT_TOP" lib cli BUILD="$out/user" KSFT_DIR="$src/tools/testing/selftests" ||
	die "cannot build libhwtimer and hwtimerctl"
rm -rf "$out/guest" "$out/guest-bin"
mkdir -p "$out/guest" "$out/guest-bin"
cp "$out/user/bin/hwtimerctl" "$out/guest-bin/"
install -m 0755 "$HWT_TOP/bench/latency_cli.sh" "$out/guest/latency_cli"
hwt_dev_bench "$out/user" "$out/guest/dev_bench" || die "cannot build dev_bench"
gcc -O2 -g -std=gnu11 -Wall -Wextra -Wno-unused-parameter -static \
	-I"$HWT_TOP/uapi" -I"$HWT_TOP/userspace-tool/lib" -I"$out/user/include" \
	"$HWT_TOP/bench/storm_bench.c" \
	"$out/user/lib/libhwtimer.a" -lpthread -o "$out/guest/storm_bench" || die "cannot build storm_bench"

# The "before" module's sources: that commit's tree, built by its own
# tests/vm/build.sh
if [ "$before" != none ]; then
	rm -rf "$out/before-guest-src"
	mkdir -p "$out/before-guest-src"
	if ! git -C "$HWT_TOP" archive "$before" | tar -x -C "$out/before-guest-src"; then
		log "no commit $before here: no before runs"
		before=none
	fi
fi

[ -n "${HWT_GUEST_LOCK:-}" ] && exec 9>"$HWT_GUEST_LOCK"

# boot REL NAME MODULES RESULTS [APPEND...]: one guest of bench mode, its
# initramfs, console and results named after NAME; how long it took is logged
boot() {
	local rel=$1 name=$2 mods=$3 results=$4 t0 rc
	shift 4
	"$HWT_TOP/tests/vm/initramfs.sh" "$out/$name.initrd.gz" "$mods" \
		bench="$out/guest" bin="$out/guest-bin" || die "cannot pack the $name guest"
	[ -n "${HWT_GUEST_LOCK:-}" ] && flock 9
	t0=$SECONDS
	HWT_QEMU_MEM=4G "$HWT_TOP/tests/vm/qemu.sh" "$(hwt_stock_image "$rel")" \
		"$out/$name.initrd.gz" bench "$out/$name.console" "$results" 1800 "$@"
	rc=$?
	[ -n "${HWT_GUEST_LOCK:-}" ] && flock -u 9
	[ $rc -eq 0 ] || log "the $name guest did not finish cleanly (rc=$rc, see $out/$name.console)"
	log "$name: $((SECONDS - t0)) s"
}

# delivery REL NAME MODULES RESULTS: the rate curve and hwtimerctl latency,
# a boot each, their result channels into RESULTS one after the other
delivery() {
	local rel=$1 name=$2 mods=$3 results=$4
	boot "$rel" "$name-rate" "$mods" "$out/$name-rate.results" \
		hwt.bench=dev_bench hwt.args=rate
	boot "$rel" "$name-latency" "$mods" "$out/$name-latency.results" hwt.bench=latency_cli
	cat "$out/$name-rate.results" "$out/$name-latency.results" > "$results"
}

for entry in "${HWT_STOCK_KERNELS[@]}"; do
	read -r label hdr _ <<<"$entry"
	if [ -n "$kernels" ] && [[ " ${kernels//,/ } " != *" $label "* ]]; then
		continue
	fi
	rel=$(hwt_stock_release "$hdr")
	log "guests on stock $label ($rel)"
	"$HWT_TOP/tests/vm/build.sh" "$(hwt_stock_headers "$rel")" "$out/stock-$label" ||
		die "module build against $rel failed"
	if [[ $label == *-rt ]]; then
		delivery "$rel" "stock-$label" "$out/stock-$label/modules" \
			"$raw/stock-$label.results"
	else
		boot "$rel" "stock-$label" "$out/stock-$label/modules" "$raw/stock-$label.results"
	fi
	[ "$before" = none ] && continue
	rm -f "$raw/stock-$label-before.results"
	if ! "$out/before-guest-src/tests/vm/build.sh" "$(hwt_stock_headers "$rel")" \
		"$out/stock-$label-before"; then
		log "the module of $before does not build against $rel: no before run there"
		continue
	fi
	delivery "$rel" "stock-$label-before" "$out/stock-$label-before/modules" \
		"$raw/stock-$label-before.results"
done
# which module the before runs had, for the report
[ "$before" = none ] || git -C "$HWT_TOP" rev-parse --short "$before^{commit}" > "$raw/guest-before"
