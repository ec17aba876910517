#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# make bench's rows counted in instructions (issue 46; run.sh calls it
# after bench/guests.sh, and it runs alone too): dev_bench's rate curve
# and cost rows in guests of Debian's stock kernels under QEMU's icount
# (tests/vm/qemu.sh, HWT_QEMU_ICOUNT), beside the multi-threaded rows of
# bench/guests.sh, which stay as the check of realism.
#
# Under "-icount shift=0,sleep=off" the guest's clocks advance 1 ns per
# guest instruction executed, by any vCPU, and jump ahead while every vCPU
# idles: a time measured in the guest is a count of instructions, whatever
# the host is doing, and repeats from run to run. It ignores caches and
# memory stalls (every instruction costs 1 ns): it ranks the work on a path.
#
# Each kernel, one boot: dev_bench floor arm_cancel uring rate victim (a
# cyclictest-like victim under each 100,000/s load: dev_bench_victim.c), with
# hwt_cputime.ko (bench/hwt_cputime.c) loaded, so that CPU per timer is
# every CPU's busy time to the microsecond, interrupts and softirqs on an
# idle CPU included (dev_bench_cpu.c), not /proc/stat's 10 ms ticks;
# then hwtimer_bench.ko: the in-kernel API's cancel + arm beside hrtimer's
# and timer_list's, 1,000 and 10,000 pending, and its lateness runs
# (2,000 one-shots of 0.5-5 ms one at a time, on hwtimer and on a soft and
# a hard hrtimer), in the same section of the results.
# Two vCPUs: Debian's 6.1 hangs under icount at "Booting SMP configuration"
# when it boots with two (sleep on or off), so it boots with maxcpus=1 and
# the guest brings the second online before dev_bench runs, which works.
# It also gets tsc=reliable: on an AMD CPU model without constant_tsc and
# with more than one possible CPU, 6.1 takes its TSCs for unsynchronized
# and times itself with the HPET, where 6.12 keeps the TSC; every vCPU
# reads one counter here, so they are synchronized.
# Both vCPUs advance the same count, so a CPU busy while the other runs is
# charged the other's instructions: lateness is in the machine's
# instructions, and CPU per timer summed over CPUs is exact when one CPU
# at a time is busy, an upper bound otherwise (HWT_ICOUNT_SMP=1 for rows
# where it is exact).
# The CPU model is "max,erms=off,fsrm=off": with ERMS the kernel copies user
# memory with "rep movsb", and icount counts each byte's iteration as an
# instruction (a 48-byte record would cost 48); without, it copies words.
#
# Results: RAW/icount-LABEL.results, the guest's result channel, then a
# section "icount:host" with how the guest ran (one JSON line: shift,
# vCPUs, CPU model, wall time).
#
# usage: bench/icount.sh OUT RAW
# environment:
#   HWT_ICOUNT_KERNELS  the labels of scripts/common.sh to run (default:
#                       BENCH_KERNELS, else 6.1,6.12,6.12-rt)
#   HWT_ICOUNT_SHIFT    icount's shift (default 0: 1 ns = 1 instruction)
#   HWT_ICOUNT_CPU      the CPU model (default max,erms=off,fsrm=off)
#   HWT_ICOUNT_SMP      vCPUs (default 2)
#   HWT_ICOUNT_PARTS    dev_bench's sections (default
#                       floor,arm_cancel,uring,rate,victim)
#   HWT_ICOUNT_RT_PARTS those of a PREEMPT_RT kernel (default rate,victim:
#                       delivery and what it costs the rest of the machine,
#                       as bench/guests.sh's 6.12-rt guest)
#   HWT_GUEST_LOCK      a file to flock around each boot, as guests.sh
#   HWT_ICOUNT_APPEND   more of the guest's command line, such as
#                       DEV_BENCH_RATES=3000,10000 (dev_bench's environment:
#                       those rates of the curve alone)
set -uo pipefail
. "$(dirname "$0")/../scripts/common.sh"

out=$1/icount raw=$2
mkdir -p "$out" "$raw"
kernels=${HWT_ICOUNT_KERNELS:-${BENCH_KERNELS:-6.1,6.12,6.12-rt}}
shift_=${HWT_ICOUNT_SHIFT:-0}
cpu=${HWT_ICOUNT_CPU:-max,erms=off,fsrm=off}
parts=${HWT_ICOUNT_PARTS:-floor,arm_cancel,uring,rate,victim}
rt_parts=${HWT_ICOUNT_RT_PARTS:-rate,victim}
src=$(hwt_src_dir)

log "icount: building the library and dev_bench"
make -s -C "$HWT_TOP" lib BUILD="$out/user" KSFT_DIR="$src/tools/testing/selftests" ||
	die "cannot build libhwtimer"
