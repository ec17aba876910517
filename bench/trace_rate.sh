#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The breakdown of late expiries (issue 39): run one rate of the guests'
# rate curve at a time (dev_bench trace RATE) in a stock guest with the
# kernel's and hwtimer's tracepoints on, then attribute every timer the
# program saw later than twice the heap's p99 to a cause
# (bench/late_breakdown.py).
#
# Under icount (HWT_QEMU_ICOUNT=SHIFT, tests/vm/qemu.sh) every time in the
# breakdown is a count of instructions: the trace then runs on the x86-tsc
# clock, which counts the guest's ns there, and late_breakdown.py maps it
# onto CLOCK_MONOTONIC to the nanosecond (the "mono" clock prints
# microseconds, a thousand instructions). The guest gets bench/icount.sh's
# CPU model (HWT_QEMU_CPU overrides it), and 6.1, which hangs at boot under
# icount with two vCPUs, boots on one and brings the other online, its TSC
# taken for reliable (bench/icount.sh says why). The
# tracepoints' own instructions count too: a traced run is later than an
# untraced one (at 10,000/s the ring's p50 went from 8,800 to 14,700).
#
# usage: bench/trace_rate.sh [RATE...]     (default: 10000 30000)
# environment: HWT_TRACE_KERNEL=6.12|6.1|6.12-rt (default 6.12),
#   HWT_TRACE_OUT (default .vm/trace); the tables go to stdout and to
#   $HWT_TRACE_OUT/breakdown.md, the raw traces stay in $HWT_TRACE_OUT.
#   HWT_TRACE_CLOCK: the trace's clock (default mono, under icount x86-tsc)
set -uo pipefail
. "$(dirname "$0")/../scripts/common.sh"

rates=("$@")
[ ${#rates[@]} -gt 0 ] || rates=(10000 30000)
want=${HWT_TRACE_KERNEL:-6.12}
out=${HWT_TRACE_OUT:-$HWT_OUT/trace}
rel=
for entry in "${HWT_STOCK_KERNELS[@]}"; do
	read -r label hdr _ <<<"$entry"
	[ "$label" = "$want" ] && rel=$(hwt_stock_release "$hdr")
done
[ -n "$rel" ] || die "no stock kernel $want (scripts/common.sh)"
clock=${HWT_TRACE_CLOCK:-mono}
icount=() boot=()
if [ -n "${HWT_QEMU_ICOUNT:-}" ]; then
	clock=${HWT_TRACE_CLOCK:-x86-tsc}
	icount=(--icount "$HWT_QEMU_ICOUNT")
	export HWT_QEMU_CPU=${HWT_QEMU_CPU:-max,erms=off,fsrm=off}
	[ "$want" = 6.1 ] && boot=(maxcpus=1 tsc=reliable)
fi
rm -rf "$out"
mkdir -p "$out/guest"
hwt_trace_guest_build "$rel" "$out"

# The guest's side: the events, then each rate with its trace after it,
# compressed (a second of 30,000 timers is some 20 MB of text).
cat > "$out/guest/dev_bench" <<EOS
#!/bin/sh
for f in /sys/devices/system/cpu/cpu*/online; do
	[ "\$(cat \$f)" = 1 ] || echo 1 > \$f
done
T=/sys/kernel/tracing
[ -d \$T/events ] || mount -t tracefs nodev \$T
sym() { sed -n "s/^\\([0-9a-f]*\\) [tT] \$1\\( .*\\)\\?\$/0x\\1/p" /proc/kallsyms | head -n 1; }
tick=\$(sym hwt_file_tick)
echo 65536 > \$T/buffer_size_kb
echo $clock > \$T/trace_clock
for e in hwt_pass hwt_expire hwt_tick hwt_cascade; do
	echo 1 > \$T/events/hwtimer/\$e/enable
done
for e in hrtimer_start hrtimer_expire_entry; do
	echo "function == \$tick" > \$T/events/timer/\$e/filter
	echo 1 > \$T/events/timer/\$e/enable
done
echo 1 > \$T/events/irq_vectors/local_timer_entry/enable
for e in softirq_raise softirq_entry softirq_exit; do
	echo 'vec == 8' > \$T/events/irq/\$e/filter
	echo 1 > \$T/events/irq/\$e/enable
done
echo 'comm == "dev_bench.bin"' > \$T/events/sched/sched_wakeup/filter
echo 'prev_comm == "dev_bench.bin" || next_comm == "dev_bench.bin"' > \$T/events/sched/sched_switch/filter
echo 1 > \$T/events/sched/sched_wakeup/enable
echo 1 > \$T/events/sched/sched_switch/enable
echo 1 > \$T/events/workqueue/workqueue_execute_start/enable
for r in ${rates[*]}; do
	echo > \$T/trace
	echo 1 > \$T/tracing_on
	echo "=== rate \$r"
	/hwt/bench/dev_bench.bin trace \$r
	echo 0 > \$T/tracing_on
	echo "=== trace \$r"
	cat \$T/trace | gzip -c | base64
	echo "=== end \$r"
done
EOS
chmod +x "$out/guest/dev_bench"
"$HWT_TOP/tests/vm/initramfs.sh" "$out/initrd.gz" "$out/mod/modules" bench="$out/guest" > /dev/null
HWT_QEMU_MEM=4G "$HWT_TOP/tests/vm/qemu.sh" "$(hwt_stock_image "$rel")" "$out/initrd.gz" bench \
	"$out/console" "$out/results" 3600 hwt.bench=dev_bench "${boot[@]}" ||
	die "the guest failed (see $out/console)"
# HWT_TRACE_ANALYSE=0: the guest's run only (bench/late_breakdown.py later)
[ "${HWT_TRACE_ANALYSE:-1}" = 0 ] ||
	python3 "$HWT_TOP/bench/late_breakdown.py" "$out/results" "$want" "${icount[@]}" |
	tee "$out/breakdown.md"
