#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Trace the first seconds of the guests' rate curve (dev_bench rate) in a
# stock 6.12 guest: hwtimer's hrtimer starts and expiries, the local APIC
# timer interrupts and HRTIMER softirqs, as bench/notes.md reads them.
# Usage: bench/trace_rate.sh; the trace ends in .vm/trace/results.
src=$(cd "$(dirname "$0")/.." && pwd)
out=$src/.vm/trace
rm -rf $out; mkdir -p $out/guest
rel=6.12.117+deb12-amd64
$src/tests/vm/build.sh /usr/src/linux-headers-$rel $out/mod > $out/build.log 2>&1 || { echo build failed; exit 1; }
make -s -C "$src" lib BUILD=$out/user KSFT_DIR=$HOME/.cache/hwtimer/src/linux-6.12.117-1~deb12u1/tools/testing/selftests
gcc -O2 -g -std=gnu11 -w -static -I$src/uapi -I$src/userspace-tool/lib -I$out/user/include $src/bench/dev_bench.c $src/bench/dev_bench_expiry.c $src/bench/dev_bench_uring.c $src/bench/uheap.c $out/user/lib/libhwtimer.a -luring -o $out/guest/dev_bench.bin || exit 1
cat > $out/guest/dev_bench <<'EOS'
#!/bin/sh
T=/sys/kernel/tracing
[ -d $T/events ] || mount -t tracefs nodev $T
echo 131072 > $T/buffer_size_kb
echo 1 > $T/events/timer/hrtimer_start/enable
echo 1 > $T/events/timer/hrtimer_expire_entry/enable
echo 'vec == 8' > $T/events/irq/softirq_raise/filter
echo 'vec == 8' > $T/events/irq/softirq_entry/filter
echo 1 > $T/events/irq/softirq_raise/enable
echo 1 > $T/events/irq/softirq_entry/enable
echo 1 > $T/events/irq_vectors/local_timer_entry/enable
echo 1 > $T/tracing_on
/hwt/bench/dev_bench.bin "$@" &
sleep 6
echo 0 > $T/tracing_on
wait
echo "=== trace"
grep -E "hwt_file_tick|softirq_raise|softirq_entry|local_timer_entry" $T/trace
echo "=== trace end"
EOS
chmod +x $out/guest/dev_bench
$src/tests/vm/initramfs.sh $out/initrd.gz $out/mod/modules bench=$out/guest > /dev/null
HWT_QEMU_MEM=4G $src/tests/vm/qemu.sh /boot/vmlinuz-$rel $out/initrd.gz bench $out/console $out/results 1200 hwt.bench=dev_bench hwt.args=rate
echo rc=$?