rm -rf "$out/guest"
mkdir -p "$out/guest"
hwt_dev_bench "$out/user" "$out/guest/dev_bench.bin" || die "cannot build dev_bench"
# the guest's dev_bench: every CPU online (6.1 boots on one), and
# hwt_cputime.ko loaded, for every CPU's busy time; then dev_bench
cat > "$out/guest/dev_bench" <<'EOS'
#!/bin/sh
for f in /sys/devices/system/cpu/cpu*/online; do
	[ "$(cat "$f")" = 1 ] || echo 1 > "$f" || echo "icount: cannot bring ${f%/online} online" >&2
done
printf '{"layer":"guest","group":"icount_cpus","online":%s}\n' "$(grep -c ^processor /proc/cpuinfo)"
insmod /hwt/bench/hwt_cputime.ko ||
	echo "icount: no hwt_cputime.ko: CPU time from /proc/stat's ticks" >&2
/hwt/bench/dev_bench.bin "$@"
rc=$?
rmmod hwt_cputime 2>/dev/null
# the in-kernel API beside hrtimer's and timer_list's: what a cancel + arm
# costs with 1,000 and 10,000 pending, and one-shots' lateness, one at a
# time
if [ -f /hwt/modules/hwtimer_bench.ko ]; then
	insmod /hwt/modules/hwtimer_bench.ko max_n=10000 ops=20000 nlate=2000 &&
		dmesg | sed -n -e 's/.*hwtimer_bench: \({.*"workload":"lateness".*}\)$/\1/p' \
			-e 's/.*hwtimer_bench: \({.*"cancel_arm_ns".*}\)$/\1/p'
	rmmod hwtimer_bench 2>/dev/null
fi
exit $rc
EOS
chmod +x "$out/guest/dev_bench"

[ -n "${HWT_GUEST_LOCK:-}" ] && exec 9>"$HWT_GUEST_LOCK"

for entry in "${HWT_STOCK_KERNELS[@]}"; do
	read -r label hdr _ <<<"$entry"
	[[ " ${kernels//,/ } " == *" $label "* ]] || continue
	rel=$(hwt_stock_release "$hdr")
	smp=${HWT_ICOUNT_SMP:-2}
	boot=()
	[ "$label" = 6.1 ] && [ "$smp" -gt 1 ] && boot=(maxcpus=1 tsc=reliable)
	p=$parts
	[[ $label == *-rt ]] && p=$rt_parts
	log "icount guest on stock $label ($rel): shift $shift_, $smp vCPU(s), -cpu $cpu"
	"$HWT_TOP/tests/vm/build.sh" "$(hwt_stock_headers "$rel")" "$out/mod-$label" ||
		die "module build against $rel failed"
	hwt_cputime_ko "$(hwt_stock_headers "$rel")" "$out/cputime-$label" ||
		die "hwt_cputime.ko does not build against $rel (see $out/cputime-$label/build.log)"
	cp "$out/cputime-$label/hwt_cputime.ko" "$out/guest/"
	"$HWT_TOP/tests/vm/initramfs.sh" "$out/$label.initrd.gz" "$out/mod-$label/modules" \
		bench="$out/guest" || die "cannot pack the icount guest"
	[ -n "${HWT_GUEST_LOCK:-}" ] && flock 9
	t0=$SECONDS
	HWT_QEMU_ICOUNT=$shift_ HWT_QEMU_SMP=$smp HWT_QEMU_CPU=$cpu HWT_QEMU_MEM=4G \
		"$HWT_TOP/tests/vm/qemu.sh" "$(hwt_stock_image "$rel")" "$out/$label.initrd.gz" \
		bench "$out/$label.console" "$out/$label.results" 5400 \
		hwt.bench=dev_bench "hwt.args=$p" "${boot[@]}" ${HWT_ICOUNT_APPEND:-}
	rc=$?
	wall=$((SECONDS - t0))
	[ -n "${HWT_GUEST_LOCK:-}" ] && flock -u 9
	[ $rc -eq 0 ] || log "the icount $label guest did not finish cleanly (rc=$rc, see $out/$label.console)"
	log "icount $label: $wall s"
	{
		cat "$out/$label.results"
		echo "=== hwt-begin icount:host"
		printf '{"layer":"icount","label":"%s","release":"%s","shift":%s,"smp":%s,"cpu":"%s","boot":"%s","wall_s":%s,"qemu_rc":%s}\n' \
			"$label" "$rel" "$shift_" "$smp" "$cpu" "${boot[*]}" "$wall" "$rc"
		echo "=== hwt-end icount:host rc=$rc"
	} > "$raw/icount-$label.results"
done
